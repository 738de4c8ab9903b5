/**
 * A gateway in its own process, as `npm start` runs it with LOG_LEVEL=silent: config from argv/env (port 0, quiet), plus an RPC
 * channel for what HTTP cannot tell the bench (memory, the store's contents, pending count, sealing now).
 */
// as the CLI does, before graphql loads
import '../../src/production-mode.js';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Address } from '@ton/core';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import type { LocalChain } from '../../src/sources/localnet/index.js';
import { fillChain } from '../../scripts/lib/fill-chain.js';
import { serveRpc } from '../lib/child.js';
import { traceTurns } from './turns.js';

// GC pauses on stdout, for `LOADTEST_TRACE_GC=1 npm run loadtest`
if (process.env.BENCH_TRACE_GC) setFlagsFromString('--trace-gc');
if (process.env.BENCH_V8_FLAGS) setFlagsFromString(process.env.BENCH_V8_FLAGS);
const config = loadConfig(process.argv.slice(2), { ...process.env, PORT: '0', QUIET: '1' }) as Config;
const started = performance.now();
const startedCpu = process.cpuUsage();
const gw = await startGateway(config);
// how long the gateway took to open (on a --data-dir that holds a chain: the restart time), and the CPU it spent
const startMs = performance.now() - started;
const startCpu = process.cpuUsage(startedCpu);
const startCpuMs = (startCpu.user + startCpu.system) / 1000;
// upstream mode may run without a local chain
const chain = (gw as { chain?: LocalChain }).chain;

function mustChain(): LocalChain {
  if (!chain) throw new Error('no local chain in this gateway');
  return chain;
}

// long event-loop turns and what ran in them, for `LOADTEST_TRACE_TURNS=1 npm run loadtest`
const turns = process.env.BENCH_TRACE_TURNS ? traceTurns(gw.app.server) : undefined;
const loop = monitorEventLoopDelay({ resolution: 10 });
const inspector = new Session();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => inspector.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
loop.enable();

serveRpc(
  {
    mem: () => {
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage();
    },
    /** event-loop delay since the last call, ms: the stalls every request in flight waits out */
    loopDelay: () => {
      const h = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, p999: loop.percentile(99.9) / 1e6, max: loop.max / 1e6 };
      loop.reset();
      return h;
    },
    /** long event-loop turns since the last call (BENCH_TRACE_TURNS=1 only) */
    turns: () => turns?.(),
    /** RSS without a GC first (what the process holds under load) */
    rss: () => process.memoryUsage().rss,
    /** the genesis wallets with their keys, and the chain's global id, for clients that sign transfers */
    wallets: () => ({
      globalId: mustChain().globalId,
      keys: mustChain()
        .keyedWallets()
        .map((w) => ({ name: w.name, version: w.version, mnemonic: w.mnemonic, publicKey: w.keyPair.publicKey.toString('hex'), secretKey: w.keyPair.secretKey.toString('hex') })),
    }),
    pending: () => ({ pending: mustChain().store.pending.length, sealed: mustChain().store.sealedTransactions().length }),
    seal: () => mustChain().sealBlock(),
    lastMcSeqno: () => mustChain().store.lastMc.seqno,
    /** credits each address once, one after another, without sealing */
    faucetMany: async (a: { addresses: string[]; amount: string }) => {
      const hashes: string[] = [];
      for (const addr of a.addresses) hashes.push((await mustChain().faucet(Address.parse(addr), BigInt(a.amount))).hash);
      return hashes;
    },
    /** grows the chain to about `target` transactions as the storage scripts do (scripts/lib/fill-chain.ts) */
    fill: (a: { target: number }) => fillChain(mustChain(), a.target),
    storeStats: () => storeStats(mustChain()),
    cpu: () => process.cpuUsage(),
    /** starts V8's sampling heap profiler counting garbage too (what young collections reclaim), for allocation per request */
    allocStart: async () => {
      inspector.connect();
      await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
    },
    /** stops it and writes the profile (a .heapprofile, as Chrome DevTools reads it) to the path given */
    allocStop: async (a: { path: string }) => {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(a.path, JSON.stringify(profile));
      inspector.disconnect();
    },
  },
  () => gw.close(),
);
process.send!({ type: 'ready', url: gw.url, pid: process.pid, hasChain: Boolean(chain), startMs, startCpuMs });

/** What the store holds: records indexed, bytes in the database, bytes the bounded caches hold. */
function storeStats(c: LocalChain) {
  const s = c.store;
  const st = s.stats();
  const sums = s.db.db.prepare('SELECT coalesce(sum(length(boc)), 0) AS boc, coalesce(sum(length(state)), 0) AS state FROM txs').get() as { boc: number; state: number };
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  return {
    transactions: s.sealedTransactions().length,
    pending: s.pending.length,
    messages: st.messages,
    accounts: st.accounts,
    mcBlocks: s.mcBlocks.length,
    shardBlocks: s.shardBlocks.length,
    stateBocBytes: sums.state,
    txBocBytes: sums.boc,
    dbFileBytes: size(s.db.path) + size(`${s.db.path}-wal`),
    /** the streaming event store beside the chain's database (src/sources/localnet/stream-log.ts) */
    eventsFileBytes: size(join(s.db.dir, 'stream-events.db')) + size(join(s.db.dir, 'stream-events.db-wal')),
    cacheBytes: st.cachedBytes,
    cacheEntries: st.cachedEntries,
  };
}
