/** One HTTP server: /health, /metrics, /graphql, the v2 REST + JSON-RPC and v3 routes, and the local chain's control routes. */
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Config } from './config.js';
import type { Served } from './api/source.js';
import { registerAuth } from './pipeline/auth.js';
import { registerV2Routes } from './surfaces/rest/v2.js';
import { registerV3Routes } from './surfaces/rest/v3.js';
import { registerEmulateRoutes } from './surfaces/rest/emulate.js';
import { registerLocalnetRoutes } from './surfaces/rest/localnet.js';
import { registerActonRoutes } from './surfaces/rest/acton.js';
import { registerChainReads } from './pipeline/chain-reads.js';
import { registerGraphQL } from './surfaces/graphql/index.js';
import { registerStreaming } from './surfaces/streaming/routes.js';
import { registerWebhookRoutes } from './surfaces/webhooks/routes.js';
import { UnreadBudget } from './pipeline/unread-budget.js';
import { registerHttpMetrics, registerMetricsRoute } from './observe/metrics.js';
import { REQUEST_ID_HEADER, genReqId, loggerOptions, type LogOptions } from './pipeline/logging.js';
import { registerOpenApiRoutes } from './surfaces/rest/openapi.js';
import { registerExplorerRoutes } from './surfaces/explorer/routes.js';
import type { SharedState } from './shared-state/redis.js';
import { drainAcceptQueueFirst } from './pipeline/accept-burst.js';
import { serializeReply } from './api/json-fragments.js';
import { registerUpstreamReport } from './pipeline/upstream-report.js';
import { registerSecurityHeaders } from './pipeline/security-headers.js';
import { registerV3Headers } from './pipeline/v3-headers.js';
import { normalizeUrl } from './pipeline/request-path.js';
import { liveHealth } from './live/feed.js';
import { unappliedPatches } from './observe/patches.js';

export interface ServerDeps {
  config: Config;
  /** what the sources can do, whole (api/source.ts): each surface takes what it shows */
  capabilities: Served;
  /** true once the data source can answer (the local chain's genesis is sealed) */
  isReady: () => boolean;
  /** why the service cannot do its work now although it started (the local chain's emulators are down), or null */
  healthProblem?: () => string | null;
  /** pino level and destination; silent when absent */
  log?: LogOptions;
  /** Redis (REDIS_URL): rate limits shared with the other replicas */
  shared?: SharedState;
  /** the patches not in effect, one line each (observe/patches.ts checks this process when absent) */
  unpatched?: readonly string[];
}

export const BODY_LIMIT = 1024 * 1024;
export const URL_LIMIT = 8192;

/** An error raised before routing, in the envelope of the surface the path belongs to (v2 `{ok,error,code}`, GraphQL `errors[]`, else `{code,error}`). */
export function errorBodyFor(path: string, status: number, message: string): Record<string, unknown> {
  if (path.startsWith('/api/v2')) return { ok: false, error: message, code: status };
  if (path.startsWith('/graphql')) {
    const code = status === 414 || status === 431 || status === 413 ? 'REQUEST_TOO_LARGE' : 'BAD_REQUEST';
    return { errors: [{ message, extensions: { code } }] };
  }
  return { code: status, error: message };
}

const URL_TOO_LONG = `URL exceeds ${URL_LIMIT} bytes`;

/**
 * Node rejects a request head over maxHeaderSize before any route runs; answer it in the surface's envelope
 * (414 when the request line alone is over the URL cap), then close the connection as Node does.
 */
function clientErrorHandler(error: Error, socket: Socket): void {
  const err = error as Error & { code?: string; rawPacket?: unknown };
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'Bad Request';
  let path = '';
  if (err.code === 'HPE_HEADER_OVERFLOW' || err.code === 'HPE_URI_TOO_LONG') {
    const head = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, URL_LIMIT + 64).toString('latin1') : '';
    const line = /^[A-Z]+ (\S*)/.exec(head);
    path = line?.[1] ?? '';
    const lineEnd = head.indexOf('\r\n');
    status = line && (lineEnd < 0 || lineEnd > URL_LIMIT) ? 414 : 431;
    message = status === 414 ? URL_TOO_LONG : 'Request header fields too large';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'Request timeout';
  }
  const body = JSON.stringify(path ? errorBodyFor(path, status, message) : { ok: false, error: message, code: status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${message}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** The most of a refused upload read and thrown away, so that its sender can still read the 413 (see below). */
export const LINGER_MAX_BYTES = 8 * 1024 * 1024;
const LINGER_MAX_MS = 5_000;

/**
 * A body over its limit is answered 413 before it is read. Fastify then closes the connection, and a client
 * still writing the body (undici's fetch, for one) gets EPIPE or ECONNRESET instead of the answer. Like nginx's
 * lingering close, the rest of a body that declared a modest length (at most LINGER_MAX_BYTES) is read and
 * discarded, for at most LINGER_MAX_MS, so the 413 reaches its sender; a larger or undeclared body is cut as before.
 */
function lingerOnOversizedUploads(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const raw = req.raw;
    const declared = Number(req.headers['content-length']);
    if (reply.statusCode === 413 && !raw.complete && Number.isFinite(declared) && declared <= LINGER_MAX_BYTES) {
      reply.removeHeader('connection');
      const socket = raw.socket;
      const timer = setTimeout(() => socket.destroy(), LINGER_MAX_MS);
      timer.unref();
      raw.once('end', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    }
    done(null, payload);
  });
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // silent (the default when embedded) is no logger at all: pino would still build a child logger per request
    logger: (deps.log?.level ?? 'silent') === 'silent' ? false : loggerOptions(deps.log),
    // the id is chosen (or the client's accepted) in genReqId, which validates it first
    requestIdHeader: false,
    genReqId,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: URL_LIMIT },
    requestTimeout: 60_000,
    keepAliveTimeout: 5_000,
    // idle socket timeout, above requestTimeout so it never cuts a request that is still within its time
    connectionTimeout: 65_000,
    http: { headersTimeout: 10_000, maxHeaderSize: 16 * 1024 },
    clientErrorHandler,
    // before routing and every hook: auth, rate limits, metrics, logs and the router read one spelling of the path
    rewriteUrl: (req) => normalizeUrl(req.url ?? '/'),
    // a path that does not percent-decode (`/api/v2/%zz`) is answered in the surface's envelope, not Fastify's
    frameworkErrors: (err, req, reply) => {
      void (reply as FastifyReply).code(400).header(REQUEST_ID_HEADER, req.id).send(errorBodyFor(req.url, 400, err.message));
    },
  });

  drainAcceptQueueFirst(app.server);
  const unpatched = deps.unpatched ?? unappliedPatches();
  if (unpatched.length) app.log.warn({ unpatched }, 'patched packages run unpatched (was npm install run with --ignore-scripts?)');
  // JSON.stringify's text, reusing the sources' cached transactions and blocks; a list answer comes as a Buffer,
  // which Fastify sends unchanged
  app.setReplySerializer(serializeReply as (payload: unknown) => string);

  // first hooks, one onRequest for both: every later refusal still carries the request id and is counted, and
  // an over-long URL is refused whatever it names, before auth and routing
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    // the target as sent: normalising (request-path.ts) may have shortened it
    if (req.originalUrl.length > URL_LIMIT) return void reply.code(414).send(errorBodyFor(req.url, 414, URL_TOO_LONG));
    done();
  });
  // before auth and rate limits, so a refusal under /api/v3 is timed and versioned like any answer
  registerV3Headers(app, { apiVersion: deps.config.v3ApiVersion });
  lingerOnOversizedUploads(app);
  registerHttpMetrics(app);
  registerUpstreamReport(app);
  // every HTML page (and its scripts and styles) gets its security headers here, whichever route serves it
  registerSecurityHeaders(app);

  // paths outside the mounted surfaces (and wrong methods on /graphql) get an envelope too, not Fastify's own shape
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (path === '/graphql') return reply.code(405).send(errorBodyFor(path, 405, `method ${req.method} is not supported`));
    return reply.code(404).send(errorBodyFor(path, 404, 'Not Found'));
  });

  app.get('/health', async (_req, reply) => {
    if (!deps.isReady()) return reply.code(503).send({ status: 'starting' });
    const problem = deps.healthProblem?.() ?? null;
    if (problem !== null) return reply.code(503).send({ status: 'unavailable', error: problem });
    // a stream that is down is said, not failed on: every request route still answers
    return { status: 'ok', ...liveHealth(deps.capabilities.live?.()?.feed), ...(unpatched.length ? { unpatched } : {}) };
  });

  const checkApiKey = registerAuth(app, {
    apiKeys: deps.config.apiKeys,
    network: deps.config.network,
    keylessRps: deps.config.keylessRps,
    prefixes: ['/api/v2', '/api/v3', '/api/emulate', '/graphql', '/api/streaming', '/api/webhooks'],
    shared: deps.shared,
  });
  if (deps.shared) deps.shared.log = app.log;
  const { capabilities } = deps;
  // after auth and rate limits: a refused request never holds a read of the chain
  registerChainReads(app, capabilities.control);
  const { lenientParams } = deps.config;
  registerV2Routes(app, { v2: capabilities.v2, lenientParams });
  registerV3Routes(app, { v3: capabilities.v3, features: deps.config.v3BranchFeatures, lenientParams });
  registerEmulateRoutes(app, capabilities.emulate, { lenientParams });
  // what every long-lived client leaves unread, bounded over the server (graphql-ws and Streaming API v2 together)
  const unread = new UnreadBudget(deps.config.sockets.maxQueuedBytesTotal, app.log);
  registerGraphQL(app, {
    capabilities,
    subscriptions: deps.config.subscriptions,
    sockets: deps.config.sockets,
    unread,
    checkApiKey,
    maxFields: deps.config.maxQueryFields,
  });
  // after GraphQL, whose WebSocket plugin the streaming socket route uses too
  const streaming = registerStreaming(app, { hub: () => capabilities.live?.(), config: deps.config.streaming, apiKeys: deps.config.apiKeys, unread, lenientParams });
  app.addHook('preClose', (done) => {
    streaming.close();
    done();
  });
  registerWebhookRoutes(app, { webhooks: () => capabilities.webhooks?.(), limits: deps.config.webhooks });
  registerMetricsRoute(app);
  registerOpenApiRoutes(app, { v3Features: deps.config.v3BranchFeatures });
  registerExplorerRoutes(app);
  registerLocalnetRoutes(app, capabilities.control);
  registerActonRoutes(app, capabilities.control);

  await app.ready();
  return app;
}
