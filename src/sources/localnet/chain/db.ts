/**
 * The local chain's database: one SQLite file (better-sqlite3, WAL) holding everything the chain did, from
 * which a restart rebuilds its in-memory index without executing or parsing anything again.
 *
 * Two lifetimes, one engine: with a data dir the file is `DIR/chain.db` (and `DIR/lock` keeps a second server
 * out); without one it lives in a fresh temporary directory that is removed when the chain closes or the
 * process exits.
 *
 * Tables (every row is written once and never changed; `crc` is a CRC-32 over the row's contents, checked on
 * open, because SQLite's own checks see the structure of its pages but not damage inside a stored value):
 *   meta     key/value: `head` (seed, config hash, global id), `ready` (genesis done), `cursor` (sandbox's lt,
 *            the open block's utime, the faucet's transfer counter after the last executed message)
 *   genesis  states injected without a transaction (the faucet at zerostate)
 *   txs      executed transactions in execution order: hash, account, lt, end lt, utime, the parent's row,
 *            message facts (`msgs`, JSON), the transaction BoC and the ShardAccount BoC right after it
 *   blocks   one row per seal: the masterchain block and its shard block (JSON); which transactions a block
 *            holds is in the block, so a transaction row never changes when it is sealed
 *   edits    account states set without a transaction (acton_setShardAccount and the like): the account, how many
 *            transactions had executed and the masterchain seqno when it was set, and the ShardAccount BoC
 *   shelf_*  rows a rewind cut off that a checkpoint beyond the cut still needs (chain/checkpoints.ts), by
 *            checkpoint; checkpoints live as long as the process, so the shelves are emptied on open
 *
 * Rows are appended and never changed; a rewind (a checkpoint restored, unfinalized blocks rolled back) deletes
 * the newest ones, every table's tail in one database transaction.
 * Durability: WAL with synchronous=NORMAL, so a commit reaches the OS at once (a killed process loses nothing
 * committed) and `durable()` resolves once everything committed so far is on disk: one fdatasync of the WAL
 * shared by concurrent callers, off the event loop. A checkpoint syncs the WAL before copying it into the
 * database file and syncs that file after, so data moved out of the WAL is on disk too.
 *
 * Failures (`StorageFailure`): a write the storage refuses (full disk, read-only filesystem, I/O error) is rolled
 * back and leaves the database "failing" with the reason (`problem()`) until a later write commits, so the chain
 * can retry what it holds in memory and go on once writing works again. A sync that fails for lack of space is
 * retried the same way; any other failed sync, and SQLite failures that are not about the storage (a constraint,
 * corruption), stay until a restart, since what reached the disk is then unknown.
 */
import { closeSync, copyFileSync, constants, existsSync, fdatasync, mkdtempSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { DataDirError, forkMismatch, fsyncPath, lockDir, syncDir, unlock } from './data-dir.js';
import { Journal } from './journal.js';

export const DB_FILE = 'chain.db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS genesis (seq INTEGER PRIMARY KEY, account TEXT NOT NULL, boc BLOB NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS txs (
  seq INTEGER PRIMARY KEY,
  hash BLOB NOT NULL UNIQUE,
  account TEXT NOT NULL,
  lt TEXT NOT NULL,
  end_lt TEXT NOT NULL,
  now INTEGER NOT NULL,
  parent INTEGER,
  msgs TEXT NOT NULL,
  boc BLOB NOT NULL,
  state BLOB NOT NULL,
  crc INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS txs_account ON txs(account, seq);
CREATE TABLE IF NOT EXISTS blocks (seq INTEGER PRIMARY KEY, body TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS edits (seq INTEGER PRIMARY KEY, account TEXT NOT NULL, after_tx INTEGER NOT NULL, mc INTEGER NOT NULL, boc BLOB NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shelf_txs (shelf INTEGER NOT NULL, seq INTEGER NOT NULL, hash BLOB NOT NULL, account TEXT NOT NULL, lt TEXT NOT NULL, end_lt TEXT NOT NULL, now INTEGER NOT NULL, parent INTEGER, msgs TEXT NOT NULL, boc BLOB NOT NULL, state BLOB NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (shelf, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shelf_blocks (shelf INTEGER NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (shelf, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS shelf_edits (shelf INTEGER NOT NULL, seq INTEGER NOT NULL, account TEXT NOT NULL, after_tx INTEGER NOT NULL, mc INTEGER NOT NULL, boc BLOB NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY (shelf, seq)) WITHOUT ROWID;
`;

/** The tables a rewind cuts and a shelf keeps, with the columns a shelf copies. */
const CUT_TABLES = [
  { table: 'txs', columns: 'seq, hash, account, lt, end_lt, now, parent, msgs, boc, state, crc' },
  { table: 'blocks', columns: 'seq, body, crc' },
  { table: 'edits', columns: 'seq, account, after_tx, mc, boc, crc' },
] as const;

/** Where a chain's tables end: how many transaction rows, the last block row, how many edits. */
export interface RowPosition {
  txs: number;
  /** the row of the newest masterchain block kept (its seqno + 1) */
  blocks: number;
  edits: number;
}

/** An account state set without a transaction, as written. */
export interface EditRow {
  seq: number;
  account: string;
  /** transactions executed before it */
  afterTx: number;
  /** masterchain seqno it is visible from */
  mc: number;
  boc: Buffer;
}

/** A transaction row as written. */
export interface TxRow {
  seq: number;
  hash: Buffer;
  account: string;
  lt: string;
  endLt: string;
  now: number;
  parent: number | null;
  msgs: string;
  boc: Buffer;
  state: Buffer;
}

/** The row's columns without the BoCs, as a restart reads them. */
export type TxHead = Omit<TxRow, 'boc' | 'state'>;

// zlib's crc32 reads a string as its UTF-8 bytes
const genesisCrc = (account: string, boc: Buffer): number => crc32(boc, crc32(account));
const blockCrc = (body: string): number => crc32(body);
const editCrc = (r: Omit<EditRow, 'seq'>): number => crc32(r.boc, crc32(`${r.account}|${r.afterTx}|${r.mc}`));
export const txCrc = (r: Omit<TxRow, 'seq'>): number =>
  crc32(r.state, crc32(r.boc, crc32(`${r.hash.toString('hex')}|${r.account}|${r.lt}|${r.endLt}|${r.now}|${r.parent ?? ''}|${r.msgs}`)));

/** Where the database lives and whether it goes away on close. */
interface Place {
  dir: string;
  temporary: boolean;
}

/**
 * Databases whose every row `checkDataDir` has just verified in this process, with the stamp (size, mtime, inode
 * of the file and its WAL) they had then: the CLI checks a data dir before it listens and opens the chain after,
 * and an unchanged file is not read and checked a second time.
 */
const verifiedStamps = new Map<string, string>();
const stampOf = (path: string): string =>
  [path, `${path}-wal`]
    .map((f) => {
      const st = statSync(f, { throwIfNoEntry: false });
      return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '-';
    })
    .join('|');

const temporaryDirs = new Set<string>();
let exitHook = false;

/** A write or sync of the chain's database that failed; `message` is the reason /health and refused sends give. */
export class StorageFailure extends Error {
  override readonly name = 'StorageFailure';
  constructor(
    message: string,
    /** whether writing again may work (the disk was full, the filesystem read-only for a while) */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** SQLite's and the OS's codes for storage that cannot take a write now: full, read-only, failing. */
const STORAGE_CODE = /^(SQLITE_(FULL|IOERR|READONLY|CANTOPEN)|ENOSPC|EDQUOT|EROFS|EIO)/;
/** A failed sync that says only that space ran out; the data is still in the page cache and a later sync may write it. */
const SYNC_RETRYABLE = /^(ENOSPC|EDQUOT)$/;

const codeOf = (e: unknown): string => (e instanceof Error ? String((e as { code?: unknown }).code ?? '') : '');

const RETRY_NOTE = 'sends are refused and blocks wait until writing works again (retried every second)';

/** The reason a failed write gives: SQLite's text and code, and what it was writing. */
function writeFailure(e: Error): StorageFailure {
  const code = codeOf(e);
  if (STORAGE_CODE.test(code)) return new StorageFailure(`storage: ${e.message} (${code}) writing the chain database; ${RETRY_NOTE}`, true);
  return new StorageFailure(`storage: writing the chain database failed: ${e.message} (${code}); restart the server`, false);
}

function syncFailure(e: NodeJS.ErrnoException): StorageFailure {
  const code = e.code ?? '';
  if (SYNC_RETRYABLE.test(code)) return new StorageFailure(`storage: ${e.message} syncing the chain database; ${RETRY_NOTE}`, true);
  return new StorageFailure(`storage: syncing the chain database failed: ${e.message}; restart the server`, false);
}

function temporaryPlace(): Place {
  const dir = mkdtempSync(join(tmpdir(), 'ton-localnet-'));
  temporaryDirs.add(dir);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const d of temporaryDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  return { dir, temporary: true };
}

export class ChainDb {
  readonly path: string;
  private synced = 0;
  private committed = 0;
  private syncing?: Promise<void>;
  private walFd?: number;
  /** the failed write since which nothing committed; the failed sync since which nothing synced; a failure that stays */
  private writeFailed?: StorageFailure;
  private syncFailed?: StorageFailure;
  private broken?: StorageFailure;
  private closed = false;
  /** called whenever a write or sync fails in a way a later one may not (the chain then retries) */
  onFailure?: (failure: StorageFailure) => void;
  /** whether this open created the database file (a start refused before genesis finished leaves nothing behind) */
  private created = false;
  /** whether `checkDataDir` verified this very file a moment ago (its checks are not run again) */
  private verified = false;

  private readonly stmts: {
    getMeta: Database.Statement<[string], { value: string }>;
    putMeta: Database.Statement<[string, string]>;
    putGenesis: Database.Statement<[string, Buffer, number]>;
    putTx: Database.Statement<[number, Buffer, string, string, string, number, number | null, string, Buffer, Buffer, number]>;
    putBlock: Database.Statement<[number, string, number]>;
    putEdit: Database.Statement<[number, string, number, number, Buffer, number]>;
    txBoc: Database.Statement<[number], { boc: Buffer }>;
    txState: Database.Statement<[number], { state: Buffer }>;
  };

  constructor(
    readonly db: Database.Database,
    private readonly place: Place,
  ) {
    this.path = join(place.dir, DB_FILE);
    this.stmts = {
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      putMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      putGenesis: db.prepare('INSERT INTO genesis (account, boc, crc) VALUES (?, ?, ?)'),
      putTx: db.prepare('INSERT INTO txs (seq, hash, account, lt, end_lt, now, parent, msgs, boc, state, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      putBlock: db.prepare('INSERT INTO blocks (seq, body, crc) VALUES (?, ?, ?)'),
      putEdit: db.prepare('INSERT INTO edits (seq, account, after_tx, mc, boc, crc) VALUES (?, ?, ?, ?, ?, ?)'),
      txBoc: db.prepare('SELECT boc FROM txs WHERE seq = ?'),
      txState: db.prepare('SELECT state FROM txs WHERE seq = ?'),
    };
  }

  /**
   * Opens the chain's database in `dir` (creating it), or a temporary one without a dir. A damaged database is
   * refused (DataDirError, nothing changed); so is a directory another server holds.
   */
  static open(dir?: string): ChainDb {
    const place: Place = dir === undefined ? temporaryPlace() : { dir: resolve(dir), temporary: false };
    if (!place.temporary) lockDir(place.dir);
    let db: Database.Database | undefined;
    try {
      const path = join(place.dir, DB_FILE);
      const existed = existsSync(path);
      const verified = existed && verifiedStamps.get(path) === stampOf(path);
      verifiedStamps.delete(path);
      try {
        db = new Database(path);
        if (existed && !verified) check(db, path, place.dir);
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.exec(SCHEMA);
        // checkpoints died with the process that made them
        db.exec('DELETE FROM shelf_txs; DELETE FROM shelf_blocks; DELETE FROM shelf_edits');
      } catch (e) {
        if (e instanceof DataDirError) throw e;
        throw damaged(path, place.dir, (e as Error).message);
      }
      const opened = new ChainDb(db, place);
      opened.created = !existed;
      opened.verified = verified;
      return opened;
    } catch (e) {
      db?.close();
      if (place.temporary) rmSync(place.dir, { recursive: true, force: true });
      else unlock(place.dir);
      throw e;
    }
  }

  get dir(): string {
    return this.place.dir;
  }

  get temporary(): boolean {
    return this.place.temporary;
  }

  meta<T>(key: string): T | undefined {
    const row = this.stmts.getMeta.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Why writing does not work now (the last write or sync failed), or null. */
  problem(): string | null {
    return (this.broken ?? this.writeFailed ?? this.syncFailed)?.message ?? null;
  }

  /**
   * Runs `fn` as one transaction; what it wrote is committed (and counted for `durable`) when it returns. When the
   * storage refuses it, the transaction is rolled back and a StorageFailure thrown (see the head of the file).
   */
  write<T>(fn: () => T): T {
    if (this.broken) throw this.broken;
    if (this.closed) throw new Error('local chain: the database is closed');
    let out: T;
    try {
      out = this.db.transaction(fn)();
    } catch (e) {
      // the transaction was rolled back; SQLite's own failures are the storage's, anything else is the caller's
      if (!isSqliteError(e) && !STORAGE_CODE.test(codeOf(e))) throw e;
      throw this.fail(writeFailure(e as Error), 'writeFailed');
    }
    this.committed++;
    this.writeFailed = undefined;
    return out;
  }

  private fail(failure: StorageFailure, kind: 'writeFailed' | 'syncFailed'): StorageFailure {
    if (!failure.retryable) this.broken = failure;
    else this[kind] = failure;
    this.onFailure?.(failure);
    return failure;
  }

  putMeta(key: string, value: unknown): void {
    this.stmts.putMeta.run(key, JSON.stringify(value));
  }

  putGenesis(account: string, boc: Buffer): void {
    this.stmts.putGenesis.run(account, boc, genesisCrc(account, boc));
  }

  putTx(r: TxRow): void {
    this.stmts.putTx.run(r.seq, r.hash, r.account, r.lt, r.endLt, r.now, r.parent, r.msgs, r.boc, r.state, txCrc(r));
  }

  putBlock(seq: number, body: string): void {
    this.stmts.putBlock.run(seq, body, blockCrc(body));
  }

  putEdit(r: EditRow): void {
    this.stmts.putEdit.run(r.seq, r.account, r.afterTx, r.mc, r.boc, editCrc(r));
  }

  /** Deletes every row after `at` (the caller's write transaction); what a rewind does to the database. */
  cut(at: RowPosition): void {
    this.db.prepare('DELETE FROM txs WHERE seq > ?').run(at.txs);
    this.db.prepare('DELETE FROM blocks WHERE seq > ?').run(at.blocks);
    this.db.prepare('DELETE FROM edits WHERE seq > ?').run(at.edits);
  }

  /** Copies the rows after `from` up to `to` onto shelf `shelf`, before them (the caller's write transaction). */
  shelve(shelf: number, from: RowPosition, to: RowPosition): void {
    for (const { table, columns } of CUT_TABLES) {
      this.db.prepare(`INSERT INTO shelf_${table} (shelf, ${columns}) SELECT ?, ${columns} FROM ${table} WHERE seq > ? AND seq <= ?`).run(shelf, from[table], to[table]);
    }
  }

  /** Appends shelf `shelf`'s rows to the chain's tables and empties it (the caller's write transaction). */
  unshelve(shelf: number): void {
    for (const { table, columns } of CUT_TABLES) {
      this.db.prepare(`INSERT INTO ${table} (${columns}) SELECT ${columns} FROM shelf_${table} WHERE shelf = ? ORDER BY seq`).run(shelf);
    }
    this.dropShelf(shelf);
  }

  /** Forgets a shelf (the caller's write transaction). */
  dropShelf(shelf: number): void {
    for (const { table } of CUT_TABLES) this.db.prepare(`DELETE FROM shelf_${table} WHERE shelf = ?`).run(shelf);
  }

  /** The rows shelf `shelf` holds, for a checkpoint's export: transactions, blocks and edits. */
  shelfRows(shelf: number): { txs: TxRow[]; blocks: { seq: number; body: string }[]; edits: EditRow[] } {
    return {
      txs: this.db.prepare('SELECT seq, hash, account, lt, end_lt AS endLt, now, parent, msgs, boc, state FROM shelf_txs WHERE shelf = ? ORDER BY seq').all(shelf) as TxRow[],
      blocks: this.db.prepare('SELECT seq, body FROM shelf_blocks WHERE shelf = ? ORDER BY seq').all(shelf) as { seq: number; body: string }[],
      edits: this.db.prepare('SELECT seq, account, after_tx AS afterTx, mc, boc FROM shelf_edits WHERE shelf = ? ORDER BY seq').all(shelf) as EditRow[],
    };
  }

  /** Transaction rows with their BoCs after `after` up to `upTo`, in order (a state dump). */
  *txRows(after = 0, upTo = Number.MAX_SAFE_INTEGER): Generator<TxRow> {
    yield* this.db.prepare('SELECT seq, hash, account, lt, end_lt AS endLt, now, parent, msgs, boc, state FROM txs WHERE seq > ? AND seq <= ? ORDER BY seq').iterate(after, upTo) as IterableIterator<TxRow>;
  }

  txBoc(seq: number): Buffer | undefined {
    return this.stmts.txBoc.get(seq)?.boc;
  }

  txState(seq: number): Buffer | undefined {
    return this.stmts.txState.get(seq)?.state;
  }

  /** Genesis states in the order they were written. */
  genesisRows(): { account: string; boc: Buffer }[] {
    const rows = this.db.prepare('SELECT account, boc, crc FROM genesis ORDER BY seq').all() as { account: string; boc: Buffer; crc: number }[];
    for (const r of rows) if (genesisCrc(r.account, r.boc) !== r.crc) throw damaged(this.path, this.dir, `a genesis state of ${r.account} fails its checksum`);
    return rows;
  }

  /**
   * Every transaction row without its BoCs, in execution order; each row's checksum is verified on the way
   * (which reads the BoCs too), unless `checkDataDir` verified the unchanged file just before.
   */
  *txHeads(after = 0): Generator<TxHead> {
    // rows as arrays (cheaper than objects); the yielded object is reused, so read it before the next one
    const columns = this.verified ? 'seq, hash, account, lt, end_lt, now, parent, msgs' : 'seq, hash, account, lt, end_lt, now, parent, msgs, boc, state, crc';
    const stmt = this.db.prepare(`SELECT ${columns} FROM txs WHERE seq > ? ORDER BY seq`).raw(true);
    const row: TxRow = { seq: 0, hash: Buffer.alloc(0), account: '', lt: '', endLt: '', now: 0, parent: null, msgs: '', boc: Buffer.alloc(0), state: Buffer.alloc(0) };
    type Raw = [number, Buffer, string, string, string, number, number | null, string, Buffer, Buffer, number];
    for (const r of stmt.iterate(after) as IterableIterator<Raw>) {
      [row.seq, row.hash, row.account, row.lt, row.endLt, row.now, row.parent, row.msgs] = r;
      if (!this.verified) {
        [row.boc, row.state] = [r[8], r[9]];
        if (txCrc(row) !== r[10]) throw damaged(this.path, this.dir, `transaction row ${row.seq} fails its checksum`);
      }
      yield row;
    }
  }

  /** Every seal's body, in order; each checksum verified. */
  *blockRows(after = 0): Generator<{ seq: number; body: string }> {
    const stmt = this.db.prepare('SELECT seq, body, crc FROM blocks WHERE seq > ? ORDER BY seq');
    for (const r of stmt.iterate(after) as IterableIterator<{ seq: number; body: string; crc: number }>) {
      if (blockCrc(r.body) !== r.crc) throw damaged(this.path, this.dir, `block row ${r.seq} fails its checksum`);
      yield r;
    }
  }

  /** Every edit after `after`, in order; each checksum verified. */
  editRows(after = 0): EditRow[] {
    const rows = this.db.prepare('SELECT seq, account, after_tx AS afterTx, mc, boc, crc FROM edits WHERE seq > ? ORDER BY seq').all(after) as (EditRow & { crc: number })[];
    for (const r of rows) if (editCrc(r) !== r.crc) throw damaged(this.path, this.dir, `edit row ${r.seq} fails its checksum`);
    return rows;
  }

  /** Reads every row once, so damage anywhere is found (DataDirError) before a server starts listening. */
  verify(): void {
    this.genesisRows();
    for (const _ of this.txHeads());
    for (const _ of this.blockRows());
    this.editRows();
  }

  /** Drops everything: a chain whose genesis never finished starts over. */
  reset(): void {
    this.write(() => {
      for (const t of ['meta', 'genesis', 'txs', 'blocks', 'edits']) this.db.exec(`DELETE FROM ${t}`);
    });
  }

  /** Resolves once everything committed before the call is on disk (a no-op for a temporary database). */
  async durable(): Promise<void> {
    if (this.place.temporary) return;
    const target = this.committed;
    while (this.synced < target) {
      if (this.broken) throw this.broken;
      this.syncing ??= this.syncOnce();
      await this.syncing;
    }
  }

  private syncOnce(): Promise<void> {
    const upTo = this.committed;
    return new Promise<void>((resolve, reject) => {
      const done = (err: NodeJS.ErrnoException | null) => {
        this.syncing = undefined;
        if (err) return reject(this.fail(syncFailure(err), 'syncFailed'));
        if (upTo > this.synced) this.synced = upTo;
        this.syncFailed = undefined;
        resolve();
      };
      try {
        this.walFd ??= openSync(`${this.path}-wal`, 'r+');
      } catch (e) {
        // after `durable` has kept this promise as the sync in flight, which `done` then forgets
        return process.nextTick(done, e as NodeJS.ErrnoException);
      }
      fdatasync(this.walFd, done);
    });
  }

  /** Forgets a failed write once nothing the chain holds waits to be written (the next write tells again). */
  settled(): void {
    this.writeFailed = undefined;
  }

  /**
   * Syncs what is left, closes the database and releases (or, when temporary, removes) its directory. With
   * `discardNew`, a database file this open created is removed unless the chain's genesis finished in it.
   */
  async close(opts: { discardNew?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    const discard = opts.discardNew === true && this.created && !this.place.temporary && this.meta<boolean>('ready') !== true;
    try {
      if (!this.problem()) await this.durable();
    } finally {
      this.closed = true;
      if (this.walFd !== undefined) closeSync(this.walFd);
      this.db.close();
      if (discard) for (const f of [this.path, `${this.path}-wal`, `${this.path}-shm`]) rmSync(f, { force: true });
      if (this.place.temporary) {
        rmSync(this.place.dir, { recursive: true, force: true });
        temporaryDirs.delete(this.place.dir);
      } else unlock(this.place.dir);
    }
  }
}

function damaged(path: string, dir: string, why: string): DataDirError {
  // one line: SQLite's integrity report spans several ("*** in database main ***", then each fault)
  const reason = why.replace(/\s*\n\s*/g, '; ').replace(/^\*\*\* in database main \*\*\*; /, '');
  return new DataDirError(
    `${path} is damaged (${reason}); refusing to start, nothing was changed. ` +
      `To keep the blocks before the damage (the damaged file is kept as ${DB_FILE}.damaged-<time>), run: npm run journal -- repair ${dir}`,
  );
}

/** SQLite's own check of an existing database's pages; the rows' checksums are checked as they are read. */
function check(db: Database.Database, path: string, dir: string): void {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  if (rows.length !== 1 || rows[0]!.quick_check !== 'ok') throw damaged(path, dir, rows[0]?.quick_check ?? 'quick_check failed');
}

/** What a chain was made with, for the check before a server listens. */
export interface Expected {
  seed: string;
  /** a fork's is its upstream's, not compared */
  globalId: number;
  /** the fork asked for (the seqno absent: any), or the fork a head records */
  fork?: { url: string; seqno?: number };
}

/**
 * Opens the data dir's chain and closes it again, so that a directory in use, a damaged database (every row
 * is read) or a chain made with another seed or global id is refused (DataDirError) before a server starts
 * listening. A directory holding only an old journal has that journal checked instead.
 */
export async function checkDataDir(dir: string, expected?: Expected): Promise<void> {
  dir = resolve(dir);
  if (!existsSync(join(dir, DB_FILE)) && existsSync(join(dir, 'journal'))) {
    // an old journal, imported on start: its damage and its head are judged now
    const journal = Journal.open(dir);
    try {
      const head = journal.entries().next().value;
      if (head?.t === 'head' && expected) matchHead(dir, head, expected);
    } finally {
      await journal.close();
    }
    return;
  }
  const db = ChainDb.open(dir);
  try {
    db.verify();
    const head = db.meta<Expected>('head');
    if (head && expected && db.meta<boolean>('ready')) matchHead(dir, head, expected);
  } finally {
    await db.close({ discardNew: true });
  }
  if (existsSync(db.path)) verifiedStamps.set(db.path, stampOf(db.path));
}

function matchHead(dir: string, head: Expected, expected: Expected): void {
  if (head.seed !== expected.seed) throw new DataDirError(`${dir} holds a local chain made with seed ${JSON.stringify(head.seed)}, not ${JSON.stringify(expected.seed)}`);
  const fork = forkMismatch(dir, head.fork as { url: string; seqno: number } | undefined, expected.fork);
  if (fork !== undefined) throw new DataDirError(fork);
  if (expected.fork) return;
  if (head.globalId !== expected.globalId) throw new DataDirError(`${dir} holds a local chain with global id ${head.globalId}, not ${expected.globalId} (see --global-id)`);
}

/** What `repairDb` did: what was kept, and where the original went (absent when nothing was wrong). */
export interface DbRepair {
  path: string;
  blocks: number;
  transactions: number;
  backup?: string;
}

/**
 * The recovery for a database that start-up refuses as damaged: keeps the head, the genesis states, the
 * transactions up to the first unreadable one and the blocks up to the first that is unreadable or holds a
 * transaction not kept; transactions after the last kept block stay pending. The original (with its WAL) is
 * copied to `chain.db.damaged-<time>` and synced before the repaired file replaces it by rename, so a crash at
 * any point leaves either the old file or the repaired one. Refused while a server holds the directory.
 */
export function repairDb(dir: string): DbRepair {
  dir = resolve(dir);
  const path = join(dir, DB_FILE);
  if (!existsSync(path)) throw new DataDirError(`${dir} holds no local chain database`);
  lockDir(dir);
  try {
    try {
      const db = new Database(path, { fileMustExist: true });
      try {
        check(db, path, dir);
        const probe = new ChainDb(db, { dir, temporary: true });
        probe.verify();
        const counts = db.prepare('SELECT (SELECT count(*) FROM blocks) AS blocks, (SELECT count(*) FROM txs) AS txs').get() as { blocks: number; txs: number };
        return { path, blocks: counts.blocks, transactions: counts.txs };
      } finally {
        db.close();
      }
    } catch (e) {
      if (!(e instanceof DataDirError) && !isSqliteError(e)) throw e;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = join(dir, `${DB_FILE}.damaged-${stamp}`);
    copyFileSync(path, backup, constants.COPYFILE_EXCL);
    fsyncPath(backup);
    if (existsSync(`${path}-wal`)) {
      copyFileSync(`${path}-wal`, `${backup}-wal`, constants.COPYFILE_EXCL);
      fsyncPath(`${backup}-wal`);
    }
    const temp = join(dir, `${DB_FILE}.repair`);
    rmSync(temp, { force: true });
    const hadWal = existsSync(`${backup}-wal`);
    const kept = salvage(backup, temp);
    // reading the copy made SQLite's side files beside it; the copy stays as it was made
    rmSync(`${backup}-shm`, { force: true });
    if (!hadWal) rmSync(`${backup}-wal`, { force: true });
    fsyncPath(temp);
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    renameSync(temp, path);
    syncDir(dir);
    return { path, ...kept, backup };
  } finally {
    unlock(dir);
  }
}

const isSqliteError = (e: unknown): boolean => e instanceof Error && (e as { code?: unknown }).code !== undefined && String((e as { code?: unknown }).code).startsWith('SQLITE_');

/** Copies what can be read of `from` into a new database at `to`, in order, stopping at the first damage. */
function salvage(from: string, to: string): { blocks: number; transactions: number } {
  // a read-only copy: the damaged file itself is not touched (the WAL copy beside it is read with it)
  const src = new Database(from, { readonly: true, fileMustExist: true });
  const out = new Database(to);
  try {
    out.pragma('journal_mode = DELETE');
    out.exec(SCHEMA);
    const dst = new ChainDb(out, { dir: to, temporary: true });
    const txHashes = new Set<string>();
    let transactions = 0;
    let blocks = 0;
    out.transaction(() => {
      for (const key of ['head', 'ready', 'cursor']) {
        const row = tryRead(() => src.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined);
        if (row) dst.putMeta(key, JSON.parse(row.value));
      }
      const genesis = tryRead(() => src.prepare('SELECT account, boc, crc FROM genesis ORDER BY seq').all() as { account: string; boc: Buffer; crc: number }[]) ?? [];
      for (const g of genesis) if (genesisCrc(g.account, g.boc) === g.crc) dst.putGenesis(g.account, g.boc);
      // whole cascades only: the transactions one message caused are kept together or not at all
      let cascade: TxRow[] = [];
      const flush = () => {
        for (const r of cascade) {
          dst.putTx(r);
          txHashes.add(r.hash.toString('hex'));
        }
        transactions += cascade.length;
        cascade = [];
      };
      let whole = false;
      tryRead(() => {
        for (const r of src.prepare('SELECT seq, hash, account, lt, end_lt AS endLt, now, parent, msgs, boc, state, crc FROM txs ORDER BY seq').iterate() as IterableIterator<TxRow & { crc: number }>) {
          if (r.seq !== transactions + cascade.length + 1 || txCrc(r) !== r.crc) return;
          if (r.parent === null) flush();
          cascade.push(r);
        }
        whole = true;
      });
      if (whole) flush();
      tryRead(() => {
        for (const r of src.prepare('SELECT seq, body, crc FROM blocks ORDER BY seq').iterate() as IterableIterator<{ seq: number; body: string; crc: number }>) {
          if (r.seq !== blocks + 1 || blockCrc(r.body) !== r.crc) break;
          const e = JSON.parse(r.body) as { mc: { txHashes: string[] }; shard: { txHashes: string[] } };
          if (![...e.mc.txHashes, ...e.shard.txHashes].every((h) => txHashes.has(h))) break;
          dst.putBlock(r.seq, r.body);
          blocks++;
        }
      });
    })();
    return { blocks, transactions };
  } finally {
    src.close();
    out.close();
  }
}

/** Runs a read of a damaged database; SQLite's corruption errors end it (what was read so far stands). */
function tryRead<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (isSqliteError(e)) return undefined;
    throw e;
  }
}
