/**
 * swap.coffee staking (a pool minting a position NFT per deposit), as the reference classifier reads it
 * (`indexer/events/blocks/messages/coffee.py` of toncenter/ton-indexer).
 *
 * TL-B (the members read here):
 *   staking_deposit#f9471134 query_id:uint64 sender:MsgAddressInt jetton_amount:Coins from_user:MsgAddressInt
 *     period_id:uint32 = InMsgBody;
 *   staking_claim_rewards#b30c7310 query_id:uint64 jetton_wallet:MsgAddressInt jetton_amount:Coins
 *     receiver:MsgAddressInt payload:(Maybe ^CoffeeStakingForwardData) = InMsgBody;
 *   the three legs of a withdrawal share one opcode, cb03bfaf:
 *   staking_position_withdraw_1 query_id:uint64                                              (owner → position NFT)
 *   staking_position_withdraw_2 query_id:uint64 nft_id:uint64 owner:MsgAddressInt points:Coins
 *     jetton_data:^[wallet:MsgAddressInt amount:Coins]                                       (position NFT → pool)
 *   staking_position_withdraw_3 query_id:uint64 jetton_wallet:MsgAddressInt jetton_amount:Coins
 *     owner:MsgAddressInt                                                                    (pool → pool, and its log)
 * Vaults and MEV protection:
 *   native$00 = Asset;  jetton$01 chain:uint8 hash:uint256 = Asset;  extra$10 id:uint32 = Asset;
 *   create_vault#c0ffee06 query_id:uint64 asset:Asset = CreateVault;
 *   deploy#c0ffee22 code:^Cell data:^Cell action:(Maybe ^Cell) = Deploy;
 *   mev_protect_hold_funds#6bc79e7e query_id:uint64 = MevProtectHoldFunds;   service_fee#c0ffeea0 = ServiceFee;
 * Liquidity withdrawal (an LP jetton burn):
 *   payout_internal#c0ffee21 ... (pool → vault), payout#c0ffee32 query_id:uint64 (TON vault → user),
 *   notification#c0ffee36 ..., liquidity_withdrawal_event#c0ffee35 query_id:uint64 amount1:Coins amount2:Coins ...
 */
import type { Cell } from '@ton/core';
import { rawUpper } from '../address.js';

export const COFFEE_OP = {
  createVault: 0xc0ffee06,
  deploy: 0xc0ffee22,
  mevProtectHoldFunds: 0x6bc79e7e,
  serviceFee: 0xc0ffeea0,
  payoutInternal: 0xc0ffee21,
  payout: 0xc0ffee32,
  notification: 0xc0ffee36,
  withdrawalEvent: 0xc0ffee35,
} as const;

/** liquidity_withdrawal_event: the two amounts paid out. */
export function loadCoffeeWithdrawalEvent(body: Cell): { amount1: bigint; amount2: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const amount1 = s.loadCoins();
  return { amount1, amount2: s.loadCoins() };
}

/** create_vault: the vault's asset (null for TON); an extra currency has no jetton address, and is refused. */
export function loadCoffeeCreateVaultAsset(body: Cell): string | null {
  const s = body.beginParse();
  s.skip(32 + 64);
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 1) throw new Error(`swap.coffee asset tag ${tag} has no jetton address`);
  const chain = s.loadUint(8);
  return `${chain === 255 ? -1 : chain}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

export const COFFEE_STAKING_OP = {
  deposit: 0xf9471134,
  claimRewards: 0xb30c7310,
  positionWithdraw: 0xcb03bfaf,
} as const;

export function loadCoffeeClaimRewards(body: Cell): { jettonWallet: string; amount: bigint; receiver: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const jettonWallet = rawUpper(s.loadAddress());
  const amount = s.loadCoins();
  return { jettonWallet, amount, receiver: rawUpper(s.loadAddress()) };
}

export function loadCoffeePositionWithdraw2(body: Cell): { nftId: bigint; owner: string; points: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const nftId = s.loadUintBig(64);
  const owner = rawUpper(s.loadAddress());
  return { nftId, owner, points: s.loadCoins() };
}

export function loadCoffeePositionWithdraw3(body: Cell): { jettonWallet: string; amount: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const jettonWallet = rawUpper(s.loadAddress());
  return { jettonWallet, amount: s.loadCoins() };
}
