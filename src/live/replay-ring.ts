/**
 * Cursors for an upstream's finalized events, which carry none: a monotonic sequence of this process (prefixed
 * by when the process started, so a cursor from an earlier run is recognised as unreplayable), and the latest
 * finalized events kept in memory, bounded in bytes, so a client of this replica can resume after a cursor.
 */
import { LiveCursorTooOld, type LiveEvent } from './feed.js';

interface Held {
  seq: number;
  event: LiveEvent;
  bytes: number;
}

export class ReplayRing {
  private readonly epoch = Date.now().toString(36);
  private held: Held[] = [];
  /** index of the oldest held entry in `held` (entries before it are dropped lazily) */
  private head = 0;
  private bytes = 0;
  private seq = 0;

  constructor(private readonly maxBytes: number) {}

  /** The event with its cursor, kept for replay; `bytes` is its size on the wire. */
  add(event: LiveEvent, bytes: number): LiveEvent {
    const seq = ++this.seq;
    const withCursor: LiveEvent = { ...event, cursor: `${this.epoch}-${seq}` };
    this.held.push({ seq, event: withCursor, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.head < this.held.length) this.bytes -= this.held[this.head++]!.bytes;
    if (this.head > 1024 && this.head * 2 > this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
    return withCursor;
  }

  /** The oldest cursor that can be resumed from, if any. */
  get oldest(): string | undefined {
    const first = this.held[this.head];
    return first ? first.event.cursor : undefined;
  }

  /**
   * Every held event after `cursor`, up to the newest delivered so far, in order. A cursor of another run, a
   * malformed one, or one older than the oldest held (events between were dropped) throws LiveCursorTooOld.
   */
  after(cursor: string): LiveEvent[] {
    const m = /^([0-9a-z]+)-(\d+)$/.exec(cursor);
    const seq = m && m[1] === this.epoch ? Number(m[2]) : NaN;
    const first = this.held[this.head];
    // resuming from the cursor just before the oldest held loses nothing; older ones did
    const oldestResumable = first ? first.seq - 1 : this.seq;
    if (!(seq >= oldestResumable && seq <= this.seq)) throw new LiveCursorTooOld(this.oldest);
    if (!first) return [];
    return this.held.slice(this.head + Math.max(0, seq - first.seq + 1)).map((h) => h.event);
  }
}
