/**
 * Work counted, not timed (issue 40): each warm hot read, over real HTTP on loopback, costs a fixed small number
 * of expensive operations per request, counted from the test side (test/helpers/work-count.ts) on an in-process
 * gateway on its local chain; and through a gateway in upstream mode in front of that one, a fixed number of
 * upstream calls (a counting proxy between them). A read that starts serialising and parsing BoCs per request
 * (as v3 account reads did with config param 44) changes these counts long before a benchmark notices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingProxy, type CountingProxy } from '../../scripts/lib/counting-proxy.js';
import { nftPagesOf } from '../../scripts/lib/upstream-pages.js';
import type { Gateway } from '../../src/gateway.js';
import { BLOCK, TRANSACTION } from '../../src/surfaces/explorer/app/documents.js';
import { fetchWallets, startTestGateway } from '../helpers/gateway.js';
import { countWork, type Work, type WorkCounter } from '../helpers/work-count.js';
import { startUpstreamGateway } from '../sources/upstream/helpers.js';

let local: Gateway;
let proxy: CountingProxy;
let upstream: Gateway;
let counter: WorkCounter;
const reads: Record<string, (base: string) => Promise<string>> = {};

async function answer(url: string, init?: RequestInit): Promise<string> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text;
}

const graphql = (query: string, variables: Record<string, unknown>) => (base: string) =>
  answer(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });

beforeAll(async () => {
  local = await startTestGateway();
  // alice's pages as the explorer sends them: her account, and her transaction in her NFT transfer to dave (its
  // trace holds token actions)
  const pages = Object.fromEntries((await nftPagesOf(local, 'alice')).map((p) => [p.name, p]));
  const alice = pages['account summary']!.variables.address as string;
  // the basechain block holding that transaction (the masterchain blocks of the local chain hold none, and an
  // empty list is not final data an upstream-mode gateway keeps)
  type Tx = { data: { transaction: { block: { workchain: number; shard: string; seqno: number } } } };
  const { block } = (JSON.parse(await graphql(TRANSACTION, pages.transaction!.variables)(local.url)) as Tx).data.transaction;
  reads['GraphQL account { balance }'] = graphql('query($a: Address!) { account(address: $a) { balance } }', { a: alice });
  reads['v2 getAddressBalance'] = (base) => answer(`${base}/api/v2/getAddressBalance?address=${alice}`);
  reads['v3 accountStates'] = (base) => answer(`${base}/api/v3/accountStates?address=${alice}`);
  reads['block view (the explorer block page)'] = graphql(BLOCK, { ...block, first: 20 });
  reads['transaction with its trace (the explorer transaction page)'] = graphql(TRANSACTION, pages.transaction!.variables);
  proxy = await countingProxy(local.url);
  // account states reused for a minute: a warm read within it asks the upstream nothing
  upstream = await startUpstreamGateway(proxy.url, { ACCOUNT_TTL_MS: '60000', POLL_INTERVAL_MS: '600000', UPSTREAM_RPS: '0' });
  counter = countWork();
}, 120_000);

afterAll(async () => {
  counter?.restore();
  await upstream?.close();
  await proxy?.close();
  await local?.close();
});

/** The work of one warm request: the read is run twice first and the gateway left idle, then counted three times, which must agree. */
async function warmWork(read: (base: string) => Promise<string>, base: string): Promise<Work> {
  await read(base);
  await read(base);
  await counter.quiet();
  const counts = [await counter.during(() => read(base)), await counter.during(() => read(base)), await counter.during(() => read(base))];
  expect(counts[1]).toEqual(counts[0]);
  expect(counts[2]).toEqual(counts[0]);
  return counts[0]!;
}

const NONE: Work = { bocParses: 0, bocSerialisations: 0, configReads: 0, getMethodRuns: 0, sqliteStatements: 0 };

/**
 * What one warm request costs on the local chain: everything from the store's in-memory index and its parsed
 * objects. An account read through v3 (GraphQL's account and /accountStates) reads config param 44 once for its
 * `suspended` member, from the chain's parsed config.
 */
const LOCAL: Record<string, Work> = {
  'GraphQL account { balance }': { ...NONE, configReads: 1 },
  'v2 getAddressBalance': NONE,
  'v3 accountStates': { ...NONE, configReads: 1 },
  'block view (the explorer block page)': NONE,
  'transaction with its trace (the explorer transaction page)': NONE,
};

describe('work per warm hot read', () => {
  for (const name of Object.keys(LOCAL)) {
    it(`local chain: ${name}`, async () => {
      expect(await warmWork(reads[name]!, local.url)).toEqual(LOCAL[name]);
    });
  }

  for (const name of Object.keys(LOCAL)) {
    it(`upstream mode, warm within the account TTL: ${name} asks the upstream nothing and parses nothing`, async () => {
      const read = reads[name]!;
      await read(upstream.url);
      proxy.reset();
      expect(await warmWork(read, upstream.url)).toEqual(NONE);
      expect(Object.fromEntries(proxy.counts)).toEqual({});
    });
  }

  it('the counters see the work they count: a faucet transfer, a get-method, a config param over v2 (last: the transfer seals a block)', async () => {
    const wallet = (await fetchWallets(local.url))[1]!.address;
    const faucet = await counter.during(() =>
      answer(`${local.url}/localnet/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: wallet, amount: '1000' }) }),
    );
    expect(faucet.bocSerialisations).toBeGreaterThan(0);
    expect(faucet.sqliteStatements).toBeGreaterThan(0);
    // the transfer sealed a block: the wallet's seqno is asked of its new state
    const get = await counter.during(() => answer(`${local.url}/api/v2/runGetMethod`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: wallet, method: 'seqno', stack: [] }) }));
    expect(get.getMethodRuns).toBeGreaterThanOrEqual(1);
    await counter.quiet();
    expect(await counter.during(() => answer(`${local.url}/api/v2/getConfigParam?config_id=44`))).toEqual({ ...NONE, configReads: 1, bocSerialisations: 1 });
  });
});
