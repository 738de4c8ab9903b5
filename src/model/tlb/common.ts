/**
 * Field types every message-body scheme here shares, from block.tlb (ton-blockchain/ton, crypto/block/block.tlb)
 * and the TEPs that use them:
 *   addr_none$00 = MsgAddressExt;  addr_extern$01 len:(## 9) external_address:(bits len) = MsgAddressExt;
 *   addr_std$10 anycast:(Maybe Anycast) workchain_id:int8 address:bits256 = MsgAddressInt;
 *   _ _:MsgAddressInt = MsgAddress;  _ _:MsgAddressExt = MsgAddress;
 *   left$0 {X:Type} {Y:Type} value:X = Either X Y;  right$1 {X:Type} {Y:Type} value:Y = Either X Y;
 *   excesses#d53276db query_id:uint64 = InternalMsgBody;   (TEP-74 and TEP-62 alike)
 * A bounced message's body is 0xffffffff followed by the first 256 bits of the bounced body.
 */
import { beginCell, Cell, type Address, type Builder, type ExternalAddress, type Slice } from '@ton/core';

export const COMMON_OP = { excesses: 0xd53276db, bounce: 0xffffffff } as const;

/** MsgAddress: null is addr_none. */
export type MsgAddress = Address | ExternalAddress | null;

export const loadMsgAddress = (s: Slice): MsgAddress => s.loadAddressAny();

/**
 * `(Either Cell ^Cell)`: the ref when the bit is set, else the rest of the slice as a cell (empty when nothing
 * follows); null when the bit itself is missing, which senders truncating their bodies leave out.
 */
export function loadEitherCell(s: Slice): Cell | null {
  if (s.remainingBits === 0) return null;
  if (s.loadBit()) return s.loadRef();
  return beginCell().storeSlice(s).endCell();
}

/** An empty payload inline (right after a 0 bit), any other in a ref; null writes nothing. */
export function storeEitherCell(payload: Cell | null): (b: Builder) => void {
  return (b) => {
    if (payload === null) return;
    if (payload.bits.length === 0 && payload.refs.length === 0) b.storeBit(0);
    else b.storeBit(1).storeRef(payload);
  };
}

/** The body's op, or null when it has fewer than 32 bits. */
export function bodyOp(body: Cell): number | null {
  return body.bits.length >= 32 ? body.beginParse().preloadUint(32) : null;
}

/** Reads a constructor tag; a body with another op throws, like a failed TL-B match. */
export function loadOp(s: Slice, op: number, name: string): void {
  const got = s.loadUint(32);
  if (got !== op) throw new Error(`not ${name}: op 0x${got.toString(16).padStart(8, '0')}`);
}

export interface Excesses {
  queryId: bigint;
}

export function loadExcesses(s: Slice): Excesses {
  loadOp(s, COMMON_OP.excesses, 'excesses');
  return { queryId: s.loadUintBig(64) };
}

export const storeExcesses =
  (x: Excesses) =>
  (b: Builder): void => {
    b.storeUint(COMMON_OP.excesses, 32).storeUint(x.queryId, 64);
  };
