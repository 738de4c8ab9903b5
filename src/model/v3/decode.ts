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
import { beginCell, Cell } from '@ton/core';
import { addrOrNull } from './common.js';
import { COMMENT_OP, loadSnakeBytes } from '../tlb/comment.js';
import { COMMON_OP, loadExcesses, type MsgAddress } from '../tlb/common.js';
import {
  JETTON_OP,
  loadJettonBurn,
  loadJettonBurnNotification,
  loadJettonInternalTransfer,
  loadJettonMint,
  loadJettonTransfer,
  loadJettonTransferNotification,
  preloadInternalTransferAmount,
} from '../tlb/jetton.js';
import { loadNftOwnershipAssigned, loadNftReportStaticData, loadNftTransfer, NFT_OP } from '../tlb/nft.js';
import { W5_OP, WALLET_PLUGIN_OP } from '../tlb/wallet-external.js';

/**
 * Opcode names, from the same schemes.tlb (the first constructor with the tag across InternalMsgBody0…11,
 * ExternalMsgBody, ForwardPayload, as the marker looks them up): the wallet, jetton, NFT and common ops.
 */
const OPCODE_NAMES: ReadonlyMap<number, string> = new Map([
  [COMMENT_OP.text, 'text_comment'],
  [COMMENT_OP.encrypted, 'encrypted_text_comment'],
  [COMMON_OP.bounce, 'bounce'],
  [COMMON_OP.excesses, 'excess'],
  [JETTON_OP.topUp, 'top_up'],
  [JETTON_OP.transfer, 'jetton_transfer'],
  [JETTON_OP.internalTransfer, 'jetton_internal_transfer'],
  [JETTON_OP.transferNotification, 'jetton_notify'],
  [JETTON_OP.burn, 'jetton_burn'],
  [JETTON_OP.burnNotification, 'jetton_burn_notification'],
  [JETTON_OP.mint, 'jetton_mint'],
  [JETTON_OP.minterMint, 'minter_jetton_mint'],
  [JETTON_OP.stablecoinChangeAdmin, 'jetton_change_admin'],
  [JETTON_OP.setStatus, 'jetton_set_status'],
  [NFT_OP.transfer, 'nft_transfer'],
  [NFT_OP.ownershipAssigned, 'nft_ownership_assigned'],
  [NFT_OP.getStaticData, 'get_static_data'],
  [NFT_OP.reportStaticData, 'report_static_data'],
  [NFT_OP.getRoyaltyParams, 'get_royalty_params'],
  [NFT_OP.reportRoyaltyParams, 'report_royalty_params'],
  [W5_OP.internalSignedRequest, 'w5_internal_signed_request'],
  [W5_OP.externalSignedRequest, 'w5_external_signed_request'],
  [W5_OP.extensionActionRequest, 'w5_extension_action_request'],
  [WALLET_PLUGIN_OP.installationNotification, 'wallet_plugin_installation_notification'],
  [WALLET_PLUGIN_OP.destruct, 'wallet_plugin_destruct'],
  [WALLET_PLUGIN_OP.destructResponse, 'wallet_plugin_destruct_response'],
]);

/** The marker's answer for an opcode it has no constructor for. */
const UNKNOWN_OPCODE = 'unknown';

/** MsgAddress as raw uppercase; addr_none and extern addresses have no v3 form (null). */
const raw = (a: MsgAddress): string | null => addrOrNull(a as Parameters<typeof addrOrNull>[0]);

// ---- bodies, with addresses as v3 prints them ----

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
  const b = loadJettonTransfer(body.beginParse());
  const payload = b.forwardPayload;
  return {
    ...b,
    destination: raw(b.destination),
    responseDestination: raw(b.responseDestination),
    forwardPayload: payload && payload.bits.length > 0 ? payload : null,
  };
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
  const b = loadJettonInternalTransfer(body.beginParse());
  return { ...b, from: raw(b.from), responseAddress: raw(b.responseAddress) };
}

export interface JettonBurnBody {
  queryId: bigint;
  amount: bigint;
  responseDestination: string | null;
  customPayload: Cell | null;
}

export function parseJettonBurn(body: Cell): JettonBurnBody {
  const b = loadJettonBurn(body.beginParse());
  return { ...b, responseDestination: raw(b.responseDestination) };
}

export interface JettonMintBody {
  queryId: bigint;
  toAddress: string | null;
  tonAmount: bigint;
  /** minter_jetton_mint only: the amount of the internal_transfer it carries */
  masterMsgAmount: bigint | null;
}

export function parseJettonMint(body: Cell): JettonMintBody {
  const b = loadJettonMint(body.beginParse());
  const masterMsgAmount = b.type === 'minter_mint' && b.masterMsg ? preloadInternalTransferAmount(b.masterMsg) : null;
  return { queryId: b.queryId, toAddress: raw(b.toAddress), tonAmount: b.tonAmount, masterMsgAmount };
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
  const b = loadNftTransfer(body.beginParse());
  return { ...b, newOwner: raw(b.newOwner), responseDestination: raw(b.responseDestination) };
}

export function parseNftOwnershipAssigned(body: Cell): { queryId: bigint; prevOwner: string | null; forwardPayload: Cell | null } {
  const b = loadNftOwnershipAssigned(body.beginParse());
  return { ...b, prevOwner: raw(b.prevOwner) };
}

export function parseNftReportStaticData(body: Cell): { queryId: bigint; index: bigint; collection: string | null } {
  const b = loadNftReportStaticData(body.beginParse());
  return { ...b, collection: raw(b.collection) };
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
    const ensureEnd = <T>(v: T): T | undefined => (s.remainingBits === 0 && s.remainingRefs === 0 ? v : undefined);
    switch (op) {
      case COMMENT_OP.text: {
        s.skip(32);
        const text = new TextDecoder('utf-8', { fatal: true }).decode(loadSnakeBytes(s));
        return { '@type': 'text_comment', text };
      }
      case COMMENT_OP.encrypted:
        s.skip(32);
        return { '@type': 'encrypted_text_comment', cipher_text: loadSnakeBytes(s).toString('hex').toUpperCase() };
      case COMMON_OP.excesses:
        return ensureEnd({ '@type': 'excess', query_id: loadExcesses(s).queryId.toString() });
      case COMMON_OP.bounce:
        s.skip(32);
        return { '@type': 'bounce', payload: boc(beginCell().storeSlice(s).endCell()) };
      case JETTON_OP.transfer: {
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
      case JETTON_OP.internalTransfer: {
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
      case JETTON_OP.transferNotification: {
        const b = loadJettonTransferNotification(s);
        return { '@type': 'jetton_notify', query_id: b.queryId.toString(), amount: b.amount.toString(), sender: raw(b.sender), forward_payload: nested(b.forwardPayload, depth) };
      }
      case JETTON_OP.burn: {
        const b = parseJettonBurn(cell);
        return {
          '@type': 'jetton_burn',
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          response_destination: b.responseDestination,
          custom_payload: nested(b.customPayload, depth),
        };
      }
      case JETTON_OP.burnNotification: {
        const b = loadJettonBurnNotification(s);
        return ensureEnd({
          '@type': 'jetton_burn_notification',
          query_id: b.queryId.toString(),
          amount: b.amount.toString(),
          sender: raw(b.sender),
          response_destination: raw(b.responseDestination),
        });
      }
      case JETTON_OP.mint:
      case JETTON_OP.minterMint: {
        const b = parseJettonMint(cell);
        return {
          '@type': op === JETTON_OP.mint ? 'jetton_mint' : 'minter_jetton_mint',
          query_id: b.queryId.toString(),
          to_address: b.toAddress,
          ton_amount: b.tonAmount.toString(),
          ...(op === JETTON_OP.minterMint ? { master_msg: nested(cell.refs[cell.refs.length - 1] ?? null, depth) } : {}),
        };
      }
      case NFT_OP.transfer: {
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
      case NFT_OP.ownershipAssigned: {
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
