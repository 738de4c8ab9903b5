/**
 * The trace index of one chain: sealed transactions grouped by cascade (the store's `traceRootHash`), fed by
 * sealed blocks, and the actions classified from each trace. Actions of a sealed trace are classified once and
 * kept; the classifier's account questions (jetton wallet, NFT item, DEX pool, sale, auction, data) are asked of
 * the account's get-methods through the v2 seam (model/v3/contract-info.ts), memoised per (address, state,
 * method). Traces with a transaction still pending are assembled on demand.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Address, Cell, loadShardAccount, type ShardAccount } from '@ton/core';
import { LRUCache } from 'lru-cache';
import type { V2Api } from '../../../api/v2.js';
import { messageCells } from '../../../model/message.js';
import { fromCoreTransaction } from '../../../model/v3/classifier-input.js';
import { getMethodContractInfo, stdGetStack, type GetStack } from '../../../model/v3/contract-info.js';
import { classifyTrace, type ClassifiedAction, type ContractInfo } from '../../../model/v3/index.js';
import type { ChainStore, Rewind, TxRecord } from '../chain/store.js';

/** One cascade: its transactions in lt order. */
export interface TraceRecords {
  /** root transaction hash, hex */
  root: string;
  txs: TxRecord[];
}

/** A sealed trace with what /traces and /actions sort and filter on, kept up to date as its transactions seal. */
export interface TraceSummary extends TraceRecords {
  /** root hash, base64 (the trace_id the orders tie-break on) */
  readonly id: string;
  /** lt of its newest sealed transaction */
  endLt: bigint;
  /** largest utime of its sealed transactions */
  endUtime: number;
  /** largest masterchain seqno of its sealed transactions */
  mcEnd: number;
  /** its entry in the trace index's end-lt order */
  pos: number;
}

export const byLt = (a: TxRecord, b: TxRecord): number => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);

/** A transaction accepted but not yet in a sealed block. */
export const isPending = (rec: TxRecord): boolean => rec.block === undefined;

/** estimated bytes of classified actions kept (see `actionCache`) */
const ACTION_CACHE_BYTES = 32 * 1024 * 1024;

export class TraceIndex {
  /** sealed traces by root (hex), transactions in lt order */
  private readonly sealed = new Map<string, TraceSummary>();
  /**
   * Sealed traces ascending by end lt: a trace moves to the end when a transaction of it seals (lts grow in
   * sealing order), leaving its old entry behind as stale (an entry is live when it is its trace's `pos`).
   */
  private order: TraceSummary[] = [];
  private stale = 0;
  private sealedIndexed = 0;
  /** the largest end lt - root lt of a sealed trace: how far past its root's lt a trace can end */
  private span = 0n;
  /**
   * actions of the most recently read sealed traces, by root. Sized for every trace of a development chain (~1.2 KB
   * a trace measured, so ~27,000 traces): an /actions scan that passes over all of them (a type no action has, a deep
   * offset) classifies each trace again, reading its transactions from the database, once they no longer fit
   */
  private readonly actionCache = new LRUCache<string, { size: number; actions: ClassifiedAction[] }>({
    maxSize: ACTION_CACHE_BYTES,
    sizeCalculation: (v) => 256 + v.actions.length * 768,
  });
  /** trace roots (hex) by the ids of the actions classified from them, for every sealed trace classified so far */
  private readonly actionRoots = new Map<string, string[]>();
  /**
   * Roots of sealed traces whose actions' ids are not in `actionRoots` yet (new, or grown since): classified on the
   * next lookup by action id, so each version of a trace is classified once for the index, not once per lookup
   */
  private readonly unindexed = new Set<string>();
  /** the classification of `unindexed` under way, which concurrent lookups share */
  private indexing: Promise<void> | undefined;
  /** pending transactions' states after, parsed (a record lives as long as it is pending or sealed) */
  private readonly pendingStates = new WeakMap<TxRecord, ShardAccount>();
  /** get-method answers per (address, state, method), for the most recently asked */
  private readonly getMethodCache = new LRUCache<string, Promise<GetStack | null>>({ max: 8192 });
  /** the classifier's account questions, by get-methods on the accounts' latest states */
  readonly info: ContractInfo;
  /** the same for a trace with pending transactions: an account's newest pending state first */
  private readonly pendingInfo: ContractInfo;

  constructor(
    private readonly store: ChainStore,
    private readonly v2: V2Api,
    private readonly onState?: StateGetMethod,
  ) {
    this.info = getMethodContractInfo({
      run: (address, method) => this.getMethod(address, method),
      // the data of the account's latest state, as the get-methods read it
      data: async (address) => activeData(this.store.accountState(Address.parseRaw(address), this.store.lastMc.seqno)?.shardAccount),
    });
    // a pending trace's accounts as its own transactions left them: a contract it deploys is known as it will be once sealed
    this.pendingInfo = getMethodContractInfo({
      run: (address, method) => {
        const pending = this.pendingState(address);
        return pending && this.onState ? this.onState(Address.parseRaw(address), pending, method) : this.getMethod(address, method);
      },
      data: async (address) => {
        const pending = this.pendingState(address);
        return pending ? activeData(pending) : activeData(this.store.accountState(Address.parseRaw(address), this.store.lastMc.seqno)?.shardAccount);
      },
    });
    store.onSeal(() => this.catchUp());
    store.onRewind((r) => this.rewound(r));
    store.onEdit(() => this.getMethodCache.clear());
  }

  /**
   * Forgets what a rewind undid: the transactions of the traces it touched that are no longer sealed (a trace
   * left empty goes, its entry in the end-lt order turning stale), and every get-method answer (states at a
   * seqno and lt may differ now).
   */
  private rewound(r: Rewind): void {
    let reorder = false;
    for (const root of r.traces.keys()) {
      const t = this.sealed.get(root);
      if (!t) continue;
      this.actionCache.delete(root);
      this.unindexed.delete(root);
      t.txs = t.txs.filter((rec) => rec.mcSeqno !== undefined && rec.mcSeqno <= r.to.mcSeqno && this.store.tx(rec.hash) === rec);
      if (t.txs.length === 0) {
        this.sealed.delete(root);
        if (t.pos >= 0) this.stale++;
        t.pos = -1;
        continue;
      }
      const last = t.txs[t.txs.length - 1]!;
      t.endLt = last.lt;
      t.endUtime = Math.max(...t.txs.map((x) => x.now));
      t.mcEnd = Math.max(...t.txs.map((x) => x.mcSeqno!));
      this.unindexed.add(root);
      reorder = true;
    }
    this.sealedIndexed = Math.min(this.sealedIndexed, this.store.sealedTransactions().length);
    if (reorder) {
      // a trace that only lost part of itself moves back in the end-lt order
      this.order = [...this.sealed.values()].sort((a, b) => (a.endLt < b.endLt ? -1 : a.endLt > b.endLt ? 1 : 0));
      this.order.forEach((t, i) => (t.pos = i));
      this.stale = 0;
    }
    this.getMethodCache.clear();
  }

  /** Sealed transactions by trace root (hex), each list in lt order. */
  sealedTraces(): ReadonlyMap<string, TraceSummary> {
    this.catchUp();
    return this.sealed;
  }

  /** A sealed trace by root hash (hex). */
  trace(root: string): TraceSummary | undefined {
    this.catchUp();
    return this.sealed.get(root);
  }

  /** Reads only the transactions sealed since the last call. */
  private catchUp(): void {
    const all = this.store.sealedTransactions();
    for (let i = this.sealedIndexed; i < all.length; i++) {
      const rec = all[i]!;
      let t = this.sealed.get(rec.traceRootHash);
      if (!t) {
        const id = Buffer.from(rec.traceRootHash, 'hex').toString('base64');
        t = { root: rec.traceRootHash, txs: [], id, endLt: rec.lt, endUtime: rec.now, mcEnd: rec.mcSeqno!, pos: -1 };
        this.sealed.set(rec.traceRootHash, t);
      }
      t.txs.push(rec);
      this.unindexed.add(rec.traceRootHash);
      if (rec.lt > t.endLt) t.endLt = rec.lt;
      if (rec.now > t.endUtime) t.endUtime = rec.now;
      if (rec.mcSeqno! > t.mcEnd) t.mcEnd = rec.mcSeqno!;
      if (t.endLt - t.txs[0]!.lt > this.span) this.span = t.endLt - t.txs[0]!.lt;
      if (t.pos !== this.order.length - 1 || this.order[t.pos] !== t) {
        if (t.pos >= 0) this.stale++;
        t.pos = this.order.length;
        this.order.push(t);
      }
    }
    this.sealedIndexed = all.length;
    if (this.stale > 1024 && this.stale * 2 > this.order.length) {
      this.order = this.order.filter((t, i) => t.pos === i);
      this.order.forEach((t, i) => (t.pos = i));
      this.stale = 0;
    }
  }

  /**
   * Sealed traces with nothing pending, by end lt (ascending or descending), read lazily. End utime and end mc
   * seqno follow the same order (neither decreases with lt).
   */
  *completeByEnd(s: 'asc' | 'desc'): Generator<TraceSummary> {
    this.catchUp();
    const pending = this.pendingRoots();
    const order = this.order;
    const n = order.length;
    for (let k = 0; k < n; k++) {
      const i = s === 'asc' ? k : n - 1 - k;
      const t = order[i]!;
      if (t.pos === i && !pending.has(t.root)) yield t;
    }
  }

  /** The largest end lt - root lt of the sealed traces. */
  maxSpan(): bigint {
    this.catchUp();
    return this.span;
  }

  /** Roots of the traces with a transaction still pending. */
  pendingRoots(): Set<string> {
    return new Set(this.store.pending.map((r) => r.traceRootHash));
  }

  /** Pending transactions by trace root, each with the trace's sealed part (if any) in lt order. */
  pendingByTrace(): Map<string, TxRecord[]> {
    const out = new Map<string, TxRecord[]>();
    for (const rec of this.store.pending) {
      let list = out.get(rec.traceRootHash);
      if (!list) out.set(rec.traceRootHash, (list = [...(this.sealedTraces().get(rec.traceRootHash)?.txs ?? [])]));
      list.push(rec);
    }
    for (const list of out.values()) list.sort(byLt);
    return out;
  }

  /** Sealed traces with nothing pending: what /traces and /actions show. */
  completeTraces(): TraceSummary[] {
    const pending = this.pendingRoots();
    const out: TraceSummary[] = [];
    for (const t of this.sealedTraces().values()) if (!pending.has(t.root)) out.push(t);
    return out;
  }

  /** The actions classified from a trace; a trace with pending transactions is classified again on every call. */
  async actionsOf(t: TraceRecords): Promise<ClassifiedAction[]> {
    const hit = this.actionCache.get(t.root);
    if (hit && hit.size === t.txs.length) return hit.actions;
    // a sealed trace's list may grow while it is classified (a block sealing meanwhile): what is kept and
    // indexed is for the transactions read here
    const size = t.txs.length;
    const sealedNow = t.txs.every((r) => !isPending(r));
    const input = t.txs.map((r) => {
      const cells = messageCells(r.tx);
      return fromCoreTransaction({
        hash: r.hash,
        ...(r.parentHash ? { parentHash: r.parentHash } : {}),
        tx: r.tx,
        inMsg: r.tx.inMessage && cells.inMsg ? { msg: r.tx.inMessage, cell: cells.inMsg } : null,
      });
    });
    const actions = await classifyTrace(input, sealedNow ? this.info : this.pendingInfo);
    // pending traces change as they grow; sealed ones are cached for good
    if (sealedNow) {
      this.actionCache.set(t.root, { size, actions });
      for (const a of actions) {
        const roots = this.actionRoots.get(a.actionId);
        if (!roots) this.actionRoots.set(a.actionId, [t.root]);
        else if (!roots.includes(t.root)) roots.push(t.root);
      }
      // the whole sealed trace as it stands is in the index now, whoever asked for its actions
      if (this.sealed.get(t.root)?.txs.length === size) this.unindexed.delete(t.root);
    }
    return actions;
  }

  /**
   * Roots of the sealed traces that have had an action with this id (possibly none). Sealed traces not yet in the
   * index are classified first, once each: without the index, an id no action has (a mistyped or made-up one)
   * would make every request classify every trace on the chain to find nothing.
   */
  async rootsOfAction(actionId: string): Promise<readonly string[]> {
    this.catchUp();
    while (this.unindexed.size > 0) {
      this.indexing ??= this.indexPending().finally(() => (this.indexing = undefined));
      await this.indexing;
    }
    // a trace undone by a rewind leaves its roots behind
    return (this.actionRoots.get(actionId) ?? []).filter((root) => this.sealed.has(root));
  }

  private async indexPending(): Promise<void> {
    // classifying thousands of traces (the first lookup on a restarted chain) runs in slices of ~10 ms, so the
    // requests that arrive meanwhile are answered between slices instead of waiting for the whole index
    let slice = performance.now();
    for (const root of this.unindexed) {
      if (performance.now() - slice > 10) {
        await nextTurn();
        slice = performance.now();
      }
      this.unindexed.delete(root);
      const t = this.sealed.get(root);
      // classifying a trace of sealed transactions records its actions' ids (actionsOf)
      if (!t) continue;
      try {
        await this.actionsOf(t);
      } catch {
        // a trace the classifier cannot read has no actions to find (a scan of /actions fails on it the same way);
        // it must not fail every other lookup, so it is left out until it grows
      }
    }
  }

  /** An account's newest pending state (the last pending transaction's), parsed once per transaction. */
  private pendingState(address: string): ShardAccount | undefined {
    const pending = this.store.pending;
    if (pending.length === 0) return undefined;
    const account = Address.parseRaw(address);
    for (let i = pending.length - 1; i >= 0; i--) {
      const rec = pending[i]!;
      if (!rec.account.equals(account)) continue;
      let sa = this.pendingStates.get(rec);
      if (!sa) this.pendingStates.set(rec, (sa = loadShardAccount(Cell.fromBase64(rec.stateAfter).beginParse())));
      return sa;
    }
    return undefined;
  }

  private getMethod(address: string, method: string): Promise<GetStack | null> {
    const addr = Address.parseRaw(address);
    const state = this.store.accountState(addr, this.store.lastMc.seqno);
    if (!state?.shardAccount.account || state.shardAccount.account.storage.state.type !== 'active') return Promise.resolve(null);
    const key = `${address}|${state.record.lt}|${state.record.mcSeqno}|${state.record.edit ?? ''}|${method}`;
    let hit = this.getMethodCache.get(key);
    if (!hit) {
      hit = this.v2
        .runGetMethodStd({ address: addr, method, stack: [] })
        .then((r) => (r.exit_code === 0 || r.exit_code === 1 ? stdGetStack(r.stack) : null))
        .catch(() => null);
      this.getMethodCache.set(key, hit);
    }
    return hit;
  }
}

/** Runs a get-method on a state the store holds but has not sealed; null when it fails or exits other than 0 or 1. */
export type StateGetMethod = (address: Address, state: ShardAccount, method: string) => Promise<GetStack | null>;

/** An active account's data cell, else null. */
function activeData(sa: ShardAccount | undefined): Cell | null {
  const st = sa?.account?.storage.state;
  return st?.type === 'active' ? (st.state.data ?? null) : null;
}
