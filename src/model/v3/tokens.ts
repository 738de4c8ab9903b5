/**
 * Token message bodies as the v3 indexer reads them (v3.md §2.3, §2.4), from the standards' TL-B:
 *
 *   TEP-74 transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *            response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 *            forward_payload:(Either Cell ^Cell) = InternalMsgBody;
 *   TEP-74 burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
 *            custom_payload:(Maybe ^Cell) = InternalMsgBody;
 *   TEP-62 transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *            custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *            = InternalMsgBody;
 *
 * Payload cells print as base64 BoCs; a forward payload is decoded the way message bodies are (text comments).
 */
import { beginCell, type Address, type Cell, type Slice } from '@ton/core';
import { bocB64 } from '../message.js';
import { decodeBody } from './message.js';

export const OP_JETTON_TRANSFER = 0x0f8a7ea5;
export const OP_JETTON_BURN = 0x595f07bc;
export const OP_NFT_TRANSFER = 0x5fcc3d14;

export interface JettonTransferFields {
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
}

export interface JettonBurnFields {
  queryId: bigint;
  amount: bigint;
  responseDestination: Address | null;
  customPayload: Cell | null;
}

export interface NftTransferFields {
  queryId: bigint;
  newOwner: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: Cell | null;
}

/** The body's op-code, or null when it has fewer than 32 bits. */
export function bodyOp(body: Cell): number | null {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : null;
}

/** A std address, or null for addr_none (an external address fails the parse). */
const loadAddr = (s: Slice): Address | null => s.loadMaybeAddress();

/** `(Either Cell ^Cell)`: the ref when the bit is set, else the rest of the slice; nothing left gives null. */
function loadEitherCell(s: Slice): Cell | null {
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  if (s.loadBit()) return s.loadRef();
  if (s.remainingBits === 0 && s.remainingRefs === 0) return null;
  return beginCell().storeSlice(s).endCell();
}

/** Runs a parser; a body that does not follow the TL-B gives null, as the indexer skips it. */
function tryParse<T>(body: Cell, op: number, read: (s: Slice) => T): T | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== op) return null;
    return read(s);
  } catch {
    return null;
  }
}

export const loadJettonTransferBody = (body: Cell): JettonTransferFields | null =>
  tryParse(body, OP_JETTON_TRANSFER, (s) => ({
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    destination: loadAddr(s),
    responseDestination: loadAddr(s),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  }));

export const loadJettonBurnBody = (body: Cell): JettonBurnFields | null =>
  tryParse(body, OP_JETTON_BURN, (s) => ({
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    responseDestination: loadAddr(s),
    // some wallets send the burn without the trailing Maybe bit
    customPayload: s.remainingBits > 0 ? s.loadMaybeRef() : null,
  }));

export const loadNftTransferBody = (body: Cell): NftTransferFields | null =>
  tryParse(body, OP_NFT_TRANSFER, (s) => ({
    queryId: s.loadUintBig(64),
    newOwner: loadAddr(s),
    responseDestination: loadAddr(s),
    customPayload: s.loadMaybeRef(),
    forwardAmount: s.loadCoins(),
    forwardPayload: loadEitherCell(s),
  }));

/** A payload as v3 prints it (base64 BoC) and its decoded form. */
export function payloadToV3(cell: Cell | null): { boc: string | null; decoded: Record<string, unknown> | null } {
  if (!cell) return { boc: null, decoded: null };
  return { boc: bocB64(cell), decoded: decodeBody(cell) };
}
