/** Starts the whole gateway (server + local chain) on a free loopback port, as `npm start` does. */
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import type { GenesisWallet } from '../../src/api/localnet.js';

export async function startTestGateway(overrides: Partial<Config> = {}): Promise<Gateway> {
  const base = loadConfig([], {}) as Config;
  return startGateway({ ...base, port: 0, quiet: true, blockInterval: 0, ...overrides });
}

export async function fetchWallets(url: string): Promise<GenesisWallet[]> {
  const res = await fetch(`${url}/localnet/wallets`);
  if (res.status !== 200) throw new Error(`wallets: HTTP ${res.status}`);
  return (await res.json()) as GenesisWallet[];
}

export { waitFor } from './wait.js';
