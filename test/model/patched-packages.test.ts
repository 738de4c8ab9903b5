/**
 * The installed packages patched by patch-package (patches/): each patch is in effect after `npm install`, and
 * the patched code answers exactly what the original did.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

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

describe('@ton/crypto sha256_sync (Node crypto)', () => {
  it('hashes as SHA-256 does', () => {
    const b = randomBytes(300);
    expect(sha256_sync(b).equals(createHash('sha256').update(b).digest())).toBe(true);
  });
});
