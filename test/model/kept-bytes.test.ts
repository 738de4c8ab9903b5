/** Kept bytes: equal to what was kept, in memory not shared with Node's buffer pool, packed into few chunks. */
import { describe, expect, it } from 'vitest';
import { keptBytes, keptHex } from '../../src/model/kept-bytes.js';

describe('keptBytes', () => {
  it('copies the bytes out of the buffer pool, many small ones sharing one chunk', () => {
    const pooled = Buffer.from('ab'.repeat(32), 'hex');
    const kept = keptBytes(pooled);
    expect(kept.equals(pooled)).toBe(true);
    expect(kept.buffer).not.toBe(pooled.buffer);
    pooled[0] = 0;
    expect(kept[0]).toBe(0xab);
    const more = Array.from({ length: 100 }, (_, i) => keptHex(i.toString(16).padStart(64, '0')));
    expect(new Set(more.map((b) => b.buffer)).size).toBeLessThanOrEqual(2);
    expect(more[42]!.toString('hex')).toBe((42).toString(16).padStart(64, '0'));
  });

  it('gives a large byte string memory of its own', () => {
    const big = Buffer.alloc(10_000, 7);
    const kept = keptBytes(big);
    expect(kept.equals(big)).toBe(true);
    expect(kept.byteOffset).toBe(0);
    expect(kept.buffer.byteLength).toBe(10_000);
  });
});
