/** Scalar formats of v3 (v3.md §1.3): raw uppercase addresses, base64 hashes, uppercase uint64 shard hex. */
import { Address, type Dictionary } from '@ton/core';
import type { AccountStatus, ExtraCurrencies } from '../../api/v3/common.js';
import { rawUpper } from '../address.js';
import { toBuf } from '../hash.js';

export { rawUpper };

/** Standard base64 of a 256-bit hash held as Buffer or bigint. */
export const b64 = (h: Buffer | bigint): string => toBuf(h).toString('base64');

/** The all-zero hash v3 prints for "no transaction yet". */
export const ZERO_HASH_B64 = Buffer.alloc(32).toString('base64');

/** `ShardId.MarshalJSON`: the shard as an unsigned 64-bit value in uppercase hex, e.g. "8000000000000000". */
export const shardHex = (shard: bigint): string => BigInt.asUintN(64, shard).toString(16).toUpperCase().padStart(16, '0');

/** Raw uppercase form for std addresses; other address kinds (extern, none) have no v3 form. */
export const addrOrNull = (a: Address | null | undefined): string | null => (Address.isAddress(a) ? rawUpper(a) : null);

/** Extra currencies of a CurrencyCollection as v3's `{id: amount}` map (empty map when none). */
export function extraCurrencyMap(other: Dictionary<number, bigint> | null | undefined): ExtraCurrencies {
  const out: ExtraCurrencies = {};
  if (!other) return out;
  for (const id of [...other.keys()].sort((a, b) => a - b)) out[String(id)] = other.get(id)!.toString();
  return out;
}

/** @ton/core spells the fourth status "non-existing"; v3's enum says "nonexist". */
export function accountStatus(s: 'uninitialized' | 'frozen' | 'active' | 'non-existing' | 'uninit' | 'nonexist'): AccountStatus {
  switch (s) {
    case 'uninitialized':
    case 'uninit':
      return 'uninit';
    case 'non-existing':
    case 'nonexist':
      return 'nonexist';
    default:
      return s;
  }
}

/** "0x%08x" of a 32-bit opcode, whatever its sign. */
export const opcodeHex = (op: number): string => `0x${(op >>> 0).toString(16).padStart(8, '0')}`;
