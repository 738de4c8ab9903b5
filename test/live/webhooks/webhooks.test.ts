/**
 * The webhook engine over a feed the test drives (events published by hand, a log replayed a few events per turn,
 * as a real log is), to a real receiver: a `trace_invalidated` is delivered like any event, after the pending
 * events of its trace; a webhook whose queue holds two events, fed from the log while live events keep coming,
 * gets every event once and in order (the seam between a pass over the log and the live feed); a cursor the log
 * no longer holds pauses the webhook saying so, and `cursor: null` goes on from now.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveCursorTooOld, type LiveEvent, type LiveFeed } from '../../../src/live/feed.js';
import { LiveHub } from '../../../src/live/hub.js';
import { WEBHOOK_DEFAULTS, type WebhookLimits } from '../../../src/live/webhooks/spec.js';
import { MemoryStore } from '../../../src/live/webhooks/store.js';
import { Webhooks } from '../../../src/live/webhooks/webhooks.js';
import { webhookLogReads } from '../../../src/observe/metrics.js';
import { waitFor } from '../../helpers/wait.js';
import { Receiver } from '../../helpers/webhook-receiver.js';

const A = `0:${'A'.repeat(64)}`;
const SILENT = { info() {}, warn() {} };

/** A feed whose events the test publishes; finalized ones are logged with positions and replayed a few per turn. */
class DrivenFeed implements LiveFeed {
  readonly log: LiveEvent[] = [];
  oldest = 1;
  private deliver?: (e: LiveEvent) => void;

  start(deliver: (e: LiveEvent) => void): void {
    this.deliver = deliver;
  }

  setInterest(): void {}

  publish(e: LiveEvent): void {
    const event = e.finality === 'finalized' ? { ...e, cursor: String(this.log.length + 1) } : e;
    if (event.cursor) this.log.push(event);
    this.deliver!(event);
  }

  async replay(cursor: string, deliver: (e: LiveEvent) => void): Promise<void> {
    const from = Number(cursor);
    if (from < this.oldest - 1) throw new LiveCursorTooOld(String(this.oldest));
    for (let i = Math.max(from, this.oldest - 1); i < this.log.length; i++) {
      deliver(this.log[i]!);
      if (i % 8 === 7) await new Promise((r) => setImmediate(r));
    }
  }

  head(): string {
    return String(this.log.length);
  }

  status() {
    return { kind: 'driven', up: true };
  }

  async stop(): Promise<void> {}
}

const transactions = (finality: 'pending' | 'finalized', trace: string, n: number): LiveEvent => ({
  type: 'transactions',
  finality,
  trace_external_hash_norm: trace,
  transactions: [{ account: A, hash: `tx${n}` }],
});

let feed: DrivenFeed;
let webhooks: Webhooks;
let rx: Receiver;

async function start(limits: Partial<WebhookLimits> = {}): Promise<void> {
  feed = new DrivenFeed();
  const hub = new LiveHub(feed, { maxQueuedBytes: 1 << 20 });
  hub.start();
  webhooks = await Webhooks.start({ hub, store: new MemoryStore(), limits: { ...WEBHOOK_DEFAULTS, backoffMs: 20, ...limits }, allowPrivate: true, keyless: true, log: SILENT });
}

beforeEach(async () => {
  rx = await Receiver.start();
});

afterEach(async () => {
  await webhooks?.close();
  await rx.stop();
});


async function make(extra: Record<string, unknown> = {}): Promise<string> {
  const owner = webhooks.ownerOf(undefined);
  const made = await webhooks.create(owner, { url: rx.url, types: ['transactions'], addresses: [A], ...extra });
  rx.secret = made.secret as string;
  return made.id as string;
}

describe('the webhook engine', () => {
  it('delivers a trace_invalidated like any event, after the pending events of its trace', async () => {
    await start();
    await make({ min_finality: 'pending' });
    feed.publish(transactions('pending', 'T1', 1));
    feed.publish({ type: 'trace_invalidated', trace_external_hash_norm: 'T1' });
    feed.publish(transactions('finalized', 'T2', 2));
    await rx.until((got) => got.length >= 3);
    expect(rx.got.map((r) => [r.event.type, r.event.finality ?? null, r.event.trace_external_hash_norm])).toEqual([
      ['transactions', 'pending', 'T1'],
      ['trace_invalidated', null, 'T1'],
      ['transactions', 'finalized', 'T2'],
    ]);
    expect(rx.got.every((r) => r.signed)).toBe(true);
    // below finalized an event's id is a digest of its body; a finalized one's is its cursor
    expect(rx.got[1]!.headers['x-webhook-event-id']).toMatch(/^h_[A-Za-z0-9_-]{32}$/);
    expect(rx.got[1]!.headers['x-webhook-cursor']).toBeUndefined();
    expect(rx.got[2]!.headers['x-webhook-event-id']).toBe('1');
  });

  it('feeds a webhook with a full queue from the log while live events keep coming: each once, in order', async () => {
    await start({ queueEvents: 2 });
    await make();
    const reads = async () => (await webhookLogReads.get()).values[0]?.value ?? 0;
    const before = await reads();
    rx.behaviour = () => ({ status: 200, delayMs: 2 });
    for (let n = 1; n <= 300; n++) {
      feed.publish(transactions('finalized', `T${n}`, n));
      if (n % 5 === 0) await new Promise((r) => setImmediate(r));
    }
    await rx.until((got) => new Set(got.map((r) => r.event.cursor)).size >= 300, 60_000);
    const cursors = rx.distinct().map((r) => Number(r.event.cursor));
    expect(cursors).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // it fell behind, and the log fed it (passes, each from where it was)
    expect((await reads()) - before).toBeGreaterThan(1);
  }, 90_000);

  it('pauses a webhook whose cursor the log no longer holds, saying so; `cursor: null` goes on from now', async () => {
    await start();
    const id = await make();
    const owner = webhooks.ownerOf(undefined);
    for (let n = 1; n <= 5; n++) feed.publish(transactions('finalized', `T${n}`, n));
    await rx.until((got) => got.length >= 5);
    feed.oldest = 4;
    await webhooks.change(owner, id, { cursor: '1' });
    const paused = await waitFor(async () => {
      const w = await webhooks.get(owner, id);
      return w.paused ? w : undefined;
    });
    expect(paused).toMatchObject({ failed_cursor: '1', last_error: 'cannot resume after cursor 1: cursor is too old: the oldest that can be replayed is 4' });
    const resumed = await webhooks.change(owner, id, { cursor: null });
    expect(resumed).toMatchObject({ paused: false, last_delivered: '5' });
    rx.got.length = 0;
    feed.publish(transactions('finalized', 'T6', 6));
    await rx.until((got) => got.length >= 1);
    expect(rx.got.map((r) => r.event.cursor)).toEqual(['6']);
  });
});
