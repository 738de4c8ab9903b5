/**
 * What a streaming transport holds for one client: everything it is to be sent (events, and the answers to its
 * own messages alike) waits here in order, and goes to its socket only while the socket holds less than a little
 * unread, so what the client has not read is known to the byte, and an event shared by many clients is held once.
 *
 * - unread(): bytes queued here plus what the socket has not handed to the kernel yet.
 * - A client found more than `maxBytes` behind when something more is queued is a slow consumer: the queue is
 *   dropped and `overflow` is called (the transport closes it); one item larger than the bound is still let through.
 * - below(bytes): resolves once the client has read down to `bytes` unread (a replay waits on it), or rejects when
 *   the outbox is closed first.
 */
import type { Payload } from './hub.js';

/** The socket an outbox writes to (a net.Socket, or the HTTP response's socket), as far as it is used. */
export interface OutboxSocket {
  write(chunk: Buffer): boolean;
  readonly writableLength: number;
  readonly destroyed: boolean;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

export interface OutboxOptions {
  /** the bytes one client may leave unread before it is a slow consumer */
  maxBytes: number;
  /** how a payload goes on this transport's wire (a WebSocket frame, an SSE chunk) */
  frame(p: Payload): Buffer;
  /** Called once, when the client is found past `maxBytes`; the queue is already dropped. */
  overflow(unread: number): void;
  /** Told the unread bytes after each change (the server-wide budget). */
  report?(bytes: number): void;
}

/** Bytes handed to the socket at a time: past them the rest waits here, where it is counted and can be dropped. */
const SOCKET_SHARE = 64 * 1024;

/** Thrown to whoever waits on a closed outbox (a replay: its client is gone). */
export class OutboxClosed extends Error {
  constructor() {
    super('the client is gone');
    this.name = 'OutboxClosed';
  }
}

export class Outbox {
  private readonly queue: Buffer[] = [];
  /** index of the next item to write (items before it are written) */
  private head = 0;
  private queued = 0;
  private closed = false;
  private waiters: { bytes: number; resolve: () => void; reject: (e: Error) => void }[] = [];

  constructor(
    private readonly socket: OutboxSocket,
    private readonly opts: OutboxOptions,
  ) {
    socket.on('drain', this.flush);
    socket.on('close', this.close);
  }

  /** Bytes the client has been sent and not read yet, as far as this process knows. */
  unread(): number {
    return this.queued + this.socket.writableLength;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues a payload (an event, or an answer to the client's own message) in this transport's form. */
  send(p: Payload): void {
    this.push(this.opts.frame(p));
  }

  /** Queues bytes already in this transport's form. */
  push(bytes: Buffer): void {
    if (this.closed) return;
    const before = this.unread();
    if (before > this.opts.maxBytes) {
      this.drop();
      this.opts.overflow(before);
      return;
    }
    this.queue.push(bytes);
    this.queued += bytes.length;
    this.flush();
  }

  /** Resolves once at most `bytes` are unread; rejects with OutboxClosed if the outbox closes first. */
  below(bytes: number): Promise<void> {
    if (this.closed) return Promise.reject(new OutboxClosed());
    if (this.unread() <= bytes) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ bytes, resolve, reject }));
  }

  /** Forgets what is queued and not yet written (the client is being closed). */
  drop(): void {
    this.queue.length = 0;
    this.head = 0;
    this.queued = 0;
    this.opts.report?.(this.unread());
  }

  /** Ends the outbox: nothing more is written, and waiters are told. */
  readonly close = (): void => {
    if (this.closed) return;
    this.closed = true;
    this.drop();
    this.socket.off('drain', this.flush);
    this.socket.off('close', this.close);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(new OutboxClosed());
  };

  private readonly flush = (): void => {
    const s = this.socket;
    while (this.head < this.queue.length && s.writableLength < SOCKET_SHARE && !s.destroyed) {
      const bytes = this.queue[this.head]!;
      this.queue[this.head++] = EMPTY;
      this.queued -= bytes.length;
      s.write(bytes);
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    const unread = this.unread();
    this.opts.report?.(unread);
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => unread <= w.bytes);
      if (ready.length > 0) {
        this.waiters = this.waiters.filter((w) => unread > w.bytes);
        for (const w of ready) w.resolve();
      }
    }
  };
}

const EMPTY = Buffer.alloc(0);
