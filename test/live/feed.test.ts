/**
 * Cursors of every feed in their feed's order (compareCursors): the local log's positions, the ring's
 * `epoch-seq` and a Redis Stream's `ms-seq`, where comparing text alone (or length first) orders `…0-10`
 * before `…1-0` wrongly; and each feed's head, the cursor a consumer made now resumes from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareCursors } from '../../src/live/feed.js';
import { cursorAfter } from '../../src/live/hub.js';
import { ReplayLog } from '../../src/live/replay-log.js';
import { ReplayRing } from '../../src/live/replay-ring.js';

const sorted = (xs: string[]) => [...xs].sort(compareCursors);

describe('compareCursors', () => {
  it('orders the local log by position, however many digits', () => {
    expect(sorted(['10', '9', '100', '1', '09'])).toEqual(['1', '9', '09', '10', '100']);
    expect(compareCursors('9', '09')).toBe(0);
  });

  it('orders Redis Stream ids by milliseconds, then sequence', () => {
    expect(sorted(['1700000000001-0', '1700000000000-10', '1700000000000-9', '1700000000000-0'])).toEqual([
      '1700000000000-0',
      '1700000000000-9',
      '1700000000000-10',
      '1700000000001-0',
    ]);
    expect(cursorAfter('1700000000001-0', '1700000000000-10')).toBe(true);
  });

  it("orders a ring's cursors of one run by sequence", () => {
    expect(sorted(['lq3x-12', 'lq3x-2', 'lq3x-101'])).toEqual(['lq3x-2', 'lq3x-12', 'lq3x-101']);
  });
});

describe('a feed head', () => {
  it('is the newest cursor, from which a replay sends what follows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cursor-head-'));
    const log = new ReplayLog(dir, 100);
    try {
      expect(log.head()).toBe('0');
      log.append([{ event: { type: 'trace_invalidated', trace_external_hash_norm: 'a' } }], 1);
      const head = log.head();
      log.append([{ event: { type: 'trace_invalidated', trace_external_hash_norm: 'b' } }], 2);
      const after: unknown[] = [];
      await log.replay(head, (e) => after.push(e.trace_external_hash_norm), async (entries) => entries.map((e) => ('event' in e ? e.event : undefined)));
      expect(after).toEqual(['b']);
    } finally {
      log.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const ring = new ReplayRing(1 << 20);
    const head = ring.newest;
    ring.add({ type: 'trace_invalidated', trace_external_hash_norm: 'c' }, 10);
    expect(ring.after(head).map((e) => e.trace_external_hash_norm)).toEqual(['c']);
  });
});
