/**
 * `npx tsx bench/route-cost.ts [name ...]`: the gateway's CPU time per request for each request of
 * `npm run loadtest`'s mix, one at a time (10 connections, 3 s after a 0.5 s unmeasured pass, twice each), on a
 * gateway in its own process as `npm start` runs it. The first genesis wallet gets a dozen faucet transfers first,
 * so its transaction lists are full pages. Names: balance, v2tx, v3tx, gqlBalance, gqlMasterchain. Environment:
 * PROFILE_DIR=DIR writes the gateway's CPU profiles there, TRACE_GC=1 prints its GC pauses, ALLOC_DIR=DIR writes a
 * sampling heap profile of each measured run there (garbage included: what the young generation reclaims; open it
 * in Chrome DevTools' Memory tab) and prints the bytes allocated per request (its CPU figures then include the
 * profiler's own cost), ROUTE_COST_CONNECTIONS=N holds N connections instead of 10 (per-request cost under
 * concurrency).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { spawnChild } from './lib/child.js';
import { load, withCpu } from './lib/load.js';

const wanted = new Set(process.argv.slice(2));
const allocDir = process.env.ALLOC_DIR;
const connections = Number(process.env.ROUTE_COST_CONNECTIONS ?? 10);
if (allocDir) mkdirSync(allocDir, { recursive: true });
const gw = await spawnChild('gateway', {
  ...(process.env.PROFILE_DIR ? { cpuProfDir: process.env.PROFILE_DIR } : {}),
  env: process.env.TRACE_GC ? { BENCH_TRACE_GC: '1' } : {},
});
try {
  const url = gw.info.url as string;
  const wallets = (await (await fetch(`${url}/localnet/wallets`)).json()) as { address: string }[];
  const first = wallets[0]!.address;
  const json = { 'content-type': 'application/json' };
  const gql = (query: string, variables?: Record<string, unknown>): autocannon.Request => ({ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query, variables }) });
  const requests: Record<string, autocannon.Request> = {
    balance: { method: 'GET', path: `/api/v2/getAddressBalance?address=${first}` },
    v2tx: { method: 'GET', path: `/api/v2/getTransactions?address=${first}&limit=10` },
    v3tx: { method: 'GET', path: `/api/v3/transactions?account=${first}&limit=10&sort=desc` },
    gqlBalance: gql('query A($a: Address!) { account(address: $a) { balance } }', { a: first }),
    gqlMasterchain: gql('{ masterchainInfo { last { seqno genUtime shards { workchain seqno txCount } } } }'),
  };
  for (let i = 0; i < 12; i++) {
    const r = await fetch(`${url}/localnet/faucet`, { method: 'POST', headers: json, body: JSON.stringify({ address: first, amount: '1000000' }) });
    if (r.status !== 200) throw new Error(`faucet: HTTP ${r.status} ${await r.text()}`);
  }
  for (let rep = 0; rep < 2; rep++) {
    for (const [name, request] of Object.entries(requests)) {
      if (wanted.size > 0 && !wanted.has(name)) continue;
      await load({ url, connections, durationS: 0.5, requests: [request] });
      if (allocDir) await gw.call('allocStart');
      const r = await withCpu(gw, () => load({ url, connections, durationS: 3, requests: [request] }));
      let allocated = '';
      if (allocDir) {
        const path = join(allocDir, `${name}-${rep + 1}.heapprofile`);
        await gw.call('allocStop', { path });
        const { samples } = JSON.parse(readFileSync(path, 'utf8')) as { samples: { size: number }[] };
        allocated = `  ${(samples.reduce((a, s) => a + s.size, 0) / r.requests / 1024).toFixed(1).padStart(5)} KB allocated/req`;
      }
      console.log(`${name.padEnd(15)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs!.toFixed(0).padStart(4)} µs CPU/req${allocated}`);
    }
  }
} finally {
  await gw.stop();
}
