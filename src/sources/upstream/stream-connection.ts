/**
 * One connection to the upstream's Streaming API v2 (`../shared/reference/streaming-v2.md` §1-§4): WebSocket
 * `GET {base}/api/streaming/v2/ws` or SSE `POST {base}/api/streaming/v2/sse`, carrying one subscription. On a
 * WebSocket a changed subscription is sent on the open socket (the addresses it drops unsubscribed first, so the
 * upstream's "current + new > max" check counts only what it will hold); on SSE it needs a new request. Each
 * subscription the upstream takes or refuses is reported with its text; frames are bounded; a silent
 * connection is cut after three keepalive periods.
 */
import { request, type Dispatcher } from 'undici';
import WebSocket from 'ws';
import type { Finality, LiveEventType } from '../../live/feed.js';
import { MAX_JSON_DEPTH, discard, nestsDeeperThan } from '../../remote/bounds.js';
import { SseFrameTooLarge, SseParser } from './sse-frames.js';

export const STREAM_PATHS = { ws: '/api/streaming/v2/ws', sse: '/api/streaming/v2/sse' } as const;

/** What one upstream connection subscribes to: the reference's `subscribe` fields (§2), sorted. */
export interface StreamSubscription {
  readonly types: readonly LiveEventType[];
  readonly addresses: readonly string[];
  readonly hashes: readonly string[];
  readonly minFinality: Finality;
}

/** The request body of a subscription. Address book and metadata are asked for so any client's request can be answered. */
export function subscriptionBody(s: StreamSubscription): Record<string, unknown> {
  return {
    types: s.types,
    ...(s.addresses.length ? { addresses: s.addresses } : {}),
    ...(s.types.includes('trace') ? { trace_external_hash_norms: s.hashes } : {}),
    min_finality: s.minFinality,
    include_address_book: true,
    include_metadata: true,
  };
}

/** Why a connection ended: a 404 (no such endpoint here), or anything else worth retrying, with the upstream's refusal text if it gave one. */
export type Ended = { notFound: true } | { notFound: false; reason: string; refusal?: string };

export interface ConnectionHandlers {
  /** the upstream holds this subscription now (WS: its `subscribed` reply; SSE: `connected`) */
  subscribed(sub: StreamSubscription): void;
  /** the upstream refused this subscription with this text; a WebSocket keeps the one it held before */
  refused(sub: StreamSubscription, error: string): void;
  /** one event frame, parsed, and its size */
  event(frame: Record<string, unknown>, bytes: number): void;
  ended(e: Ended): void;
}

export interface ConnectionOptions {
  baseUrl: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  maxFrameBytes: number;
  /** ms between pings (WS); three of them silent and the connection counts as dead */
  keepaliveMs: number;
  warn(obj: object, msg: string): void;
}

export interface UpstreamConnection {
  /** true when the subscription went out on this connection; false when it needs a new one */
  change(sub: StreamSubscription): boolean;
  close(): void;
}

/** One frame's text as JSON, bounded in nesting; undefined (and logged) when it is not an object. */
function parse(text: string, warn: ConnectionOptions['warn']): Record<string, unknown> | undefined {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return void warn({ bytes: text.length }, 'upstream stream: a frame nested too deep was dropped');
  try {
    const frame: unknown = JSON.parse(text);
    if (typeof frame === 'object' && frame !== null && !Array.isArray(frame)) return frame as Record<string, unknown>;
  } catch {
    // reported below
  }
  warn({ bytes: text.length }, 'upstream stream: a frame that is not a JSON object was dropped');
  return undefined;
}

export function openConnection(transport: 'ws' | 'sse', opts: ConnectionOptions, sub: StreamSubscription, on: ConnectionHandlers): UpstreamConnection {
  return transport === 'ws' ? openWs(opts, sub, on) : openSse(opts, sub, on);
}

function openWs(opts: ConnectionOptions, first: StreamSubscription, on: ConnectionHandlers): UpstreamConnection {
  const url = opts.baseUrl.replace(/^http/, 'ws') + STREAM_PATHS.ws;
  const ws = new WebSocket(url, {
    headers: opts.apiKey ? { 'X-API-Key': opts.apiKey } : {},
    maxPayload: opts.maxFrameBytes,
    handshakeTimeout: 10_000,
    perMessageDeflate: false,
  });
  let done = false;
  let ids = 0;
  /** the subscription to send on open, while the socket is connecting */
  let initial = first;
  /** what the upstream holds, or will once it answers what was last sent: what a change unsubscribes from */
  let held: StreamSubscription | undefined;
  /** what it last confirmed: it keeps holding that when it refuses a change */
  let confirmed: StreamSubscription | undefined;
  /** subscribe frames sent and not answered yet, by id */
  const pending = new Map<string, StreamSubscription>();
  const finish = (e: Ended) => {
    if (done) return;
    done = true;
    clearInterval(keepalive);
    ws.removeAllListeners('message');
    ws.on('error', () => {});
    ws.terminate();
    on.ended(e);
  };
  const send = (frame: Record<string, unknown>): string => {
    const id = String(++ids);
    ws.send(JSON.stringify({ ...frame, id }));
    return id;
  };
  const subscribe = (sub: StreamSubscription) => {
    const dropped = held ? held.addresses.filter((a) => !sub.addresses.includes(a)) : [];
    const droppedHashes = held ? held.hashes.filter((h) => !sub.hashes.includes(h)) : [];
    if (dropped.length || droppedHashes.length) {
      send({ operation: 'unsubscribe', ...(dropped.length ? { addresses: dropped } : {}), ...(droppedHashes.length ? { trace_external_hash_norms: droppedHashes } : {}) });
    }
    held = sub;
    pending.set(send({ operation: 'subscribe', ...subscriptionBody(sub) }), sub);
  };
  let heard = Date.now();
  const keepalive = setInterval(() => {
    if (Date.now() - heard > 3 * opts.keepaliveMs) return finish({ notFound: false, reason: `the upstream stream was silent for ${3 * opts.keepaliveMs} ms` });
    if (ws.readyState === WebSocket.OPEN) send({ operation: 'ping' });
  }, opts.keepaliveMs);
  keepalive.unref();
  ws.on('unexpected-response', (req, res) => {
    res.resume();
    req.destroy();
    finish(res.statusCode === 404 ? { notFound: true } : { notFound: false, reason: `the upstream answered the WebSocket upgrade with HTTP ${res.statusCode}` });
  });
  ws.on('open', () => subscribe(initial));
  ws.on('message', (data, isBinary) => {
    heard = Date.now();
    if (isBinary) return;
    const text = data.toString();
    const frame = parse(text, opts.warn);
    if (!frame) return;
    if (typeof frame.type === 'string') return on.event(frame, text.length);
    const sub = typeof frame.id === 'string' ? pending.get(frame.id) : undefined;
    if (sub) pending.delete(frame.id as string);
    if (frame.status === 'subscribed' && sub) {
      confirmed = sub;
      on.subscribed(sub);
    } else if (typeof frame.error === 'string') {
      if (sub && held === sub) held = confirmed;
      // an error with no id (the connection limit) is about the connection, so about what it carries
      const about = sub ?? (frame.id === undefined ? (held ?? initial) : undefined);
      if (about) on.refused(about, frame.error);
      else opts.warn({ error: frame.error }, 'upstream stream: the upstream refused a request');
    }
  });
  ws.on('error', (e) => {
    const tooLarge = /max payload/i.test(e.message);
    finish({ notFound: false, reason: tooLarge ? `an upstream frame was larger than ${opts.maxFrameBytes} bytes` : `upstream stream: ${e.message}` });
  });
  // 1009: the subscription was a frame larger than the upstream takes; its reason says how large it may be
  ws.on('close', (code, reason) =>
    finish({ notFound: false, reason: `the upstream closed the stream (code ${code})`, ...(code === 1009 ? { refusal: reason.toString() || 'message too big' } : {}) }),
  );
  return {
    change: (sub) => {
      if (done) return false;
      if (ws.readyState === WebSocket.CONNECTING) {
        initial = sub;
        return true;
      }
      if (ws.readyState !== WebSocket.OPEN) return false;
      subscribe(sub);
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

function openSse(opts: ConnectionOptions, sub: StreamSubscription, on: ConnectionHandlers): UpstreamConnection {
  const abort = new AbortController();
  let done = false;
  let keepalive: NodeJS.Timeout | undefined;
  const finish = (e: Ended) => {
    if (done) return;
    done = true;
    clearInterval(keepalive);
    abort.abort();
    on.ended(e);
  };
  void request(opts.baseUrl + STREAM_PATHS.sse, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(opts.apiKey ? { 'x-api-key': opts.apiKey } : {}),
    },
    body: JSON.stringify(subscriptionBody(sub)),
    signal: abort.signal,
    headersTimeout: 10_000,
    // the server's keepalives come every 15 s; the watchdog below is what ends a silent stream
    bodyTimeout: 0,
  }).then(
    (res) => readSse(res),
    (e: Error) => finish({ notFound: false, reason: `upstream stream: ${e.message}` }),
  );

  async function readSse(res: Dispatcher.ResponseData): Promise<void> {
    res.body.on('error', () => {});
    if (done) return discard(res.body);
    if (res.statusCode !== 200) {
      const detail = await shortText(res.body);
      if (res.statusCode === 404) return finish({ notFound: true });
      const refusal = refusalText(detail);
      if (refusal !== undefined) on.refused(sub, refusal);
      return finish({ notFound: false, reason: `the upstream answered the SSE request with HTTP ${res.statusCode}${detail ? `: ${detail}` : ''}`, ...(refusal !== undefined ? { refusal } : {}) });
    }
    const parser = new SseParser(opts.maxFrameBytes);
    let heard = Date.now();
    keepalive = setInterval(() => {
      if (Date.now() - heard > 3 * opts.keepaliveMs) finish({ notFound: false, reason: `the upstream stream was silent for ${3 * opts.keepaliveMs} ms` });
    }, opts.keepaliveMs);
    keepalive.unref();
    res.body.on('data', (chunk: Buffer) => {
      if (done) return;
      heard = Date.now();
      let frames;
      try {
        frames = parser.push(chunk);
      } catch (e) {
        if (!(e instanceof SseFrameTooLarge)) throw e;
        discard(res.body);
        return finish({ notFound: false, reason: `an upstream frame was larger than ${opts.maxFrameBytes} bytes` });
      }
      for (const frame of frames) {
        if (done) return;
        if (frame.event === 'connected') on.subscribed(sub);
        else if (frame.event === 'event') {
          const event = parse(frame.data, opts.warn);
          if (event && typeof event.type === 'string') on.event(event, frame.data.length);
        }
      }
    });
    res.body.once('end', () => finish({ notFound: false, reason: 'the upstream ended the stream' }));
    res.body.once('close', () => finish({ notFound: false, reason: 'the upstream closed the stream' }));
  }

  return { change: () => false, close: () => ((done = true), clearInterval(keepalive), abort.abort()) };
}

/** The `error` of a refusal's JSON body (`{"error": "..."}`), if that is what it is. */
function refusalText(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = typeof parsed === 'object' && parsed !== null ? (parsed as { error?: unknown }).error : undefined;
    return typeof error === 'string' ? error : undefined;
  } catch {
    return undefined;
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
