/**
 * The local chain's store: blocks, transactions, messages and per-account state history. Sandbox executes;
 * this remembers. Every record is immutable once sealed.
 *
 * What is kept where: the database (db.ts) holds everything, BoCs included, and is what survives a restart.
 * In memory the store keeps a compact index only: per transaction its hash, account, lts, utime, message
 * hashes, parent and block (a few hundred bytes, no cells), per message its addresses, lt, body hash and
 * opcode, and the blocks. The parsed forms a read needs (a transaction, a state's ShardAccount, the state
 * BoC) come from size-bounded LRU caches and are loaded from the database on a miss, so memory grows with
 * the index, not with the BoCs and their cell trees. A restart reads the index back from the rows' columns:
 * nothing is executed or parsed again.
 */
import { Address, Cell, loadShardAccount, loadTransaction, type Message, type ShardAccount, type Transaction } from '@ton/core';
import { messageCells, normalizedHash } from '../../../model/message.js';
import { keptBytes } from '../../../model/kept-bytes.js';
import { bodyOp } from '../../../model/tlb/common.js';
import type { ChainDb, EditRow, RowPosition, TxHead } from './db.js';
import { blockEntry, blockRecord, type BlockEntry } from './journal.js';

/** Shard id 0x8000000000000000 as a signed int64: the one shard of each workchain here. */
export const SHARD_ALL = -9223372036854775808n;

export interface BlockRef {
  workchain: number;
  shard: bigint;
  seqno: number;
}

export interface BlockRecord extends BlockRef {
  rootHash: Buffer;
  fileHash: Buffer;
  /** masterchain block this block belongs to (itself for a masterchain block) */
  mcSeqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  /** previous block of the same chain; absent for a zerostate */
  prev?: BlockRef & { rootHash: Buffer; fileHash: Buffer };
  /** transaction hashes (hex), ordered by (account id, lt) as liteservers list them */
  txHashes: string[];
  /** masterchain blocks only: the shard blocks they reference */
  shards: BlockRef[];
}

export interface TxRecord {
  /** hex */
  readonly hash: string;
  readonly account: Address;
  readonly lt: bigint;
  /** lt + 1 + out-message count: the last lt this transaction used */
  readonly endLt: bigint;
  readonly now: number;
  /** the parsed transaction (from a bounded cache; loaded from the database on a miss) */
  readonly tx: Transaction;
  /** ShardAccount BoC (base64) right after this transaction, exactly as the emulator returned it */
  readonly stateAfter: string;
  /** in-message hash (hex) */
  readonly inMsgHash?: string;
  /** out-message hashes (hex), by out-message index */
  readonly outMsgHashes: string[];
  /** hash (hex) of the transaction whose out-message caused this one */
  readonly parentHash?: string;
  /** hash (hex) of the first transaction of the cascade (the external message's) */
  readonly traceRootHash: string;
  /** set when sealed */
  block?: BlockRef;
  mcSeqno?: number;
}

/** What a message is, without its cells. */
export interface MessageFacts {
  /** hex */
  hash: string;
  source?: Address;
  destination?: Address;
  /** 0 for external-in */
  createdLt: bigint;
  /** null for external-in */
  createdAt: number | null;
  /** hex */
  bodyHash: string;
  opcode: number | null;
  /** TEP-467 normalised hash (hex), external-in only */
  norm?: string;
}

export interface MessageRecord extends MessageFacts {
  /** transaction (hex hash) that sent it; absent for external-in */
  sourceTxHash?: string;
  /** transaction (hex hash) that received it; absent for external-out or not yet delivered */
  destTxHash?: string;
  /** the message and its cell, read from the transaction that holds it */
  readonly msg: Message;
  readonly cell: Cell;
}

export interface AccountStateRecord {
  /** 0 for a state set at genesis without a transaction */
  lt: bigint;
  txHash?: string;
  /** set when the state was set without a transaction (acton_setShardAccount): the edit's number */
  edit?: number;
  /** masterchain seqno from which this state is visible */
  mcSeqno: number;
  readonly boc: string;
}

/** The executor's cursor after the last executed message, stored with it so a restart continues from there. */
export interface ChainCursor {
  lt: string;
  utime?: number;
  faucetTransfers: number;
}

/**
 * A point in the chain's history: its newest masterchain block, how many transactions had executed (pending ones
 * included) and how many states had been set without a transaction. Blocks, transactions and edits are appended
 * in order, so everything after a position can be cut off (`rewind`) and what is left is the chain as it was.
 */
export interface StorePosition {
  readonly mcSeqno: number;
  readonly txs: number;
  readonly edits: number;
}

/** What a rewind undid, for the indexes and feeds that follow the store. */
export interface Rewind {
  /** the position the store is back at */
  readonly to: StorePosition;
  /** the masterchain seqno of the newest block before the rewind */
  readonly fromMc: number;
  /** the masterchain blocks cut off, oldest first, each with its shard block */
  readonly blocks: readonly { mc: BlockRecord; shard: BlockRecord }[];
  /** transactions cut off (sealed or pending), in execution order */
  readonly removed: readonly TxRecord[];
  /** transactions kept whose block was cut off: pending again */
  readonly repended: readonly TxRecord[];
  /** accounts whose state changed (transactions or edits undone), raw form */
  readonly accounts: ReadonlySet<string>;
  /** each trace root (hex) the rewind touched, with the hash (hex) clients know it by: its external's normalised one */
  readonly traces: ReadonlyMap<string, string>;
}

const accountKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

/** (account id, lt) order, the order block transaction lists use. */
export const compareAccountLt = (a: { account: Address; lt: bigint }, b: { account: Address; lt: bigint }): number => {
  const c = Buffer.compare(a.account.hash, b.account.hash);
  if (c !== 0) return c;
  return a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0;
};

/** Message facts as stored in a transaction row's `msgs` column. */
interface StoredFacts {
  h: string;
  s?: string;
  d?: string;
  lt?: string;
  at?: number;
  b: string;
  op: number | null;
  n?: string;
}

/** An executed transaction not yet in the database, with what its row is made of. */
interface Unwritten {
  rec: StoredTx;
  tx: Transaction;
  state: string;
  facts: string;
}

/** Bytes the caches may hold: parsed cells cost ~15 times their BoC. */
const CACHE_BYTES = 48 * 1024 * 1024;
const PARSED_FACTOR = 15;

/**
 * The budget of the records' cache slots: a slot filled from the database is registered with its estimated size,
 * and the oldest registered slots are emptied once the total passes the budget (first in, first out: a hit costs
 * one field read, with no bookkeeping; a hot entry evicted is read again once). Slots of transactions not yet
 * written are filled without registering, so they stay until the write registers them.
 */
class Slots {
  private readonly queue: { rec: StoredTx; slot: Slot; size: number }[] = [];
  private head = 0;
  private total = 0;

  constructor(private readonly budget: number) {}

  register(rec: StoredTx, slot: Slot, size: number): void {
    this.queue.push({ rec, slot, size });
    this.total += size;
    while (this.total > this.budget && this.head < this.queue.length) {
      const old = this.queue[this.head]!;
      this.queue[this.head++] = undefined as never;
      this.total -= old.size;
      old.rec[old.slot] = undefined;
    }
    // drop the consumed front now and then
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  get bytes(): number {
    return this.total;
  }

  get entries(): number {
    return this.queue.length - this.head;
  }
}

/** The cached forms a record may hold; a slot is emptied when the cache's budget evicts it. */
type Slot = 'parsed' | 'stateB64' | 'state';

class StoredTx implements TxRecord {
  block?: BlockRef;
  mcSeqno?: number;
  /** cache slots: the parsed transaction, the state BoC (base64), the parsed state (see `Slots`) */
  parsed?: Transaction = undefined;
  stateB64?: string = undefined;
  state?: ShardAccount = undefined;
  constructor(
    private readonly store: ChainStore,
    readonly seq: number,
    readonly hash: string,
    readonly account: Address,
    readonly lt: bigint,
    readonly endLt: bigint,
    readonly now: number,
    readonly inMsgHash: string | undefined,
    readonly outMsgHashes: string[],
    readonly parentHash: string | undefined,
    readonly traceRootHash: string,
  ) {}

  get tx(): Transaction {
    return this.store.parsedTx(this);
  }

  get stateAfter(): string {
    return this.store.stateBoc(this);
  }
}

/** The state after a sealed transaction, as an account-state record (its BoC read when asked for). */
class TxStateRecord implements AccountStateRecord {
  readonly lt: bigint;
  readonly txHash: string;
  readonly mcSeqno: number;
  constructor(private readonly rec: StoredTx) {
    this.lt = rec.lt;
    this.txHash = rec.hash;
    this.mcSeqno = rec.mcSeqno!;
  }

  get boc(): string {
    return this.rec.stateAfter;
  }
}

/** A state set without a transaction: visible from masterchain seqno `mcSeqno`, after `afterTx` transactions. */
class StateEdit implements AccountStateRecord {
  parsed?: ShardAccount;
  constructor(
    readonly edit: number,
    readonly account: Address,
    readonly afterTx: number,
    readonly mcSeqno: number,
    readonly boc: string,
  ) {}

  get shardAccount(): ShardAccount {
    return (this.parsed ??= loadShardAccount(Cell.fromBase64(this.boc).beginParse()));
  }

  get lt(): bigint {
    return this.shardAccount.lastTransactionLt;
  }
}

class StoredMessage implements MessageRecord {
  sourceTxHash?: string;
  destTxHash?: string;
  constructor(
    private readonly store: ChainStore,
    readonly hash: string,
    readonly source: Address | undefined,
    readonly destination: Address | undefined,
    readonly createdLt: bigint,
    readonly createdAt: number | null,
    readonly bodyHash: string,
    readonly opcode: number | null,
    readonly norm: string | undefined,
  ) {}

  private holder(): { msg: Message; cell: Cell } {
    const m = this.store.messageOf(this);
    if (!m) throw new Error(`local chain: message ${this.hash} has no stored transaction`);
    return m;
  }

  get msg(): Message {
    return this.holder().msg;
  }

  get cell(): Cell {
    return this.holder().cell;
  }
}

export class ChainStore {
  readonly mcBlocks: BlockRecord[] = [];
  /** basechain shard blocks, by seqno */
  readonly shardBlocks: BlockRecord[] = [];
  private readonly txs = new Map<string, StoredTx>();
  private readonly bySeq: StoredTx[] = [];
  /** sealed transactions in lt order (sandbox lts are globally unique and increasing) */
  private readonly txsByLt: StoredTx[] = [];
  private readonly accountTxs = new Map<string, StoredTx[]>();
  /** states set without a transaction (genesis), by account key */
  private readonly genesis = new Map<string, { boc: string; parsed?: ShardAccount }>();
  private readonly messages = new Map<string, StoredMessage>();
  /** "src|dst|created_lt" → message hash, for tryLocate* */
  private readonly messagesByRoute = new Map<string, string>();
  private readonly addresses = new Map<string, Address>();
  /** states set without a transaction, in order, and by account key */
  private readonly edits: StateEdit[] = [];
  private readonly accountEdits = new Map<string, StateEdit[]>();
  /** executed but not yet written to the database (the chain commits them once the message's cascade is done) */
  private unwritten: Unwritten[] = [];
  /** whole messages' transactions, committed by the chain and written at the next `flush` (with the cursor after them) */
  private staged: Unwritten[] = [];
  private stagedCursor?: ChainCursor;
  /** parsed forms and state BoCs, in the records' slots, bounded; an unwritten transaction's stay until written */
  private readonly slots = new Slots(CACHE_BYTES);
  /** executed but not yet sealed */
  pending: TxRecord[] = [];
  private readonly sealListeners = new Set<(mc: BlockRecord, sealed: readonly TxRecord[]) => void>();
  private readonly pendingListeners = new Set<(rec: TxRecord) => void>();
  private readonly commitListeners = new Set<(recs: readonly TxRecord[]) => void>();
  private readonly rewindListeners = new Set<(r: Rewind) => void>();
  private readonly finalizeListeners = new Set<(mcSeqno: number) => void>();
  private readonly editListeners = new Set<(address: Address) => void>();

  /** whether `load` has read the database's index back */
  loaded = false;
  /**
   * The newest finalized masterchain block: never rewound by a rollback. Sealed blocks after it are confirmed only
   * (the chain's finality delay); a chain read back from its database starts with all of them finalized.
   */
  finalizedMc = -1;

  constructor(readonly db: ChainDb) {}

  // ---- events (subscriptions and indexes follow the chain through these) ----

  /** Called after every sealed masterchain block with the transactions it committed; returns an unsubscribe. */
  onSeal(fn: (mc: BlockRecord, sealed: readonly TxRecord[]) => void): () => void {
    this.sealListeners.add(fn);
    return () => this.sealListeners.delete(fn);
  }

  /** Called for every executed transaction when it becomes pending; returns an unsubscribe. */
  onPending(fn: (rec: TxRecord) => void): () => void {
    this.pendingListeners.add(fn);
    return () => this.pendingListeners.delete(fn);
  }

  /** Called when a message's whole cascade has executed, with its transactions (still pending); returns an unsubscribe. */
  onCommit(fn: (recs: readonly TxRecord[]) => void): () => void {
    this.commitListeners.add(fn);
    return () => this.commitListeners.delete(fn);
  }

  /** Called after the store was rewound (`rewind`), before anything else runs; returns an unsubscribe. */
  onRewind(fn: (r: Rewind) => void): () => void {
    this.rewindListeners.add(fn);
    return () => this.rewindListeners.delete(fn);
  }

  /** Called when the blocks up to masterchain seqno `mcSeqno` became final; returns an unsubscribe. */
  onFinalize(fn: (mcSeqno: number) => void): () => void {
    this.finalizeListeners.add(fn);
    return () => this.finalizeListeners.delete(fn);
  }

  /** Marks the sealed blocks up to `mcSeqno` final. */
  finalize(mcSeqno: number): void {
    if (mcSeqno <= this.finalizedMc) return;
    this.finalizedMc = mcSeqno;
    this.emit(this.finalizeListeners, mcSeqno);
  }

  /** Called after an account's state was set without a transaction (`putEdit`); returns an unsubscribe. */
  onEdit(fn: (address: Address) => void): () => void {
    this.editListeners.add(fn);
    return () => this.editListeners.delete(fn);
  }

  private emit<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
    for (const fn of listeners) {
      try {
        fn(...args);
      } catch (e) {
        console.error('local chain: a listener failed:', e);
      }
    }
  }

  private address(key: string): Address {
    let a = this.addresses.get(key);
    if (!a) {
      const parsed = Address.parseRaw(key);
      // kept for the life of the store: its hash in memory of its own, not a slice of Node's buffer pool
      this.addresses.set(key, (a = new Address(parsed.workChain, keptBytes(parsed.hash))));
    }
    return a;
  }

  private intern(a: Address): Address {
    return this.address(accountKey(a));
  }

  // ---- writes (only the chain's mutation queue calls these) ----

  /** A state that exists without a transaction (genesis injection), visible from mc seqno 0; written at once. */
  putGenesisState(address: Address, boc: string): void {
    const key = accountKey(address);
    this.db.write(() => this.db.putGenesis(key, Buffer.from(boc, 'base64')));
    this.genesis.set(key, { boc });
    this.address(key);
  }

  /**
   * Sets an account's state without a transaction (acton_setShardAccount), written at once and visible from the
   * newest masterchain block on: a read at that block or later sees it, until a later transaction changes it.
   */
  putEdit(address: Address, boc: string): void {
    const row: EditRow = {
      seq: this.edits.length + 1,
      account: accountKey(address),
      afterTx: this.bySeq.length,
      mc: this.lastMc.seqno,
      boc: Buffer.from(boc, 'base64'),
    };
    this.flush();
    this.db.write(() => this.db.putEdit(row));
    this.indexEdit(row, boc);
    this.emit(this.editListeners, this.intern(address));
  }

  private indexEdit(row: EditRow, boc: string): void {
    const e = new StateEdit(row.seq, this.address(row.account), row.afterTx, row.mc, boc);
    this.edits.push(e);
    addToList(this.accountEdits, row.account, e);
  }

  /**
   * Records an executed transaction as pending. `stateAfter` is its ShardAccount BoC; `parsed` the same state
   * already parsed, when the caller has it. Nothing is written until `commit`.
   */
  addPending(
    fields: { hash: string; account: Address; lt: bigint; endLt: bigint; now: number; inMsgHash?: string; outMsgHashes: string[]; parent?: TxRecord },
    tx: Transaction,
    stateAfter: string,
    inMsg: { msg: Message; cell: Cell } | undefined,
    outMsgs: { msg: Message; cell: Cell }[],
    parsed?: ShardAccount,
  ): TxRecord {
    const parent = fields.parent as StoredTx | undefined;
    const rec = new StoredTx(
      this,
      this.bySeq.length + 1,
      fields.hash,
      this.intern(fields.account),
      fields.lt,
      fields.endLt,
      fields.now,
      fields.inMsgHash,
      fields.outMsgHashes,
      parent?.hash,
      parent?.traceRootHash ?? fields.hash,
    );
    const facts = { in: inMsg ? storedFacts(inMsg.msg, inMsg.cell) : undefined, out: outMsgs.map((o) => storedFacts(o.msg, o.cell)) };
    this.index(rec, facts);
    rec.parsed = tx;
    rec.stateB64 = stateAfter;
    if (parsed) rec.state = parsed;
    this.unwritten.push({ rec, tx, state: stateAfter, facts: JSON.stringify(facts) });
    this.pending.push(rec);
    this.emit(this.pendingListeners, rec);
    return rec;
  }

  private index(rec: StoredTx, facts: { in?: StoredFacts; out: StoredFacts[] }): void {
    this.txs.set(rec.hash, rec);
    this.bySeq.push(rec);
    if (facts.in) this.upsertMessage(facts.in).destTxHash = rec.hash;
    for (const o of facts.out) this.upsertMessage(o).sourceTxHash = rec.hash;
  }

  /**
   * Ends a message's cascade: its transactions (and the chain's cursor after them) are written at the next
   * `flush`: before a send is answered on a durable chain (`durable`), and with the next sealed block, so a
   * burst of messages costs one database transaction per block, not one per message.
   */
  commit(cursor: ChainCursor): void {
    const recs = this.unwritten.map((u) => u.rec);
    this.staged.push(...this.unwritten);
    this.unwritten = [];
    this.stagedCursor = cursor;
    if (recs.length > 0) this.emit(this.commitListeners, recs);
  }

  /** Writes the staged transactions as one database transaction; when the write fails they stay staged. */
  flush(): void {
    if (this.stagedCursor === undefined) return;
    this.db.write(() => this.writeStaged());
    this.stagedWritten();
  }

  /** Resolves once every committed message's transactions are on disk (at once for a temporary database, which writes them with the next block). */
  async durable(): Promise<void> {
    if (this.db.temporary) return;
    this.flush();
    await this.db.durable();
  }

  private writeStaged(): void {
    const batch = this.staged;
    const cursor = this.stagedCursor;
    if (cursor === undefined) return;
    for (const u of batch) {
      this.db.putTx({
        seq: u.rec.seq,
        hash: Buffer.from(u.rec.hash, 'hex'),
        account: accountKey(u.rec.account),
        lt: u.rec.lt.toString(),
        endLt: u.rec.endLt.toString(),
        now: u.rec.now,
        parent: u.rec.parentHash === undefined ? null : this.txs.get(u.rec.parentHash)!.seq,
        msgs: u.facts,
        boc: u.tx.raw.toBoc({ idx: false, crc32: false }),
        state: Buffer.from(u.state, 'base64'),
      });
    }
    this.db.putMeta('cursor', cursor);
  }

  /** After the transaction holding `writeStaged` committed (not before: a failed commit leaves them staged). */
  private stagedWritten(): void {
    const batch = this.staged;
    this.staged = [];
    this.stagedCursor = undefined;
    // written: their slots now count against the budget like any other
    for (const u of batch) {
      const size = u.state.length;
      this.slots.register(u.rec, 'parsed', size * PARSED_FACTOR);
      this.slots.register(u.rec, 'stateB64', size);
      if (u.rec.state) this.slots.register(u.rec, 'state', size * PARSED_FACTOR);
    }
  }

  /** Records a sealed pair of blocks (written, one transaction, before it is visible) and makes their transactions visible. */
  seal(mc: BlockRecord, shard: BlockRecord, sealed: TxRecord[]): void {
    if (this.unwritten.length > 0) throw new Error('local chain: sealing transactions that were never committed');
    // the block and the transactions staged before it: one database transaction
    this.db.write(() => {
      this.writeStaged();
      this.db.putBlock(mc.seqno + 1, JSON.stringify({ mc: blockEntry(mc), shard: blockEntry(shard) }));
    });
    this.stagedWritten();
    this.applySeal(mc, shard, sealed as StoredTx[]);
  }

  private applySeal(mc: BlockRecord, shard: BlockRecord, sealed: StoredTx[]): void {
    this.mcBlocks.push(mc);
    this.shardBlocks.push(shard);
    // one ref per block, shared by its transactions (read-only)
    const mcRef: BlockRef = { workchain: -1, shard: SHARD_ALL, seqno: mc.seqno };
    const shardRef: BlockRef = { workchain: 0, shard: SHARD_ALL, seqno: shard.seqno };
    for (const t of sealed) {
      t.block = t.account.workChain === -1 ? mcRef : shardRef;
      t.mcSeqno = mc.seqno;
    }
    // lt order across the block: sandbox lts grow with execution order
    const ordered = sealed.slice().sort((a, b) => a.seq - b.seq);
    for (const rec of ordered) {
      this.txsByLt.push(rec);
      this.accountTxsOf(rec.account, true).push(rec);
    }
    const done = new Set<TxRecord>(sealed);
    this.pending = this.pending.filter((p) => !done.has(p));
    this.emit(this.sealListeners, mc, sealed);
  }

  /** Reads the index back from the database: genesis states, transactions, blocks; transactions after the last block stay pending. */
  load(): void {
    this.loaded = true;
    for (const g of this.db.genesisRows()) {
      this.genesis.set(g.account, { boc: g.boc.toString('base64') });
      this.address(g.account);
    }
    this.readTail();
    this.finalizedMc = this.mcBlocks.length === 0 ? -1 : this.lastMc.seqno;
  }

  /**
   * Reads what the database holds beyond what the store holds: every row on `load`, the rows a restored checkpoint
   * put back (chain/checkpoints.ts) otherwise, whose blocks reach the seal listeners as they are read.
   */
  readTail(): void {
    const bySeqHash = (seq: number): StoredTx => this.bySeq[seq - 1]!;
    for (const e of this.db.editRows(this.edits.length)) this.indexEdit(e, e.boc.toString('base64'));
    const fresh = this.bySeq.length;
    for (const h of this.db.txHeads(fresh)) this.loadTx(h, bySeqHash);
    const pending = new Set<StoredTx>([...(this.pending as StoredTx[]), ...this.bySeq.slice(fresh)]);
    // what is pending is settled once every block is read (filtering it per block would cost blocks x transactions)
    this.pending = [];
    for (const { body } of this.db.blockRows(this.mcBlocks.length === 0 ? 0 : this.lastMc.seqno + 1)) {
      const e = JSON.parse(body) as { mc: BlockEntry; shard: BlockEntry };
      const mc = blockRecord(e.mc);
      const shard = blockRecord(e.shard);
      const sealed: StoredTx[] = [];
      for (const h of [...mc.txHashes, ...shard.txHashes]) {
        const rec = this.txs.get(h);
        if (!rec || !pending.has(rec)) throw new Error(`block ${mc.seqno} holds transaction ${h}, which is not a pending transaction`);
        pending.delete(rec);
        sealed.push(rec);
      }
      this.applySeal(mc, shard, sealed);
    }
    this.pending = [...pending].sort((a, b) => a.seq - b.seq);
  }

  // ---- positions and rewinds ----

  /** Where the chain is now (after writing what is staged, so the database holds everything up to it). */
  position(): StorePosition {
    return { mcSeqno: this.lastMc.seqno, txs: this.bySeq.length, edits: this.edits.length };
  }

  /**
   * Where the chain was right after masterchain block `mcSeqno` was sealed: the transactions it and the blocks
   * before it sealed (each seal takes every pending one) and the edits made before the next block.
   */
  positionAfter(mcSeqno: number): StorePosition {
    const sealedUpTo = lowerBound(this.txsByLt, (t) => t.mcSeqno! > mcSeqno);
    let txs = 0;
    for (let i = 0; i < sealedUpTo; i++) if (this.txsByLt[i]!.seq > txs) txs = this.txsByLt[i]!.seq;
    const edits = lowerBound(this.edits, (e) => e.afterTx > txs || e.mcSeqno > mcSeqno);
    return { mcSeqno, txs, edits };
  }

  /** The rows of the database that hold the chain up to `p`. */
  static rows(p: StorePosition): RowPosition {
    return { txs: p.txs, blocks: p.mcSeqno + 1, edits: p.edits };
  }

  /**
   * Cuts off everything after `to` (which must be a position this chain passed through): the database's rows
   * after it (and `cursor`, the executor's, as of it) in one database transaction, in which `beforeCut` may copy
   * rows aside first; then the in-memory index, at a cost in what is cut, not in what is kept. Transactions kept
   * whose block is cut off are pending again. The rewind listeners run before this returns.
   */
  rewind(to: StorePosition, cursor: ChainCursor, beforeCut?: () => void): Rewind {
    if (this.unwritten.length > 0) throw new Error('local chain: rewinding in the middle of a message');
    const first = this.mcBlocks[0]!.seqno;
    const fromMc = this.lastMc.seqno;
    if (to.mcSeqno < first || to.mcSeqno > fromMc || to.txs > this.bySeq.length || to.edits > this.edits.length) {
      throw new Error(`local chain: cannot rewind to block ${to.mcSeqno}, transaction ${to.txs}: the chain never was there`);
    }
    this.flush();
    this.db.write(() => {
      beforeCut?.();
      this.db.cut(ChainStore.rows(to));
      this.db.putMeta('cursor', cursor);
    });

    const kept = to.mcSeqno - first + 1;
    const blocks = this.mcBlocks.slice(kept).map((mc, i) => ({ mc, shard: this.shardBlocks[kept + i]! }));
    const sealedKept = lowerBound(this.txsByLt, (t) => t.mcSeqno! > to.mcSeqno);
    const unsealed = this.txsByLt.slice(sealedKept);
    const removed = this.bySeq.slice(to.txs);
    const repended = unsealed.filter((t) => t.seq <= to.txs);
    const traces = new Map<string, string>();
    for (const r of [...removed, ...repended]) if (!traces.has(r.traceRootHash)) traces.set(r.traceRootHash, this.traceHash(r.traceRootHash));
    const accounts = new Set<string>();

    for (let i = unsealed.length - 1; i >= 0; i--) {
      const t = unsealed[i]!;
      const key = accountKey(t.account);
      const list = this.accountTxs.get(key)!;
      if (list[list.length - 1] !== t) throw new Error(`local chain: ${key}'s transactions are not in sealing order`);
      list.pop();
      if (list.length === 0) this.accountTxs.delete(key);
      accounts.add(key);
    }
    this.txsByLt.length = sealedKept;
    for (const t of repended) {
      t.block = undefined;
      t.mcSeqno = undefined;
    }
    for (let i = removed.length - 1; i >= 0; i--) {
      const r = removed[i]!;
      for (const h of [r.inMsgHash, ...r.outMsgHashes]) if (h !== undefined) this.unlinkMessage(h, r.hash);
      this.txs.delete(r.hash);
      accounts.add(accountKey(r.account));
    }
    this.bySeq.length = to.txs;
    this.pending = [...repended, ...(this.pending as StoredTx[]).filter((p) => p.seq <= to.txs)].sort((a, b) => (a as StoredTx).seq - (b as StoredTx).seq);
    this.mcBlocks.length = kept;
    this.shardBlocks.length = kept;
    if (this.finalizedMc > to.mcSeqno) this.finalizedMc = to.mcSeqno;
    for (const e of this.edits.splice(to.edits).reverse()) {
      const key = accountKey(e.account);
      const list = this.accountEdits.get(key)!;
      list.pop();
      if (list.length === 0) this.accountEdits.delete(key);
      accounts.add(key);
    }
    const rewind: Rewind = { to, fromMc, blocks, removed, repended, accounts, traces };
    this.emit(this.rewindListeners, rewind);
    return rewind;
  }

  /** The hash (hex) clients know a trace by: its external message's normalised hash, else its root's in-message hash. */
  traceHash(root: string): string {
    const rec = this.txs.get(root);
    if (!rec) return root;
    const m = rec.inMsgHash === undefined ? undefined : this.messages.get(rec.inMsgHash);
    return m?.norm ?? rec.inMsgHash ?? root;
  }

  /** Forgets that transaction `tx` sent or received message `hash`; a message no transaction holds any more goes. */
  private unlinkMessage(hash: string, tx: string): void {
    const m = this.messages.get(hash);
    if (!m) return;
    if (m.destTxHash === tx) m.destTxHash = undefined;
    if (m.sourceTxHash === tx) m.sourceTxHash = undefined;
    if (m.destTxHash !== undefined || m.sourceTxHash !== undefined) return;
    this.messages.delete(hash);
    if (m.source && m.destination) this.messagesByRoute.delete(`${accountKey(m.source)}|${accountKey(m.destination)}|${m.createdLt}`);
  }

  private loadTx(h: TxHead, bySeq: (seq: number) => StoredTx): void {
    const parent = h.parent === null ? undefined : bySeq(h.parent);
    const facts = JSON.parse(h.msgs) as { in?: StoredFacts; out: StoredFacts[] };
    const hash = h.hash.toString('hex');
    const rec = new StoredTx(
      this,
      h.seq,
      hash,
      this.address(h.account),
      BigInt(h.lt),
      BigInt(h.endLt),
      h.now,
      facts.in?.h,
      facts.out.map((o) => o.h),
      parent?.hash,
      parent?.traceRootHash ?? hash,
    );
    if (rec.seq !== this.bySeq.length + 1) throw new Error(`transaction rows are not consecutive at ${h.seq}`);
    this.index(rec, facts);
  }

  private upsertMessage(f: StoredFacts): StoredMessage {
    let rec = this.messages.get(f.h);
    if (!rec) {
      const source = f.s === undefined ? undefined : this.address(f.s);
      const destination = f.d === undefined ? undefined : this.address(f.d);
      const createdLt = f.lt === undefined ? 0n : BigInt(f.lt);
      rec = new StoredMessage(this, f.h, source, destination, createdLt, f.at ?? null, f.b, f.op, f.n);
      this.messages.set(f.h, rec);
      if (f.s !== undefined && f.d !== undefined) this.messagesByRoute.set(`${f.s}|${f.d}|${createdLt}`, f.h);
    }
    return rec;
  }

  // ---- the bounded caches ----

  /** The parsed transaction of a record: from its slot, else read from the database. */
  parsedTx(rec: StoredTx): Transaction {
    if (rec.parsed) return rec.parsed;
    const boc = this.db.txBoc(rec.seq);
    if (!boc) throw new Error(`local chain: transaction ${rec.hash} is not in the database`);
    const tx = loadTransaction(Cell.fromBoc(boc)[0]!.beginParse());
    rec.parsed = tx;
    this.slots.register(rec, 'parsed', boc.length * PARSED_FACTOR);
    return tx;
  }

  /** The state BoC (base64) right after a transaction. */
  stateBoc(rec: StoredTx): string {
    if (rec.stateB64 !== undefined) return rec.stateB64;
    const boc = this.db.txState(rec.seq);
    if (!boc) throw new Error(`local chain: transaction ${rec.hash} is not in the database`);
    const s = boc.toString('base64');
    rec.stateB64 = s;
    this.slots.register(rec, 'stateB64', s.length);
    return s;
  }

  private parsedState(rec: StoredTx): ShardAccount {
    if (rec.state) return rec.state;
    const boc = this.stateBoc(rec);
    const sa = loadShardAccount(Cell.fromBase64(boc).beginParse());
    rec.state = sa;
    this.slots.register(rec, 'state', boc.length * PARSED_FACTOR);
    return sa;
  }

  /** A message and its cell, from the transaction that received or sent it. */
  messageOf(m: MessageRecord): { msg: Message; cell: Cell } | undefined {
    const holder = m.destTxHash ? this.txs.get(m.destTxHash) : m.sourceTxHash ? this.txs.get(m.sourceTxHash) : undefined;
    if (!holder) return undefined;
    const tx = holder.tx;
    const cells = messageCells(tx);
    if (holder.inMsgHash === m.hash && tx.inMessage && cells.inMsg) return { msg: tx.inMessage, cell: cells.inMsg };
    const i = holder.outMsgHashes.indexOf(m.hash);
    if (i < 0) return undefined;
    const keys = tx.outMessages.keys().sort((a, b) => a - b);
    return { msg: tx.outMessages.get(keys[i]!)!, cell: cells.outMsgs[i]! };
  }

  // ---- reads ----

  get lastMc(): BlockRecord {
    return this.mcBlocks[this.mcBlocks.length - 1]!;
  }

  mcBlock(seqno: number): BlockRecord | undefined {
    return bySeqno(this.mcBlocks, seqno);
  }

  block(ref: BlockRef): BlockRecord | undefined {
    if (ref.shard !== SHARD_ALL) return undefined;
    if (ref.workchain === -1) return bySeqno(this.mcBlocks, ref.seqno);
    if (ref.workchain === 0) return bySeqno(this.shardBlocks, ref.seqno);
    return undefined;
  }

  /** Blocks of one chain (-1 or 0), by seqno. */
  chain(workchain: number): BlockRecord[] {
    return workchain === -1 ? this.mcBlocks : workchain === 0 ? this.shardBlocks : [];
  }

  /** A transaction by hash (hex); pending ones only when asked for. */
  tx(hash: string, opts: { pending?: boolean } = {}): TxRecord | undefined {
    const rec = this.txs.get(hash);
    return rec && (rec.block || opts.pending) ? rec : undefined;
  }

  blockTxs(block: BlockRecord): TxRecord[] {
    return block.txHashes.map((h) => this.txs.get(h)!);
  }

  /** Sealed transactions of an account, ascending by lt, visible as of masterchain seqno `atMc` (default: all). */
  accountTransactions(address: Address, atMc?: number): TxRecord[] {
    const list = this.accountTxsOf(address, false) ?? [];
    if (atMc === undefined || atMc >= this.lastMc.seqno) return list;
    return list.slice(0, upperBoundMc(list, atMc));
  }

  /** Sealed transactions with startLt <= lt < endLt, in lt order (every account). */
  transactionsByLt(startLt: bigint, endLt: bigint): TxRecord[] {
    const from = lowerBound(this.txsByLt, (t) => t.lt >= startLt);
    const out: TxRecord[] = [];
    for (let i = from; i < this.txsByLt.length && this.txsByLt[i]!.lt < endLt; i++) out.push(this.txsByLt[i]!);
    return out;
  }

  /** Sealed transactions with startUtime <= now < endUtime, in lt order (utime never decreases with lt). */
  transactionsByUtime(startUtime: number, endUtime: number): TxRecord[] {
    const from = lowerBound(this.txsByLt, (t) => t.now >= startUtime);
    const out: TxRecord[] = [];
    for (let i = from; i < this.txsByLt.length && this.txsByLt[i]!.now < endUtime; i++) out.push(this.txsByLt[i]!);
    return out;
  }

  message(hash: string): MessageRecord | undefined {
    return this.messages.get(hash);
  }

  messageByRoute(source: Address, destination: Address, createdLt: bigint): MessageRecord | undefined {
    const hash = this.messagesByRoute.get(`${accountKey(source)}|${accountKey(destination)}|${createdLt}`);
    return hash ? this.messages.get(hash) : undefined;
  }

  /** The account's state as of masterchain seqno `atMc`; undefined when it never existed. */
  accountState(address: Address, atMc: number): { record: AccountStateRecord; shardAccount: ShardAccount } | undefined {
    const key = accountKey(address);
    const list = this.accountTxs.get(key);
    const n = list ? upperBoundMc(list, atMc) : 0;
    const rec = n > 0 ? list![n - 1]! : undefined;
    const edit = this.editAt(key, atMc);
    if (edit && (!rec || edit.afterTx >= rec.seq)) return { record: edit, shardAccount: edit.shardAccount };
    if (rec) return { record: this.stateRecord(rec), shardAccount: this.parsedState(rec) };
    const g = this.genesis.get(key);
    if (!g) return undefined;
    g.parsed ??= loadShardAccount(Cell.fromBase64(g.boc).beginParse());
    return { record: { lt: 0n, mcSeqno: 0, boc: g.boc }, shardAccount: g.parsed };
  }

  private stateRecord(rec: StoredTx): AccountStateRecord {
    return new TxStateRecord(rec);
  }

  /** The account's newest edit visible as of masterchain seqno `atMc`. */
  private editAt(key: string, atMc: number): StateEdit | undefined {
    const list = this.accountEdits.get(key);
    if (!list) return undefined;
    const n = lowerBound(list, (e) => e.mcSeqno > atMc);
    return n > 0 ? list[n - 1] : undefined;
  }

  /** The account's newest edit made before transaction number `seq` executed. */
  private editBefore(key: string, seq: number): StateEdit | undefined {
    const list = this.accountEdits.get(key);
    if (!list) return undefined;
    const n = lowerBound(list, (e) => e.afterTx >= seq);
    return n > 0 ? list[n - 1] : undefined;
  }

  /** The newest state BoC of an account including pending transactions (what the executor continues from). */
  newestStateBoc(address: Address): string | undefined {
    const key = accountKey(address);
    let newest: StoredTx | undefined;
    for (let i = this.pending.length - 1; i >= 0 && !newest; i--) {
      const p = this.pending[i]! as StoredTx;
      if (p.account.equals(address)) newest = p;
    }
    const list = this.accountTxs.get(key);
    if (!newest && list && list.length > 0) newest = list[list.length - 1]!;
    const edits = this.accountEdits.get(key);
    const edit = edits?.[edits.length - 1];
    if (edit && (!newest || edit.afterTx >= newest.seq)) return edit.boc;
    return newest ? newest.stateAfter : this.genesis.get(key)?.boc;
  }

  /** The account's sealed state history, oldest first (a genesis injection, then one entry per transaction). */
  accountStateHistory(address: Address): AccountStateRecord[] {
    const key = accountKey(address);
    const g = this.genesis.get(key);
    const out: AccountStateRecord[] = g ? [{ lt: 0n, mcSeqno: 0, boc: g.boc }] : [];
    const edits = this.accountEdits.get(key) ?? [];
    let e = 0;
    for (const rec of this.accountTxs.get(key) ?? []) {
      for (; e < edits.length && edits[e]!.afterTx < rec.seq; e++) out.push(edits[e]!);
      out.push(this.stateRecord(rec));
    }
    out.push(...edits.slice(e));
    return out;
  }

  /** Every sealed transaction, in lt order. */
  sealedTransactions(): readonly TxRecord[] {
    return this.txsByLt;
  }

  /** Transactions committed by masterchain block `mcSeqno`: its own, then its shard blocks'. */
  transactionsOfMcBlock(mcSeqno: number): TxRecord[] {
    const mc = this.mcBlock(mcSeqno);
    if (!mc) return [];
    return [mc, ...mc.shards.map((s) => this.block(s)!)].flatMap((b) => this.blockTxs(b));
  }

  /** The state a sealed transaction started from; undefined when the account did not exist before it. */
  stateBefore(rec: TxRecord): AccountStateRecord | undefined {
    const prev = this.previous(rec);
    const edit = prev === undefined ? undefined : this.editBefore(accountKey(rec.account), (rec as StoredTx).seq);
    if (edit && (!prev || edit.afterTx >= prev.seq)) return edit;
    if (prev) return this.stateRecord(prev);
    const g = prev === null ? this.genesis.get(accountKey(rec.account)) : undefined;
    return g ? { lt: 0n, mcSeqno: 0, boc: g.boc } : undefined;
  }

  /** The parsed states right before and right after a sealed transaction (from the caches); `before` absent when the account did not exist. */
  statesAround(rec: TxRecord): { before?: ShardAccount; after: ShardAccount } {
    const after = this.parsedState(rec as StoredTx);
    const prev = this.previous(rec);
    const edit = prev === undefined ? undefined : this.editBefore(accountKey(rec.account), (rec as StoredTx).seq);
    if (edit && (!prev || edit.afterTx >= prev.seq)) return { before: edit.shardAccount, after };
    if (prev) return { before: this.parsedState(prev), after };
    const g = prev === null ? this.genesis.get(accountKey(rec.account)) : undefined;
    if (!g) return { after };
    g.parsed ??= loadShardAccount(Cell.fromBase64(g.boc).beginParse());
    return { before: g.parsed, after };
  }

  /** The account's sealed transaction before `rec` (binary search by lt); null when `rec` is its first, undefined when `rec` is not sealed. */
  private previous(rec: TxRecord): StoredTx | null | undefined {
    const list = this.accountTxs.get(accountKey(rec.account)) ?? [];
    const i = lowerBound(list, (t) => t.lt >= rec.lt);
    if (list[i] !== rec) return undefined;
    return i > 0 ? list[i - 1]! : null;
  }

  /** Every message the store has seen (sent or received). */
  allMessages(): IterableIterator<MessageRecord> {
    return this.messages.values();
  }

  /** Every account the store has seen, raw form. */
  accounts(): string[] {
    const keys = new Set(this.genesis.keys());
    for (const k of this.accountTxs.keys()) keys.add(k);
    for (const k of this.accountEdits.keys()) keys.add(k);
    return [...keys];
  }

  /** Sizes for the benchmarks: records indexed and what the caches hold. */
  stats(): { transactions: number; messages: number; accounts: number; cachedBytes: number; cachedEntries: number } {
    return { transactions: this.txs.size, messages: this.messages.size, accounts: this.accounts().length, cachedBytes: this.slots.bytes, cachedEntries: this.slots.entries };
  }

  private accountTxsOf(address: Address, create: true): StoredTx[];
  private accountTxsOf(address: Address, create: false): StoredTx[] | undefined;
  private accountTxsOf(address: Address, create: boolean): StoredTx[] | undefined {
    const key = accountKey(address);
    let list = this.accountTxs.get(key);
    if (!list && create) this.accountTxs.set(key, (list = []));
    return list;
  }
}

function storedFacts(msg: Message, cell: Cell): StoredFacts {
  const info = msg.info;
  const f: StoredFacts = { h: cell.hash().toString('hex'), b: msg.body.hash().toString('hex'), op: bodyOp(msg.body) };
  if (info.type !== 'external-in') f.s = accountKey(info.src);
  if (info.type !== 'external-out') f.d = accountKey(info.dest);
  if (info.type === 'external-in') f.n = normalizedHash(msg, cell).toString('hex');
  else {
    f.lt = info.createdLt.toString();
    f.at = info.createdAt;
  }
  return f;
}

/** Count of leading records (ascending mcSeqno) visible as of `atMc`. */
/** A chain's block by seqno: its blocks are consecutive from the first (0, or a fork's block). */
function bySeqno(chain: readonly BlockRecord[], seqno: number): BlockRecord | undefined {
  const first = chain[0]?.seqno ?? 0;
  return seqno >= first ? chain[seqno - first] : undefined;
}

function upperBoundMc(list: StoredTx[], atMc: number): number {
  return lowerBound(list, (t) => t.mcSeqno! > atMc);
}

/** Appends `value` to the list kept under `key`, starting the list when there is none. */
export function addToList<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** First index where `pred` holds, for a predicate monotonic over the array. */
export function lowerBound<T>(arr: T[], pred: (x: T) => boolean): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pred(arr[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
