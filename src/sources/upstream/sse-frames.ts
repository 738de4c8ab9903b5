/**
 * Server-sent events read from a byte stream (the WHATWG event-stream format, as toncenter's Streaming API v2
 * writes it: `event:`, `data:` and `id:` lines, `:` comments for keepalives, a blank line ending each frame), with
 * the bytes of one line and of one frame's data bounded: an upstream that never ends a line cannot grow the buffer.
 * The gateway's upstream stream consumer reads with it, and so do its own test and benchmark clients.
 */

export interface SseFrame {
  /** `message` when the frame named none */
  event: string;
  data: string;
  /** the frame's `id:` line, when it had one (the cursor a reconnect sends as `Last-Event-ID`) */
  id?: string;
}

/** A line or a frame's data longer than the bound; the stream it came from is to be closed. */
export class SseFrameTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`an upstream event frame is larger than ${limit} bytes`);
    this.name = 'SseFrameTooLarge';
  }
}

const LF = 0x0a;

export class SseParser {
  /** the unterminated line so far, as received */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private event = '';
  private id: string | undefined;
  private data: string[] = [];
  /** `:` comment lines seen (keepalives) */
  comments = 0;
  private dataBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Feeds a chunk; returns the frames it completed. Throws SseFrameTooLarge past the bound. */
  push(chunk: Buffer): SseFrame[] {
    const frames: SseFrame[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(LF, start); nl >= 0; nl = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, nl);
      this.grow(piece.length);
      const line = this.partialBytes === piece.length ? piece : Buffer.concat([...this.partial, piece], this.partialBytes);
      this.partial = [];
      this.partialBytes = 0;
      start = nl + 1;
      const frame = this.line(line.toString('utf8'));
      if (frame) frames.push(frame);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.grow(rest.length);
      // a copy: the caller's chunk is not held past this call
      this.partial.push(Buffer.from(rest));
    }
    return frames;
  }

  private grow(n: number): void {
    this.partialBytes += n;
    if (this.partialBytes > this.maxBytes) {
      this.partial = [];
      throw new SseFrameTooLarge(this.maxBytes);
    }
  }

  private line(raw: string): SseFrame | undefined {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.comments++;
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1);
    if (field === 'event') this.event = value;
    else if (field === 'id') this.id = value;
    else if (field === 'data') {
      this.dataBytes += value.length + 1;
      if (this.dataBytes > this.maxBytes) {
        this.data = [];
        this.dataBytes = 0;
        throw new SseFrameTooLarge(this.maxBytes);
      }
      this.data.push(value);
    }
    return undefined;
  }

  private dispatch(): SseFrame | undefined {
    const frame: SseFrame | undefined = this.data.length
      ? { event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) }
      : undefined;
    this.event = '';
    this.id = undefined;
    this.data = [];
    this.dataBytes = 0;
    return frame;
  }
}
