/**
 * The engine of the local chain: sandbox executes messages, this records every resulting transaction with
 * the account state right after it, and the block producer seals pending transactions into one masterchain
 * block plus one basechain shard block. All mutations run one at a time through `enqueue`.
 *
 * Time and lt: a block's gen_utime is fixed when its first message executes (max of the previous block's
 * utime and the wall clock, so it never decreases) and sandbox `now` is set to it, so transaction utimes lie
 * in their block. Sandbox gives every transaction its own lt (steps of 1,000,000); a block's start_lt/end_lt
 * are the smallest lt and the largest end lt (lt + 1 + out-messages) of its transactions, and an empty block
 * takes start_lt = end_lt = the end lt of everything before it.
 *
 * Storage (db.ts, store.ts): every executed message's transactions are committed to the chain's database as
 * one transaction, and every seal as one more before it is visible; a send is answered once its records are
 * on disk. With a data dir, `create` reads the store's index back from the database and sandbox loads each
 * account's newest state when it first needs it (a storage over the store, not every account at start), so
 * the chain continues with the same seqnos and hashes; pending transactions seal in the next block. Without
 * one the same code runs on a temporary database. A directory in the old journal format (journal.ts) is
 * imported once into `chain.db`; the journal is left where it was and not read again.
 *
 * When the storage refuses a write (full disk, read-only filesystem, I/O error: db.ts's StorageFailure) nothing
 * the write would have made visible is: a seal is one database transaction applied in memory only once it
 * commits, and transactions whose write failed stay staged in memory. Sends are then refused (503
 * LITE_SERVER_NOTREADY with the reason) before they execute, the producer stops, and `recover` retries (250 ms,
 * doubling to 1 s) writing and sealing what is held until a write commits: the chain then goes on by itself. A
 * send answered 200 was on disk before its answer; one answered 503 because its own write failed stays in
 * memory and is sealed once writing works (unless the process stops first), like a message whose answer was lost.
 */
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  external,
  internal,
  loadMessage,
  loadShardAccount,
  loadTransaction,
  SendMode,
  storeAccount,
  storeMessage,
  storeShardAccount,
  storeStateInit,
  storeTransaction,
  type Account,
  type Message,
  type ShardAccount,
  type Transaction,
} from '@ton/core';
import {
  Blockchain,
  createShardAccount,
  defaultConfig,
  SmartContract,
  TreasuryContract,
  type BlockchainStorage,
  type BlockchainTransaction,
  type IExecutor,
} from '@ton/sandbox';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sha256_sync } from '@ton/crypto';
import { ApiError } from '../../../api/errors.js';
import { messageCells } from '../../../model/message.js';
import { NETWORK_GLOBAL_IDS } from '../../../model/network.js';
import { makeBlock, zerostateSalt } from './blocks.js';
import { exactMessage, messageCellOf, rememberMessageCell } from './exact-messages.js';
import { sharePrevBlocks } from '../../../engine/executor.js';
import { ExecutorFailure, ExecutorPool, type ExecutorPoolOptions } from '../../../engine/executor-pool.js';
import { rememberGetMethods } from './get-method-memo.js';
import { ChainDb, StorageFailure } from './db.js';
import { forkMismatch } from './data-dir.js';
import { configGenesisState, electorGenesisState, withLocalValidator } from './genesis-elector.js';
import { FORK_META, type Fork } from './fork.js';
import { blockRecord, DataDirError, Journal, type JournalEntry } from './journal.js';
import { ChainStore, compareAccountLt, type BlockRecord, type ChainCursor, type Rewind, type StorePosition, type TxRecord } from './store.js';
import { VirtualClock, type ClockState } from './clock.js';
import type { CascadeExecutor } from '../../../model/emulate/cascade.js';

/** Fixed genesis time (2025-01-01T00:00:00Z), so genesis hashes do not depend on the day of the start. */
export const GENESIS_TIME = 1735689600;
/** nanotons the faucet starts with: a billion TON */
const FAUCET_BALANCE = 1_000_000_000n * 1_000_000_000n;

/** sandbox's step between transaction lts */
const LT_STEP = 1_000_000n;

/** The faucet cannot pay what was asked (acton answers this as the giver's insufficient balance). */
export class FaucetDry extends ApiError {}

export const EXT_NOT_ACCEPTED =
  'LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted';

/** Sandbox's default blockchain config with param 19 (the global id) set to `globalId`. */
function sandboxConfig(globalId: number): Dictionary<number, Cell> {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
  dict.set(19, beginCell().storeInt(globalId, 32).endCell());
  return dict;
}

/** The local chain's config: sandbox's, with the global id and the local validator set (genesis-elector.ts). */
function localConfig(seed: string, globalId: number): Cell {
  const dict = sandboxConfig(globalId);
  withLocalValidator(dict, seed, GENESIS_TIME);
  return beginCell().storeDictDirect(dict).endCell();
}

/**
 * Sandbox's config with the global id, as a cell: the config of a chain made before the local validator set (its
 * hash in such a chain's head is accepted: the chain goes on, with no elector) and what the zerostate salt hashes
 * (the validator set follows from the seed, so genesis blocks kept their hashes when it came).
 */
const configBeforeValidators = (globalId: number): Cell => beginCell().storeDictDirect(sandboxConfig(globalId)).endCell();

/** The chain's head record: what it was made with; a data dir made otherwise is refused. */
interface Head {
  v: 1;
  seed: string;
  configHash: string;
  globalId: number;
  /** a fork's upstream and block */
  fork?: { url: string; seqno: number };
}

/** Library cells a fork fetched (a dictionary by hash, BoC base64): sandbox's `libs` again after a restart. */
const FORK_LIBRARIES_META = 'forkLibraries';

/** The first and the longest wait between retries of a failed write. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 1000;

/** A client's send or faucet request while the storage fails: not executed, not acknowledged. */
const notReady = (reason: string): ApiError => new ApiError(503, `LITE_SERVER_NOTREADY: ${reason}`);

/** Config cells set after genesis (acton_setConfig), each with the masterchain block that carries it. */
const CONFIGS_META = 'configs';
/** The virtual clock (offset, one-shot next block time), so a restart keeps the time a test moved to. */
const CLOCK_META = 'clock';

/** How blocks are made: acton's mining options (../shared/reference/acton-localnet.md §5). */
export interface MiningOptions {
  /** a timer seals blocks (or, with interval 0, every message is sealed at once); false: only acton_mine does */
  auto: boolean;
  /** whether a block is sealed when nothing is pending (the timer and acton_mine alike) */
  mineEmpty: boolean;
  /** ms a sealed block stays confirmed before it is final; 0: final when sealed */
  finalityDelayMs: number;
}

export const DEFAULT_MINING: MiningOptions = { auto: true, mineEmpty: true, finalityDelayMs: 0 };

/** What a rewind puts back besides the store: the executor's cursor and the clock as they were. */
export interface ChainMoment {
  cursor: ChainCursor;
  clock: ClockState;
}

/** Contracts kept parsed in sandbox at most; the rest load again from the store when next used. */
const SANDBOX_CONTRACTS = 4096;

/**
 * Sandbox's contract storage over the chain's store: an account is loaded with its newest state (pending
 * included) when sandbox first asks for it, and the least recently used ones are dropped between messages.
 */
class StoreStorage implements BlockchainStorage {
  private readonly contracts = new Map<string, SmartContract>();
  store?: ChainStore;
  /** on a fork: brings an account's state at the fork block into the store, the first time it is needed */
  adopt?: (address: Address) => Promise<void>;

  async getContract(bc: Blockchain, address: Address): Promise<SmartContract> {
    const key = address.toRawString();
    let c = this.contracts.get(key);
    if (c) {
      this.contracts.delete(key);
    } else {
      await this.adopt?.(address);
      const boc = this.store?.newestStateBoc(address);
      if (boc === undefined) c = SmartContract.empty(bc, address);
      else {
        c = new SmartContract(loadShardAccount(Cell.fromBase64(boc).beginParse()), bc);
        // keep the emulator's exact BoC (the constructor re-serialises it)
        (c as unknown as { _account?: string })._account = boc;
      }
    }
    this.contracts.set(key, c);
    return c;
  }

  knownContracts(): SmartContract[] {
    return [...this.contracts.values()];
  }

  clearKnownContracts(): void {
    this.contracts.clear();
  }

  has(address: Address): boolean {
    return this.contracts.has(address.toRawString());
  }

  /** Drops one account's parsed contract: its state changed outside sandbox. */
  forget(address: Address): void {
    this.contracts.delete(address.toRawString());
  }

  /** Drops the least recently used contracts above `max` (their states are in the store). */
  trim(max: number): void {
    for (const key of this.contracts.keys()) {
      if (this.contracts.size <= max) break;
      this.contracts.delete(key);
    }
  }
}

/** How one inbound message is executed. */
export interface SendOptions {
  /** an external message to this wallet runs without its signature check (its own transaction only) */
  impersonate?: Address;
}

export class Chain {
  readonly globalId: number;
  readonly faucetAddress: Address;
  private queue: Promise<unknown> = Promise.resolve();
  private openUtime?: number;
  private ltCursor = 0n;
  private faucetTransfers = 0;
  private timer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private retryMs = RETRY_FIRST_MS;
  private closed = false;
  /** true when the chain was rebuilt from its database (genesis already done) */
  restored = false;
  private readonly faucetContract: TreasuryContract;
  private configDict: Dictionary<number, Cell>;
  /** the config the chain was made with, before any acton_setConfig */
  private readonly baseConfig: Cell;
  /** acton_setConfig's configs, oldest first, each with the block that carries it */
  private configs: { mc: number; boc: string }[] = [];
  readonly clock = new VirtualClock();
  readonly mining: MiningOptions;
  /** sealed blocks not yet final, oldest first, with when they were sealed */
  private unfinal: { seqno: number; at: number }[] = [];
  private finalityTimer?: NodeJS.Timeout;
  /** the finality delay applies once the producer starts (genesis blocks are final at once) */
  private delaying = false;
  private rememberedReads: (IExecutor & Partial<CascadeExecutor>) | undefined;
  /**
   * Wallets (raw addresses) whose external messages run with the signature check skipped (`--impersonate`):
   * a test may act as an account whose key nobody holds. Only the external's own transaction skips it.
   */
  readonly impersonated = new Set<string>();

  private constructor(
    readonly bc: Blockchain,
    private readonly executors: ExecutorPool,
    readonly store: ChainStore,
    private readonly storage: StoreStorage,
    readonly seed: string,
    readonly blockInterval: number,
    /** the network this chain forked from, when it is a fork */
    readonly fork?: Fork,
    mining: MiningOptions = DEFAULT_MINING,
  ) {
    this.mining = { ...mining };
    this.baseConfig = bc.config;
    this.configDict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), bc.config);
    const p19 = this.configDict.get(19);
    this.globalId = p19!.beginParse().loadInt(32);
    this.faucetContract = TreasuryContract.create(0, BigInt('0x' + sha256_sync(`ton-localnet/faucet/${seed}`).toString('hex')));
    this.faucetAddress = this.faucetContract.address;
    store.db.onFailure = (f) => {
      if (f.retryable) this.scheduleRetry();
    };
  }

  /**
   * A chain holding only its zerostate (the faucet exists, no transaction has run yet), or, with a data dir
   * whose database has a completed genesis, the chain continued from it (`restored`).
   */
  static async create(
    seed: string,
    blockInterval: number,
    dataDir?: string | ChainDb,
    executor?: ExecutorPoolOptions,
    globalId: number = NETWORK_GLOBAL_IDS.mainnet,
    fork?: Fork,
    mining?: MiningOptions,
  ): Promise<Chain> {
    // the emulators run in workers (engine/executor-pool.ts); sandbox keeps the accounts here
    const db = dataDir instanceof ChainDb ? dataDir : ChainDb.open(dataDir);
    // the workers boot (their emulators compile) while this thread reads the database's index back
    const booting = ExecutorPool.create(executor);
    let executors: ExecutorPool | undefined;
    try {
      const store = new ChainStore(db);
      const readHead = db.meta<Head>('head');
      if (readHead && db.meta<boolean>('ready')) store.load();
      executors = await booting;
      const storage = new StoreStorage();
      // a fork runs with its network's config (and so its global id) at the fork block
      const bc = await Blockchain.create({ executor: executors.execution, config: fork ? fork.config : localConfig(seed, globalId), storage });
      // PREVBLOCKS is copied once per sealed block rather than once per transaction (engine/executor.ts)
      sharePrevBlocks(bc);
      const chain = new Chain(bc, executors, store, storage, seed, blockInterval, fork, mining);
      await chain.open();
      // sandbox loads accounts from the store only once it holds what the database holds
      storage.store = store;
      if (fork) {
        storage.adopt = (address) => chain.adopt(address);
        fork.deliveries.connect({ load: (address) => chain.adopt(address), ready: (key) => void chain.deliverHeld(key) });
      }
      return chain;
    } catch (e) {
      await db.close({ discardNew: true });
      await (executors ?? (await booting.catch(() => undefined)))?.close();
      throw e;
    }
  }

  private head(): Head {
    const head: Head = { v: 1, seed: this.seed, configHash: this.bc.config.hash().toString('hex'), globalId: this.globalId };
    if (this.fork) head.fork = { url: this.fork.point.url, seqno: this.fork.point.seqno };
    return head;
  }

  /**
   * On a fork: an account the store has never seen is read from the upstream at the fork block (once; the
   * loader shares concurrent reads) and kept as its genesis state, with the library cells its code refers to.
   * Both the executor (through sandbox's storage) and the read routes call this before looking at an account.
   */
  async adopt(address: Address): Promise<void> {
    if (!this.fork || this.store.newestStateBoc(address) !== undefined) return;
    const state = await this.fork.state(address);
    if (!state || this.store.newestStateBoc(address) !== undefined) return;
    if (state.code) {
      const libs = await this.fork.loader.libraries([state.code]);
      if (libs.missing.length > 0) console.error(`local chain: ${address.toRawString()} refers to libraries the fork's upstream lacks: ${libs.missing.join(', ')}`);
      if (libs.found.size > 0) this.addLibraries(libs.found);
    }
    // another caller may have adopted it while this one waited for the libraries
    if (this.store.newestStateBoc(address) === undefined) this.store.putGenesisState(address, state.boc);
  }

  private addLibraries(found: Map<string, Cell>): void {
    const dict = this.bc.libs
      ? Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), this.bc.libs)
      : Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const before = dict.size;
    for (const [hash, lib] of found) dict.set(Buffer.from(hash, 'hex'), lib);
    if (dict.size === before) return;
    this.bc.libs = beginCell().storeDictDirect(dict).endCell();
    this.store.db.write(() => this.store.db.putMeta(FORK_LIBRARIES_META, this.bc.libs!.toBoc().toString('base64')));
  }

  /** Continues the chain in the database, imports an old journal, or starts the chain when its genesis never finished. */
  private async open(): Promise<void> {
    const db = this.store.db;
    const head = db.meta<Head>('head');
    if (head) this.checkHead({ t: 'head', ...head }, db.dir);
    if (head && db.meta<boolean>('ready')) {
      this.restore();
      this.restored = true;
    } else if (!head && !db.temporary && existsSync(join(db.dir, 'journal'))) {
      this.restored = await this.importJournal(db.dir);
    }
    if (!this.restored) {
      // genesis never finished (or the directory is new): it runs again from the start, being deterministic
      db.reset();
      db.write(() => {
        db.putMeta('head', this.head());
        if (this.fork) db.putMeta(FORK_META, this.fork.point);
      });
      await this.zerostate();
    }
    // with interval 0 every accepted message is sealed at once; what the crash left pending is sealed now
    else if (this.sealsEachMessage && this.store.pending.length > 0) this.seal();
  }

  /** Marks genesis complete (with anything else worth keeping from it); from now on a restart continues this chain. */
  genesisDone(extra: Record<string, unknown> = {}): void {
    this.store.db.write(() => {
      for (const [k, v] of Object.entries(extra)) this.store.db.putMeta(k, v);
      this.store.db.putMeta('ready', true);
    });
  }

  get config(): Cell {
    return this.bc.config;
  }

  configParam(id: number): Cell | undefined {
    return this.configDict.get(id);
  }

  /** Runs `fn` after every mutation queued before it; a failure does not stop the queue. */
  enqueue<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether every accepted message is sealed at once (interval 0, automatic mining). */
  get sealsEachMessage(): boolean {
    return this.mining.auto && this.blockInterval === 0;
  }

  /**
   * Seals a block every `blockInterval` ms (unless mining is manual, or nothing is pending and empty blocks are
   * skipped); with 0 the callers seal after each message. While the storage fails, `recover` seals instead. From
   * now on a sealed block waits the finality delay before it is final.
   */
  startProducer(): void {
    this.delaying = this.mining.finalityDelayMs > 0;
    if (this.mining.auto && this.blockInterval > 0 && !this.timer && !this.closed) {
      this.timer = setInterval(() => {
        if (this.storageProblem() !== null) return;
        this.enqueue(() => {
          if (this.mining.mineEmpty || this.store.pending.length > 0) this.seal();
        }).catch((e: unknown) => {
          if (!(e instanceof StorageFailure && e.retryable)) console.error('local chain: sealing a block failed:', e);
        });
      }, this.blockInterval);
      this.timer.unref();
    }
  }

  /** Why the chain cannot write now (its storage refused the last write or sync), or null. */
  storageProblem(): string | null {
    return this.store.db.problem();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.closed) return;
    if (this.retryMs === RETRY_FIRST_MS) console.error(`local chain: ${this.storageProblem()}`);
    this.retryTimer = setTimeout(() => void this.recover(), this.retryMs);
    this.retryTimer.unref();
  }

  /**
   * One retry after a failed write: the held transactions are written and sealed (with an interval, the block
   * the producer could not seal is), then synced. Until that works it is tried again, less often each time.
   */
  private async recover(): Promise<void> {
    try {
      await this.enqueue(() => {
        if (this.closed) return;
        if ((this.mining.auto && this.blockInterval > 0) || this.store.pending.length > 0) this.seal();
        else this.store.flush();
      });
      if (this.closed) return;
      await this.store.durable();
      // nothing held waits any more; a failure the retry did not touch (a write with nothing in memory) is forgotten
      this.store.db.settled();
      this.retryTimer = undefined;
      this.retryMs = RETRY_FIRST_MS;
      if (!this.closed) console.error('local chain: writing works again; the chain goes on');
    } catch (e) {
      this.retryTimer = undefined;
      if (!(e instanceof StorageFailure)) console.error('local chain: retrying a failed write failed:', e);
      if (e instanceof StorageFailure && !e.retryable) return;
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      this.scheduleRetry();
    }
  }

  /**
   * Runs a client's write (a send, a faucet credit): refused before it executes while the storage fails, and a
   * StorageFailure on the way becomes the same 503 (the transactions it executed wait in memory, see the head).
   */
  private async writing<T>(fn: () => Promise<T>): Promise<T> {
    const problem = this.storageProblem();
    if (problem !== null) throw notReady(problem);
    try {
      return await fn();
    } catch (e) {
      if (e instanceof StorageFailure) throw notReady(e.message);
      throw e;
    }
  }

  /** Inside `enqueue`, before executing: the storage may have failed while the call waited its turn. */
  private refuseWhileFailing(): void {
    const problem = this.storageProblem();
    if (problem !== null) throw notReady(problem);
  }

  /** Stops the producer, waits for queued mutations and, when durable, syncs and closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.finalityTimer) clearTimeout(this.finalityTimer);
    this.finalityTimer = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.enqueue(() => undefined);
    try {
      try {
        this.store.flush();
      } catch (e) {
        // never acknowledged (their sends were answered 503); the database keeps what it committed
        if (!(e instanceof StorageFailure)) throw e;
        console.error(`local chain: closing with transactions not written: ${e.message}`);
      }
      await this.store.db.close();
    } finally {
      await this.executors.close();
      await this.fork?.close();
    }
  }

  /** The emulator for get-methods (identical calls answered once: get-method-memo.ts) and fee estimates: never behind the chain's own executions. */
  get reads(): IExecutor & Partial<CascadeExecutor> {
    return (this.rememberedReads ??= rememberGetMethods(this.executors.reads));
  }

  /** The emulator for the Emulate API's cascades: a lane of their own when the pool has one, so get-methods never wait behind them. */
  get emulations(): IExecutor & Partial<CascadeExecutor> {
    return this.executors.emulations ?? this.reads;
  }

  /** Why the chain cannot execute messages or get-methods now (no emulator worker is up), or null. */
  executionProblem(): string | null {
    return this.executors.problem();
  }

  /** Fixes the open block's utime (genesis uses fixed times; later blocks follow the wall clock). */
  setOpenUtime(utime: number): void {
    this.openUtime = Math.max(utime, this.store.lastMc?.genUtime ?? 0);
  }

  private nextUtime(): number {
    return this.clock.nextBlockUtime(this.store.lastMc.genUtime);
  }

  private async zerostate(): Promise<void> {
    // accounts of the zerostate: set in sandbox and kept as genesis states
    const place = async (address: Address, account: ShardAccount) => {
      await this.bc.setShardAccount(address, account);
      this.store.putGenesisState(address, beginCell().store(storeShardAccount(account)).endCell().toBoc().toString('base64'));
    };
    await place(this.faucetAddress, createShardAccount({ address: this.faucetAddress, code: TreasuryContract.code, data: this.faucetContract.init.data!, balance: FAUCET_BALANCE }));
    // the elector, at config param 1's address as on the real network (a fork has its network's)
    if (!this.fork) {
      const e = electorGenesisState(this.configDict, this.seed, GENESIS_TIME, this.globalId);
      await place(e.address, createShardAccount({ address: e.address, code: e.code, data: e.data, balance: e.balance, workchain: -1 }));
      // and the config contract at param 0's, holding the configuration the chain runs with
      const c = configGenesisState(this.configDict, this.seed);
      await place(c.address, createShardAccount({ address: c.address, code: c.code, data: c.data, balance: c.balance, workchain: -1 }));
    }

    const salt = zerostateSalt(this.seed, this.fork ? this.bc.config : configBeforeValidators(this.globalId));
    // a fork's first block is its upstream's fork block: the chain's seqnos, lts and time go on from it
    const at = this.fork?.block;
    const draft = { seqno: at?.seqno ?? 0, genUtime: at?.genUtime ?? GENESIS_TIME, startLt: at?.startLt ?? 0n, endLt: at?.endLt ?? 0n, globalId: this.globalId, txs: [] };
    const shard = makeBlock({ ...draft, mcSeqno: draft.seqno, workchain: 0, prev: salt, shards: [] });
    const made = makeBlock({ ...draft, mcSeqno: draft.seqno, workchain: -1, prev: salt, shards: [shard] });
    const mc = at ? { ...made, rootHash: at.rootHash, fileHash: at.fileHash } : made;
    this.store.seal(mc, shard, []);
    if (at) {
      this.ltCursor = at.endLt;
      this.setSandboxLt(at.endLt);
    }
    this.updatePrevBlocks();
  }

  /**
   * Executes an inbound message and its whole cascade, recording each transaction as pending.
   * Call only from inside `enqueue`. Throws ApiError when the first transaction is rejected.
   */
  async execute(message: Cell, opts: SendOptions = {}): Promise<TxRecord[]> {
    this.openUtime ??= this.nextUtime();
    this.bc.now = this.openUtime;
    const msg = exactMessage(message);
    // sandbox hands the same params to every transaction of the cascade: the skip is turned off after the first
    const params = { ignoreChksig: this.skipsSignature(msg, opts) };
    const iter = await this.bc.sendMessageIter(msg, params);
    const { recorded, error } = await this.cascade(iter, params, new Map());
    if (error !== undefined) {
      if (recorded.length === 0) {
        if (error instanceof ExecutorFailure && error.reason === 'unavailable') throw new ApiError(503, `LITE_SERVER_NOTREADY: ${error.message}`);
        const detail = error instanceof Error ? ((error as { error?: string }).error ?? error.message) : String(error);
        throw new ApiError(500, `${EXT_NOT_ACCEPTED}\n${detail}`);
      }
      // the external message was accepted and its transactions stand; only the rest of the cascade is lost
      console.error('local chain: a message of the cascade failed to execute:', error);
    }
    if (recorded.length > 0) this.store.commit(this.cursor());
    return recorded;
  }

  /**
   * Runs sandbox's queue to its end, recording each transaction as pending (`parents` maps sandbox's parent
   * transactions to their records). On a fork, a message to an account not loaded yet leaves the queue to wait
   * for it (holdUnloaded) rather than hold the chain while the upstream answers.
   */
  private async cascade(
    iter: AsyncIterator<BlockchainTransaction>,
    params: { ignoreChksig: boolean },
    parents: Map<object, TxRecord>,
    loadedKey?: string,
  ): Promise<{ recorded: TxRecord[]; error?: unknown }> {
    const recorded: TxRecord[] = [];
    try {
      for (;;) {
        this.holdUnloaded(parents, loadedKey);
        const step = await iter.next();
        params.ignoreChksig = false;
        if (step.done) break;
        const rec = await this.record(step.value, parents);
        recorded.push(rec);
        parents.set(step.value, rec);
      }
    } catch (e) {
      this.dropSandboxQueue();
      return { recorded, error: e };
    } finally {
      this.dropSandboxLog();
    }
    return { recorded };
  }

  /**
   * On a fork: the internal messages in sandbox's queue whose destination is not loaded (or already has messages
   * waiting, which they must not overtake) leave the queue and wait for its load (fork-delivery.ts). `loadedKey`
   * is the destination being delivered to now.
   */
  private holdUnloaded(parents: Map<object, TxRecord>, loadedKey?: string): void {
    const deliveries = this.fork?.deliveries;
    if (!deliveries) return;
    const queue = this.sandboxQueueManager().messageQueue;
    for (let i = 0; i < queue.length; ) {
      const entry = queue[i]!;
      const dest = entry.type === 'message' && entry.info?.type === 'internal' ? entry.info.dest : undefined;
      const key = dest?.toRawString();
      if (!dest || key === loadedKey || (!deliveries.isWaiting(key!) && this.loaded(dest))) {
        i++;
        continue;
      }
      queue.splice(i, 1);
      this.dropContractFetch(key!);
      const parent = entry.parentTransaction ? parents.get(entry.parentTransaction) : undefined;
      // sandbox links a child to this object when it is delivered; the sender's whole transaction need not be kept
      entry.parentTransaction = { children: [] };
      const cell = messageCellOf(entry as unknown as Message) ?? beginCell().store(storeMessage(entry as unknown as Message)).endCell();
      deliveries.hold(dest, { entry, parent, hash: cell.hash().toString('hex') });
    }
  }

  /** Whether a fork has the account's state at hand (in the store, in sandbox, or known absent by the loader). */
  private loaded(address: Address): boolean {
    return this.store.newestStateBoc(address) !== undefined || this.storage.has(address) || (this.fork?.loader.has(address) ?? true);
  }

  /**
   * Delivers the messages that waited for an account the fork has now loaded, with their cascades, in the
   * chain's next turn; a message that cannot be executed is reported failed through its trace.
   */
  private deliverHeld(key: string): Promise<void> {
    const deliveries = this.fork!.deliveries;
    return this.enqueue(async () => {
      const held = deliveries.take(key);
      if (held.length === 0 || this.closed) return;
      this.openUtime ??= this.nextUtime();
      this.bc.now = this.openUtime;
      const manager = this.sandboxQueueManager();
      const parents = new Map<object, TxRecord>();
      for (const h of held) {
        manager.messageQueue.push(h.entry as SandboxQueueEntry);
        if (h.parent) parents.set((h.entry as SandboxQueueEntry).parentTransaction!, h.parent);
      }
      const params = { ignoreChksig: false };
      const { recorded, error } = await this.cascade(manager.runQueueIter(true, params), params, parents, key);
      if (error !== undefined) {
        const reason = error instanceof Error ? ((error as { error?: string }).error ?? error.message) : String(error);
        const delivered = new Set(recorded.map((r) => r.inMsgHash));
        for (const h of held) if (!delivered.has(h.hash)) deliveries.failed(h.hash, key, `its execution failed: ${reason}`);
        console.error(`local chain: a message that waited for ${key} failed to execute:`, error);
      }
      if (recorded.length > 0) this.store.commit(this.cursor());
      if (this.sealsEachMessage && this.store.pending.length > 0) this.seal();
    }).catch((e: unknown) => {
      if (!(e instanceof StorageFailure && e.retryable)) console.error('local chain: delivering messages that waited for their account failed:', e);
    });
  }

  /** On a fork, the destination of a client's message is loaded before the message takes the chain's turn. */
  private async adoptDestination(message: Cell): Promise<void> {
    if (!this.fork) return;
    let dest: Address | undefined;
    try {
      const info = loadMessage(message.beginParse()).info;
      if (info.type !== 'external-out') dest = info.dest;
    } catch {
      // a message that does not parse is refused by its execution
    }
    if (dest) await this.adopt(dest);
  }

  /** Whether an external message goes to an impersonated wallet (by `--impersonate` or by this call). */
  private skipsSignature(msg: Message, opts: SendOptions): boolean {
    if (msg.info.type !== 'external-in') return false;
    const to = msg.info.dest;
    return this.impersonated.has(to.toRawString()) || (opts.impersonate?.equals(to) ?? false);
  }

  private cursor(): ChainCursor {
    return { lt: this.bc.lt.toString(), utime: this.openUtime, faucetTransfers: this.faucetTransfers };
  }

  private async record(tx: BlockchainTransaction, parents: Map<object, TxRecord>): Promise<TxRecord> {
    const contract = await this.bc.getContract(txAccount(tx));
    const parent = tx.parent ? parents.get(tx.parent) : undefined;
    return this.addPending(stripSandboxFields(tx), shardAccountBoc(contract), parent, parsedShardAccount(contract));
  }

  /**
   * Records an executed transaction as pending, with its messages. `parsed` is the state after it as sandbox
   * already parsed it (from the very BoC `stateAfter`), so the store need not parse it again when it is read.
   */
  private addPending(tx: Transaction, stateAfter: string, parent: TxRecord | undefined, parsed?: ShardAccount): TxRecord {
    const hash = tx.hash().toString('hex');
    const cells = messageCells(tx);
    const keys = tx.outMessages.keys().sort((a, b) => a - b);
    const outMsgs = cells.outMsgs.map((cell, i) => ({ msg: tx.outMessages.get(keys[i]!)! as Message, cell }));
    // delivered as created, not as @ton/core would re-serialise them (see exact-messages.ts)
    for (const o of outMsgs) rememberMessageCell(o.msg, o.cell);
    const fields = {
      hash,
      account: txAccount(tx),
      lt: tx.lt,
      endLt: tx.lt + 1n + BigInt(outMsgs.length),
      now: tx.now,
      inMsgHash: cells.inMsg?.hash().toString('hex'),
      outMsgHashes: outMsgs.map((o) => o.cell.hash().toString('hex')),
      parent,
    };
    return this.store.addPending(fields, tx, stateAfter, tx.inMessage && cells.inMsg ? { msg: tx.inMessage, cell: cells.inMsg } : undefined, outMsgs, parsed);
  }

  /** Seals every pending transaction into the next masterchain block and its shard block. Call inside `enqueue`. */
  seal(): BlockRecord {
    const last = this.store.lastMc;
    const lastShard = this.store.shardBlocks[this.store.shardBlocks.length - 1]!;
    const pending = this.store.pending.slice();
    const genUtime = this.openUtime ?? this.nextUtime();
    const seqno = last.seqno + 1;
    let ltCursor = this.ltCursor;

    const range = (txs: TxRecord[]): { startLt: bigint; endLt: bigint } =>
      txs.length === 0
        ? { startLt: ltCursor, endLt: ltCursor }
        : { startLt: txs.reduce((m, t) => (t.lt < m ? t.lt : m), txs[0]!.lt), endLt: txs.reduce((m, t) => (t.endLt > m ? t.endLt : m), 0n) };

    const mcTxs = pending.filter((t) => t.account.workChain === -1).sort(compareAccountLt);
    const wcTxs = pending.filter((t) => t.account.workChain !== -1).sort(compareAccountLt);
    const common = { seqno, mcSeqno: seqno, genUtime, globalId: this.globalId };
    const shard = makeBlock({ ...common, ...range(wcTxs), workchain: 0, prev: lastShard, shards: [], txs: wcTxs });
    // the masterchain block comes after the shard block it references, so an empty one starts at its end
    if (shard.endLt > ltCursor) ltCursor = shard.endLt;
    const mc = makeBlock({ ...common, ...range(mcTxs), workchain: -1, prev: last, shards: [shard], txs: mcTxs });
    // written (one database transaction) before anyone can see it; if the write fails, nothing has changed and
    // the same block (same utime) is sealed again by the retry
    this.store.seal(mc, shard, pending);
    this.openUtime = undefined;
    this.afterSeal(mc, shard);
    this.sealed(mc.seqno);
    return mc;
  }

  /** A new sealed block is final at once, or once the finality delay has passed. */
  private sealed(seqno: number): void {
    if (!this.delaying) return this.store.finalize(seqno);
    this.unfinal.push({ seqno, at: Date.now() });
    this.scheduleFinality();
  }

  private scheduleFinality(): void {
    if (this.finalityTimer || this.closed || this.unfinal.length === 0) return;
    const wait = Math.max(0, this.unfinal[0]!.at + this.mining.finalityDelayMs - Date.now());
    this.finalityTimer = setTimeout(() => {
      this.finalityTimer = undefined;
      const now = Date.now();
      let upTo = -1;
      while (this.unfinal.length > 0 && this.unfinal[0]!.at + this.mining.finalityDelayMs <= now) upTo = this.unfinal.shift()!.seqno;
      if (upTo >= 0) this.store.finalize(upTo);
      this.scheduleFinality();
    }, wait);
    this.finalityTimer.unref();
  }

  /** The lt cursor and PREVBLOCKS after a sealed pair of blocks; sandbox's least used contracts are dropped. */
  private afterSeal(mc: BlockRecord, shard: BlockRecord): void {
    if (shard.endLt > this.ltCursor) this.ltCursor = shard.endLt;
    if (mc.endLt > this.ltCursor) this.ltCursor = mc.endLt;
    this.updatePrevBlocks();
    this.storage.trim(SANDBOX_CONTRACTS);
  }

  /** Credits `address` with a real internal transfer from the faucet; returns the crediting transaction. */
  async faucet(address: Address, amount: bigint, opts: { seal?: boolean; zero?: boolean } = {}): Promise<TxRecord> {
    if (address.workChain !== 0 && address.workChain !== -1) {
      throw new ApiError(422, `workchain ${address.workChain} does not exist on the local chain (use 0 or -1)`);
    }
    if (amount < 0n || (amount === 0n && !opts.zero)) throw new ApiError(422, 'amount must be positive');
    // on a fork, the account is loaded before the credit takes the chain's turn
    await this.adopt(address);
    return this.writing(() => this.credit(address, amount, opts));
  }

  private async credit(address: Address, amount: bigint, opts: { seal?: boolean }): Promise<TxRecord> {
    const credited = await this.enqueue(async () => {
      this.refuseWhileFailing();
      const balance = (await this.bc.getContract(this.faucetAddress)).balance;
      if (amount > balance - 1_000_000_000n) {
        throw new FaucetDry(422, `the faucet holds ${balance} nanotons, not enough for ${amount}`);
      }
      const n = ++this.faucetTransfers;
      const body = this.faucetContract.createTransfer({
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: address, value: amount, bounce: false, body: `faucet #${n}` })],
      });
      const msg = beginCell().store(storeMessage(external({ to: this.faucetAddress, body }))).endCell();
      const recs = await this.execute(msg);
      const rec = recs.find((r) => r.parentHash === recs[0]!.hash && r.account.equals(address)) ?? recs[recs.length - 1]!;
      if (opts.seal ?? this.sealsEachMessage) this.seal();
      return rec;
    });
    await this.store.durable();
    return credited;
  }

  /** Executes a client's external message; seals at once when the interval is 0. Resolves once it is durable. */
  async send(message: Cell, opts: SendOptions = {}): Promise<TxRecord[]> {
    await this.adoptDestination(message);
    return this.writing(async () => {
      const recs = await this.enqueue(async () => {
        this.refuseWhileFailing();
        const recs = await this.execute(message, opts);
        if (this.sealsEachMessage) this.seal();
        return recs;
      });
      await this.store.durable();
      return recs;
    });
  }

  /** Refuses a chain made with another seed, global id or blockchain config. */
  private checkHead(head: JournalEntry, dir: string): void {
    if (head.t !== 'head' || head.v !== 1) throw new DataDirError(`${dir}: the journal does not start with a known header`);
    if (head.seed !== this.seed) {
      throw new DataDirError(`${dir} holds a local chain made with seed ${JSON.stringify(head.seed)}, not ${JSON.stringify(this.seed)}`);
    }
    const refused = forkMismatch(dir, head.fork, this.fork?.point);
    if (refused !== undefined) throw new DataDirError(refused);
    if (head.globalId !== this.globalId) {
      throw new DataDirError(`${dir} holds a local chain with global id ${head.globalId}, not ${this.globalId} (see --global-id)`);
    }
    if (head.configHash !== this.bc.config.hash().toString('hex') && (this.fork || head.configHash !== configBeforeValidators(this.globalId).hash().toString('hex'))) {
      throw new DataDirError(`${dir} holds a local chain made with another blockchain config (another @ton/sandbox version?)`);
    }
  }

  /** Continues from the database: the store's index is read back; sandbox loads accounts as it needs them. */
  private restore(): void {
    if (!this.store.loaded) this.store.load();
    this.resume();
  }

  /** The executor's cursor, the lt cursor and PREVBLOCKS, once the store holds what the database holds. */
  private resume(): void {
    const cursor = this.store.db.meta<ChainCursor>('cursor');
    this.faucetTransfers = cursor?.faucetTransfers ?? 0;
    if (this.store.pending.length > 0) this.openUtime = cursor?.utime;
    for (const b of [this.store.lastMc, this.store.shardBlocks[this.store.shardBlocks.length - 1]!]) if (b.endLt > this.ltCursor) this.ltCursor = b.endLt;
    this.setSandboxLt(cursor ? BigInt(cursor.lt) : this.ltCursor);
    const libs = this.store.db.meta<string>(FORK_LIBRARIES_META);
    if (libs) this.bc.libs = Cell.fromBase64(libs);
    const clock = this.store.db.meta<ClockState>(CLOCK_META);
    if (clock) this.clock.state = clock;
    this.configs = this.store.db.meta<{ mc: number; boc: string }[]>(CONFIGS_META) ?? [];
    this.applyConfig();
    this.updatePrevBlocks();
  }

  private setSandboxLt(lt: bigint): void {
    const sandbox = this.bc as unknown as { currentLt?: bigint };
    if (typeof sandbox.currentLt !== 'bigint') throw new Error('local chain: cannot restore sandbox lt (@ton/sandbox internals moved)');
    sandbox.currentLt = lt;
  }

  /**
   * Imports a directory in the old journal format (journal.ts) into the database, once: its entries are
   * written as the chain wrote them (nothing is executed again). Returns false when the journal holds no
   * completed genesis (the chain then starts over). A damaged journal is refused as before.
   */
  private async importJournal(dir: string): Promise<boolean> {
    const journal = Journal.open(dir, { lock: false });
    try {
      if (!journal.hasReady()) return false;
      const db = this.store.db;
      db.write(() => {
        let first = true;
        for (const e of journal.entries()) {
          if (first) {
            this.checkHead(e, dir);
            first = false;
            db.putMeta('head', this.head());
            continue;
          }
          this.importEntry(e, dir);
        }
        this.store.flush();
        db.putMeta('ready', true);
      });
      this.resume();
      console.error(`local chain: imported ${dir}/journal into ${db.path} (the journal is kept and no longer read)`);
      return true;
    } finally {
      await journal.close();
    }
  }

  private importEntry(e: JournalEntry, dir: string): void {
    switch (e.t) {
      case 'state':
        this.store.putGenesisState(Address.parseRaw(e.address), e.boc);
        break;
      case 'exec': {
        const recs: TxRecord[] = [];
        for (const t of e.txs) {
          const tx = loadTransaction(Cell.fromBase64(t.tx).beginParse());
          recs.push(this.addPending(tx, t.state, t.parent === undefined ? undefined : recs[t.parent]));
        }
        this.openUtime = e.utime;
        this.faucetTransfers = e.faucetTransfers;
        this.store.commit({ lt: e.lt, utime: e.utime, faucetTransfers: e.faucetTransfers });
        break;
      }
      case 'seal': {
        const mc = blockRecord(e.mc);
        const shard = blockRecord(e.shard);
        const pending = this.store.pending.slice();
        if (mc.txHashes.length + shard.txHashes.length !== pending.length) {
          throw new DataDirError(`${dir}: block ${mc.seqno} in the journal does not match the transactions before it`);
        }
        this.store.seal(mc, shard, pending);
        this.openUtime = undefined;
        break;
      }
      case 'head':
      case 'ready':
        break;
    }
  }

  // ---- the workbench: acton's control API and the drills (each called inside `enqueue`) ----

  /** The executor's cursor and the clock as they are now (what is staged written first), for a checkpoint. */
  moment(): ChainMoment {
    this.store.flush();
    return { cursor: this.cursor(), clock: this.clock.state };
  }

  /**
   * Seals `count` blocks one after another, as the mining mode says: with empty blocks skipped, a block is sealed
   * only while something is pending. Returns the masterchain blocks sealed and how many were skipped.
   */
  mine(count: number): { sealed: BlockRecord[]; skipped: number } {
    const sealed: BlockRecord[] = [];
    let skipped = 0;
    for (let i = 0; i < count; i++) {
      if (!this.mining.mineEmpty && this.store.pending.length === 0) skipped++;
      else sealed.push(this.seal());
    }
    return { sealed, skipped };
  }

  /** Replaces an account's newest state without a transaction or a block (acton_setShardAccount). */
  setAccountState(address: Address, shardAccountBoc: string): void {
    this.store.putEdit(address, shardAccountBoc);
    this.storage.forget(address);
  }

  /**
   * Freezes an active account as acton does (acton_changeAccountState `{"type":"frozen","source":"current"}`): a
   * transaction nobody sent, its in-message from 0:000…0 with no value, whose storage phase freezes the account
   * (its StateInit swapped for its hash, the balance kept). Recorded as pending, like any executed transaction.
   */
  freeze(address: Address): TxRecord {
    const boc = this.store.newestStateBoc(address);
    const old = boc === undefined ? undefined : loadShardAccount(Cell.fromBase64(boc).beginParse());
    const account = old?.account;
    if (!old || !account) throw new ApiError(500, 'Cannot freeze non-existing account from current state');
    const state = account.storage.state;
    if (state.type === 'uninit') throw new ApiError(500, 'Cannot freeze uninitialized account from current state');
    if (state.type === 'frozen') throw new ApiError(500, 'Account is already frozen');
    const stateHash = beginCell().store(storeStateInit(state.state)).endCell().hash();
    const frozen: Account = { ...account, storage: { ...account.storage, state: { type: 'frozen', stateHash: BigInt(`0x${stateHash.toString('hex')}`) } } };
    this.openUtime ??= this.nextUtime();
    const lt = this.bc.lt + LT_STEP;
    this.setSandboxLt(lt);
    const inMessage: Message = {
      info: { type: 'internal', ihrDisabled: true, bounce: false, bounced: false, src: new Address(0, Buffer.alloc(32)), dest: address, value: { coins: 0n }, ihrFee: 0n, forwardFee: 0n, createdLt: lt, createdAt: this.openUtime },
      body: Cell.EMPTY,
    };
    const accountCell = (a: Account) => beginCell().store(storeAccount(a)).endCell();
    const fields: Omit<Transaction, 'raw' | 'hash'> = {
      address: BigInt(`0x${address.hash.toString('hex')}`),
      lt,
      prevTransactionHash: old.lastTransactionHash,
      prevTransactionLt: old.lastTransactionLt,
      now: this.openUtime,
      outMessagesCount: 0,
      oldStatus: 'active',
      endStatus: 'frozen',
      inMessage,
      outMessages: Dictionary.empty<number, Message>(Dictionary.Keys.Uint(15)),
      totalFees: { coins: 0n },
      stateUpdate: { oldHash: accountCell(account).hash(), newHash: accountCell(frozen).hash() },
      description: {
        type: 'generic',
        creditFirst: false,
        storagePhase: { storageFeesCollected: 0n, statusChange: 'frozen' },
        computePhase: { type: 'skipped', reason: 'no-gas' },
        aborted: true,
        destroyed: false,
      },
    };
    const raw = beginCell().store(storeTransaction(fields as Transaction)).endCell();
    const tx = loadTransaction(raw.beginParse());
    const after: ShardAccount = { account: frozen, lastTransactionHash: BigInt(`0x${tx.hash().toString('hex')}`), lastTransactionLt: lt };
    const rec = this.addPending(tx, beginCell().store(storeShardAccount(after)).endCell().toBoc().toString('base64'), undefined);
    this.store.commit(this.cursor());
    this.storage.forget(address);
    return rec;
  }

  /** Runs the chain with another config from a new block on, which it seals now (acton_setConfig); the block. */
  setConfig(config: Cell): BlockRecord {
    const entry = { mc: this.store.lastMc.seqno + 1, boc: config.toBoc().toString('base64') };
    this.configs.push(entry);
    this.applyConfig(config);
    try {
      const mc = this.seal();
      this.store.db.write(() => this.store.db.putMeta(CONFIGS_META, this.configs));
      return mc;
    } catch (e) {
      this.configs.pop();
      this.applyConfig();
      throw e;
    }
  }

  /** Sandbox runs with the newest config set at or before the newest block (the one genesis made, when none was). */
  private applyConfig(config?: Cell): void {
    const head = this.store.lastMc.seqno;
    const newest = [...this.configs].reverse().find((c) => c.mc <= head);
    const cell = config ?? (newest ? Cell.fromBase64(newest.boc) : this.baseConfig);
    if (cell.hash().equals(this.bc.config.hash())) return;
    this.bc.setConfig(cell);
    this.configDict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), cell);
  }

  /** Writes the clock, so a restart keeps the time a test moved to. */
  saveClock(): void {
    this.store.db.write(() => this.store.db.putMeta(CLOCK_META, this.clock.state));
  }

  /**
   * Cuts the chain back to `to` (store.ts `rewind`), with `beforeCut` run in the same database transaction; with
   * `moment` (a checkpoint's) the executor's cursor and the clock go back too. Sandbox then reads every account
   * again from the store, and configs set after `to` are dropped.
   */
  rewind(to: StorePosition, moment?: ChainMoment, beforeCut?: () => void): Rewind {
    const mc = this.store.mcBlock(to.mcSeqno);
    const shard = this.store.block({ workchain: 0, shard: mc?.shards[0]?.shard ?? 0n, seqno: mc?.shards[0]?.seqno ?? -1 });
    const endLt = [mc?.endLt ?? 0n, shard?.endLt ?? 0n].reduce((a, b) => (a > b ? a : b));
    const cursor: ChainCursor = { ...(moment?.cursor ?? { lt: endLt.toString() }), faucetTransfers: this.faucetTransfers };
    const configs = this.configs.filter((c) => c.mc <= to.mcSeqno);
    const rewound = this.store.rewind(to, cursor, () => {
      beforeCut?.();
      if (configs.length !== this.configs.length) this.store.db.putMeta(CONFIGS_META, configs);
      if (moment) this.store.db.putMeta(CLOCK_META, moment.clock);
    });
    this.configs = configs;
    if (moment) this.clock.state = moment.clock;
    this.unfinal = this.unfinal.filter((b) => b.seqno <= to.mcSeqno);
    this.settle(BigInt(cursor.lt), moment?.cursor.utime);
    return rewound;
  }

  /**
   * After the store changed under sandbox (a rewind, rows put back): the lt cursor, sandbox's lt, the open block's
   * utime, the config, PREVBLOCKS, and no parsed contract kept.
   */
  settle(sandboxLt: bigint, openUtime?: number): void {
    const shard = this.store.shardBlocks[this.store.shardBlocks.length - 1]!;
    this.ltCursor = shard.endLt > this.store.lastMc.endLt ? shard.endLt : this.store.lastMc.endLt;
    this.setSandboxLt(sandboxLt > this.ltCursor ? sandboxLt : this.ltCursor);
    this.openUtime = this.store.pending.length > 0 ? (openUtime ?? this.store.pending[0]!.now) : undefined;
    this.storage.clearKnownContracts();
    this.applyConfig();
    this.updatePrevBlocks();
    // a message waiting for its account whose sender was rewound away is never delivered
    this.fork?.deliveries.forget((m) => m.parent !== undefined && this.store.tx(m.parent.hash, { pending: true }) === undefined);
  }

  /** Changes the finality delay; with 0, every sealed block is final at once (those waiting included). */
  setFinalityDelay(ms: number): void {
    this.mining.finalityDelayMs = ms;
    this.delaying = ms > 0;
    if (!this.delaying) this.finalizeAll();
  }

  /** Sealed blocks not yet final become final now (a restored checkpoint's blocks, a reset). */
  finalizeAll(): void {
    this.unfinal = [];
    this.store.finalize(this.store.lastMc.seqno);
  }

  /** Feeds the last masterchain block ids to the PREVBLOCKS opcode, as validators do. */
  private updatePrevBlocks(): void {
    const ids = this.store.mcBlocks.slice(-16).reverse().map((b) => ({
      workchain: b.workchain,
      shard: b.shard,
      seqno: b.seqno,
      rootHash: b.rootHash,
      fileHash: b.fileHash,
    }));
    this.bc.prevBlocks = { lastMcBlocks: ids, prevKeyBlock: ids[ids.length - 1]! };
  }

  /** Sandbox keeps its own copy of every transaction; we have ours, so its log is emptied to bound memory. */
  private dropSandboxLog(): void {
    const log = (this.bc as unknown as { transactions?: unknown[] }).transactions;
    if (Array.isArray(log)) log.length = 0;
  }

  /** After a failure mid-cascade, messages left in sandbox's queue would leak into the next send. */
  private dropSandboxQueue(): void {
    this.sandboxQueueManager().messageQueue.length = 0;
  }

  private sandboxQueueManager(): SandboxQueueManager {
    const manager = (this.bc as unknown as { defaultQueueManager?: SandboxQueueManager }).defaultQueueManager;
    if (!Array.isArray(manager?.messageQueue) || typeof manager.runQueueIter !== 'function') throw new Error('local chain: sandbox\'s message queue moved (@ton/sandbox internals)');
    return manager;
  }

  /**
   * Sandbox starts reading a message's destination as soon as the message is queued and keeps that read for the
   * message's turn: a held message's read is dropped (its failure handled), so its delivery reads the store afresh.
   */
  private dropContractFetch(key: string): void {
    const fetches = (this.bc as unknown as { contractFetches?: Map<string, Promise<unknown>> }).contractFetches;
    const fetch = fetches?.get(key);
    if (!fetch) return;
    fetch.catch(() => undefined);
    fetches!.delete(key);
  }
}

/** An entry of sandbox's message queue (MessageQueueManager), as far as the chain reads it. */
interface SandboxQueueEntry {
  type: 'message' | 'ticktock';
  info?: Message['info'];
  parentTransaction?: object;
}

interface SandboxQueueManager {
  messageQueue: SandboxQueueEntry[];
  runQueueIter(needsLocking: boolean, params: { ignoreChksig: boolean }): AsyncIterator<BlockchainTransaction>;
}

/**
 * The ShardAccount BoC after the contract's last transaction. Sandbox keeps the emulator's exact base64 in a
 * private field; reading it avoids a re-serialisation per transaction (falls back to one if the field moves).
 */
function shardAccountBoc(contract: SmartContract): string {
  const raw = (contract as unknown as { _account?: unknown })._account;
  if (typeof raw === 'string') return raw;
  return beginCell().store(storeShardAccount(contract.account)).endCell().toBoc().toString('base64');
}

/**
 * The ShardAccount sandbox parsed from that same BoC right after the contract's last transaction (its queue
 * reads the account's workchain after every transaction), or undefined when it has not or the fields moved.
 * Sandbox replaces the object on its next transaction rather than changing it, so it can be shared.
 */
function parsedShardAccount(contract: SmartContract): ShardAccount | undefined {
  const c = contract as unknown as { _account?: unknown; parsedAccount?: unknown };
  if (typeof c._account !== 'string' || typeof c.parsedAccount !== 'object' || c.parsedAccount === null) return undefined;
  return c.parsedAccount as ShardAccount;
}

/** The account a transaction ran on: its inbound message's destination. */
function txAccount(tx: Transaction): Address {
  const dest = tx.inMessage && tx.inMessage.info.type !== 'external-out' ? tx.inMessage.info.dest : undefined;
  if (!dest) throw new Error('local chain: a transaction without an inbound message');
  return dest;
}

/** Keeps the @ton/core Transaction and drops sandbox's logs, parent/children links and events. */
function stripSandboxFields(tx: BlockchainTransaction): Transaction {
  return {
    address: tx.address,
    lt: tx.lt,
    prevTransactionHash: tx.prevTransactionHash,
    prevTransactionLt: tx.prevTransactionLt,
    now: tx.now,
    outMessagesCount: tx.outMessagesCount,
    oldStatus: tx.oldStatus,
    endStatus: tx.endStatus,
    inMessage: tx.inMessage,
    outMessages: tx.outMessages,
    totalFees: tx.totalFees,
    stateUpdate: tx.stateUpdate,
    description: tx.description,
    raw: tx.raw,
    hash: tx.hash,
  };
}
