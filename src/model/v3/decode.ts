/**
 * Message bodies of the wallet, jetton and NFT standards, and `/decode` (v3.md §2.7).
 *
 * TL-B, as ton-indexer's marker schemes write it (`ton-index-worker/ton-marker/src/schemes/schemes.tlb` at
 * eb9fbfa3; TEP-74 jettons, TEP-62 NFTs):
 *   jetton_transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 *     response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 *     forward_payload:(Either Cell ^Cell)
 *   jetton_internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
 *     response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *   jetton_notify#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress forward_payload:(Either Cell ^Cell)
 *   jetton_burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress custom_payload:(Maybe ^Cell)
 *   jetton_burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress response_destination:MsgAddress
 *   jetton_mint#642b7d07 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins
 *   minter_jetton_mint#00000015 query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell
 *   excess#d53276db query_id:uint64
 *   nft_transfer#5fcc3d14 query_id:uint64 new_owner:MsgAddress response_destination:MsgAddress
 *     custom_payload:(Maybe ^Cell) forward_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 *   nft_ownership_assigned#05138d91 query_id:uint64 prev_owner:MsgAddress forward_payload:(Either Cell ^Cell)
 *   text_comment#00000000 text:SnakeString   encrypted_text_comment#2167da4b cipher_text:Bytes   bounce#ffffffff payload:Cell
 *
 * The marker's JSON printer is not public; decoded bodies here carry `@type` (the constructor name) and the
 * TL-B field names, integers as decimal strings, addresses raw uppercase (null for addr_none), cells as base64
 * BoC unless they decode themselves (the marker decodes nested BoCs the same way).
 */
import { beginCell, Cell, type Address, type Slice } from '@ton/core';
import { addrOrNull } from './common.js';

export const OP = {
  textComment: 0x00000000,
  encryptedComment: 0x2167da4b,
  jettonTransfer: 0x0f8a7ea5,
  jettonInternalTransfer: 0x178d4519,
  jettonNotify: 0x7362d09c,
  jettonBurn: 0x595f07bc,
  jettonBurnNotification: 0x7bdd97de,
  jettonMint: 0x642b7d07,
  minterJettonMint: 0x00000015,
  excess: 0xd53276db,
  bounce: 0xffffffff,
  nftTransfer: 0x5fcc3d14,
  nftOwnershipAssigned: 0x05138d91,
} as const;

/**
 * Opcode names, from the same schemes.tlb (the first constructor with the tag across InternalMsgBody0…11,
 * ExternalMsgBody, ForwardPayload, as the marker looks them up): the wallet, jetton, NFT and common ops.
 */
export const OPCODE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x00000000, 'text_comment'],
  [0x2167da4b, 'encrypted_text_comment'],
  [0xffffffff, 'bounce'],
  [0xd53276db, 'excess'],
  [0xd372158c, 'top_up'],
  [0x0f8a7ea5, 'jetton_transfer'],
  [0x178d4519, 'jetton_internal_transfer'],
  [0x7362d09c, 'jetton_notify'],
  [0x595f07bc, 'jetton_burn'],
  [0x7bdd97de, 'jetton_burn_notification'],
  [0x642b7d07, 'jetton_mint'],
  [0x00000015, 'minter_jetton_mint'],
  [0x6501f354, 'jetton_change_admin'],
  [0xeed236d3, 'jetton_set_status'],
  [0x5fcc3d14, 'nft_transfer'],
  [0x05138d91, 'nft_ownership_assigned'],
  [0x2fcb26a2, 'get_static_data'],
  [0x8b771735, 'report_static_data'],
  [0x693d3950, 'get_royalty_params'],
  [0xa8cb00ad, 'report_royalty_params'],
  [0x73696e74, 'w5_internal_signed_request'],
  [0x7369676e, 'w5_external_signed_request'],
  [0x6578746e, 'w5_extension_action_request'],
  [0x6e6f7465, 'wallet_plugin_installation_notification'],
  [0x64737472, 'wallet_plugin_destruct'],
  [0xe4737472, 'wallet_plugin_destruct_response'],
]);

/** The marker's answer for an opcode it has no constructor for. */
export const UNKNOWN_OPCODE = 'unknown';

// ---- field readers ----

/** MsgAddress as raw uppercase; addr_none and extern addresses have no v3 form (null). */
function address(s: Slice): string | null {
  return addrOrNull(s.loadAddressAny() as Address | null);
}

/** `Either Cell ^Cell`: the referenced cell, or the rest of the slice as a cell; null when nothing follows. */
function eitherCell(s: Slice): Cell | null {
  if (s.remainingBits === 0) return null;
  if (s.loadBit()) return s.loadRef();
  return beginCell().storeSlice(s).endCell();
}

/** Snake bytes: the slice's whole bytes, then each first ref's. */
export function snakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | undefined = s;
  while (cur) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : undefined;
  }
  return Buffer.concat(parts);
}

/** A comment in a payload cell (TextComment or EncryptedTextComment); null for anything else. */
export function payloadComment(payload: Cell | null): { comment: Buffer; encrypted: boolean } | null {
  if (!payload || payload.bits.length < 32) return null;
  try {
    const s = payload.beginParse();
    const op = s.loadUint(32);
    if (op === OP.textComment) return { comment: snakeBytes(s), encrypted: false };
    if (op === OP.encryptedComment) return { comment: snakeBytes(s), encrypted: true };
  } catch {
    // a malformed snake: no comment
  }
  return null;
}

// ---- bodies ----

export interface JettonTransferBody {
  queryId: bigint;
  amount: bigint;
  destination: string | null;
  responseDestination: string | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  /** null when absent or empty (the classifier's rule: a payload without bits is none) */
  forwardPayload: Cell | null;
}

export function parseJettonTransfer(body: Cell): JettonTransferBody {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const destination = address(s);
  const responseDestination = address(s);
  const customPayload = s.loadMaybeRef();
  const forwardTonAmount = s.loadCoins();
  const payload = eitherCell(s);
  return { queryId, amount, destination, responseDestination, customPayload, forwardTonAmount, forwardPayload: payload && payload.bits.length > 0 ? payload : null };
}

export interface JettonInternalTransferBody {
  queryId: bigint;
  amount: bigint;
  from: string | null;
  responseAddress: string | null;
  forwardTonAmount: bigint;
  forwardPayload: Cell | null;
}

export function parseJettonInternalTransfer(body: Cell): JettonInternalTransferBody {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const from = address(s);
  const responseAddress = address(s);
  const forwardTonAmount = s.loadCoins();
  return { queryId, amount, from, responseAddress, forwardTonAmount, forwardPayload: eitherCell(s) };
}

export interface JettonBurnBody {
  queryId: bigint;
  amount: bigint;
  responseDestination: string | null;
  customPayload: Cell | null;
}

export function parseJettonBurn(body: Cell): JettonBurnBody {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const responseDestination = address(s);
  const customPayload = s.remainingBits > 0 ? s.loadMaybeRef() : null;
  return { queryId, amount, responseDestination, customPayload };
}

export interface JettonMintBody {
  queryId: bigint;
  toAddress: string | null;
  tonAmount: bigint;
  /** minter_jetton_mint only: the amount of the internal_transfer it carries */
  masterMsgAmount: bigint | null;
}

export function parseJettonMint(body: Cell): JettonMintBody {
  const s = body.beginParse();
  const op = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const toAddress = address(s);
  const tonAmount = s.loadCoins();
  let masterMsgAmount: bigint | null = null;
  if (op === OP.minterJettonMint) {
    const m = s.loadRef().beginParse();
    m.skip(32 + 64);
    masterMsgAmount = m.loadCoins();
  }
  return { queryId, toAddress, tonAmount, masterMsgAmount };
}

export interface NftTransferBody {
  queryId: bigint;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  forwardPayload: Cell | null;
}

export function parseNftTransfer(body: Cell): NftTransferBody {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const newOwner = address(s);
  const responseDestination = address(s);
  const customPayload = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  return { queryId, newOwner, responseDestination, customPayload, forwardAmount, forwardPayload: eitherCell(s) };
}

export function parseNftOwnershipAssigned(body: Cell): { queryId: bigint; prevOwner: string | null; forwardPayload: Cell | null } {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const prevOwner = address(s);
  return { queryId, prevOwner, forwardPayload: eitherCell(s) };
}

// ---- /decode ----

const boc = (c: Cell): string => c.toBoc().toString('base64');

/** A nested cell: decoded when it decodes, else its BoC (the marker replaces nested BoCs it can read). */
function nested(c: Cell | null, depth: number): unknown {
  if (!c) return null;
  const d = depth < 10 ? decodeCell(c, depth + 1) : undefined;
  return d ?? boc(c);
}

/** One body as the marker prints it; undefined when no scheme here reads it. */
function decodeCell(cell: Cell, depth = 0): Record<string, unknown> | undefined {
  if (cell.bits.length === 0 && cell.refs.length === 0) return { '@type': 'empty_cell' };
  if (cell.bits.length < 32) return undefined;
  const op = cell.beginParse().preloadUint(32);
  try {
    const s = cell.beginParse();
    s.skip(32);
    const ensureEnd = <T>(v: T): T | undefined => (s.remainingBits === 0 && s.remainingRefs === 0 ? v : undefined);
    switch (op) {
      case OP.textComment: {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(snakeBytes(s));
        return { '@type': 'text_comment', text };
      }
      case OP.encryptedComment:
        return { '@type': 'encrypted_text_comment', cipher_text: snakeBytes(s).toString('hex').toUpperCase() };
      case OP.excess:
        return ensureEnd({ '@type': 'excess', query_id: s.loadUintBig(64).toString() });
      case OP.bounce:
        return { '@type': 'bounce', payload: boc(beginCell().storeSlice(s).endCell()) };
      case OP.jettonTransfer: {
        const b = parseJettonTransfer(cell);
        return {
          '@type': 'jetton_transfer',
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          destination: b.destination,
          response_destination: b.responseDestination,
          custom_payload: nested(b.customPayload, depth),
          forward_ton_amount: b.forwardTonAmount.toString(),
          forward_payload: nested(b.forwardPayload, depth),
        };
      }
      case OP.jettonInternalTransfer: {
        const b = parseJettonInternalTransfer(cell);
        return {
          '@type': 'jetton_internal_transfer',
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          from: b.from,
          response_address: b.responseAddress,
          forward_ton_amount: b.forwardTonAmount.toString(),
          forward_payload: nested(b.forwardPayload, depth),
        };
      }
      case OP.jettonNotify: {
        const queryId = s.loadUintBig(64).toString();
        const amount = s.loadCoins().toString();
        const sender = address(s);
        return { '@type': 'jetton_notify', query_id: queryId, amount, sender, forward_payload: nested(eitherCell(s), depth) };
      }
      case OP.jettonBurn: {
        const b = parseJettonBurn(cell);
        return {
          '@type': 'jetton_burn',
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          response_destination: b.responseDestination,
          custom_payload: nested(b.customPayload, depth),
        };
      }
      case OP.jettonBurnNotification: {
        const queryId = s.loadUintBig(64).toString();
        const amount = s.loadCoins().toString();
        const sender = address(s);
        const responseDestination = address(s);
        return ensureEnd({ '@type': 'jetton_burn_notification', query_id: queryId, amount, sender, response_destination: responseDestination });
      }
      case OP.jettonMint:
      case OP.minterJettonMint: {
        const b = parseJettonMint(cell);
        return {
          '@type': op === OP.jettonMint ? 'jetton_mint' : 'minter_jetton_mint',
          query_id: b.queryId.toString(),
          to_address: b.toAddress,
          ton_amount: b.tonAmount.toString(),
          ...(op === OP.minterJettonMint ? { master_msg: nested(cell.refs[cell.refs.length - 1] ?? null, depth) } : {}),
        };
      }
      case OP.nftTransfer: {
        const b = parseNftTransfer(cell);
        return {
          '@type': 'nft_transfer',
          query_id: b.queryId.toString(),
          new_owner: b.newOwner,
          response_destination: b.responseDestination,
          custom_payload: nested(b.customPayload, depth),
          forward_amount: b.forwardAmount.toString(),
          forward_payload: nested(b.forwardPayload, depth),
        };
      }
      case OP.nftOwnershipAssigned: {
        const b = parseNftOwnershipAssigned(cell);
        return { '@type': 'nft_ownership_assigned', query_id: b.queryId.toString(), prev_owner: b.prevOwner, forward_payload: nested(b.forwardPayload, depth) };
      }
    }
  } catch {
    // a body that does not follow its op's scheme
  }
  return undefined;
}

/** The name of an opcode, or "unknown". */
export const opcodeName = (op: number): string => OPCODE_NAMES.get(op >>> 0) ?? UNKNOWN_OPCODE;

/**
 * A body string as /decode reads it: base64 when it starts with "te6", hex otherwise. Failures are the
 * marker's `unknown: …` strings, which the API answers as `{"error": …}`.
 */
export function decodeBodyString(input: string): Record<string, unknown> {
  let bytes: Buffer;
  if (input.startsWith('te6')) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input) || input.length % 4 !== 0) return { error: 'unknown: failed to decode base64: invalid base64' };
    bytes = Buffer.from(input, 'base64');
  } else {
    if (!/^([0-9a-fA-F]{2})*$/.test(input)) return { error: 'unknown: failed to decode hex: invalid hex' };
    bytes = Buffer.from(input, 'hex');
  }
  let cell: Cell;
  try {
    const roots = Cell.fromBoc(bytes);
    if (roots.length !== 1) throw new Error(`expected 1 root, got ${roots.length}`);
    cell = roots[0]!;
  } catch (e) {
    return { error: `unknown: failed to deserialize boc: ${(e as Error).message}` };
  }
  if (cell.bits.length < 32 && !(cell.bits.length === 0 && cell.refs.length === 0)) {
    return { error: `unknown: boc is too small, size ${cell.bits.length}` };
  }
  return decodeCell(cell) ?? { error: 'unknown: no parser succeeded' };
}

/**
 * One opcode string as /decode reads it (`processDecode`): "0x" dropped, then hex (32-bit), then decimal,
 * then signed 32-bit decimal. Undefined when none applies.
 */
export function parseOpcodeString(raw: string): number | undefined {
  const s = raw.startsWith('0x') ? raw.slice(2) : raw;
  if (/^[0-9a-fA-F]+$/.test(s) && BigInt(`0x${s}`) <= 0xffffffffn) return Number(BigInt(`0x${s}`));
  if (/^\d+$/.test(s) && BigInt(s) <= 0xffffffffn) return Number(BigInt(s));
  if (/^[+-]?\d+$/.test(s)) {
    const v = BigInt(s);
    if (v >= -(1n << 31n) && v < 1n << 31n) return Number(BigInt.asUintN(32, v));
  }
  return undefined;
}
