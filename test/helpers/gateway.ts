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

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function waitFor<T>(check: () => Promise<T | undefined>, ms = 15_000, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, every));
  }
}
