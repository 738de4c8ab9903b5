/**
 * An emulation's own work on the server's thread, cut into slices under its deadline: between two slices other
 * requests are answered, and past the deadline the work stops with the reference's timeout text (emulate-v1.md
 * §5: one 3 s context covers the whole request), wherever it was: reading states, reading transactions, building
 * the answer.
 */
import { EmulateError } from '../../api/emulate.js';

/** The longest stretch of an emulation's work before it lets other requests run, ms. */
const SLICE_MS = 4;

export const timedOut = (): EmulateError => new EmulateError(500, 'failed to receive result from emulator channel: context deadline exceeded');

/** Runs `work` within the deadline (epoch ms); past it, the reference's timeout text. */
export async function withinDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  const left = deadline - Date.now();
  if (left <= 0) throw timedOut();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut()), left)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** One emulation's clock: `tick()` between two pieces of work yields once its slice is spent, and throws past the deadline. */
export class Slices {
  private sliceStart = performance.now();

  constructor(readonly deadline: number) {}

  /** Whether the deadline has passed. */
  get over(): boolean {
    return Date.now() > this.deadline;
  }

  async tick(): Promise<void> {
    if (performance.now() - this.sliceStart >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.sliceStart = performance.now();
    }
    if (this.over) throw timedOut();
  }

  /** `fn` over each item, in slices. */
  async map<T, U>(items: readonly T[], fn: (item: T, index: number) => U): Promise<U[]> {
    const out: U[] = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      await this.tick();
      out[i] = fn(items[i]!, i);
    }
    return out;
  }
}
