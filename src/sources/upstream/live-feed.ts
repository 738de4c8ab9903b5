/**
 * The upstream's own Streaming API v2 as a LiveFeed: one connection (WebSocket `GET {base}/api/streaming/v2/ws`,
 * else SSE `POST {base}/api/streaming/v2/sse`) carrying the union of what the gateway's clients watch, each
 * event handed on as it came (`../shared/reference/streaming-v2.md`). A changed interest is a new `subscribe`
 * on the socket (it replaces the snapshot) or a new SSE request, debounced; a dropped connection is reopened
 * with exponential backoff and jitter (toncenter may answer 429 while the dropped slot lingers). Frames are
 * bounded like every other upstream answer. An upstream without a streaming endpoint (404 on both) is polled
 * instead through v3, finalized transactions only, said once in the log and in status().
 *
 * The upstream gives its events no cursors: finalized ones get this process's own (live/replay-ring.ts). With
 * REDIS_URL, replicas share one upstream stream through the relay (live/relay.ts): sharedUpstreamFeed below.
 */
import { request, type Dispatcher } from 'undici';
import WebSocket from 'ws';
import { BlockFeed, pollTip, type ChainEvents, type EventLog, type McBlockEvent } from '../../live/blocks.js';
import type { Finality, LiveEventType, LiveFeed, LiveFeedStatus, LiveInterest, LiveEvent } from '../../live/feed.js';
import type { V3Api } from '../../api/v3/index.js';
import type { Transaction } from '../../api/v3/transactions.js';
import { MAX_JSON_DEPTH, discard, nestsDeeperThan } from '../../remote/bounds.js';
import { SseFrameTooLarge, SseParser } from './sse-frames.js';
import type { UpstreamOptions } from './options.js';
import { LiveRelay } from '../../live/relay.js';
import { ReplayRing } from '../../live/replay-ring.js';

export type UpstreamTransport = 'auto' | 'ws' | 'sse';

export interface UpstreamLiveOptions {
  /** the v3 upstream's base address; /api/streaming/v2/... is appended */
  baseUrl: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  /** `auto` tries WebSocket first, then SSE */
  transport: UpstreamTransport;
  /** largest event frame (WS message, SSE line or data) accepted; a larger one closes the connection */
  maxFrameBytes: number;
  /** bytes of finalized events kept for replay */
  replayBytes: number;
  /** new finalized blocks by polling v3, used only when the upstream has no streaming endpoint */
  poll?: () => ChainEvents;
  log?: LiveLog;
  /** ms an interest change waits for the next before it is sent */
  debounceMs?: number;
  /** first reconnect delay in ms; doubled per failure up to maxBackoffMs, with jitter */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** ms between pings (WS) and the silence after which a connection counts as dead is three of them */
  keepaliveMs?: number;
}

export interface LiveLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const SILENT: LiveLog = { warn() {}, info() {} };

export const STREAM_PATHS = { ws: '/api/streaming/v2/ws', sse: '/api/streaming/v2/sse' } as const;

const EVENT_TYPES = new Set(['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change', 'trace_invalidated']);

/**
 * The subscription that covers an interest, or undefined when it covers nothing: the reference rejects `trace`
 * without hashes and the other types without addresses, so a type nobody can receive is left out. Address book
 * and metadata are asked for so any client's request can be answered from the one stream.
 */
export function subscriptionFor(interest: LiveInterest): Record<string, unknown> | undefined {
  const addresses = [...interest.addresses].sort();
  const hashes = [...interest.traceExternalHashNorms].sort();
  const types = [...interest.types].filter((t) => (t === 'trace' ? hashes.length > 0 : addresses.length > 0)).sort();
  if (types.length === 0) return undefined;
  return {
    types,
    ...(addresses.length ? { addresses } : {}),
    ...(types.includes('trace') ? { trace_external_hash_norms: hashes } : {}),
    min_finality: interest.minFinality,
    include_address_book: true,
    include_metadata: true,
  };
}

/** Full jitter between half and all of the exponential delay, so replicas dropped together do not return together. */
export const reconnectDelayMs = (baseMs: number, maxMs: number, failures: number): number =>
  Math.min(maxMs, baseMs * 2 ** Math.min(failures, 20)) * (0.5 + Math.random() / 2);

interface Connection {
  /** true when the new subscription went out on the open connection; false when it must be reopened */
  resubscribe(body: Record<string, unknown>): boolean;
  close(): void;
}

/** Why a connection ended: a 404 (no such endpoint here), or anything else worth retrying. */
type Ended = { notFound: true } | { notFound: false; reason: string };

export class UpstreamLiveFeed implements LiveFeed {
  private deliver?: (event: LiveEvent) => void;
  private interest?: LiveInterest;
  /** the subscription the current connection carries */
  private sent?: string;
  private conn?: Connection;
  private transport: 'ws' | 'sse' | 'poll';
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;
  private stopped = false;
  private state: LiveFeedStatus;
  private readonly ring: ReplayRing;
  private readonly log: LiveLog;
  private polling?: { stop: () => void };
  /** subscriptions sent upstream (WS subscribe frames and SSE requests), for tests and metrics */
  subscribes = 0;

  constructor(private readonly opts: UpstreamLiveOptions) {
    this.transport = opts.transport === 'sse' ? 'sse' : 'ws';
    this.ring = new ReplayRing(opts.replayBytes);
    this.log = opts.log ?? SILENT;
    this.state = { kind: `upstream-${this.transport}`, up: false, detail: 'no subscription yet' };
  }

  start(deliver: (event: LiveEvent) => void): void {
    this.deliver = deliver;
    this.apply();
  }

  setInterest(interest: LiveInterest): void {
    this.interest = interest;
    if (!this.deliver || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      this.apply();
    }, this.opts.debounceMs ?? 100);
    this.debounce.unref();
  }

  async replay(cursor: string, deliver: (event: LiveEvent) => void): Promise<void> {
    for (const event of this.ring.after(cursor)) deliver(event);
  }

  status(): LiveFeedStatus {
    return this.state;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.debounce);
    this.conn?.close();
    this.conn = undefined;
    this.polling?.stop();
    this.polling = undefined;
  }

  /** Brings the connection in line with the current interest. */
  private apply(): void {
    if (this.stopped || !this.deliver) return;
    const body = this.interest && subscriptionFor(this.interest);
    if (this.transport === 'poll') return;
    if (!body) {
      this.sent = undefined;
      this.conn?.close();
      this.conn = undefined;
      clearTimeout(this.retry);
      this.retry = undefined;
      this.state = { kind: this.state.kind, up: true, detail: 'idle: no client watches anything' };
      return;
    }
    const text = JSON.stringify(body);
    if (text === this.sent) return;
    if (this.conn) {
      if (this.conn.resubscribe(body)) {
        this.sent = text;
        this.subscribes++;
        return;
      }
      this.conn.close();
      this.conn = undefined;
    }
    // a reconnect already scheduled will carry the new body
    if (this.retry) return;
    this.connect(body, text);
  }

  private connect(body: Record<string, unknown>, text: string): void {
    this.sent = text;
    this.subscribes++;
    const conn: Connection = this.transport === 'ws' ? this.openWs(body, (e) => this.ended(conn, e)) : this.openSse(text, (e) => this.ended(conn, e));
    this.conn = conn;
  }

  private ended(conn: Connection, e: Ended): void {
    if (this.conn !== conn || this.stopped) return;
    this.conn = undefined;
    this.sent = undefined;
    if (e.notFound) {
      if (this.transport === 'ws' && this.opts.transport === 'auto') {
        this.transport = 'sse';
        this.state = { kind: 'upstream-sse', up: false, detail: 'the upstream has no WebSocket streaming endpoint (404): trying SSE' };
        this.apply();
        return;
      }
      this.fallBackToPolling();
      return;
    }
    this.state = { kind: this.state.kind, up: false, detail: e.reason };
    const delay = reconnectDelayMs(this.opts.backoffMs ?? 500, this.opts.maxBackoffMs ?? 30_000, this.failures++);
    this.log.warn({ reason: e.reason, retryInMs: Math.round(delay), failures: this.failures }, 'upstream stream: connection lost, reconnecting');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.apply();
    }, delay);
    this.retry.unref();
  }

  private connected(): void {
    this.failures = 0;
    this.state = { kind: this.state.kind, up: true };
  }

  /** One frame's text as JSON, bounded in nesting; undefined (and logged) when it is not an object. */
  private parse(text: string): Record<string, unknown> | undefined {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return void this.log.warn({ bytes: text.length }, 'upstream stream: a frame nested too deep was dropped');
    try {
      const frame: unknown = JSON.parse(text);
      if (typeof frame === 'object' && frame !== null && !Array.isArray(frame)) return frame as Record<string, unknown>;
    } catch {
      // reported below
    }
    this.log.warn({ bytes: text.length }, 'upstream stream: a frame that is not a JSON object was dropped');
    return undefined;
  }

  /** An event goes on to the hub unchanged (a finalized one with a cursor); one of no known type is dropped. */
  private onEvent(frame: Record<string, unknown>, bytes: number): void {
    if (!EVENT_TYPES.has(frame.type as string)) return this.log.warn({ type: frame.type }, 'upstream stream: an event of no known type was dropped');
    this.emit(frame as LiveEvent, bytes);
  }

  private emit(event: LiveEvent, bytes: number): void {
    this.deliver?.(event.finality === 'finalized' ? this.ring.add(event, bytes) : event);
  }

  private openWs(body: Record<string, unknown>, end: (e: Ended) => void): Connection {
    const url = this.opts.baseUrl.replace(/^http/, 'ws') + STREAM_PATHS.ws;
    const ws = new WebSocket(url, {
      headers: this.opts.apiKey ? { 'X-API-Key': this.opts.apiKey } : {},
      maxPayload: this.opts.maxFrameBytes,
      handshakeTimeout: 10_000,
      perMessageDeflate: false,
    });
    let done = false;
    let ids = 0;
    const finish = (e: Ended) => {
      if (done) return;
      done = true;
      clearInterval(keepalive);
      ws.removeAllListeners('message');
      ws.on('error', () => {});
      ws.terminate();
      end(e);
    };
    const send = (frame: Record<string, unknown>) => ws.send(JSON.stringify({ ...frame, id: String(++ids) }));
    let heard = Date.now();
    const keepaliveMs = this.opts.keepaliveMs ?? 15_000;
    const keepalive = setInterval(() => {
      if (Date.now() - heard > 3 * keepaliveMs) return finish({ notFound: false, reason: `the upstream stream was silent for ${3 * keepaliveMs} ms` });
      if (ws.readyState === WebSocket.OPEN) send({ operation: 'ping' });
    }, keepaliveMs);
    keepalive.unref();
    ws.on('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      finish(res.statusCode === 404 ? { notFound: true } : { notFound: false, reason: `the upstream answered the WebSocket upgrade with HTTP ${res.statusCode}` });
    });
    ws.on('open', () => send({ operation: 'subscribe', ...body }));
    ws.on('message', (data, isBinary) => {
      heard = Date.now();
      if (isBinary) return;
      const text = data.toString();
      const frame = this.parse(text);
      if (!frame) return;
      if (typeof frame.type === 'string') return this.onEvent(frame, text.length);
      if (frame.status === 'subscribed') this.connected();
      // a refused subscription is retried with backoff: the interest may change, or the upstream's limits
      else if (typeof frame.error === 'string') finish({ notFound: false, reason: `the upstream refused the subscription: ${frame.error}` });
    });
    ws.on('error', (e) => {
      const tooLarge = /max payload/i.test(e.message);
      finish({ notFound: false, reason: tooLarge ? `an upstream frame was larger than ${this.opts.maxFrameBytes} bytes` : `upstream stream: ${e.message}` });
    });
    ws.on('close', (code) => finish({ notFound: false, reason: `the upstream closed the stream (code ${code})` }));
    return {
      resubscribe: (next) => {
        if (ws.readyState !== WebSocket.OPEN) return false;
        send({ operation: 'subscribe', ...next });
        return true;
      },
      close: () => {
        done = true;
        clearInterval(keepalive);
        ws.on('error', () => {});
        ws.terminate();
      },
    };
  }

  private openSse(text: string, end: (e: Ended) => void): Connection {
    const abort = new AbortController();
    let done = false;
    let keepalive: NodeJS.Timeout | undefined;
    const finish = (e: Ended) => {
      if (done) return;
      done = true;
      clearInterval(keepalive);
      abort.abort();
      end(e);
    };
    const keepaliveMs = this.opts.keepaliveMs ?? 15_000;
    void request(this.opts.baseUrl + STREAM_PATHS.sse, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(this.opts.apiKey ? { 'x-api-key': this.opts.apiKey } : {}),
      },
      body: text,
      signal: abort.signal,
      headersTimeout: 10_000,
      // the server's keepalives come every 15 s; the watchdog below is what ends a silent stream
      bodyTimeout: 0,
    }).then(
      (res) => this.readSse(res, finish, () => done, (k) => (keepalive = k), keepaliveMs),
      (e: Error) => finish({ notFound: false, reason: `upstream stream: ${e.message}` }),
    );
    return { resubscribe: () => false, close: () => ((done = true), clearInterval(keepalive), abort.abort()) };
  }

  private async readSse(
    res: Dispatcher.ResponseData,
    finish: (e: Ended) => void,
    isDone: () => boolean,
    setKeepalive: (k: NodeJS.Timeout) => void,
    keepaliveMs: number,
  ): Promise<void> {
    res.body.on('error', () => {});
    if (isDone()) return discard(res.body);
    if (res.statusCode !== 200) {
      const detail = await shortText(res.body);
      return finish(
        res.statusCode === 404 ? { notFound: true } : { notFound: false, reason: `the upstream answered the SSE request with HTTP ${res.statusCode}${detail ? `: ${detail}` : ''}` },
      );
    }
    const parser = new SseParser(this.opts.maxFrameBytes);
    let heard = Date.now();
    const keepalive = setInterval(() => {
      if (Date.now() - heard > 3 * keepaliveMs) finish({ notFound: false, reason: `the upstream stream was silent for ${3 * keepaliveMs} ms` });
    }, keepaliveMs);
    keepalive.unref();
    setKeepalive(keepalive);
    res.body.on('data', (chunk: Buffer) => {
      if (isDone()) return;
      heard = Date.now();
      let frames;
      try {
        frames = parser.push(chunk);
      } catch (e) {
        if (!(e instanceof SseFrameTooLarge)) throw e;
        discard(res.body);
        return finish({ notFound: false, reason: `an upstream frame was larger than ${this.opts.maxFrameBytes} bytes` });
      }
      for (const frame of frames) {
        if (frame.event === 'connected') this.connected();
        else if (frame.event === 'event') {
          const event = this.parse(frame.data);
          if (event) this.onEvent(event, frame.data.length);
        }
      }
    });
    res.body.once('end', () => finish({ notFound: false, reason: 'the upstream ended the stream' }));
    res.body.once('close', () => finish({ notFound: false, reason: 'the upstream closed the stream' }));
  }

  /** No streaming endpoint on this upstream: finalized transactions from polling v3, said once. */
  private fallBackToPolling(): void {
    this.transport = 'poll';
    const detail = 'the upstream has no streaming endpoint (404): polling v3 for finalized transactions instead';
    this.log.warn({ baseUrl: this.opts.baseUrl }, `upstream stream: ${detail}`);
    if (!this.opts.poll) {
      this.state = { kind: 'polling', up: false, detail: 'the upstream has no streaming endpoint (404) and no v3 to poll' };
      return;
    }
    this.state = { kind: 'polling', up: true, detail };
    const events = this.opts.poll();
    const stopping = events.subscribe((block) => {
      for (const event of blockEvents(block, this.interest)) this.emit(event, 0);
    });
    this.polling = {
      stop: () => {
        void stopping.then((unsubscribe) => unsubscribe(), () => {});
        events.close();
      },
    };
    stopping.catch((e: Error) => {
      this.state = { kind: 'polling', up: false, detail: `${detail}; polling failed: ${e.message}` };
    });
  }
}

/** The first bytes of an error answer, for the status line; the rest is not read. */
async function shortText(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    if ((bytes += chunk.length) >= 1024) break;
  }
  discard(body);
  return Buffer.concat(chunks).subarray(0, 1024).toString('utf8').replace(/\s+/g, ' ').trim();
}

/**
 * A polled masterchain block as Streaming API v2 `transactions` events at `finalized`: one per trace, the
 * watched accounts' transactions by lt descending; the trace's normalized external hash when its root is here.
 */
export function blockEvents(block: McBlockEvent, interest: LiveInterest | undefined): LiveEvent[] {
  if (!interest?.types.has('transactions')) return [];
  const traces = new Map<string, McBlockEvent['transactions'][number][]>();
  for (const tx of block.transactions) {
    if (!interest.addresses.has(tx.account.toUpperCase())) continue;
    const key = tx.trace_id ?? tx.hash;
    const group = traces.get(key) ?? [];
    group.push(tx);
    traces.set(key, group);
  }
  const finality: Finality = 'finalized';
  return [...traces.values()].map((txs) => {
    const root = txs.find((t) => t.in_msg && t.in_msg.source === null);
    const norm = root?.in_msg?.hash_norm ?? root?.in_msg?.hash;
    const ordered = [...txs].sort((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : BigInt(b.lt) < BigInt(a.lt) ? -1 : 0));
    return {
      type: 'transactions' satisfies LiveEventType,
      finality,
      ...(norm ? { trace_external_hash_norm: norm } : {}),
      transactions: ordered.map((t) => ({ ...t, finality })),
    };
  });
}

/** What the factory needs from upstream mode's options. */
export type UpstreamLiveSettings = Pick<UpstreamOptions, 'upstream' | 'upstreamApis' | 'upstreamStream'> & { subscriptions: { pollMs: number } };

/**
 * The upstream feed for upstream mode's options: the v3 source's base address and key (the streaming service is
 * toncenter's, beside its v3), polling that same `v3` (the gateway's own client, so its pace is shared) only
 * when the upstream has no streaming endpoint.
 */
export function createUpstreamLiveFeed(settings: UpstreamLiveSettings, v3: V3Api, log?: LiveLog & EventLog): UpstreamLiveFeed {
  const { upstreamStream: streaming } = settings;
  return new UpstreamLiveFeed({
    baseUrl: settings.upstream.v3Url,
    apiKey: settings.upstreamApis.v3.apiKey,
    transport: streaming.transport,
    maxFrameBytes: streaming.maxFrameBytes,
    replayBytes: streaming.replayMb * 1024 * 1024,
    poll: () => new BlockFeed(pollTip(v3, settings.subscriptions.pollMs, log), v3, log),
    log,
  });
}

/** What upstream mode's live feed is made from: the upstream's options and REDIS_URL. */
export type LiveFeedSettings = UpstreamLiveSettings & { redisUrl?: string };

/** Upstream mode's feed: through the Redis relay when replicas share REDIS_URL, else the upstream stream itself. */
export function sharedUpstreamFeed(config: LiveFeedSettings, v3: V3Api, log?: LiveLog & EventLog): LiveFeed {
  const upstream = () => createUpstreamLiveFeed(config, v3, log);
  if (!config.redisUrl) return upstream();
  return new LiveRelay({ url: config.redisUrl, upstream, maxLen: config.upstreamStream.relayMaxLen, log });
}
