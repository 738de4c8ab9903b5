/**
 * The embedded local chain: sandbox execution, our own store and block producer, a deterministic genesis,
 * and the V2Api and V3Api over it. `LocalChain.create` resolves once genesis is sealed (or, with a data dir
 * holding a chain, once that chain is rebuilt from its journal).
 */
import { Address, beginCell, Cell, loadMessage, parseTuple, storeMessage } from '@ton/core';
import { internal } from '@ton/sandbox';
import type { AccountOrigin, GenesisWallet, Impersonation, LocalnetControl, LocalnetTokens, LocalnetWorkbench } from '../../api/localnet.js';
import type { FullAccountState } from '../../api/v2/accounts.js';
import type { DeepReadonly } from '../../api/shared-answers.js';
import type { V2Api } from '../../api/v2.js';
import type { EmulateApi } from '../../api/emulate.js';
import type { V3Api } from '../../api/v3/index.js';
import type { Network } from '../../model/network.js';
import { rawLower } from '../../model/address.js';
import { hashB64 } from '../../model/hash.js';
import { NETWORK_GLOBAL_IDS } from '../../model/network.js';
import { Chain, DEFAULT_MINING, type MiningOptions } from './chain/chain.js';
import { Checkpoints } from './chain/checkpoints.js';
import type { StorePosition } from './chain/store.js';
import { settledIndexer } from './indexer/index.js';
import { RewindGate } from './rewind-gate.js';
import { Workbench } from './workbench.js';
import { ChainDb } from './chain/db.js';
import { Fork, type ForkOptions } from './chain/fork.js';
import type { ExecutorPoolOptions } from '../../engine/executor-pool.js';
import type { EmulateBounds } from '../../api/emulate.js';
import { EMULATION_NICE } from '../../engine/emulation.js';
import { genesisPool } from './chain/genesis-pool.js';
import { deriveWalletKeys, describeGenesisTokens, fromStoredKeys, genesisWallets, runGenesis, toStoredKeys, type KeyedWallet, type StoredKeys } from './chain/genesis.js';
import type { ChainStore, TxRecord } from './chain/store.js';
import { ApiError } from '../../api/errors.js';
import { adoptingReads } from './fork-reads.js';
import { withForkHistory } from './v3/v3-fork-history.js';
import { localV2Api } from './v2/index.js';
import { runGetOnCode } from './v2/v2-context.js';
import type { StateGetMethod } from './indexer/traces.js';
import { tupleGetStack } from '../../model/v3/contract-info.js';
import { localV3Api } from './v3/index.js';
import { LocalV3Context } from './v3/v3-context.js';
import { localEmulateApi } from './emulate.js';

export { GENESIS_TIME } from './chain/chain.js';
export { DataDirError } from './chain/data-dir.js';
export { ExecutorFailure, type ExecutorPoolOptions, type RestartReason } from '../../engine/executor-pool.js';
export { localV2Api } from './v2/index.js';
export { localV3Api } from './v3/index.js';
export type { KeyedWallet } from './chain/genesis.js';
export * from './chain/store.js';
export { localnetOptions, type LocalnetOptions } from './options.js';

export interface LocalChainOptions {
  seed: string;
  /** ms between sealed blocks; 0 = seal after every accepted message */
  blockInterval: number;
  /** which user-friendly address forms the v3 address_book prints; default mainnet */
  network?: Network;
  /** the chain's global id (config param 19, block headers, v5r1 wallet ids); default that of `network` */
  globalId?: number;
  /** keep the chain's database here and continue from it on the next start; a temporary database when absent */
  dataDir?: string;
  /** bounds and sizes of the emulator workers (engine/executor-pool.ts); defaults when absent */
  executor?: ExecutorPoolOptions;
  /** wall-clock budget of one Emulate API emulation, ms; default 3000 */
  emulateTimeoutMs?: number;
  /** the Emulate API's bounds on answers and turns; default EMULATION_BOUNDS */
  emulateBounds?: EmulateBounds;
  /** start from a network's state at one of its blocks instead of a genesis */
  fork?: ForkOptions;
  /** wallets whose external messages run without their signature check (raw addresses) */
  impersonate?: string[];
  /** how blocks are made and become final (acton's --no-mining, --mine-empty-blocks; the finality delay) */
  mining?: Partial<MiningOptions>;
}

/** Where genesis (or a fork's first block) left the chain: what a reset goes back to. */
const GENESIS_POSITION = 'genesisPosition';

/**
 * The chain's emulator workers: emulations in a lane of their own, so get-methods never wait behind one, at a
 * lower priority, so that the chain and every other request go first when the CPU is short.
 */
const executorOf = (opts: LocalChainOptions): ExecutorPoolOptions => ({ emulationWorkers: 1, nice: { emulations: EMULATION_NICE }, ...opts.executor });

export class LocalChain implements LocalnetControl {
  readonly v2: V2Api;
  readonly v3: V3Api;
  /** Emulate API v1 on copies of the chain's sealed states (emulate.ts) */
  readonly emulate: EmulateApi;
  /** acton's control API and the drills (workbench.ts) */
  readonly workbench: LocalnetWorkbench;
  private readonly gate = new RewindGate();

  private constructor(
    private readonly chain: Chain,
    private readonly keyed: KeyedWallet[],
    network: Network | undefined,
    /** the seed genesis ran with; none on a fork */
    private readonly seed: string | undefined,
    emulation: Pick<LocalChainOptions, 'emulateTimeoutMs' | 'emulateBounds'>,
  ) {
    // on a fork, a read names accounts the chain may not have fetched yet
    const fork = chain.fork;
    this.v2 = fork ? adoptingReads(localV2Api(chain), chain, { upstream: fork.upstream.v2, fork: fork.block }) : localV2Api(chain);
    this.v3 = fork ? adoptingReads(withForkHistory(localV3Api(this, { network }), fork.upstream.v3, fork.point.seqno), chain) : localV3Api(this, { network });
    this.emulate = localEmulateApi(chain, new LocalV3Context(this, { network }), emulation.emulateTimeoutMs, emulation.emulateBounds);
    this.workbench = new Workbench({
      chain,
      checkpoints: new Checkpoints(chain),
      gate: this.gate,
      v2: this.v2,
      wallets: () => this.wallets(),
      settled: () => settledIndexer(chain.store),
      genesis: () => chain.store.db.meta<StorePosition>(GENESIS_POSITION),
    });
  }

  read(): (() => void) | Promise<() => void> {
    return this.gate.read();
  }

  static async create(opts: LocalChainOptions): Promise<LocalChain> {
    const made = await LocalChain.make(opts);
    for (const a of opts.impersonate ?? []) made.chain.impersonated.add(Address.parse(a).toRawString());
    return made;
  }

  private static async make(opts: LocalChainOptions): Promise<LocalChain> {
    const globalId = opts.globalId ?? NETWORK_GLOBAL_IDS[opts.network ?? 'mainnet'];
    const db = ChainDb.open(opts.dataDir);
    if (opts.fork) return LocalChain.createFork(opts, opts.fork, db);
    // deriving the wallets' keys costs ~200,000 PBKDF2 rounds each; a chain made with this seed keeps them
    const cached = db.meta<StoredKeys>('walletKeys');
    const [chain, keys] = await Promise.all([
      Chain.create(opts.seed, opts.blockInterval, db, executorOf(opts), globalId, undefined, { ...DEFAULT_MINING, ...opts.mining }),
      cached?.seed === opts.seed ? fromStoredKeys(cached) : deriveWalletKeys(opts.seed),
    ]);
    const keyed = genesisWallets(keys, chain.globalId);
    // a chain made before the keys were kept gets them now
    if (chain.restored && cached?.seed !== opts.seed) db.write(() => db.putMeta('walletKeys', toStoredKeys(opts.seed, keys)));
    if (!chain.restored) {
      try {
        await runGenesis(chain, keyed);
        chain.genesisDone({ walletKeys: toStoredKeys(opts.seed, keys), [GENESIS_POSITION]: chain.store.position() });
      } catch (e) {
        await chain.close();
        throw e;
      }
    }
    chain.startProducer();
    return new LocalChain(chain, keyed, opts.network, opts.seed, opts);
  }

  /**
   * A fork: no genesis wallets or tokens; the faucet (a local-only account) credits any address with a real
   * internal message. Accounts come from the upstream as they are first needed (Chain.adopt).
   */
  private static async createFork(opts: LocalChainOptions, forkOptions: ForkOptions, db: ChainDb): Promise<LocalChain> {
    let fork: Fork;
    try {
      fork = await Fork.open(forkOptions, db);
    } catch (e) {
      await db.close({ discardNew: true });
      throw e;
    }
    let chain: Chain;
    try {
      // Chain.create closes the database when it fails
      chain = await Chain.create(opts.seed, opts.blockInterval, db, executorOf(opts), fork.point.globalId, fork, { ...DEFAULT_MINING, ...opts.mining });
    } catch (e) {
      await fork.close();
      throw e;
    }
    if (!chain.restored) chain.genesisDone({ [GENESIS_POSITION]: chain.store.position() });
    chain.startProducer();
    return new LocalChain(chain, [], opts.network, undefined, opts);
  }

  /** The fork point and its upstream, when this chain is a fork. */
  get fork(): Fork | undefined {
    return this.chain.fork;
  }

  /** Blocks, transactions, messages and account history, for indexed (v3) queries. */
  get store(): ChainStore {
    return this.chain.store;
  }

  /** Config param 19: the network id its v5r1 wallet ids carry. */
  get globalId(): number {
    return this.chain.globalId;
  }

  /** A get-method on a state the chain holds unsealed (a pending transaction's), as the v2 reads run one. */
  readonly getMethodOnState: StateGetMethod = async (address, state, method) => {
    const st = state.account?.storage.state;
    if (st?.type !== 'active' || !st.state.code || !st.state.data) return null;
    const res = await runGetOnCode(this.chain, {
      address,
      code: st.state.code,
      data: st.state.data,
      balance: state.account!.storage.balance.coins,
      method,
      stack: [],
      unixTime: Math.max(this.chain.store.lastMc.genUtime, Math.floor(Date.now() / 1000)),
    }).catch(() => null);
    if (!res?.output.success || (res.output.vm_exit_code !== 0 && res.output.vm_exit_code !== 1)) return null;
    return tupleGetStack(parseTuple(Cell.fromBase64(res.output.stack)));
  };

  /** Config param `id` as the chain holds it parsed. */
  configParam(id: number): Cell | undefined {
    return this.chain.configParam(id);
  }

  /** The faucet's address (a sandbox treasury holding the chain's spare coins). */
  get faucetAddress(): Address {
    return this.chain.faucetAddress;
  }

  /** Genesis wallets with their keys, for tests and tools that sign transfers. */
  keyedWallets(): readonly KeyedWallet[] {
    return this.keyed;
  }

  wallets(): GenesisWallet[] {
    const last = this.chain.store.lastMc.seqno;
    return this.keyed.map((w) => ({
      name: w.name,
      address: rawLower(w.contract.address),
      version: w.version,
      mnemonic: [...w.mnemonic],
      balance: (this.chain.store.accountState(w.contract.address, last)?.shardAccount.account?.storage.balance.coins ?? 0n).toString(),
    }));
  }

  /** The genesis nominator pool (masterchain) and its validator's wallet; none on a fork. */
  nominatorPool(): { pool: Address; validator: Address } | undefined {
    return this.seed === undefined ? undefined : genesisPool(this.seed, this.chain.globalId);
  }

  /** The genesis jetton and NFT collection (addresses follow from the seed). */
  tokens(): LocalnetTokens {
    if (this.chain.fork) throw new ApiError(404, 'a fork has no genesis tokens: its jettons and NFTs are the network\'s');
    return describeGenesisTokens(this.keyed);
  }

  /**
   * An internal message as if `from` had sent it: no key, no wallet and no balance of `from` is involved, so a
   * test can act as any account of a fork (an NFT's owner, a pool's admin). Its value is created locally.
   */
  async impersonate(m: Impersonation): Promise<{ hash: string; transactions: string[] }> {
    for (const a of [m.from, m.to]) {
      if (a.workChain !== 0 && a.workChain !== -1) throw new ApiError(422, `workchain ${a.workChain} does not exist on the local chain (use 0 or -1)`);
    }
    if (m.value < 0n) throw new ApiError(422, 'value must not be negative');
    const message = internal({ from: m.from, to: m.to, value: m.value, bounce: m.bounce, body: m.body, stateInit: m.stateInit });
    return LocalChain.hashes(await this.chain.send(beginCell().store(storeMessage(message)).endCell()));
  }

  /** An external message to a wallet, run without that wallet's signature check. */
  async impersonateExternal(message: Cell): Promise<{ hash: string; transactions: string[] }> {
    let to: Address;
    try {
      const info = loadMessage(message.beginParse()).info;
      if (info.type !== 'external-in') throw new Error(`an ${info.type} message`);
      to = info.dest;
    } catch (e) {
      throw new ApiError(422, `boc must be an external message to a wallet: ${(e as Error).message}`);
    }
    return LocalChain.hashes(await this.chain.send(message, { impersonate: to }));
  }

  forkBlock(): number | null {
    return this.chain.fork?.point.seqno ?? null;
  }

  accountOrigin(address: Address): AccountOrigin {
    // a fork's account lives in the store as read at the fork block until a local transaction (sealed) changes it
    return this.chain.fork && this.chain.store.accountTransactions(address).length === 0 ? 'FORK' : 'LOCAL';
  }

  async upstreamState(address: Address): Promise<DeepReadonly<FullAccountState> | null> {
    const fork = this.chain.fork;
    return fork ? fork.upstream.v2.getAddressInformation({ address }) : null;
  }

  private static hashes(recs: TxRecord[]): { hash: string; transactions: string[] } {
    const hashes = recs.map((r) => hashB64(Buffer.from(r.hash, 'hex')));
    return { hash: hashes[0]!, transactions: hashes };
  }

  async faucet(address: Address, amount: bigint): Promise<{ hash: string }> {
    const tx = await this.chain.faucet(address, amount);
    return { hash: hashB64(Buffer.from(tx.hash, 'hex')) };
  }

  /** Why the chain cannot execute now (no emulator worker could be started), or null when it can. */
  executionProblem(): string | null {
    return this.chain.executionProblem();
  }

  /** Why the chain cannot do its work now: its storage refuses writes, or no emulator is up; null when it can. */
  problem(): string | null {
    return this.chain.storageProblem() ?? this.chain.executionProblem();
  }

  /** Seals the pending transactions now instead of waiting for the timer. */
  sealBlock(): Promise<void> {
    return this.chain.enqueue(() => {
      this.chain.seal();
    });
  }

  close(): Promise<void> {
    return this.chain.close();
  }
}
