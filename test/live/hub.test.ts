/**
 * The hub's routing holds for a resuming client too: what the feed replays reaches it only where a live event
 * would (its addresses), so a state change of an account it does not watch is never sent to it.
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent, LiveFeed } from '../../src/live/feed.js';
import { LiveHub, type HubClient } from '../../src/live/hub.js';
import { emptySubscription } from '../../src/live/subscription.js';

const A = `0:${'A'.repeat(64)}`;
const B = `0:${'B'.repeat(64)}`;
const state = (account: string, cursor: string): LiveEvent => ({ type: 'account_state_change', finality: 'finalized', account, state: { hash: 'h' }, cursor });

describe('a client resuming from a cursor', () => {
  it('is replayed only the events of what it watches', async () => {
    const logged = [state(A, '1'), state(B, '2'), state(A, '3'), { type: 'jettons_change', finality: 'finalized', jetton: { address: B, owner: B, jetton: B }, cursor: '4' } as LiveEvent];
    const feed: LiveFeed = {
      start() {},
      setInterest() {},
      async replay(cursor, deliver) {
        for (const e of logged) if (Number(e.cursor) > Number(cursor)) deliver(e);
      },
      status: () => ({ kind: 'test', up: true }),
      stop: async () => {},
    };
    const hub = new LiveHub(feed, { maxQueuedBytes: 1 << 20 });
    const sent: string[] = [];
    const client: HubClient = {
      sub: { ...emptySubscription(undefined), types: new Set(['account_state_change', 'jettons_change']), addresses: new Set([A]) },
      send: (p) => sent.push(p.cursor!),
      queuedBytes: () => 0,
      drop() {},
    };
    await hub.attach(client, '0');
    expect(sent).toEqual(['1', '3']);
  });
});
