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

/** Rows read per step of a replay. */
const REPLAY_STEP = 256;
/**
 * Rows built again at a time (a trace's events, which are built together, are never split): what a replay holds
 * ahead of its client, and what it builds for nothing when its client goes.
 */
const REBUILD_STEP = 8;

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
    // positions are taken only once written, so a failed write leaves no hole a replay would read as a gap
    const out = items.map((i, k) => ({ ...i, event: { ...i.event, cursor: String(this.last + k + 1) } }));
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
        this.trim.run(this.last + out.length - this.retention);
      }
    })();
    this.last += out.length;
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
   * makes the events from what was kept of them, a few rows at a time, each sent before more are made and after
   * what `deliver` returned has settled (the client's backpressure). A replay that cannot be complete is refused
   * with LiveCursorTooOld naming the oldest event it could replay: a cursor older than the log (less one: the
   * event right before the oldest was seen), newer than anything written, or one whose events were trimmed while
   * the replay ran. An event that can no longer be built (its seal was rewound meanwhile) is left out.
   */
  async replay(cursor: string, deliver: (e: LiveEvent) => unknown, rebuild: Rebuild): Promise<void> {
    const from = /^\d{1,15}$/.test(cursor) ? Number(cursor) : NaN;
    const refused = () => {
      const oldest = this.oldest();
      return new LiveCursorTooOld(oldest === undefined ? undefined : String(oldest));
    };
    const oldest = this.oldest();
    if (Number.isNaN(from) || from > this.last) throw refused();
    if (from < this.last && (oldest === undefined || from < oldest - 1)) throw refused();
    let pos = from;
    for (;;) {
      const rows = this.after.all(pos, REPLAY_STEP);
      if (rows.length === 0) return;
      for (const group of groups(rows)) {
        // a hole is a rewind's (forgotten seals) unless the log's start has passed it: then it was trimmed since
        if (group[0]!.pos !== pos + 1 && (this.oldest() ?? Infinity) > pos + 1) throw refused();
        const events = await rebuild(group.map(entryOf));
        for (const [i, e] of events.entries()) {
          const at = group[i]!.pos;
          pos = at;
          if (e) await deliver({ ...e, cursor: String(at) });
        }
      }
      if (rows.length < REPLAY_STEP) return;
    }
  }

  close(): void {
    this.db.close();
  }
}

/** The rows in runs of about REBUILD_STEP, never splitting the events of one trace stage. */
function* groups(rows: Row[]): Generator<Row[]> {
  let group: Row[] = [];
  const stage = (r: Row) => (r.kind === null || r.mc === null ? undefined : `${r.ref!.toString('hex')}:${r.mc}`);
  for (const r of rows) {
    const last = group.at(-1);
    if (group.length >= REBUILD_STEP && (stage(r) === undefined || stage(r) !== stage(last!))) {
      yield group;
      group = [];
    }
    group.push(r);
  }
  if (group.length > 0) yield group;
}

function entryOf(row: Row): Logged {
  if (row.kind === null) return { event: JSON.parse(row.json!) as LiveEvent };
  const type = KINDS[row.kind]!;
  const hex = row.ref!.toString('hex');
  return { ref: type === 'account_state_change' ? { type, tx: hex } : { type, root: hex, mc: row.mc! } };
}
