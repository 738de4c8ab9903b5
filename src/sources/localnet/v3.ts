/**
 * The v3 interface (part 1) over the local chain's store: the filters, defaults, bounds, sort orders and error
 * texts of v3.md §1.4, §2.1, §2.2, §2.7 and §5, answered from sealed blocks only (what an indexer has seen).
 * Legacy routes (§2.7) go through the chain's V2Api, as the reference proxies them to ton-http-api.
 *
 * Serialised transactions and messages are cached per record (records are immutable once sealed): treat
 * every returned object as read-only.
 */
import { Address, Cell, loadShardAccount, type Account, type Message, type ShardAccount } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type { StdStackEntry, V2Api } from '../../api/v2.js';
import {
  resolvePage,
  type AccountBalance,
  type AccountState,
  type AccountStatesParams,
  type AccountStateFull,
  type AccountStatesResponse,
  type AddressBook,
  type AddressBookParams,
  type AdjacentTransactionsParams,
  type Block,
  type BlocksParams,
  type BlocksResponse,
  type Direction,
  type LegacyAccountParams,
  type MasterchainInfo,
  type McSeqnoPageParams,
  type Message as V3Message,
  type MessagesParams,
  type MessagesResponse,
  type Metadata,
  type PageParams,
  type Sort,
  type Transaction as V3Transaction,
  type TransactionsByMessageParams,
  type TransactionsParams,
  type TransactionsResponse,
  type V2AddressInformation,
  type V2EstimateFeeResult,
  type V2RunGetMethodResult,
  type V2SendMessageResult,
  type V2WalletInformation,
  type V3Api,
  type V3EstimateFeeParams,
  type V3Options,
  type V3RunGetMethodParams,
  type V3StackEntry,
  type WalletStatesParams,
  type WalletStatesResponse,
} from '../../api/v3.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import { bocB64, messageCells, normalizedHash } from '../../model/message.js';
import { hexNumber } from '../../model/stack.js';
import { detectWallet } from '../../model/wallet.js';
import {
  accountStateFullToV3,
  accountStateToV3,
  accountStatusOf,
  addressBookRow,
  b64,
  blockIdToV3,
  blockToV3,
  codeOf,
  contractMethods,
  dataOf,
  messageToV3,
  transactionToV3,
  walletStateToV3,
  ZERO_HASH_B64,
  type LatestState,
  type Network,
} from '../../model/v3/index.js';
import { bodyOp } from '../../model/tlb/common.js';
import type { V3OtherApi } from '../../api/v3-other.js';
import type { V3TokensApi } from '../../api/v3-tokens.js';
import type { V3TracesApi } from '../../api/v3-traces.js';
import { SHARD_ALL, type BlockRecord, type ChainStore, type TxRecord } from './chain/store.js';
import { LocalV3Other } from './v3-other.js';
import { LocalV3Tokens } from './v3-tokens.js';
import { LocalV3Traces } from './v3-traces.js';

/** What LocalV3Api reads: the chain's store and its v2 interface (LocalChain provides both). */
export interface V3ChainSource {
  readonly store: ChainStore;
  readonly v2: V2Api;
}

export interface LocalV3Options {
  /** user-friendly forms in address_book: testnet ones (0Q…/kQ…) or mainnet ones (UQ…/EQ…); default mainnet */
  network?: Network;
}

/** Every sealed transaction: lts are below 2^64. */
const LT_END = 1n << 64n;
/** `/accountStates` and `/walletStates` read at most this many rows (hard-coded LIMIT in the reference). */
const ACCOUNT_STATES_LIMIT = 1000;

type Key<T> = (x: T) => bigint | number | string;
type Order<T> = [Key<T>, Sort][];

/** A comparator from (key, direction) pairs, first key first. */
function comparator<T>(order: Order<T>): (a: T, b: T) => number {
  return (a, b) => {
    for (const [key, dir] of order) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      const c = x < y ? -1 : 1;
      return dir === 'asc' ? c : -c;
    }
    return 0;
  };
}

const page = <T>(list: T[], p: PageParams): T[] => {
  const { limit, offset } = resolvePage(p);
  return list.slice(offset, offset + limit);
};

const hex = (b: Buffer): string => b.toString('hex');
const addrKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

/** One message as the indexer keeps it: grouped by hash, with the transactions that sent and received it. */
interface MessageRow {
  hash: Buffer;
  hashB64: string;
  norm?: Buffer;
  msg: Message;
  cell: Cell;
  bodyHash: Buffer;
  opcode: number | null;
  /** null for external-in, as the reference stores it */
  createdLt: bigint | null;
  createdAt: number | null;
  /** the transaction that sent it (out direction) */
  outTx?: TxRecord;
  /** the transaction that received it (in direction) */
  inTx?: TxRecord;
}

/**
 * What the part-2 modules (tokens, traces, other) read from part 1: the store, the chain's v2 interface and
 * the shared serialisers, so one transaction or address_book row is built the same way on every route.
 */
export interface LocalV3Context {
  readonly store: ChainStore;
  readonly v2: V2Api;
  /** which user-friendly forms address_book prints */
  readonly network: Network;
  /** a sealed transaction as v3 prints it (memoised per record: treat as read-only) */
  txToV3(rec: TxRecord): V3Transaction;
  /** `address_book` for raw addresses ({} when the client asked for none) */
  book(addresses: Iterable<string>, opts: V3Options): AddressBook;
  /** `metadata` for raw addresses ({} when the client asked for none), once the token index has caught up */
  metadata(addresses: Iterable<string>, opts: V3Options): Promise<Metadata>;
}

/** Copies an object's methods (own and inherited, bound to it) onto `target`. */
function mountMethods(target: object, part: object): void {
  for (let proto = Object.getPrototypeOf(part); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const fn = (part as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof fn !== 'function' || name in target) continue;
      (target as Record<string, unknown>)[name] = fn.bind(part);
    }
  }
}

// the part-2 routes are methods of LocalV3Tokens, LocalV3Traces and LocalV3Other, mounted in the constructor
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface LocalV3Api extends V3TokensApi, V3TracesApi, V3OtherApi {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class LocalV3Api implements V3Api, LocalV3Context {
  readonly network: Network;
  /** the part-2 modules (their route methods are mounted onto this object) */
  readonly tokenPart: LocalV3Tokens;
  readonly tracePart: LocalV3Traces;
  readonly otherPart: LocalV3Other;
  private readonly txCache = new WeakMap<TxRecord, V3Transaction>();
  private readonly methodsCache = new Map<string, number[] | null>();
  /** keyed by the store's parsed state, which lives exactly as long as its record */
  private readonly latestStates = new WeakMap<ShardAccount, LatestState>();
  private readonly accountRows = new WeakMap<LatestState, Map<boolean, AccountStateFull>>();
  private readonly messageRows = new Map<string, MessageRow>();
  private messagesIndexed = 0;
  private globalId?: number;

  constructor(
    private readonly source: V3ChainSource,
    opts: LocalV3Options = {},
  ) {
    this.network = opts.network ?? 'mainnet';
    this.tokenPart = new LocalV3Tokens(this);
    this.tracePart = new LocalV3Traces(this);
    this.otherPart = new LocalV3Other(this);
    for (const part of [this.tokenPart, this.tracePart, this.otherPart]) mountMethods(this, part);
  }

  get v2(): V2Api {
    return this.source.v2;
  }

  get store(): ChainStore {
    return this.source.store;
  }

  // ---- shared helpers ----

  private sealedTxs(): TxRecord[] {
    return this.store.transactionsByLt(0n, LT_END);
  }

  private mcOr404(seqno: number): BlockRecord {
    const b = this.store.mcBlock(seqno);
    if (!b || seqno < 0) throw new ApiError(404, `masterchain block ${seqno} not found`);
    return b;
  }

  private latest(address: Address): { sa: ShardAccount; boc: string } | undefined {
    const s = this.store.accountState(address, this.store.lastMc.seqno);
    return s ? { sa: s.shardAccount, boc: s.record.boc } : undefined;
  }

  private methodsOf(code: Cell | null): number[] | null {
    if (!code) return null;
    const key = hex(code.hash());
    if (!this.methodsCache.has(key)) this.methodsCache.set(key, contractMethods(code));
    return this.methodsCache.get(key)!;
  }

  private latestState(address: Address): LatestState | undefined {
    const s = this.latest(address);
    if (!s) return undefined;
    let st = this.latestStates.get(s.sa);
    if (!st) {
      st = {
        address,
        account: s.sa.account ?? null,
        lastTransHash: s.sa.lastTransactionLt > 0n ? bigintHash(s.sa.lastTransactionHash) : null,
        lastTransLt: s.sa.lastTransactionLt > 0n ? s.sa.lastTransactionLt : null,
        stateHash: accountCellHash(s.boc),
      };
      this.latestStates.set(s.sa, st);
    }
    return st;
  }

  /** An /accountStates row is a pure function of an immutable stored state: built once per state and BoC option. */
  private accountRow(st: LatestState, includeBoc: boolean): AccountStateFull {
    let rows = this.accountRows.get(st);
    if (!rows) this.accountRows.set(st, (rows = new Map()));
    let row = rows.get(includeBoc);
    if (!row) rows.set(includeBoc, (row = accountStateFullToV3(st, { includeBoc })));
    return row;
  }

  book(addresses: Iterable<string>, opts: V3Options): AddressBook {
    if (opts.noAddressBook) return {};
    const book: AddressBook = {};
    for (const raw of addresses) {
      if (raw in book) continue;
      const address = Address.parseRaw(raw);
      const code = codeOf(this.latest(address)?.sa.account);
      book[raw] = addressBookRow(address, code ? b64(code.hash()) : null, this.network, { methodIds: this.methodsOf(code) });
    }
    return book;
  }

  async metadata(addresses: Iterable<string>, opts: V3Options): Promise<Metadata> {
    return opts.noMetadata ? {} : this.tokenPart.metadataOf(addresses);
  }

  private async blockGlobalId(): Promise<number> {
    this.globalId ??= (await this.source.v2.getBlockHeader({ workchain: -1, shard: SHARD_ALL, seqno: 0 })).global_id;
    return this.globalId;
  }

  private blockToV3(b: BlockRecord, globalId: number): Block {
    const isMc = b.workchain === -1;
    // a shard block refers to the masterchain block before the one that commits it
    const ref = isMc ? 0 : Math.max(0, b.mcSeqno - 1);
    return blockToV3({
      workchain: b.workchain,
      shard: b.shard,
      seqno: b.seqno,
      rootHash: b.rootHash,
      fileHash: b.fileHash,
      globalId,
      genUtime: b.genUtime,
      startLt: b.startLt,
      endLt: b.endLt,
      minRefMcSeqno: ref,
      masterRefSeqno: ref,
      txCount: b.txHashes.length,
      mcRef: { workchain: -1, shard: SHARD_ALL, seqno: b.mcSeqno },
      prevBlocks: b.prev ? [b.prev] : [],
    });
  }

  /** State right before a transaction: the account's previous transaction's, or its genesis state. */
  private stateBefore(rec: TxRecord): AccountState {
    const list = this.store.accountTransactions(rec.account);
    const i = list.indexOf(rec);
    let account: Account | null = null;
    if (i > 0) {
      account = parseShardAccount(list[i - 1]!.stateAfter).account ?? null;
    } else {
      const genesis = this.store.accountState(rec.account, 0);
      if (genesis && genesis.record.lt === 0n) account = genesis.shardAccount.account ?? null;
    }
    return accountStateToV3(rec.tx.stateUpdate.oldHash, account);
  }

  txToV3(rec: TxRecord): V3Transaction {
    let out = this.txCache.get(rec);
    if (!out) {
      out = transactionToV3(rec.tx, {
        workchain: rec.account.workChain,
        block: blockIdToV3(rec.block!),
        mcSeqno: rec.mcSeqno!,
        traceId: Buffer.from(rec.traceRootHash, 'hex'),
        stateBefore: this.stateBefore(rec),
        stateAfter: accountStateToV3(rec.tx.stateUpdate.newHash, parseShardAccount(rec.stateAfter).account ?? null),
      });
      this.txCache.set(rec, out);
    }
    return out;
  }

  private txResponse(recs: TxRecord[], opts: V3Options): TransactionsResponse {
    const transactions = recs.map((r) => this.txToV3(r));
    const addrs: string[] = [];
    for (const t of transactions) {
      addrs.push(t.account);
      if (t.in_msg?.source) addrs.push(t.in_msg.source);
      for (const m of t.out_msgs) if (m.destination) addrs.push(m.destination);
    }
    return { transactions, address_book: this.book(addrs, opts) };
  }

  /** Brings the message index up to date with the sealed transactions. */
  private messageIndex(): Map<string, MessageRow> {
    const txs = this.sealedTxs();
    for (let i = this.messagesIndexed; i < txs.length; i++) {
      const rec = txs[i]!;
      const cells = messageCells(rec.tx);
      if (rec.tx.inMessage && cells.inMsg) this.messageRow(rec.tx.inMessage, cells.inMsg).inTx = rec;
      const keys = rec.tx.outMessages.keys().sort((a, b) => a - b);
      cells.outMsgs.forEach((cell, k) => {
        this.messageRow(rec.tx.outMessages.get(keys[k]!)!, cell).outTx = rec;
      });
    }
    this.messagesIndexed = txs.length;
    return this.messageRows;
  }

  private messageRow(msg: Message, cell: Cell): MessageRow {
    const key = hex(cell.hash());
    let row = this.messageRows.get(key);
    if (!row) {
      const info = msg.info;
      row = {
        hash: cell.hash(),
        hashB64: b64(cell.hash()),
        ...(info.type === 'external-in' ? { norm: normalizedHash(msg, cell) } : {}),
        msg,
        cell,
        bodyHash: msg.body.hash(),
        opcode: bodyOp(msg.body),
        createdLt: info.type === 'external-in' ? null : info.createdLt,
        createdAt: info.type === 'external-in' ? null : info.createdAt,
      };
      this.messageRows.set(key, row);
    }
    return row;
  }

  /** msg_hash filters match the hash or the TEP-467 normalised hash. */
  private static matchesHash(row: MessageRow, hashes: Buffer[]): boolean {
    return hashes.some((h) => h.equals(row.hash) || (row.norm !== undefined && h.equals(row.norm)));
  }

  // ---- blocks ----

  async masterchainInfo(): Promise<MasterchainInfo> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlocks;
    return { last: this.blockToV3(mc[mc.length - 1]!, globalId), first: this.blockToV3(mc[0]!, globalId) };
  }

  async blocks(p: BlocksParams): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    // natural order: by masterchain seqno, the masterchain block before the shard blocks it commits
    let list = [...this.store.mcBlocks, ...this.store.shardBlocks].sort(comparator<BlockRecord>([
      [(b) => b.mcSeqno, 'asc'],
      [(b) => b.workchain, 'asc'],
      [(b) => b.seqno, 'asc'],
    ]));
    list = list.filter(
      (b) =>
        (p.workchain === undefined || b.workchain === p.workchain) &&
        (p.shard === undefined || BigInt.asUintN(64, b.shard) === BigInt.asUintN(64, p.shard)) &&
        (p.seqno === undefined || b.seqno === p.seqno) &&
        (p.rootHash === undefined || b.rootHash.equals(p.rootHash)) &&
        (p.fileHash === undefined || b.fileHash.equals(p.fileHash)) &&
        (p.mcSeqno === undefined || b.mcSeqno === p.mcSeqno) &&
        (p.startUtime === undefined || b.genUtime >= p.startUtime) &&
        (p.endUtime === undefined || b.genUtime <= p.endUtime) &&
        // both lt bounds apply to the block's start_lt (v3.md §2.1)
        (p.startLt === undefined || b.startLt >= p.startLt) &&
        (p.endLt === undefined || b.startLt <= p.endLt),
    );
    // the reference orders by gen_utime only when sort is given; ties keep the natural order
    if (p.sort) {
      const dir = p.sort;
      list = list
        .map((b, i) => ({ b, i }))
        .sort(comparator<{ b: BlockRecord; i: number }>([
          [(x) => x.b.genUtime, dir],
          [(x) => x.i, dir],
        ]))
        .map((x) => x.b);
    }
    return { blocks: page(list, p).map((b) => this.blockToV3(b, globalId)) };
  }

  async masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlock(p.seqno);
    const all = mc ? [mc, ...this.store.shardBlocks.filter((b) => b.mcSeqno === p.seqno)] : [];
    const list = page(all, p);
    if (list.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: list.map((b) => this.blockToV3(b, globalId)) };
  }

  async masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlock(p.seqno);
    const list = (mc?.shards ?? [])
      .map((ref) => this.store.block(ref))
      .filter((b): b is BlockRecord => b !== undefined)
      .sort(comparator<BlockRecord>([
        [(b) => b.workchain, 'asc'],
        [(b) => BigInt.asUintN(64, b.shard), 'asc'],
        [(b) => b.seqno, 'asc'],
      ]));
    if (list.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: list.map((b) => this.blockToV3(b, globalId)) };
  }

  // ---- transactions ----

  async transactions(p: TransactionsParams): Promise<TransactionsResponse> {
    const s: Sort = p.sort ?? 'desc';
    resolvePage(p);
    if (p.mcSeqno !== undefined) this.mcOr404(p.mcSeqno);
    const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
    let list = hasUtime
      ? this.store.transactionsByUtime(p.startUtime ?? 0, p.endUtime === undefined ? Number.MAX_SAFE_INTEGER : p.endUtime + 1)
      : this.store.transactionsByLt(p.startLt ?? 0n, p.endLt === undefined ? LT_END : p.endLt + 1n);
    const accounts = p.account?.length ? new Set(p.account.map(addrKey)) : undefined;
    const hashes = p.hash?.length ? new Set(p.hash.map(hex)) : undefined;
    list = list.filter(
      (t) =>
        (p.workchain === undefined || t.block!.workchain === p.workchain) &&
        (p.shard === undefined || BigInt.asUintN(64, t.block!.shard) === BigInt.asUintN(64, p.shard)) &&
        (p.seqno === undefined || t.block!.seqno === p.seqno) &&
        (p.mcSeqno === undefined || t.mcSeqno === p.mcSeqno) &&
        (!accounts || accounts.has(addrKey(t.account))) &&
        (!hashes || hashes.has(t.hash)) &&
        (p.lt === undefined || t.lt === p.lt) &&
        (p.startLt === undefined || t.lt >= p.startLt) &&
        (p.endLt === undefined || t.lt <= p.endLt) &&
        (p.startUtime === undefined || t.now >= p.startUtime) &&
        (p.endUtime === undefined || t.now <= p.endUtime),
    );
    // exclude_account is parsed but not applied, as in the reference (v3.md §2.1)

    // ordering: each rule below overrides the ones before it (buildTransactionsQuery)
    const lt: Key<TxRecord> = (t) => t.lt;
    const now: Key<TxRecord> = (t) => t.now;
    const account: Key<TxRecord> = (t) => rawUpper(t.account);
    const hash: Key<TxRecord> = (t) => b64(Buffer.from(t.hash, 'hex'));
    let order: Order<TxRecord> = hasUtime ? [[now, s], [lt, s], [account, 'asc']] : [[lt, s], [account, 'asc']];
    if (p.mcSeqno !== undefined) order = [[lt, s], [account, 'asc']];
    if (p.account?.length === 1) order = [[account, 'asc'], ...(hasUtime ? ([[now, s]] as Order<TxRecord>) : []), [lt, s]];
    if (p.hash?.length) order = [[hash, s]];
    if (p.lt !== undefined) order = [[lt, 'asc'], [account, s]];
    list.sort(comparator(order));
    return this.txResponse(page(list, p), p);
  }

  async transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse> {
    const s: Sort = p.sort ?? 'desc';
    resolvePage(p);
    this.mcOr404(p.seqno);
    const list = this.sealedTxs()
      .filter((t) => t.mcSeqno === p.seqno)
      .sort(comparator<TxRecord>([
        [(t) => t.lt, s],
        [(t) => rawUpper(t.account), 'asc'],
      ]));
    return this.txResponse(page(list, p), p);
  }

  async transactionsByMessage(p: TransactionsByMessageParams): Promise<TransactionsResponse> {
    if (!p.msgHash?.length && !p.bodyHash && p.opcode === undefined) {
      throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
    }
    if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
      throw new ApiError(422, 'direction should be one of: in, out');
    }
    resolvePage(p);
    // an opcode filter looks at the receiving side only (the reference adds direction='in')
    const directions: Direction[] = p.opcode !== undefined ? ['in'] : p.direction ? [p.direction] : ['in', 'out'];
    if (p.opcode !== undefined && p.direction === 'out') return this.txResponse([], p);
    const found = new Map<string, TxRecord>();
    for (const row of this.messageIndex().values()) {
      if (p.msgHash?.length && !LocalV3Api.matchesHash(row, p.msgHash)) continue;
      if (p.bodyHash && !row.bodyHash.equals(p.bodyHash)) continue;
      if (p.opcode !== undefined && row.opcode !== p.opcode >>> 0) continue;
      for (const d of directions) {
        const tx = d === 'in' ? row.inTx : row.outTx;
        if (tx) found.set(tx.hash, tx);
      }
    }
    const list = [...found.values()].sort(comparator<TxRecord>([
      [(t) => t.lt, 'desc'],
      [(t) => rawUpper(t.account), 'asc'],
    ]));
    return this.txResponse(page(list, p), p);
  }

  async adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse> {
    if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
      throw new ApiError(422, 'direction should be one of: in, out');
    }
    const rec = this.store.tx(hex(p.hash));
    const found = new Map<string, TxRecord>();
    if (rec) {
      const rows = this.messageIndex();
      // "in": the transactions that sent this one's inbound message; "out": those that received its outbound ones
      if (p.direction !== 'out' && rec.inMsgHash) {
        const tx = rows.get(rec.inMsgHash)?.outTx;
        if (tx) found.set(tx.hash, tx);
      }
      if (p.direction !== 'in') {
        for (const h of rec.outMsgHashes) {
          const tx = rows.get(h)?.inTx;
          if (tx) found.set(tx.hash, tx);
        }
      }
    }
    if (found.size === 0) throw new ApiError(404, 'adjacent transactions not found');
    const list = [...found.values()].sort(comparator<TxRecord>([[(t) => t.lt, 'asc']]));
    return this.txResponse(list, p);
  }

  // ---- messages ----

  async messages(p: MessagesParams): Promise<MessagesResponse> {
    const s: Sort = p.sort ?? 'desc';
    resolvePage(p);
    if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
      throw new ApiError(422, 'direction should be one of: in, out');
    }
    const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
    // the order column: created_at with a utime filter, created_lt otherwise (NULL for external-in)
    const orderCol = (r: MessageRow): bigint | null => (hasUtime ? (r.createdAt === null ? null : BigInt(r.createdAt)) : r.createdLt);
    const src = (r: MessageRow): Address | undefined => (r.msg.info.type === 'external-in' ? undefined : r.msg.info.src);
    const dst = (r: MessageRow): Address | undefined => (r.msg.info.type === 'external-out' ? undefined : r.msg.info.dest);
    const sameAddr = (a: Address | undefined, want: Address | null | undefined) =>
      want === undefined ? true : want === null ? a === undefined : a !== undefined && a.equals(want);

    const rows = [...this.messageIndex().values()].filter((r) => {
      if (p.msgHash?.length && !LocalV3Api.matchesHash(r, p.msgHash)) return false;
      if (p.bodyHash && !r.bodyHash.equals(p.bodyHash)) return false;
      if (!sameAddr(src(r), p.source) || !sameAddr(dst(r), p.destination)) return false;
      if (p.opcode !== undefined && r.opcode !== p.opcode >>> 0) return false;
      if (p.startUtime !== undefined && (r.createdAt === null || r.createdAt < p.startUtime)) return false;
      if (p.endUtime !== undefined && (r.createdAt === null || r.createdAt > p.endUtime)) return false;
      if (p.startLt !== undefined && (r.createdLt === null || r.createdLt < p.startLt)) return false;
      if (p.endLt !== undefined && (r.createdLt === null || r.createdLt > p.endLt)) return false;
      if (p.direction === 'in' && !r.inTx) return false;
      if (p.direction === 'out' && !r.outTx) return false;
      if (p.excludeExternals && orderCol(r) === null) return false;
      if (p.onlyExternals && orderCol(r) !== null) return false;
      return true;
    });
    // ORDER BY <col> <s>, msg_hash <s>; PostgreSQL puts NULLs last ascending and first descending
    rows.sort((a, b) => {
      const x = orderCol(a);
      const y = orderCol(b);
      let c = 0;
      if (x === null || y === null) c = x === y ? 0 : x === null ? 1 : -1;
      else c = x < y ? -1 : x > y ? 1 : 0;
      if (c === 0) c = a.hashB64 < b.hashB64 ? -1 : a.hashB64 > b.hashB64 ? 1 : 0;
      return s === 'asc' ? c : -c;
    });
    const messages: V3Message[] = page(rows, p).map((r) =>
      messageToV3(r.msg, r.cell, {
        ...(r.inTx ? { inMsgTxHash: Buffer.from(r.inTx.hash, 'hex') } : {}),
        ...(r.outTx ? { outMsgTxHash: Buffer.from(r.outTx.hash, 'hex') } : {}),
      }),
    );
    const addrs = messages.flatMap((m) => [m.source, m.destination].filter((a): a is string => a !== null));
    return { messages, address_book: this.book(addrs, p), metadata: await this.metadata(addrs, p) };
  }

  // ---- accounts ----

  private statesOf(addresses: Address[], codeHash?: Buffer[]): LatestState[] {
    if (addresses.length === 0) throw new ApiError(422, 'address of account is required');
    const seen = new Set<string>();
    const out: LatestState[] = [];
    for (const a of addresses) {
      const key = addrKey(a);
      if (seen.has(key)) continue;
      seen.add(key);
      const st = this.latestState(a);
      if (!st) continue;
      if (codeHash?.length) {
        const code = codeOf(st.account);
        if (!code || !codeHash.some((h) => h.equals(code.hash()))) continue;
      }
      out.push(st);
      if (out.length >= ACCOUNT_STATES_LIMIT) break;
    }
    return out;
  }

  async accountStates(p: AccountStatesParams): Promise<AccountStatesResponse> {
    const states = this.statesOf(p.address, p.codeHash);
    const accounts = states.map((s) => this.accountRow(s, p.includeBoc ?? true));
    const addrs = accounts.map((a) => a.address);
    return { accounts, address_book: this.book(addrs, p), metadata: await this.metadata(addrs, p) };
  }

  async walletStates(p: WalletStatesParams): Promise<WalletStatesResponse> {
    const wallets = this.statesOf(p.address).map(walletStateToV3);
    const addrs = wallets.map((w) => w.address);
    return { wallets, address_book: this.book(addrs, p), metadata: await this.metadata(addrs, p) };
  }

  async addressBook(p: AddressBookParams): Promise<AddressBook> {
    if (p.address.length === 0) throw new ApiError(422, 'at least 1 address required');
    const out: AddressBook = {};
    for (const input of p.address) {
      const parsed = parseAddressAny(input);
      if (!parsed) {
        out[input] = { user_friendly: null, domain: null, interfaces: null };
        continue;
      }
      const raw = rawUpper(parsed.address);
      out[input] = this.book([raw], {})[raw]!;
    }
    return out;
  }

  async topAccountsByBalance(p: PageParams): Promise<AccountBalance[]> {
    resolvePage(p);
    const last = this.store.lastMc.seqno;
    const rows: { account: string; balance: bigint }[] = [];
    for (const key of this.store.accounts()) {
      const address = Address.parseRaw(key);
      const account = this.store.accountState(address, last)?.shardAccount.account;
      if (account) rows.push({ account: rawUpper(address), balance: account.storage.balance.coins });
    }
    rows.sort(comparator<{ account: string; balance: bigint }>([
      [(r) => r.balance, 'desc'],
      [(r) => r.account, 'asc'],
    ]));
    return page(rows, p).map((r) => ({ account: r.account, balance: r.balance.toString() }));
  }

  // ---- legacy v2 routes ----

  async addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation> {
    if (p.useV2) {
      const r = await this.source.v2.getAddressInformation({ address: p.address });
      return {
        balance: r.balance,
        code: r.code || null,
        data: r.data || null,
        last_transaction_lt: r.last_transaction_id.lt || null,
        last_transaction_hash: r.last_transaction_id.hash || null,
        frozen_hash: r.frozen_hash || null,
        status: r.state,
      };
    }
    const st = this.latestState(p.address);
    if (!st) {
      // unknown to the index: the reference's synthetic uninit answer
      return { balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: ZERO_HASH_B64, frozen_hash: null, status: 'uninit' };
    }
    const code = codeOf(st.account);
    const data = dataOf(st.account);
    return {
      balance: (st.account?.storage.balance.coins ?? 0n).toString(),
      code: code ? bocB64(code) : null,
      data: data ? bocB64(data) : null,
      last_transaction_lt: (st.lastTransLt ?? 0n).toString(),
      last_transaction_hash: st.lastTransHash ? b64(st.lastTransHash) : ZERO_HASH_B64,
      // the v3 path never fills frozen_hash (v3.md §2.7)
      frozen_hash: null,
      status: accountStatusOf(st.account),
    };
  }

  async walletInformation(p: LegacyAccountParams): Promise<V2WalletInformation> {
    if (p.useV2) {
      const r = await this.source.v2.getWalletInformation({ address: p.address });
      if (!r.wallet && r.account_state !== 'uninitialized') throw new ApiError(409, 'not a wallet');
      return {
        balance: r.balance,
        ...(r.wallet_type ? { wallet_type: r.wallet_type } : {}),
        ...(r.seqno !== undefined ? { seqno: r.seqno } : {}),
        ...(r.wallet_id !== undefined ? { wallet_id: r.wallet_id } : {}),
        last_transaction_lt: r.last_transaction_id.lt,
        last_transaction_hash: r.last_transaction_id.hash,
        status: r.account_state,
      };
    }
    const st = this.latestState(p.address);
    if (!st) return { balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH_B64, status: 'uninit' };
    const status = accountStatusOf(st.account);
    const wallet = detectWallet(codeOf(st.account), dataOf(st.account));
    if (!wallet && status !== 'uninit' && status !== 'nonexist') throw new ApiError(409, 'not a wallet');
    return {
      balance: (st.account?.storage.balance.coins ?? 0n).toString(),
      ...(wallet ? { wallet_type: wallet.type, seqno: wallet.seqno } : {}),
      ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
      last_transaction_lt: (st.lastTransLt ?? 0n).toString(),
      last_transaction_hash: st.lastTransHash ? b64(st.lastTransHash) : ZERO_HASH_B64,
      status,
    };
  }

  async message(p: { boc: Buffer }): Promise<V2SendMessageResult> {
    const r = await refusedAsBadInput(this.source.v2.sendBocReturnHash({ boc: p.boc }));
    return { message_hash: r.hash, ...(r.hash_norm ? { message_hash_norm: r.hash_norm } : {}) };
  }

  async runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult> {
    const r = await this.source.v2.runGetMethodStd({ address: p.address, method: p.method, stack: p.stack });
    return { gas_used: r.gas_used, exit_code: r.exit_code, stack: r.stack.map(stdToV3Entry) };
  }

  async estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult> {
    const r = await refusedAsBadInput(this.source.v2.estimateFee(p));
    const strip = ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee }: (typeof r)['source_fees']) => ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee });
    return { source_fees: strip(r.source_fees), destination_fees: r.destination_fees.map(strip) };
  }
}

// ---- local helpers ----

/**
 * The v2 path reports a message the contract refuses as the lite server's 500; v3 answers bad input with a 4xx
 * whatever the reference server does (issue 3), so the refusal becomes a 422 with the same text.
 */
async function refusedAsBadInput<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof ApiError && e.status >= 500 && e.message.startsWith('LITE_SERVER_UNKNOWN: cannot apply external message')) {
      throw new ApiError(422, e.message);
    }
    throw e;
  }
}

/** A 256-bit hash @ton/core keeps as bigint, as 32 bytes. */
const bigintHash = (h: bigint): Buffer => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

const shardAccounts = new Map<string, ShardAccount>();

/** ShardAccount BoCs repeat across calls (a state is read for each of its transactions): parse each once. */
function parseShardAccount(boc: string): ShardAccount {
  let sa = shardAccounts.get(boc);
  if (!sa) {
    sa = loadShardAccount(Cell.fromBase64(boc).beginParse());
    if (shardAccounts.size > 10_000) shardAccounts.clear();
    shardAccounts.set(boc, sa);
  }
  return sa;
}

/** The account state hash of a stored state: the hash of the ShardAccount's `^Account` ref, exactly as stored. */
function accountCellHash(shardAccountBoc: string): Buffer {
  return Cell.fromBase64(shardAccountBoc).refs[0]!.hash();
}

/** A typed (runGetMethodStd) entry as the v3 proxy prints it: numbers in hex, cells and slices as BoC. */
function stdToV3Entry(e: StdStackEntry): V3StackEntry {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'num', value: hexNumber(BigInt(e.number.number)) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: e.cell.bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: e.slice.bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: e.tuple.elements.map(stdToV3Entry) };
    case 'tvm.stackEntryList':
      return { type: 'list', value: e.list.elements.map(stdToV3Entry) };
    case 'tvm.stackEntryUnsupported':
      // the reference answers 501 for entries its decoder does not know (NaN here)
      throw new ApiError(501, 'failed to decode api/v2 stack: unsupported stack entry type: tvm.stackEntryUnsupported');
  }
}
