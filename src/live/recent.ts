/**
 * The events of the last minute, for `replay_existing` (toncenter-newer.md §9): toncenter replays to a new
 * subscriber the snapshots its Redis still holds (finished traces about 30 s, account states 60 s), built as
 * live events. Here the hub keeps the events it published in that window, bounded in count, and a snapshot is
 * the newest event of each kind per trace and per account: a trace's latest `transactions`, `actions` and `trace`
 * stage (none for a trace invalidated since), an account's finalized state and then its confirmed one when that
 * came later, a jetton wallet's latest `jettons_change`.
 */
import type { LiveEvent } from './feed.js';

export interface RecentOptions {
  /** how long a trace's events are replayed (toncenter's finished traces: about 30 s) */
  traceMs: number;
  /** how long account and jetton states are (toncenter's state keys expire after 60 s) */
  stateMs: number;
  /** events kept at most; past it the oldest go first */
  maxEvents: number;
}

export const RECENT_DEFAULTS: RecentOptions = { traceMs: 30_000, stateMs: 60_000, maxEvents: 10_000 };

interface Kept {
  at: number;
  event: LiveEvent;
}

const TRACE_TYPES = new Set(['transactions', 'actions', 'trace']);

export class RecentEvents {
  private kept: Kept[] = [];
  /** index of the oldest kept entry (those before it are dropped lazily) */
  private head = 0;

  constructor(
    private readonly opts: RecentOptions = RECENT_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.kept.length - this.head;
  }

  add(event: LiveEvent): void {
    this.kept.push({ at: this.now(), event });
    this.trim();
  }

  /** The snapshots still held, in the order their newest events came. */
  snapshot(): LiveEvent[] {
    this.trim();
    const now = this.now();
    const latest = new Map<string, Kept & { i: number }>();
    const invalidated = new Set<string>();
    for (let i = this.kept.length - 1; i >= this.head; i--) {
      const k = this.kept[i]!;
      const e = k.event;
      const hash = e.trace_external_hash_norm;
      if (e.type === 'trace_invalidated') {
        if (hash !== undefined) invalidated.add(hash);
        continue;
      }
      let key: string | undefined;
      if (TRACE_TYPES.has(e.type)) {
        if (hash === undefined || invalidated.has(hash) || now - k.at > this.opts.traceMs) continue;
        key = `t|${e.type}|${hash}`;
      } else if (e.type === 'account_state_change') {
        key = `a|${e.finality === 'finalized' ? 'f' : 'c'}|${String(e.account)}`;
      } else if (e.type === 'jettons_change') {
        key = `j|${(e.jetton as { address?: string } | undefined)?.address ?? ''}`;
      }
      if (key !== undefined && !latest.has(key)) latest.set(key, { ...k, i });
    }
    // a confirmed state is replayed only when it is newer than the account's finalized one
    for (const [key, k] of latest) {
      if (!key.startsWith('a|c|')) continue;
      const final = latest.get(`a|f|${key.slice(4)}`);
      if (final && final.i > k.i) latest.delete(key);
    }
    return [...latest.values()].sort((a, b) => a.i - b.i).map((k) => k.event);
  }

  private trim(): void {
    const oldest = this.now() - Math.max(this.opts.traceMs, this.opts.stateMs);
    while (this.head < this.kept.length && (this.kept[this.head]!.at < oldest || this.kept.length - this.head > this.opts.maxEvents)) this.head++;
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.head = 0;
    }
  }
}
