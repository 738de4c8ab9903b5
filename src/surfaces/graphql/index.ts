/**
 * Mounts the GraphQL facade on /graphql of the gateway's Fastify app: graphql-yoga over the Pothos schema,
 * GraphiQL bundled (no CDN), limits and error codes as yoga plugins. Fastify parses JSON bodies and yoga reads
 * the parsed body; Fastify's own body errors on this route are answered in GraphQL's error shape.
 * Subscriptions stream over SSE (yoga's transport, and graphql-sse's single-connection mode) and over WebSocket
 * (graphql-ws, src/surfaces/graphql/ws.ts) from the same path; closing the app completes them first.
 */
import type { Served } from '../../api/source.js';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { useUpstreamReport } from './upstream-report.js';
import { createYoga, type GraphiQLOptions, type Plugin } from 'graphql-yoga';
import { SOCKET_DEFAULTS, type SocketConfig, type SubscriptionConfig } from '../../config.js';
import type { GraphQLContext } from './builder.js';
import { countedSources } from './context.js';
import { ErrorCode, maskError } from './errors.js';
import { useAutomaticPersistedQueries } from './apq.js';
import { NO_STORE, cacheAnswer, useFinalityCache } from './caching.js';
import { useCompiledExecution } from './compiled.js';
import { useDocumentCache } from './document-cache.js';
import { createFastPath, type ServerContext } from './fast-path.js';
import { useChainReads } from './chain-reads.js';
import { LIMITS, useLimits } from './limits.js';
import { schema } from './schema.js';
import { useGraphQLSSESingleConnection } from './sse.js';
import { boundedStream } from './stream-bound.js';
import { SubscriptionRegistry } from './subscriptions/registry.js';
import { registerWebSocket, type ApiKeyCheck } from './ws.js';
import { inlineHash, pagePolicy } from '../../pipeline/security-headers.js';
import { apiKeyOf, clientOf } from '../../pipeline/auth.js';
import { UnreadBudget } from '../../pipeline/unread-budget.js';

export const GRAPHQL_PATH = '/graphql';

const EXPLORE_QUERY = `# The local chain in one request: the newest masterchain block and its shards, then the
# latest transactions with the masterchain block that committed them, their messages and
# the balances on both ends. Blocks are sealed every second, so the newest is often empty.
query Explore {
  masterchainInfo {
    last {
      seqno
      genUtime
      shards { workchain seqno txCount }
    }
  }
  transactions(first: 5) {
    nodes {
      hash
      lt
      block { workchain seqno masterchainBlock { seqno } }
      account { address balance }
      inMessage { value comment source { address balance } }
      outMessages { value comment destination { address balance } }
    }
  }
}
`;

/**
 * The policy GraphiQL's page runs under: its inline scripts allowed by their hashes (the page is the same for every
 * request), no other script; inline styles allowed, since the editor (Monaco) writes its styles at run time; its
 * fonts come as data: URLs.
 */
function graphiqlPolicy(page: string): string {
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => inlineHash(m[1]!));
  return pagePolicy({
    'script-src': `'self' ${scripts.join(' ')}`,
    'style-src': "'self' 'unsafe-inline'",
    'font-src': "'self' data:",
    'worker-src': "'self' blob:",
  });
}

let graphiql: { page: string; policy: string } | undefined;

/** The bundled page is ~9 MB of inline script; render it (and hash its inline parts) once. */
const renderPage = (opts: GraphiQLOptions): string => {
  if (!graphiql) {
    const page = renderGraphiQL(opts);
    graphiql = { page, policy: graphiqlPolicy(page) };
  }
  return graphiql.page;
};

function bodyErrorCode(e: FastifyError): { status: number; code: ErrorCode | 'BAD_REQUEST' } {
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, code: ErrorCode.REQUEST_TOO_LARGE };
  return { status: e.statusCode && e.statusCode < 500 ? e.statusCode : 400, code: 'BAD_REQUEST' };
}

/** A refusal's errors each with a code (graphql-sse's own refusals, "Stream not found" and the like, carry none). */
function codedErrors(text: string): string {
  let body: { errors?: { extensions?: { code?: unknown } }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return text;
  }
  if (!Array.isArray(body.errors) || body.errors.every((e) => e.extensions?.code !== undefined)) return text;
  const errors = body.errors.map((e) => (e.extensions?.code !== undefined ? e : { ...e, extensions: { ...e.extensions, code: 'BAD_REQUEST' } }));
  return JSON.stringify({ ...body, errors });
}

export interface GraphQLDeps {
  /** what the sources can do, whole; subscriptions need its `blocks` (none without it) */
  capabilities: Served;
  subscriptions?: SubscriptionConfig;
  /** what one WebSocket or streamed answer may hold of the server's memory */
  sockets?: SocketConfig;
  /** the server-wide budget of unread bytes its WebSockets are members of (absent: one of their own) */
  unread?: UnreadBudget;
  /** answer plain JSON queries without yoga's HTTP adapter (src/surfaces/graphql/fast-path.ts); default on, off only to compare */
  fastPath?: boolean;
  /** plugins run after the gateway's own, on every request of every transport (tests add observers here) */
  plugins?: Plugin[];
  /** checks a key given in a WebSocket's connectionParams as the HTTP stage checks a header (absent: keys not checked) */
  checkApiKey?: ApiKeyCheck;
  /** field nodes of an operation with its fragments expanded (default LIMITS.maxFields) */
  maxFields?: number;
}

export function registerGraphQL(app: FastifyInstance, deps: GraphQLDeps): void {
  const { capabilities } = deps;
  const sources = countedSources(capabilities);
  const maxFields = deps.maxFields ?? LIMITS.maxFields;
  const registry = capabilities.blocks && deps.subscriptions ? new SubscriptionRegistry(capabilities.blocks, deps.subscriptions, capabilities.live) : undefined;
  // a fresh object per request: Pothos keys the request's dataloaders on it
  // the expansion limit rides on the context only when it is not the default (serviceConfig publishes it)
  const limits = maxFields === LIMITS.maxFields ? {} : { maxFields };
  const context = ({ req, reply, client, key }: ServerContext): GraphQLContext => ({
    v2: sources.v2,
    v3: sources.v3,
    capabilities,
    apiKey: key ?? apiKeyOf(req),
    ...limits,
    client: () => client ?? clientOf(req),
    ...(registry ? { subscriptions: { registry, client: () => client ?? clientOf(req), ...(reply ? { response: reply.raw } : {}) } } : {}),
  });
  const masking = (error: unknown, message: string) => {
    const masked = maskError(error, message);
    // the client sees "Unexpected error."; the operator needs the cause
    if (masked.message === message) app.log.error({ err: error }, 'graphql: internal error');
    return masked;
  };
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context,
    maskedErrors: { maskError: masking },
    graphiql: { title: 'TON GraphQL gateway', defaultQuery: EXPLORE_QUERY },
    renderGraphiQL: renderPage,
    landingPage: false,
    logging: false,
    // yoga's own cache keeps invalid documents and counts entries only; ours keeps valid ones within a byte budget
    parserAndValidationCache: false,
    plugins: [
      useAutomaticPersistedQueries(),
      useDocumentCache(),
      useLimits({ maxFields }),
      useFinalityCache(),
      useChainReads(),
      useUpstreamReport(),
      useGraphQLSSESingleConnection(GRAPHQL_PATH),
      // last of the execute hooks that may stop execution: what it replaces is graphql-js's execute alone
      useCompiledExecution(schema),
      ...(deps.plugins ?? []),
    ],
  });
  const fastAnswer = deps.fastPath === false ? undefined : createFastPath(yoga);

  const sockets = deps.sockets ?? SOCKET_DEFAULTS;
  const unread = deps.unread ?? new UnreadBudget(sockets.maxQueuedBytesTotal, app.log);
  const ws = registerWebSocket(app, { yoga, sockets, unread, ...(deps.checkApiKey ? { checkApiKey: deps.checkApiKey } : {}) });
  // before the server stops listening: open streams and sockets complete, so their connections can end and close finishes
  app.addHook('preClose', async () => {
    await Promise.all([registry?.close(), ws.close()]);
  });

  const route = {
    url: GRAPHQL_PATH,
    bodyLimit: LIMITS.maxRequestBytes,
    errorHandler: (error: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
      const { status, code } = bodyErrorCode(error);
      const message = code === ErrorCode.REQUEST_TOO_LARGE ? `Request body exceeds ${LIMITS.maxRequestBytes} bytes` : error.message;
      return reply.code(status).header('cache-control', NO_STORE).send({ errors: [{ message, extensions: { code } }] });
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const fast = await fastAnswer?.(req, reply);
      if (fast) {
        for (const [key, value] of fast.headers) reply.header(key, value);
        const answer = cacheAnswer(req, reply, fast.status, fast.body);
        return reply.status(answer.status).send(answer.body);
      }
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      // GraphiQL: the security stage adds the rest of a page's headers
      if (graphiql && response.headers.get('content-type')?.startsWith('text/html')) reply.header('content-security-policy', graphiql.policy);
      reply.status(response.status);
      if (registry && response.headers.get('content-type')?.startsWith('text/event-stream')) registry.track(reply.raw);
      // yoga refuses some requests (an unsupported content type: 415) with no body; the client still gets a coded error
      if (response.body === null && response.status >= 400) {
        const message =
          response.status === 406
            ? 'Not acceptable: results are served as application/json, subscriptions as text/event-stream'
            : `Request refused: HTTP ${response.status}`;
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', NO_STORE)
          .send({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
      }
      // a streamed result (SSE, multipart) is piped; a whole one is already a string inside the Response
      const type = response.headers.get('content-type') ?? '';
      if ((type.startsWith('text/event-stream') || type.startsWith('multipart/')) && response.body) {
        const body = boundedStream(response.body, reply.raw, sockets.maxQueuedBytes, (queuedBytes) =>
          req.log.warn({ queuedBytes, limit: sockets.maxQueuedBytes }, 'graphql: ending a stream whose client is not reading'),
        );
        return reply.header('cache-control', NO_STORE).send(body);
      }
      const text = await response.text();
      const answer = cacheAnswer(req, reply, response.status, response.status >= 400 && type.includes('json') ? codedErrors(text) : text);
      return reply.status(answer.status).send(answer.body);
    },
  };
  // scoped, so the WebSocket plugin's route hook is in place when the GET route is added
  void app.register(async (scope) => {
    // an upgrade refused before the route (a bad key, a rate limit) has its answer written to the bare socket, which nothing else ends
    scope.addHook('onResponse', (req, _reply, done) => {
      if (req.headers.upgrade?.toLowerCase() === 'websocket') req.raw.socket.destroySoon();
      done();
    });
    scope.route({ ...route, method: 'GET', wsHandler: ws.handle });
    // PUT and DELETE: graphql-sse's single-connection reservation and its cancel
    scope.route({ ...route, method: ['POST', 'OPTIONS', 'PUT', 'DELETE'] });
  });
}
