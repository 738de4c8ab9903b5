/**
 * 256-bit hashes in the forms toncenter accepts (v2.md §1.2, §8): 64-char hex (any case),
 * 44-char base64 or base64url with padding, 43-char base64url without padding.
 */

const HEX = /^[0-9a-fA-F]{64}$/;
const B64_PADDED = /^[A-Za-z0-9+/_-]{43}=$/;
const B64URL_UNPADDED = /^[A-Za-z0-9_-]{43}$/;

/** Parses a hash in any accepted form; returns null when it is not one. */
export function parseHash(input: string): Buffer | null {
  if (HEX.test(input)) return Buffer.from(input, 'hex');
  if (B64_PADDED.test(input) || B64URL_UNPADDED.test(input)) {
    const mixed = /[+/]/.test(input) && /[-_]/.test(input);
    if (mixed) return null;
    const buf = Buffer.from(input.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return buf.length === 32 ? buf : null;
  }
  return null;
}

export const hashB64 = (h: Buffer | bigint): string => toBuf(h).toString('base64');

/** A 256-bit value held as bigint (as @ton/core keeps prevTransactionHash) to its 32 bytes. */
export function toBuf(h: Buffer | bigint): Buffer {
  if (Buffer.isBuffer(h)) return h;
  return Buffer.from(h.toString(16).padStart(64, '0'), 'hex');
}
