/**
 * A size-bounded LRU of upstream answers, with an optional expiry per entry, plus single-flight for identical
 * calls in progress. An entry is the answer's JSON text (the size bound counts it), held as a SharedJson that
 * never keeps a decoded copy: each hit is a view no caller can use to change what another one sees.
 *
 * An entry may also be found by aliases: keys of the incoming requests that were answered with it (see
 * answers.ts). They live and die with their entry, and their bytes count toward the bound.
 */
import { SharedJson } from './shared-json.js';

interface Entry {
  key: string;
  answer: SharedJson;
  size: number;
  /** performance.now() deadline; Infinity for immutable data */
  expires: number;
  aliases?: string[];
}

/**
 * Distinct request forms remembered per entry (hash as hex, base64, base64url, with or without options, …),
 * and their longest: junk parameters cannot make an entry's aliases crowd others out of the cache.
 */
const MAX_ALIASES = 8;
const MAX_ALIAS_LENGTH = 1024;
/** Estimated bytes of an entry or alias besides its strings (Map slots, objects). */
const OVERHEAD = 64;

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly aliases = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.bytes;
  }

  get(key: string): SharedJson | undefined {
    const e = this.entries.get(key);
    return e && this.use(e);
  }

  /** The entry an alias names, while it is stored and fresh. */
  getByAlias(alias: string): SharedJson | undefined {
    const e = this.aliases.get(alias);
    return e && this.use(e);
  }

  /** `text` is JSON.stringify output. ttlMs undefined = immutable; ttlMs <= 0 = not stored. */
  set(key: string, text: string, ttlMs?: number): void {
    if (ttlMs !== undefined && ttlMs <= 0) return;
    // UTF-16 strings: two bytes a character for the text and the key
    const size = (key.length + text.length) * 2 + OVERHEAD;
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.drop(old);
    const answer = SharedJson.ofText(text, { retain: false, cacheKey: key });
    this.entries.set(key, { key, answer, size, expires: ttlMs === undefined ? Infinity : this.now() + ttlMs });
    this.bytes += size;
    this.trim();
  }

  /** Makes `alias` find the entry stored under `key` (if there is one), for as long as that entry stays. */
  alias(alias: string, key: string): void {
    const e = this.entries.get(key);
    if (!e || alias.length > MAX_ALIAS_LENGTH || this.aliases.get(alias) === e) return;
    const old = this.aliases.get(alias);
    if (old) this.unalias(alias, old);
    if ((e.aliases?.length ?? 0) >= MAX_ALIASES) return;
    const size = alias.length * 2 + OVERHEAD;
    (e.aliases ??= []).push(alias);
    e.size += size;
    this.bytes += size;
    this.aliases.set(alias, e);
    this.trim();
  }

  clear(): void {
    this.entries.clear();
    this.aliases.clear();
    this.bytes = 0;
  }

  private use(e: Entry): SharedJson | undefined {
    if (e.expires !== Infinity && e.expires <= this.now()) {
      this.drop(e);
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes this the most recently used
    this.entries.delete(e.key);
    this.entries.set(e.key, e);
    return e.answer;
  }

  /** Drops the least recently used entries until the bound holds. */
  private trim(): void {
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.values().next().value!;
      this.drop(oldest);
    }
  }

  private drop(e: Entry): void {
    this.entries.delete(e.key);
    this.bytes -= e.size;
    for (const a of e.aliases ?? []) if (this.aliases.get(a) === e) this.aliases.delete(a);
  }

  private unalias(alias: string, e: Entry): void {
    this.aliases.delete(alias);
    const i = e.aliases!.indexOf(alias);
    e.aliases!.splice(i, 1);
    const size = alias.length * 2 + OVERHEAD;
    e.size -= size;
    this.bytes -= size;
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
