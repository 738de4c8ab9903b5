/** Details of staking, elections and subscriptions (v3.md §4.4 "Staking and elections", "Subscriptions"). */
import { detailsType } from './kit.js';

export const STAKING_DETAILS = [
  detailsType('StakeDepositDetails', ['stake_deposit'], 'TON staked in a pool', (f) => ({
    provider: f.string('provider', (a) => a.details.provider, 'liquid_staking (Tonstakers; tonstakers before May 2026), nominator, ethena, …'),
    stakeHolder: f.account('stake_holder', (a) => a.details.stake_holder),
    pool: f.account('pool', (a) => a.details.pool),
    amount: f.bigint('amount', (a) => a.details.amount),
    tokensMinted: f.bigint('tokens_minted', (a) => a.details.tokens_minted),
    ...f.jetton('asset', 'asset', (a) => a.details.asset, 'the pool jetton (tsTON, …)'),
    ...f.jetton('sourceAsset', 'source_asset', (a) => a.details.source_asset, 'ethena only'),
  })),
  detailsType('StakeWithdrawalDetails', ['stake_withdrawal'], 'Stake paid out of a pool', (f) => ({
    provider: f.string('provider', (a) => a.details.provider),
    stakeHolder: f.account('stake_holder', (a) => a.details.stake_holder),
    pool: f.account('pool', (a) => a.details.pool),
    amount: f.bigint('amount', (a) => a.details.amount),
    ...f.nftItem('payoutNft', 'payout_nft', (a) => a.details.payout_nft),
    tokensBurnt: f.bigint('tokens_burnt', (a) => a.details.tokens_burnt),
    ...f.jetton('asset', 'asset', (a) => a.details.asset, 'the pool jetton'),
  })),
  detailsType('StakeWithdrawalRequestDetails', ['stake_withdrawal_request'], 'A withdrawal from a pool asked for (paid later)', (f) => ({
    provider: f.string('provider', (a) => a.details.provider),
    stakeHolder: f.account('stake_holder', (a) => a.details.stake_holder),
    pool: f.account('pool', (a) => a.details.pool),
    ...f.nftItem('payoutNft', 'payout_nft', (a) => a.details.payout_nft, 'the withdrawal bill'),
    ...f.jetton('asset', 'asset', (a) => a.details.asset, 'the pool jetton'),
    tokensBurnt: f.bigint('tokens_burnt', (a) => a.details.tokens_burnt),
    tokensMinted: f.bigint('tokens_minted', (a) => a.details.tokens_minted),
  })),
  detailsType('ElectionDetails', ['election_deposit', 'election_recover'], 'A validator stake sent to or recovered from the elector', (f) => ({
    stakeHolder: f.account('stake_holder', (a) => a.details.stake_holder),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('SubscriptionDetails', ['subscribe', 'unsubscribe'], 'A subscription (plugin) started, paid or cancelled', (f) => ({
    subscriber: f.account('subscriber', (a) => a.details.subscriber),
    beneficiary: f.account('beneficiary', (a) => a.details.beneficiary),
    subscription: f.account('subscription', (a) => a.details.subscription),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
];
