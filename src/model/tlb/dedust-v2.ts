/**
 * DeDust CPMM v2 (pools holding the assets themselves, LP shares in per-owner Position contracts): the messages of
 * fee and reward claims, as the reference classifier reads them (`indexer/events/blocks/messages/dedust_v2.py` of
 * toncenter/ton-indexer).
 *
 * TL-B (the members read here):
 *   claim_position_fees#5652f1df query_id:uint64 excesses_to:MsgAddressInt = InMsgBody;        (user → pool)
 *   claim_available_fees#25f19752 ... = InMsgBody;                                             (pool → position)
 *   payout_position_fees#29ff1bcf query_id:uint64 x_fees:Coins y_fees:Coins owner:MsgAddressInt
 *     excesses_to:MsgAddressInt = InMsgBody;                                                   (position → pool)
 *   claim_reward#909fdb65 query_id:uint64 reward_index:uint2 excesses_to:MsgAddressInt = InMsgBody;
 *   claim_position_reward#2e0cccba ... = InMsgBody;                                            (pool → position)
 *   payout_reward#9e17fbbe query_id:uint64 amount:Coins reward_index:uint2 owner:MsgAddressInt
 *     excesses_to:MsgAddressInt = InMsgBody;                                                   (position → pool)
 *   payout#3216ca09 query_id:uint64 amount:Coins exit_code:int32 payload:(Maybe ^Cell) = InMsgBody; (pool → user, TON)
 */
import type { Cell } from '@ton/core';
import { rawUpper } from '../address.js';

export const DEDUST_V2_OP = {
  claimPositionFees: 0x5652f1df,
  claimAvailableFees: 0x25f19752,
  payoutPositionFees: 0x29ff1bcf,
  claimReward: 0x909fdb65,
  claimPositionReward: 0x2e0cccba,
  payoutReward: 0x9e17fbbe,
  payout: 0x3216ca09,
} as const;

export function loadPayoutPositionFees(body: Cell): { xFees: bigint; yFees: bigint; owner: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const xFees = s.loadCoins();
  const yFees = s.loadCoins();
  return { xFees, yFees, owner: rawUpper(s.loadAddress()) };
}

export function loadPayoutReward(body: Cell): { amount: bigint; rewardIndex: number; owner: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const amount = s.loadCoins();
  const rewardIndex = s.loadUint(2);
  return { amount, rewardIndex, owner: rawUpper(s.loadAddress()) };
}

/** A TON payout's amount. */
export function loadV2PayoutAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}
