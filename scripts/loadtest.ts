/**
 * `npm run loadtest [-- --duration 60 --connections 200 --in-process --generator wrk|autocannon]`: starts a gateway
 * on the local chain on loopback, in its own process as `npm start` runs it (with `--in-process`: inside this one,
 * sharing the load generator's event loop, as this script did before), holds mixed REST + GraphQL load with
 * Debian's wrk (bench/lib/wrk.ts) when it is on PATH, else with autocannon (`--generator` picks one) while
 * genesis wallets send signed transfers, then prints requests, errors by status (429 apart: rate limiting is
 * intended), p50/p99/p99.9/max, the gateway's RSS before/after, transfers sent and sealed. Exits 1 on any error
 * other than a 429. Not part of `npm test`. Tracing (own process only): LOADTEST_TRACE_GC=1 prints the gateway's
 * GC pauses, LOADTEST_TRACE_TURNS=1 its event-loop turns over 60 ms and what ran in them, LOADTEST_CPU_PROF=DIR
 * writes its CPU profiles to DIR, LOADTEST_GATEWAY_NODE_OPTIONS=... runs it with those Node options and
 * LOADTEST_GATEWAY_V8_FLAGS=... sets those V8 flags in it at start (ones NODE_OPTIONS refuses, e.g. --no-parallel-scavenge).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Address, beginCell, external, internal, SendMode, storeMessage } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import autocannon from 'autocannon';
import { spawnChild } from '../bench/lib/child.js';
import { runWrk, wrkAvailable } from '../bench/lib/wrk.js';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { genesisWallets, type WalletKeys } from '../src/sources/localnet/chain/genesis.js';
import type { KeyedWallet } from '../src/sources/localnet/index.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '200' },
    'in-process': { type: 'boolean', default: false },
    generator: { type: 'string' },
  },
});
const durationS = Number(values.duration);
const connections = Number(values.connections);
if (!(durationS > 0 && durationS <= 600) || !(connections > 0 && connections <= 1000) || (values.generator !== undefined && values.generator !== 'autocannon' && values.generator !== 'wrk')) {
  console.error('usage: npm run loadtest -- [--duration 1..600] [--connections 1..1000] [--generator wrk|autocannon]');
  process.exit(2);
}
if (values.generator === 'wrk' && !wrkAvailable()) {
  console.error('--generator wrk needs the wrk binary on PATH (Debian: apt-get install -y wrk)');
  process.exit(2);
}
// wrk by default: a C client with no garbage collector or JS event loop of its own, so an answer is timed when it
// arrives. autocannon's process stalls 20-50 ms at its own p99.9 on two shared cores, and an answer that arrives
// during a stall is timed late: its p99.9 followed the generator's stalls run by run (docs/performance-history.md, issue 18)
const generator: 'wrk' | 'autocannon' = (values.generator as 'wrk' | 'autocannon' | undefined) ?? (wrkAvailable() ? 'wrk' : 'autocannon');
if (values.generator === undefined && generator === 'autocannon') {
  console.log('generator: autocannon (wrk is not on PATH; Debian: apt-get install -y wrk). Its own stalls add to the tail it reports.');
}

const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(0)} MB`;

const config = loadConfig([], {}) as Config;

/** The gateway under load: its URL, its genesis wallets, its RSS, and how to stop it. */
interface Target {
  url: string;
  wallets: KeyedWallet[];
  rss(): Promise<number>;
  /** the gateway's event-loop delay percentiles since the last call (own process only) */
  loopDelay?(): Promise<unknown>;
  /** long event-loop turns of the gateway since the last call (own process, LOADTEST_TRACE_TURNS=1) */
  turns?(): Promise<unknown>;
  close(): Promise<void>;
}

async function inProcess(): Promise<Target> {
  const gw = await startGateway({ ...config, host: '127.0.0.1', port: 0, quiet: true });
  return { url: gw.url, wallets: [...gw.chain!.keyedWallets()], rss: async () => process.memoryUsage().rss, close: () => gw.close() };
}

async function ownProcess(): Promise<Target> {
  const child = await spawnChild('gateway', {
    env: {
      ...(process.env.LOADTEST_TRACE_GC ? { BENCH_TRACE_GC: '1' } : {}),
      ...(process.env.LOADTEST_TRACE_TURNS ? { BENCH_TRACE_TURNS: '1' } : {}),
      ...(process.env.LOADTEST_GATEWAY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.LOADTEST_GATEWAY_NODE_OPTIONS } : {}),
      ...(process.env.LOADTEST_GATEWAY_V8_FLAGS ? { BENCH_V8_FLAGS: process.env.LOADTEST_GATEWAY_V8_FLAGS } : {}),
    },
    ...(process.env.LOADTEST_CPU_PROF ? { cpuProfDir: process.env.LOADTEST_CPU_PROF } : {}),
  });
  const w = await child.call<{ globalId: number; keys: { name: string; version: WalletKeys['version']; mnemonic: string[]; publicKey: string; secretKey: string }[] }>('wallets');
  const keys: WalletKeys[] = w.keys.map((k) => ({
    name: k.name,
    version: k.version,
    mnemonic: k.mnemonic,
    keyPair: { publicKey: Buffer.from(k.publicKey, 'hex'), secretKey: Buffer.from(k.secretKey, 'hex') },
  }));
  return {
    url: child.info.url as string,
    wallets: genesisWallets(keys, w.globalId),
    rss: () => child.call<number>('rss'),
    loopDelay: () => child.call('loopDelay'),
    turns: () => child.call('turns'),
    close: () => child.stop(),
  };
}

const target = values['in-process'] ? await inProcess() : await ownProcess();
const url = target.url;
const wallets = target.wallets;
const raw = (w: KeyedWallet) => w.contract.address.toRawString();
const first = raw(wallets[0]!);

const post = async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
};

async function seqnoOf(w: KeyedWallet): Promise<number> {
  const r = await post('/api/v2/runGetMethod', { address: raw(w), method: 'seqno', stack: [] });
  const stack = (r.json as { result?: { stack?: [string, string][] } }).result?.stack;
  if (r.status !== 200 || !stack?.[0]) throw new Error(`seqno of ${raw(w)}: HTTP ${r.status} ${JSON.stringify(r.json)}`);
  return Number(BigInt(stack[0][1]));
}

function transferBoc(w: KeyedWallet, seqno: number, to: Address): string {
  const args = {
    seqno,
    secretKey: w.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    messages: [internal({ to, value: 10_000_000n, bounce: false })],
    timeout: Math.floor(Date.now() / 1000) + 60,
  };
  // v4r2 and v5r1 genesis wallets: same arguments, signatures TypeScript cannot unify
  const body = w.contract instanceof WalletContractV4 ? w.contract.createTransfer(args) : w.contract.createTransfer(args);
  return beginCell()
    .store(storeMessage(external({ to: w.contract.address, body })))
    .endCell()
    .toBoc()
    .toString('base64');
}

const transfers = { sent: 0, rejected: 0, sealed: 0, lost: 0 };
let stopping = false;

/** One wallet: send, wait for its seqno to move (sealed), repeat; bounded by the run's end and a per-send deadline. */
async function sender(w: KeyedWallet, to: Address): Promise<void> {
  while (!stopping) {
    const seqno = await seqnoOf(w);
    const r = await post('/api/v2/sendBoc', { boc: transferBoc(w, seqno, to) });
    if (r.status !== 200) {
      transfers.rejected++;
      await new Promise((res) => setTimeout(res, 500));
      continue;
    }
    transfers.sent++;
    // sealing waits for the next block; a send still unsealed 10 s later counts as lost
    const deadline = Date.now() + 10_000;
    let sealed = false;
    while (Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 100));
      if ((await seqnoOf(w)) > seqno) {
        sealed = true;
        break;
      }
    }
    if (sealed) transfers.sealed++;
    else transfers.lost++;
  }
}

const gql = (query: string) => JSON.stringify({ query });
const requests: autocannon.Request[] = [
  { method: 'GET', path: `/api/v2/getAddressBalance?address=${first}` },
  { method: 'GET', path: `/api/v2/getTransactions?address=${first}&limit=10` },
  { method: 'GET', path: `/api/v3/transactions?account=${first}&limit=10&sort=desc` },
  { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: gql(`{ account(address: "${first}") { balance } }`) },
  {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: gql('{ masterchainInfo { last { seqno genUtime shards { workchain seqno txCount } } } }'),
  },
];

// a GraphQL answer with errors is still HTTP 200; count it as an error too
let graphqlErrors = 0;
for (const r of requests) {
  if (r.path === '/graphql') {
    r.onResponse = (status, body) => {
      if (status === 200 && body.includes('"errors"')) graphqlErrors++;
    };
  }
}

// warm every route once, so the "before" figure is the gateway at rest, not before its first compile
for (const r of requests) {
  const res = await fetch(`${url}${r.path}`, { method: r.method, headers: r.headers as Record<string, string> | undefined, body: r.body as string | undefined });
  if (res.status !== 200) throw new Error(`warm-up ${r.method} ${r.path}: HTTP ${res.status} ${await res.text()}`);
}
// then a short unmeasured pass of the same mix on a few connections, so the measured run starts with the routes
// compiled by V8 (a fresh process runs its first few hundred requests of each route in the interpreter, 5-10x
// slower) rather than measuring JIT warm-up; the 200 connections are still opened inside the measured run
await autocannon({ url, connections: 10, duration: 2, pipelining: 1, timeout: 30, requests: requests.map(({ onResponse: _, ...r }) => r) });
await target.loopDelay?.();
await target.turns?.();
const rssBefore = await target.rss();
let rssPeak = rssBefore;
const sampler = setInterval(() => void target.rss().then((r) => (rssPeak = Math.max(rssPeak, r)), () => undefined), 250);

const where = values['in-process'] ? 'in this process' : 'in its own process';
console.log(
  `load: ${connections} connections for ${durationS} s against ${url} (local chain ${where}, block every ${config.blockInterval} ms), ` +
    `transfers from ${wallets.length} wallets`,
);
const senders = wallets.map((w, i) => sender(w, wallets[(i + 1) % wallets.length]!.contract.address));
// the load generator's own stalls: a response it reads late is measured late, whatever the gateway did
const ownLoop = monitorEventLoopDelay({ resolution: 10 });
ownLoop.enable();
/** What either generator measured, in one shape. */
interface Measured {
  total: number;
  average: number;
  byStatus: (readonly [number, number])[];
  socketErrors: number;
  timeouts: number;
  graphqlErrors: number;
  latency: { p50: number; p99: number; p99_9: number; max: number };
  cpuS: number;
}
let measured: Measured;
if (generator === 'wrk') {
  const w = await runWrk(url, connections, durationS, requests.map(({ method, path, headers, body }) => ({
    method: method ?? 'GET',
    path: path ?? '/',
    headers: headers as Record<string, string> | undefined,
    body: body as string | undefined,
  })));
  measured = {
    total: w.requests,
    average: w.requests / w.durationS,
    byStatus: w.statuses,
    socketErrors: w.socketErrors,
    timeouts: w.timeouts,
    graphqlErrors: w.graphqlErrors,
    latency: w.latency,
    cpuS: w.cpuS,
  };
} else {
  const ownCpu = process.cpuUsage();
  const result = await autocannon({ url, connections, duration: durationS, pipelining: 1, timeout: 30, requests });
  measured = {
    total: result.requests.total,
    average: result.requests.average,
    byStatus: Object.entries(result.statusCodeStats ?? {}).map(([st, v]) => [Number(st), v.count ?? 0] as const),
    socketErrors: result.errors,
    timeouts: result.timeouts,
    graphqlErrors,
    latency: result.latency,
    cpuS: ((u) => (u.user + u.system) / 1e6)(process.cpuUsage(ownCpu)),
  };
}
ownLoop.disable();
stopping = true;
await Promise.all(senders);
clearInterval(sampler);
const loopDelay = await target.loopDelay?.();
const turns = await target.turns?.();
const rssAfter = await target.rss();
await target.close();

const byStatus = measured.byStatus;
const limited = byStatus.filter(([s]) => s === 429).reduce((a, [, n]) => a + n, 0);
const failed = byStatus.filter(([s]) => s >= 300 && s !== 429);
const socketErrors = measured.socketErrors + measured.timeouts;
const errorTotal = failed.reduce((a, [, n]) => a + n, 0) + socketErrors + measured.graphqlErrors;

console.log(`requests:        ${measured.total} (${measured.average.toFixed(0)}/s average, ${generator})`);
console.log(`by status:       ${byStatus.map(([s, n]) => `${s}: ${n}`).join(', ')}`);
console.log(`429 (intended):  ${limited}`);
console.log(`errors:          ${errorTotal} (non-2xx other than 429: ${failed.map(([s, n]) => `${s}: ${n}`).join(', ') || 0}; socket errors ${measured.socketErrors}, timeouts ${measured.timeouts}; GraphQL errors ${measured.graphqlErrors})`);
console.log(`latency:         p50 ${measured.latency.p50} ms, p99 ${measured.latency.p99} ms, p99.9 ${measured.latency.p99_9} ms, max ${measured.latency.max} ms`);
if (loopDelay) console.log(`event-loop delay: ${JSON.stringify(loopDelay, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v))} ms (the gateway's own)`);
console.log(
  generator === 'wrk'
    ? `load generator:  wrk CPU ${((100 * measured.cpuS) / durationS).toFixed(0)} % of a core; this script (transfers only) event-loop delay ` +
        `p99.9 ${(ownLoop.percentile(99.9) / 1e6).toFixed(1)} ms`
    : `load generator:  event-loop delay p50 ${(ownLoop.percentile(50) / 1e6).toFixed(1)}, p99 ${(ownLoop.percentile(99) / 1e6).toFixed(1)}, ` +
        `p99.9 ${(ownLoop.percentile(99.9) / 1e6).toFixed(1)}, max ${(ownLoop.max / 1e6).toFixed(1)} ms; CPU ${((100 * measured.cpuS) / durationS).toFixed(0)} % of a core`,
);
if (turns) console.log(`event-loop turns: ${JSON.stringify(turns, null, 1)}`);
console.log(`RSS:             before ${mb(rssBefore)}, after ${mb(rssAfter)}, peak ${mb(rssPeak)}`);
console.log(`transfers:       ${transfers.sent} sent, ${transfers.sealed} sealed, ${transfers.lost} unsealed after 10 s, ${transfers.rejected} rejected`);
process.exit(errorTotal > 0 || transfers.lost > 0 || transfers.rejected > 0 ? 1 : 0);
