/**
 * EVAA lending protocol: the messages of a supply and a withdrawal between the owner, the master and the owner's
 * user contract, as the reference classifier reads them (`indexer/events/blocks/messages/evaa.py` of
 * toncenter/ton-indexer; EVAA's schema.tlb). Messages to a user contract start with a header (user_version:Coins
 * upgrade_info:(Maybe ^Cell) upgrade_exec:uint2) before their opcode.
 *
 * TL-B (the members read here):
 *   supply_master#00000001 query_id:uint64 include_user_code:int2 supply_amount:uint64 recipient:MsgAddressInt ...
 *   (as a jetton forward payload) supply_master#00000001 include_user_code:int2 recipient:MsgAddressInt ...
 *   supply_user#00000011 query_id:uint64 asset_id:uint256 ...
 *   supply_success#0000011a query_id:uint64 owner:MsgAddressInt asset_id:uint256 amount_supplied:uint64 ...
 *   supply_fail#0000011f ...
 *   withdraw_master#00000002 query_id:uint64 asset_id:uint256 amount:uint64 recipient:MsgAddressInt ...
 *   withdraw_user#00000021 ...
 *   withdraw_collateralized#00000211 query_id:uint64 owner:MsgAddressInt asset_id:uint256 amount_current:uint64 ...
 *   withdraw_success#0000211a ...   withdraw_fail#0000211f ...
 *   withdraw excesses: locked#000021e6, not_collateralized#000021e7, missing_prices#000021e8,
 *   execution_crashed#000021ec, no_funds#00211fe8
 */
import type { Cell, Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const EVAA_OP = {
  supplyMaster: 0x1,
  supplyUser: 0x11,
  supplySuccess: 0x11a,
  supplyFail: 0x11f,
  withdrawMaster: 0x2,
  withdrawUser: 0x21,
  withdrawCollateralized: 0x211,
  withdrawSuccess: 0x211a,
  withdrawFail: 0x211f,
  withdrawNoFundsExcess: 0x211fe8,
} as const;

/** sha256("TON"): the asset id EVAA gives TON */
export const EVAA_TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

/** Why a withdrawal the user contract refused failed, by the excess's opcode. */
export const EVAA_WITHDRAW_FAIL_REASONS: ReadonlyMap<number, string> = new Map([
  [0x21e6, 'withdraw_locked_excess'],
  [0x21e7, 'withdraw_not_collateralized_excess'],
  [0x21e8, 'withdraw_missing_prices_excess'],
  [0x21ec, 'withdraw_execution_crashed'],
]);

const addr = (s: Slice): string => rawUpper(s.loadAddress());

/** The opcode after a user contract message's header; null when the header does not parse. */
export function evaaUserOp(body: Cell): { op: number; rest: Slice } | null {
  try {
    const s = body.beginParse();
    s.loadCoins();
    s.loadMaybeRef();
    s.skip(2);
    return { op: s.loadUint(32), rest: s };
  } catch {
    return null;
  }
}

export function loadEvaaSupplyMaster(body: Cell): { amount: bigint; recipient: string } {
  const s = body.beginParse();
  s.skip(32 + 64 + 2);
  const amount = s.loadUintBig(64);
  return { amount, recipient: addr(s) };
}

/** A jetton transfer's forward payload asking the master to supply; null when it is another payload. */
export function loadEvaaSupplyPayload(payload: Cell): { recipient: string } | null {
  const s = payload.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== EVAA_OP.supplyMaster) return null;
  s.skip(2);
  return { recipient: addr(s) };
}

/** supply_user / withdraw_user after the header and opcode: the asset id. */
export function loadEvaaUserAssetId(rest: Slice): bigint {
  rest.skip(64);
  return rest.loadUintBig(256);
}

/** supply_success and withdraw_collateralized: the amount the user contract reports. */
export function loadEvaaReportedAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  s.loadAddress();
  s.skip(256);
  return s.loadUintBig(64);
}

export function loadEvaaWithdrawMaster(body: Cell): { assetId: bigint; amount: bigint; recipient: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const assetId = s.loadUintBig(256);
  const amount = s.loadUintBig(64);
  return { assetId, amount, recipient: addr(s) };
}
