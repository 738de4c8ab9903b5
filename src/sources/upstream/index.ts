/** Upstream mode: V2Api and V3Api answered by a toncenter (or ton-http-api + ton-indexer) over HTTP. */
import { pollTip } from '../../live/blocks.js';
import type { ApiName, Capabilities, Source, SourceKind } from '../../api/source.js';
import type { Network } from '../../model/network.js';
import { trackQueueDepth } from '../../observe/metrics.js';
import type { UpstreamConfig } from '../../remote/options.js';
import { createUpstream, type Upstream } from '../../remote/upstream.js';
import { upstreamOptions, type UpstreamOptions } from './options.js';
import { LazyExecutor, upstreamEmulation, type UpstreamEmulation } from './emulate.js';
import type { StateAnswers } from '../../api/state-answers.js';
import type { EmulateBounds } from '../../api/emulate.js';
import { upstreamStateAnswers } from './state-answers.js';
import { sharedUpstreamFeed, type LiveFeedSettings } from './live-feed.js';

export interface UpstreamSettings {
  client: UpstreamConfig;
  network: Network;
  /** ms between masterchainInfo polls of the new-block feed */
  pollMs: number;
  /** --emulate-via-upstream */
  emulateViaUpstream?: boolean;
  /** emulating against the upstream's state (--emulate-blocks, --emulate-cache-mb, --emulate-timeout-ms) */
  emulation?: UpstreamOptions['emulation'];
  /** the Emulate API's bounds on answers and turns (--emulate-max-answer-bytes, ...) */
  emulateBounds?: EmulateBounds;
  /** the upstream's Streaming API v2 (and the Redis relay between replicas), for live events */
  live?: LiveFeedSettings;
}

/** An upstream as a source: up at once, /ready probes the APIs it serves, new blocks found by polling its v3. */
export class UpstreamSource implements Source<{ upstream: Upstream }> {
  readonly capabilities: Capabilities;
  readonly ready = true;
  readonly handles: { upstream: Upstream };
  private untrack?: () => void;
  private emulation?: UpstreamEmulation;
  private answers?: StateAnswers;
  /** one emulator worker pool, started on first use, for emulations and the get-methods of stateAnswers */
  private readonly executor = new LazyExecutor();

  constructor(
    readonly upstream: Upstream,
    private readonly settings: UpstreamSettings,
    private readonly apis: readonly ApiName[],
  ) {
    this.capabilities = {
      v2: upstream.v2,
      v3: upstream.v3,
      blocks: (log) => pollTip(upstream.v3, settings.pollMs, log),
      // one streaming connection to the upstream (or, with REDIS_URL, the relay of the replica that holds it)
      live: (log) => settings.live && sharedUpstreamFeed(settings.live, upstream.v3, log),
      emulate: () => this.emulating().api,
      stateAnswers: () => this.stateAnswers(),
    };
    this.handles = { upstream };
  }

  async start(): Promise<void> {
    this.untrack = trackQueueDepth(() => this.upstream.client.queued);
  }

  healthProblem(): null {
    return null;
  }

  check(): Promise<string | null> {
    return this.upstream.check();
  }

  /** The Emulate API's parts (its worlds' upstream call counts), made on first use. */
  emulating(): UpstreamEmulation {
    const { client, v2, v3 } = this.upstream;
    const e = this.settings.emulation;
    return (this.emulation ??= upstreamEmulation(
      client,
      v2,
      v3,
      {
        viaUpstream: this.settings.emulateViaUpstream ?? false,
        ...(e ? { maxBlocks: e.blocks, maxBytes: e.cacheMb * 1024 * 1024, timeoutMs: e.timeoutMs } : {}),
        ...(this.settings.emulateBounds ? { bounds: this.settings.emulateBounds } : {}),
      },
      this.executor,
    ));
  }

  /** Jetton masters answered from account states by get-methods run here (the graph's token pages). */
  private stateAnswers(): StateAnswers {
    // kept as long as the states they come from; not at all when the response cache is off
    const { accountTtlMs, cacheMb } = this.settings.client;
    return (this.answers ??= upstreamStateAnswers(this.executor, cacheMb > 0 ? accountTtlMs : 0, cacheMb > 0));
  }

  banner(url: string): string {
    const { v2Url, v3Url, apiKey, rps } = this.settings.client;
    const bases = this.apis.map((api) => (api === 'v2' ? `v2 ${v2Url}/api/v2` : `v3 ${v3Url}/api/v3`));
    return [
      '',
      `Upstream mode (${this.settings.network}): ${bases.join(', ')}`,
      `  ${apiKey ? 'with an API key' : 'keyless'}, ${rps ? `at most ${rps} request(s)/s` : 'unpaced'}; readiness at ${url}/ready`,
      ...(this.apis.includes('v2') ? [`  TonClient endpoint: ${url}/api/v2/jsonRPC`] : []),
      '',
    ].join('\n');
  }

  async close(): Promise<void> {
    this.untrack?.();
    await this.emulation?.close();
    await this.executor.close();
    await this.upstream.close();
  }
}

export const upstreamSource: SourceKind<UpstreamSettings, object, UpstreamOptions, { upstream: Upstream }> = {
  options: upstreamOptions,
  // each API's own key and pace (they differ when v2 and v3 are different services): equal settings share one client
  settings: (config, api) => ({
    client: { ...config.upstream, ...config.upstreamApis[api] },
    network: config.network,
    pollMs: config.subscriptions.pollMs,
    emulateViaUpstream: config.emulateViaUpstream,
    emulation: config.emulation,
    emulateBounds: config.emulate,
    live: {
      upstream: config.upstream,
      upstreamApis: config.upstreamApis,
      upstreamStream: config.upstreamStream,
      subscriptions: config.subscriptions,
      ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
    },
  }),
  create: (settings, { apis, shared }) => new UpstreamSource(createUpstream(settings.client, { shared }, apis), settings, apis),
};
