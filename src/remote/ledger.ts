/**
 * What one incoming request spent of the upstream, and when it stops waiting for it. A request that asked for
 * a cost report (`X-Upstream-Report: 1`) or set a deadline (`Prefer: wait=N`) runs inside its own Ledger
 * (AsyncLocalStorage, entered by src/pipeline/upstream-report.ts); the upstream client writes into the ledger
 * of whoever calls it. Requests without either header run with no ledger and nothing here costs them anything.
 *
 * Counting: a call on the wire is counted for every request that waited on it. When identical concurrent
 * requests share one call (single-flight), each of them reports it, with its retries and its pacing wait, so
 * each report says what that answer would have cost alone; summed over requests, shared calls count more than
 * once. A cache hit (either tier, or a REST request alias) is counted as a hit, not a call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ApiError } from '../api/errors.js';

/** What one upstream exchange cost: attempts on the wire, per route, and time spent queued for a pacing slot. */
export class Tally {
  calls = 0;
  waitedMs = 0;
  readonly byRoute = new Map<string, number>();

  call(route: string): void {
    this.calls++;
    this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
  }
}

/** The pace of the client a request used: its rate, and how many calls it could start within the next second. */
export interface Budget {
  rps: number;
  remaining: number | null;
}

export interface BudgetSource {
  budget(): Budget;
}

export interface UpstreamReport {
  calls: number;
  cacheHits: number;
  waitedMs: number;
  byRoute: Record<string, number>;
  /** null when the request reached no upstream client (a local source) */
  budget: Budget | null;
}

/** The most a client may ask to wait (Prefer: wait=N), in seconds; a longer wait is served as this one. */
export const MAX_WAIT_S = 60;

export class Ledger {
  private readonly spent = new Tally();
  private cacheHits = 0;
  /** the clients this request used; the last one's budget is reported */
  private client: BudgetSource | undefined;

  constructor(
    /** performance.now() by which the request is answered, if it set a deadline */
    readonly deadline: number | undefined,
    /** the wait it asked for, in seconds, for the error text */
    readonly waitS: number | undefined,
  ) {}

  hit(client: BudgetSource): void {
    this.cacheHits++;
    this.client = client;
  }

  add(client: BudgetSource, t: Tally): void {
    this.client = client;
    this.spent.calls += t.calls;
    this.spent.waitedMs += t.waitedMs;
    for (const [route, n] of t.byRoute) this.spent.byRoute.set(route, (this.spent.byRoute.get(route) ?? 0) + n);
  }

  report(): UpstreamReport {
    return {
      calls: this.spent.calls,
      cacheHits: this.cacheHits,
      waitedMs: Math.round(this.spent.waitedMs),
      byRoute: Object.fromEntries(this.spent.byRoute),
      budget: this.client?.budget() ?? null,
    };
  }

  /** The error a call gets when the request's deadline passes before its answer. */
  deadlineError(): ApiError {
    return new ApiError(504, `no upstream answer within the deadline of ${this.waitS} s (Prefer: wait=${this.waitS}); the call goes on into the cache`, {
      code: 'UPSTREAM_DEADLINE',
    });
  }
}

const storage = new AsyncLocalStorage<Ledger>();

/** The ledger of the request being served, if it has one. */
export const currentLedger = (): Ledger | undefined => storage.getStore();

/** Runs `fn` (and everything it starts) on `ledger`'s account. */
export const withLedger = <T>(ledger: Ledger, fn: () => T): T => storage.run(ledger, fn);

/**
 * `promise`, or the deadline's error once it passes first. The promise is left to settle on its own (an
 * upstream call completes into the cache); its rejection is then nobody's and is swallowed.
 */
export function beforeDeadline<T>(ledger: Ledger | undefined, promise: Promise<T>): Promise<T> {
  if (ledger?.deadline === undefined) return promise;
  const left = ledger.deadline - performance.now();
  if (left <= 0) {
    promise.catch(() => undefined);
    return Promise.reject(ledger.deadlineError());
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      promise.catch(() => undefined);
      reject(ledger.deadlineError());
    }, left);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * The wait of a `Prefer` header (RFC 7240 `wait=N`, delta-seconds), capped at MAX_WAIT_S; undefined when the
 * header has no usable wait (absent, not a positive integer): a preference that cannot be applied is ignored.
 */
export function preferredWait(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  for (const line of Array.isArray(header) ? header : [header]) {
    for (const pref of line.split(',')) {
      const [token] = pref.split(';');
      const m = /^\s*wait\s*=\s*"?(\d{1,9})"?\s*$/i.exec(token ?? '');
      if (m) {
        const n = Number(m[1]);
        return n > 0 ? Math.min(n, MAX_WAIT_S) : undefined;
      }
    }
  }
  return undefined;
}
