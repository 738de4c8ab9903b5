/**
 * The local chain's own store and indexes, in memory: blocks, transactions, messages and per-account state
 * history. Sandbox executes; this remembers. Every record is immutable once sealed, and every index a v3-style
 * query needs (by account, by lt or utime window, by message hash, by block) is kept here rather than derived
 * from sandbox, whose getTransactions is unusable (ton-libraries.md §1).
 */
import { Address, Cell, loadShardAccount, type Message, type ShardAccount, type Transaction } from '@ton/core';

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
  hash: string;
  account: Address;
  lt: bigint;
  /** lt + 1 + out-message count: the last lt this transaction used */
  endLt: bigint;
  now: number;
  tx: Transaction;
  /** ShardAccount BoC (base64) right after this transaction, exactly as the emulator returned it */
  stateAfter: string;
  /** in-message hash (hex) */
  inMsgHash?: string;
  /** out-message hashes (hex), by out-message index */
  outMsgHashes: string[];
  /** hash (hex) of the transaction whose out-message caused this one */
  parentHash?: string;
  /** hash (hex) of the first transaction of the cascade (the external message's) */
  traceRootHash: string;
  /** set when sealed */
  block?: BlockRef;
  mcSeqno?: number;
}

export interface MessageRecord {
  /** hex */
  hash: string;
  msg: Message;
  cell: Cell;
  source?: Address;
  destination?: Address;
  createdLt: bigint;
  /** transaction (hex hash) that sent it; absent for external-in */
  sourceTxHash?: string;
  /** transaction (hex hash) that received it; absent for external-out or not yet delivered */
  destTxHash?: string;
}

export interface AccountStateRecord {
  /** 0 for a state set at genesis without a transaction */
  lt: bigint;
  txHash?: string;
  /** masterchain seqno from which this state is visible */
  mcSeqno: number;
  boc: string;
}

const accountKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

/** (account id, lt) order, the order block transaction lists use. */
export const compareAccountLt = (a: { account: Address; lt: bigint }, b: { account: Address; lt: bigint }): number => {
  const c = Buffer.compare(a.account.hash, b.account.hash);
  if (c !== 0) return c;
  return a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0;
};

export class ChainStore {
  readonly mcBlocks: BlockRecord[] = [];
  /** basechain shard blocks, by seqno */
  readonly shardBlocks: BlockRecord[] = [];
  private readonly txs = new Map<string, TxRecord>();
  /** sealed transactions in lt order (sandbox lts are globally unique and increasing) */
  private readonly txsByLt: TxRecord[] = [];
  private readonly accountTxs = new Map<string, TxRecord[]>();
  private readonly accountStates = new Map<string, AccountStateRecord[]>();
  private readonly messages = new Map<string, MessageRecord>();
  /** "src|dst|created_lt" → message hash, for tryLocate* */
  private readonly messagesByRoute = new Map<string, string>();
  private readonly parsedStates = new WeakMap<AccountStateRecord, ShardAccount>();
  /** states after pending transactions, already parsed by the executor, until their block is sealed */
  private readonly pendingParsed = new Map<TxRecord, ShardAccount>();
  /** executed but not yet sealed */
  pending: TxRecord[] = [];
  private readonly sealListeners = new Set<(mc: BlockRecord, sealed: readonly TxRecord[]) => void>();
  private readonly pendingListeners = new Set<(rec: TxRecord) => void>();

  // ---- events (subscriptions, indexes and the journal follow the chain through these) ----

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

  private emit<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
    for (const fn of listeners) {
      try {
        fn(...args);
      } catch (e) {
        console.error('local chain: a listener failed:', e);
      }
    }
  }

  // ---- writes (only the chain's mutation queue calls these) ----

  /** A state that exists without a transaction (genesis injection), visible from mc seqno 0. */
  putGenesisState(address: Address, boc: string): void {
    this.statesOf(address, true).push({ lt: 0n, mcSeqno: 0, boc });
  }

  /** `stateAfter`: `rec.stateAfter` already parsed, when the caller has it (saves parsing it again on a read). */
  addPending(rec: TxRecord, inMsg: { msg: Message; cell: Cell } | undefined, outMsgs: { msg: Message; cell: Cell }[], stateAfter?: ShardAccount): void {
    this.txs.set(rec.hash, rec);
    if (stateAfter) this.pendingParsed.set(rec, stateAfter);
    this.pending.push(rec);
    if (inMsg) this.upsertMessage(inMsg.msg, inMsg.cell).destTxHash = rec.hash;
    for (const o of outMsgs) this.upsertMessage(o.msg, o.cell).sourceTxHash = rec.hash;
    this.emit(this.pendingListeners, rec);
  }

  /** Records a sealed pair of blocks and makes their transactions visible. */
  seal(mc: BlockRecord, shard: BlockRecord | undefined, sealed: TxRecord[]): void {
    this.mcBlocks.push(mc);
    if (shard) this.shardBlocks.push(shard);
    // each account's newest state in this block: the one readers ask for next, so it keeps its parsed form
    const newest = new Map<string, { record: AccountStateRecord; parsed?: ShardAccount }>();
    for (const rec of sealed) {
      this.txsByLt.push(rec);
      this.accountTxsOf(rec.account, true).push(rec);
      const record: AccountStateRecord = { lt: rec.lt, txHash: rec.hash, mcSeqno: mc.seqno, boc: rec.stateAfter };
      this.statesOf(rec.account, true).push(record);
      newest.set(accountKey(rec.account), { record, parsed: this.pendingParsed.get(rec) });
      this.pendingParsed.delete(rec);
    }
    for (const { record, parsed } of newest.values()) if (parsed) this.parsedStates.set(record, parsed);
    const done = new Set(sealed);
    this.pending = this.pending.filter((p) => !done.has(p));
    this.emit(this.sealListeners, mc, sealed);
  }

  private upsertMessage(msg: Message, cell: Cell): MessageRecord {
    const hash = cell.hash().toString('hex');
    let rec = this.messages.get(hash);
    if (!rec) {
      const info = msg.info;
      rec = {
        hash,
        msg,
        cell,
        source: info.type === 'external-in' ? undefined : info.src,
        destination: info.type === 'external-out' ? undefined : info.dest,
        createdLt: info.type === 'external-in' ? 0n : info.createdLt,
      };
      this.messages.set(hash, rec);
      if (rec.source && rec.destination) {
        this.messagesByRoute.set(`${accountKey(rec.source)}|${accountKey(rec.destination)}|${rec.createdLt}`, hash);
      }
    }
    return rec;
  }

  // ---- reads ----

  get lastMc(): BlockRecord {
    return this.mcBlocks[this.mcBlocks.length - 1]!;
  }

  mcBlock(seqno: number): BlockRecord | undefined {
    return this.mcBlocks[seqno];
  }

  block(ref: BlockRef): BlockRecord | undefined {
    if (ref.shard !== SHARD_ALL) return undefined;
    if (ref.workchain === -1) return this.mcBlocks[ref.seqno];
    if (ref.workchain === 0) return this.shardBlocks[ref.seqno];
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
    return list.filter((t) => t.mcSeqno! <= atMc);
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
    const list = this.statesOf(address, false);
    if (!list) return undefined;
    let record: AccountStateRecord | undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]!.mcSeqno <= atMc) {
        record = list[i];
        break;
      }
    }
    if (!record) return undefined;
    let shardAccount = this.parsedStates.get(record);
    if (!shardAccount) {
      shardAccount = loadShardAccount(Cell.fromBase64(record.boc).beginParse());
      this.parsedStates.set(record, shardAccount);
    }
    return { record, shardAccount };
  }

  /** Every sealed transaction, in lt order. */
  sealedTransactions(): readonly TxRecord[] {
    return this.txsByLt;
  }

  /** Transactions committed by masterchain block `mcSeqno`: its own, then its shard blocks'. */
  transactionsOfMcBlock(mcSeqno: number): TxRecord[] {
    const mc = this.mcBlocks[mcSeqno];
    if (!mc) return [];
    return [mc, ...mc.shards.map((s) => this.block(s)!)].flatMap((b) => this.blockTxs(b));
  }

  /** The account's state history, oldest first (genesis injections, then one entry per sealed transaction). */
  accountStateHistory(address: Address): readonly AccountStateRecord[] {
    return this.statesOf(address, false) ?? [];
  }

  /** The state a sealed transaction started from; undefined when the account did not exist before it. */
  stateBefore(rec: TxRecord): AccountStateRecord | undefined {
    const list = this.statesOf(rec.account, false) ?? [];
    const i = list.findIndex((s) => s.txHash === rec.hash);
    return i > 0 ? list[i - 1] : undefined;
  }

  /** Every message the store has seen (sent or received). */
  allMessages(): IterableIterator<MessageRecord> {
    return this.messages.values();
  }

  /** Every account the store has seen, raw form. */
  accounts(): string[] {
    return [...this.accountStates.keys()];
  }

  private accountTxsOf(address: Address, create: true): TxRecord[];
  private accountTxsOf(address: Address, create: false): TxRecord[] | undefined;
  private accountTxsOf(address: Address, create: boolean): TxRecord[] | undefined {
    const key = accountKey(address);
    let list = this.accountTxs.get(key);
    if (!list && create) this.accountTxs.set(key, (list = []));
    return list;
  }

  private statesOf(address: Address, create: true): AccountStateRecord[];
  private statesOf(address: Address, create: false): AccountStateRecord[] | undefined;
  private statesOf(address: Address, create: boolean): AccountStateRecord[] | undefined {
    const key = accountKey(address);
    let list = this.accountStates.get(key);
    if (!list && create) this.accountStates.set(key, (list = []));
    return list;
  }
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
