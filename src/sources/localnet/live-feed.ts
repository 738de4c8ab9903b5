/**
 * The local chain's Streaming API v2 events (../shared/reference/streaming-v2.md §5, §7), from its own lifecycle:
 *
 * - pending: a message's whole cascade has executed (the store's commit), not yet sealed: `transactions` with
 *   the cascade's pending transactions as /api/v3/pendingTransactions prints them, `actions` and `trace` with
 *   its actions as /api/v3/pendingActions classifies them.
 * - confirmed, then finalized: the seal makes each trace it completed confirmed, and the block's finality (at
 *   once, or after the chain's finality delay) finalized; both stages carry the same full snapshot taken at the
 *   seal (the transactions as /api/v3/transactions prints them), with `account_state_change` for each account
 *   the block changed (its last transaction's state: one per account per finality per lt) and `jettons_change`
 *   for each of them the contract index knows as a jetton wallet (as /api/v3/jetton/wallets prints it).
 *
 * Events are built through the v3 routes' own code (LocalV3Context, TraceReads), their address book and
 * metadata covering every address they name (the hub trims them per client), each made only while some client
 * asks for it (metadata runs get-methods); a replayed event is built with both. What must be read at the moment
 * (a pending transaction's block, the state before it) is read in the store's listener; what may wait
 * (classification, metadata) follows, and events leave in the order the chain made them. Finalized events are
 * written to the stream log first and carry its cursor; the log keeps what identifies each event the chain can
 * build again (live/replay-log.ts), and `replay` builds those again as they were sent.
 *
 * - trace_invalidated: a rewind (a rollback, a reorg, a restored checkpoint, a reset) undid a trace or took it back
 *   to pending; the hub passes it to the clients that were sent a non-final event of it. Sealed blocks waiting
 *   for finality that the rewind cut off are never finalized, and the log forgets the seals it cut off. A trace
 *   that is pending again is then reported pending again.
 */
import type { Address } from '@ton/core';
import type { Action } from '../../api/v3/actions.js';
import type { Transaction as V3Transaction } from '../../api/v3/transactions.js';
import type { V3Api } from '../../api/v3/index.js';
import type { Finality, LiveFeed, LiveFeedStatus, LiveInterest, LiveEvent } from '../../live/feed.js';
import { actionToV3 } from '../../model/v3/index.js';
import type { BlockRecord, Rewind, TxRecord } from './chain/store.js';
import { byLt, type TraceRecords } from './indexer/traces.js';
import { LocalV3Context, type LocalV3Options, type V3ChainSource } from './v3/v3-context.js';
import { TraceReads } from './v3/v3-trace-reads.js';
import type { LogItem, Logged, ReplayLog } from '../../live/replay-log.js';

const hexToB64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');

interface TraceNode {
  tx_hash: string;
  in_msg_hash: string | null;
  children: TraceNode[];
}

/** One trace at one moment: what its events are made of. */
interface Snapshot {
  t: TraceRecords;
  norm: string;
  /** lt ascending */
  txs: V3Transaction[];
  pending: boolean;
}

/** Which of the address book and metadata events are made with. */
interface Extras {
  book: boolean;
  metadata: boolean;
}

/** The jetton wallet fields `jettons_change` carries (mintless_info omitted). */
const JETTON_KEYS = ['address', 'balance', 'owner', 'jetton', 'last_transaction_lt', 'code_hash', 'data_hash'] as const;

/** An event of a seal as it is at another stage: its finality, and that of every transaction and action in it. */
function atStage(e: LiveEvent, finality: Finality): LiveEvent {
  const restamp = <T extends object>(o: T): T => ({ ...o, finality });
  const out: Record<string, unknown> = { ...e, finality };
  if (Array.isArray(e.transactions)) out.transactions = e.transactions.map(restamp);
  else if (e.type === 'trace') out.transactions = Object.fromEntries(Object.entries(e.transactions as Record<string, object>).map(([k, t]) => [k, restamp(t)]));
  if (Array.isArray(e.actions)) out.actions = e.actions.map(restamp);
  return out as LiveEvent;
}

export class LocalLiveFeed implements LiveFeed {
  private readonly ctx: LocalV3Context;
  private readonly reads: TraceReads;
  private deliver?: (e: LiveEvent) => void;
  private readonly stops: (() => void)[] = [];
  /** events leave in the order the chain made them */
  private queue: Promise<void> = Promise.resolve();
  private failure?: string;
  /** what of the address book and metadata some client asked for: nobody's, until the hub says otherwise */
  private wants: Extras = { book: false, metadata: false };
  /** sealed blocks' events at finalized, sent at confirmed, waiting for their block to be final (oldest first) */
  private unfinal: { mc: number; items: LogItem[] }[] = [];

  constructor(
    private readonly chain: V3ChainSource & { readonly v3: V3Api },
    private readonly log: ReplayLog,
    opts: LocalV3Options = {},
    private readonly onError: (e: unknown) => void = (e) => console.error('local chain: building streaming events failed:', e),
  ) {
    this.ctx = new LocalV3Context(chain, opts);
    this.reads = new TraceReads(this.ctx);
  }

  start(deliver: (event: LiveEvent) => void): void {
    this.deliver = deliver;
    const store = this.chain.store;
    this.stops.push(
      store.onCommit((recs) => {
        const snaps = this.pendingSnapshots(recs);
        this.then(() => this.emitPending(snaps));
      }),
      store.onSeal((mc, sealed) => {
        const snaps = this.sealedSnapshots(sealed);
        this.then(() => this.emitSealed(mc, snaps));
      }),
      store.onFinalize((upTo) => this.then(async () => this.emitFinal(upTo))),
      store.onRewind((r) => {
        const again = this.pendingSnapshots(r.repended);
        this.then(async () => {
          this.invalidate(r);
          await this.emitPending(again);
        });
      }),
    );
    // seals the log holds but the chain does not (it was rewound and stopped before the log caught up)
    this.log.forgetAfter(store.lastMc.seqno);
  }

  /**
   * Every client is sent what it asks of everything here: the local chain makes its events whoever listens.
   * Only the address book and metadata (get-methods) are left out of events while no client asks for them.
   */
  setInterest(interest: LiveInterest): void {
    this.wants = { book: interest.addressBook ?? true, metadata: interest.metadata ?? true };
  }

  /** Replays the log, building each event kept by reference again, with the address book and metadata. */
  replay(cursor: string, deliver: (event: LiveEvent) => void | Promise<void>): Promise<void> {
    return this.log.replay(cursor, deliver, (entries) => this.rebuild(entries));
  }

  /** Logged events as they were sent, each trace stage built once however many of its events the step holds. */
  private async rebuild(entries: readonly Logged[]): Promise<(LiveEvent | undefined)[]> {
    const stages = new Map<string, Promise<LiveEvent[] | undefined>>();
    const all = { book: true, metadata: true };
    return Promise.all(
      entries.map(async (entry) => {
        if ('event' in entry) return this.completed(entry.event);
        const ref = entry.ref;
        if (ref.type === 'account_state_change') {
          const rec = this.chain.store.tx(ref.tx);
          return rec ? this.stateEvent(this.ctx.txToV3(rec), 'finalized') : undefined;
        }
        const key = `${ref.root}:${ref.mc}`;
        let stage = stages.get(key);
        if (!stage) stages.set(key, (stage = this.stageOf(ref.root, ref.mc, all)));
        return (await stage)?.find((e) => e.type === ref.type);
      }),
    );
  }

  /** A trace's events at finalized as they were when masterchain block `mc` sealed it. */
  private async stageOf(root: string, mc: number, extras: Extras): Promise<LiveEvent[] | undefined> {
    const summary = this.reads.traces.trace(root);
    const txs = summary?.txs.filter((r) => r.mcSeqno! <= mc);
    if (!txs?.length) return undefined;
    const t: TraceRecords = { root, txs };
    return this.traceEvents({ t, norm: this.normOf(txs[0]!), txs: txs.map((r) => this.ctx.txToV3(r)), pending: false }, 'finalized', extras);
  }

  private async completed(e: LiveEvent): Promise<LiveEvent> {
    if (e.type === 'account_state_change' || e.type === 'trace_invalidated') return e;
    if (e.address_book !== undefined && e.metadata !== undefined) return e;
    return { ...e, ...(await this.extras(this.addressesOf(e), { book: true, metadata: true })) };
  }

  /** The addresses an event's address book and metadata cover, as it was made. */
  private addressesOf(e: LiveEvent): string[] {
    const accounts = ((e.actions as { accounts?: string[] }[] | undefined) ?? []).flatMap((a) => a.accounts ?? []);
    const txs = Array.isArray(e.transactions) ? e.transactions : Object.values((e.transactions as Record<string, V3Transaction> | undefined) ?? {});
    if (e.type !== 'jettons_change') return [...this.reads.txAddresses(txs as V3Transaction[]), ...accounts];
    const j = e.jetton as { address: string; owner: string; jetton: string };
    return [j.address, j.owner, j.jetton];
  }

  head(): string {
    return this.log.head();
  }

  status(): LiveFeedStatus {
    return { kind: 'localnet', up: this.failure === undefined, ...(this.failure ? { detail: this.failure } : {}) };
  }

  async stop(): Promise<void> {
    for (const s of this.stops.splice(0)) s();
    await this.queue;
    this.log.close();
  }

  private then(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).then(
      () => (this.failure = undefined),
      (e: unknown) => {
        this.failure = `building streaming events failed: ${e instanceof Error ? e.message : String(e)}`;
        this.onError(e);
      },
    );
  }

  private normOf(root: TxRecord): string {
    const norm = this.reads.normOf(root);
    return hexToB64(norm ?? root.inMsgHash ?? root.hash);
  }

  /** The pending traces a committed cascade belongs to, read now: the next seal changes what they print. */
  private pendingSnapshots(recs: readonly TxRecord[]): Snapshot[] {
    const pending = this.reads.traces.pendingByTrace();
    const roots = new Set(recs.map((r) => r.traceRootHash));
    const out: Snapshot[] = [];
    for (const root of roots) {
      const txs = (pending.get(root) ?? []).slice().sort(byLt);
      if (txs.length === 0) continue;
      const first = txs[0]!;
      out.push({ t: { root, txs }, norm: this.normOf(first), txs: txs.map((r) => this.reads.pendingTxToV3(r, first)), pending: true });
    }
    return out;
  }

  private sealedSnapshots(sealed: readonly TxRecord[]): Snapshot[] {
    const out: Snapshot[] = [];
    for (const root of new Set(sealed.map((r) => r.traceRootHash))) {
      const summary = this.reads.traces.trace(root);
      if (!summary) continue;
      const t: TraceRecords = { root, txs: summary.txs.slice() };
      out.push({ t, norm: this.normOf(t.txs[0]!), txs: t.txs.map((r) => this.ctx.txToV3(r)), pending: false });
    }
    return out;
  }

  /** Every action of a trace in v3 form, with its accounts and enclosing types (for the hub's filters), newest first. */
  private async actions(s: Snapshot, finality: Finality): Promise<Action[]> {
    const tctx = { ...this.reads.traceContext(s.t, () => s.txs, s.pending), finality };
    const classified = await this.reads.traces.actionsOf(s.t);
    return classified
      .slice()
      .sort((x, y) => (y.endLt > x.endLt ? 1 : y.endLt < x.endLt ? -1 : y.startLt > x.startLt ? 1 : y.startLt < x.startLt ? -1 : 0))
      .map((a) => {
        const { finality: f, ...rest } = actionToV3(a, tctx);
        return Object.assign(rest, { accounts: [...a.accounts], ancestor_type: [...a.ancestorTypes] }, { finality: f }) as Action;
      });
  }

  /** The address book and metadata (get-methods) of some addresses, each only when wanted; made once per event. */
  private async extras(addrs: string[], wants = this.wants): Promise<{ address_book?: unknown; metadata?: unknown }> {
    return {
      ...(wants.book ? { address_book: this.ctx.book(addrs, {}) } : {}),
      ...(wants.metadata ? { metadata: await this.ctx.metadata(addrs, {}) } : {}),
    };
  }

  /** `transactions`, `actions` and `trace` of one trace at one stage. */
  private async traceEvents(s: Snapshot, finality: Finality, wants = this.wants): Promise<LiveEvent[]> {
    const txs = s.txs;
    const actions = await this.actions(s, finality);
    const addrs = [...this.reads.txAddresses(txs), ...actions.flatMap((a) => (a as { accounts?: string[] }).accounts ?? [])];
    const extras = await this.extras(addrs, wants);
    const head = { finality, trace_external_hash_norm: s.norm };
    const events: LiveEvent[] = [{ type: 'transactions', ...head, transactions: txs.slice().reverse(), ...extras }];
    if (actions.length > 0) events.push({ type: 'actions', ...head, actions, ...extras });
    events.push({
      type: 'trace',
      ...head,
      trace: this.traceNode(s.t),
      transactions: Object.fromEntries(txs.map((t) => [t.hash, t])),
      ...(actions.length ? { actions } : {}),
      ...extras,
    });
    return events;
  }

  private traceNode(t: TraceRecords): TraceNode {
    const children = new Map<string, TxRecord[]>();
    for (const r of t.txs) {
      if (!r.parentHash) continue;
      const list = children.get(r.parentHash);
      if (list) list.push(r);
      else children.set(r.parentHash, [r]);
    }
    const node = (r: TxRecord): TraceNode => ({
      tx_hash: hexToB64(r.hash),
      in_msg_hash: r.inMsgHash ? hexToB64(r.inMsgHash) : null,
      children: (children.get(r.hash) ?? []).map(node),
    });
    return node(t.txs[0]!);
  }

  private async emitPending(snaps: Snapshot[]): Promise<void> {
    for (const s of snaps) for (const e of await this.traceEvents(s, 'pending')) this.deliver?.(e);
  }

  /** The accounts a seal changed, each with its last transaction (v3 form). */
  private lastTxs(snaps: Snapshot[]): Map<string, V3Transaction> {
    const last = new Map<string, V3Transaction>();
    for (const s of snaps) {
      for (const t of s.txs) {
        const prev = last.get(t.account);
        if (!prev || BigInt(t.lt) > BigInt(prev.lt)) last.set(t.account, t);
      }
    }
    return last;
  }

  /** `account_state_change` after a transaction: the state it left, without its BoCs. */
  private stateEvent(t: V3Transaction, finality: Finality): LiveEvent {
    const { data_boc: _d, code_boc: _c, ...state } = t.account_state_after as typeof t.account_state_after & { data_boc?: string; code_boc?: string };
    return { type: 'account_state_change', finality, account: t.account, state };
  }

  /** A seal's `account_state_change` (by reference to the transaction each follows) and `jettons_change` events. */
  private async accountEvents(snaps: Snapshot[], finality: Finality): Promise<LogItem[]> {
    const last = this.lastTxs(snaps);
    const items: LogItem[] = [];
    const addresses: Address[] = [];
    for (const t of last.values()) {
      const tx = Buffer.from(t.hash, 'base64').toString('hex');
      items.push({ event: this.stateEvent(t, finality), ref: { type: 'account_state_change', tx } });
      const rec = this.chain.store.tx(tx);
      if (rec) addresses.push(rec.account);
    }
    if (addresses.length === 0) return items;
    const { jetton_wallets } = await this.chain.v3.jettonWallets({ address: addresses, limit: addresses.length, offset: 0 });
    for (const w of jetton_wallets) {
      const jetton = Object.fromEntries(JETTON_KEYS.map((k) => [k, w[k]]));
      const extras = await this.extras([w.address, w.owner, w.jetton]);
      // right after the state change of its wallet
      const at = items.findIndex(({ event: e }) => e.type === 'account_state_change' && e.account === w.address);
      items.splice(at + 1, 0, { event: { type: 'jettons_change', finality, jetton, ...extras } });
    }
    return items;
  }

  /**
   * One seal: its snapshot at confirmed now, kept at finalized for when the block is final. What the chain can
   * build again is logged by reference: a trace's events by its root and this block, a state change by its
   * transaction.
   */
  private async emitSealed(mc: BlockRecord, snaps: Snapshot[]): Promise<void> {
    if (snaps.length === 0) return;
    const finalized: LogItem[] = [];
    for (const s of snaps) {
      for (const event of await this.traceEvents(s, 'finalized')) {
        finalized.push({ event, ref: { type: event.type as 'transactions' | 'actions' | 'trace', root: s.t.root, mc: mc.seqno } });
      }
    }
    finalized.push(...(await this.accountEvents(snaps, 'finalized')));
    for (const { event } of finalized) this.deliver?.(atStage(event, 'confirmed'));
    this.unfinal.push({ mc: mc.seqno, items: finalized });
  }

  /** The events of the blocks final now, written to the log first. */
  private emitFinal(upTo: number): void {
    while (this.unfinal.length > 0 && this.unfinal[0]!.mc <= upTo) {
      const { mc, items } = this.unfinal.shift()!;
      for (const e of this.log.append(items, mc)) this.deliver?.(e);
    }
  }

  /** A rewind: its blocks are never final, the log forgets them, and every trace it touched is invalid. */
  private invalidate(r: Rewind): void {
    this.unfinal = this.unfinal.filter((b) => b.mc <= r.to.mcSeqno);
    this.log.forgetAfter(r.to.mcSeqno);
    for (const hash of r.traces.values()) this.deliver?.({ type: 'trace_invalidated', trace_external_hash_norm: hexToB64(hash) });
  }
}
