/**
 * The v3 core answers over the local chain (v3.md §1.4, §2.1, §2.2, §2.7, §5): blocks, transactions, messages,
 * accounts and the legacy routes, with the reference's filters, defaults, bounds, sort orders and error texts,
 * answered from sealed blocks only (what an indexer has seen). Legacy routes (§2.7) go through the chain's V2Api,
 * as the reference proxies them to ton-http-api.
 */
import { Address, Cell, type ShardAccount } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type { StdStackEntry } from '../../api/v2.js';
import type {
  AccountBalance,
  AccountStateFull,
  AccountStatesParams,
  AccountStatesResponse,
  AddressBookParams,
} from '../../api/v3/accounts.js';
import type { Block, BlocksParams, BlocksResponse, MasterchainInfo } from '../../api/v3/blocks.js';
import {
  type AddressBook,
  type Direction,
  type PageParams,
  resolvePage,
  type Sort,
  type V3Options,
} from '../../api/v3/common.js';
import type { V3CoreApi } from '../../api/v3/index.js';
import type { Message as V3Message, MessagesParams, MessagesResponse } from '../../api/v3/messages.js';
import type {
  AdjacentTransactionsParams,
  McSeqnoPageParams,
  TransactionsByMessageParams,
  TransactionsParams,
  TransactionsResponse,
} from '../../api/v3/transactions.js';
import type {
  LegacyAccountParams,
  V2AddressInformation,
  V2EstimateFeeResult,
  V2RunGetMethodResult,
  V2SendMessageResult,
  V2WalletInformation,
  V3EstimateFeeParams,
  V3RunGetMethodParams,
  V3StackEntry,
} from '../../api/v3/v2-proxies.js';
import type { WalletStatesParams, WalletStatesResponse } from '../../api/v3/wallets.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import { bocB64 } from '../../model/message.js';
import { hexNumber } from '../../model/stack.js';
import { detectWallet } from '../../model/wallet.js';
import {
  accountStateFullToV3,
  accountStatusOf,
  b64,
  blockToV3,
  codeOf,
  dataOf,
  messageToV3,
  walletStateToV3,
  ZERO_HASH_B64,
  type LatestState,
} from '../../model/v3/index.js';
import { reusableJson } from '../../pipeline/json-fragments.js';
import { addToList, lowerBound, SHARD_ALL, type BlockRecord, type ChainStore, type TxRecord } from './chain/store.js';
import { LT_END, matchesHash, type MessageRow } from './indexer/messages.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf, pageOfWalk, walkArray, type Key, type Order } from './v3-order.js';

/** `/accountStates` and `/walletStates` read at most this many rows (hard-coded LIMIT in the reference). */
const ACCOUNT_STATES_LIMIT = 1000;

const hex = (b: Buffer): string => b.toString('hex');
const addrKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

export class LocalV3Core implements V3CoreApi {
  /** keyed by the store's parsed state, which lives exactly as long as its record */
  private readonly latestStates = new WeakMap<ShardAccount, LatestState>();
  private readonly blockRows = new WeakMap<BlockRecord, Block>();
  private readonly accountRows = new WeakMap<LatestState, Map<boolean, AccountStateFull>>();
  private globalId?: number;

  constructor(private readonly ctx: LocalV3Context) {}

  private get store(): ChainStore {
    return this.ctx.store;
  }

  private sealedTxs(): TxRecord[] {
    return this.store.transactionsByLt(0n, LT_END);
  }

  private mcOr404(seqno: number): BlockRecord {
    const b = this.store.mcBlock(seqno);
    if (!b || seqno < 0) throw new ApiError(404, `masterchain block ${seqno} not found`);
    return b;
  }

  private latestState(address: Address): LatestState | undefined {
    const s = this.ctx.latest(address);
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

  private async blockGlobalId(): Promise<number> {
    this.globalId ??= (await this.ctx.v2.getBlockHeader({ workchain: -1, shard: SHARD_ALL, seqno: 0 })).global_id;
    return this.globalId;
  }

  /** A sealed block's v3 row never changes: built once per block (and its JSON text reused by the reply serializer). */
  private blockToV3(b: BlockRecord, globalId: number): Block {
    let row = this.blockRows.get(b);
    if (!row) this.blockRows.set(b, (row = reusableJson(this.buildBlock(b, globalId))));
    return row;
  }

  private buildBlock(b: BlockRecord, globalId: number): Block {
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

  private txResponse(recs: TxRecord[], opts: V3Options): TransactionsResponse {
    return this.ctx.txResponse(recs.map((r) => this.ctx.txToV3(r)), opts);
  }

  // ---- blocks ----

  async masterchainInfo(): Promise<MasterchainInfo> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlocks;
    return { last: this.blockToV3(mc[mc.length - 1]!, globalId), first: this.blockToV3(mc[0]!, globalId) };
  }

  async blocks(p: BlocksParams): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    const keep = (b: BlockRecord): boolean =>
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
      (p.endLt === undefined || b.startLt <= p.endLt);
    // the reference orders by gen_utime only when sort is given; ties keep the natural order
    const dir = p.sort;
    const compare = dir
      ? (a: BlockRecord, b: BlockRecord) => {
          const c = a.genUtime === b.genUtime ? naturalOrder(a, b) : a.genUtime < b.genUtime ? -1 : 1;
          return dir === 'asc' ? c : -c;
        }
      : naturalOrder;
    // candidates from what names blocks directly; otherwise the natural order is walked from the end the sort
    // starts at (gen_utime never decreases along it: the chain's clock only moves forward)
    const named = this.namedBlocks(p);
    const list = named
      ? pageOf(named.filter(keep).sort(compare), p)
      : pageOfWalk(this.naturalBlocks(dir ?? 'asc'), keep, (a, b) => dir !== undefined && a.genUtime === b.genUtime, compare, p);
    return { blocks: list.map((b) => this.blockToV3(b, globalId)) };
  }

  /** The blocks a query names by seqno, masterchain seqno or hash (a superset of its matches), if it names any. */
  private namedBlocks(p: BlocksParams): BlockRecord[] | undefined {
    const chains = p.workchain === undefined ? [-1, 0] : [p.workchain];
    if (p.seqno !== undefined) {
      return chains.map((workchain) => this.store.block({ workchain, shard: SHARD_ALL, seqno: p.seqno! })).filter((b): b is BlockRecord => b !== undefined);
    }
    if (p.mcSeqno !== undefined) {
      const mc = this.store.mcBlock(p.mcSeqno);
      return [...(mc && p.mcSeqno >= 0 ? [mc] : []), ...this.shardBlocksOf(p.mcSeqno)];
    }
    if (p.rootHash !== undefined || p.fileHash !== undefined) {
      this.catchUpBlockHashes();
      const b = p.rootHash !== undefined ? this.blocksByRootHash.get(hex(p.rootHash)) : this.blocksByFileHash.get(hex(p.fileHash!));
      return b ?? [];
    }
    return undefined;
  }

  private readonly blocksByRootHash = new Map<string, BlockRecord[]>();
  private readonly blocksByFileHash = new Map<string, BlockRecord[]>();
  private blockHashesIndexed = 0;

  /** Adds the blocks sealed since the last call to the hash maps (blocks come in masterchain/shard pairs). */
  private catchUpBlockHashes(): void {
    const mc = this.store.mcBlocks;
    const shard = this.store.shardBlocks;
    for (; this.blockHashesIndexed < mc.length; this.blockHashesIndexed++) {
      for (const b of [mc[this.blockHashesIndexed], shard[this.blockHashesIndexed]]) {
        if (!b) continue;
        addToList(this.blocksByRootHash, hex(b.rootHash), b);
        addToList(this.blocksByFileHash, hex(b.fileHash), b);
      }
    }
  }

  /** Basechain blocks committed by masterchain block `mcSeqno` (shard blocks ascend by masterchain seqno). */
  private shardBlocksOf(mcSeqno: number): BlockRecord[] {
    const shard = this.store.shardBlocks;
    const from = lowerBound(shard, (b) => b.mcSeqno >= mcSeqno);
    const to = lowerBound(shard, (b) => b.mcSeqno > mcSeqno);
    return shard.slice(from, to);
  }

  /** Every block in natural order (masterchain seqno, workchain, seqno), ascending or descending. */
  private *naturalBlocks(s: Sort): Generator<BlockRecord> {
    const mc = this.store.mcBlocks;
    const shard = this.store.shardBlocks;
    if (s === 'asc') {
      let i = 0;
      let j = 0;
      while (i < mc.length || j < shard.length) {
        if (j >= shard.length || (i < mc.length && naturalOrder(mc[i]!, shard[j]!) <= 0)) yield mc[i++]!;
        else yield shard[j++]!;
      }
    } else {
      let i = mc.length - 1;
      let j = shard.length - 1;
      while (i >= 0 || j >= 0) {
        if (j < 0 || (i >= 0 && naturalOrder(mc[i]!, shard[j]!) > 0)) yield mc[i--]!;
        else yield shard[j--]!;
      }
    }
  }

  async masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlock(p.seqno);
    const all = mc ? [mc, ...this.shardBlocksOf(p.seqno)] : [];
    const list = pageOf(all, p);
    if (list.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: list.map((b) => this.blockToV3(b, globalId)) };
  }

  async masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse> {
    const globalId = await this.blockGlobalId();
    const mc = this.store.mcBlock(p.seqno);
    const list = (mc?.shards ?? [])
      .map((ref) => this.store.block(ref))
      .filter((b): b is BlockRecord => b !== undefined)
      .sort(orderBy<BlockRecord>(
        [(b) => b.workchain, 'asc'],
        [(b) => BigInt.asUintN(64, b.shard), 'asc'],
        [(b) => b.seqno, 'asc'],
      ));
    if (list.length === 0) throw new ApiError(404, 'blocks not found');
    return { blocks: list.map((b) => this.blockToV3(b, globalId)) };
  }

  // ---- transactions ----

  async transactions(p: TransactionsParams): Promise<TransactionsResponse> {
    const s: Sort = p.sort ?? 'desc';
    resolvePage(p);
    if (p.mcSeqno !== undefined) this.mcOr404(p.mcSeqno);
    const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
    const accounts = p.account?.length ? new Set(p.account.map(addrKey)) : undefined;
    const hashes = p.hash?.length ? new Set(p.hash.map(hex)) : undefined;
    const keep = (t: TxRecord): boolean =>
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
      (p.endUtime === undefined || t.now <= p.endUtime);
    // exclude_account is parsed but not applied, as in the reference (v3.md §2.1)

    // ordering: each rule below overrides the ones before it (buildTransactionsQuery)
    const lt: Key<TxRecord> = (t) => t.lt;
    const now: Key<TxRecord> = (t) => t.now;
    // an account's raw form is worked out once per request, not at every comparison
    const raws = new Map<Address, string>();
    const account: Key<TxRecord> = (t) => {
      let raw = raws.get(t.account);
      if (raw === undefined) raws.set(t.account, (raw = rawUpper(t.account)));
      return raw;
    };
    const hash: Key<TxRecord> = (t) => b64(Buffer.from(t.hash, 'hex'));
    let order: Order<TxRecord> = hasUtime ? [[now, s], [lt, s], [account, 'asc']] : [[lt, s], [account, 'asc']];
    if (p.mcSeqno !== undefined) order = [[lt, s], [account, 'asc']];
    // one account leads the order; every transaction kept is that account's, so its key never decides
    if (p.account?.length === 1) order = [...(hasUtime ? ([[now, s]] as Order<TxRecord>) : []), [lt, s]];
    if (p.hash?.length) order = [[hash, s]];
    if (p.lt !== undefined) order = [[lt, 'asc'], [account, s]];
    const compare = orderBy(...order);

    // candidates from the narrowest index the filters name; small sets are sorted whole
    const small = (list: TxRecord[]) => this.txResponse(pageOf(list.filter(keep).sort(compare), p), p);
    if (hashes) return small([...hashes].map((h) => this.store.tx(h)).filter((t): t is TxRecord => t !== undefined));
    if (p.lt !== undefined) return small(this.store.transactionsByLt(p.lt, p.lt + 1n));
    if (p.mcSeqno !== undefined) return small(this.store.transactionsOfMcBlock(p.mcSeqno));
    if (p.seqno !== undefined) {
      const blocks = (p.workchain === undefined ? [-1, 0] : [p.workchain])
        .map((workchain) => this.store.block({ workchain, shard: SHARD_ALL, seqno: p.seqno! }))
        .filter((b): b is BlockRecord => b !== undefined);
      return small(blocks.flatMap((b) => this.store.blockTxs(b)));
    }
    // what is left is in lt order (for one account as for all, and utime never decreases with lt): walk it
    // from the end the sort starts at, inside the lt and utime windows, until the page is full
    const inWindow = (list: readonly TxRecord[]) => walkArray(list, s, ...ltWindow(list, p));
    const walks = accounts
      ? p.account!.filter((a, i, all) => all.findIndex((b) => b.equals(a)) === i).map((a) => inWindow(this.store.accountTransactions(a)))
      : [inWindow(this.store.sealedTransactions())];
    const list = pageOfWalk(walks.length === 1 ? walks[0]! : mergeByLt(walks, s), keep, (a, b) => a.lt === b.lt, compare, p);
    return this.txResponse(list, p);
  }

  async transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse> {
    const s: Sort = p.sort ?? 'desc';
    resolvePage(p);
    this.mcOr404(p.seqno);
    const list = this.store
      .transactionsOfMcBlock(p.seqno)
      .filter((t) => t.mcSeqno === p.seqno)
      .sort(orderBy<TxRecord>(
        [(t) => t.lt, s],
        [(t) => rawUpper(t.account), 'asc'],
      ));
    return this.txResponse(pageOf(list, p), p);
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
    const index = this.ctx.indexer.messages;
    // candidates: the rows the narrowest given filter names (one of them is)
    const rows = p.msgHash?.length ? index.byHashes(p.msgHash) : p.bodyHash ? index.withBody(p.bodyHash) : index.withOpcode(p.opcode! >>> 0);
    const found = new Map<string, TxRecord>();
    for (const row of rows) {
      if (p.msgHash?.length && !matchesHash(row, p.msgHash)) continue;
      if (p.bodyHash && !row.bodyHash.equals(p.bodyHash)) continue;
      if (p.opcode !== undefined && row.opcode !== p.opcode >>> 0) continue;
      for (const d of directions) {
        const tx = d === 'in' ? row.inTx : row.outTx;
        if (tx) found.set(tx.hash, tx);
      }
    }
    const list = [...found.values()].sort(orderBy<TxRecord>(
      [(t) => t.lt, 'desc'],
      [(t) => rawUpper(t.account), 'asc'],
    ));
    return this.txResponse(pageOf(list, p), p);
  }

  async adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse> {
    if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
      throw new ApiError(422, 'direction should be one of: in, out');
    }
    const rec = this.store.tx(hex(p.hash));
    const found = new Map<string, TxRecord>();
    if (rec) {
      const rows = this.ctx.indexer.messages;
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
    const list = [...found.values()].sort(orderBy<TxRecord>([(t) => t.lt, 'asc']));
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
    const src = (r: MessageRow): Address | undefined => r.source;
    const dst = (r: MessageRow): Address | undefined => r.destination;
    const sameAddr = (a: Address | undefined, want: Address | null | undefined) =>
      want === undefined ? true : want === null ? a === undefined : a !== undefined && a.equals(want);

    const keep = (r: MessageRow): boolean => {
      if (p.msgHash?.length && !matchesHash(r, p.msgHash)) return false;
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
    };
    // ORDER BY <col> <s>, msg_hash <s>; PostgreSQL puts NULLs last ascending and first descending
    const compare = (a: MessageRow, b: MessageRow): number => {
      const x = orderCol(a);
      const y = orderCol(b);
      let c = 0;
      if (x === null || y === null) c = x === y ? 0 : x === null ? 1 : -1;
      else c = x < y ? -1 : x > y ? 1 : 0;
      if (c === 0) c = a.hashB64 < b.hashB64 ? -1 : a.hashB64 > b.hashB64 ? 1 : 0;
      return s === 'asc' ? c : -c;
    };
    const index = this.ctx.indexer.messages;
    let rows: MessageRow[];
    // candidates from the narrowest index the filters name: small sets are sorted whole, the rest walked in order
    const small = (list: Iterable<MessageRow>) => pageOf([...list].filter(keep).sort(compare), p);
    if (p.msgHash?.length) rows = small(index.byHashes(p.msgHash));
    else if (p.bodyHash) rows = small(index.withBody(p.bodyHash));
    else if (p.destination) rows = small(this.messagesTo(p.destination));
    else if (p.opcode !== undefined && !p.source) rows = small(index.withOpcode(p.opcode >>> 0));
    else {
      // created_lt and created_at follow the sending transaction's lt; external-in messages (NULL) come first
      // descending and last ascending, among themselves by hash; a walk's order within one value is fixed by the sort
      const externals = p.excludeExternals || p.source || (p.source !== null && hasWindow(p)) ? [] : index.externals();
      const sent = p.onlyExternals || p.source === null ? [] : this.sentMessages(p.source ? this.store.accountTransactions(p.source) : this.store.sealedTransactions(), s, p);
      const walk = s === 'asc' ? chain(sent, walkArray(externals, s)) : chain(walkArray(externals, s), sent);
      rows = pageOfWalk(walk, keep, (a, b) => orderCol(a) !== null && orderCol(a) === orderCol(b), compare, p);
    }
    const messages: V3Message[] = rows.map((r) =>
      messageToV3(r.msg, r.cell, {
        ...(r.inTx ? { inMsgTxHash: Buffer.from(r.inTx.hash, 'hex') } : {}),
        ...(r.outTx ? { outMsgTxHash: Buffer.from(r.outTx.hash, 'hex') } : {}),
      }),
    );
    const addrs = messages.flatMap((m) => [m.source, m.destination].filter((a): a is string => a !== null));
    return { messages, address_book: this.ctx.book(addrs, p), metadata: await this.ctx.metadata(addrs, p) };
  }

  /**
   * Messages sent by these transactions (lt order), walked from the end the sort starts at: created lt and
   * created at grow with the sender's lt and, within one transaction, with the out-message index. Only the
   * transactions whose messages can fall inside the lt and utime windows are read.
   */
  private *sentMessages(txs: readonly TxRecord[], s: Sort, w: { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number }): Generator<MessageRow> {
    const index = this.ctx.indexer.messages;
    // an out-message's created_lt is in (lt, end lt] of its transaction, its created_at the transaction's utime
    let from = w.startLt === undefined ? 0 : lowerBound(txs as TxRecord[], (t) => t.endLt >= w.startLt!);
    let to = w.endLt === undefined ? txs.length : lowerBound(txs as TxRecord[], (t) => t.lt >= w.endLt!);
    if (w.startUtime !== undefined) from = Math.max(from, lowerBound(txs as TxRecord[], (t) => t.now >= w.startUtime!));
    if (w.endUtime !== undefined) to = Math.min(to, lowerBound(txs as TxRecord[], (t) => t.now > w.endUtime!));
    for (const t of walkArray(txs, s, from, to)) {
      const out = t.outMsgHashes;
      for (let k = 0; k < out.length; k++) {
        const row = index.get(out[s === 'asc' ? k : out.length - 1 - k]!);
        if (row) yield row;
      }
    }
  }

  /** Messages to an account: the in-messages of its transactions and those not delivered (yet). */
  private *messagesTo(address: Address): Generator<MessageRow> {
    const index = this.ctx.indexer.messages;
    for (const t of this.store.accountTransactions(address)) {
      const row = t.inMsgHash ? index.get(t.inMsgHash) : undefined;
      if (row) yield row;
    }
    for (const row of index.undeliveredRows()) if (row.destination?.equals(address)) yield row;
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
    return { accounts, address_book: this.ctx.book(addrs, p), metadata: await this.ctx.metadata(addrs, p) };
  }

  async walletStates(p: WalletStatesParams): Promise<WalletStatesResponse> {
    const wallets = this.statesOf(p.address).map(walletStateToV3);
    const addrs = wallets.map((w) => w.address);
    return { wallets, address_book: this.ctx.book(addrs, p), metadata: await this.ctx.metadata(addrs, p) };
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
      out[input] = this.ctx.book([raw], {})[raw]!;
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
    rows.sort(orderBy<{ account: string; balance: bigint }>(
      [(r) => r.balance, 'desc'],
      [(r) => r.account, 'asc'],
    ));
    return pageOf(rows, p).map((r) => ({ account: r.account, balance: r.balance.toString() }));
  }

  // ---- legacy v2 routes ----

  async addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation> {
    if (p.useV2) {
      const r = await this.ctx.v2.getAddressInformation({ address: p.address });
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
      const r = await this.ctx.v2.getWalletInformation({ address: p.address });
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
    const r = await refusedAsBadInput(this.ctx.v2.sendBocReturnHash({ boc: p.boc }));
    return { message_hash: r.hash, ...(r.hash_norm ? { message_hash_norm: r.hash_norm } : {}) };
  }

  async runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult> {
    const r = await this.ctx.v2.runGetMethodStd({ address: p.address, method: p.method, stack: p.stack });
    return { gas_used: r.gas_used, exit_code: r.exit_code, stack: r.stack.map(stdToV3Entry) };
  }

  async estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult> {
    const r = await refusedAsBadInput(this.ctx.v2.estimateFee(p));
    const strip = ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee }: (typeof r)['source_fees']) => ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee });
    return { source_fees: strip(r.source_fees), destination_fees: r.destination_fees.map(strip) };
  }
}

// ---- local helpers ----

/** The blocks' natural order: by masterchain seqno, the masterchain block before the shard blocks it commits. */
const naturalOrder = orderBy<BlockRecord>([(b) => b.mcSeqno, 'asc'], [(b) => b.workchain, 'asc'], [(b) => b.seqno, 'asc']);

/** Range [from, to) of an lt-ordered list inside the lt and utime windows of a transactions query. */
function ltWindow(list: readonly TxRecord[], p: TransactionsParams): [number, number] {
  const arr = list as TxRecord[];
  let from = 0;
  let to = arr.length;
  if (p.startLt !== undefined) from = Math.max(from, lowerBound(arr, (t) => t.lt >= p.startLt!));
  if (p.endLt !== undefined) to = Math.min(to, lowerBound(arr, (t) => t.lt > p.endLt!));
  if (p.startUtime !== undefined) from = Math.max(from, lowerBound(arr, (t) => t.now >= p.startUtime!));
  if (p.endUtime !== undefined) to = Math.min(to, lowerBound(arr, (t) => t.now > p.endUtime!));
  return [from, Math.max(from, to)];
}

/** Lt-ordered walks (ascending or descending alike) merged into one, in the same order. */
function* mergeByLt(walks: Iterator<TxRecord>[], s: Sort): Generator<TxRecord> {
  const heads = walks.map((w) => w.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (h.done) continue;
      const b = best < 0 ? undefined : (heads[best]!.value as TxRecord);
      if (!b || (s === 'asc' ? h.value.lt < b.lt : h.value.lt > b.lt)) best = i;
    }
    if (best < 0) return;
    yield heads[best]!.value as TxRecord;
    heads[best] = walks[best]!.next();
  }
}

function* chain<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

/** Whether a messages query bounds created_lt or created_at (which external-in messages, NULL in both, never meet). */
const hasWindow = (p: MessagesParams): boolean =>
  p.startLt !== undefined || p.endLt !== undefined || p.startUtime !== undefined || p.endUtime !== undefined;

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
