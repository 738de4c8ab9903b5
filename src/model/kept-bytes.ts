/**
 * Small byte strings kept for the life of the process (an index's hashes and addresses), copied into chunks of
 * their own. A Buffer made by `Buffer.from` is a slice of Node's shared 8 KiB pool, and one slice kept alive
 * keeps its whole pool chunk alive with it: an index holding one 32-byte hash per chunk holds 8 KiB per hash.
 */
const CHUNK = 64 * 1024;

let chunk = Buffer.allocUnsafeSlow(CHUNK);
let used = 0;

/** A copy of `bytes` in memory shared only with other kept bytes. */
export function keptBytes(bytes: Uint8Array): Buffer {
  if (bytes.length > CHUNK >> 4) {
    const own = Buffer.allocUnsafeSlow(bytes.length);
    own.set(bytes);
    return own;
  }
  if (used + bytes.length > CHUNK) {
    chunk = Buffer.allocUnsafeSlow(CHUNK);
    used = 0;
  }
  const out = chunk.subarray(used, used + bytes.length);
  out.set(bytes);
  used += bytes.length;
  return out;
}

/** Hex text as kept bytes. */
export const keptHex = (hex: string): Buffer => keptBytes(Buffer.from(hex, 'hex'));
