/**
 * Scenario 6: what a block explorer's page needs (the masterchain block, its shards, every transaction, their
 * messages, the balance of every account touched), over a link adding 20 ms per request: one GraphQL request
 * against the REST calls a client must chain, each level only once the previous one named its objects.
 */
import { Address } from '@ton/core';
import { takeChild, type SpawnOptions } from '../lib/child.js';
import { median } from '../lib/load.js';
import { startDelayProxy } from '../lib/proxy.js';
import type { Row, RunOptions } from './types.js';

/** a block that never seals on its own, so it collects everything the fill sends */
export const BLOCK_GATEWAY = (o: RunOptions): [string, SpawnOptions] => ['gateway', { args: ['--block-interval', '3600000'], cpuProfDir: o.profDir }];

const DELAY_MS = 20;
/** a browser opens at most 6 HTTP/1.1 connections per host, so independent calls go 6 at a time */
const CONCURRENCY = 6;
const SHARD_ALL = '-9223372036854775808';

const TX_FIELDS = `hash lt now totalFees account { address balance }
  inMessage { hash value source { address balance } destination { address balance } }
  outMessages { hash value source { address balance } destination { address balance } }`;
const BLOCK_QUERY = `query BlockView($after: String) {
  masterchainInfo { last {
    workchain shard seqno rootHash fileHash genUtime startLt endLt txCount
    transactions(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${TX_FIELDS} } }
    shards { workchain shard seqno rootHash fileHash genUtime startLt endLt txCount
      transactions(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${TX_FIELDS} } } }
  } } }`;

interface View {
  transactions: number;
  accounts: number;
}

async function pool<T, R>(items: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        out[k] = await fn(items[k]!);
      }
    }),
  );
  return out;
}

async function getJson(url: string): Promise<any> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** The REST way: v2 for ids and transactions (messages come inside), v3 for block headers, v2 per balance. */
async function restView(base: string): Promise<View> {
  const info = await getJson(`${base}/api/v2/getMasterchainInfo`);
  const mc = info.result.last as { seqno: number };
  const [, shardsAns] = await Promise.all([
    getJson(`${base}/api/v3/blocks?workchain=-1&seqno=${mc.seqno}`),
    getJson(`${base}/api/v2/shards?seqno=${mc.seqno}`),
  ]);
  const blocks = [{ workchain: -1, shard: SHARD_ALL, seqno: mc.seqno }, ...(shardsAns.result.shards as { workchain: number; shard: string; seqno: number }[])];
  const ids: { account: string; lt: string; hash: string }[] = [];
  await pool(blocks, CONCURRENCY, async (b) => {
    if (b.workchain !== -1) await getJson(`${base}/api/v3/blocks?workchain=${b.workchain}&shard=${shardHex(b.shard)}&seqno=${b.seqno}`);
    let after = '';
    for (;;) {
      const page = await getJson(`${base}/api/v2/getBlockTransactions?workchain=${b.workchain}&shard=${b.shard}&seqno=${b.seqno}&count=40${after}`);
      const txs = page.result.transactions as { account: string; lt: string; hash: string }[];
      ids.push(...txs);
      if (!page.result.incomplete || txs.length === 0) break;
      const last = txs[txs.length - 1]!;
      // v2 pages by (account, lt): after_hash names the account, not the transaction
      after = `&after_lt=${last.lt}&after_hash=${last.account.split(':')[1]}`;
    }
  });
  const txs = await pool(ids, CONCURRENCY, async (t) => {
    const ans = await getJson(`${base}/api/v2/getTransactions?address=${t.account}&lt=${t.lt}&hash=${encodeURIComponent(t.hash)}&limit=1`);
    return ans.result[0];
  });
  const accounts = new Set<string>();
  // v2 prints message ends user-friendly and the account raw; one form so each account counts once
  const raw = (a: string) => Address.parse(a).toRawString();
  for (const t of txs) {
    accounts.add(raw(t.account ?? t.address.account_address));
    for (const m of [t.in_msg, ...(t.out_msgs ?? [])]) {
      if (m?.source) accounts.add(raw(m.source));
      if (m?.destination) accounts.add(raw(m.destination));
    }
  }
  await pool([...accounts], CONCURRENCY, (a) => getJson(`${base}/api/v2/getAddressBalance?address=${encodeURIComponent(a)}`));
  return { transactions: txs.length, accounts: accounts.size };
}

const shardHex = (signed: string) => BigInt.asUintN(64, BigInt(signed)).toString(16).toUpperCase().padStart(16, '0');

async function graphqlView(base: string): Promise<View> {
  const accounts = new Set<string>();
  let transactions = 0;
  let after: string | null = null;
  // pages of more than 100 transactions cost one more request each
  for (;;) {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: BLOCK_QUERY, variables: { after } }),
    });
    const ans = (await res.json()) as any;
    if (ans.errors) throw new Error(`graphql: ${JSON.stringify(ans.errors).slice(0, 500)}`);
    const last = ans.data.masterchainInfo.last;
    let more: string | null = null;
    for (const b of [last, ...last.shards]) {
      for (const t of b.transactions.nodes) {
        transactions++;
        accounts.add(t.account.address);
        for (const m of [t.inMessage, ...t.outMessages]) {
          if (m?.source) accounts.add(m.source.address);
          if (m?.destination) accounts.add(m.destination.address);
        }
      }
      if (b.transactions.pageInfo.hasNextPage) more = b.transactions.pageInfo.endCursor;
    }
    if (!more) break;
    after = more;
  }
  return { transactions, accounts: accounts.size };
}

export async function blockViewScenario(o: RunOptions, faucets = 45): Promise<Row> {
  const gw = await takeChild('block-gw', ...BLOCK_GATEWAY(o));
  const proxy = await startDelayProxy(gw.info.url as string, DELAY_MS);
  try {
    const addresses = Array.from({ length: faucets }, (_, i) => `0:${(0xb10c0000 + i).toString(16).padStart(64, '0')}`);
    await gw.call('faucetMany', { addresses, amount: '2000000000' });
    await gw.call('seal');
    // unmeasured pass: warms both paths and checks they see the same block
    const g0 = await graphqlView(proxy.url);
    const r0 = await restView(proxy.url);
    if (g0.transactions !== r0.transactions || g0.accounts !== r0.accounts) {
      throw new Error(`block views differ: graphql ${JSON.stringify(g0)} rest ${JSON.stringify(r0)}`);
    }
    const rest = { ms: [] as number[], trips: [] as number[] };
    const gql = { ms: [] as number[], trips: [] as number[] };
    for (let i = 0; i < o.reps; i++) {
      for (const [side, fn] of [
        [rest, restView],
        [gql, graphqlView],
      ] as const) {
        proxy.reset();
        const t0 = performance.now();
        await fn(proxy.url);
        side.ms.push(performance.now() - t0);
        side.trips.push(proxy.count());
      }
      o.log(`  block view rep ${i + 1}: REST ${rest.trips[i]} trips ${rest.ms[i]!.toFixed(0)} ms; GraphQL ${gql.trips[i]} trips ${gql.ms[i]!.toFixed(0)} ms`);
    }
    const s = { roundTrips: median(gql.trips), wallMs: median(gql.ms) };
    const b = { roundTrips: median(rest.trips), wallMs: median(rest.ms) };
    return {
      id: 6,
      scenario: `block view: 1 GraphQL request vs REST calls, +${DELAY_MS} ms/request proxy`,
      metric: 'round trips saved (REST / GraphQL)',
      subject: s,
      baseline: b,
      ratio: b.roundTrips / s.roundTrips,
      target: 10,
      extra: [{ metric: 'wall time saved (REST / GraphQL)', ratio: b.wallMs / s.wallMs, target: 3 }],
      note: `${r0.transactions} transactions, ${r0.accounts} accounts; REST client ${CONCURRENCY} calls in parallel per level`,
    };
  } finally {
    await proxy.close();
    await gw.stop();
  }
}
