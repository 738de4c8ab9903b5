/**
 * The local chain's log of finalized streaming events: events the chain can build again are kept by reference and
 * built back through the feed's rebuild, others as JSON; a log written before references existed replays as it
 * was; positions continue across a reopen. A replay whose events were trimmed is refused, builds no further ahead than
 * its client reads, and stops when the client goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/live/feed.js';
import { ReplayLog, type Logged } from '../../src/live/replay-log.js';

const dirs: string[] = [];
const dir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'stream-log-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ROOT = 'ab'.repeat(32);
const TX = 'cd'.repeat(32);

/** Builds a reference into a recognisable event, and passes kept events through. */
const rebuild = async (entries: readonly Logged[]): Promise<(LiveEvent | undefined)[]> =>
  entries.map((e) => ('event' in e ? e.event : { type: e.ref.type, finality: 'finalized', built: e.ref }));

async function replayAll(log: ReplayLog, cursor: string): Promise<LiveEvent[]> {
  const out: LiveEvent[] = [];
  await log.replay(cursor, (e) => out.push(e), rebuild);
  return out;
}

describe('the stream log', () => {
  it('keeps referenced events as their reference and others as JSON, and replays both in order with their cursors', async () => {
    const d = dir();
    const log = new ReplayLog(d, 100);
    const jetton: LiveEvent = { type: 'jettons_change', finality: 'finalized', jetton: { address: '0:AA', balance: '5' } };
    const sent = log.append([
      { event: { type: 'transactions', finality: 'finalized', transactions: [] }, ref: { type: 'transactions', root: ROOT, mc: 7 } },
      { event: { type: 'account_state_change', finality: 'finalized' }, ref: { type: 'account_state_change', tx: TX } },
      { event: jetton },
    ], 7);
    expect(sent.map((e) => e.cursor)).toEqual(['1', '2', '3']);
    expect(await replayAll(log, '0')).toEqual([
      { type: 'transactions', finality: 'finalized', built: { type: 'transactions', root: ROOT, mc: 7 }, cursor: '1' },
      { type: 'account_state_change', finality: 'finalized', built: { type: 'account_state_change', tx: TX }, cursor: '2' },
      { ...jetton, cursor: '3' },
    ]);
    log.close();
    const db = new Database(join(d, 'stream-events.db'), { readonly: true });
    const rows = db.prepare('SELECT pos, json IS NULL AS byRef, length(ref) AS refBytes FROM events ORDER BY pos').all();
    db.close();
    expect(rows).toEqual([
      { pos: 1, byRef: 1, refBytes: 32 },
      { pos: 2, byRef: 1, refBytes: 32 },
      { pos: 3, byRef: 0, refBytes: null },
    ]);
  });

  it('leaves out of a replay an event that can no longer be built, keeping the others\' cursors', async () => {
    const log = new ReplayLog(dir(), 100);
    log.append([
      { event: { type: 'trace', finality: 'finalized' }, ref: { type: 'trace', root: ROOT, mc: 1 } },
      { event: { type: 'actions', finality: 'finalized' }, ref: { type: 'actions', root: ROOT, mc: 1 } },
    ], 1);
    const out: LiveEvent[] = [];
    await log.replay('0', (e) => out.push(e), async (entries) => entries.map((e, i) => (i === 0 ? undefined : { type: 'actions', finality: 'finalized' })));
    expect(out).toEqual([{ type: 'actions', finality: 'finalized', cursor: '2' }]);
    log.close();
  });

  it('refuses a cursor newer than anything written, and one whose events are trimmed while its replay runs', async () => {
    const log = new ReplayLog(dir(), 300);
    const item = (mc: number) => ({ event: { type: 'actions', finality: 'finalized' } as LiveEvent, ref: { type: 'actions' as const, root: ROOT, mc } });
    for (let i = 0; i < 300; i++) log.append([item(i)], i);
    await expect(replayAll(log, '301')).rejects.toThrow('cursor is too old: the oldest that can be replayed is 1');
    expect(await replayAll(log, '300')).toEqual([]);
    // the client reads slowly: while it holds the first event, the chain writes past the retention
    const got: string[] = [];
    const slow = log.replay(
      '0',
      async (e) => {
        got.push(e.cursor!);
        if (got.length === 1) for (let i = 0; i < 400; i++) log.append([item(1000 + i)], 1000 + i);
      },
      rebuild,
    );
    await expect(slow).rejects.toThrow(/^cursor is too old: the oldest that can be replayed is \d+$/);
    // what it had read before the trim, then the refusal instead of a jump
    expect(got).toEqual(Array.from({ length: 256 }, (_, i) => String(i + 1)));
    log.close();
  });

  it('builds no further ahead than its client reads, and stops when the client goes', async () => {
    const log = new ReplayLog(dir(), 10_000);
    for (let i = 0; i < 1000; i++) log.append([{ event: { type: 'actions', finality: 'finalized' }, ref: { type: 'actions', root: ROOT, mc: i } }], i);
    let built = 0;
    const counting = async (entries: readonly Logged[]) => {
      built += entries.length;
      return rebuild(entries);
    };
    let release!: () => void;
    const reading = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    const replay = log.replay(
      '0',
      async () => {
        if (++sent === 3) await reading;
      },
      counting,
    );
    await new Promise((r) => setTimeout(r, 50));
    // the client has not read its third event: one group is built, no more
    expect(sent).toBe(3);
    expect(built).toBeLessThanOrEqual(16);
    release();
    await replay;
    expect(sent).toBe(1000);
    // a client gone after 10 events: its deliver throws, and nothing more is built
    built = 0;
    let n = 0;
    await expect(
      log.replay(
        '0',
        () => {
          if (++n > 10) throw new Error('gone');
        },
        counting,
      ),
    ).rejects.toThrow('gone');
    expect(built).toBeLessThanOrEqual(24);
    log.close();
  });

  it('replays a log written before events were kept by reference, and continues its positions', async () => {
    const d = dir();
    const old = new Database(join(d, 'stream-events.db'));
    old.exec('CREATE TABLE events (pos INTEGER PRIMARY KEY, json TEXT NOT NULL)');
    const e1 = { type: 'transactions', finality: 'finalized', transactions: [{ hash: 'x' }], cursor: '41' };
    old.prepare('INSERT INTO events (pos, json) VALUES (?, ?)').run(41, JSON.stringify(e1));
    old.close();
    const log = new ReplayLog(d, 100);
    const [next] = log.append([{ event: { type: 'account_state_change', finality: 'finalized' }, ref: { type: 'account_state_change', tx: TX } }], 1);
    expect(next!.cursor).toBe('42');
    const replayed = await replayAll(log, '40');
    expect(replayed[0]).toEqual(e1);
    expect(replayed[1]).toMatchObject({ built: { tx: TX }, cursor: '42' });
    log.close();
  });

  it('keeps the newest `retention` events and refuses a cursor before them', async () => {
    const log = new ReplayLog(dir(), 16);
    for (let i = 0; i < 40; i++) log.append([{ event: { type: 'actions', finality: 'finalized' }, ref: { type: 'actions', root: ROOT, mc: i } }], i);
    const oldest = log.oldest()!;
    expect(oldest).toBeGreaterThan(1);
    expect(40 - oldest + 1).toBeGreaterThanOrEqual(16);
    await expect(replayAll(log, '1')).rejects.toThrow(`cursor is too old: the oldest that can be replayed is ${oldest}`);
    expect((await replayAll(log, String(oldest - 1))).map((e) => e.cursor)).toEqual(Array.from({ length: 40 - oldest + 1 }, (_, i) => String(oldest + i)));
    log.close();
  });

  it('forgets the seals after a block a rewind went back to, and never reuses their positions', async () => {
    const log = new ReplayLog(dir(), 100);
    const jetton: LiveEvent = { type: 'jettons_change', finality: 'finalized', jetton: { address: '0:AA', balance: '5' } };
    for (const mc of [3, 4, 5]) {
      log.append([
        { event: { type: 'trace', finality: 'finalized' }, ref: { type: 'trace', root: ROOT, mc } },
        { event: { type: 'account_state_change', finality: 'finalized' }, ref: { type: 'account_state_change', tx: TX } },
        { event: jetton },
      ], mc);
    }
    log.forgetAfter(3);
    expect((await replayAll(log, '0')).map((e) => e.cursor)).toEqual(['1', '2', '3']);
    const [next] = log.append([{ event: jetton }], 4);
    expect(next!.cursor).toBe('10');
    expect((await replayAll(log, '3')).map((e) => e.cursor)).toEqual(['10']);
    log.close();
  });
});
