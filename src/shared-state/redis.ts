/**
 * The one Redis connection replicas share rate limits and cached upstream answers through (REDIS_URL).
 *
 * Redis is an optimisation, never a dependency: commands are not queued while the connection is down
 * (they fail at once and callers fall back to in-process state), each has a short timeout, and the client
 * keeps reconnecting in the background with a bounded delay. The first failure after a healthy period is
 * logged once, and the recovery once.
 */
import { Redis } from 'ioredis';

/** What the limiter and the cache need from a logger (pino's shape). */
export interface SharedStateLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const SILENT: SharedStateLog = { warn() {}, info() {} };

/** Every key this gateway writes starts with this, so a Redis shared with other software stays readable. */
export const KEY_PREFIX = 'tgw:';

/** A reply slower than this counts as a failure: a stalled Redis must not stall requests. */
const COMMAND_TIMEOUT_MS = 500;
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect delay: 100 ms, 200 ms, ... up to 2 s, forever. */
const MAX_RECONNECT_DELAY_MS = 2_000;

export class SharedState {
  readonly redis: Redis;
  /** replaced by the server's logger once it exists */
  log: SharedStateLog = SILENT;
  private failing = false;
  private closed = false;

  constructor(url: string) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    });
    // without a listener ioredis prints every connection error to stderr
    this.redis.on('error', (e: Error) => this.failed('connection', e));
    this.redis.on('ready', () => this.succeeded());
  }

  /** Starts connecting; an unreachable Redis is logged, not thrown: the gateway serves from process state meanwhile. */
  async connect(): Promise<void> {
    try {
      await this.redis.connect();
    } catch (e) {
      this.failed('connect', e as Error);
    }
  }

  /** True while commands can be sent; when false callers skip Redis instead of waiting for an error. */
  get ready(): boolean {
    return !this.closed && this.redis.status === 'ready';
  }

  /** Runs `fn` against Redis; any failure (down, timeout, error reply) gives `fallback`, logged once per outage. */
  async attempt<T>(what: string, fn: (redis: Redis) => Promise<T>, fallback: T): Promise<T> {
    if (!this.ready) return fallback;
    try {
      const value = await fn(this.redis);
      this.succeeded();
      return value;
    } catch (e) {
      this.failed(what, e as Error);
      return fallback;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.redis.quit();
    } catch {
      // not connected: nothing to say goodbye to
      this.redis.disconnect();
    }
  }

  private failed(what: string, e: Error): void {
    if (this.failing || this.closed) return;
    this.failing = true;
    this.log.warn({ err: { message: e.message } }, `redis ${what} failed; using in-process rate limits and cache until it is back`);
  }

  private succeeded(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info({}, 'redis is back; rate limits and cache are shared again');
  }
}

/** The shared state for REDIS_URL, not yet connected (call connect() once a logger is attached); undefined without one. */
export function sharedStateFor(redisUrl: string | undefined): SharedState | undefined {
  return redisUrl ? new SharedState(redisUrl) : undefined;
}
