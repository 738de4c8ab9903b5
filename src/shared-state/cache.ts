/**
 * The second tier of the upstream response cache (src/remote/cache.ts is the first, in process): answers
 * stored in Redis as JSON text, so a transaction one replica fetched is a hit on every other.
 *
 * Size: every entry has an expiry, immutable ones a day (IMMUTABLE_TTL_MS), account-state ones ACCOUNT_TTL_MS,
 * so Redis holds at most a day of distinct finalised objects; for a hard byte bound give Redis a `maxmemory`
 * with `maxmemory-policy allkeys-lru` (or `volatile-lru`), which evicts these keys like any others.
 * Any failure reads as a miss and a write is dropped: the caller then asks the upstream, as without Redis.
 */
import { createHash } from 'node:crypto';
import { KEY_PREFIX, type SharedState } from './redis.js';

/** Finalised objects never change; the expiry only lets Redis forget what nobody asked for in a day. */
export const IMMUTABLE_TTL_MS = 24 * 3600 * 1000;

const CACHE_PREFIX = `${KEY_PREFIX}cache:`;

export class RedisResponseCache {
  constructor(
    private readonly shared: SharedState,
    /** larger answers are not stored (the in-process tier's own bound) */
    private readonly maxEntryBytes: number,
  ) {}

  /** The stored text, or undefined on a miss or when Redis cannot answer. */
  async get(key: string): Promise<string | undefined> {
    const text = await this.shared.attempt('cache read', (redis) => redis.get(redisKey(key)), null);
    return text ?? undefined;
  }

  /** ttlMs undefined = immutable; ttlMs <= 0 = not stored. Does not wait for Redis. */
  set(key: string, text: string, ttlMs?: number): void {
    if (ttlMs !== undefined && ttlMs <= 0) return;
    if (Buffer.byteLength(text) > this.maxEntryBytes) return;
    void this.shared.attempt('cache write', (redis) => redis.set(redisKey(key), text, 'PX', ttlMs ?? IMMUTABLE_TTL_MS), null);
  }
}

/** Request keys hold whole query strings and bodies; a digest keeps Redis keys short and uniform. */
const redisKey = (key: string): string => CACHE_PREFIX + createHash('sha256').update(key, 'utf8').digest('hex');
