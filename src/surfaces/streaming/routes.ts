/**
 * toncenter's Streaming API v2 served (../shared/reference/streaming-v2.md §1-§4): `POST /api/streaming/v2/sse`,
 * `GET /api/streaming/v2/ws`, `GET /api/streaming/healthz`, with the reference's validation texts and statuses,
 * over the one live hub.
 *
 * Limits are the gateway's own (the reference's server reads them from proxy headers): connections per client
 * (API key, else IP) and addresses per connection from the key's entry in API_KEYS, else the streaming
 * defaults; connections over the whole server, bytes per request body or frame, WebSocket messages per second
 * and bytes left unread per connection (config `streaming`).
 *
 * What a client makes the server hold is counted and bounded:
 * - Everything sent to a connection, events and the answers to its own messages alike, waits in its outbox
 *   (live/outbox.ts); a client found more than `maxQueuedBytes` behind is a slow consumer, closed as toncenter
 *   closes one (toncenter-newer.md §9): WebSocket close 1013 `slow consumer`, SSE stream ended; its queue is
 *   dropped at once, and its socket cut SLOW_CONSUMER_CLOSE_MS later if the close has not gone. Every connection is
 *   also a member of the server-wide budget of unread bytes (pipeline/unread-budget.ts), shared with graphql-ws.
 * - A WebSocket message is counted before it is read: past `maxMessagesPerSecond` on its socket the first gets
 *   an error frame and the socket is not read until the rate allows the next (what arrived with it is dropped
 *   unread). Messages are then worked on within `controlBytesPerSecond` over every socket, clients taking turns
 *   (control.ts): one that does not fit waits with its socket unread, and is refused after CONTROL_WAIT_MS.
 *
 * Beyond the reference: every finalized event carries a cursor (SSE `id:` line, and a `cursor` member), and a
 * client that reconnects with `Last-Event-ID` (SSE) or `after` (WS `subscribe`) is first sent every finalized
 * event it missed, or refused (410 / an error frame) naming the oldest cursor it could resume from completely.
 * In upstream mode a subscription is also admitted only within the upstream stream's room and the client's share
 * of it (429 / an error frame), and events the gateway lost are said: an error frame, or the SSE stream ended so
 * that its resume is refused.
 */
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { ApiKeySpec, StreamingConfig } from '../../config.js';
import { LiveBusy, LiveCursorTooOld } from '../../live/feed.js';
import { Outbox } from '../../live/outbox.js';
import { Pace } from '../../live/pace.js';
import { ControlQueue, type ControlTicket } from './control.js';
import { apiKeyOf } from '../../pipeline/auth.js';
import { LENIENT_HEADER, lenientRequested, membersOf, NO_NAMES, ONLY_API_KEY, paramProblem, queryNames } from '../../api/strict-params.js';
import type { UnreadBudget, UnreadMember } from '../../pipeline/unread-budget.js';
import { Payload, type HubClient, type LiveHub } from '../../live/hub.js';
import {
  applyRequest,
  emptySubscription,
  normaliseAddresses,
  normaliseTraceHashes,
  readFields,
  SSE_WORDING,
  SUBSCRIPTION_FIELDS,
  SubscriptionError,
  validate,
  WS_WORDING,
  type Subscription,
} from '../../live/subscription.js';

export const SSE_PATH = '/api/streaming/v2/sse';
export const WS_PATH = '/api/streaming/v2/ws';
export const HEALTH_PATH = '/api/streaming/healthz';

export interface StreamingDeps {
  /** the hub, once the source's feed is up */
  hub: () => LiveHub | undefined;
  config: StreamingConfig;
  apiKeys: readonly ApiKeySpec[];
  /** the server-wide budget of unread bytes, shared with graphql-ws */
  unread: UnreadBudget;
  /** unknown fields and query names ignored, as toncenter ignores them, rather than refused */
  lenientParams?: boolean;
}

/** The fields each request reads (streaming-v2.md §2, §4); `after` is this gateway's resume cursor. */
const SSE_FIELDS: ReadonlySet<string> = new Set(SUBSCRIPTION_FIELDS);
const WS_FIELDS: Record<string, ReadonlySet<string>> = {
  subscribe: new Set(['operation', ...SUBSCRIPTION_FIELDS, 'after']),
  unsubscribe: new Set(['operation', 'id', 'addresses', 'trace_external_hash_norms']),
  ping: new Set(['operation', 'id']),
};

/** WebSocket's "try again later" and "message too big". */
const TRY_AGAIN_LATER = 1013;
/** how long a slow consumer's close frame is given before its socket is cut */
const SLOW_CONSUMER_CLOSE_MS = 100;
const TOO_BIG = 1009;
const POLICY = 1008;
/** How long a WebSocket message may wait for its turn in the server's rate of messages before it is refused. */
const CONTROL_WAIT_MS = 5_000;
/** Messages of one socket read and waiting for their turn; past them the socket is refused as over its rate. */
const INBOX = 4;
/** The reason of toncenter's close for a slow consumer. */
const SLOW_CONSUMER = 'slow consumer';
/** `: keepalive` as one chunk of a chunked body, and bare. */
const KEEPALIVE = Buffer.from(': keepalive\n\n');
const KEEPALIVE_CHUNK = Buffer.from(`${KEEPALIVE.length.toString(16)}\r\n: keepalive\n\n\r\n`);

const digest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A request's `id` as its replies echo it. */
const echoedId = (m: unknown): { id?: string } => (isObject(m) && typeof m.id === 'string' ? { id: m.id } : {});

export function registerStreaming(app: FastifyInstance, deps: StreamingDeps): { close(): void } {
  const cfg = deps.config;
  /** what WebSocket messages cost, over every socket */
  const control = new ControlQueue(cfg.controlBytesPerSecond, CONTROL_WAIT_MS);
  const specs = new Map(deps.apiKeys.map((s) => [digest(s.key), s]));
  /** open connections per client */
  const open = new Map<string, number>();
  /** every open connection's end, for shutdown */
  const ends = new Set<() => void>();
  let closing = false;

  /** Who a request counts against and its limits (the auth stage has already refused an unknown key). */
  function limitsOf(req: FastifyRequest): { client: string; connections: number; addresses: number } {
    const key = apiKeyOf(req);
    const spec = key === undefined ? undefined : specs.get(digest(key));
    return {
      client: key === undefined ? `ip:${req.ip}` : `key:${digest(key)}`,
      connections: spec?.streamConnections ?? cfg.maxConnections,
      addresses: spec?.streamAddresses ?? cfg.maxAddresses,
    };
  }

  const strict = (req: FastifyRequest): boolean => !deps.lenientParams && !lenientRequested(req.headers[LENIENT_HEADER]);
  const queryProblem = (req: FastifyRequest, fields: ReadonlySet<string>): string | undefined =>
    strict(req) ? paramProblem(queryNames(req.url), NO_NAMES, { ignored: ONLY_API_KEY, body: fields }) : undefined;

  /** Takes a connection slot; returns its release, or the refusal's text. */
  function takeSlot(client: string, limit: number): (() => void) | string {
    if (closing || ends.size >= cfg.maxSockets) return `too many streaming connections: at most ${cfg.maxSockets}`;
    const n = open.get(client) ?? 0;
    if (limit > 0 && n >= limit) return `connection limit reached: ${n} active connections`;
    open.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    };
  }

  const hubOr503 = (reply: FastifyReply): LiveHub | undefined => {
    const hub = deps.hub();
    if (!hub) void reply.code(503).send({ error: 'streaming is not available yet: the source is starting' });
    return hub;
  };

  app.get(HEALTH_PATH, async (_req, reply) => {
    const hub = deps.hub();
    const status = hub?.feed.status();
    const ok = status?.up ?? false;
    const component = status ? { ok, ...(status.detail ? { error: status.detail } : {}) } : { ok: false, error: 'the source is starting' };
    return reply
      .code(ok ? 200 : 503)
      .send({ ok, now: Math.floor(Date.now() / 1000), components: { [status?.kind ?? 'source']: component, hub: { ok: hub !== undefined, subscribers: hub?.size ?? 0 } } });
  });

  void app.register(async (scope) => {
    // the body is read as text whatever its type: a body that is not JSON is refused in the reference's words
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: cfg.maxFrameBytes }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err: FastifyError, _req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      const message = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `request body too large: at most ${cfg.maxFrameBytes} bytes` : status === 500 ? 'internal error' : err.message;
      if (status === 500) app.log.error({ err }, 'streaming: a request failed');
      void reply.code(status).send({ error: message });
    });
    // an upgrade refused before the route (a bad key) has its answer written to the bare socket, which nothing else ends
    scope.addHook('onResponse', (req, _reply, done) => {
      if (req.headers.upgrade?.toLowerCase() === 'websocket') req.raw.socket.destroySoon();
      done();
    });

    scope.post(SSE_PATH, { bodyLimit: cfg.maxFrameBytes }, async (req, reply) => sse(req, reply));
    scope.route({
      method: 'GET',
      url: WS_PATH,
      // before the upgrade, so a misspelt name in the socket's address is refused as an HTTP answer
      preValidation: async (req, reply) => {
        const problem = queryProblem(req, WS_FIELDS.subscribe!);
        if (problem !== undefined) return reply.code(422).send({ error: problem });
      },
      handler: async (_req, reply) => reply.code(426).send({ error: 'Upgrade Required' }),
      wsHandler: (socket: WebSocket, req: FastifyRequest) => ws(socket, req),
    });
  });

  async function sse(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const hub = hubOr503(reply);
    if (!hub) return;
    const limits = limitsOf(req);
    let fields: ReturnType<typeof readFields>;
    try {
      const type = header(req, 'content-type') ?? '';
      if (!/^application\/json\b/i.test(type)) throw new SubscriptionError('Content-Type must be application/json');
      const text = typeof req.body === 'string' ? req.body : '';
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (e) {
        throw new SubscriptionError(errorMessage(e));
      }
      const problem = strict(req) && isObject(body) ? (paramProblem(membersOf(body), SSE_FIELDS) ?? queryProblem(req, SSE_FIELDS)) : undefined;
      if (problem !== undefined) return void reply.code(422).send({ ...echoedId(body), error: problem });
      fields = readFields(body);
    } catch (e) {
      return void reply.code(400).send({ error: `invalid subscription request: ${errorMessage(e)}` });
    }
    const idPart = fields.id !== undefined ? { id: fields.id } : {};
    let sub: Subscription;
    try {
      const v = validate(fields, SSE_WORDING);
      sub = applyRequest(emptySubscription(fields.supported_action_types?.length ? undefined : header(req, 'x-actions-version')), fields, v);
    } catch (e) {
      return void reply.code(400).send({ ...idPart, error: errorMessage(e) });
    }
    if (limits.addresses > 0 && sub.addresses.size > limits.addresses) {
      return void reply.code(400).send({ ...idPart, error: `too many addresses: ${sub.addresses.size} > max ${limits.addresses}` });
    }
    const resumeFrom = header(req, 'last-event-id');
    const busy = resumeFrom === undefined ? undefined : hub.replayRefusal();
    if (busy) return void refuseBusy(reply, busy, idPart);
    const slot = takeSlot(limits.client, limits.connections);
    if (typeof slot === 'string') return void reply.code(slot.startsWith('too many') ? 503 : 429).send({ ...idPart, error: slot });

    const res = reply.raw;
    let outbox: Outbox | undefined;
    let member: UnreadMember | undefined;
    let ended = false;
    // the head goes with the first thing sent, so a resume refused before anything is sent is still an HTTP answer
    const head = (): Outbox => {
      if (outbox) return outbox;
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': String(req.id),
      });
      res.write(`event: connected\ndata: ${JSON.stringify({ ...idPart, status: 'subscribed' })}\n\n`);
      // events go straight to the socket after what res has written, each chunk built once for every client
      const chunked = res.chunkedEncoding;
      outbox = new Outbox(res.socket!, {
        maxBytes: cfg.maxQueuedBytes,
        frame: (p) => (chunked ? p.sseChunk() : p.sse()),
        overflow: (unread) => slow(`more than ${cfg.maxQueuedBytes} bytes queued unread (${unread})`),
        report: (bytes) => member?.report(bytes),
      });
      return outbox;
    };
    const client: HubClient = {
      sub,
      send: (payload) => {
        if (!ended) head().send(payload);
      },
      queuedBytes: () => outbox?.unread() ?? 0,
      drop: (reason) => slow(reason),
      drained: (bytes) => outbox?.below(bytes) ?? Promise.resolve(),
      tenant: limits.client,
    };
    const refusal = hub.admit(client, sub);
    if (refusal) {
      slot();
      return void reply.code(429).send({ ...idPart, error: refusal });
    }
    member = deps.unread.join({ unread: client.queuedBytes, drop: (reason) => slow(reason) });
    const release = (): void => {
      clearInterval(keepAlive);
      slot();
      ends.delete(end);
      member?.leave();
      hub.detach(client);
    };
    const end = (): void => {
      ended = true;
      release();
      outbox?.close();
      if (!res.destroyed) res.end();
    };
    /** A slow consumer: what waits is dropped and the stream ended (toncenter's SSE just ends), cut if it cannot be. */
    const slow = (reason: string): void => {
      if (ended) return;
      app.log.warn({ reason }, 'streaming: ending the stream of a slow consumer');
      outbox?.drop();
      end();
      setTimeout(() => res.destroy(), SLOW_CONSUMER_CLOSE_MS).unref();
    };
    ends.add(end);
    const keepAlive = setInterval(() => {
      if (!ended) head().push(res.chunkedEncoding ? KEEPALIVE_CHUNK : KEEPALIVE);
    }, cfg.keepAliveMs);
    res.once('close', () => {
      ended = true;
      release();
      outbox?.close();
    });
    try {
      await hub.attach(client, resumeFrom);
      // a resume sends what the cursor missed; without one, replay_existing sends the recent snapshots (once, at connect)
      if (resumeFrom === undefined && sub.replayExisting) hub.replayExisting(client);
    } catch (e) {
      release();
      if (outbox) return void end();
      if (e instanceof LiveBusy) return void refuseBusy(reply, e, idPart);
      const status = e instanceof LiveCursorTooOld ? 410 : 500;
      return void reply.code(status).send({ ...idPart, error: errorMessage(e) });
    }
    if (!ended) head();
  }

  /** 429 with Retry-After: the server runs all the replays it may. */
  function refuseBusy(reply: FastifyReply, e: LiveBusy, idPart: { id?: string }): void {
    void reply.code(429).header('retry-after', String(e.retryAfter)).send({ ...idPart, error: e.message });
  }

  function ws(socket: WebSocket, req: FastifyRequest): void {
    const hub = deps.hub();
    if (!hub) {
      socket.send(JSON.stringify({ error: 'streaming is not available yet: the source is starting' }));
      return void socket.close(TRY_AGAIN_LATER, 'starting');
    }
    const live: LiveHub = hub;
    const limits = limitsOf(req);
    const wsStrict = strict(req);
    const slot = takeSlot(limits.client, limits.connections);
    if (typeof slot === 'string') {
      socket.send(JSON.stringify({ error: slot }));
      return void socket.close(slot.startsWith('too many') ? TRY_AGAIN_LATER : POLICY, slot.slice(0, 120));
    }
    let member: UnreadMember | undefined;
    let closing = false;
    // frames are written to the socket as they are (uncompressed, which a permessage-deflate peer also reads), in
    // order with ws's own writes; an event's frame is built once for every client
    const outbox = new Outbox(req.raw.socket, {
      maxBytes: cfg.maxQueuedBytes,
      frame: (p) => p.wsFrame(),
      overflow: (unread) => slow(`more than ${cfg.maxQueuedBytes} bytes queued unread (${unread})`),
      report: (bytes) => member?.report(bytes),
    });
    const send = (o: object): void => {
      if (!closing) outbox.send(new Payload(JSON.stringify(o), undefined));
    };
    const client: HubClient = {
      sub: emptySubscription(header(req, 'x-actions-version')),
      send: (payload) => {
        if (!closing) outbox.send(payload);
      },
      queuedBytes: () => outbox.unread(),
      drop: (reason) => slow(reason),
      drained: (bytes) => outbox.below(bytes),
      tenant: limits.client,
      missed: (text) => send({ error: text }),
    };
    member = deps.unread.join({ unread: client.queuedBytes, drop: (reason) => slow(reason) });
    const end = (): void => {
      closing = true;
      slot();
      ends.delete(end);
      member?.leave();
      outbox.close();
      hub.detach(client);
      if (socket.readyState !== socket.CLOSED) socket.terminate();
    };
    /**
     * A slow consumer, closed as toncenter closes one: what waits for it is dropped, the close frame goes after the
     * little already handed to the socket, nothing more is read from it, and it is cut if it does not go.
     */
    const slow = (reason: string): void => {
      if (closing) return;
      closing = true;
      app.log.warn({ reason }, 'streaming: closing the socket of a slow consumer');
      outbox.drop();
      hub.detach(client);
      member?.leave();
      socket.pause();
      socket.close(TRY_AGAIN_LATER, SLOW_CONSUMER);
      setTimeout(end, SLOW_CONSUMER_CLOSE_MS).unref();
    };
    ends.add(end);
    socket.once('close', end);
    socket.on('error', (err) => app.log.debug({ err }, 'streaming ws: socket error'));
    void hub.attach(client);

    // the socket's own rate, a burst of one second's worth
    const rate = new Pace(cfg.maxMessagesPerSecond);
    /** messages read and counted, waiting for their turn in the server's rate */
    const inbox: Buffer[] = [];
    /** the one of them whose turn is awaited */
    let ticket: ControlTicket | undefined;
    let waiting = false;
    /** a message was refused as over the socket's rate, and the socket is not read until this time */
    let heldUntil = 0;
    /** a message was refused and none accepted since: those that came with it are dropped without a word */
    let refusing = false;
    /** The socket is read only while nothing of it waits. */
    let wake: NodeJS.Timeout | undefined;
    const sync = (): void => {
      if (closing) return;
      const left = heldUntil - performance.now();
      // a timer may fire a little before performance.now() reaches its time: the check comes again until it has
      if (left > 0 && !wake) {
        wake = setTimeout(() => {
          wake = undefined;
          sync();
        }, Math.ceil(left));
        wake.unref();
      }
      const hold = waiting || inbox.length > 0 || left > 0;
      if (hold && !socket.isPaused) socket.pause();
      else if (!hold && socket.isPaused) socket.resume();
    };
    /** Refuses a message unread: the first of a run is told why, and the socket is not read until `waitMs` pass. */
    const refuse = (error: string, waitMs: number): void => {
      if (!refusing) send({ error });
      refusing = true;
      heldUntil = performance.now() + Math.max(1, waitMs);
      sync();
    };
    /** The next message read takes its turn in the server's rate, then is worked on. */
    const next = (): void => {
      if (closing || waiting) return;
      const data = inbox.shift();
      if (!data) return sync();
      waiting = true;
      const done = (): void => {
        waiting = false;
        ticket = undefined;
        next();
      };
      ticket = control.admit(
        limits.client,
        data.length,
        () => {
          if (!closing) handle(data);
          done();
        },
        () => {
          send({ error: `too many messages on the server: at most ${cfg.controlBytesPerSecond} bytes per second over every socket, retry later` });
          done();
        },
      );
      sync();
    };
    socket.once('close', () => ticket?.cancel());
    socket.on('message', (data: Buffer) => {
      if (closing) return;
      if (data.length > cfg.maxFrameBytes) return void socket.close(TOO_BIG, `frame larger than ${cfg.maxFrameBytes} bytes`);
      const now = performance.now();
      if (refusing && now < heldUntil) return;
      if (!rate.tryTake(1, now) || inbox.length >= INBOX) return refuse(`too many messages: at most ${cfg.maxMessagesPerSecond} per second`, rate.wait(now));
      refusing = false;
      inbox.push(data);
      next();
    });

    function handle(data: Buffer): void {
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString('utf8'));
        if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) throw new Error('expected a JSON object');
      } catch (e) {
        return send({ error: `invalid request envelope: ${errorMessage(e)}` });
      }
      void operation(msg as Record<string, unknown>);
    }

    async function operation(m: Record<string, unknown>): Promise<void> {
      const id = echoedId(m);
      const fields = typeof m.operation === 'string' && Object.hasOwn(WS_FIELDS, m.operation) ? WS_FIELDS[m.operation] : undefined;
      const problem = fields && wsStrict ? paramProblem(membersOf(m), fields) : undefined;
      if (problem !== undefined) return send({ ...id, error: problem });
      switch (m.operation) {
        case 'ping':
          return send({ ...id, status: 'pong' });
        case 'subscribe':
          return subscribe(m, id);
        case 'unsubscribe':
          return unsubscribe(m, id);
        default:
          return send({ ...id, error: `unknown operation: ${typeof m.operation === 'string' ? m.operation : JSON.stringify(m.operation ?? '')}` });
      }
    }

    async function subscribe(m: Record<string, unknown>, id: { id?: string }): Promise<void> {
      let fields: ReturnType<typeof readFields>;
      try {
        fields = readFields(m);
        if (m.after !== undefined && typeof m.after !== 'string') throw new SubscriptionError('after must be a string');
      } catch (e) {
        return send({ ...id, error: `invalid subscribe request: ${errorMessage(e)}` });
      }
      let next: Subscription;
      try {
        next = applyRequest(client.sub, fields, validate(fields, WS_WORDING));
      } catch (e) {
        return send({ ...id, error: errorMessage(e) });
      }
      if (limits.addresses > 0) {
        const current = client.sub.addresses.size;
        let added = 0;
        for (const a of next.addresses) if (!client.sub.addresses.has(a)) added++;
        if (current + added > limits.addresses) return send({ ...id, error: `address limit exceeded: current ${current} + new ${added} > max ${limits.addresses}` });
      }
      const refusal = live.admit(client, next);
      if (refusal) return send({ ...id, error: refusal });
      // a resume the server cannot run now is refused before anything changes
      const busy = typeof m.after === 'string' ? live.replayRefusal() : undefined;
      if (busy) return send({ ...id, error: busy.message });
      client.sub = next;
      live.update(client);
      send({ ...id, status: 'subscribed' });
      if (typeof m.after === 'string') {
        try {
          await live.resume(client, m.after);
        } catch (e) {
          send({ ...id, error: errorMessage(e) });
        }
      } else if (fields.replay_existing) live.replayExisting(client);
    }

    function unsubscribe(m: Record<string, unknown>, id: { id?: string }): void {
      let fields: ReturnType<typeof readFields>;
      let addresses: Set<string>;
      let hashes: Set<string>;
      try {
        fields = readFields(m);
        addresses = new Set(normaliseAddresses(fields.addresses ?? []));
        hashes = new Set(normaliseTraceHashes(fields.trace_external_hash_norms ?? []));
      } catch (e) {
        const worded = e instanceof SubscriptionError && (e.message.startsWith('invalid address') || e.message.startsWith('trace_external_hash_norms'));
        return send({ ...id, error: worded ? e.message : `invalid subscribe request: ${errorMessage(e)}` });
      }
      if (addresses.size === 0 && hashes.size === 0) return send({ ...id, error: 'addresses or trace_external_hash_norms are required' });
      const sub = client.sub;
      const without = (from: Set<string>, gone: Set<string>): Set<string> => {
        if (gone.size === 0) return from;
        const out = new Set(from);
        for (const x of gone) out.delete(x);
        return out;
      };
      client.sub = { ...sub, addresses: without(sub.addresses, addresses), traceHashes: without(sub.traceHashes, hashes) };
      live.update(client);
      send({ ...id, status: 'unsubscribed' });
    }
  }

  return {
    /** Ends every stream and socket (the hub stops with the feed). */
    close(): void {
      closing = true;
      for (const end of [...ends]) end();
    },
  };
}
