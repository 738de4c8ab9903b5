/**
 * A rate in units per second with a burst of one second's worth (the generic cell rate algorithm): what has been
 * taken is spent until a time, which is never less than a second ago; while it is in the future the rate is spent,
 * and a caller either waits that long or is refused.
 */
export class Pace {
  /** the time (performance.now()) up to which the rate is spent */
  private spentUntil = 0;

  constructor(
    readonly perSecond: number,
    private readonly burstMs = 1000,
  ) {}

  /** Takes `n` units whether or not they fit; answers how long (ms) to wait before the rate allows more. */
  take(n: number, now = performance.now()): number {
    this.spentUntil = Math.max(this.spentUntil, now - this.burstMs) + (n / this.perSecond) * 1000;
    return Math.max(0, this.spentUntil - now);
  }

  /**
   * Takes `n` units if any of the rate is left now (the take may then owe the rest); otherwise takes nothing.
   */
  tryTake(n: number, now = performance.now()): boolean {
    if (this.spentUntil >= now) return false;
    this.take(n, now);
    return true;
  }

  /** How long (ms) until some of the rate is left. */
  wait(now = performance.now()): number {
    return Math.max(0, this.spentUntil - now);
  }
}
