/**
 * One POST of one event to a receiver, and what its answer means:
 *
 * - 2xx: delivered.
 * - 408, 429, 5xx, a timeout or a network error: worth retrying; a `Retry-After` (seconds or an HTTP date) on the
 *   answer is how long to wait.
 * - any other answer (3xx, which is never followed, and 4xx): the receiver refuses the event, and trying it again
 *   cannot change that; so does a target that resolves to a private address where those are refused.
 *
 * The answer is read up to MAX_RESPONSE_BYTES and the rest discarded; the whole attempt, answer included, has
 * `timeoutMs`.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { MAX_RESPONSE_BYTES, RESPONSE_SNIPPET } from './spec.js';
import { literalPrivate, publicOnlyLookup } from './target.js';

export interface Attempt {
  verdict: 'delivered' | 'retry' | 'refused';
  status: number | null;
  latencyMs: number;
  /** one line: what went wrong */
  error?: string;
  /** the first bytes of the answer */
  response?: string;
  /** what the answer's Retry-After asks for, in ms */
  retryAfterMs?: number;
}

/** The connection pool deliveries go through: keep-alive per origin, private addresses refused at connect when asked. */
export function deliveryAgent(opts: { allowPrivate: boolean; perOrigin: number; timeoutMs: number }): Agent {
  return new Agent({
    connections: opts.perOrigin,
    keepAliveTimeout: 4_000,
    connect: { timeout: opts.timeoutMs, ...(opts.allowPrivate ? {} : { lookup: publicOnlyLookup }) },
  });
}

/** A Retry-After value in ms: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const RETRIED = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** Reads up to MAX_RESPONSE_BYTES of an answer; the rest is not waited for. */
async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = chunk as Buffer;
    parts.push(b);
    size += b.length;
    if (size >= MAX_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(parts).subarray(0, RESPONSE_SNIPPET).toString('utf8');
}

const messageOf = (e: unknown): string => {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = err.cause?.code === 'ETARGETPRIVATE' ? err.cause : err;
  const code = inner.code ? `${inner.code}: ` : '';
  return `${code}${inner.message ?? String(e)}`.slice(0, 300);
};

export async function postEvent(
  dispatcher: Dispatcher,
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<Attempt> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const target = new URL(url);
  if (!opts.allowPrivate && literalPrivate(target)) {
    return { verdict: 'refused', status: null, latencyMs: 0, error: `target ${target.hostname} is a private address` };
  }
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await request(target, {
      method: 'POST',
      dispatcher,
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'ton-graphql-gateway-webhooks/1', ...headers },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      signal,
    });
    const status = res.statusCode;
    // the status is the answer: a body that then stalls or breaks changes nothing of it
    const response = await readCapped(res.body).catch(() => undefined);
    const base = { status, latencyMs: latency(), ...(response ? { response } : {}) };
    if (status >= 200 && status < 300) return { verdict: 'delivered', ...base };
    if (RETRIED(status)) {
      const wait = retryAfterMs(res.headers['retry-after']);
      return { verdict: 'retry', ...base, error: `receiver answered ${status}`, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
    }
    const location = status >= 300 && status < 400 ? res.headers.location : undefined;
    return { verdict: 'refused', ...base, error: location ? `receiver answered ${status} to ${String(location)} (redirects are not followed)` : `receiver answered ${status}` };
  } catch (e) {
    if (signal.aborted) return { verdict: 'retry', status: null, latencyMs: latency(), error: `timed out after ${opts.timeoutMs} ms` };
    const message = messageOf(e);
    const refused = (e as { code?: string; cause?: { code?: string } }).code === 'ETARGETPRIVATE' || (e as { cause?: { code?: string } }).cause?.code === 'ETARGETPRIVATE';
    return { verdict: refused ? 'refused' : 'retry', status: null, latencyMs: latency(), error: message };
  }
}
