/**
 * Comments in message bodies and forward payloads (TEP-74's forward payload format; text comments as wallets
 * write them, ton-blockchain/ton crypto/smc-envelope; encrypted comments as the wallets' apps write them):
 *   text_comment#00000000 text:SnakeData = InternalMsgBody;
 *   encrypted_text_comment#2167da4b cipher_text:SnakeData = InternalMsgBody;
 *   SnakeData: the cell's whole bytes, then its first ref's, and so on.
 */
import { beginCell, type Builder, type Cell, type Slice } from '@ton/core';

export const COMMENT_OP = { text: 0x00000000, encrypted: 0x2167da4b } as const;

export type Comment = { type: 'text'; bytes: Buffer } | { type: 'encrypted'; bytes: Buffer };

/** The cells of a snake: the slice, then each first ref's, as slices (no bits read). */
export function snakeSlices(s: Slice): Slice[] {
  const out = [s];
  for (let cur = s; cur.remainingRefs > 0; ) {
    cur = cur.preloadRef().beginParse();
    out.push(cur);
  }
  return out;
}

/** Snake bytes: each cell's whole bytes (bits short of a byte are dropped), as the marker reads comments. */
export function loadSnakeBytes(s: Slice): Buffer {
  return Buffer.concat(snakeSlices(s).map((c) => c.loadBuffer(Math.floor(c.remainingBits / 8))));
}

/** Snake bytes when every cell holds whole bytes, else null (ton-indexer's rule for a body it decodes). */
export function loadWholeSnakeBytes(s: Slice): Buffer | null {
  const cells = snakeSlices(s);
  if (cells.some((c) => c.remainingBits % 8 !== 0)) return null;
  return Buffer.concat(cells.map((c) => c.loadBuffer(c.remainingBits / 8)));
}

/** Snake bytes written 127 to a cell (126 in the first after a 32-bit op). */
export function storeSnakeBytes(bytes: Buffer, firstCap = 127) {
  return (b: Builder): void => {
    b.storeBuffer(bytes.subarray(0, firstCap));
    if (bytes.length > firstCap) b.storeRef(beginCell().store(storeSnakeBytes(bytes.subarray(firstCap))));
  };
}

export function loadComment(s: Slice): Comment {
  const op = s.loadUint(32);
  if (op === COMMENT_OP.text) return { type: 'text', bytes: loadSnakeBytes(s) };
  if (op === COMMENT_OP.encrypted) return { type: 'encrypted', bytes: loadSnakeBytes(s) };
  throw new Error(`not a comment: op 0x${op.toString(16)}`);
}

export const storeComment =
  (x: Comment) =>
  (b: Builder): void => {
    b.storeUint(x.type === 'text' ? COMMENT_OP.text : COMMENT_OP.encrypted, 32).store(storeSnakeBytes(x.bytes, 123));
  };

/** A comment in a payload cell; null for anything else (a malformed snake included). */
export function payloadComment(payload: Cell | null): Comment | null {
  if (!payload || payload.bits.length < 32) return null;
  try {
    return loadComment(payload.beginParse());
  } catch {
    return null;
  }
}
