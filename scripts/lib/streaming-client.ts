/**
 * A minimal Streaming API v2 client, as a toncenter streaming client would be written: SSE with fetch (POST a
 * JSON body, read `event:` / `data:` / `id:` frames, ignore `:` comments) and WebSocket with `ws`. Used by the
 * streaming tests and the streaming benchmark.
 */
import WebSocket from 'ws';
import { SseParser } from '../../src/sources/upstream/sse-frames.js';

/** the most one frame may hold (far above any event the tests and the benchmark see) */
const FRAME_LIMIT = 64 * 1024 * 1024;

export interface Frame {
  /** SSE `event:` (`connected`, `event`); `ws` for a WebSocket frame */
  event: string;
  data: any;
  /** SSE `id:` line */
  id?: string;
  /** when it was read (performance.now()) */
  at: number;
}

/** Frames as they arrive, read one at a time with a timeout. */
class Inbox {
  readonly frames: Frame[] = [];
  private read = 0;
  private wake?: () => void;
  ended = false;
  comments = 0;

  push(f: Frame): void {
    this.frames.push(f);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** The next frame that passes `match`; rejects after `timeoutMs`. */
  async next(match: (f: Frame) => boolean = () => true, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.read < this.frames.length) {
        const f = this.frames[this.read++]!;
        if (match(f)) return f;
      }
      if (this.ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          this.wake = undefined;
          resolve();
        };
      });
    }
  }
}

export class SseClient extends Inbox {
  status = 0;
  headers?: Headers;
  /** the body of a refusal */
  error?: any;
  private constructor(private readonly abort: AbortController) {
    super();
  }

  static async open(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SseClient> {
    const abort = new AbortController();
    const c = new SseClient(abort);
    const res = await fetch(`${url}/api/streaming/v2/sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: abort.signal,
    });
    c.status = res.status;
    c.headers = res.headers;
    if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
      c.error = await res.json().catch(() => undefined);
      c.end();
      return c;
    }
    void c.pump(res);
    return c;
  }

  private async pump(res: Response): Promise<void> {
    const parser = new SseParser(FRAME_LIMIT);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (const f of parser.push(Buffer.from(chunk))) {
          this.push({ event: f.event, data: JSON.parse(f.data), ...(f.id !== undefined ? { id: f.id } : {}), at: performance.now() });
        }
        this.comments = parser.comments;
      }
    } catch {
      // aborted by close()
    }
    this.end();
  }

  close(): void {
    this.abort.abort();
  }
}

export class WsClient extends Inbox {
  closeCode?: number;
  private constructor(readonly socket: WebSocket) {
    super();
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/streaming/v2/ws`, { headers });
    const c = new WsClient(socket);
    socket.on('message', (data: Buffer) => c.push({ event: 'ws', data: JSON.parse(data.toString('utf8')), at: performance.now() }));
    socket.on('close', (code) => {
      c.closeCode = code;
      c.end();
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(c));
      socket.once('error', reject);
    });
  }

  send(o: unknown): void {
    this.socket.send(typeof o === 'string' ? o : JSON.stringify(o));
  }

  /** Sends a request and waits for the reply carrying its id. */
  async request(o: Record<string, unknown> & { id: string }, timeoutMs = 10_000): Promise<any> {
    this.send(o);
    return (await this.next((f) => f.data?.id === o.id, timeoutMs)).data;
  }

  close(): void {
    this.socket.close();
  }
}
