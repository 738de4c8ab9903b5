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
  /** the position of the newest event dropped for the bound */
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  /** The event with its cursor, kept for replay; `bytes` is its size on the wire. */
  add(event: LiveEvent, bytes: number): LiveEvent {
    const seq = ++this.seq;
    const withCursor: LiveEvent = { ...event, cursor: this.cursorAt(seq) };
    this.held.push({ seq, event: withCursor, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes && this.head < this.held.length) {
      const gone = this.held[this.head++]!;
      this.bytes -= gone.bytes;
      this.dropped = gone.seq;
    }
    if (this.head > 1024 && this.head * 2 > this.held.length) {
      this.held = this.held.slice(this.head);
      this.head = 0;
    }
    return withCursor;
  }

  /**
   * A position of its own, after every event added so far and before any added later: a mark no event's cursor
   * equals, so a cursor before it is told apart from one a client was given for it.
   */
  mark(): number {
    return ++this.seq;
  }

  /** The oldest position a resume loses nothing from: that of the newest event dropped (its successors are held). */
  get floor(): number {
    return this.dropped;
  }

  /** The cursor of a position. */
  cursorAt(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  /** The position of one of this run's cursors, else undefined. */
  positionOf(cursor: string): number | undefined {
    const m = /^([0-9a-z]+)-(\d+)$/.exec(cursor);
    return m && m[1] === this.epoch ? Number(m[2]) : undefined;
  }

  /** The cursor of the newest event added (or of none yet): resuming from it replays what comes after. */
  get newest(): string {
    return `${this.epoch}-${this.seq}`;
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
    const seq = this.positionOf(cursor) ?? NaN;
    if (!(seq >= this.floor && seq <= this.seq)) throw new LiveCursorTooOld(this.oldest);
    // the first held after it (positions increase, with marks between them)
    let lo = this.head;
    let hi = this.held.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.held[mid]!.seq > seq) hi = mid;
      else lo = mid + 1;
    }
    return this.held.slice(lo).map((h) => h.event);
  }
}
