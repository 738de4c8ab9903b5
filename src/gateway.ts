/**
 * Wires a running gateway: server first (so /health can say 503 while genesis runs), then the data source:
 * the local chain, or (backend toncenter) the upstream clients, which need no start-up.
 * Used by the CLI and by the end-to-end tests, so both start exactly the same thing.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { V2Api } from './api/v2.js';
import type { V3Api } from './api/v3.js';
import { gate } from './api/gate.js';
import type { LogOptions } from './pipeline/logging.js';
import { trackChainHeight, trackQueueDepth } from './pipeline/metrics.js';
import { mountReady } from './pipeline/ready.js';
import { LocalChain, type ExecutorPoolOptions } from './sources/localnet/index.js';
import { buildServer } from './server.js';
import { createUpstream, type Upstream } from './sources/upstream/index.js';
import type { ChainEvents } from './events/feed.js';
import { localChainEvents, upstreamChainEvents } from './events/sources.js';
import { sharedStateFor } from './pipeline/shared-state/redis.js';

export interface Gateway {
  app: FastifyInstance;
  /** http://host:port */
  url: string;
  /** the local chain; absent in upstream mode */
  chain?: LocalChain;
  /** the upstream clients; present only in upstream mode */
  upstream?: Upstream;
  banner(): string;
  close(): Promise<void>;
}

export interface GatewayHooks {
  onListening?: (url: string) => void;
  /** pino level and destination for the server's logs; silent when absent */
  log?: LogOptions;
  /** bounds and sizes of the local chain's emulator workers; defaults when absent */
  executor?: ExecutorPoolOptions;
}

export async function startGateway(config: Config, hooks: GatewayHooks = {}): Promise<Gateway> {
  if (config.backend === 'toncenter') return startUpstreamGateway(config, hooks);

  const v2 = gate<V2Api>('LITE_SERVER_NOTREADY: the local chain is still running its genesis');
  const v3 = gate<V3Api>('the local chain is still running its genesis');
  let chain: LocalChain | undefined;
  let events: ChainEvents | undefined;
  const shared = sharedStateFor(config.redisUrl);
  const app = await buildServer({
    config,
    shared,
    v2: v2.api,
    v3: v3.api,
    isReady: () => v2.ready && v3.ready,
    healthProblem: () => chain?.executionProblem() ?? null,
    localnet: () => chain,
    events: () => events,
    log: hooks.log,
  });
  mountReady(app, async () => (v2.ready && v3.ready ? (chain?.executionProblem() ?? null) : 'the local chain is still running its genesis'));
  await shared?.connect();
  const url = await listen(app, config);
  hooks.onListening?.(url);

  try {
    chain = await LocalChain.create({
      seed: config.seed,
      blockInterval: config.blockInterval,
      network: config.network,
      dataDir: config.dataDir,
      executor: hooks.executor,
    });
  } catch (e) {
    await app.close();
    await shared?.close();
    throw e;
  }
  v2.open(chain.v2);
  v3.open(chain.v3);
  events = localChainEvents(chain.store, v3.api, app.log);
  const live = chain;
  const untrack = trackChainHeight(() => live.store.lastMc.seqno);

  return {
    app,
    url,
    chain: live,
    banner: () => walletBanner(live, url),
    async close() {
      // in-flight requests drain first, then the block producer stops
      await app.close();
      untrack();
      await live.close();
      await shared?.close();
    },
  };
}

async function startUpstreamGateway(config: Config, hooks: GatewayHooks): Promise<Gateway> {
  const shared = sharedStateFor(config.redisUrl);
  const upstream = createUpstream(config.upstream, { shared });
  // no local chain and no /localnet routes; /health is about this process, /ready about the upstream
  let events: ChainEvents | undefined;
  const app = await buildServer({ config, v2: upstream.v2, v3: upstream.v3, isReady: () => true, log: hooks.log, shared, events: () => events });
  events = upstreamChainEvents(upstream.v3, config.subscriptions.pollMs, app.log);
  mountReady(app, () => upstream.check());
  await shared?.connect();
  let url: string;
  try {
    url = await listen(app, config);
  } catch (e) {
    await upstream.close();
    await shared?.close();
    throw e;
  }
  hooks.onListening?.(url);
  const untrack = trackQueueDepth(() => upstream.client.queued);
  const { v2Url, v3Url, rps, apiKey } = config.upstream;
  return {
    app,
    url,
    upstream,
    banner: () =>
      [
        '',
        `Upstream mode (${config.network}): v2 ${v2Url}/api/v2, v3 ${v3Url}/api/v3`,
        `  ${apiKey ? 'with an API key' : 'keyless'}, ${rps ? `at most ${rps} request(s)/s` : 'unpaced'}; readiness at ${url}/ready`,
        `  TonClient endpoint: ${url}/api/v2/jsonRPC`,
        '',
      ].join('\n'),
    async close() {
      await app.close();
      untrack();
      await upstream.close();
      await shared?.close();
    },
  };
}

async function listen(app: FastifyInstance, config: Config): Promise<string> {
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}

function walletBanner(chain: LocalChain, url: string): string {
  const lines = ['', 'Local chain ready. Genesis wallets (funded, deployed):', ''];
  for (const w of chain.wallets()) {
    lines.push(`  ${w.name}  ${w.version}  ${w.address}`);
    lines.push(`    balance  ${w.balance} nanotons`);
    lines.push(`    mnemonic ${w.mnemonic.join(' ')}`);
    lines.push('');
  }
  lines.push(`  TonClient endpoint: ${url}/api/v2/jsonRPC`);
  lines.push(`  Wallets as JSON:    ${url}/localnet/wallets`);
  lines.push('');
  return lines.join('\n');
}
