/**
 * API keys and rate limits (service-spec.md "Authentication", "Limits"; v2.md §10.1), as one onRequest stage
 * shared by every surface whose path prefix is listed.
 *
 * Key from header `X-API-Key` or query `api_key`: unknown → 401, not allowed on this network → 403, over its rps
 * → 429. Keyless requests are limited per client IP. Limits are token buckets (burst = rps) kept in a bounded,
 * idle-evicting table, or with a SharedState (REDIS_URL) in Redis, shared by every replica (falling back to
 * the table while Redis cannot answer). Keys are compared by SHA-256 digest in constant time and never logged
 * or echoed; Redis sees only a digest.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeySpec, Network } from '../config.js';
import type { SharedState } from '../shared-state/redis.js';
import { RedisRateLimiter, type Limiter } from '../shared-state/rate-limit.js';

export interface AuthOptions {
  apiKeys: ApiKeySpec[];
  network: Network;
  /** keyless requests per second per client IP; 0 = unlimited */
  keylessRps: number;
  /** path prefixes the stage guards, e.g. /api/v2 */
  prefixes: string[];
  /** when present, buckets live in Redis, shared with the other replicas */
  shared?: SharedState;
}

/** Most client buckets kept at once; past it the least recently used are dropped (a dropped bucket is a full one). */
const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
  rate: number;
}

/** Token buckets keyed by string, refilled at `rate` per second up to `rate` tokens. */
export class RateLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(
    private readonly maxBuckets = MAX_BUCKETS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds until a token is back. */
  take(id: string, rate: number): number {
    const t = this.now();
    this.sweep(t);
    let b = this.buckets.get(id);
    if (b) {
      b.tokens = Math.min(rate, b.tokens + ((t - b.at) / 1000) * rate);
      b.at = t;
      b.rate = rate;
      this.buckets.delete(id); // re-inserted below so Map order stays least-recently-used first
    } else {
      b = { tokens: rate, at: t, rate };
    }
    this.buckets.set(id, b);
    if (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return (1 - b.tokens) / rate;
  }

  get size(): number {
    return this.buckets.size;
  }

  /** About once a second, drops buckets that have refilled completely: they are no different from new ones. */
  private sweep(t: number): void {
    if (t - this.lastSweep < 1000) return;
    this.lastSweep = t;
    for (const [id, b] of this.buckets) {
      if (b.tokens + ((t - b.at) / 1000) * b.rate >= b.rate) this.buckets.delete(id);
    }
  }
}

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** Finds a configured key without an early exit on the first differing byte or entry. */
function findKey(specs: { digest: Buffer; spec: ApiKeySpec }[], given: string): ApiKeySpec | undefined {
  const d = digest(given);
  let found: ApiKeySpec | undefined;
  for (const s of specs) {
    if (timingSafeEqual(s.digest, d)) found = s.spec;
  }
  return found;
}

function matchesPrefix(path: string, prefixes: string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(`${p}/`));
}

/** The pattern of the route the router matched, when it is under a guarded prefix. */
function guardedRoute(req: FastifyRequest, prefixes: string[]): string | undefined {
  const route = req.routeOptions.url;
  return route !== undefined && matchesPrefix(route, prefixes) ? route : undefined;
}

/** The key from the header first, then from the query; an empty value counts as no key. */
function keyOf(req: FastifyRequest, query: string | undefined): string | undefined {
  const h = req.headers['x-api-key'];
  const header = Array.isArray(h) ? h[0] : h;
  if (header) return header;
  // the parameter's name may be percent-encoded; without `%` it can only be spelled out
  if (!query || (!query.includes('api_key') && !query.includes('%'))) return undefined;
  // a query is decoded only when one of its names can spell the key's (a `%` in values, as in `0%3A…`, is common)
  if (!query.replace(/^\?/, '').split('&').some(namesKey)) return undefined;
  const q = new URLSearchParams(query).get('api_key');
  return q || undefined;
}

/** The API key a request carries (header first, then query), as this stage reads it. */
export function apiKeyOf(req: FastifyRequest): string | undefined {
  return keyOf(req, splitUrl(req.url)[1]);
}

/** Who a request counts against where limits are per client (subscriptions, emulations): its API key as a digest, never the key, else its IP. */
export function clientOf(req: FastifyRequest): string {
  const key = apiKeyOf(req);
  return key === undefined ? `ip:${req.ip}` : `key:${digest(key).subarray(0, 16).toString('hex')}`;
}

/** Whether one `name=value` part of a query is named api_key, spelled out or percent-encoded. */
function namesKey(part: string): boolean {
  const eq = part.indexOf('=');
  const name = eq < 0 ? part : part.slice(0, eq);
  return name === 'api_key' || (name.includes('%') && new URLSearchParams(name).has('api_key'));
}

/** The error in the envelope of the surface the request was for: v2 `{ok,error,code}`, v3 and webhooks `{code,error}`, GraphQL `errors`. */
function reject(reply: FastifyReply, path: string, status: number, error: string, retryAfter?: number) {
  if (retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  reply.code(status).header('content-type', 'application/json; charset=utf-8');
  if (path.startsWith('/api/v3') || path.startsWith('/api/webhooks')) return reply.send({ code: status, error });
  // Streaming API v2 answers `{error}` alone
  if (path.startsWith('/api/streaming')) return reply.send({ error });
  if (path.startsWith('/graphql')) {
    return reply.send({ errors: [{ message: error, extensions: { code: status === 429 ? 'RATE_LIMITED' : 'UNAUTHENTICATED' } }] });
  }
  return reply.send({ ok: false, error, code: status });
}

/** The limiter's verdict, now (in-process) or later (Redis): a 429 when there is a wait, else on to the next stage. */
function limitThen(wait: number | Promise<number>, reply: FastifyReply, path: string, done: (err?: Error) => void): void {
  const verdict = (w: number) => void (w > 0 ? reject(reply, path, 429, 'Ratelimit exceeded', w) : done());
  if (typeof wait === 'number') verdict(wait);
  else wait.then(verdict, done);
}

/** Why a key was refused: the status and message an HTTP request would get, and when to retry after a 429. */
export interface KeyRefusal {
  status: number;
  error: string;
  retryAfter?: number;
}

/**
 * Registers the stage; returns the same check for a key used outside an HTTP request (each operation over a
 * WebSocket): it takes one token of the key's rate limit and resolves to undefined when allowed.
 */
export function registerAuth(app: FastifyInstance, opts: AuthOptions): (key: string) => Promise<KeyRefusal | undefined> {
  const keys = opts.apiKeys.map((spec) => ({ digest: digest(spec.key), spec }));
  // separate tables, so a flood of keyless IPs cannot evict (refill) the keys' buckets
  const shareable = (local: RateLimiter): Limiter => (opts.shared ? new RedisRateLimiter(opts.shared, local) : local);
  const keyLimits = shareable(new RateLimiter());
  const ipLimits = shareable(new RateLimiter());
  // buckets are addressed by a digest of the key, so the key itself is never a map key, in memory twice or in
  // Redis; the same key gets the same bucket on every replica whatever the order of API_KEYS
  const slot = new Map(keys.map(({ digest: d, spec }) => [spec, `key:${d.subarray(0, 16).toString('hex')}`]));

  // callback style: most requests carry no key and meet no limit, and pay no promise for it
  app.addHook('onRequest', (req, reply, done) => {
    const [url, query] = splitUrl(req.url);
    // the path is normalised before routing, so the matched route agrees with it; asked only off the guarded prefixes
    const path = matchesPrefix(url, opts.prefixes) ? url : guardedRoute(req, opts.prefixes);
    if (path === undefined) return done();
    const given = keyOf(req, query);
    if (given !== undefined) {
      const spec = findKey(keys, given);
      if (!spec) return void reject(reply, path, 401, 'API key does not exist');
      if (!spec.networks.includes(opts.network)) return void reject(reply, path, 403, 'Network not allowed');
      if (spec.rps > 0) return limitThen(keyLimits.take(slot.get(spec)!, spec.rps), reply, path, done);
      return done();
    }
    // the spec limits keyless clients on v2 only
    if (opts.keylessRps > 0 && matchesPrefix(path, ['/api/v2'])) return limitThen(ipLimits.take(`ip:${req.ip}`, opts.keylessRps), reply, path, done);
    done();
  });

  return async (given) => {
    const spec = findKey(keys, given);
    if (!spec) return { status: 401, error: 'API key does not exist' };
    if (!spec.networks.includes(opts.network)) return { status: 403, error: 'Network not allowed' };
    const wait = spec.rps > 0 ? await keyLimits.take(slot.get(spec)!, spec.rps) : 0;
    return wait > 0 ? { status: 429, error: 'Ratelimit exceeded', retryAfter: Math.max(1, Math.ceil(wait)) } : undefined;
  };
}

function splitUrl(url: string): [string, string | undefined] {
  const i = url.indexOf('?');
  return i < 0 ? [url, undefined] : [url.slice(0, i), url.slice(i + 1)];
}
