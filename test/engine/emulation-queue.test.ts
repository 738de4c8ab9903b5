/**
 * Emulations taking turns (engine/emulation-queue.ts): at most `running` at once, at most `queued` waiting, at
 * most `perClient` places per client, turns handed round the waiting clients, refusals as 429 with Retry-After,
 * and a wait past the emulation's deadline as the reference's timeout.
 */
import { describe, expect, it } from 'vitest';
import { EmulateError } from '../../src/api/emulate.js';
import { EmulationQueue } from '../../src/engine/emulation-queue.js';

const LATER = () => Date.now() + 60_000;
const TIMEOUT = 'failed to receive result from emulator channel: context deadline exceeded';

async function refusal(p: Promise<unknown>): Promise<EmulateError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EmulateError);
  return e as EmulateError;
}

describe('the emulation queue', () => {
  it('runs at most `running` at once and starts the next when one ends', async () => {
    const q = new EmulationQueue({ running: 2, queued: 10, perClient: 10 });
    const a = await q.admit('a', LATER());
    const b = await q.admit('b', LATER());
    let started = false;
    const c = q.admit('c', LATER()).then((release) => ((started = true), release));
    await new Promise((r) => setImmediate(r));
    expect(started).toBe(false);
    expect(q.size).toEqual({ running: 2, waiting: 1 });
    a();
    (await c)();
    expect(started).toBe(true);
    b();
    expect(q.size).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses past the queue with 429 and a Retry-After, and a client past its share the same', async () => {
    const q = new EmulationQueue({ running: 1, queued: 1, perClient: 2 });
    const first = await q.admit('a', LATER());
    const waiting = q.admit('b', LATER());
    const full = await refusal(q.admit('c', LATER()));
    expect([full.status, full.message]).toEqual([429, 'too many emulations waiting: 1 queued behind 1 running']);
    expect(full.retryAfterS).toBeGreaterThanOrEqual(1);
    const q2 = new EmulationQueue({ running: 4, queued: 4, perClient: 2 });
    await q2.admit('a', LATER());
    await q2.admit('a', LATER());
    const share = await refusal(q2.admit('a', LATER()));
    expect([share.status, share.message]).toEqual([429, 'too many emulations at once from this client: at most 2 running or waiting']);
    expect(share.retryAfterS).toBeGreaterThanOrEqual(1);
    // another client is not refused for it
    await q2.admit('b', LATER());
    first();
    (await waiting)();
  });

  it('hands turns round the waiting clients: one client’s backlog never goes before another’s first', async () => {
    const q = new EmulationQueue({ running: 1, queued: 10, perClient: 10 });
    const order: string[] = [];
    const hold = await q.admit('a', LATER());
    const asks = ['a1', 'a2', 'a3', 'b1', 'c1', 'b2'].map((name) =>
      q.admit(name[0]!, LATER()).then((release) => {
        order.push(name);
        release();
      }),
    );
    hold();
    await Promise.all(asks);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('a wait past the deadline is the reference’s timeout, and frees its place', async () => {
    const q = new EmulationQueue({ running: 1, queued: 1, perClient: 1 });
    const hold = await q.admit('a', LATER());
    const late = await refusal(q.admit('b', Date.now() + 50));
    expect([late.status, late.message]).toEqual([500, TIMEOUT]);
    expect(q.size).toEqual({ running: 1, waiting: 0 });
    // b's place is free again: it may wait once more
    const again = q.admit('b', LATER());
    hold();
    (await again)();
    expect(q.size).toEqual({ running: 0, waiting: 0 });
  });
});
