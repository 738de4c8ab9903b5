/**
 * The local chain as a source: one chain serves v2, v3 or both, behind gates that answer 503 until its genesis
 * is sealed; its block producer's seal event is its new-block feed.
 */
import type { TipSource } from '../../live/blocks.js';
import { gate } from '../../api/gate.js';
import type { ApiName, Capabilities, Source, SourceKind } from '../../api/source.js';
import type { V2Api } from '../../api/v2.js';
import type { V3Api } from '../../api/v3/index.js';
import { NETWORK_GLOBAL_IDS } from '../../model/network.js';
import { trackChainHeight } from '../../observe/metrics.js';
import { checkDataDir } from './chain/db.js';
import type { ExecutorPoolOptions } from '../../engine/executor-pool.js';
import type { ChainStore } from './chain/store.js';
import { LocalChain, type LocalChainOptions } from './index.js';
import { localnetOptions, type LocalnetOptions } from './options.js';
import type { LiveFeed } from '../../live/feed.js';
import { LocalLiveFeed } from './live-feed.js';
import { ReplayLog } from '../../live/replay-log.js';

const STARTING = 'the local chain is still running its genesis';
const DEFAULT_STREAM_RETENTION = 100_000;

/** The chain's own signal: every sealed masterchain block is a new tip, and a rewind moves it back; no polling. */
export function sealTip(store: ChainStore): TipSource {
  return {
    pollMs: null,
    async start(onTip) {
      const stops = [store.onSeal((mc) => onTip(mc.seqno)), store.onRewind((r) => onTip(r.to.mcSeqno, undefined, true))];
      return { tip: store.lastMc.seqno, stop: () => stops.forEach((s) => s()) };
    },
  };
}

export class LocalnetSource implements Source<{ chain?: LocalChain }> {
  private readonly v2Gate = gate<V2Api>(`LITE_SERVER_NOTREADY: ${STARTING}`);
  private readonly v3Gate = gate<V3Api>(STARTING);
  readonly capabilities: Capabilities = {
    v2: this.v2Gate.api,
    v3: this.v3Gate.api,
    blocks: () => this.tip(),
    live: () => this.liveFeed(),
    emulate: () => this.chain?.emulate,
    control: () => this.chain,
  };
  /** the chain, once its genesis is sealed */
  chain?: LocalChain;
  private untrack?: () => void;

  constructor(
    private readonly options: LocalChainOptions & { streamRetention?: number },
    private readonly apis: readonly ApiName[],
  ) {}

  async start(): Promise<void> {
    const chain = await LocalChain.create(this.options);
    this.chain = chain;
    this.v2Gate.open(chain.v2);
    this.v3Gate.open(chain.v3);
    this.untrack = trackChainHeight(() => chain.store.lastMc.seqno);
  }

  get ready(): boolean {
    return this.chain !== undefined;
  }

  healthProblem(): string | null {
    return this.chain?.problem() ?? null;
  }

  async check(): Promise<string | null> {
    return this.chain ? this.chain.problem() : STARTING;
  }

  private tip(): TipSource {
    if (!this.chain) throw new Error(STARTING);
    return sealTip(this.chain.store);
  }

  /** The chain's own events, their finalized ones logged beside its database for resumption. */
  private liveFeed(): LiveFeed {
    if (!this.chain) throw new Error(STARTING);
    const log = new ReplayLog(this.chain.store.db.dir, this.options.streamRetention ?? DEFAULT_STREAM_RETENTION);
    return new LocalLiveFeed(this.chain, log, { network: this.options.network });
  }

  get handles(): { chain?: LocalChain } {
    return { chain: this.chain };
  }

  banner(url: string): string {
    if (!this.chain) return '';
    const only = this.apis.length === 1 ? ` (serving ${this.apis[0]} only)` : '';
    const impersonated = this.options.impersonate?.length ? [`  Impersonated (no signature check): ${this.options.impersonate.join(', ')}`] : [];
    const fork = this.chain.fork;
    if (fork) {
      const { url: upstream, seqno, globalId } = fork.point;
      const paced = this.options.fork!.apiKey ? '' : `; keyless: the upstream is asked at most ${this.options.fork!.rps || 'unlimited'} time(s)/s, so first reads of accounts are slow (set --fork-api-key)`;
      return [
        '',
        `Local chain forked${only} from ${upstream} at masterchain block ${seqno}, global id ${globalId}${paced}.`,
        '  Accounts are read from the upstream the first time they are needed; the faucet credits any address locally.',
        ...impersonated,
        ...(this.apis.includes('v2') ? [`  TonClient endpoint: ${url}/api/v2/jsonRPC`] : []),
        '',
      ].join('\n');
    }
    const lines = ['', `Local chain ready${only}, global id ${this.chain.globalId}. Genesis wallets (funded, deployed):`, ''];
    for (const w of this.chain.wallets()) {
      lines.push(`  ${w.name}  ${w.version}  ${w.address}`);
      lines.push(`    balance  ${w.balance} nanotons`);
      lines.push(`    mnemonic ${w.mnemonic.join(' ')}`);
      lines.push('');
    }
    if (this.apis.includes('v2')) lines.push(`  TonClient endpoint: ${url}/api/v2/jsonRPC`);
    lines.push(`  Wallets as JSON:    ${url}/localnet/wallets`);
    lines.push(...impersonated);
    lines.push('');
    return lines.join('\n');
  }

  async close(): Promise<void> {
    this.untrack?.();
    await this.chain?.close();
  }
}

export const localnetSource: SourceKind<LocalChainOptions & { streamRetention: number }, { executor?: ExecutorPoolOptions }, LocalnetOptions, { chain?: LocalChain }> = {
  options: localnetOptions,
  settings: (config) => ({
    seed: config.seed,
    blockInterval: config.blockInterval,
    network: config.network,
    globalId: config.globalId,
    dataDir: config.dataDir,
    emulateTimeoutMs: config.emulateTimeoutMs,
    emulateBounds: config.emulate,
    fork: config.fork,
    streamRetention: config.streamRetention,
    impersonate: config.impersonate,
    mining: { auto: !config.noMining, mineEmpty: config.mineEmptyBlocks, finalityDelayMs: config.finalityDelayMs },
  }),
  create: (options, { apis, hooks }) => new LocalnetSource({ ...options, executor: hooks.executor }, apis),
  // a data dir held by another server, a damaged database or another seed's chain is refused before anything listens
  preflight: async ({ dataDir, seed, globalId, network, fork }) => {
    if (dataDir !== undefined) await checkDataDir(dataDir, { seed, globalId: globalId ?? NETWORK_GLOBAL_IDS[network ?? 'mainnet'], fork });
  },
};
