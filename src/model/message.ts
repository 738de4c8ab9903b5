/**
 * Messages as toncenter v2 prints them (v2.md §4.4, §9; tonlib `ToRawTransactions::to_raw_message`,
 * ton-http-api-cpp `converters/transactions.hpp`).
 *
 * Rules read from tonlib and checked against the recorded testnet sample (../shared/fixtures/zeta-node…):
 * - `hash` is the hash of the message cell exactly as it sits in the transaction;
 * - `source`/`destination` are friendly bounceable url-safe `EQ…` on every network, "" for none/external;
 * - external messages have value/fwd_fee/ihr_fee "0"; ext-in has created_lt "0", ext-out keeps its created_lt;
 * - `msg_data` is text for op 0 and encrypted text for op 0x2167da4b when the rest is a whole-byte snake string,
 *   otherwise the raw body (and StateInit) as BoC.
 */
import {
  Address,
  BitBuilder,
  beginCell,
  Cell,
  Dictionary,
  storeMessage,
  storeStateInit,
  type DictionaryValue,
  type Message,
  type Slice,
  type Transaction,
} from '@ton/core';
import type { AccountAddress, ExtMessage, ExtraCurrency, MsgData, RawMessage } from '../api/v2.js';
import { friendly } from './address.js';
import { COMMENT_OP, snakeSlices } from './tlb/comment.js';
import { hashB64 } from './hash.js';


/** A dictionary value that keeps the referenced cell itself, so hashes stay those of the chain. */
const CellRef: DictionaryValue<Cell> = {
  serialize: (src, builder) => {
    builder.storeRef(src);
  },
  parse: (slice) => slice.loadRef(),
};

/** The exact message cells of a transaction: in-msg and out-msgs ordered by out-message index. */
export function messageCells(tx: Transaction): { inMsg?: Cell; outMsgs: Cell[] } {
  return transactionMessageCells(tx.raw);
}

/** The same, from the transaction's cell alone (no full parse of the transaction). */
export function transactionMessageCells(txCell: Cell): { inMsg?: Cell; outMsgs: Cell[] } {
  const io = txCell.refs[0];
  if (!io) throw new Error('transaction cell has no message reference');
  const s = io.beginParse();
  const inMsg = s.loadBit() ? s.loadRef() : undefined;
  const dict = Dictionary.load(Dictionary.Keys.Uint(15), CellRef, s);
  const outMsgs = [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  return inMsg ? { inMsg, outMsgs } : { outMsgs };
}

/** Fields shared by both message shapes; addresses already flattened. */
interface MessageFields {
  source: string;
  destination: string;
  value: bigint;
  extraCurrencies: ExtraCurrency[];
  fwdFee: bigint;
  ihrFee: bigint;
  createdLt: bigint;
}

/** tonlib renders only addr_std; anything else (and "none") becomes "". */
const addrString = (a: Address | null | undefined): string => (Address.isAddress(a) ? friendly(a) : '');

function messageFields(msg: Message): MessageFields {
  const info = msg.info;
  switch (info.type) {
    case 'internal':
      return {
        source: addrString(info.src),
        destination: addrString(info.dest),
        value: info.value.coins,
        extraCurrencies: extraCurrencies(info.value.other),
        fwdFee: info.forwardFee,
        ihrFee: info.ihrFee,
        createdLt: info.createdLt,
      };
    case 'external-in':
      return { source: '', destination: addrString(info.dest), value: 0n, extraCurrencies: [], fwdFee: 0n, ihrFee: 0n, createdLt: 0n };
    case 'external-out':
      return { source: addrString(info.src), destination: '', value: 0n, extraCurrencies: [], fwdFee: 0n, ihrFee: 0n, createdLt: info.createdLt };
  }
}

/** Extra currencies of a CurrencyCollection, ascending by id. */
export function extraCurrencies(other: Dictionary<number, bigint> | null | undefined): ExtraCurrency[] {
  if (!other || other.size === 0) return [];
  return [...other.keys()]
    .sort((a, b) => a - b)
    .map((id) => ({ '@type': 'extraCurrency' as const, id, amount: other.get(id)!.toString() }));
}

const accountAddress = (account_address: string): AccountAddress => ({ '@type': 'accountAddress', account_address });

/** Message in the getTransactions / tryLocate* shape. */
export function msgToExt(msg: Message, cell: Cell): ExtMessage {
  const f = messageFields(msg);
  return {
    '@type': 'ext.message',
    hash: hashB64(cell.hash()),
    source: f.source,
    destination: f.destination,
    value: f.value.toString(),
    extra_currencies: f.extraCurrencies,
    fwd_fee: f.fwdFee.toString(),
    ihr_fee: f.ihrFee.toString(),
    created_lt: f.createdLt.toString(),
    body_hash: hashB64(msg.body.hash()),
    msg_data: decodeMsgData(msg),
    message: legacyMessageText(msg),
  };
}

/** Message in the std shape (getTransactionsStd, getBlockTransactionsExt): accountAddress objects, no `message`. */
export function msgToRaw(msg: Message, cell: Cell): RawMessage {
  const f = messageFields(msg);
  return {
    '@type': 'raw.message',
    hash: hashB64(cell.hash()),
    source: accountAddress(f.source),
    destination: accountAddress(f.destination),
    value: f.value.toString(),
    extra_currencies: f.extraCurrencies,
    fwd_fee: f.fwdFee.toString(),
    ihr_fee: f.ihrFee.toString(),
    created_lt: f.createdLt.toString(),
    body_hash: hashB64(msg.body.hash()),
    msg_data: decodeMsgData(msg),
  };
}

/** BoC as tonlib's `to_bytes` writes it (no index, CRC32C), base64. */
export const bocB64 = (cell: Cell): string => cell.toBoc({ idx: false, crc32: true }).toString('base64');

/** The comment kind and bytes when the body is a text or encrypted comment, as tonlib decides it. */
function commentOf(body: Cell): { op: number; bytes: Buffer } | null {
  if (body.bits.length < 32) return null;
  try {
    const s = body.beginParse();
    const op = s.loadUint(32);
    // tonlib's EncryptedCommentOp is the encrypted comment op; it tries decryption only for that op, not op 1
    if (op !== COMMENT_OP.text && op !== COMMENT_OP.encrypted) return null;
    const bytes = snakeBytes(s);
    return bytes ? { op, bytes } : null;
  } catch {
    // tonlib wraps the load in TRY_VM: any cell error (e.g. pruned branch) falls back to raw
    return null;
  }
}

/** vm::CellString::load: rest of the slice, then the first ref of each cell; whole bytes only. */
function snakeBytes(head: Slice): Buffer | null {
  const parts = snakeSlices(head).map((s) => s.loadBits(s.remainingBits));
  const total = parts.reduce((n, p) => n + p.length, 0);
  if (total % 8 !== 0) return null;
  const b = new BitBuilder(total);
  for (const p of parts) b.writeBits(p);
  return b.buffer();
}

/** `msg_data` per tonlib: text comment, encrypted comment, or the raw body and StateInit. */
export function decodeMsgData(msg: Message): MsgData {
  const comment = commentOf(msg.body);
  if (comment) {
    const text = comment.bytes.toString('base64');
    return comment.op === COMMENT_OP.text
      ? { '@type': 'msg.dataText', text }
      : { '@type': 'msg.dataEncryptedText', text };
  }
  return {
    '@type': 'msg.dataRaw',
    body: bocB64(msg.body),
    init_state: msg.init ? bocB64(beginCell().store(storeStateInit(msg.init)).endCell()) : '',
  };
}

/** Data bits of a cell as bytes, trailing bits of the last byte zeroed (the C++ variant masks its tag bit). */
function dataBytes(cell: Cell): Buffer {
  const len = cell.bits.length;
  const out = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (cell.bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

/**
 * The legacy `message` field. Comments give their decoded text. Raw bodies give base64 of the body root
 * cell's data bits; the C++ variant appends "\n" for a non-empty body (commit 23b58ad, "back compatibility")
 * and that is the default here. The recorded Python-era testnet sample has no newline; pass
 * `{ trailingNewline: false }` to reproduce it.
 */
export function legacyMessageText(msg: Message, opts: { trailingNewline?: boolean } = {}): string {
  const comment = commentOf(msg.body);
  if (comment) return comment.bytes.toString('utf8');
  const bytes = dataBytes(msg.body);
  if (bytes.length === 0) return '';
  return bytes.toString('base64') + (opts.trailingNewline === false ? '' : '\n');
}

/**
 * TEP-467 normalised hash: an external-in message rebuilt with src addr_none, import_fee 0, no init and the
 * body in a ref. Other messages have no normal form, so their hash is the cell hash (of `cell` when given,
 * which is exact, otherwise of the message re-serialised).
 */
export function normalizedHash(msg: Message, cell?: Cell): Buffer {
  if (msg.info.type !== 'external-in') {
    return (cell ?? beginCell().store(storeMessage(msg)).endCell()).hash();
  }
  const norm: Message = {
    info: { type: 'external-in', src: null, dest: msg.info.dest, importFee: 0n },
    init: null,
    body: msg.body,
  };
  return beginCell().store(storeMessage(norm, { forceRef: true })).endCell().hash();
}
