/**
 * What the v3 trace routes share over the local chain (traces.ts, actions.ts, the pending transactions in
 * transactions.ts): traces and their actions from the trace index (indexer/traces.ts), in v3 form, found from
 * the filters a query names, in the order its answers take.
 *
 * A trace is one inbound message's cascade (the store's `traceRootHash`). A trace with any transaction still
 * pending is shown only by the pending routes, with `emulated: true` and `finality: "pending"`, and moves to
 * /traces, /actions once all of it is sealed.
 */
import { Cell, loadShardAccount, type Account, type Address } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type { Sort } from '../../../api/v3/common.js';
import type { Transaction as V3Transaction } from '../../../api/v3/transactions.js';
import type { Action } from '../../../api/v3/actions.js';
import type { PendingTracesParams, Trace } from '../../../api/v3/traces.js';
import {
  accountStateToV3,
  actionToV3,
  shardHex,
  traceToV3,
  transactionToV3,
  type ActionTraceContext,
  type ClassifiedAction,
} from '../../../model/v3/index.js';
import { SHARD_ALL, type TxRecord } from '../chain/store.js';
import { isPending, type TraceIndex, type TraceRecords, type TraceSummary } from '../indexer/traces.js';
import type { LocalV3Context } from './v3-context.js';
import { walkArray } from './v3-order.js';

const hexToB64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');
export const cmp = (x: bigint | number | string, y: bigint | number | string): number => (x < y ? -1 : x > y ? 1 : 0);
export const dir = (s: Sort, c: number): number => (s === 'asc' ? c : -c);

/**
 * The traces a query names: a list (sorted by the caller), traces already in end-lt order from the end a sort
 * starts at, or undefined for every complete trace.
 */
export type Candidates = TraceSummary[] | { ordered: (s: Sort) => Iterable<TraceSummary> } | undefined;

/** A classified action with the trace fields the filters read. */
export interface ActionRow {
  trace: TraceRecords;
  action: ClassifiedAction;
  v3: Action;
}

export class TraceReads {
  constructor(private readonly ctx: LocalV3Context) {}

  get traces(): TraceIndex {
    return this.ctx.indexer.traces;
  }

  // ---- transactions and traces in v3 form ----

  /** A pending transaction: the block it will be sealed into (the next one), states from the account's history. */
  pendingTxToV3(rec: TxRecord, root: TxRecord): V3Transaction {
    const store = this.ctx.store;
    const nextMc = store.lastMc.seqno + 1;
    const wc = rec.account.workChain;
    const lastShard = store.shardBlocks[store.shardBlocks.length - 1]!;
    const before = this.accountBefore(rec);
    const after = loadShardAccount(Cell.fromBase64(rec.stateAfter).beginParse()).account ?? null;
    const rootIn = root.inMsgHash ? Buffer.from(root.inMsgHash, 'hex') : undefined;
    return transactionToV3(rec.tx, {
      workchain: wc,
      block: { workchain: wc, shard: shardHex(SHARD_ALL), seqno: wc === -1 ? nextMc : lastShard.seqno + 1 },
      mcSeqno: nextMc,
      ...(root.block ? { traceId: Buffer.from(root.hash, 'hex') } : {}),
      ...(rootIn ? { traceExternalHash: rootIn } : {}),
      stateBefore: accountStateToV3(rec.tx.stateUpdate.oldHash, before),
      stateAfter: accountStateToV3(rec.tx.stateUpdate.newHash, after),
      emulated: true,
      finality: 'pending',
    });
  }

  /** The account right before a pending transaction: its previous pending one's result, or its sealed state. */
  accountBefore(rec: TxRecord): Account | null {
    let prev: TxRecord | undefined;
    for (const p of this.ctx.store.pending) if (p.account.equals(rec.account) && p.lt < rec.lt && (!prev || p.lt > prev.lt)) prev = p;
    if (prev) return loadShardAccount(Cell.fromBase64(prev.stateAfter).beginParse()).account ?? null;
    return this.ctx.store.accountState(rec.account, this.ctx.store.lastMc.seqno)?.shardAccount.account ?? null;
  }

  txV3(rec: TxRecord, root: TxRecord): V3Transaction {
    return isPending(rec) ? this.pendingTxToV3(rec, root) : this.ctx.txToV3(rec);
  }

  /**
   * What a trace's actions print of it. A sealed trace's ends are its summary's (the trace index keeps them as its
   * transactions seal); only a pending one needs its transactions in v3 form, whose emulated mc seqno the records
   * do not hold. Building those for every trace an /actions scan passes over had been most of its cost.
   */
  traceContext(t: TraceRecords, txsOf: () => V3Transaction[], pending: boolean): ActionTraceContext {
    const root = t.txs[0]!;
    const norm = this.normOf(root);
    const sealed = pending ? undefined : this.traces.trace(t.root);
    let endLt: bigint, endUtime: number, mcEnd: number;
    if (sealed) ({ endLt, endUtime, mcEnd } = sealed);
    else {
      const txs = txsOf();
      endLt = txs.reduce((m, x) => (BigInt(x.lt) > m ? BigInt(x.lt) : m), BigInt(txs[0]!.lt));
      endUtime = Math.max(...txs.map((x) => x.now));
      mcEnd = Math.max(...txs.map((x) => x.mc_block_seqno));
    }
    return {
      traceId: root.block ? hexToB64(root.hash) : null,
      traceEndLt: endLt.toString(),
      traceEndUtime: endUtime,
      traceMcSeqnoEnd: mcEnd,
      ...(root.inMsgHash ? { externalHash: hexToB64(root.inMsgHash) } : {}),
      ...(norm !== undefined ? { externalHashNorm: hexToB64(norm) } : {}),
      finality: pending ? 'pending' : 'finalized',
    };
  }

  /** Actions of a trace as v3 prints them, with the hiding rule applied. */
  async actionRows(t: TraceRecords, txsOf: () => V3Transaction[], supported: ReadonlySet<string>, typeFilter?: ReadonlySet<string>): Promise<ActionRow[]> {
    const pending = t.txs.some((r) => isPending(r));
    const tctx = this.traceContext(t, txsOf, pending);
    const rows: ActionRow[] = [];
    for (const action of await this.traces.actionsOf(t)) {
      // an action_type filter replaces the supported-types filter; the ancestor rule always applies
      if (!(typeFilter ?? supported).has(action.type)) continue;
      if (action.ancestorTypes.some((a) => supported.has(a))) continue;
      rows.push({ trace: t, action, v3: actionToV3(action, tctx) });
    }
    return rows;
  }

  traceV3(t: TraceRecords, txs: V3Transaction[], actions: Action[] | undefined): Trace {
    const pendingHashes = new Set(t.txs.filter((r) => isPending(r)).map((r) => hexToB64(r.hash)));
    const root = t.txs[0]!;
    const parents = new Map(t.txs.map((r) => [hexToB64(r.hash), r.parentHash]));
    const undelivered = this.undelivered(t);
    return traceToV3({
      traceId: root.block ? hexToB64(root.hash) : null,
      txs,
      state: undelivered.failed ? 'broken' : pendingHashes.size > 0 || undelivered.waiting > 0 ? 'pending' : 'complete',
      ...(undelivered.failed ? { warning: undelivered.failed } : {}),
      extraPendingMessages: undelivered.waiting,
      classification: 'ok',
      pendingTxHashes: pendingHashes,
      parentOf: (h) => {
        const parent = parents.get(h);
        return parent ? hexToB64(parent) : undefined;
      },
      ...(actions ? { actions } : {}),
    });
  }

  /**
   * On a fork, the trace's messages still waiting for their destination's load, and the first that failed (as
   * the trace's warning): fork-delivery.ts.
   */
  private undelivered(t: TraceRecords): { waiting: number; failed?: string } {
    const deliveries = this.ctx.fork?.deliveries;
    let waiting = 0;
    let failed: string | undefined;
    if (!deliveries) return { waiting };
    for (const r of t.txs) {
      for (const h of r.outMsgHashes) {
        const s = deliveries.statusOf(h);
        if (!s) continue;
        if (s.failed === undefined) waiting++;
        else failed ??= `${s.code}: message ${hexToB64(h)} to ${s.destination} was not delivered: ${s.failed}`;
      }
    }
    return { waiting, failed };
  }

  txAddresses(txs: V3Transaction[]): string[] {
    const out: string[] = [];
    for (const t of txs) {
      out.push(t.account);
      if (t.in_msg?.source) out.push(t.in_msg.source);
      if (t.in_msg?.destination) out.push(t.in_msg.destination);
      for (const m of t.out_msgs) {
        if (m.source) out.push(m.source);
        if (m.destination) out.push(m.destination);
      }
    }
    return out;
  }

  /** The normalised hash (hex) of a transaction's in-message when it is an external-in, from the store's facts. */
  normOf(rec: TxRecord): string | undefined {
    return rec.inMsgHash ? this.ctx.store.message(rec.inMsgHash)?.norm : undefined;
  }

  /** The transactions of a trace that sent or received one of these messages (raw or normalised hash). */
  messageTxs(t: TraceRecords, hashes: Buffer[]): Set<string> {
    const want = new Set(hashes.map((h) => h.toString('hex')));
    const out = new Set<string>();
    for (const r of t.txs) {
      const norm = this.normOf(r);
      if ((r.inMsgHash && want.has(r.inMsgHash)) || (norm && want.has(norm)) || r.outMsgHashes.some((h) => want.has(h))) out.add(r.hash);
    }
    return out;
  }

  /** Sealed traces by root hash (hex), each once, skipping unknown ones. */
  tracesOf(roots: Iterable<string>): TraceSummary[] {
    const out = new Map<string, TraceSummary>();
    for (const root of roots) {
      if (out.has(root)) continue;
      const t = this.traces.trace(root);
      if (t) out.set(root, t);
    }
    return [...out.values()];
  }

  /** Roots of the traces holding these sealed transactions. */
  *rootsOfTxs(hashes: Iterable<string>): Generator<string> {
    for (const h of hashes) {
      const rec = this.ctx.store.tx(h);
      if (rec) yield rec.traceRootHash;
    }
  }

  /** Roots of the traces that sent or received one of these messages (raw or normalised hash). */
  *rootsOfMessages(hashes: Buffer[]): Generator<string> {
    for (const row of this.ctx.indexer.messages.byHashes(hashes)) {
      if (row.inTx) yield row.inTx.traceRootHash;
      if (row.outTx) yield row.outTx.traceRootHash;
    }
  }

  /**
   * The narrowest candidate traces the filters name (a superset of the matches, which the caller's filters then
   * check), or undefined when no filter names any: then every complete trace is a candidate.
   */
  candidateTraces(f: { traceIds?: Set<string>; txHashes?: Set<string>; msgHash?: Buffer[]; account?: Address; mcSeqno?: number }): Candidates {
    if (f.traceIds) return this.tracesOf(f.traceIds);
    if (f.txHashes) return this.tracesOf(this.rootsOfTxs(f.txHashes));
    if (f.msgHash?.length) return this.tracesOf(this.rootsOfMessages(f.msgHash));
    if (f.mcSeqno !== undefined) return this.tracesOf(this.ctx.store.transactionsOfMcBlock(f.mcSeqno).map((r) => r.traceRootHash));
    if (f.account) return { ordered: (s) => this.accountTraces(f.account!, s) };
    return undefined;
  }

  /**
   * The complete traces of an account's transactions by end lt, read lazily from the end the sort starts at.
   * Walking its transactions, a trace not met yet holds one at or past the next lt (ascending), or has its
   * root before it and so ends at most the largest trace span later (descending): the traces already met
   * that end on the right side of that bound come next, in order.
   */
  *accountTraces(account: Address, s: Sort): Generator<TraceSummary> {
    const txs = this.ctx.store.accountTransactions(account);
    const pending = this.traces.pendingRoots();
    const span = this.traces.maxSpan();
    const seen = new Set<string>();
    // met but not yet given out, kept in walk order (first = next out)
    const held: TraceSummary[] = [];
    const before = (a: TraceSummary, b: TraceSummary) => (s === 'asc' ? a.endLt < b.endLt : a.endLt > b.endLt);
    for (const rec of walkArray(txs, s)) {
      const ready = (t: TraceSummary) => (s === 'asc' ? t.endLt < rec.lt : t.endLt > rec.lt + span);
      while (held.length > 0 && ready(held[0]!)) yield held.shift()!;
      if (seen.has(rec.traceRootHash)) continue;
      seen.add(rec.traceRootHash);
      const t = this.traces.trace(rec.traceRootHash);
      if (!t || pending.has(t.root)) continue;
      let at = held.length;
      while (at > 0 && before(t, held[at - 1]!)) at--;
      held.splice(at, 0, t);
    }
    yield* held;
  }

  /**
   * Candidate traces in the order of the answers' leading keys (end utime with a utime window, else end lt;
   * then trace id), read lazily; stops at the far edge of an lt or utime window.
   */
  *orderedTraces(candidates: Candidates, s: Sort, w: { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number }): Generator<TraceSummary> {
    let list: Iterable<TraceSummary>;
    if (candidates && 'ordered' in candidates) {
      list = candidates.ordered(s);
    } else if (candidates) {
      const pending = this.traces.pendingRoots();
      list = candidates
        .filter((t) => !pending.has(t.root))
        // end-lt order is an order by end utime too (ties of end utime are closed by the caller)
        .sort((a, b) => dir(s, cmp(a.endLt, b.endLt) || cmp(a.id, b.id)));
    } else {
      list = this.traces.completeByEnd(s);
    }
    for (const t of list) {
      // past the window's far edge nothing later in this order can match (end utime follows end lt)
      if (s === 'desc' && ((w.startLt !== undefined && t.endLt < w.startLt) || (w.startUtime !== undefined && t.endUtime < w.startUtime))) return;
      if (s === 'asc' && ((w.endLt !== undefined && t.endLt > w.endLt) || (w.endUtime !== undefined && t.endUtime > w.endUtime))) return;
      yield t;
    }
  }

  /** Pending traces touching the account, or started by one of the external messages; newest end first. */
  selectPending(p: PendingTracesParams): TraceRecords[] {
    if (!p.account && !p.extMsgHash?.length) throw new ApiError(422, 'account or ext_msg_hash should be specified');
    const out: TraceRecords[] = [];
    for (const [root, txs] of this.traces.pendingByTrace()) {
      const t = { root, txs };
      if (p.account) {
        if (!txs.some((r) => r.account.equals(p.account!))) continue;
      } else {
        const first = txs[0]!;
        const want = new Set(p.extMsgHash!.map((h) => h.toString('hex')));
        const norm = this.normOf(first);
        if (!(first.inMsgHash && want.has(first.inMsgHash)) && !(norm && want.has(norm))) continue;
      }
      out.push(t);
    }
    const endLt = (t: TraceRecords) => t.txs.reduce((m, x) => (x.lt > m ? x.lt : m), 0n);
    return out.sort((a, b) => cmp(endLt(b), endLt(a)));
  }
}
