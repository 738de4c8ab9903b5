/**
 * Which replica delivers which webhook, when replicas share Redis: webhooks fall into SHARDS shards by their id,
 * and each shard is delivered by the one replica holding its lease (a key with an expiry, renewed every third of
 * it). Each replica holds about its fair share (shards over live replicas, rounded up): it takes free shards up to
 * it and gives back what it holds beyond it, so a replica that joins gets work within a few renewals and one that
 * dies leaves its shards free within one expiry. A replica that cannot renew stops delivering them at once: two
 * replicas may both send an event around a handover (at least once), and the store refuses the delivery state of
 * one that no longer holds the lease.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { WEBHOOK_PREFIX, webhookRedis } from './store-redis.js';
import type { Fence } from './store.js';
import type { Delivering, WebhookLog } from './webhooks.js';

export const SHARDS = 64;

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

type WithScripts = Redis & {
  tgwLeaseRenew(key: string, holder: string, ttl: number): Promise<number>;
  tgwLeaseRelease(key: string, holder: string): Promise<number>;
};

/** The shard a webhook id falls in. */
export const shardOf = (id: string): number => createHash('sha1').update(id).digest().readUInt16BE(0) % SHARDS;

export interface LeaseOptions {
  url: string;
  /** ms a lease lasts unrenewed: a dead replica's webhooks are taken over within about this long */
  ttlMs?: number;
  replicaId?: string;
  log: WebhookLog;
}

export class ShardLeases implements Delivering {
  readonly replicaId: string;
  private readonly held = new Set<number>();
  private readonly ttlMs: number;
  private listener?: (gained: (id: string) => boolean, lost: (id: string) => boolean) => void;
  private timer?: NodeJS.Timeout;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly keys = {
    lease: (shard: number) => `${WEBHOOK_PREFIX}lease:${shard}`,
    replicas: `${WEBHOOK_PREFIX}replicas`,
  };

  private constructor(
    private readonly redis: WithScripts,
    private readonly opts: LeaseOptions,
  ) {
    this.replicaId = opts.replicaId ?? randomUUID();
    this.ttlMs = opts.ttlMs ?? 6_000;
    redis.defineCommand('tgwLeaseRenew', { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand('tgwLeaseRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  static async open(opts: LeaseOptions): Promise<ShardLeases> {
    const redis = webhookRedis(opts.url) as WithScripts;
    // without Redis no lease is taken, so nothing is delivered here until it answers
    await redis.connect().catch(() => {});
    return new ShardLeases(redis, opts);
  }

  holds(id: string): boolean {
    return this.held.has(shardOf(id));
  }

  fence(id: string): Fence | undefined {
    const shard = shardOf(id);
    return this.held.has(shard) ? { key: this.keys.lease(shard), holder: this.replicaId } : undefined;
  }

  /** Starts taking leases; `listener` hears of every shard taken or lost. */
  onChange(listener: (gained: (id: string) => boolean, lost: (id: string) => boolean) => void): void {
    this.listener = listener;
    this.ticking = this.tick();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    // given back at once, so another replica need not wait for them to expire
    const pipeline = this.redis.pipeline() as unknown as WithScripts & { exec(): Promise<unknown> };
    for (const shard of this.held) pipeline.tgwLeaseRelease(this.keys.lease(shard), this.replicaId);
    this.held.clear();
    await pipeline.exec().catch(() => {});
    await this.redis.zrem(this.keys.replicas, this.replicaId).catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, this.ttlMs / 3);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const gained = new Set<number>();
    const lost = new Set<number>();
    try {
      const now = Date.now();
      await this.redis.multi().zadd(this.keys.replicas, now + this.ttlMs * 2, this.replicaId).zremrangebyscore(this.keys.replicas, '-inf', now).exec();
      const replicas = Math.max(1, await this.redis.zcard(this.keys.replicas));
      const fair = Math.ceil(SHARDS / replicas);
      const mine = [...this.held];
      const renewed = await Promise.all(mine.map((s) => this.redis.tgwLeaseRenew(this.keys.lease(s), this.replicaId, this.ttlMs)));
      mine.forEach((s, i) => {
        if (renewed[i] === 1) return;
        this.held.delete(s);
        lost.add(s);
      });
      for (const s of [...this.held].slice(fair)) {
        await this.redis.tgwLeaseRelease(this.keys.lease(s), this.replicaId);
        this.held.delete(s);
        lost.add(s);
      }
      const free = shuffled(Array.from({ length: SHARDS }, (_, s) => s).filter((s) => !this.held.has(s) && !lost.has(s)));
      while (!this.stopped && this.held.size < fair && free.length > 0) {
        const batch = free.splice(0, fair - this.held.size);
        const taken = await Promise.all(batch.map((s) => this.redis.set(this.keys.lease(s), this.replicaId, 'PX', this.ttlMs, 'NX')));
        batch.forEach((s, i) => {
          if (taken[i] !== 'OK') return;
          this.held.add(s);
          gained.add(s);
        });
      }
    } catch (e) {
      // a lease that cannot be renewed may already be another's: stop delivering it rather than run beside it
      for (const s of this.held) lost.add(s);
      this.held.clear();
      this.opts.log.warn({ err: { message: (e as Error).message } }, 'webhooks: redis failed; this replica delivers no webhook until it answers again');
    }
    if (this.stopped) return;
    if (gained.size || lost.size) this.listener?.((id) => gained.has(shardOf(id)), (id) => lost.has(shardOf(id)));
    this.schedule();
  }
}

function shuffled<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
