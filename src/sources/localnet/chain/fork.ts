/**
 * A local chain forked from a network (issue 33): the fork point (an upstream masterchain block), its config,
 * and the accounts read lazily from the upstream at that block through the account loader, each once: a
 * fetched state is written to the chain's database as a genesis state, so it is never fetched again, not
 * even after a restart on the same data dir.
 */
import { Address, Cell } from '@ton/core';
import { AccountLoader, type UpstreamBlock } from '../../../engine/account-loader.js';
import { DEFAULT_UPSTREAM_MAX_BYTES } from '../../../remote/options.js';
import { createUpstream, type Upstream } from '../../../remote/upstream.js';
import type { ChainDb } from './db.js';
import type { ChainStore } from './store.js';
import { DataDirError, forkMismatch } from './data-dir.js';
import { Deliveries } from './fork-delivery.js';

/** What `--fork` asks for. */
export interface ForkOptions {
  /** base address of a v2 API (toncenter, ton-http-api, another gateway) */
  url: string;
  /** the masterchain seqno to fork at; the upstream's newest when absent */
  seqno?: number;
  apiKey: string;
  /** outgoing requests/s to the upstream; 0 = unpaced */
  rps: number;
  /** per-request timeout, ms */
  timeoutMs?: number;
  /** how long an internal message waits for its destination's load before it fails, ms */
  deliveryDeadlineMs?: number;
  /** destinations of waiting messages loaded at once, at most */
  deliveryLoads?: number;
}

/** The fork point as the chain's database keeps it. */
export interface ForkPoint {
  url: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
  globalId: number;
  genUtime: number;
  startLt: string;
  endLt: string;
  /** the config at the fork block, BoC base64 */
  config: string;
}

export const FORK_META = 'fork';

export class Fork {
  /** internal messages waiting for their destination's load (the chain's sandbox queue entries) */
  readonly deliveries: Deliveries<object>;

  private constructor(
    readonly point: ForkPoint,
    readonly config: Cell,
    readonly loader: AccountLoader,
    readonly upstream: Upstream,
    opts: Pick<ForkOptions, 'deliveryDeadlineMs' | 'deliveryLoads'>,
  ) {
    this.deliveries = new Deliveries(opts.deliveryDeadlineMs, opts.deliveryLoads);
  }

  /**
   * The fork a database holds (no upstream call), or a new one read from the upstream (header and config:
   * two calls). A database forked elsewhere, or holding a plain local chain, is refused.
   */
  static async open(opts: ForkOptions, db: ChainDb): Promise<Fork> {
    const upstream = createUpstream({
      v2Url: opts.url,
      v3Url: opts.url,
      apiKey: opts.apiKey,
      rps: opts.rps,
      timeoutMs: opts.timeoutMs ?? 15_000,
      maxBytes: DEFAULT_UPSTREAM_MAX_BYTES,
      cacheMb: 16,
      accountTtlMs: 0,
    });
    try {
      const held = db.meta<ForkPoint>(FORK_META);
      if (db.meta<boolean>('ready')) {
        const refused = forkMismatch(db.dir, held, opts);
        if (refused !== undefined) throw new DataDirError(refused);
      }
      if (held && db.meta<boolean>('ready')) {
        return new Fork(held, Cell.fromBase64(held.config), new AccountLoader(upstream.v2, held.seqno), upstream, opts);
      }
      const loader = opts.seqno === undefined ? await AccountLoader.atLatest(upstream.v2) : new AccountLoader(upstream.v2, opts.seqno);
      const [block, config] = await Promise.all([loader.block(), loader.config()]);
      // written with the chain's head when its zerostate is (chain.ts)
      return new Fork(pointOf(opts.url, block, config), config, loader, upstream, opts);
    } catch (e) {
      await upstream.close();
      throw e;
    }
  }

  /** The account's state at the fork block (ShardAccount BoC), undefined when it does not exist there. */
  async state(address: Address): Promise<{ boc: string; code?: Cell } | undefined> {
    const loaded = await this.loader.account(address);
    if (loaded.status === 'nonexist') return undefined;
    const state = loaded.shardAccount.account!.storage.state;
    return { boc: loaded.boc, code: state.type === 'active' ? state.state.code ?? undefined : undefined };
  }

  /**
   * The account's last transaction on the network at the fork block: its local history continues from there,
   * and everything at or before it is the upstream's. Undefined for an account that had none there (or that
   * the store has not adopted yet).
   */
  lastTxAtFork(store: ChainStore, address: Address): { lt: bigint; hash: Buffer } | undefined {
    const sa = store.accountState(address, this.point.seqno)?.shardAccount;
    if (!sa || sa.lastTransactionLt === 0n) return undefined;
    return { lt: sa.lastTransactionLt, hash: Buffer.from(sa.lastTransactionHash.toString(16).padStart(64, '0'), 'hex') };
  }

  get block(): { seqno: number; rootHash: Buffer; fileHash: Buffer; genUtime: number; startLt: bigint; endLt: bigint } {
    const p = this.point;
    return {
      seqno: p.seqno,
      rootHash: Buffer.from(p.rootHash, 'hex'),
      fileHash: Buffer.from(p.fileHash, 'hex'),
      genUtime: p.genUtime,
      startLt: BigInt(p.startLt),
      endLt: BigInt(p.endLt),
    };
  }

  close(): Promise<void> {
    this.deliveries.close();
    return this.upstream.close();
  }
}

function pointOf(url: string, b: UpstreamBlock, config: Cell): ForkPoint {
  return {
    url,
    seqno: b.seqno,
    rootHash: b.rootHash.toString('hex'),
    fileHash: b.fileHash.toString('hex'),
    globalId: b.globalId,
    genUtime: b.genUtime,
    startLt: b.startLt.toString(),
    endLt: b.endLt.toString(),
    config: config.toBoc().toString('base64'),
  };
}
