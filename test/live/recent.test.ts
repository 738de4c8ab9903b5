/** The recent events `replay_existing` sends (src/live/recent.ts): what a snapshot keeps, for how long, and the bound. */
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/live/feed.js';
import { RecentEvents } from '../../src/live/recent.js';

const trace = (hash: string, finality: 'pending' | 'confirmed' | 'finalized', type: 'transactions' | 'actions' = 'transactions'): LiveEvent => ({
  type,
  finality,
  trace_external_hash_norm: hash,
});
const state = (account: string, finality: 'confirmed' | 'finalized', balance: string): LiveEvent => ({ type: 'account_state_change', finality, account, state: { balance } });

describe('RecentEvents', () => {
  it("keeps a trace's latest stage of each type, forgets invalidated traces, and an account's confirmed state only when newer than its finalized one", () => {
    const r = new RecentEvents();
    r.add(trace('t', 'pending'));
    r.add(trace('t', 'pending', 'actions'));
    r.add(trace('t', 'confirmed'));
    r.add(trace('x', 'pending'));
    r.add({ type: 'trace_invalidated', trace_external_hash_norm: 'x' });
    r.add(state('A', 'confirmed', '1'));
    r.add(state('A', 'finalized', '1'));
    r.add(state('B', 'finalized', '5'));
    r.add(state('B', 'confirmed', '4'));
    const got = r.snapshot().map((e) => [e.type, e.finality, e.trace_external_hash_norm ?? e.account]);
    expect(got).toEqual([
      ['actions', 'pending', 't'],
      ['transactions', 'confirmed', 't'],
      ['account_state_change', 'finalized', 'A'],
      ['account_state_change', 'finalized', 'B'],
      ['account_state_change', 'confirmed', 'B'],
    ]);
  });

  it('replays traces for 30 s and states for 60 s, then lets them go', () => {
    let now = 0;
    const r = new RecentEvents(undefined, () => now);
    r.add(trace('t', 'finalized'));
    r.add(state('A', 'finalized', '1'));
    now = 30_001;
    expect(r.snapshot().map((e) => e.type)).toEqual(['account_state_change']);
    now = 60_001;
    expect(r.snapshot()).toEqual([]);
    expect(r.size).toBe(0);
  });

  it('holds at most maxEvents, the oldest going first', () => {
    const r = new RecentEvents({ traceMs: 30_000, stateMs: 60_000, maxEvents: 3 });
    for (let i = 0; i < 10; i++) r.add(trace(`t${i}`, 'finalized'));
    expect(r.size).toBe(3);
    expect(r.snapshot().map((e) => e.trace_external_hash_norm)).toEqual(['t7', 't8', 't9']);
  });
});
