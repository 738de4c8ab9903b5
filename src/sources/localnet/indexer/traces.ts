/**
 * The trace index of one chain: sealed transactions grouped by cascade (the store's `traceRootHash`), fed by
 * sealed blocks, and the actions classified from each trace. Actions of a sealed trace are classified once and
 * kept; which contract is a jetton wallet or an NFT item is asked of its get-methods through the v2 seam,
 * memoised per (address, state). Traces with a transaction still pending are assembled on demand.
 */
import { Address, Cell } from '@ton/core';
import { LRUCache } from 'lru-cache';
import type { StdStackEntry, V2Api } from '../../../api/v2.js';
import { rawUpper } from '../../../model/address.js';
import { messageCells } from '../../../model/message.js';
import { fromCoreTransaction } from '../../../model/v3/classifier-input.js';
import { classifyTrace, type ClassifiedAction, type ContractInfo } from '../../../model/v3/index.js';
import type { ChainStore, TxRecord } from '../chain/store.js';

/** One cascade: its transactions in lt order. */
export interface TraceRecords {
  /** root transaction hash, hex */
  root: string;
  txs: TxRecord[];
}

export const byLt = (a: TxRecord, b: TxRecord): number => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0);

/** A transaction accepted but not yet in a sealed block. */
export const isPending = (rec: TxRecord): boolean => rec.block === undefined;

export class TraceIndex {
  /** sealed transactions by trace root (hex), in lt order */
  private readonly sealed = new Map<string, TxRecord[]>();
  private sealedIndexed = 0;
  /** actions of the most recently read sealed traces, by root */
  private readonly actionCache = new LRUCache<string, { size: number; actions: ClassifiedAction[] }>({ max: 2048 });
  /** get-method answers per (address, state, method), for the most recently asked */
  private readonly getMethodCache = new LRUCache<string, Promise<StdStackEntry[] | null>>({ max: 8192 });
  private readonly info: ContractInfo;

  constructor(
    private readonly store: ChainStore,
    private readonly v2: V2Api,
  ) {
    this.info = {
      jettonWallet: async (address) => {
        const st = await this.getMethod(address, 'get_wallet_data');
        const owner = st && sliceAddress(st[1]);
        const jetton = st && sliceAddress(st[2]);
        return owner && jetton ? { owner, jetton } : null;
      },
      nftItem: async (address) => {
        const st = await this.getMethod(address, 'get_nft_data');
        const index = st?.[1]?.['@type'] === 'tvm.stackEntryNumber' ? BigInt(st[1].number.number).toString() : null;
        return index !== null ? { index, collection: sliceAddress(st![2]) } : null;
      },
    };
    store.onSeal(() => this.catchUp());
  }

  /** Sealed transactions by trace root (hex), each list in lt order. */
  sealedTraces(): ReadonlyMap<string, TxRecord[]> {
    this.catchUp();
    return this.sealed;
  }

  /** Reads only the transactions sealed since the last call. */
  private catchUp(): void {
    const all = this.store.sealedTransactions();
    for (let i = this.sealedIndexed; i < all.length; i++) {
      const rec = all[i]!;
      let list = this.sealed.get(rec.traceRootHash);
      if (!list) this.sealed.set(rec.traceRootHash, (list = []));
      list.push(rec);
    }
    this.sealedIndexed = all.length;
  }

  /** Pending transactions by trace root, each with the trace's sealed part (if any) in lt order. */
  pendingByTrace(): Map<string, TxRecord[]> {
    const out = new Map<string, TxRecord[]>();
    for (const rec of this.store.pending) {
      let list = out.get(rec.traceRootHash);
      if (!list) out.set(rec.traceRootHash, (list = [...(this.sealedTraces().get(rec.traceRootHash) ?? [])]));
      list.push(rec);
    }
    for (const list of out.values()) list.sort(byLt);
    return out;
  }

  /** Sealed traces with nothing pending: what /traces and /actions show. */
  completeTraces(): TraceRecords[] {
    const pending = new Set(this.store.pending.map((r) => r.traceRootHash));
    const out: TraceRecords[] = [];
    for (const [root, txs] of this.sealedTraces()) if (!pending.has(root)) out.push({ root, txs });
    return out;
  }

  /** The actions classified from a trace; a trace with pending transactions is classified again on every call. */
  async actionsOf(t: TraceRecords): Promise<ClassifiedAction[]> {
    const hit = this.actionCache.get(t.root);
    if (hit && hit.size === t.txs.length) return hit.actions;
    const input = t.txs.map((r) => {
      const cells = messageCells(r.tx);
      return fromCoreTransaction({
        hash: r.hash,
        ...(r.parentHash ? { parentHash: r.parentHash } : {}),
        tx: r.tx,
        inMsg: r.tx.inMessage && cells.inMsg ? { msg: r.tx.inMessage, cell: cells.inMsg } : null,
      });
    });
    const actions = await classifyTrace(input, this.info);
    // pending traces change as they grow; sealed ones are cached for good
    if (t.txs.every((r) => !isPending(r))) this.actionCache.set(t.root, { size: t.txs.length, actions });
    return actions;
  }

  private getMethod(address: string, method: string): Promise<StdStackEntry[] | null> {
    const addr = Address.parseRaw(address);
    const state = this.store.accountState(addr, this.store.lastMc.seqno);
    if (!state?.shardAccount.account || state.shardAccount.account.storage.state.type !== 'active') return Promise.resolve(null);
    const key = `${address}|${state.record.lt}|${state.record.mcSeqno}|${method}`;
    let hit = this.getMethodCache.get(key);
    if (!hit) {
      hit = this.v2
        .runGetMethodStd({ address: addr, method, stack: [] })
        .then((r) => (r.exit_code === 0 || r.exit_code === 1 ? r.stack : null))
        .catch(() => null);
      this.getMethodCache.set(key, hit);
    }
    return hit;
  }
}

/** An address from a get-method's slice entry (raw uppercase); null for anything else or addr_none. */
function sliceAddress(e: StdStackEntry | undefined): string | null {
  if (!e) return null;
  const bytes = e['@type'] === 'tvm.stackEntrySlice' ? e.slice.bytes : e['@type'] === 'tvm.stackEntryCell' ? e.cell.bytes : undefined;
  if (!bytes) return null;
  try {
    const a = Cell.fromBase64(bytes).beginParse().loadMaybeAddress();
    return a ? rawUpper(a) : null;
  } catch {
    return null;
  }
}
