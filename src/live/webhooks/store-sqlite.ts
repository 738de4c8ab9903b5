/**
 * Webhooks in SQLite (DIR/webhooks.db, WAL): one row per webhook (what its owner set as JSON, the delivery state
 * in columns) and its newest deliveries. A process killed at any moment leaves every committed write: at worst
 * the last acknowledged events are sent again after the restart, never skipped.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DeliveryEntry, WebhookProgress, WebhookRecord } from './spec.js';
import type { WebhookStore } from './store.js';

interface Row {
  id: string;
  owner: string;
  config: string;
  rev: number;
  paused: number;
  cursor: string | null;
  failed_cursor: string | null;
  failed_attempts: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** What the owner set, kept as one JSON column. */
type Config = Pick<WebhookRecord, 'url' | 'secret' | 'filter'>;

const recordOf = (r: Row): WebhookRecord => {
  const c = JSON.parse(r.config) as Config;
  return {
    id: r.id,
    owner: r.owner,
    url: c.url,
    secret: c.secret,
    filter: c.filter,
    paused: r.paused === 1,
    cursor: r.cursor,
    failedCursor: r.failed_cursor,
    failedAttempts: r.failed_attempts,
    lastError: r.last_error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    rev: r.rev,
  };
};

export class SqliteStore implements WebhookStore {
  readonly description: string;
  readonly shared = false;
  private readonly db: Database.Database;
  private readonly stmts: {
    all: Database.Statement<[], Row>;
    get: Database.Statement<[string], Row>;
    put: Database.Statement<[string, string, string, number, number, string | null, string | null, number, string | null, number, number]>;
    remove: Database.Statement<[string]>;
    removeLog: Database.Statement<[string]>;
    progress: Database.Statement<[number, string | null, string | null, number, string | null, number, string, number]>;
    log: Database.Statement<[string, string]>;
    trim: Database.Statement<[string, string, number]>;
    deliveries: Database.Statement<[string, number], { entry: string }>;
  };

  constructor(dir: string) {
    const path = join(dir, 'webhooks.db');
    this.description = `sqlite ${path}`;
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS webhooks (
        id TEXT PRIMARY KEY, owner TEXT NOT NULL, config TEXT NOT NULL, rev INTEGER NOT NULL, paused INTEGER NOT NULL,
        cursor TEXT, failed_cursor TEXT, failed_attempts INTEGER NOT NULL, last_error TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS deliveries (seq INTEGER PRIMARY KEY, hook TEXT NOT NULL, entry TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS deliveries_hook ON deliveries (hook, seq);`);
    this.stmts = {
      all: this.db.prepare('SELECT * FROM webhooks ORDER BY created_at, id'),
      get: this.db.prepare('SELECT * FROM webhooks WHERE id = ?'),
      put: this.db.prepare(
        'INSERT OR REPLACE INTO webhooks (id, owner, config, rev, paused, cursor, failed_cursor, failed_attempts, last_error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      remove: this.db.prepare('DELETE FROM webhooks WHERE id = ?'),
      removeLog: this.db.prepare('DELETE FROM deliveries WHERE hook = ?'),
      progress: this.db.prepare(
        'UPDATE webhooks SET paused = ?, cursor = ?, failed_cursor = ?, failed_attempts = ?, last_error = ?, updated_at = ? WHERE id = ? AND rev = ?',
      ),
      log: this.db.prepare('INSERT INTO deliveries (hook, entry) VALUES (?, ?)'),
      // everything of the hook older than its `keep`-th newest
      trim: this.db.prepare('DELETE FROM deliveries WHERE hook = ? AND seq < (SELECT seq FROM deliveries WHERE hook = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)'),
      deliveries: this.db.prepare('SELECT entry FROM deliveries WHERE hook = ? ORDER BY seq DESC LIMIT ?'),
    };
  }

  async all(): Promise<WebhookRecord[]> {
    return this.stmts.all.all().map(recordOf);
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    const row = this.stmts.get.get(id);
    return row ? recordOf(row) : undefined;
  }

  async put(r: WebhookRecord): Promise<void> {
    const config: Config = { url: r.url, secret: r.secret, filter: r.filter };
    this.stmts.put.run(r.id, r.owner, JSON.stringify(config), r.rev, r.paused ? 1 : 0, r.cursor, r.failedCursor, r.failedAttempts, r.lastError, r.createdAt, r.updatedAt);
  }

  async remove(id: string): Promise<void> {
    this.db.transaction(() => {
      this.stmts.remove.run(id);
      this.stmts.removeLog.run(id);
    })();
  }

  async progress(updates: readonly { id: string; rev: number; progress: WebhookProgress }[]): Promise<void> {
    this.db.transaction(() => {
      for (const { id, rev, progress: p } of updates) {
        this.stmts.progress.run(p.paused ? 1 : 0, p.cursor, p.failedCursor, p.failedAttempts, p.lastError, p.updatedAt, id, rev);
      }
    })();
  }

  async logDeliveries(entries: readonly { id: string; entry: DeliveryEntry }[], keep: number): Promise<void> {
    this.db.transaction(() => {
      const touched = new Set<string>();
      for (const { id, entry } of entries) {
        this.stmts.log.run(id, JSON.stringify(entry));
        touched.add(id);
      }
      for (const id of touched) this.stmts.trim.run(id, id, keep - 1);
    })();
  }

  async deliveries(id: string, limit: number): Promise<DeliveryEntry[]> {
    return this.stmts.deliveries.all(id, limit).map((r) => JSON.parse(r.entry) as DeliveryEntry);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
