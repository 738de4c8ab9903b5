/**
 * A size-bounded LRU of upstream answers (as JSON text, so every hit parses into fresh objects no caller can
 * corrupt), with an optional expiry per entry, plus single-flight for identical calls in progress.
 */

interface Entry {
  text: string;
  size: number;
  /** performance.now() deadline; Infinity for immutable data */
  expires: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.bytes;
  }

  get(key: string): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.drop(key, e);
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes this the most recently used
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.text;
  }

  /** ttlMs undefined = immutable; ttlMs <= 0 = not stored. */
  set(key: string, text: string, ttlMs?: number): void {
    if (ttlMs !== undefined && ttlMs <= 0) return;
    // UTF-16 strings: two bytes a character for the text and the key
    const size = (key.length + text.length) * 2 + 64;
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    this.entries.set(key, { text, size, expires: ttlMs === undefined ? Infinity : this.now() + ttlMs });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.drop(oldestKey, oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.size;
  }
}

/** Identical calls made while one is in flight share its promise. */
export class SingleFlight<T> {
  private readonly inflight = new Map<string, Promise<T>>();

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(key);
    if (existing) return existing;
    const p = fn().finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }
}
