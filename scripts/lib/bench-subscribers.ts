/**
 * Streaming API v2 subscribers as light as a separate subscriber machine would be, for the streaming benchmark:
 * many in one process, each costing its process as little as a real one costs its own.
 *
 * - SSE over a bare `net` socket: the request written by hand (HTTP/1.1, POST with a JSON body), the chunked
 *   body undone here and its frames read with the gateway's own SSE parser. WebSocket with `ws`.
 * - A frame's arrival time is taken in the socket's `data` callback, before anything is parsed: each callback only
 *   stamps and keeps the chunk, and the chunks are taken apart after the poll phase (setImmediate), so reading one
 *   socket does not delay the stamp of the next by its parsing. An event's time is that of the chunk completing it.
 * - Event texts are kept as received; the caller parses and checks them once every subscriber has its event.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { SseParser } from '../../src/sources/upstream/sse-frames.js';

const now = (): number => performance.timeOrigin + performance.now();

/** one event as one subscriber received it */
export interface Arrival {
  /** when its last byte was read (ms since the epoch, fractional) */
  at: number;
  text: string;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const FRAME_LIMIT = 64 * 1024 * 1024;

/** An HTTP/1.1 chunked body taken apart (RFC 9112 §7.1), chunk extensions and trailers ignored. */
class Dechunker {
  private buf: Buffer = Buffer.alloc(0);
  /** bytes of the current chunk still to come; -1 while reading a size line */
  private left = -1;
  /** the CRLF after a chunk's data is still to be skipped */
  private skipCrlf = false;

  push(chunk: Buffer): Buffer[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    for (;;) {
      if (this.skipCrlf) {
        if (this.buf.length < 2) break;
        this.buf = this.buf.subarray(2);
        this.skipCrlf = false;
      }
      if (this.left < 0) {
        const eol = this.buf.indexOf(CRLF);
        if (eol < 0) break;
        this.left = parseInt(this.buf.subarray(0, eol).toString('latin1').split(';')[0]!, 16);
        if (!Number.isFinite(this.left)) throw new Error('bad chunk size line');
        this.buf = this.buf.subarray(eol + 2);
        if (this.left === 0) throw new Error('the stream ended');
      }
      if (this.buf.length === 0) break;
      const take = Math.min(this.left, this.buf.length);
      out.push(this.buf.subarray(0, take));
      this.buf = this.buf.subarray(take);
      this.left -= take;
      if (this.left === 0) {
        this.left = -1;
        this.skipCrlf = true;
      }
    }
    if (this.buf.length) this.buf = Buffer.from(this.buf);
    return out;
  }
}

/** Subscribers whose chunks wait to be taken apart after this poll phase. */
const dirty: Subscriber[] = [];
let flushScheduled = false;

function markDirty(s: Subscriber): void {
  dirty.push(s);
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    const list = dirty.splice(0);
    for (const x of list) x.flush();
  });
}

export abstract class Subscriber {
  /** events received (not the SSE `connected` frame nor WebSocket replies) */
  readonly events: Arrival[] = [];
  /** called after each event is kept */
  onEvent?: (s: Subscriber) => void;
  protected failed?: (e: Error) => void;

  /** Takes apart what arrived since the last poll phase. */
  abstract flush(): void;

  protected received(text: string, at: number): void {
    this.events.push({ at, text });
    this.onEvent?.(this);
  }

  abstract close(): void;
}

/** SSE over a bare socket; `ready` resolves at the `connected` frame. */
export class SseSubscriber extends Subscriber {
  readonly ready: Promise<void>;
  private readonly socket: net.Socket;
  private head: Buffer | undefined = Buffer.alloc(0);
  private readonly body = new Dechunker();
  private readonly parser = new SseParser(FRAME_LIMIT);
  private connected?: () => void;
  private chunks: Buffer[] = [];
  private stamps: number[] = [];

  /** the socket's data callback: stamp and keep, nothing more */
  private readonly arrive = (chunk: Buffer): void => {
    this.stamps.push(now());
    if (this.chunks.push(chunk) === 1) markDirty(this);
  };

  constructor(url: string, subscription: object) {
    super();
    const u = new URL(url);
    const body = JSON.stringify(subscription);
    this.socket = net.connect({ host: u.hostname, port: Number(u.port), noDelay: true });
    this.socket.on('data', this.arrive);
    this.ready = new Promise((resolve, reject) => {
      this.connected = resolve;
      this.failed = reject;
      this.socket.once('error', reject);
      this.socket.once('close', () => reject(new Error('SSE socket closed')));
    });
    this.socket.write(
      `POST /api/streaming/v2/sse HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  flush(): void {
    const chunks = this.chunks;
    const stamps = this.stamps;
    this.chunks = [];
    this.stamps = [];
    try {
      for (let i = 0; i < chunks.length; i++) this.take(chunks[i]!, stamps[i]!);
    } catch (e) {
      this.failed?.(e as Error);
    }
  }

  private take(chunk: Buffer, at: number): void {
    if (this.head) {
      const all = Buffer.concat([this.head, chunk]);
      const end = all.indexOf(HEAD_END);
      if (end < 0) return void (this.head = all);
      const head = all.subarray(0, end).toString('latin1');
      if (!/^HTTP\/1\.1 200 /.test(head) || !/\r\ntransfer-encoding: chunked/i.test(head)) throw new Error(`SSE refused: ${all.toString('utf8')}`);
      this.head = undefined;
      chunk = all.subarray(end + 4);
    }
    for (const piece of this.body.push(chunk)) {
      for (const f of this.parser.push(piece)) {
        if (f.event === 'connected') this.connected?.();
        else this.received(f.data, at);
      }
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** WebSocket with `ws`; its socket's data callback stamps before ws reads the frames in that chunk. */
export class WsSubscriber extends Subscriber {
  readonly ready: Promise<void>;
  private readonly ws: WebSocket;
  private replied?: (data: { status?: string }) => void;
  private lastAt = 0;
  private messages: Buffer[] = [];
  private stamps: number[] = [];

  constructor(url: string, subscription: object) {
    super();
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/streaming/v2/ws`, {
      perMessageDeflate: false,
      createConnection: (opts: object) => {
        const socket = net.connect(opts as net.NetConnectOpts);
        socket.setNoDelay(true);
        // added before ws's own listener, so it runs first for every chunk
        socket.on('data', () => (this.lastAt = now()));
        return socket;
      },
    });
    // ws emits a message synchronously in the data callback of the chunk completing it
    this.ws.on('message', (data: Buffer) => {
      this.stamps.push(this.lastAt);
      if (this.messages.push(data) === 1) markDirty(this);
    });
    this.ready = new Promise((resolve, reject) => {
      this.failed = reject;
      this.replied = (r) => (r.status === 'subscribed' ? resolve() : reject(new Error(`WS subscribe refused: ${JSON.stringify(r)}`)));
      this.ws.once('error', reject);
      this.ws.once('close', (code) => reject(new Error(`WS closed ${code}`)));
      this.ws.once('open', () => this.ws.send(JSON.stringify({ id: 's', operation: 'subscribe', ...subscription })));
    });
  }

  flush(): void {
    const messages = this.messages;
    const stamps = this.stamps;
    this.messages = [];
    this.stamps = [];
    for (let i = 0; i < messages.length; i++) {
      const text = messages[i]!.toString('utf8');
      if (this.replied) {
        this.replied(JSON.parse(text) as { status?: string });
        this.replied = undefined;
      } else this.received(text, stamps[i]!);
    }
  }

  close(): void {
    this.ws.terminate();
  }
}
