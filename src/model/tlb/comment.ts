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

/** Snake bytes: the slice's whole bytes, then each first ref's (bits short of a byte are dropped). */
export function loadSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | undefined = s;
  while (cur) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : undefined;
  }
  return Buffer.concat(parts);
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
