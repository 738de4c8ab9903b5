/**
 * Emulation in upstream mode against the upstream's state: upstream calls per emulation and latency with a cold
 * cache (a block none of its accounts were loaded at) and a warm one (the same message at the same block again).
 * The upstream is a local-chain gateway on loopback, so a cold run's extra time is the calls' cost at loopback
 * round trips; against a real upstream add the calls' count times its round trip.
 *
 *   npx tsx scripts/bench-emulate-upstream.ts [runs]
 *
 * The upstream client's own answer cache is off (CACHE_MB=0), so every call the emulation makes is counted as sent.
 * The message is a signed v4 TON transfer (2 transactions, 2 accounts). Cold runs alternate between two older
 * blocks with EMULATE_BLOCKS=1, so each one loads its block and accounts afresh.
 */
import { internal } from '@ton/core';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway, type Gateway } from '../src/gateway.js';
import { detectWallet } from '../src/model/wallet.js';
import { signedTransfer } from '../src/sources/localnet/chain/genesis.js';
import type { UpstreamSource } from '../src/sources/upstream/index.js';

const runs = Number(process.argv[2] ?? 50);
const TON = 1_000_000_000n;

const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(1)} ms   p90 ${s[Math.floor(s.length * 0.9)]!.toFixed(1)} ms`;
};

const origin = await startGateway({ ...(loadConfig([], {}) as Config), port: 0, quiet: true, blockInterval: 0 });
let up: Gateway | undefined;
try {
  const chain = origin.chain!;
  const [alice, bob, carol, dave] = chain.keyedWallets();
  const seqnoOf = (k: typeof alice, at: number) => {
    const st = chain.store.accountState(k!.contract.address, at)!.shardAccount.account!.storage.state;
    if (st.type !== 'active') throw new Error('not active');
    return detectWallet(st.state.code, st.state.data)!.seqno;
  };
  // two blocks alice and bob take no part in: carol pays dave in between
  const blocks: number[] = [];
  for (let i = 0; i < 2; i++) {
    const at = chain.store.lastMc.seqno;
    blocks.push(at);
    const m = signedTransfer(carol!, seqnoOf(carol, at), [internal({ to: dave!.contract.address, value: TON / 100n, bounce: false })], Math.floor(Date.now() / 1000) + 600);
    await fetch(`${origin.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: m.toBoc().toString('base64') }) });
    while (chain.store.lastMc.seqno <= at || chain.store.pending.length > 0) await new Promise((r) => setTimeout(r, 20));
  }
  const boc = signedTransfer(alice!, seqnoOf(alice, blocks[0]!), [internal({ to: bob!.contract.address, value: TON, bounce: false })], Math.floor(Date.now() / 1000) + 3600)
    .toBoc()
    .toString('base64');

  const base = loadConfig([], { BACKEND: 'toncenter', V2_URL: origin.url, V3_URL: origin.url, KEYLESS_RPS: '0', UPSTREAM_RPS: '0', CACHE_MB: '0', EMULATE_BLOCKS: '1', EMULATE_TIMEOUT_MS: '60000' }) as Config;
  up = await startGateway({ ...base, port: 0, quiet: true });
  const gw = up;
  const worlds = (gw.sources.v3 as unknown as UpstreamSource).emulating().worlds!;
  const emulate = async (seqno: number): Promise<{ ms: number; sent: number }> => {
    const sent = gw.upstream!.client.stats.sent;
    const t = performance.now();
    const res = await fetch(`${gw.url}/api/emulate/v1/emulateTrace`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc, mc_block_seqno: seqno }) });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    return { ms: performance.now() - t, sent: gw.upstream!.client.stats.sent - sent };
  };

  const first = await emulate(blocks[0]!);
  console.log(`first emulation (emulator workers boot, cold cache): ${first.ms.toFixed(0)} ms, ${first.sent} upstream calls`);
  const s0 = worlds.stats();
  console.log(`  by method: ${JSON.stringify(s0.calls)}, getMasterchainInfo ${s0.masterchainInfo}`);
  const cold: number[] = [];
  const warm: number[] = [];
  const coldCalls: number[] = [];
  const warmCalls: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = await emulate(blocks[(i + 1) % 2]!);
    cold.push(c.ms);
    coldCalls.push(c.sent);
    const w = await emulate(blocks[(i + 1) % 2]!);
    warm.push(w.ms);
    warmCalls.push(w.sent);
  }
  const avg = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
  console.log(`signed v4 TON transfer (2 transactions, 2 accounts), ${runs} runs each, upstream on loopback`);
  console.log(`cold cache (new block): ${stats(cold)}   upstream calls per emulation ${avg(coldCalls)}`);
  console.log(`warm cache (same block): ${stats(warm)}   upstream calls per emulation ${avg(warmCalls)}`);
} finally {
  await up?.close();
  await origin.close();
}
