/**
 * The installed packages patched by patch-package (patches/): each patch is in effect after `npm install`, and
 * the patched code answers exactly what the original did.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, beginCell, BitString, Cell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const readJson = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as { version: string; dependencies: Record<string, string> };

describe('each patched package is pinned to the version its patch names', () => {
  // patch-package's file name: the package's name with / as +, then + and the version the patch was made on
  const patches = readdirSync(join(root, 'patches')).map((f) => /^(.+)\+([^+]+)\.patch$/.exec(f)!.slice(1, 3) as [string, string]);

  it.each(patches)('%s %s: in package.json exactly, and installed', (file, version) => {
    const name = file.replace('+', '/');
    expect(readJson('package.json').dependencies[name]).toBe(version);
    expect(readJson(`node_modules/${name}/package.json`).version).toBe(version);
  });
});

/** CRC-32C bit by bit, as @ton/core computes it unpatched. */
function crc32cBitwise(source: Uint8Array): number {
  let crc = ~0;
  for (const byte of source) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ~crc >>> 0;
}

describe('@ton/core crc32c (table-driven)', () => {
  const { crc32c } = require('@ton/core/dist/utils/crc32c.js') as { crc32c: (b: Buffer) => Buffer };

  it('is the patched code', () => {
    expect(crc32c.toString()).toContain('TABLES');
  });

  it('gives the standard check value and the same checksum as the bitwise loop for every length up to 80 bytes', () => {
    // CRC-32C's check value (RFC 3720 appendix B.4 lists the same polynomial)
    expect(crc32c(Buffer.from('123456789')).readUInt32LE(0)).toBe(0xe3069283);
    for (let len = 0; len <= 80; len++) {
      for (let r = 0; r < 8; r++) {
        const b = randomBytes(len);
        expect(crc32c(b).readUInt32LE(0)).toBe(crc32cBitwise(b));
      }
    }
  });

  it('still reads and writes BoCs with checksums, and refuses a wrong one', () => {
    const cell = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeBuffer(randomBytes(100)).endCell()).endCell();
    const boc = cell.toBoc({ idx: false, crc32: true });
    expect(Cell.fromBoc(boc)[0]!.equals(cell)).toBe(true);
    boc[boc.length - 1]! ^= 1;
    expect(() => Cell.fromBoc(boc)).toThrow();
  });
});

describe('@ton/core BitReader (numbers, not a bigint per bit)', () => {
  const { BitReader } = require('@ton/core/dist/boc/BitReader.js') as { BitReader: new (b: BitString) => Reader };
  interface Reader {
    _preloadUint(bits: number, offset: number): bigint;
    _preloadInt(bits: number, offset: number): bigint;
    _preloadBuffer(bytes: number, offset: number): Buffer;
  }
  /** The value bit by bit through BitString.at, as the unpatched reader computes it (and throws where it throws). */
  const uintAt = (s: BitString, bits: number, offset: number): bigint => {
    let v = 0n;
    for (let i = 0; i < bits; i++) v = (v << 1n) | (s.at(offset + i) ? 1n : 0n);
    return v;
  };
  const outcome = (f: () => unknown): unknown => {
    try {
      return f();
    } catch (e) {
      return `throws ${(e as Error).message}`;
    }
  };

  it('is the patched code', () => {
    expect(BitReader.prototype._preloadUint.toString()).toContain('accBits');
  });

  it('reads unsigned and signed integers and unaligned bytes as the bit-by-bit read does, out of bounds too', () => {
    for (let r = 0; r < 400; r++) {
      const data = randomBytes(1 + (r % 40));
      const start = r % 8;
      const length = Math.max(0, data.length * 8 - start - (r % 5));
      const s = new BitString(data, start, length);
      for (let k = 0; k < 6; k++) {
        const offset = Math.floor(Math.random() * (length + 3)) - (k === 5 ? 2 : 0);
        const bits = Math.floor(Math.random() * 270);
        const reader = new BitReader(s);
        expect(outcome(() => reader._preloadUint(bits, offset))).toEqual(outcome(() => uintAt(s, bits, offset)));
        const signed = () => (bits === 0 ? 0n : uintAt(s, bits, offset) - (s.at(offset) ? 1n << BigInt(bits) : 0n));
        expect(outcome(() => reader._preloadInt(bits, offset))).toEqual(outcome(signed));
        const bytes = bits >> 3;
        const buffer = () => {
          // out of bounds, BitString.subbuffer (unpatched, asked first) throws
          if (offset < 0 || offset > length || offset + bytes * 8 > length) return s.subbuffer(offset, bytes * 8);
          return Buffer.from(Array.from({ length: bytes }, (_, i) => Number(uintAt(s, 8, offset + 8 * i))));
        };
        expect(outcome(() => reader._preloadBuffer(bytes, offset))).toEqual(outcome(buffer));
      }
    }
  });

  it('reads cells as before: an address, coins and a 64-bit lt', () => {
    const addr = Address.parseRaw(`0:${'ab'.repeat(32)}`);
    const c = beginCell().storeUint(5, 3).storeAddress(addr).storeCoins(123_456_789_012n).storeUint(0xfedcba9876543210n, 64).storeInt(-5, 7).endCell();
    const sl = c.beginParse();
    sl.skip(3);
    expect(sl.loadAddress().equals(addr)).toBe(true);
    expect(sl.loadCoins()).toBe(123_456_789_012n);
    expect(sl.loadUintBig(64)).toBe(0xfedcba9876543210n);
    expect(sl.loadInt(7)).toBe(-5);
  });
});

describe('@ton/crypto sha256_sync (Node crypto)', () => {
  it('is the patched code, on the one-shot crypto.hash where Node has it', () => {
    expect(sha256_sync.toString()).toContain('nodeHash');
  });

  it('hashes as SHA-256 does', () => {
    const b = randomBytes(300);
    expect(sha256_sync(b).equals(createHash('sha256').update(b).digest())).toBe(true);
  });
});
