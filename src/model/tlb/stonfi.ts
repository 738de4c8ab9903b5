/**
 * STON.fi v2 router/pool messages and pTON (proxy TON) transfers, as the reference classifier reads them.
 *
 * TL-B (STON.fi v2 contracts' schema, `docs.ston.fi` "DEX v2 op-codes"; pTON v2):
 *   swap#6664de2a ... = PoolMsg;                   (router → pool)
 *   pay_to#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress original_caller:MsgAddress
 *     exit_code:uint32 custom_payload:(Maybe ^Cell)
 *     additional_info:^[ fwd_ton_amount:Coins amount0_out:Coins token0_address:MsgAddress
 *                        amount1_out:Coins token1_address:MsgAddress ] = RouterMsg;   (pool → router)
 *   burn_notification_ext#297437cf ... = PoolMsg;  (LP wallet → pool, after a burn)
 *   refund_me#132b9a2c ... = LpAccountMsg;  cb_refund_me#0f98e2b8 ... = PoolMsg;  (liquidity refunded)
 *   ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
 *     forward_payload:(Either Cell ^Cell) = PtonMsg;   (pTON wallet → receiver: TON paid out)
 * exit_code 0xc64370e5 is "swap ok".
 *
 * STON.fi v1 (router → pool → router), as the reference reads them:
 *   swap#25938561 query_id:uint64 from_user:MsgAddress token_wallet:MsgAddress amount:Coins min_out:Coins
 *     has_ref:Bool ^[ from_real_user:MsgAddress ref_address:has_ref?MsgAddress ] = PoolMsg;
 *   payment_request#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
 *     ^[ amount0_out:Coins token0_out:MsgAddress amount1_out:Coins token1_out:MsgAddress ] = RouterMsg;
 *   swap_payload#25938561 token_wallet:MsgAddress min_out:Coins to_address:MsgAddress ... = ForwardPayload;
 *     (a jetton transfer's forward payload to the router: the wallet of the asset asked for, and the receiver)
 * exit_code 0xc64370e5 is "swap ok" (to the sender), 0x45078540 "swap ok, referral share", 0x5ffe1295 "no
 * liquidity" and 0x38976e9b "reserve error" (refunds to the sender).
 */
import type { Address, Cell, Slice } from '@ton/core';
import { addrOrNull } from '../v3/common.js';
import { loadEitherCell } from './common.js';

export const STONFI_V2_OP = {
  swap: 0x6664de2a,
  payTo: 0x657b54f5,
  burnNotificationExt: 0x297437cf,
  refundMe: 0x132b9a2c,
  cbRefundMe: 0x0f98e2b8,
  /** router to pool: one side of a liquidity provision */
  provideLp: 0x37c096df,
  /** pool to the user's LP account (and the account back to the pool, refunding) */
  addLiquidity: 0x50c6a654,
  /** LP account to pool once both sides are in: mint the LP tokens */
  cbAddLiquidity: 0x06ecd527,
} as const;

export const STONFI_V2_SWAP_OK = 0xc64370e5;

export const PTON_OP = { tonTransfer: 0x01f3835d } as const;

/**
 * pTON jetton masters (raw), from the reference classifier's `PTonTransferMatcher.pton_masters`: STON.fi pTON v1,
 * pTON v2 and Tonco's wTTON.
 */
export const PTON_MASTERS: readonly string[] = [
  '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
  '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
  '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E',
];

/** MsgAddress: raw uppercase, null for addr_none (and for an external address, which v3 cannot print). */
const address = (s: Slice): string | null => addrOrNull(s.loadAddressAny() as Address | null);

export interface StonfiV2PayTo {
  queryId: bigint;
  toAddress: string | null;
  excessesAddress: string | null;
  originalCaller: string | null;
  exitCode: number;
  amount0Out: bigint;
  token0Address: string | null;
  amount1Out: bigint;
  token1Address: string | null;
}

export function loadStonfiV2PayTo(body: Cell): StonfiV2PayTo {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const toAddress = address(s);
  const excessesAddress = address(s);
  const originalCaller = address(s);
  const exitCode = s.loadUint(32);
  s.loadMaybeRef();
  const info = s.loadRef().beginParse();
  info.loadCoins();
  const amount0Out = info.loadCoins();
  const token0Address = address(info);
  const amount1Out = info.loadCoins();
  const token1Address = address(info);
  return { queryId, toAddress, excessesAddress, originalCaller, exitCode, amount0Out, token0Address, amount1Out, token1Address };
}

/** v2 swap (router → pool): the router's wallet of the asset the pool pays out (`token_wallet1` of its dex payload). */
export function loadStonfiV2SwapOutWallet(body: Cell): string | null {
  const s = body.beginParse();
  s.skip(32 + 64);
  address(s);
  s.loadCoins();
  s.loadCoins();
  const dex = s.loadRef().beginParse();
  dex.skip(32);
  return address(dex);
}

/** `provide_lp` (router to pool): the providing user and the amounts of the pool's two sides (one is 0). */
export function loadStonfiV2ProvideLp(body: Cell): { fromUser: string | null; amount1: bigint; amount2: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const fromUser = address(s);
  return { fromUser, amount1: s.loadCoins(), amount2: s.loadCoins() };
}

/** pTON `ton_transfer`: the TON amount paid out. */
export function loadPtonTonAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}

/** pTON `ton_transfer`: the forward payload (a DEX reads its swap request from it). */
export function loadPtonForwardPayload(body: Cell): Cell | null {
  const s = body.beginParse();
  s.skip(32 + 64);
  s.loadCoins();
  s.loadMaybeAddress();
  return loadEitherCell(s);
}

export const STONFI_V1_OP = { swap: 0x25938561, paymentRequest: 0xf93bb43f } as const;

export const STONFI_V1_EXIT = { swapOk: 0xc64370e5, swapOkReferral: 0x45078540, noLiquidity: 0x5ffe1295, reserveError: 0x38976e9b } as const;

export interface StonfiV1Swap {
  fromUser: string | null;
  tokenWallet: string | null;
  amount: bigint;
  fromRealUser: string | null;
}

export function loadStonfiV1Swap(body: Cell): StonfiV1Swap {
  const s = body.beginParse();
  s.skip(32 + 64);
  const fromUser = address(s);
  const tokenWallet = address(s);
  const amount = s.loadCoins();
  s.loadCoins();
  s.loadBit();
  const fromRealUser = address(s.loadRef().beginParse());
  return { fromUser, tokenWallet, amount, fromRealUser };
}

export interface StonfiV1PaymentRequest {
  exitCode: number;
  amount0Out: bigint;
  token0Out: string | null;
  amount1Out: bigint;
  token1Out: string | null;
}

export function loadStonfiV1PaymentRequest(body: Cell): StonfiV1PaymentRequest {
  const s = body.beginParse();
  s.skip(32 + 64);
  address(s);
  const exitCode = s.loadUint(32);
  const r = s.loadRef().beginParse();
  const amount0Out = r.loadCoins();
  const token0Out = address(r);
  const amount1Out = r.loadCoins();
  const token1Out = address(r);
  return { exitCode, amount0Out, token0Out, amount1Out, token1Out };
}

/** A jetton transfer's forward payload asking the v1 router for a swap: the asked asset's wallet and the receiver; null otherwise. */
export function loadStonfiV1SwapPayload(payload: Cell): { tokenWallet: string | null; toAddress: string | null } | null {
  const s = payload.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== STONFI_V1_OP.swap) return null;
  const tokenWallet = address(s);
  s.loadCoins();
  return { tokenWallet, toAddress: address(s) };
}
