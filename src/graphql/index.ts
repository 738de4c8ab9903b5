/**
 * Mounts the GraphQL facade on /graphql of the gateway's Fastify app: graphql-yoga over the Pothos schema,
 * GraphiQL bundled (no CDN), limits and error codes as yoga plugins. Fastify parses JSON bodies and yoga reads
 * the parsed body; Fastify's own body errors on this route are answered in GraphQL's error shape.
 * Subscriptions stream over SSE from the same route; closing the app completes them first.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createYoga, type GraphiQLOptions } from 'graphql-yoga';
import type { V2Api } from '../api/v2.js';
import type { V3Api } from '../api/v3.js';
import type { SubscriptionConfig } from '../config.js';
import type { ChainEvents } from '../events/feed.js';
import type { GraphQLContext } from './builder.js';
import { countedSources } from './context.js';
import { ErrorCode, maskError } from './errors.js';
import { createFastPath } from './fast-path.js';
import { LIMITS, useLimits } from './limits.js';
import { schema } from './schema.js';
import { SubscriptionHub, clientOf } from './subscriptions/hub.js';

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

let graphiqlPage: string | undefined;

/** The bundled page is ~9 MB of inline script; render it once. */
const renderPage = (opts: GraphiQLOptions): string => (graphiqlPage ??= renderGraphiQL(opts));

function bodyErrorCode(e: FastifyError): { status: number; code: ErrorCode | 'BAD_REQUEST' } {
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, code: ErrorCode.REQUEST_TOO_LARGE };
  return { status: e.statusCode && e.statusCode < 500 ? e.statusCode : 400, code: 'BAD_REQUEST' };
}

export interface GraphQLDeps {
  v2: V2Api;
  v3: V3Api;
  /** the chain feed subscriptions listen to (absent until the local chain is up); no subscriptions without it */
  events?: () => ChainEvents | undefined;
  subscriptions?: SubscriptionConfig;
  /** answer plain JSON queries without yoga's HTTP adapter (src/graphql/fast-path.ts); default on, off only to compare */
  fastPath?: boolean;
}

export function registerGraphQL(app: FastifyInstance, deps: GraphQLDeps): void {
  const sources = countedSources(deps);
  const hub = deps.events && deps.subscriptions ? new SubscriptionHub(deps.events, deps.subscriptions) : undefined;
  // before the server stops listening: open streams complete, so their connections can end and close finishes
  if (hub) app.addHook('preClose', () => hub.close());
  const yoga = createYoga<{ req: FastifyRequest; reply: FastifyReply }, GraphQLContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // a fresh object per request: Pothos keys the request's dataloaders on it
    context: ({ req, reply }): GraphQLContext => ({
      v2: sources.v2,
      v3: sources.v3,
      ...(hub ? { subscriptions: { hub, client: () => clientOf(req), response: reply.raw } } : {}),
    }),
    maskedErrors: {
      maskError: (error, message) => {
        const masked = maskError(error, message);
        // the client sees "Unexpected error."; the operator needs the cause
        if (masked.message === message) app.log.error({ err: error }, 'graphql: internal error');
        return masked;
      },
    },
    graphiql: { title: 'TON GraphQL gateway', defaultQuery: EXPLORE_QUERY },
    renderGraphiQL: renderPage,
    landingPage: false,
    logging: false,
    plugins: [useLimits()],
  });
  const fastAnswer = deps.fastPath === false ? undefined : createFastPath(yoga);

  app.route({
    url: GRAPHQL_PATH,
    method: ['GET', 'POST', 'OPTIONS'],
    bodyLimit: LIMITS.maxRequestBytes,
    errorHandler: (error, _req, reply) => {
      const { status, code } = bodyErrorCode(error);
      const message = code === ErrorCode.REQUEST_TOO_LARGE ? `Request body exceeds ${LIMITS.maxRequestBytes} bytes` : error.message;
      return reply.code(status).send({ errors: [{ message, extensions: { code } }] });
    },
    handler: async (req, reply) => {
      const fast = await fastAnswer?.(req, reply);
      if (fast) {
        for (const [key, value] of fast.headers) reply.header(key, value);
        return reply.status(fast.status).send(fast.body);
      }
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      response.headers.forEach((value, key) => {
        reply.header(key, value);
      });
      reply.status(response.status);
      if (hub && response.headers.get('content-type')?.startsWith('text/event-stream')) hub.track(reply.raw);
      // yoga refuses some requests (an unsupported content type: 415) with no body; the client still gets a coded error
      if (response.body === null && response.status >= 400) {
        const message =
          response.status === 406
            ? 'Not acceptable: results are served as application/json, subscriptions as text/event-stream'
            : `Request refused: HTTP ${response.status}`;
        return reply.header('content-type', 'application/json; charset=utf-8').send({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
      }
      // a streamed result (SSE, multipart) is piped; a whole one is already a string inside the Response
      const type = response.headers.get('content-type') ?? '';
      if (type.startsWith('text/event-stream') || type.startsWith('multipart/')) return reply.send(response.body);
      return reply.send(await response.text());
    },
  });
}
