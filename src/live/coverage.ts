/**
 * Which events a feed has been receiving completely, and from where: one key per event type and address (and per
 * trace hash for `trace`), each with the position in the feed's own order after which every event of it is held.
 * A resume is complete when every key the client watches was covered from its cursor on; else it is refused,
 * naming the oldest cursor from which it would be (live/feed.ts, LiveCursorTooOld).
 */
import type { LiveEventType, LiveWant } from './feed.js';

/** The key of one event type for one address (or, for `trace`, one trace hash). */
export const coverageKey = (type: LiveEventType, target: string): string => `${type} ${target}`;

/** Every key a client's events come under. */
export function coverageKeys(want: LiveWant): string[] {
  const keys: string[] = [];
  for (const type of want.types) {
    if (type === 'trace') for (const h of want.traceExternalHashNorms) keys.push(coverageKey(type, h));
    else for (const a of want.addresses) keys.push(coverageKey(type, a));
  }
  return keys;
}

/** How long a resume waits for what it watches to be covered, when the attach itself is what subscribes it. */
export const COVERAGE_WAIT_MS = 3_000;

/** `check` asked every 50 ms until it gives a value or `ms` pass. */
export async function coveredSoon<T>(check: () => Promise<T | undefined> | T | undefined, ms = COVERAGE_WAIT_MS): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined || Date.now() >= deadline) return v;
    await new Promise((r) => setTimeout(r, 50).unref());
  }
}

/** Where a feed says which keys it receives every event of: from now on (`begin`), or no longer (`end`). */
export interface CoverageLog {
  begin(keys: readonly string[]): void;
  end(keys: readonly string[]): void;
}

/** Coverage in memory, in the positions of one replay ring (live/replay-ring.ts), each begin at a mark of its own. */
export class RingCoverage implements CoverageLog {
  private readonly since = new Map<string, number>();

  constructor(private readonly mark: () => number) {}

  begin(keys: readonly string[]): void {
    if (!keys.length) return;
    const at = this.mark();
    for (const k of keys) if (!this.since.has(k)) this.since.set(k, at);
  }

  end(keys: readonly string[]): void {
    for (const k of keys) this.since.delete(k);
  }

  /** The mark after which every event of all these keys is held, or undefined when one of them is not covered. */
  from(keys: readonly string[]): number | undefined {
    let newest = 0;
    for (const k of keys) {
      const at = this.since.get(k);
      if (at === undefined) return undefined;
      if (at > newest) newest = at;
    }
    return newest;
  }
}

/**
 * What a feed takes over from the previous holder of its upstream stream (live/relay.ts): the keys it covered and
 * when it was last known to be receiving them (ms), a gap to fill once the new connections are up (unless it
 * still carries them); and the finalized transactions it had sent since, by hash, not to be sent again.
 */
export interface InheritedCoverage {
  readonly keys: readonly string[];
  readonly at: number;
  readonly delivered: readonly string[];
  /** a graceful hand-over: the previous holder goes on carrying the keys until this time (ms), so covered before it they have no gap */
  readonly carriedUntil?: number;
}
