/**
 * /api/v3 transactions over the local chain (v3.md §2.1): by filter, by masterchain block, by message, adjacent
 * ones, with the reference's filters, defaults, bounds, sort orders and error texts, answered from sealed blocks
 * only (what an indexer has seen); and the accepted-but-unsealed ones (/pendingTransactions).
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type { Shared, SharedAnswers } from '../../../api/shared-answers.js';
import type { V3Options } from '../../../api/v3/common.js';
import {
  filtersByMessage,
  type AdjacentTransactionsParams,
  type MessageFilterParams,
  type McSeqnoPageParams,
  type PendingTransactionsParams,
  type TransactionsApi,
  type TransactionsByMessageParams,
  type TransactionsParams,
  type TransactionsResponse,
} from '../../../api/v3/transactions.js';
import { rawUpper } from '../../../model/address.js';
import { b64 } from '../../../model/v3/index.js';
import { lowerBound, SHARD_ALL, type BlockRecord, type TxRecord } from '../chain/store.js';
import { matchesHash, type MessageRow } from '../indexer/messages.js';
import { byLt } from '../indexer/traces.js';
import type { LocalV3Context } from './v3-context.js';
import { mergeBy, orderBy, pageOf, pageOfWalk, walkArray, type Key, type Order } from './v3-order.js';
import { TraceReads } from './v3-trace-reads.js';
import { accountAcrossFork } from './v3-fork-history.js';
import { receivedBy, sentBy } from './v3-message-reads.js';

const hex = (b: Buffer): string => b.toString('hex');
const addrKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

export function localTransactions(ctx: LocalV3Context): SharedAnswers<TransactionsApi> {
  const reads = new TraceReads(ctx);

  function mcOr404(seqno: number): BlockRecord {
    const b = ctx.store.mcBlock(seqno);
    if (!b || seqno < 0) throw new ApiError(404, `masterchain block ${seqno} not found`);
    return b;
  }

  function txResponse(recs: TxRecord[], opts: V3Options): TransactionsResponse {
    return ctx.txResponse(recs.map((r) => ctx.txToV3(r)), opts);
  }

  /**
   * The transactions the message filters select (messages joined onto transactions, toncenter-newer.md §2): each
   * message matching every filter gives the transaction that sent it (direction out) and the one that received
   * it (direction in), unless `direction` names one side; an opcode no longer implies the receiving side. A
   * transaction two messages select is listed once.
   */
  function byMessage(p: MessageFilterParams): Iterable<TxRecord> {
    const index = ctx.indexer.messages;
    // candidates: the rows the narrowest given filter names
    let rows: Iterable<MessageRow>;
    if (p.msgHash?.length) rows = index.byHashes(p.msgHash);
    else if (p.bodyHash) rows = index.withBody(p.bodyHash);
    else if (p.opcode !== undefined) rows = index.withOpcode(p.opcode >>> 0);
    else if (p.source) rows = sentBy(ctx, p.source);
    else rows = receivedBy(ctx, p.destination!);
    const found = new Map<string, TxRecord>();
    for (const row of rows) {
      if (p.msgHash?.length && !matchesHash(row, p.msgHash)) continue;
      if (p.bodyHash && !row.bodyHash.equals(p.bodyHash)) continue;
      if (p.opcode !== undefined && row.opcode !== p.opcode >>> 0) continue;
      if (p.source && !row.source?.equals(p.source)) continue;
      if (p.destination && !row.destination?.equals(p.destination)) continue;
      if (p.direction !== 'out' && row.inTx) found.set(row.inTx.hash, row.inTx);
      if (p.direction !== 'in' && row.outTx) found.set(row.outTx.hash, row.outTx);
    }
    return found.values();
  }

  return {
    async transactions(p: TransactionsParams): Promise<Shared<TransactionsResponse>> {
      const s = p.sort;
      if (p.mcSeqno !== undefined) mcOr404(p.mcSeqno);
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
      // exclude_account is parsed but not applied, as in the reference (v3.md §2.1; still so in v1.3 and after)

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
      // one account leads the order in the sort's direction (v1.3); every transaction kept is that account's, so
      // its key never decides
      if (p.account?.length === 1) order = [...(hasUtime ? ([[now, s]] as Order<TxRecord>) : []), [lt, s]];
      if (p.hash?.length) order = [[hash, s]];
      if (p.lt !== undefined) order = [[lt, 'asc'], [account, s]];
      const compare = orderBy(...order);

      // candidates from the narrowest index the filters name; small sets are sorted whole
      const small = (list: Iterable<TxRecord>) => txResponse(pageOf([...list].filter(keep).sort(compare), p), p);
      if (filtersByMessage(p)) return small(byMessage(p));
      if (hashes) return small([...hashes].map((h) => ctx.store.tx(h)).filter((t): t is TxRecord => t !== undefined));
      if (p.lt !== undefined) return small(ctx.store.transactionsByLt(p.lt, p.lt + 1n));
      if (p.mcSeqno !== undefined) return small(ctx.store.transactionsOfMcBlock(p.mcSeqno));
      if (p.seqno !== undefined) {
        const blocks = (p.workchain === undefined ? [-1, 0] : [p.workchain])
          .map((workchain) => ctx.store.block({ workchain, shard: SHARD_ALL, seqno: p.seqno! }))
          .filter((b): b is BlockRecord => b !== undefined);
        return small(blocks.flatMap((b) => ctx.store.blockTxs(b)));
      }
      // what is left is in lt order (for one account as for all, and utime never decreases with lt): walk it
      // from the end the sort starts at, inside the lt and utime windows, until the page is full
      const inWindow = (list: readonly TxRecord[]) => walkArray(list, s, ...ltWindow(list, p));
      // on a fork, one account's list goes on past the fork point into the upstream's older transactions
      const lastLt = p.account?.length === 1 ? ctx.fork?.lastTxAtFork(ctx.store, p.account[0]!)?.lt : undefined;
      if (lastLt !== undefined) {
        const list = ctx.store.accountTransactions(p.account![0]!);
        const local = [...walkArray(list, 'asc', ...ltWindow(list, p))].filter(keep);
        return accountAcrossFork(p, { upstream: ctx.fork!.upstream.v3, lastLt }, local, (recs) => txResponse(recs, p));
      }
      const walks = accounts
        ? p.account!.filter((a, i, all) => all.findIndex((b) => b.equals(a)) === i).map((a) => inWindow(ctx.store.accountTransactions(a)))
        : [inWindow(ctx.store.sealedTransactions())];
      const list = pageOfWalk(walks.length === 1 ? walks[0]! : mergeBy((t: TxRecord) => t.lt, walks, s), keep, (a, b) => a.lt === b.lt, compare, p);
      return txResponse(list, p);
    },

    async transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse> {
      const s = p.sort;
      mcOr404(p.seqno);
      const list = ctx.store
        .transactionsOfMcBlock(p.seqno)
        .filter((t) => t.mcSeqno === p.seqno)
        .sort(orderBy<TxRecord>(
          [(t) => t.lt, s],
          [(t) => rawUpper(t.account), 'asc'],
        ));
      return txResponse(pageOf(list, p), p);
    },

    async transactionsByMessage(p: TransactionsByMessageParams): Promise<TransactionsResponse> {
      if (!p.msgHash?.length && !p.bodyHash && p.opcode === undefined) {
        throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode should be specified');
      }
      if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
        throw new ApiError(422, 'direction should be one of: in, out');
      }
      const list = [...byMessage(p)].sort(orderBy<TxRecord>(
        [(t) => t.lt, 'desc'],
        [(t) => rawUpper(t.account), 'asc'],
      ));
      return txResponse(pageOf(list, p), p);
    },

    async adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse> {
      if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
        throw new ApiError(422, 'direction should be one of: in, out');
      }
      const rec = ctx.store.tx(hex(p.hash));
      const found = new Map<string, TxRecord>();
      if (rec) {
        const rows = ctx.indexer.messages;
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
      return txResponse(list, p);
    },

    async pendingTransactions(p: PendingTransactionsParams): Promise<TransactionsResponse> {
      if (p.account.length === 0) throw new ApiError(422, 'at least 1 account address required');
      const pending = reads.traces.pendingByTrace();
      const recs = ctx.store.pending.filter((r) => p.account.some((a) => a.equals(r.account))).sort((a, b) => -byLt(a, b));
      if (recs.length === 0) throw new ApiError(404, 'emulated traces not found');
      const transactions = recs.map((r) => reads.pendingTxToV3(r, pending.get(r.traceRootHash)![0]!));
      return ctx.txResponse(transactions, p);
    },
  };
}

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
