/**
 * Webhooks started over a running live hub, kept where the deployment keeps things: in Redis when replicas share
 * one (each webhook delivered by one replica under a lease), else in SQLite under the data directory, else in
 * memory (said at start).
 */
import type { LiveHub } from '../hub.js';
import { ShardLeases } from './lease.js';
import type { WebhookLimits } from './spec.js';
import { MemoryStore } from './store.js';
import { RedisChanges, RedisStore } from './store-redis.js';
import { SqliteStore } from './store-sqlite.js';
import { Webhooks, type WebhookLog } from './webhooks.js';

export interface WebhookSettings {
  hub: LiveHub;
  limits: WebhookLimits;
  allowPrivate: boolean;
  keyless: boolean;
  /** REDIS_URL: kept in Redis and delivered by one replica each */
  redisUrl?: string;
  /** keep them in DIR/webhooks.db (without Redis) */
  dataDir?: string;
  /** ms a replica's leases last unrenewed (tests shorten it) */
  leaseTtlMs?: number;
  log: WebhookLog;
}

export async function startWebhooks(s: WebhookSettings): Promise<Webhooks> {
  const { dataDir, redisUrl, leaseTtlMs, ...common } = s;
  if (!redisUrl) return Webhooks.start({ ...common, store: dataDir ? new SqliteStore(dataDir) : new MemoryStore() });
  const [store, changes, delivering] = await Promise.all([
    RedisStore.open(redisUrl),
    RedisChanges.open(redisUrl),
    ShardLeases.open({ url: redisUrl, log: s.log, ...(leaseTtlMs ? { ttlMs: leaseTtlMs } : {}) }),
  ]);
  return Webhooks.start({ ...common, store, changes, delivering });
}
