/**
 * Paces outgoing upstream calls: starts are spaced at least 1/rps apart, in arrival order, through a bounded
 * queue. A 429 pauses the whole queue (the provider's limit is per key, not per request).
 */
import { ApiError } from '../api/errors.js';

export interface PacerOptions {
  /** starts per second; 0 = unlimited */
  rps: number;
  /** most callers waiting at once; one more is shed with a 503 */
  maxQueue: number;
  now?: () => number;
}

/** Spacing margin: clocks and sockets jitter by a few ms, and the provider counts arrivals, not our starts. */
const MARGIN = 1.02;

export class Pacer {
  private readonly interval: number;
  private readonly maxQueue: number;
  private readonly now: () => number;
  private readonly waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];
  private next = 0;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: PacerOptions) {
    this.interval = opts.rps > 0 ? Math.ceil((1000 / opts.rps) * MARGIN) : 0;
    this.maxQueue = opts.maxQueue;
    this.now = opts.now ?? (() => performance.now());
  }

  /** How many callers wait for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  /** How many more starts fit within the next second, after those already waiting; null when unpaced. */
  remaining(): number | null {
    if (this.interval === 0) return null;
    const t = this.now();
    const window = t + 1000 - Math.max(this.next, this.pausedUntil, t);
    if (window < 0) return 0;
    return Math.max(0, Math.floor(window / this.interval) + 1 - this.waiting.length);
  }

  /** Resolves when the caller may start one request. */
  acquire(): Promise<void> {
    if (this.closed) return Promise.reject(new ApiError(503, 'upstream client is closed'));
    const t = this.now();
    if (this.waiting.length === 0 && t >= Math.max(this.next, this.pausedUntil)) {
      this.next = t + this.interval;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxQueue) {
      const wait = Math.ceil(this.waiting.length * this.interval + Math.max(0, this.pausedUntil - t));
      const retryAfterS = Math.max(1, Math.ceil(wait / 1000));
      return Promise.reject(
        new ApiError(503, `upstream request queue is full (${this.waiting.length} waiting); retry after about ${retryAfterS} s`, { retryAfterS }),
      );
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.pump();
    });
  }

  /** Holds every start for `ms` (a 429's Retry-After or backoff). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.pump();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.waiting.splice(0)) w.reject(new ApiError(503, 'upstream client is closed'));
  }

  private pump(): void {
    if (this.timer || this.closed) return;
    while (this.waiting.length) {
      const t = this.now();
      const at = Math.max(this.next, this.pausedUntil);
      if (t < at) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, Math.ceil(at - t));
        return;
      }
      this.next = t + this.interval;
      this.waiting.shift()!.resolve();
    }
  }
}
