/**
 * Webhooks in Redis (REDIS_URL), shared by every replica: a hash per webhook (what its owner set, its revision,
 * its delivery state), the set of their ids, a capped list of each one's newest deliveries, and a channel on which
 * a replica says it changed one. Delivery state is written only while the writer holds the webhook's lease
 * (lease.ts) and the webhook is still at the revision it delivered: a replica that lost the lease, or an owner's
 * change since, wins over a late write.
 */
import { Redis } from 'ioredis';
import { KEY_PREFIX } from '../../shared-state/redis.js';
import type { DeliveryEntry, WebhookProgress, WebhookRecord } from './spec.js';
import type { Fence, WebhookStore } from './store.js';
import type { ChangeFeed } from './webhooks.js';

export const WEBHOOK_PREFIX = `${KEY_PREFIX}wh:`;

/** What Redis connections of webhooks are made with: no offline queue (a down Redis fails at once), short timeouts. */
export function webhookRedis(url: string, command = true): Redis {
  const r = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    ...(command ? { commandTimeout: 2_000 } : {}),
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  });
  // without a listener ioredis prints every connection error; callers see failures as rejected commands
  r.on('error', () => {});
  return r;
}

/** The state written as delivery goes, as one JSON member. */
type State = Omit<WebhookProgress, 'updatedAt'>;
/** What the owner set, as one JSON member. */
type Config = Pick<WebhookRecord, 'url' | 'secret' | 'filter' | 'createdAt'>;

// KEYS[1] the webhook, KEYS[2] its lease; ARGV[1] revision, ARGV[2] state, ARGV[3] updated at, ARGV[4] the lease holder ('' for no lease)
const PROGRESS = `
if redis.call('hget', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
if ARGV[4] ~= '' and redis.call('get', KEYS[2]) ~= ARGV[4] then return 0 end
redis.call('hset', KEYS[1], 'state', ARGV[2], 'updated_at', ARGV[3])
return 1
`;

type WithProgress = Redis & { tgwWebhookProgress(hook: string, lease: string, rev: string, state: string, at: string, holder: string): Promise<number> };

export class RedisStore implements WebhookStore {
  readonly description = 'redis';
  readonly shared = true;
  private readonly keys = {
    ids: `${WEBHOOK_PREFIX}ids`,
    hook: (id: string) => `${WEBHOOK_PREFIX}hook:${id}`,
    log: (id: string) => `${WEBHOOK_PREFIX}log:${id}`,
  };

  private constructor(private readonly redis: Redis) {
    redis.defineCommand('tgwWebhookProgress', { numberOfKeys: 2, lua: PROGRESS });
  }

  /** Connects; a Redis that cannot be reached yet is retried in the background, each call failing at once meanwhile. */
  static async open(url: string): Promise<RedisStore> {
    const redis = webhookRedis(url);
    await redis.connect().catch(() => {});
    return new RedisStore(redis);
  }

  async all(): Promise<WebhookRecord[]> {
    const ids = await this.redis.smembers(this.keys.ids);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.hook(id));
    const answers = (await pipeline.exec()) ?? [];
    return answers.flatMap(([err, hash], i) => {
      const rec = err ? undefined : recordOf(ids[i]!, hash as Record<string, string>);
      return rec ? [rec] : [];
    });
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    return recordOf(id, await this.redis.hgetall(this.keys.hook(id)));
  }

  async put(r: WebhookRecord): Promise<void> {
    const config: Config = { url: r.url, secret: r.secret, filter: r.filter, createdAt: r.createdAt };
    const state: State = { paused: r.paused, cursor: r.cursor, failedCursor: r.failedCursor, failedAttempts: r.failedAttempts, lastError: r.lastError };
    await this.redis
      .multi()
      .del(this.keys.hook(r.id))
      .hset(this.keys.hook(r.id), { owner: r.owner, rev: String(r.rev), config: JSON.stringify(config), state: JSON.stringify(state), updated_at: String(r.updatedAt) })
      .sadd(this.keys.ids, r.id)
      .exec();
  }

  async remove(id: string): Promise<void> {
    await this.redis.multi().del(this.keys.hook(id), this.keys.log(id)).srem(this.keys.ids, id).exec();
  }

  async progress(updates: readonly { id: string; rev: number; progress: WebhookProgress; fence?: Fence }[]): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const { id, rev, progress, fence } of updates) {
      const { updatedAt, ...state } = progress;
      (pipeline as unknown as WithProgress).tgwWebhookProgress(this.keys.hook(id), fence?.key ?? this.keys.hook(id), String(rev), JSON.stringify(state), String(updatedAt), fence?.holder ?? '');
    }
    const answers = (await pipeline.exec()) ?? [];
    const failed = answers.find(([err]) => err);
    if (failed) throw failed[0]!;
  }

  async logDeliveries(entries: readonly { id: string; entry: DeliveryEntry }[], keep: number): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const { id, entry } of entries) pipeline.lpush(this.keys.log(id), JSON.stringify(entry)).ltrim(this.keys.log(id), 0, keep - 1);
    await pipeline.exec();
  }

  async deliveries(id: string, limit: number): Promise<DeliveryEntry[]> {
    return (await this.redis.lrange(this.keys.log(id), 0, limit - 1)).map((s) => JSON.parse(s) as DeliveryEntry);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function recordOf(id: string, h: Record<string, string>): WebhookRecord | undefined {
  if (!h.config || !h.state || !h.rev) return undefined;
  const c = JSON.parse(h.config) as Config;
  const s = JSON.parse(h.state) as State;
  return {
    id,
    owner: h.owner ?? '',
    url: c.url,
    secret: c.secret,
    filter: c.filter,
    ...s,
    createdAt: c.createdAt,
    updatedAt: Number(h.updated_at ?? c.createdAt),
    rev: Number(h.rev),
  };
}

/** ms between full re-reads of every webhook, for changes whose message was missed. */
const RESYNC_MS = 30_000;

/** Replicas telling each other which webhook changed, over one channel; a full re-read after a lost connection and now and then. */
export class RedisChanges implements ChangeFeed {
  private readonly channel = `${WEBHOOK_PREFIX}changed`;
  private listener?: (id: string | undefined) => void;
  private readonly timer: NodeJS.Timeout;
  private dropped = false;

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
  ) {
    sub.on('message', (_channel: string, id: string) => this.listener?.(id));
    sub.on('close', () => (this.dropped = true));
    sub.on('ready', () => {
      if (!this.dropped) return;
      this.dropped = false;
      this.listener?.(undefined);
    });
    this.timer = setInterval(() => this.listener?.(undefined), RESYNC_MS);
    this.timer.unref();
  }

  static async open(url: string): Promise<RedisChanges> {
    const pub = webhookRedis(url);
    // a subscribed connection only listens, its subscription queued until it connects and renewed after a reconnect
    const sub = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, retryStrategy: (n: number) => Math.min(n * 100, 2_000) });
    sub.on('error', () => {});
    await Promise.all([pub.connect(), sub.connect()].map((p) => p.catch(() => {})));
    const changes = new RedisChanges(pub, sub);
    void sub.subscribe(changes.channel).catch(() => {});
    return changes;
  }

  async publish(id: string): Promise<void> {
    await this.pub.publish(this.channel, id);
  }

  onChange(listener: (id: string | undefined) => void): void {
    this.listener = listener;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.pub.quit().catch(() => this.pub.disconnect()), this.sub.quit().catch(() => this.sub.disconnect())]);
  }
}
