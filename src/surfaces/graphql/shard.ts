/** Shard ids: v3 prints the uint64 as upper-case hex ("8000000000000000"); v2 as a signed 64-bit decimal. */
const MASK = (1n << 64n) - 1n;

/**
 * Hex of up to 16 digits (optionally 0x) as v3 prints it, or a decimal as v2 prints it: negative, or 17–20
 * digits. Returns the signed 64-bit value, or null.
 */
export function parseShard(input: string): bigint | null {
  let v: bigint;
  if (/^(0x)?[0-9a-fA-F]{1,16}$/.test(input)) v = BigInt(input.startsWith('0x') ? input : `0x${input}`);
  else if (/^-\d{1,19}$/.test(input) || /^\d{17,20}$/.test(input)) v = BigInt(input);
  else return null;
  if (v < -(1n << 63n) || v > MASK) return null;
  return BigInt.asIntN(64, v);
}

export { shardHex } from '../../model/v3/common.js';
