/**
 * The HTTP side of upstream mode: one keep-alive undici Pool per upstream origin, the pacer, retries,
 * timeouts, the error mapping, the cache and single-flight. The v2/v3 adapters describe requests; this turns
 * them into calls and answers into values or ApiErrors with the statuses toncenter users expect.
 */
import { Pool, type Dispatcher } from 'undici';
import { ApiError } from '../api/errors.js';
import type { UpstreamConfig } from './options.js';
import { ResponseCache, SingleFlight } from './cache.js';
import { discard, MAX_JSON_DEPTH, nestsDeeperThan, ReadBudget, readCapped } from './bounds.js';
import { beforeDeadline, currentLedger, Tally, type Budget, type BudgetSource } from './ledger.js';
import { Pacer } from './pacer.js';
import { SharedJson } from './shared-json.js';
import { upstreamCache, upstreamRequests } from '../observe/metrics.js';
import { RedisResponseCache } from '../shared-state/cache.js';
import type { SharedState } from '../shared-state/redis.js';

export type ApiName = 'v2' | 'v3';

export interface UpstreamRequest {
  api: ApiName;
  method: 'GET' | 'POST';
  /** endpoint path under /api/v2 or /api/v3, e.g. '/getAddressInformation' */
  path: string;
  query?: [string, string][];
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** safe to repeat after a lost connection or a 5xx (reads); sends are not */
  idempotent: boolean;
  /**
   * Passthrough (the Emulate API): `path` is taken under /api on the API's base instead of /api/<api>, and any
   * JSON answer, error or not, is the value as `{ status, text }`, unparsed for the caller to send on.
   */
  raw?: boolean;
}

/** How an answer may be reused: forever (finalised data), for the account TTL, or not at all. */
export type CachePolicy =
  | { kind: 'none' }
  | { kind: 'immutable'; keep?: (value: unknown) => boolean }
  | { kind: 'ttl' };

/** The configured upstream, plus tuning the tests adjust. */
export interface ClientOptions extends UpstreamConfig {
  /** most callers waiting for a pacing slot; default 30 s worth at `rps` (at least 16) */
  maxQueue?: number;
  /** retries after a 429 (default 3) and after a lost connection or 5xx on reads (default 2) */
  maxRateLimitRetries?: number;
  maxRetries?: number;
  /** a Retry-After longer than this is not waited for: the 429 goes to the caller (default 20 s) */
  maxRetryAfterMs?: number;
  /** first backoff step in ms (default 250; doubles per retry, full jitter) */
  backoffMs?: number;
  /** Redis (REDIS_URL): a second cache tier shared with the other replicas */
  shared?: SharedState;
}

export interface UpstreamStats {
  /** requests put on the wire, retries included */
  sent: number;
  /** answers from either cache tier */
  cacheHits: number;
  /** of those, answers found in Redis (stored by this or another replica) */
  sharedCacheHits: number;
  /** performance.now() of the last answer that was a proper API answer */
  lastOkAt: number;
  /** the last transport failure (refused, reset, timeout), '' when the last exchange went through */
  lastFailure: string;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** Codes proving the request never reached the upstream, so even a send may be repeated. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const errCode = (e: unknown): string => {
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  return String(err?.code ?? err?.cause?.code ?? '');
};

/** Seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** One attempt's outcome, before the retry policy looks at it. */
type Attempt =
  | { kind: 'ok'; value: unknown }
  | { kind: 'api-error'; status: number; message: string; retryAfter?: number }
  | { kind: 'not-api'; status: number; message: string; retryAfter?: number }
  | { kind: 'transport'; code: string; message: string; notSent: boolean }
  /** an answer past a bound (size, depth) or a redirect: never used, never repeated */
  | { kind: 'refused'; message: string }
  | { kind: 'timeout' };

/** A bounded label for one attempt's outcome. */
function outcomeOf(a: Attempt): string {
  if (a.kind === 'ok' || a.kind === 'timeout' || a.kind === 'transport' || a.kind === 'refused') return a.kind;
  return a.status === 429 ? 'rate_limited' : a.kind === 'api-error' ? 'api_error' : 'http_error';
}

type Decoded = Extract<Attempt, { kind: 'ok' | 'api-error' | 'not-api' }>;

interface Base {
  pool: Pool;
  prefix: string;
  label: string;
}

export class UpstreamClient implements BudgetSource {
  readonly stats: UpstreamStats = { sent: 0, cacheHits: 0, sharedCacheHits: 0, lastOkAt: -Infinity, lastFailure: '' };
  private readonly pools = new Map<string, Pool>();
  private readonly bases: Record<ApiName, Base>;
  private readonly pacer: Pacer;
  private readonly cache: ResponseCache | undefined;
  private readonly sharedCache: RedisResponseCache | undefined;
  private readonly flights = new SingleFlight<{ answer: SharedJson; shared: boolean }>();
  /** what each call in flight has cost so far, for every request waiting on it (ledger.ts) */
  private readonly flightTallies = new Map<string, Tally>();
  private readonly o: Required<Omit<ClientOptions, 'shared'>>;
  /** every answer being read shares this: two of the largest fit, more cannot pile up */
  private readonly reading: ReadBudget;

  constructor({ shared, ...opts }: ClientOptions) {
    this.o = {
      maxQueue: Math.max(16, Math.ceil(opts.rps * 30)),
      maxRateLimitRetries: 3,
      maxRetries: 2,
      maxRetryAfterMs: 20_000,
      backoffMs: 250,
      ...opts,
    };
    if (opts.rps === 0 && opts.maxQueue === undefined) this.o.maxQueue = 1000;
    this.bases = { v2: this.base(opts.v2Url, 'v2'), v3: this.base(opts.v3Url, 'v3') };
    this.pacer = new Pacer({ rps: opts.rps, maxQueue: this.o.maxQueue });
    this.reading = new ReadBudget(2 * opts.maxBytes);
    this.cache = opts.cacheMb > 0 ? new ResponseCache(opts.cacheMb * 1024 * 1024) : undefined;
    this.sharedCache = shared && this.cache ? new RedisResponseCache(shared, opts.cacheMb * 1024 * 1024) : undefined;
  }

  /**
   * The decoded answer (v2: the envelope's `result`; v3: the body), from the cache when the policy allows.
   * `check` vets a freshly decoded answer (its shape) before anyone gets it or the cache keeps it; a cached
   * entry passed it when it was stored. Idempotent calls share one decoded answer among everyone who asked for
   * it (single-flight waiters, cache hits) and give each a view of it (see shared-json.ts): a deep copy made
   * only when its caller looks inside, with the answer's JSON text for a surface that just sends it on.
   */
  async call(req: UpstreamRequest, policy: CachePolicy = { kind: 'none' }, check?: (value: unknown) => void): Promise<unknown> {
    const ledger = currentLedger();
    if (!req.idempotent) {
      // one caller, one answer: nothing to share; a send is never given up on at a deadline
      const tally = new Tally();
      try {
        const value = await this.fetch(req, tally);
        check?.(value);
        return value;
      } finally {
        ledger?.add(this, tally);
      }
    }
    const key = requestKey(req);
    const cacheable = policy.kind !== 'none' && this.cache !== undefined;
    const cached = cacheable ? this.cache!.get(key) : undefined;
    if (cached !== undefined) {
      this.hit(req.api);
      ledger?.hit(this);
      return cached.view();
    }
    // a caller joining a call in flight shares its tally: the calls it waits on are its cost too
    const tally = this.flightTallies.get(key) ?? new Tally();
    // the Redis lookup is inside the flight too: identical concurrent misses cost one GET and at most one call
    const flight = this.flights.run(key, async () => {
      this.flightTallies.set(key, tally);
      try {
        return await this.fly(req, key, policy, cacheable, tally, check);
      } finally {
        this.flightTallies.delete(key);
      }
    });
    let answer: SharedJson;
    let shared: boolean;
    try {
      // past the request's deadline the caller stops waiting; the call goes on into the cache
      ({ answer, shared } = await beforeDeadline(ledger, flight));
    } catch (e) {
      if (cacheable) upstreamCache.inc({ api: req.api, result: 'miss' });
      ledger?.add(this, tally);
      throw e;
    }
    if (cacheable) {
      if (shared) {
        this.stats.sharedCacheHits++;
        this.hit(req.api);
      } else {
        upstreamCache.inc({ api: req.api, result: 'miss' });
      }
    }
    if (shared) ledger?.hit(this);
    else ledger?.add(this, tally);
    // every waiter gets its own view, so no caller can change what another one sees
    return answer.view();
  }

  /** One flight: the shared tier, else the upstream, and the answer stored as the policy says. */
  private async fly(
    req: UpstreamRequest,
    key: string,
    policy: CachePolicy,
    cacheable: boolean,
    tally: Tally,
    check?: (value: unknown) => void,
  ): Promise<{ answer: SharedJson; shared: boolean }> {
    if (cacheable && this.sharedCache) {
      const remote = await this.sharedCache.get(key);
      if (remote !== undefined) {
        // decoded and re-encoded, so what is sent is JSON.stringify's text whoever wrote the entry
        const value: unknown = JSON.parse(remote);
        check?.(value);
        const answer = SharedJson.ofValue(value);
        // a TTL entry stays only in Redis: copied here it could outlive its TTL
        if (policy.kind === 'immutable') {
          this.cache!.set(key, answer.json);
          answer.cacheKey = key;
        }
        return { answer, shared: true };
      }
    }
    const value = await this.fetch(req, tally);
    check?.(value);
    const answer = SharedJson.ofValue(value);
    // serialised only to be stored: with a TTL of 0 (or no cache) nothing is kept
    if (policy.kind === 'ttl') {
      if (this.cache && this.o.accountTtlMs > 0) this.store(key, answer, this.o.accountTtlMs);
    } else if (policy.kind === 'immutable' && this.cache && (policy.keep?.(value) ?? true)) {
      this.store(key, answer);
    }
    return { answer, shared: false };
  }

  /** The pace this client keeps, and what is left of it within the next second. */
  budget(): Budget {
    return { rps: this.o.rps, remaining: this.pacer.remaining() };
  }

  private hit(api: ApiName): void {
    this.stats.cacheHits++;
    upstreamCache.inc({ api, result: 'hit' });
  }

  /** Into both tiers; ttlMs undefined = immutable. */
  private store(key: string, answer: SharedJson, ttlMs?: number): void {
    this.cache?.set(key, answer.json, ttlMs);
    this.sharedCache?.set(key, answer.json, ttlMs);
    answer.cacheKey = key;
  }

  /** An answer the in-process cache still holds under a request alias (answers.ts); counted as a hit. */
  cachedByAlias(api: ApiName, alias: string): SharedJson | undefined {
    const answer = this.cache?.getByAlias(alias);
    if (answer) {
      this.hit(api);
      currentLedger()?.hit(this);
    }
    return answer;
  }

  /** Lets `alias` find the cache entry stored under `key`, while it is stored. */
  alias(alias: string, key: string): void {
    this.cache?.alias(alias, key);
  }

  /** callers waiting for a pacing slot, for the queue-depth gauge */
  get queued(): number {
    return this.pacer.queued;
  }

  async close(): Promise<void> {
    this.pacer.close();
    this.cache?.clear();
    await Promise.all([...this.pools.values()].map((p) => p.destroy()));
  }

  private base(url: string, label: string): Base {
    const u = new URL(url);
    let pool = this.pools.get(u.origin);
    if (!pool) {
      // keep-alive shorter than typical server idle timeouts, so a reused socket is rarely one the server just closed
      pool = new Pool(u.origin, { connections: 32, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000 });
      this.pools.set(u.origin, pool);
    }
    return { pool, prefix: u.pathname.replace(/\/+$/, ''), label };
  }

  /** Attempts with the retry policy; always ends in a value or an ApiError. */
  private async fetch(req: UpstreamRequest, tally: Tally): Promise<unknown> {
    let rateLimited = 0;
    let failed = 0;
    const route = `/api/${req.api}${req.path}`;
    for (;;) {
      const queuedAt = performance.now();
      await this.pacer.acquire();
      tally.waitedMs += performance.now() - queuedAt;
      tally.call(route);
      const a = await this.attempt(req);
      upstreamRequests.inc({ api: req.api, method: req.path, outcome: outcomeOf(a) });
      if (a.kind === 'ok') return a.value;
      // the same request would get the same answer: asking again only spends the budget and the memory again
      if (a.kind === 'refused') throw new ApiError(502, a.message);

      if (a.kind === 'timeout') {
        // a read that timed out is not repeated: the caller already waited the whole timeout
        throw req.api === 'v2'
          ? new ApiError(504, 'LITE_SERVER_NETWORK timeout')
          : new ApiError(504, `upstream timeout: no answer within ${this.o.timeoutMs} ms`);
      }

      if (a.kind !== 'transport' && a.status === 429) {
        const wait = a.retryAfter ?? this.backoff(rateLimited);
        if (rateLimited < this.o.maxRateLimitRetries && wait <= this.o.maxRetryAfterMs) {
          rateLimited++;
          // everyone waits: the limit is the key's, not this request's
          this.pacer.pause(wait);
          continue;
        }
        throw new ApiError(429, a.kind === 'api-error' ? a.message : 'upstream rate limit exceeded; retry later');
      }

      if (a.kind === 'transport') {
        if ((req.idempotent || a.notSent) && failed < this.o.maxRetries) {
          await sleep(this.backoff(failed++));
          continue;
        }
        throw new ApiError(502, a.message);
      }

      // an API error below 500, or a 500 the API itself produced (a tonlib error), is the answer: no retry
      const transient = a.status >= 500 && (a.kind === 'not-api' || a.status === 502 || a.status === 503 || a.status === 504);
      if (transient && req.idempotent && failed < this.o.maxRetries) {
        await sleep(this.backoff(failed++));
        continue;
      }
      if (a.kind === 'api-error') throw new ApiError(a.status, a.message);
      throw new ApiError(a.status >= 500 ? 502 : a.status, a.message);
    }
  }

  /** Full jitter over an exponential step: spreads retries of many clients apart. */
  private backoff(n: number): number {
    return Math.round(Math.random() * this.o.backoffMs * 2 ** n);
  }

  private async attempt(req: UpstreamRequest): Promise<Attempt> {
    const base = this.bases[req.api];
    const qs = req.query?.length ? `?${new URLSearchParams(req.query).toString()}` : '';
    const path = `${base.prefix}/api${req.raw ? '' : `/${req.api}`}${req.path}${qs}`;
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    if (this.o.apiKey) headers['x-api-key'] = this.o.apiKey;
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json';
    }

    // one deadline for the whole exchange: headers and every byte of the body
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, this.o.timeoutMs);
    this.stats.sent++;
    let res: Dispatcher.ResponseData;
    let text: string;
    try {
      res = await base.pool.request({ path, method: req.method, headers, body, signal: ac.signal });
      const declared = res.headers['content-length'] === undefined ? undefined : Number(res.headers['content-length']);
      const refused = this.refusal(res.statusCode, res.headers.location, declared, base.label);
      if (refused) {
        discard(res.body);
        return this.refuse(refused);
      }
      const read = await readCapped(res.body, this.o.maxBytes, this.reading);
      if ('refused' in read) {
        return this.refuse(
          read.refused === 'size'
            ? `${base.label} upstream answer too large: more than the limit of ${this.o.maxBytes} bytes (UPSTREAM_MAX_BYTES)`
            : `${base.label} upstream answers being read at once passed the limit of ${this.reading.limit} bytes (twice UPSTREAM_MAX_BYTES)`,
        );
      }
      text = read.text;
    } catch (e) {
      if (timedOut) {
        this.stats.lastFailure = `${base.label} upstream timed out`;
        return { kind: 'timeout' };
      }
      const code = errCode(e);
      const what =
        code === 'ECONNREFUSED'
          ? 'connection refused'
          : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED' || code === 'EPIPE'
            ? 'connection closed before a complete answer'
            : code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
              ? 'answer truncated'
              : (e as Error).message || code || 'request failed';
      const message = `${base.label} upstream unreachable: ${what}${code && !what.includes(code) ? ` (${code})` : ''}`;
      this.stats.lastFailure = message;
      if (!CONNECTION_CODES.has(code)) return { kind: 'transport', code, message, notSent: false };
      return { kind: 'transport', code, message, notSent: NOT_SENT_CODES.has(code) };
    } finally {
      clearTimeout(timer);
    }

    const status = res.statusCode;
    const retryAfter = retryAfterMs(res.headers['retry-after']);
    // checked before parsing: what is parsed is walked recursively later (serialised, copied, shape-checked)
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return this.refuse(`${base.label} upstream answer nested deeper than the limit of ${MAX_JSON_DEPTH} levels`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (status >= 400) {
        const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 120);
        return { kind: 'not-api', status, message: `${base.label} upstream answered HTTP ${status}${snippet ? `: ${snippet}` : ''}`, retryAfter };
      }
      this.stats.lastFailure = `${base.label} upstream answered with a body that is not JSON`;
      return { kind: 'not-api', status: 502, message: `${base.label} upstream answered HTTP ${status} with a body that is not JSON` };
    }
    this.stats.lastFailure = '';
    if (req.raw && status !== 429 && status < 502) {
      this.stats.lastOkAt = performance.now();
      return { kind: 'ok', value: { status, text } };
    }
    const decoded = req.api === 'v2' ? decodeV2(status, json) : decodeV3(status, json);
    if (decoded.kind === 'ok' || decoded.kind === 'api-error') this.stats.lastOkAt = performance.now();
    if (decoded.kind !== 'ok') return { ...decoded, retryAfter };
    return decoded;
  }

  /** What is wrong with an answer before its body is read: a redirect (never followed), or a declared length past the limit. */
  private refusal(status: number, location: string | string[] | undefined, declared: number | undefined, label: string): string | undefined {
    if (status >= 300 && status < 400) {
      const to = typeof location === 'string' && location !== '' ? ` to ${location.slice(0, 200)}` : '';
      return `${label} upstream answered HTTP ${status}, a redirect${to}; redirects are not followed`;
    }
    if (declared !== undefined && declared > this.o.maxBytes) {
      return `${label} upstream answer too large: ${declared} bytes declared, over the limit of ${this.o.maxBytes} bytes (UPSTREAM_MAX_BYTES)`;
    }
    return undefined;
  }

  private refuse(message: string): Attempt {
    this.stats.lastFailure = message;
    return { kind: 'refused', message };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** v2 envelope: `{ok:true,result}` or `{ok:false,error,code}` (429 is sometimes `{ok:false,result:"Ratelimit exceed"}`). */
function decodeV2(status: number, json: unknown): Decoded {
  if (isObject(json)) {
    if (status >= 200 && status < 300 && json.ok === true && 'result' in json) return { kind: 'ok', value: json.result };
    const message = typeof json.error === 'string' ? json.error : typeof json.result === 'string' ? json.result : undefined;
    if (json.ok === false && message !== undefined) {
      const code = typeof json.code === 'number' && json.code >= 400 ? json.code : status;
      return { kind: 'api-error', status: status >= 400 ? status : code, message };
    }
  }
  return { kind: 'not-api', status: status >= 400 ? status : 502, message: `v2 upstream answered HTTP ${status} without a v2 envelope` };
}

/** v3: the body itself on 2xx, `{error}` (with or without `code`) otherwise. */
function decodeV3(status: number, json: unknown): Decoded {
  if (status >= 200 && status < 300) return { kind: 'ok', value: json };
  if (isObject(json) && typeof json.error === 'string') return { kind: 'api-error', status, message: json.error };
  return { kind: 'not-api', status, message: `v3 upstream answered HTTP ${status} without an error message` };
}

/** Same request, same key: method, path, query (in order: list order can change an answer), body, headers. */
function requestKey(req: UpstreamRequest): string {
  const h = Object.entries(req.headers ?? {}).sort();
  return JSON.stringify([req.api, req.method, req.path, req.query ?? [], req.body ?? null, h]);
}
