/**
 * The headers toncenter's v3 server appends to every answer under /api/v3/ once its handler ran, errors and the
 * document routes included (toncenter-newer.md §1): `Server-timing: app;dur=<Go duration>` and `X-API-Version`,
 * the indexer schema version (configured here, V3_API_VERSION). One stage for the whole prefix, so no route can
 * miss them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const V3_PATH = /^\/api\/v3(\/|\?|$)/;

/** Go's time.Duration.String() of `ns` nanoseconds: `812.3µs`, `1.204511ms`, `2.5s`, `1m0.25s`, `0s`. */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const abs = ns < 0n ? -ns : ns;
  if (abs < 1_000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${decimal(abs, 3)}µs`;
  if (abs < 1_000_000_000n) return `${sign}${decimal(abs, 6)}ms`;
  const hours = abs / 3_600_000_000_000n;
  const minutes = (abs / 60_000_000_000n) % 60n;
  const seconds = `${decimal(abs % 60_000_000_000n, 9)}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** `v` scaled down by 10^digits, with trailing zeros of the fraction (and a bare point) dropped, as Go prints it. */
function decimal(v: bigint, digits: number): string {
  const unit = 10n ** BigInt(digits);
  const frac = (v % unit).toString().padStart(digits, '0').replace(/0+$/, '');
  return frac ? `${v / unit}.${frac}` : `${v / unit}`;
}

const started = new WeakMap<FastifyRequest, bigint>();

/**
 * Sets `Server-timing: app;dur=<Go duration since start>` with the bytes Go writes (`µ` as UTF-8, C2 B5) and returns
 * the payload to send. Node writes a header in latin1, unless it joins it to a string body, which it writes as
 * UTF-8: a string body is handed on as bytes, so the header always travels alone, as the latin1 spelling of its UTF-8.
 */
export function stampServerTiming(reply: FastifyReply, start: bigint, payload: unknown): unknown {
  reply.header('Server-timing', Buffer.from(`app;dur=${goDuration(process.hrtime.bigint() - start)}`, 'utf8').toString('latin1'));
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
}

/** Times every /api/v3 request from its arrival and stamps both headers on whatever answers it. */
export function registerV3Headers(app: FastifyInstance, opts: { apiVersion: string }): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (V3_PATH.test(req.url)) started.set(req, process.hrtime.bigint());
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const start = started.get(req);
    if (start === undefined) return done(null, payload);
    reply.header('X-API-Version', opts.apiVersion);
    done(null, stampServerTiming(reply, start, payload));
  });
}
