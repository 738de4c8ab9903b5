/**
 * The local chain as a dapp developer's workbench: acton's control API call for call
 * (../shared/reference/acton-localnet.md §3-§8; facts read from ton-blockchain/acton @5535f119, its texts and
 * statuses kept), on a local chain and on a fork, and the drills acton lacks: rollback of unfinalized blocks, a
 * reorg, a reset. Every change runs through the chain's mutation queue, so calls apply in arrival order and
 * atomically relative to blocks, as acton's node thread applies them. What rewinds the chain (a restore, a
 * rollback, a reorg, a reset, a loaded state) runs under the rewind gate (rewind-gate.ts) and returns once every
 * index has caught up with it.
 */
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadMessage,
  loadShardAccount,
  storeShardAccount,
  type Account,
  type AccountState,
  type ShardAccount,
} from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type {
  AcceptedMessage,
  AccountStateChange,
  CheckpointInfo,
  ClockInfo,
  DrillResult,
  FinalityInfo,
  GenesisWallet,
  LocalnetWorkbench,
  MineResult,
  NodeInfo,
  ReorgResult,
  StartupAccount,
} from '../../api/localnet.js';
import { parseAddressAny } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';
import { messageCells } from '../../model/message.js';
import { checkBoc, EMULATOR_MAX_DEPTH, type BocLimits } from '../../model/limits.js';
import { EXT_NOT_ACCEPTED, FaucetDry, type Chain } from './chain/chain.js';
import type { Checkpoints } from './chain/checkpoints.js';
import type { Rewind, StorePosition, TxRecord } from './chain/store.js';
import type { RewindGate } from './rewind-gate.js';
import { fundJetton } from './jetton-faucet.js';
import type { V2Api } from '../../api/v2.js';

/** What the workbench works on: the chain, its checkpoints and gate, and what a rewind must wait for. */
export interface WorkbenchContext {
  readonly chain: Chain;
  readonly checkpoints: Checkpoints;
  readonly gate: RewindGate;
  readonly v2: V2Api;
  wallets(): GenesisWallet[];
  /** resolves once every index has caught up with the chain (after a rewind) */
  settled(): Promise<void>;
  /** where genesis (or the fork block) left the chain; undefined for a chain made before it was recorded */
  genesis(): StorePosition | undefined;
}

/** What a state BoC (a ShardAccount, a config) may be: far above any real account, under the emulator's depth. */
const STATE_LIMITS: BocLimits = { maxBytes: 4 * 1024 * 1024, maxCells: 1 << 16, maxBits: 1 << 24, maxDepth: EMULATOR_MAX_DEPTH, depthSource: "the emulator's bound" };
/** the longest response delay acton_setNetworkConditions takes: a request held longer is a held connection */
export const MAX_RESPONSE_DELAY_MS = 600_000;
/** the longest finality delay a caller may set */
export const MAX_FINALITY_DELAY_MS = 3_600_000;
/** blocks acton_mine seals at most in one call */
export const MAX_MINE_BLOCKS = 10_000;

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const failure = (message: string): ApiError => new ApiError(500, message);
const invalid = (message: string): ApiError => new ApiError(422, message);

/** acton's address parse: any standard form, else 422. */
function addressOf(text: string, message = 'Invalid address, only standard internal address is allowed'): Address {
  const parsed = parseAddressAny(text);
  if (!parsed) throw invalid(message);
  const a = parsed.address;
  if (a.workChain !== 0 && a.workChain !== -1) throw invalid(`workchain ${a.workChain} does not exist on the local chain (use 0 or -1)`);
  return a;
}

/** Standard base64 (padded), as acton decodes it; anything else is `badBase64`. */
function bytesOf(text: string, badBase64: string): Buffer {
  if (!STRICT_BASE64.test(text)) throw failure(badBase64);
  return Buffer.from(text, 'base64');
}

/** One root cell of a bag, within `limits`; else `bad` (acton's whole text), or with `why` what is wrong after it. */
function cellOf(bytes: Buffer, bad: string, limits: BocLimits, why = false): Cell {
  try {
    const { roots } = checkBoc(bytes, 'boc', limits);
    if (roots.length !== 1) throw new Error(`${roots.length} roots`);
    return roots[0]!;
  } catch (e) {
    throw failure(why ? `${bad}: ${(e as Error).message}` : bad);
  }
}

const hexOf = (b: Buffer): string => b.toString('hex');
const accepted = (hash: Buffer): AcceptedMessage => ({ '@type': 'ok', hash: hash.toString('base64') });

export class Workbench implements LocalnetWorkbench {
  private delayMs = 0;
  private readonly startedAt = Date.now();

  constructor(private readonly ctx: WorkbenchContext) {}

  private get chain(): Chain {
    return this.ctx.chain;
  }

  // ---- funding and messages (§3) ----

  async fundAccount(address: string, amount: bigint): Promise<AcceptedMessage> {
    const to = addressOf(address);
    try {
      const rec = await this.chain.faucet(to, amount, { zero: true });
      return accepted(Buffer.from(rec.inMsgHash!, 'hex'));
    } catch (e) {
      if (e instanceof FaucetDry) throw failure('Giver has insufficient balance');
      throw e;
    }
  }

  async fundJetton(address: string, jettonMaster: string, amount: string): Promise<AcceptedMessage> {
    const recipient = addressOf(address, 'Invalid recipient address');
    const master = addressOf(jettonMaster, 'Invalid jetton master address');
    const message = await fundJetton(this.chain, this.ctx.v2, master, recipient, amount);
    await this.chain.send(message);
    return accepted(message.hash());
  }

  async sendInternalMessage(boc: string): Promise<AcceptedMessage> {
    const cell = cellOf(bytesOf(boc, 'Invalid BOC base64'), 'Invalid BOC', STATE_LIMITS, true);
    let info;
    try {
      info = loadMessage(cell.beginParse()).info;
    } catch (e) {
      throw failure(`Invalid message: ${(e as Error).message}`);
    }
    if (info.type !== 'internal') throw failure('acton_sendInternalMessage accepts only internal messages');
    addressOf(info.dest.toRawString());
    await this.chain.send(cell);
    return accepted(cell.hash());
  }

  // ---- direct state edits (§4) ----

  async setShardAccount(address: string, shardAccount: string): Promise<null> {
    const target = addressOf(address);
    const cell = cellOf(bytesOf(shardAccount, 'Invalid shard_account base64'), 'Failed to decode ShardAccount BOC', STATE_LIMITS);
    try {
      loadShardAccount(cell.beginParse());
    } catch {
      throw failure('Failed to parse ShardAccount BOC');
    }
    await this.edit(target, cell.toBoc().toString('base64'));
    return null;
  }

  async changeAccountState(address: string, change: AccountStateChange, mine: boolean): Promise<null> {
    const target = addressOf(address);
    const state = stateOf(change);
    if (!mine && state !== 'current') throw failure('`mine: false` is only supported with frozen `source: current`');
    if (state === 'current') {
      await this.chain.enqueue(async () => {
        this.chain.freeze(target);
        if (mine) this.chain.seal();
      });
      await this.chain.store.durable();
      return null;
    }
    await this.edit(target, shardAccountBoc(target, state));
    return null;
  }

  private async edit(address: Address, boc: string): Promise<void> {
    await this.chain.enqueue(() => this.chain.setAccountState(address, boc));
    await this.chain.store.durable();
    await this.ctx.settled();
  }

  async setConfig(config: string): Promise<{ config_hash: string; block_seqno: number }> {
    const cell = cellOf(bytesOf(config, 'Invalid config base64'), 'Failed to decode blockchain config BOC', STATE_LIMITS);
    checkConfig(cell);
    const mc = await this.chain.enqueue(() => this.chain.setConfig(cell));
    await this.chain.store.durable();
    return { config_hash: hexOf(cell.hash()), block_seqno: mc.seqno };
  }

  // ---- blocks and mining (§5) ----

  async mine(blocks: number): Promise<MineResult> {
    if (blocks <= 0) throw failure('blocks must be greater than 0');
    if (blocks > MAX_MINE_BLOCKS) throw invalid(`blocks must be at most ${MAX_MINE_BLOCKS}`);
    const { sealed, skipped } = await this.chain.enqueue(() => this.chain.mine(blocks));
    await this.chain.store.durable();
    const store = this.chain.store;
    return {
      blocks_mined: sealed.length,
      skipped_empty_blocks: skipped,
      last_block_seqno: sealed.length > 0 ? sealed[sealed.length - 1]!.seqno : store.lastMc.seqno,
      blocks: sealed.map((mc) => {
        const shard = store.block(mc.shards[0]!)!;
        return { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno, root_hash: hexOf(shard.rootHash), file_hash: hexOf(shard.fileHash) };
      }),
    };
  }

  async setMiningMode(skipEmptyBlocks: boolean): Promise<{ skip_empty_blocks: boolean }> {
    await this.chain.enqueue(() => {
      this.chain.mining.mineEmpty = !skipEmptyBlocks;
    });
    return { skip_empty_blocks: !this.chain.mining.mineEmpty };
  }

  // ---- virtual time (§6) ----

  increaseTime(seconds: number): Promise<ClockInfo> {
    return this.time(() => this.chain.clock.increase(seconds));
  }

  setTime(timestamp: number): Promise<ClockInfo> {
    return this.time(() => this.chain.clock.set(timestamp, this.chain.store.lastMc.genUtime));
  }

  setNextBlockTimestamp(timestamp: number): Promise<ClockInfo> {
    return this.time(() => this.chain.clock.setNextBlock(timestamp, this.chain.store.lastMc.genUtime));
  }

  private time(change: () => ClockInfo): Promise<ClockInfo> {
    return this.chain.enqueue(() => {
      const info = change();
      this.chain.saveClock();
      return info;
    });
  }

  // ---- checkpoints (§7) ----

  createCheckpoint(name: string, force: boolean): Promise<CheckpointInfo> {
    return this.chain.enqueue(() => this.ctx.checkpoints.create(name, force));
  }

  async listCheckpoints(): Promise<CheckpointInfo[]> {
    return this.chain.enqueue(() => this.ctx.checkpoints.list());
  }

  restoreCheckpoint(name: string): Promise<CheckpointInfo> {
    return this.rewinding(async () => (await this.chain.enqueue(() => this.ctx.checkpoints.restore(name))).info);
  }

  deleteCheckpoint(name: string): Promise<CheckpointInfo> {
    return this.chain.enqueue(() => this.ctx.checkpoints.delete(name));
  }

  async clearCheckpoints(): Promise<{ deleted: number }> {
    return { deleted: await this.chain.enqueue(() => this.ctx.checkpoints.clear()) };
  }

  exportCheckpoint(_name: string): Promise<Buffer> {
    return Promise.reject(failure('acton_exportCheckpoint is not supported by this chain yet'));
  }

  importCheckpoint(_name: string, _json: Buffer, _force: boolean): Promise<CheckpointInfo> {
    return Promise.reject(failure('acton_importCheckpoint is not supported by this chain yet'));
  }

  dumpState(): Promise<Buffer> {
    return Promise.reject(failure('acton_dumpState is not supported by this chain yet'));
  }

  loadState(_json: Buffer): Promise<null> {
    return Promise.reject(failure('acton_loadState is not supported by this chain yet'));
  }

  // ---- status and network conditions (§8) ----

  async nodeInfo(): Promise<NodeInfo> {
    const chain = this.chain;
    const fork = chain.fork;
    return {
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
      last_block_seqno: chain.store.lastMc.seqno,
      ...chain.clock.info(),
      auto_mining: chain.mining.auto,
      block_interval_ms: chain.blockInterval,
      rate_limit_rps: null,
      mining_mode: { skip_empty_blocks: !chain.mining.mineEmpty },
      state_source: fork ? 'remote' : 'local',
      fork_network: fork ? fork.point.url : null,
      fork_block_number: fork ? fork.point.seqno : null,
      network_conditions: { response_delay_ms: this.delayMs },
    };
  }

  async setNetworkConditions(responseDelayMs: number): Promise<{ response_delay_ms: number }> {
    if (responseDelayMs > MAX_RESPONSE_DELAY_MS) throw invalid(`response_delay_ms must be at most ${MAX_RESPONSE_DELAY_MS}`);
    this.delayMs = responseDelayMs;
    return { response_delay_ms: this.delayMs };
  }

  get responseDelayMs(): number {
    return this.delayMs;
  }

  async startupAccounts(): Promise<StartupAccount[]> {
    return this.ctx.wallets().map((w) => ({ name: w.name, version: w.version, network: 'localnet', address: w.address }));
  }

  // ---- the drills ----

  rollback(toSeqno: number): Promise<DrillResult> {
    return this.rewinding(() =>
      this.chain.enqueue(() => {
        const head = this.chain.store.lastMc.seqno;
        if (toSeqno > head) throw invalid(`block ${toSeqno} does not exist: the newest block is ${head}`);
        this.refuseFinalized(toSeqno);
        return drill(this.ctx.checkpoints.rewind(this.chain.store.positionAfter(toSeqno)));
      }),
    );
  }

  reorg(depth: number, replay: boolean, messages: string[]): Promise<ReorgResult> {
    const extra = messages.map((m, i) => {
      try {
        const cell = cellOf(bytesOf(m, 'not base64'), 'not a bag of cells', STATE_LIMITS, true);
        loadMessage(cell.beginParse());
        return cell;
      } catch (e) {
        throw invalid(`messages[${i}] is not a message BoC in base64: ${(e as Error).message}`);
      }
    });
    return this.rewinding(() =>
      this.chain.enqueue(async () => {
        const store = this.chain.store;
        const head = store.lastMc.seqno;
        const to = head - depth;
        if (to < store.mcBlocks[0]!.seqno) throw invalid(`depth ${depth} reaches before the chain's first block`);
        this.refuseFinalized(to);
        // the messages that started each trace, per block undone, and those pending: read before they are cut
        const perBlock: Cell[][] = [];
        for (let s = to + 1; s <= head; s++) perBlock.push(rootMessages(store.transactionsOfMcBlock(s)));
        const pendingRoots = rootMessages(store.pending);
        const rewound = this.ctx.checkpoints.rewind(store.positionAfter(to));
        let executed = 0;
        let failed = 0;
        const run = async (m: Cell) => ((await this.execute(m)) ? executed++ : failed++);
        const blocks: ReorgResult['blocks'] = [];
        for (let i = 0; i < depth; i++) {
          for (const m of replay ? perBlock[i]! : []) await run(m);
          if (i === depth - 1) for (const m of extra) await run(m);
          const pending = store.pending.length;
          const mc = this.chain.seal();
          blocks.push({ seqno: mc.seqno, root_hash: mc.rootHash.toString('base64'), file_hash: mc.fileHash.toString('base64'), transactions: pending });
        }
        if (replay) for (const m of pendingRoots) await run(m);
        return { ...drill(rewound), blocks, messages_executed: executed, messages_failed: failed };
      }),
    );
  }

  reset(forkBlock?: number): Promise<DrillResult> {
    const fork = this.chain.fork;
    if (forkBlock !== undefined && forkBlock !== fork?.point.seqno) {
      throw fork
        ? invalid(`this fork is at block ${fork.point.seqno}; forking at block ${forkBlock} takes a restart with --fork-block ${forkBlock}`)
        : invalid('fork_block is for a fork: this chain started from its own genesis');
    }
    const genesis = this.ctx.genesis();
    if (!genesis) throw invalid("this chain's data dir was made before resets were possible: where its genesis ends is not recorded");
    return this.rewinding(() =>
      this.chain.enqueue(() => {
        const rewound = this.ctx.checkpoints.rewind(genesis, { cursor: this.chain.moment().cursor, clock: { offset: 0, next: null } });
        this.chain.finalizeAll();
        return drill(rewound);
      }),
    );
  }

  async finality(): Promise<FinalityInfo> {
    const store = this.chain.store;
    return { finality_delay_ms: this.chain.mining.finalityDelayMs, last_block_seqno: store.lastMc.seqno, last_finalized_seqno: store.finalizedMc };
  }

  async setFinalityDelay(ms: number): Promise<FinalityInfo> {
    if (ms > MAX_FINALITY_DELAY_MS) throw invalid(`finality_delay_ms must be at most ${MAX_FINALITY_DELAY_MS}`);
    await this.chain.enqueue(() => this.chain.setFinalityDelay(ms));
    return this.finality();
  }

  /** A rollback or reorg must not reach a finalized block. */
  private refuseFinalized(to: number): void {
    const finalized = this.chain.store.finalizedMc;
    if (to < finalized) {
      throw new ApiError(409, `block ${finalized} is finalized: finalized blocks are never rolled back (the oldest block that can be undone is ${finalized + 1}; see --finality-delay-ms)`);
    }
  }

  /** Executes a replayed message; an external that was accepted once may have been impersonated. */
  private async execute(m: Cell): Promise<boolean> {
    try {
      await this.chain.execute(m);
      return true;
    } catch (e) {
      const info = loadMessage(m.beginParse()).info;
      if (info.type !== 'external-in' || !(e instanceof ApiError) || !e.message.startsWith(EXT_NOT_ACCEPTED)) return false;
      try {
        await this.chain.execute(m, { impersonate: info.dest });
        return true;
      } catch {
        return false;
      }
    }
  }

  /** Runs a rewind alone (no read under way), then waits for every index to catch up before reads go on. */
  private rewinding<T>(fn: () => Promise<T>): Promise<T> {
    return this.ctx.gate.exclusive(async () => {
      try {
        const out = await fn();
        await this.chain.store.durable();
        return out;
      } finally {
        await this.ctx.settled();
      }
    });
  }
}

function drill(r: Rewind): DrillResult {
  return {
    from_seqno: r.fromMc,
    to_seqno: r.to.mcSeqno,
    blocks_undone: r.blocks.length,
    transactions_undone: r.removed.length,
    undone_traces: [...r.traces.values()].map((h) => Buffer.from(h, 'hex').toString('base64')),
  };
}

/** The in-messages that started the traces among `txs` (each trace's first transaction), in execution order. */
function rootMessages(txs: readonly TxRecord[]): Cell[] {
  return txs
    .filter((t) => t.parentHash === undefined)
    .sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0))
    .map((t) => messageCells(t.tx).inMsg)
    .filter((c): c is Cell => c !== undefined);
}

/** An account state to write with its balance; null: no account. */
type Written = { state: AccountState; balance: bigint } | null;

/** What changeAccountState's `state` asks for: a state to write, or 'current' (freeze the account as it is). */
function stateOf(change: AccountStateChange): Written | 'current' {
  switch (change.type) {
    case 'nonexist':
      return null;
    case 'uninit':
      return { state: { type: 'uninit' }, balance: balanceOf(change.balance) };
    case 'frozen': {
      if (change.source === 'current') {
        if (change.balance !== undefined) throw failure('`balance` cannot be used with frozen `source: current`');
        if (change.frozen_hash !== undefined) throw failure('`frozen_hash` cannot be used with frozen `source: current`');
        return 'current';
      }
      if (change.source !== undefined) throw failure(`Unsupported frozen account state source \`${change.source}\`; supported value is \`current\``);
      if (change.frozen_hash === undefined) throw failure('Frozen account state requires either `source: current` or `frozen_hash`');
      const hash = parseHash(change.frozen_hash);
      if (!hash) throw failure('Invalid hash format');
      return { state: { type: 'frozen', stateHash: BigInt(`0x${hash.toString('hex')}`) }, balance: balanceOf(change.balance) };
    }
  }
}

/** The `balance` acton takes beside a state: a decimal string of nanograms (u128), default 0. */
function balanceOf(balance: string | undefined): bigint {
  if (balance === undefined) return 0n;
  if (!/^\d{1,39}$/.test(balance) || BigInt(balance) >= 1n << 128n) throw failure(`Invalid balance: ${balance}`);
  return BigInt(balance);
}

/** A ShardAccount holding `state` (null: no account), with no last transaction, as acton writes one. */
function shardAccountBoc(address: Address, written: Written): string {
  const account: Account | null = written && {
    addr: address,
    storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: 0, duePayment: null, storageExtra: null },
    storage: { lastTransLt: 0n, balance: { coins: written.balance }, state: written.state },
  };
  const sa: ShardAccount = { account, lastTransactionHash: 0n, lastTransactionLt: 0n };
  return beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
}

/** acton checks a config before using it: a non-empty dictionary of 32-bit keys whose every entry parses. */
function checkConfig(root: Cell): void {
  try {
    const s = root.beginParse();
    if (s.remainingBits === 0 && s.remainingRefs === 0) throw new Error('empty');
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
    if (dict.size === 0) throw new Error('empty');
  } catch {
    throw failure('Failed to parse blockchain config dictionary');
  }
}
