/**
 * `npm run fork-bench [-- --sends 40]`: a gateway on its local chain plays the network; a second one forks it
 * at its newest block over loopback HTTP. Prints the first signed transfer on the fresh fork (cold: its latency
 * and the upstream calls it cost) and then steady-state signed transfers per second, sent one after another
 * over HTTP, on the fork and on the local chain itself. Not part of `npm test`.
 */
import { parseArgs } from 'node:util';
import { toNano, type Address } from '@ton/core';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway, type Gateway } from '../src/gateway.js';
import type { KeyedWallet } from '../src/sources/localnet/index.js';
import { v4Transfer } from '../test/helpers/transfer.js';

const { values } = parseArgs({ options: { sends: { type: 'string', default: '40' } } });
const SENDS = Number(values.sends);

const start = (overrides: Partial<Config>): Promise<Gateway> =>
  startGateway({ ...(loadConfig([], {}) as Config), port: 0, quiet: true, blockInterval: 0, ...overrides });

async function rpc(g: Gateway, method: string, params: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${g.url}/api/v2/jsonRPC`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { ok: boolean; result?: unknown; error?: string };
  if (!body.ok) throw new Error(`${method}: ${body.error}`);
  return body.result;
}

const seqnoOf = async (g: Gateway, a: Address): Promise<number> => (await rpc(g, 'getWalletInformation', { address: a.toRawString() })).seqno;

async function transfer(g: Gateway, from: KeyedWallet, to: Address, seqno: number): Promise<void> {
  await rpc(g, 'sendBoc', { boc: v4Transfer(from, to, toNano('0.01'), seqno).toString('base64') });
}

/** Signed transfers one after another; sends per second. */
async function steady(g: Gateway, from: KeyedWallet, to: Address): Promise<number> {
  let seqno = await seqnoOf(g, from.contract.address);
  const t0 = performance.now();
  for (let i = 0; i < SENDS; i++) await transfer(g, from, to, seqno++);
  return SENDS / ((performance.now() - t0) / 1000);
}

const origin = await start({});
const [alice, bob] = origin.chain!.keyedWallets();
const fork = await start({ fork: { url: origin.url, apiKey: '', rps: 0 } });
try {
  const f = fork.chain!.fork!;
  const sentAtStart = f.upstream.client.stats.sent;
  const t0 = performance.now();
  // what a client does first: read the wallet's seqno, then send
  await transfer(fork, alice!, bob!.contract.address, await seqnoOf(fork, alice!.contract.address));
  const coldMs = performance.now() - t0;
  const coldCalls = f.upstream.client.stats.sent - sentAtStart;
  const forkRate = await steady(fork, alice!, bob!.contract.address);
  const localRate = await steady(origin, alice!, bob!.contract.address);
  const afterCold = f.upstream.client.stats.sent - sentAtStart - coldCalls;
  console.log(`fork point: block ${f.point.seqno} (upstream calls to open it: header and config)`);
  console.log(`cold first transfer on the fork: ${coldMs.toFixed(0)} ms, ${coldCalls} upstream call(s) (${JSON.stringify(f.loader.stats.calls)})`);
  console.log(`steady state, ${SENDS} signed transfers one after another: fork ${forkRate.toFixed(1)}/s, local chain ${localRate.toFixed(1)}/s, ratio ${(forkRate / localRate).toFixed(2)}; upstream calls during them: ${afterCold}`);
} finally {
  await fork.close();
  await origin.close();
}
