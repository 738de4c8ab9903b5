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
 *
 * Payments into a pool carry the operation as a payload:
 *   pay_native#a5a7cbf8 query_id:uint64 amount:Coins payment_payload:^Cell payout_config:^Cell = InMsgBody;
 *   pay_jetton#cbc33949 payment_payload:^Cell payout_config:^Cell = ForwardPayload;        (in a jetton transfer)
 *   swap#c442500f minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) ... = PaymentPayload;
 *   _ pool:MsgAddressInt minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) = SwapStep;
 *   deposit#c9a015da amount_x:Coins amount_y:Coins ... = PaymentPayload;                      (the target amounts)
 * Swaps, deposits and withdrawals:
 *   swap#78e79ba4 x_to_y:Bool amount_in:Coins amount_out:Coins ... = ExtOutMsgBody;             (pool's event)
 *   credit_asset#dc5ddba1 query_id:uint64 is_x:Bool amount:Coins = InMsgBody;                   (pool → deposit)
 *   join_liquidity#25251ee0 query_id:uint64 config:^Cell amount_x:Coins amount_y:Coins
 *     initiator:MsgAddressInt = InMsgBody;                                                      (deposit → pool)
 *   deposit#35df2e12 amount_x_in:Coins amount_y_in:Coins liquidity:Coins ... = ExtOutMsgBody;   (pool's event)
 *   credit_liquidity#855afcbd ... = InMsgBody;                                                  (pool → position)
 *   withdraw#20b5ef89 query_id:uint64 liquidity:Coins minimal_x_out:Coins minimal_y_out:Coins
 *     auto_claim_fees:Bool payout_config:^Cell = InMsgBody;                                     (user → pool)
 *   withdraw_liquidity#bc1531a9 ... = InMsgBody;                                                (pool → position)
 *   exit_liquidity#f6f6a3aa ... = InMsgBody;                                                    (position → pool)
 *   withdrawal#c0d77b54 liquidity:Coins amount_x_out:Coins amount_y_out:Coins ... = ExtOutMsgBody; (pool's event)
 */
import type { Cell, Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const DEDUST_V2_OP = {
  claimPositionFees: 0x5652f1df,
  claimAvailableFees: 0x25f19752,
  payoutPositionFees: 0x29ff1bcf,
  claimReward: 0x909fdb65,
  claimPositionReward: 0x2e0cccba,
  payoutReward: 0x9e17fbbe,
  payout: 0x3216ca09,
  payNative: 0xa5a7cbf8,
  payJetton: 0xcbc33949,
  swapPayload: 0xc442500f,
  depositPayload: 0xc9a015da,
  swapEvent: 0x78e79ba4,
  creditAsset: 0xdc5ddba1,
  joinLiquidity: 0x25251ee0,
  depositEvent: 0x35df2e12,
  creditLiquidity: 0x855afcbd,
  withdraw: 0x20b5ef89,
  withdrawLiquidity: 0xbc1531a9,
  exitLiquidity: 0xf6f6a3aa,
  withdrawalEvent: 0xc0d77b54,
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


/** A TON payout: its amount and exit code (0 pays out; anything else refunds). */
export function loadV2Payout(body: Cell): { amount: bigint; exitCode: number } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const amount = s.loadCoins();
  return { amount, exitCode: s.loadInt(32) };
}

/** The operation a payment carries: its opcode and its slice (positioned after the opcode). */
export interface PaymentPayload {
  op: number;
  payload: Slice;
}

/** pay_native: the TON paid and the operation. */
export function loadPayNative(body: Cell): { amount: bigint } & PaymentPayload {
  const s = body.beginParse();
  if (s.loadUint(32) !== DEDUST_V2_OP.payNative) throw new Error('not pay_native');
  s.skip(64);
  const amount = s.loadCoins();
  const payload = s.loadRef().beginParse();
  return { amount, op: payload.loadUint(32), payload };
}

/** pay_jetton (a jetton transfer's forward payload): the operation. */
export function loadPayJetton(forward: Cell): PaymentPayload {
  const s = forward.beginParse();
  if (s.loadUint(32) !== DEDUST_V2_OP.payJetton) throw new Error('not pay_jetton');
  const payload = s.loadRef().beginParse();
  return { op: payload.loadUint(32), payload };
}

/** A swap payload's floor for the route's final output: its own minimum is the first hop's, the last step's is the route's. */
export function loadSwapFinalMinOut(payload: Slice): bigint {
  let minOut = payload.loadCoins();
  payload.skip(40);
  let next = payload.loadMaybeRef();
  for (let depth = 0; next && depth < 16; depth++) {
    const step = next.beginParse();
    step.loadAddress();
    minOut = step.loadCoins();
    step.skip(40);
    next = step.loadMaybeRef();
  }
  return minOut;
}

/** A deposit payload's target amounts. */
export function loadDepositPayload(payload: Slice): { amountX: bigint; amountY: bigint } {
  return { amountX: payload.loadCoins(), amountY: payload.loadCoins() };
}

/** The pool's swap event: what went in and came out of this hop. */
export function loadV2SwapEvent(body: Cell): { amountIn: bigint; amountOut: bigint } {
  const s = body.beginParse();
  s.skip(32 + 1);
  return { amountIn: s.loadCoins(), amountOut: s.loadCoins() };
}

/** credit_asset: which side (x or y) of the pool this leg is, and its amount. */
export function loadCreditAsset(body: Cell): { isX: boolean; amount: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  return { isX: s.loadBit(), amount: s.loadCoins() };
}

/** join_liquidity: the amounts the deposit contract holds and who deposited. */
export function loadJoinLiquidity(body: Cell): { amountX: bigint; amountY: bigint; initiator: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  s.loadRef();
  const amountX = s.loadCoins();
  const amountY = s.loadCoins();
  return { amountX, amountY, initiator: rawUpper(s.loadAddress()) };
}

/** The pool's deposit event: the amounts taken and the liquidity minted. */
export function loadDepositEvent(body: Cell): { amountXIn: bigint; amountYIn: bigint; liquidity: bigint } {
  const s = body.beginParse();
  s.skip(32);
  return { amountXIn: s.loadCoins(), amountYIn: s.loadCoins(), liquidity: s.loadCoins() };
}

/** withdraw: the liquidity asked to burn and whether fees are claimed with it. */
export function loadWithdraw(body: Cell): { liquidity: bigint; autoClaimFees: boolean } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const liquidity = s.loadCoins();
  s.loadCoins();
  s.loadCoins();
  return { liquidity, autoClaimFees: s.loadBit() };
}

/** The pool's withdrawal event: the liquidity burnt. */
export function loadWithdrawalEvent(body: Cell): { liquidity: bigint } {
  const s = body.beginParse();
  s.skip(32);
  return { liquidity: s.loadCoins() };
}
