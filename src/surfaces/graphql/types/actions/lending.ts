/** Details of EVAA (lending) and jVault (jetton staking) actions (v3.md §4.4 "EVAA and jVault"). */
import type { JettonAmountPair } from '../../../../api/v3/action-details.js';
import { detailsType, structType } from './kit.js';

const JettonAmountRef = structType<JettonAmountPair>('JettonAmount', 'An amount of one jetton.', (f) => ({
  ...f.jetton('jetton', 'jetton', (p) => p.jetton),
  amount: f.bigint('amount', (p) => p.amount),
}));

export const LENDING_DETAILS = [
  detailsType('EvaaSupplyDetails', ['evaa_supply'], 'An asset supplied to EVAA', (f) => ({
    ...f.jettonWallet('senderJettonWallet', 'sender_jetton_wallet', (a) => a.details.sender_jetton_wallet),
    ...f.jettonWallet('recipientJettonWallet', 'recipient_jetton_wallet', (a) => a.details.recipient_jetton_wallet),
    ...f.jettonWallet('masterJettonWallet', 'master_jetton_wallet', (a) => a.details.master_jetton_wallet),
    master: f.account('master', (a) => a.details.master, 'the EVAA master contract'),
    assetId: f.string('asset_id', (a) => a.details.asset_id),
    isTon: f.boolean('is_ton', (a) => a.details.is_ton),
    source: f.account('source', (a) => a.details.source),
    sourceWallet: f.account('source_wallet', (a) => a.details.source_wallet),
    recipient: f.account('recipient', (a) => a.details.recipient),
    recipientContract: f.account('recipient_contract', (a) => a.details.recipient_contract),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('EvaaWithdrawDetails', ['evaa_withdraw'], 'An asset withdrawn from EVAA', (f) => ({
    ...f.jettonWallet('recipientJettonWallet', 'recipient_jetton_wallet', (a) => a.details.recipient_jetton_wallet),
    ...f.jettonWallet('masterJettonWallet', 'master_jetton_wallet', (a) => a.details.master_jetton_wallet),
    master: f.account('master', (a) => a.details.master, 'the EVAA master contract'),
    failReason: f.string('fail_reason', (a) => a.details.fail_reason),
    assetId: f.string('asset_id', (a) => a.details.asset_id),
    source: f.account('source', (a) => a.details.source),
    recipient: f.account('recipient', (a) => a.details.recipient),
    ownerContract: f.account('owner_contract', (a) => a.details.owner_contract),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('EvaaLiquidateDetails', ['evaa_liquidate'], 'An EVAA position liquidated', (f) => ({
    failReason: f.string('fail_reason', (a) => a.details.fail_reason),
    debtAmount: f.bigint('debt_amount', (a) => a.details.debt_amount),
    source: f.account('source', (a) => a.details.source),
    borrower: f.account('borrower', (a) => a.details.borrower),
    borrowerContract: f.account('borrower_contract', (a) => a.details.borrower_contract),
    collateral: f.account('collateral', (a) => a.details.collateral),
    assetId: f.string('asset_id', (a) => a.details.asset_id),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    isKnownAsset: f.boolean('is_known_asset', (a) => a.details.is_known_asset),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('JvaultStakeDetails', ['jvault_stake'], 'Jettons staked in a jVault pool', (f) => ({
    period: f.int('period', (a) => a.details.period),
    mintedStakeJettons: f.bigint('minted_stake_jettons', (a) => a.details.minted_stake_jettons),
    stakeWallet: f.account('stake_wallet', (a) => a.details.stake_wallet),
    source: f.account('source', (a) => a.details.source),
    ...f.jettonWallet('sourceJettonWallet', 'source_jetton_wallet', (a) => a.details.source_jetton_wallet),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    pool: f.account('pool', (a) => a.details.pool),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('JvaultUnstakeDetails', ['jvault_unstake', 'jvault_unstake_request'], 'Jettons unstaked (or asked to be) from a jVault pool', (f) => ({
    source: f.account('source', (a) => a.details.source),
    stakeWallet: f.account('stake_wallet', (a) => a.details.stake_wallet),
    pool: f.account('pool', (a) => a.details.pool),
    amount: f.bigint('amount', (a) => a.details.amount),
    exitCode: f.int('exit_code', (a) => a.details.exit_code),
    ...f.jetton('asset', 'asset', (a) => a.details.asset),
    ...f.jetton('stakingAsset', 'staking_asset', (a) => a.details.staking_asset),
  })),
  detailsType('JvaultClaimDetails', ['jvault_claim'], 'Rewards claimed from a jVault pool', (f) => ({
    claimedRewards: f.objects('claimed_rewards', JettonAmountRef, (a) => a.details.claimed_rewards),
    source: f.account('source', (a) => a.details.source),
    stakeWallet: f.account('stake_wallet', (a) => a.details.stake_wallet),
    pool: f.account('pool', (a) => a.details.pool),
  })),
];
