/**
 * Reads see the chain on one side of a rewind, never a mix. A rewind (a checkpoint restored, blocks rolled back,
 * a reorg, a reset, a state loaded) changes the store and every index in steps, some of them waiting on
 * get-methods; a read of one request spans awaits. So each request holds a read (`read`), and a rewind runs
 * `exclusive`: new reads wait, the reads under way finish, the rewind runs alone, and the waiting reads go on
 * against the chain it left. Rewinds run one at a time.
 */
export class RewindGate {
  private readers = 0;
  /** the rewind under way, which new reads and rewinds wait for */
  private held?: Promise<void>;
  /** wakes the rewind waiting for the reads under way */
  private drained?: () => void;

  /**
   * Holds a read until the returned function is called (once): at once when no rewind runs (the common case,
   * which costs a request no promise), else once it is done.
   */
  read(): (() => void) | Promise<() => void> {
    return this.held ? this.readAfterRewind() : this.hold();
  }

  private async readAfterRewind(): Promise<() => void> {
    while (this.held) await this.held;
    return this.hold();
  }

  private hold(): () => void {
    this.readers++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.readers--;
      if (this.readers === 0) this.drained?.();
    };
  }

  /** Runs `fn` with no read under way and none starting until it is done. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.held) await this.held;
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.readers > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await fn();
    } finally {
      this.drained = undefined;
      this.held = undefined;
      release();
    }
  }

  /** Reads under way (for tests and metrics). */
  get reading(): number {
    return this.readers;
  }
}
