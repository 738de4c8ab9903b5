/**
 * API keys and rate limits as one onRequest stage for every surface under the given prefixes
 * (service-spec.md Authentication and Limits; v2.md §10.1): a key comes in `X-API-Key` or `api_key`;
 * unknown → 401, wrong network → 403, over its rate → 429; keyless clients are limited per IP.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeySpec, Network } from '../config.js';

export interface KeyOptions {
  apiKeys: ApiKeySpec[];
  network: Network;
  /** keyless requests per second per client IP; 0 = unlimited */
  keylessRps: number;
  prefixes: string[];
}

/** Token bucket: burst = rate, refilled continuously. */
interface Bucket {
  tokens: number;
  at: number;
}

/** Idle buckets are dropped past this many, so a flood of client IPs cannot grow memory without bound. */
const MAX_BUCKETS = 50_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Takes one token; returns 0 when allowed, else the seconds until a token is back. */
  take(id: string, rps: number, now = Date.now()): number {
    if (rps <= 0) return 0;
    let b = this.buckets.get(id);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.evict(now);
      b = { tokens: rps, at: now };
      this.buckets.set(id, b);
    }
    b.tokens = Math.min(rps, b.tokens + ((now - b.at) / 1000) * rps);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / rps));
  }

  private evict(now: number): void {
    for (const [id, b] of this.buckets) {
      if (now - b.at > 10_000) this.buckets.delete(id);
    }
    // still full: the oldest go first (Map keeps insertion order)
    for (const id of this.buckets.keys()) {
      if (this.buckets.size < MAX_BUCKETS) break;
      this.buckets.delete(id);
    }
  }
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Finds a key spec by comparing digests in constant time, so response timing says nothing about the keys. */
function keyFinder(specs: ApiKeySpec[]): (given: string) => ApiKeySpec | undefined {
  const known = specs.map((s) => ({ spec: s, d: digest(s.key) }));
  return (given) => {
    const d = digest(given);
    let found: ApiKeySpec | undefined;
    for (const k of known) if (timingSafeEqual(k.d, d)) found = k.spec;
    return found;
  };
}

/** Sends an auth error in the envelope of the surface the request was for. */
function reject(req: FastifyRequest, reply: FastifyReply, status: number, message: string, retryAfter?: number) {
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  const path = req.url.split('?')[0]!;
  if (path.startsWith('/graphql')) {
    return reply.code(status).send({ errors: [{ message, extensions: { code: status === 429 ? 'RATE_LIMITED' : 'UNAUTHENTICATED' } }] });
  }
  if (path.startsWith('/api/v3')) return reply.code(status).send({ code: status, error: message });
  const body: Record<string, unknown> = { ok: false, error: message, code: status };
  if (path === '/api/v2/jsonRPC') {
    const id = jsonRpcId(req.body);
    Object.assign(body, id === undefined ? { jsonrpc: '2.0' } : { jsonrpc: '2.0', id });
  }
  return reply.code(status).send(body);
}

/** The request's JSON-RPC id, so a rejected call can still be correlated by the client. */
function jsonRpcId(body: unknown): unknown {
  let v = body;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' && 'id' in v ? (v as { id: unknown }).id : undefined;
}

function keyOf(req: FastifyRequest): string | undefined {
  const h = req.headers['x-api-key'];
  if (typeof h === 'string' && h !== '') return h;
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.api_key;
  if (typeof v === 'string' && v !== '') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

export function registerAuth(app: FastifyInstance, opts: KeyOptions): void {
  const find = keyFinder(opts.apiKeys);
  const limiter = new RateLimiter();
  const guarded = (url: string) => opts.prefixes.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

  app.addHook('preHandler', async (req, reply) => {
    if (!guarded(req.url)) return;
    const key = keyOf(req);
    if (key !== undefined) {
      const spec = find(key);
      if (!spec) return reject(req, reply, 401, 'API key does not exist');
      if (!spec.networks.includes(opts.network)) return reject(req, reply, 403, 'Network not allowed');
      const wait = limiter.take(`key:${spec.key}`, spec.rps);
      if (wait > 0) return reject(req, reply, 429, 'Ratelimit exceeded', wait);
      return;
    }
    // the spec limits keyless clients on v2 only
    if (opts.keylessRps > 0 && req.url.startsWith('/api/v2')) {
      const wait = limiter.take(`ip:${req.ip}`, opts.keylessRps);
      if (wait > 0) return reject(req, reply, 429, 'Ratelimit exceeded', wait);
    }
  });
}
