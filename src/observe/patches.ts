/**
 * The installed packages the gateway patches (patches/*.patch, applied by patch-package after `npm install`),
 * each checked in the running process by what its patch changed. An install that skipped the patches
 * (`--ignore-scripts`, a version a patch no longer applies to) answers the same but slower; this says so in the
 * start-up log and in /health instead of running unpatched unnoticed.
 */
import { createContextCache } from '@pothos/core';
import { BitReader, BitString, crc32c } from '@ton/core';
import { sha256_sync } from '@ton/crypto';

export interface PatchCheck<M> {
  /** the patch's file under patches/, named after the package and the exact version it applies to */
  file: string;
  /** what runs instead when the patch is not applied */
  unpatched: string;
  /** the package's exports the check reads, as this process loaded them */
  installed: M;
  applied(m: M): boolean;
}

const pothosContextCache: PatchCheck<{ createContextCache: typeof createContextCache }> = {
  file: '@pothos+core+4.15.1.patch',
  unpatched: "Pothos keeps each request's loaders in a WeakMap (promoted to the old generation)",
  installed: { createContextCache },
  // the patched cache keeps its entry on the context under a symbol, the original in a WeakMap beside it
  applied: (m) => {
    const context = {};
    m.createContextCache(() => ({}))(context);
    return Object.getOwnPropertySymbols(context).length === 1;
  },
};

const tonCoreBitReader: PatchCheck<{ BitReader: typeof BitReader }> = {
  file: '@ton+core+0.63.1.patch',
  unpatched: '@ton/core BitReader reads integers bit by bit through bigints',
  installed: { BitReader },
  // the patched reader takes whole bytes from the buffer, the original asks BitString.at for every bit
  applied: (m) => {
    const bits = new BitString(Buffer.from([0xa5, 0x5a]), 0, 16);
    const at = bits.at.bind(bits);
    let calls = 0;
    bits.at = (index) => {
      calls++;
      return at(index);
    };
    return new m.BitReader(bits).loadUint(16) === 0xa55a && calls === 0;
  },
};

const tonCoreCrc32c: PatchCheck<{ crc32c: typeof crc32c }> = {
  file: '@ton+core+0.63.1.patch',
  unpatched: '@ton/core computes CRC-32C bit by bit',
  installed: { crc32c },
  // same checksum either way, so the code itself is what tells them apart: the patched one reads its tables
  applied: (m) => m.crc32c.toString().includes('TABLES'),
};

const tonCryptoSha256: PatchCheck<{ sha256_sync: typeof sha256_sync }> = {
  file: '@ton+crypto+3.3.0.patch',
  unpatched: '@ton/crypto hashes every cell with jssha over hex strings',
  installed: { sha256_sync },
  // same digest either way; the patched function calls Node's one-shot hash, kept as nodeHash
  applied: (m) => m.sha256_sync.toString().includes('nodeHash'),
};

export const PATCH_CHECKS: readonly PatchCheck<object>[] = [pothosContextCache, tonCoreBitReader, tonCoreCrc32c, tonCryptoSha256];

/** One line for each patch not in effect in this process (none on a normal install). */
export function unappliedPatches(checks: readonly PatchCheck<object>[] = PATCH_CHECKS): string[] {
  return checks.filter((c) => !c.applied(c.installed)).map((c) => `patches/${c.file} is not applied: ${c.unpatched}`);
}
