/**
 * The durable log of the local chain's finalized streaming events, for resumption: one SQLite table beside the
 * chain's database, each event its JSON text under an increasing position (its cursor), the newest
 * `retention` events kept. A cursor is the position as a decimal string.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StreamCursorTooOld, type WireEvent } from '../../api/stream-feed.js';

/** Rows read per step of a replay; the event loop turns between steps. */
const REPLAY_STEP = 256;

export class StreamLog {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[number, string]>;
  private readonly trim: Database.Statement<[number]>;
  private readonly after: Database.Statement<[number, number], { pos: number; json: string }>;
  private readonly oldestRow: Database.Statement<[], { pos: number } | undefined>;
  private last: number;
  private sinceTrim = 0;

  constructor(
    dir: string,
    private readonly retention: number,
  ) {
    this.db = new Database(join(dir, 'stream-events.db'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS events (pos INTEGER PRIMARY KEY, json TEXT NOT NULL)');
    this.insert = this.db.prepare('INSERT INTO events (pos, json) VALUES (?, ?)');
    this.trim = this.db.prepare('DELETE FROM events WHERE pos <= ?');
    this.after = this.db.prepare('SELECT pos, json FROM events WHERE pos > ? ORDER BY pos LIMIT ?');
    this.oldestRow = this.db.prepare('SELECT MIN(pos) AS pos FROM events');
    this.last = (this.db.prepare('SELECT MAX(pos) AS pos FROM events').get() as { pos: number | null }).pos ?? 0;
  }

  /** Appends finalized events (one database transaction); returns them with their cursors. */
  append(events: WireEvent[]): WireEvent[] {
    const out = events.map((e) => ({ ...e, cursor: String(++this.last) }));
    this.db.transaction(() => {
      for (const e of out) this.insert.run(Number(e.cursor), JSON.stringify(e));
      this.sinceTrim += out.length;
      // trimmed in steps, so a busy chain does not delete on every block
      if (this.sinceTrim >= Math.max(1, this.retention >> 4)) {
        this.sinceTrim = 0;
        this.trim.run(this.last - this.retention);
      }
    })();
    return out;
  }

  /** The oldest position still held, or undefined when the log is empty. */
  oldest(): number | undefined {
    return this.oldestRow.get()?.pos ?? undefined;
  }

  /**
   * Sends every event after `cursor`, in order, reading a step at a time until it reaches the end; `fill`
   * completes each step's events first.
   */
  async replay(cursor: string, deliver: (e: WireEvent) => void, fill?: (events: WireEvent[]) => Promise<WireEvent[]>): Promise<void> {
    const from = /^\d{1,15}$/.test(cursor) ? Number(cursor) : NaN;
    const oldest = this.oldest();
    const oldestCursor = oldest === undefined ? undefined : String(oldest);
    if (Number.isNaN(from)) throw new StreamCursorTooOld(oldestCursor);
    // a cursor from before the oldest held (less one: the event right before it was seen) cannot be replayed whole
    if (from < this.last && (oldest === undefined || from < oldest - 1)) throw new StreamCursorTooOld(oldestCursor);
    let pos = from;
    for (;;) {
      const rows = this.after.all(pos, REPLAY_STEP);
      const events = rows.map((r) => JSON.parse(r.json) as WireEvent);
      for (const e of fill ? await fill(events) : events) deliver(e);
      if (rows.length < REPLAY_STEP) return;
      pos = rows[rows.length - 1]!.pos;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  close(): void {
    this.db.close();
  }
}
