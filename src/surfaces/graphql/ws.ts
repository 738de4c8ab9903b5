/**
 * GraphQL over WebSocket (the graphql-ws protocol, subprotocol `graphql-transport-ws`) on the same port and path
 * as HTTP: the upgrade request goes through Fastify's router (@fastify/websocket), so the API-key and rate-limit
 * stage refuses it as it refuses any /graphql request; a key may also come in `connectionParams` (`apiKey`,
 * `X-API-Key` or `api_key`), and each operation takes a token of its key's rate limit. Operations run through
 * yoga's envelop pipeline (limits, error masking, context), subscriptions through the same hub as SSE
 * (per-client count, per-subscription accounts, backlog).
 * On shutdown every subscription completes, then each socket closes with 1001.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { GraphQLError, getOperationAST, type ExecutionArgs } from 'graphql';
import { CloseCode, handleProtocols, type Context } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import { createHash } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import type { GraphQLContext } from './builder.js';
import type { ServerContext } from './fast-path.js';
import { ErrorCode } from './errors.js';
import { LIMITS } from './limits.js';

/** The HTTP stage's check of a key, taking one token of its rate limit: undefined when allowed, else the refusal. */
export type ApiKeyCheck = (key: string) => Promise<{ status: number; error: string; retryAfter?: number } | undefined>;

type Yoga = YogaServerInstance<ServerContext, GraphQLContext>;

/** The Fastify request each upgraded socket was opened with (graphql-ws hands back only the Node request). */
const fastifyOf = new WeakMap<object, FastifyRequest>();
/** The client a socket's subscriptions count against, when its connectionParams named a key. */
const keyClient = new WeakMap<object, string>();
/** The key a socket's operations are counted against: from connectionParams, else from the upgrade request. */
const socketKey = new WeakMap<object, string>();

/** The key of the upgrade request, as the HTTP stage reads it (it has already accepted it). */
function requestKey(req: FastifyRequest): string | undefined {
  const h = req.headers['x-api-key'];
  const header = Array.isArray(h) ? h[0] : h;
  if (header) return header;
  const q = req.url.indexOf('?');
  return (q >= 0 ? new URLSearchParams(req.url.slice(q + 1)).get('api_key') : null) || undefined;
}

const refusalError = (r: { status: number; error: string; retryAfter?: number }): GraphQLError =>
  new GraphQLError(r.error, {
    extensions: { code: r.status === 429 ? 'RATE_LIMITED' : 'UNAUTHENTICATED', ...(r.retryAfter ? { retryAfter: r.retryAfter } : {}) },
  });

const PARAM_KEYS = ['apiKey', 'X-API-Key', 'x-api-key', 'api_key'];

function keyOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  for (const k of PARAM_KEYS) {
    const v = params?.[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** Wait between checks that a closing socket has sent the completion of each of its subscriptions. */
const DRAIN_POLL_MS = 5;
/** How long a socket sent 1001 has to answer the close handshake before it is cut. */
const CLOSE_HANDSHAKE_MS = 1_000;

export interface WebSocketOptions {
  yoga: Yoga;
  checkApiKey?: ApiKeyCheck;
  /** how long shutdown waits for subscriptions to send their completion */
  graceMs?: number;
}

/**
 * Registers the upgrade handling; returns the WebSocket handler for the GET /graphql route and the shutdown that
 * completes open operations and closes the sockets.
 */
export function registerWebSocket(app: FastifyInstance, o: WebSocketOptions) {
  void app.register(fastifyWebsocket, {
    // picks the subprotocol graphql-ws speaks; a socket opened without it is closed at once with 4406
    options: { handleProtocols: (protocols) => handleProtocols(protocols) || false, maxPayload: LIMITS.maxRequestBytes },
    // shutdown is ours (close() below): the plugin's own would cut sockets before their subscriptions complete
    preClose: (done) => done(),
  });

  // graphql-ws listens on this server's `connection` event; the upgrade itself is done by the route
  const wss = new WebSocketServer({ noServer: true });
  /** every upgraded socket, with its graphql-ws context once the client has sent connection_init */
  const sockets = new Map<WebSocket, Context<Record<string, unknown>, Extra> | undefined>();
  let closing = false;

  useServer<Record<string, unknown>>(
    {
      onConnect: async (ctx) => {
        if (closing) return false;
        sockets.set(ctx.extra.socket, ctx);
        const key = keyOf(ctx.connectionParams);
        if (key === undefined) {
          const fromRequest = requestKey(fastifyOf.get(ctx.extra.request)!);
          if (fromRequest) socketKey.set(ctx.extra.socket, fromRequest);
          return true;
        }
        const refusal = await o.checkApiKey?.(key);
        // a rate-limited key may still connect: its operations are refused one by one below
        if (refusal && refusal.status !== 429) {
          ctx.extra.socket.close(CloseCode.Forbidden, refusal.error);
          return false;
        }
        socketKey.set(ctx.extra.socket, key);
        keyClient.set(ctx.extra.socket, `key:${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32)}`);
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        // each operation counts against its key's rate limit as an HTTP request does
        const key = socketKey.get(ctx.extra.socket);
        const refusal = key === undefined ? undefined : await o.checkApiKey?.(key);
        if (refusal) return [refusalError(refusal)];
        const bytes = Buffer.byteLength(payload.query);
        if (bytes > LIMITS.maxQueryBytes) {
          return [
            new GraphQLError(`Query document is ${bytes} bytes, more than the ${LIMITS.maxQueryBytes} allowed`, {
              extensions: { code: ErrorCode.REQUEST_TOO_LARGE, actual: bytes, limit: LIMITS.maxQueryBytes },
            }),
          ];
        }
        const client = keyClient.get(ctx.extra.socket);
        const serverContext: ServerContext = { req: fastifyOf.get(ctx.extra.request)!, ...(client ? { client } : {}) };
        const enveloped = o.yoga.getEnveloped({ ...serverContext, params: payload });
        let document;
        try {
          document = enveloped.parse(payload.query);
        } catch (e) {
          if (e instanceof GraphQLError) return [new GraphQLError(e.message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
          throw e;
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) {
          return errors.map((e: GraphQLError) =>
            e.extensions.code ? e : new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
          );
        }
        const operation = getOperationAST(document, payload.operationName);
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          document,
          contextValue: await enveloped.contextFactory(),
          variableValues: payload.variables ?? {},
          operationName: payload.operationName ?? null,
          // graphql-ws calls execute/subscribe below with these arguments: the root value carries yoga's enveloped one
          rootValue: { run: operation?.operation === 'subscription' ? enveloped.subscribe : enveloped.execute },
        };
        return args;
      },
      execute: (args: ExecutionArgs) => (args.rootValue as { run: (a: ExecutionArgs) => any }).run(args),
      subscribe: (args: ExecutionArgs) => (args.rootValue as { run: (a: ExecutionArgs) => any }).run(args),
    },
    wss,
  );

  return {
    /** the route's handler for an upgraded request */
    handle(socket: WebSocket, req: FastifyRequest): void {
      if (closing) return void socket.close(1001, 'Going away');
      sockets.set(socket, undefined);
      socket.once('close', () => sockets.delete(socket));
      fastifyOf.set(req.raw, req);
      wss.emit('connection', socket, req.raw);
    },
    /** Refuses new sockets, waits until each open one has sent the completion of its subscriptions, then closes it. */
    async close(graceMs = o.graceMs ?? 5_000): Promise<void> {
      closing = true;
      const deadline = Date.now() + graceMs;
      await Promise.all(
        [...sockets].map(async ([socket, ctx]) => {
          while (ctx && Object.keys(ctx.subscriptions).length > 0 && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
          }
          const closed = new Promise((resolve) => socket.once('close', resolve));
          socket.close(1001, 'Going away');
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_HANDSHAKE_MS)))]);
          clearTimeout(timer);
          // a client that does not answer the close handshake would hold the server's close for ws's 30 s
          if (socket.readyState !== socket.CLOSED) socket.terminate();
        }),
      );
    },
  };
}
