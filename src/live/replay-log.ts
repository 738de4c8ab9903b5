/**
 * The durable log of the local chain's finalized streaming events, for resumption: one SQLite table beside the
 * chain's database, the newest `retention` events kept under increasing positions (a cursor is the position as a
 * decimal string). An event the chain can build again is kept as what identifies it, not as its JSON: a trace's
 * `transactions`, `actions` and `trace` events as the trace's root and the masterchain block that sealed that
 * stage of it, an `account_state_change` as the transaction it follows; a replay builds them again through the
 * feed's `rebuild`. Anything else (`jettons_change`, whose row is of a moment, `trace_invalidated`) is kept as JSON.
 * Every row written notes the masterchain block whose seal it follows, so that when the chain is rewound past
 * that block (a restored checkpoint, a reset) `forgetAfter` drops it; positions go on increasing, never reused.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { LiveCursorTooOld, type LiveEvent } from './feed.js';

/** Rows read per step of a replay; the event loop turns between steps. */
const REPLAY_STEP = 256;

/** What identifies a finalized event the chain can build again. */
export type EventRef =
  /** one of a trace's events as it stood when masterchain block `mc` sealed it (its transactions sealed by then) */
  | { readonly type: 'transactions' | 'actions' | 'trace'; readonly root: string; readonly mc: number }
  /** the state after transaction `tx` (hex hash), the last of its account in that seal */
  | { readonly type: 'account_state_change'; readonly tx: string };

/** An event to log: by reference when the chain can build it again. */
export interface LogItem {
  readonly event: LiveEvent;
  readonly ref?: EventRef;
}

/** A logged event as read back: kept whole, or by reference. */
export type Logged = { readonly event: LiveEvent } | { readonly ref: EventRef };

/**
 * Builds logged events back, one answer per entry in order (an event kept whole is passed through); undefined
 * for one that can no longer be built, which the replay then leaves out.
 */
export type Rebuild = (entries: readonly Logged[]) => Promise<(LiveEvent | undefined)[]>;

/** Column `kind` of a referenced row; a row without one holds its event's JSON. */
const KINDS = ['transactions', 'actions', 'trace', 'account_state_change'] as const;

interface Row {
  pos: number;
  json: string | null;
  kind: number | null;
  ref: Buffer | null;
  mc: number | null;
}

export class ReplayLog {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[number, string | null, number | null, Buffer | null, number | null]>;
  private readonly trim: Database.Statement<[number]>;
  private readonly forget: Database.Statement<[number]>;
  private readonly after: Database.Statement<[number, number], Row>;
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
    const columns = this.db.prepare('PRAGMA table_info(events)').all() as { name: string }[];
    // a log written before events were kept by reference (json NOT NULL, no kind): its rows keep their JSON
    const older = columns.length > 0 && !columns.some((c) => c.name === 'kind');
    this.db.transaction(() => {
      if (older) this.db.exec('ALTER TABLE events RENAME TO events_json');
      this.db.exec('CREATE TABLE IF NOT EXISTS events (pos INTEGER PRIMARY KEY, json TEXT, kind INTEGER, ref BLOB, mc INTEGER)');
      if (older) this.db.exec('INSERT INTO events (pos, json) SELECT pos, json FROM events_json; DROP TABLE events_json');
    })();
    this.insert = this.db.prepare('INSERT INTO events (pos, json, kind, ref, mc) VALUES (?, ?, ?, ?, ?)');
    this.trim = this.db.prepare('DELETE FROM events WHERE pos <= ?');
    this.forget = this.db.prepare('DELETE FROM events WHERE mc > ?');
    this.after = this.db.prepare('SELECT pos, json, kind, ref, mc FROM events WHERE pos > ? ORDER BY pos LIMIT ?');
    this.oldestRow = this.db.prepare('SELECT MIN(pos) AS pos FROM events');
    this.last = (this.db.prepare('SELECT MAX(pos) AS pos FROM events').get() as { pos: number | null }).pos ?? 0;
  }

  /** Appends the finalized events of masterchain block `mc`'s seal (one database transaction); returns them with their cursors. */
  append(items: readonly LogItem[], mc: number): LiveEvent[] {
    const out = items.map((i) => ({ ...i, event: { ...i.event, cursor: String(++this.last) } }));
    this.db.transaction(() => {
      for (const { event, ref } of out) {
        const pos = Number(event.cursor);
        if (!ref) this.insert.run(pos, JSON.stringify(event), null, null, mc);
        else if (ref.type === 'account_state_change') this.insert.run(pos, null, KINDS.indexOf(ref.type), Buffer.from(ref.tx, 'hex'), mc);
        else this.insert.run(pos, null, KINDS.indexOf(ref.type), Buffer.from(ref.root, 'hex'), ref.mc);
      }
      this.sinceTrim += out.length;
      // trimmed in steps, so a busy chain does not delete on every block
      if (this.sinceTrim >= Math.max(1, this.retention >> 4)) {
        this.sinceTrim = 0;
        this.trim.run(this.last - this.retention);
      }
    })();
    return out.map((i) => i.event);
  }

  /** The newest position written (0 for a log never written): a cursor a consumer made now resumes from. */
  head(): string {
    return String(this.last);
  }

  /** Drops the events of seals after masterchain block `mc`: the chain no longer holds them. */
  forgetAfter(mc: number): void {
    this.forget.run(mc);
  }

  /** The oldest position still held, or undefined when the log is empty. */
  oldest(): number | undefined {
    return this.oldestRow.get()?.pos ?? undefined;
  }

  /**
   * Sends every event after `cursor`, in order, reading a step at a time until it reaches the end; `rebuild`
   * makes each step's events from what was kept of them.
   */
  async replay(cursor: string, deliver: (e: LiveEvent) => void, rebuild: Rebuild): Promise<void> {
    const from = /^\d{1,15}$/.test(cursor) ? Number(cursor) : NaN;
    const oldest = this.oldest();
    const oldestCursor = oldest === undefined ? undefined : String(oldest);
    if (Number.isNaN(from)) throw new LiveCursorTooOld(oldestCursor);
    // a cursor from before the oldest held (less one: the event right before it was seen) cannot be replayed whole
    if (from < this.last && (oldest === undefined || from < oldest - 1)) throw new LiveCursorTooOld(oldestCursor);
    let pos = from;
    for (;;) {
      const rows = this.after.all(pos, REPLAY_STEP);
      const events = await rebuild(rows.map(entryOf));
      events.forEach((e, i) => e && deliver({ ...e, cursor: String(rows[i]!.pos) }));
      if (rows.length < REPLAY_STEP) return;
      pos = rows[rows.length - 1]!.pos;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  close(): void {
    this.db.close();
  }
}

function entryOf(row: Row): Logged {
  if (row.kind === null) return { event: JSON.parse(row.json!) as LiveEvent };
  const type = KINDS[row.kind]!;
  const hex = row.ref!.toString('hex');
  return { ref: type === 'account_state_change' ? { type, tx: hex } : { type, root: hex, mc: row.mc! } };
}
