/**
 * Wires a running gateway: server first (so /health can say 503 while genesis runs), then the data source.
 * Used by the CLI and by the end-to-end tests, so both start exactly the same thing.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { V2Api } from './api/v2.js';
import type { V3Api } from './api/v3.js';
import { gate } from './api/gate.js';
import { LocalChain } from './localnet/index.js';
import { buildServer } from './server.js';

export interface Gateway {
  app: FastifyInstance;
  /** http://host:port */
  url: string;
  chain: LocalChain;
  banner(): string;
  close(): Promise<void>;
}

export async function startGateway(
  config: Config,
  hooks: { onListening?: (url: string) => void } = {},
): Promise<Gateway> {
  const v2 = gate<V2Api>('LITE_SERVER_NOTREADY: the local chain is still running its genesis');
  const v3 = gate<V3Api>('the local chain is still running its genesis');
  let chain: LocalChain | undefined;
  const app = await buildServer({
    config,
    v2: v2.api,
    v3: v3.api,
    isReady: () => v2.ready && v3.ready,
    localnet: () => chain,
  });
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  hooks.onListening?.(url);

  try {
    chain = await LocalChain.create({ seed: config.seed, blockInterval: config.blockInterval, network: config.network });
  } catch (e) {
    await app.close();
    throw e;
  }
  v2.open(chain.v2);
  v3.open(chain.v3);
  const live = chain;

  return {
    app,
    url,
    chain: live,
    banner: () => walletBanner(live, url),
    async close() {
      await app.close();
      await live.close();
    },
  };
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
