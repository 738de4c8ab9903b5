/**
 * GraphQL over WebSocket (the graphql-ws protocol, subprotocol `graphql-transport-ws`) on the same port and path
 * as HTTP: the upgrade request goes through Fastify's router (@fastify/websocket), so the API-key and rate-limit
 * stage refuses it as it refuses any /graphql request; a key may also come in `connectionParams` (`apiKey`,
 * `X-API-Key` or `api_key`), and each operation takes a token of its key's rate limit. Operations run through
 * yoga's envelop pipeline (limits, error masking, context), subscriptions through the same registry as SSE
 * (per-client count, per-subscription accounts, backlog).
 * On shutdown every subscription completes, then each socket closes with 1001.
 *
 * What one socket may hold of the server is bounded (config `sockets`): at most `maxOperations` operations open at
 * once (past it each is refused with TOO_MANY_OPERATIONS), each prepared and started in a turn of the event loop of
 * its own, the sockets taken in rotation; before each message is sent, the bytes still queued for the client are
 * checked, and past `maxQueuedBytes` the socket is closed with 4413 and its operations end; each socket is also a
 * member of the server-wide budget of unread bytes (pipeline/unread-budget.ts), which closes the sockets with the
 * most unread first, with 1013, when all of them together hold more than `maxQueuedBytesTotal`. graphql-ws closes a
 * socket that sends no connection_init within 3 s; one that has not answered a ping by the next, `keepAliveMs`
 * later, is cut. graphql-ws's server runs on each socket here (its `ws` binding would print to the console and
 * close with 4500 a socket whose pending writes fail when it is cut).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { GraphQLError, getOperationAST, type ExecutionArgs } from 'graphql';
import { CloseCode, handleProtocols, makeServer, type Context } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { createHash } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { YogaServerInstance } from 'graphql-yoga';
import { SOCKET_DEFAULTS, type SocketConfig } from '../../config.js';
import type { UnreadBudget, UnreadMember } from '../../pipeline/unread-budget.js';
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

/** graphql-ws has no close code for a client that does not read its answers: 4413, after HTTP's 413. */
export const QUEUE_OVERFLOW = 4413;
/** WebSocket's own "try again later", for a socket past the server's count. */
const TRY_AGAIN_LATER = 1013;

/**
 * Lets one operation of one socket go ahead per turn of the event loop, server-wide, taking the sockets in rotation:
 * the synchronous work of a burst of operations (on one socket or many) is spread over turns, with other requests
 * answered between them, and a socket with many operations waiting does not hold back one with a few.
 */
class Turns {
  /** per socket, its operations waiting, first come first; the map's order is the rotation */
  private readonly waiting = new Map<WebSocket, (() => void)[]>();
  private scheduled = false;

  take(socket: WebSocket): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(socket);
      if (queue) queue.push(resolve);
      else this.waiting.set(socket, [resolve]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.next());
  }

  private next(): void {
    this.scheduled = false;
    const first = this.waiting.entries().next();
    if (first.done) return;
    const [socket, queue] = first.value;
    this.waiting.delete(socket);
    const go = queue.shift()!;
    // to the back of the rotation
    if (queue.length > 0) this.waiting.set(socket, queue);
    if (this.waiting.size > 0) this.schedule();
    go();
  }
}

/** The answer to an operation whose socket closed before its turn; graphql-ws sends nothing on a closed socket. */
const SOCKET_CLOSED = new GraphQLError('The socket is closed', { extensions: { code: 'SOCKET_CLOSED' } });

/** What graphql-ws's execute and subscribe below find in the root value onSubscribe built. */
interface Run {
  run: (args: ExecutionArgs) => any;
  socket: WebSocket;
}

/** Whether more than `limit` operations are open on a socket (its context keeps each until its completion is sent). */
function openPast(subscriptions: Record<string, unknown>, limit: number): boolean {
  let n = 0;
  for (const _ in subscriptions) if (++n > limit) return true;
  return false;
}

/** Wait between checks that a closing socket has sent the completion of each of its subscriptions. */
const DRAIN_POLL_MS = 5;
/** How long a socket sent 1001 has to answer the close handshake before it is cut. */
const CLOSE_HANDSHAKE_MS = 1_000;
/** The same for a socket past its queue's bound: time for a slow reader to read up to the close frame and learn why. */
const OVERFLOW_CLOSE_MS = 5_000;

export interface WebSocketOptions {
  yoga: Yoga;
  checkApiKey?: ApiKeyCheck;
  /** how long shutdown waits for subscriptions to send their completion */
  graceMs?: number;
  sockets?: SocketConfig;
  /** the server-wide budget of unread bytes each socket is a member of */
  unread?: UnreadBudget;
}

/** Sends a close frame and cuts the socket if its client has not answered within `waitMs`. */
function closeOrCut(socket: WebSocket, code: number, reason: string, waitMs = CLOSE_HANDSHAKE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.close(code, reason);
  const timer = setTimeout(() => {
    // a client that does not read never sees the close frame: without this its socket would stay for ws's 30 s
    if (socket.readyState !== socket.CLOSED) socket.terminate();
  }, waitMs);
  return closed.finally(() => clearTimeout(timer));
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

  const limits = o.sockets ?? SOCKET_DEFAULTS;
  const turns = new Turns();
  /** Executes an operation onSubscribe prepared, in a turn of its own, unless its socket has closed meanwhile. */
  const runInTurn = async (args: ExecutionArgs): Promise<any> => {
    const { run, socket } = args.rootValue as Run;
    await turns.take(socket);
    return socket.readyState === socket.OPEN ? run(args) : { errors: [SOCKET_CLOSED] };
  };
  /**
   * Sends one graphql-ws message, unless the client has left more than `maxQueuedBytes` unread: then the socket is
   * closed with 4413, graphql-ws returns its subscriptions, and what waits to execute finds the socket closed.
   */
  /** each socket's membership of the server-wide budget */
  const members = new WeakMap<WebSocket, UnreadMember>();
  const send = (socket: WebSocket, data: string): Promise<void> =>
    new Promise((resolve) => {
      if (socket.readyState !== socket.OPEN) return resolve();
      if (socket.bufferedAmount > limits.maxQueuedBytes) {
        app.log.warn({ queuedBytes: socket.bufferedAmount, limit: limits.maxQueuedBytes }, 'graphql-ws: closing a socket whose client is not reading');
        const reason = `More than ${limits.maxQueuedBytes} bytes queued unread: read the answers sent`;
        void closeOrCut(socket, QUEUE_OVERFLOW, reason, OVERFLOW_CLOSE_MS);
        return resolve();
      }
      // the write fails only when the socket is cut, and then there is no one left to tell
      socket.send(data, () => resolve());
      members.get(socket)?.report(socket.bufferedAmount);
    });
  /** every upgraded socket, with its graphql-ws context once the client has sent connection_init */
  const sockets = new Map<WebSocket, Context<Record<string, unknown>, Extra> | undefined>();
  let closing = false;

  const server = makeServer<Record<string, unknown>, Extra>(
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
        // counted before anything awaits, so a burst of messages is counted whole
        if (openPast(ctx.subscriptions, limits.maxOperations)) {
          const message = `Too many operations open on this socket: at most ${limits.maxOperations}; wait for their results`;
          return [new GraphQLError(message, { extensions: { code: ErrorCode.TOO_MANY_OPERATIONS, limit: limits.maxOperations } })];
        }
        const socket = ctx.extra.socket;
        await turns.take(socket);
        // a socket closed meanwhile (its client gone, or past its queue's bound) runs nothing more
        return socket.readyState === socket.OPEN ? prepare(ctx, payload) : [SOCKET_CLOSED];
      },
      execute: runInTurn,
      subscribe: runInTurn,
    },
  );

  /** The checks and the parse of one operation: its execution arguments, or the errors that refuse it. */
  async function prepare(
    ctx: Context<Record<string, unknown>, Extra>,
    payload: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null },
  ): Promise<ExecutionArgs | GraphQLError[]> {
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
    const serverContext: ServerContext = { req: fastifyOf.get(ctx.extra.request)!, ...(client ? { client } : {}), ...(key !== undefined ? { key } : {}) };
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
      // `http` is yoga's instruction for an HTTP answer, not part of a socket's error
      return errors.map((e: GraphQLError) => {
        const { http: _http, ...extensions } = e.extensions;
        return new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...extensions, code: extensions.code ?? 'GRAPHQL_VALIDATION_FAILED' } });
      });
    }
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) return [new GraphQLError('Unable to identify operation', { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })];
    const run: Run = { run: operation.operation === 'subscription' ? enveloped.subscribe : enveloped.execute, socket: ctx.extra.socket };
    // graphql-ws calls execute/subscribe above with these arguments: the root value carries yoga's enveloped one
    return {
      schema: enveloped.schema,
      document,
      contextValue: await enveloped.contextFactory(),
      variableValues: payload.variables ?? {},
      operationName: payload.operationName ?? null,
      rootValue: run,
    };
  }

  return {
    /** the route's handler for an upgraded request */
    handle(socket: WebSocket, req: FastifyRequest): void {
      if (closing) return void socket.close(1001, 'Going away');
      if (sockets.size >= limits.maxSockets) {
        app.log.warn({ limit: limits.maxSockets }, 'graphql-ws: refusing a socket past the server\'s count');
        return void closeOrCut(socket, TRY_AGAIN_LATER, `Too many open sockets: at most ${limits.maxSockets}`);
      }
      sockets.set(socket, undefined);
      if (o.unread) {
        const member = o.unread.join({
          unread: () => socket.bufferedAmount,
          drop: (reason) => {
            app.log.warn({ reason }, 'graphql-ws: closing a socket past the server-wide budget of unread bytes');
            void closeOrCut(socket, TRY_AGAIN_LATER, 'The server holds too much unread: the slowest sockets are closed', OVERFLOW_CLOSE_MS);
          },
        });
        members.set(socket, member);
        const drained = () => member.report(socket.bufferedAmount);
        req.raw.socket.on('drain', drained);
        socket.once('close', () => {
          req.raw.socket.off('drain', drained);
          member.leave();
        });
      }
      // a peer gone without a word (half-open), or one that has stopped reading, answers no ping
      let answered = true;
      socket.on('pong', () => (answered = true));
      const keepAlive = setInterval(() => {
        if (answered) {
          answered = false;
          return socket.ping();
        }
        // timers run before the loop reads its sockets: after a long turn the pong may be waiting there unread
        setImmediate(() => {
          if (answered || socket.readyState !== socket.OPEN) return;
          app.log.warn({ keepAliveMs: limits.keepAliveMs }, 'graphql-ws: cutting a socket that did not answer its ping');
          socket.terminate();
        });
      }, limits.keepAliveMs);
      socket.once('close', () => {
        clearInterval(keepAlive);
        sockets.delete(socket);
      });
      // a failed socket (a bad frame, a reset) closes; nothing else is to be done
      socket.on('error', (err) => app.log.debug({ err }, 'graphql-ws: socket error'));
      fastifyOf.set(req.raw, req);
      const closed = server.opened(
        {
          protocol: socket.protocol,
          send: (data) => send(socket, data),
          close: (code, reason) => socket.close(code, reason),
          onMessage: (handle) =>
            socket.on('message', (data: Buffer) => {
              handle(data.toString('utf8')).catch((err: unknown) => {
                app.log.error({ err }, 'graphql-ws: handling a message failed');
                socket.close(CloseCode.InternalServerError, 'Internal server error');
              });
            }),
        },
        { socket, request: req.raw },
      );
      socket.once('close', (code: number, reason: Buffer) => void closed(code, reason.toString()));
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
          await closeOrCut(socket, 1001, 'Going away');
        }),
      );
    },
  };
}
