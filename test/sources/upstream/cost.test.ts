/**
 * Issue 30 over real HTTP on loopback: a gateway on a local chain, a counting proxy in front of it, and gateways
 * in upstream mode in front of the proxy (scripts/lib/upstream-pages.ts). The explorer's pages cost at most the
 * issue's number of upstream calls with a cold cache and none when opened again; `X-Upstream-Report: 1` says
 * what an answer cost (GraphQL extensions, REST header) and changes nothing else; `Prefer: wait=N` gets what
 * arrived within N s, the rest null and coded UPSTREAM_DEADLINE, and the calls it gave up on fill the cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { Address } from '@ton/core';
import { startPageBench, type Page, type PageBench } from '../../../scripts/lib/upstream-pages.js';
import { ACCOUNT_SUMMARY } from '../../../src/surfaces/explorer/app/documents.js';

/**
 * The goals. The home page makes its 2 while at most 16 masterchain blocks share a second (the block
 * list's keyset page fetches 16 past the page, as v3 /blocks orders by gen_utime only, and drops the group of equal
 * gen_utime its limit may cut; mainnet seals 2-3 a second); the bench's chain seals its 16 fill blocks within a
 * second or two. The account summary makes its 3 by reading the jetton masters from their account states in the
 * one /accountStates call the owner's state goes out in (wallets and NFT items first, in parallel); the account
 * actions make their 2 because the item's /nft/items answer embeds its collection and the jetton master comes
 * from the rows the summary kept.
 */
const GOALS: Record<string, number> = { home: 2, 'account summary': 3, 'account actions': 2, transaction: 2, block: 2 };

let bench: PageBench;
/** paced like keyless toncenter */
let paced: Gateway;

beforeAll(async () => {
  bench = await startPageBench({ rps: 0 });
  paced = await bench.another(1);
}, 120_000);

afterAll(async () => {
  await bench?.close();
});

const page = (name: string): Page => bench.pages.find((p) => p.name === name)!;

describe('upstream calls per explorer page', () => {
  it('each page within the goal cold, and none at all opened again within the TTL', async () => {
    for (const p of bench.pages) {
      const cold = await bench.run(p);
      expect(cold.body.errors, p.name).toBeUndefined();
      expect(cold.calls, `${p.name}: ${JSON.stringify(cold.byPath)}`).toBeLessThanOrEqual(GOALS[p.name]!);
      expect(cold.calls, p.name).toBeGreaterThan(0);
      // byte for byte the local chain's own answer: the masters read from states as /jetton/masters answers them
      expect(cold.text, p.name).toBe((await bench.run(p, {}, bench.local)).text);
    }
    for (const p of bench.pages) {
      const warm = await bench.run(p);
      expect(warm.calls, `${p.name} again: ${JSON.stringify(warm.byPath)}`).toBe(0);
    }
  });

  it("the account's actions after its summary within the TTL: the NFT items the summary listed are not asked again", async () => {
    await bench.restart();
    const summary = await bench.run(page('account summary'));
    expect(summary.byPath['/api/v3/nft/items']).toBe(1);
    const actions = await bench.run(page('account actions'));
    expect(actions.byPath).toEqual({ '/api/v3/actions': 1 });
    expect(actions.text).toBe((await bench.run(page('account actions'), {}, bench.local)).text);
    // a fresh gateway asks for them; the item's /nft/items answer embeds its collection: no /nft/collections call
    await bench.restart();
    const cold = await bench.run(page('account actions'));
    expect(cold.byPath['/api/v3/nft/items']).toBe(1);
    expect(cold.byPath['/api/v3/nft/collections']).toBeUndefined();
  });

  it('past the account TTL a kept NFT item still answers what never changes; its owner is asked again', async () => {
    const short = await bench.another(0, { ACCOUNT_TTL_MS: '50' });
    await bench.run(page('account summary'), {}, short);
    await new Promise((r) => setTimeout(r, 100));
    const actions = await bench.run(page('account actions'), {}, short);
    expect(actions.byPath['/api/v3/nft/items']).toBeUndefined();
    expect(actions.text).toBe((await bench.run(page('account actions'), {}, bench.local)).text);
    type Items = { actions: { nodes: { details: { item?: { address: string } } }[] } };
    const item = (actions.body.data as Items).actions.nodes.map((n) => n.details.item).find((i) => i)!;
    const query = `query($a: Address!) { nftItem(address: $a) { address content { name } owner { address } collection { content { name } owner { address } } } }`;
    const ownerPage: Page = { name: 'item owner', query, variables: { a: item.address } };
    await new Promise((r) => setTimeout(r, 100));
    const owner = await bench.run(ownerPage, {}, short);
    expect(owner.byPath).toEqual({ '/api/v3/nft/items': 1, '/api/v3/nft/collections': 1 });
    expect(owner.text).toBe((await bench.run(ownerPage, {}, bench.local)).text);
  });

  it('a masterchain block page on a fresh gateway: the block and its shards in one call, its empty transaction list asked of nobody, none again', async () => {
    const block = page('block');
    const mc = await bench.run({ name: 'mc', query: '{ masterchainInfo { last { seqno } } }', variables: {} }, {}, bench.local);
    const seqno = (mc.body.data as { masterchainInfo: { last: { seqno: number } } }).masterchainInfo.last.seqno;
    const mcPage: Page = { name: 'masterchain block', query: block.query, variables: { workchain: -1, shard: '8000000000000000', seqno, first: 20 } };
    await bench.restart();
    const cold = await bench.run(mcPage);
    expect(cold.byPath).toEqual({ '/api/v3/masterchainBlockShards': 1 });
    const data = cold.body.data as { block: { txCount: number; shards: unknown[]; transactions: { nodes: unknown[] } } };
    expect(data.block.txCount).toBe(0);
    expect(data.block.shards.length).toBeGreaterThan(0);
    expect(cold.text).toBe((await bench.run(mcPage, {}, bench.local)).text);
    expect((await bench.run(mcPage)).calls).toBe(0);
  });

  it("the home page's shard blocks are those /masterchainBlockShards lists for each block", async () => {
    const { body } = await bench.run(page('home'));
    type Row = { seqno: number; shards: { workchain: number; shard: string; seqno: number }[] };
    const rows = (body.data as { blocks: { nodes: Row[] } }).blocks.nodes;
    expect(rows.length).toBe(15);
    let shards = 0;
    for (const row of rows) {
      const res = await fetch(`${bench.local.url}/api/v3/masterchainBlockShards?seqno=${row.seqno}`);
      const listed = res.status === 404 ? [] : ((await res.json()) as { blocks: { workchain: number; shard: string; seqno: number }[] }).blocks;
      const expected = listed.filter((b) => b.workchain !== -1).map((b) => `${b.workchain}:${b.shard}:${b.seqno}`);
      expect(row.shards.map((b) => `${b.workchain}:${b.shard}:${b.seqno}`).sort(), `mc ${row.seqno}`).toEqual(expected.sort());
      shards += expected.length;
    }
    expect(shards).toBeGreaterThan(0);
  });
});

describe("the account summary's calls", () => {
  type Summary = { account: { jettonWallets: { nodes: { jetton: { content: { symbol: string } | null } | null }[] }; nftItems: { nodes: unknown[] } } };
  const summaryOf = async (name: string): Promise<Page> => {
    const wallets = (await (await fetch(`${bench.local.url}/localnet/wallets`)).json()) as { name: string; address: string }[];
    const address = Address.parse(wallets.find((w) => w.name === name)!.address).toRawString();
    return { name: `account summary of ${name}`, query: ACCOUNT_SUMMARY, variables: { address } };
  };

  it("cold: wallets and NFT items, then one /accountStates call for the owner and its wallets' masters", async () => {
    const fresh = await bench.another(0);
    const cold = await bench.run(page('account summary'), {}, fresh);
    expect(cold.body.errors).toBeUndefined();
    expect(cold.byPath).toEqual({ '/api/v3/accountStates': 1, '/api/v3/jetton/wallets': 1, '/api/v3/nft/items': 1 });
    const symbols = (cold.body.data as Summary).account.jettonWallets.nodes.map((w) => w.jetton?.content?.symbol);
    expect(symbols).toEqual(['LGC']);
    // pages that show the same jetton within the TTL ask no master: the rows read from the states are kept
    const tx = await bench.run(page('transaction'), {}, fresh);
    expect(tx.body.errors).toBeUndefined();
    // the transaction comes inside its trace's answer: one call for both
    expect(tx.byPath).toEqual({ '/api/v3/traces': 1 });
    // the NFT items the summary listed are kept for the TTL, with the collections their rows embed
    const actions = await bench.run(page('account actions'), {}, fresh);
    expect(actions.body.errors).toBeUndefined();
    expect(actions.byPath).toEqual({ '/api/v3/actions': 1 });
  });

  it('under Prefer: wait the owner\'s state is not held for the masters: the account comes first, the masters in a call of their own', async () => {
    const fresh = await bench.another(0);
    const cold = await bench.run(page('account summary'), { prefer: 'wait=30' }, fresh);
    expect(cold.body.errors).toBeUndefined();
    expect(cold.byPath).toEqual({ '/api/v3/accountStates': 2, '/api/v3/jetton/wallets': 1, '/api/v3/nft/items': 1 });
  });

  it('an account holding no jetton costs 3: the masters are never asked', async () => {
    const fresh = await bench.another(0);
    // dave holds the NFT alice gave him and no jetton wallet
    const cold = await bench.run(await summaryOf('dave'), {}, fresh);
    expect(cold.body.errors).toBeUndefined();
    const { account } = cold.body.data as Summary;
    expect(account.jettonWallets.nodes).toEqual([]);
    expect(account.nftItems.nodes.length).toBeGreaterThan(0);
    expect(cold.byPath).toEqual({ '/api/v3/accountStates': 1, '/api/v3/jetton/wallets': 1, '/api/v3/nft/items': 1 });
  });

  it('a second holder of the same jettons within the TTL costs 3 as well, its masters read in its own held call', async () => {
    const fresh = await bench.another(0);
    const alice = await bench.run(await summaryOf('alice'), {}, fresh);
    expect(alice.byPath['/api/v3/jetton/masters']).toBeUndefined();
    const carol = await bench.run(page('account summary'), {}, fresh);
    expect(carol.body.errors).toBeUndefined();
    const symbols = (carol.body.data as Summary).account.jettonWallets.nodes.map((w) => w.jetton?.content?.symbol);
    expect(symbols).toEqual(['LGC']);
    expect(carol.byPath).toEqual({ '/api/v3/accountStates': 1, '/api/v3/jetton/wallets': 1, '/api/v3/nft/items': 1 });
  });
});

describe('collections embedded in item answers', () => {
  it('a collection asked alone (no item answer of the level embeds it) is asked of /nft/collections', async () => {
    const actions = await bench.run(page('account actions'), {}, bench.local);
    type Nodes = { actions: { nodes: { type: string; details: { item?: { address: string } | null } }[] } };
    const item = (actions.body.data as Nodes).actions.nodes.find((n) => n.type === 'nft_transfer')!.details.item!.address;
    const of = await bench.run({ name: 'item', query: 'query($a: Address!) { nftItem(address: $a) { collection { address } } }', variables: { a: item } }, {}, bench.local);
    const collection = (of.body.data as { nftItem: { collection: { address: string } } }).nftItem.collection.address;
    const query = 'query($a: Address!) { nftCollection(address: $a) { content { name } } }';
    const alone = await bench.run({ name: 'collection', query, variables: { a: collection } });
    expect(alone.body.errors).toBeUndefined();
    expect(alone.byPath).toEqual({ '/api/v3/nft/collections': 1 });
    expect(alone.text).toBe((await bench.run({ name: 'collection', query, variables: { a: collection } }, {}, bench.local)).text);
  });
});

describe('X-Upstream-Report', () => {
  it('GraphQL: extensions.upstream counts the calls per route the upstream saw, then the cache hits', async () => {
    const fresh = await bench.another(0);
    const cold = await bench.run(page('transaction'), { 'x-upstream-report': '1' }, fresh);
    const report = cold.body.extensions!.upstream as { calls: number; cacheHits: number; waitedMs: number; byRoute: Record<string, number>; budget: unknown };
    expect(report.calls).toBe(cold.calls);
    expect(Object.fromEntries(Object.entries(report.byRoute).map(([r, n]) => [r, n]))).toEqual(cold.byPath);
    expect(report.cacheHits).toBe(0);
    expect(report.waitedMs).toBeGreaterThanOrEqual(0);
    // unpaced: no budget to speak of
    expect(report.budget).toEqual({ rps: 0, remaining: null });
    expect(JSON.parse(cold.headers.get('x-upstream-report')!)).toEqual(report);
    expect(cold.headers.get('cache-control')).toBe('no-store');

    const warm = await bench.run(page('transaction'), { 'x-upstream-report': '1' }, fresh);
    expect(warm.body.extensions!.upstream).toMatchObject({ calls: 0, byRoute: {}, cacheHits: expect.any(Number) });
    expect((warm.body.extensions!.upstream as { cacheHits: number }).cacheHits).toBeGreaterThan(0);
  });

  it('a paced client reports its rate and what is left of it', async () => {
    const r = await bench.run(page('account actions'), { 'x-upstream-report': '1' }, paced);
    const report = r.body.extensions!.upstream as { budget: { rps: number; remaining: number } };
    expect(report.budget.rps).toBe(1);
    expect(report.budget.remaining).toBeGreaterThanOrEqual(0);
    expect(report.budget.remaining).toBeLessThanOrEqual(1);
  });

  it('without the header the answer is byte for byte the same as with it, less the report', async () => {
    for (const p of bench.pages) {
      const plain = await bench.run(p);
      const reported = await bench.run(p, { 'x-upstream-report': '1' });
      expect(plain.headers.get('x-upstream-report')).toBeNull();
      expect(plain.headers.get('preference-applied')).toBeNull();
      const { extensions, ...rest } = reported.body;
      expect(Object.keys(extensions!)).toEqual(['upstream']);
      expect(plain.text, p.name).toBe(JSON.stringify(rest));
    }
  });

  it('REST v2 and v3: the same object in a response header, the body unchanged', async () => {
    const address = page('account summary').variables.address as string;
    for (const path of [`/api/v3/walletStates?address=${address}`, `/api/v2/getAddressBalance?address=${address}`]) {
      const fresh = await bench.another(0);
      const plain = await fetch(`${fresh.url}${path}`);
      const plainText = await plain.text();
      expect(plain.headers.get('x-upstream-report')).toBeNull();
      const reported = await fetch(`${fresh.url}${path}`, { headers: { 'x-upstream-report': '1' } });
      expect(await reported.text()).toBe(plainText);
      // the plain request filled the cache for the TTL: the reported one is a hit
      expect(JSON.parse(reported.headers.get('x-upstream-report')!)).toEqual({ calls: 0, cacheHits: 1, waitedMs: 0, byRoute: {}, budget: { rps: 0, remaining: null } });
    }
  });
});

describe('Prefer: wait=N', () => {
  it('GraphQL: what arrived in time, the rest null and coded UPSTREAM_DEADLINE at its path; the next request reads the cache', async () => {
    // a cold gateway paced at 1/s: the account summary takes about five seconds
    const cold = await bench.another(1);
    const t0 = performance.now();
    const first = await bench.run(page('account summary'), { prefer: 'wait=2', 'x-upstream-report': '1' }, cold);
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(first.status).toBe(200);
    expect(first.headers.get('preference-applied')).toBe('wait=2');
    const errors = first.body.errors ?? [];
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      expect(e.extensions?.code).toBe('UPSTREAM_DEADLINE');
      expect(e.message).toContain(`at ${e.path!.join('.')}`);
    }
    // the account itself arrived: its own fields are filled
    const account = (first.body.data as { account: { balance: string } | null }).account;
    expect(account?.balance).toMatch(/^\d+$/);
    const before = first.body.extensions!.upstream as { calls: number };

    // the calls given up on go on into the cache: once they are in, the same page costs less than the rest of it
    await new Promise((r) => setTimeout(r, 3_500));
    const next = await bench.run(page('account summary'), { 'x-upstream-report': '1' }, cold);
    expect(next.body.errors).toBeUndefined();
    const after = next.body.extensions!.upstream as { calls: number; cacheHits: number };
    expect(after.cacheHits).toBeGreaterThan(0);
    expect(before.calls + after.calls).toBeLessThanOrEqual(GOALS['account summary']! + 2);
    expect(next.headers.get('preference-applied')).toBeNull();
  }, 30_000);

  it('REST: 504 in the surface envelope naming the deadline, with Preference-Applied', async () => {
    const busy = await bench.another(1);
    // three uncached calls ahead of it in the 1/s queue
    const ahead = [1, 2, 3].map((n) => fetch(`${busy.url}/api/v3/transactions?limit=${n}&sort=asc`));
    await new Promise((r) => setTimeout(r, 50));
    const address = page('account summary').variables.address as string;
    const t0 = performance.now();
    const [v3, v2] = await Promise.all([
      fetch(`${busy.url}/api/v3/walletStates?address=${address}`, { headers: { prefer: 'wait=1' } }),
      fetch(`${busy.url}/api/v2/getWalletInformation?address=${address}`, { headers: { prefer: 'respond-async, wait=1' } }),
    ]);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(v3.status).toBe(504);
    expect(v3.headers.get('preference-applied')).toBe('wait=1');
    expect(await v3.json()).toEqual({ code: 504, error: expect.stringMatching(/deadline of 1 s \(Prefer: wait=1\)/) });
    expect(v2.status).toBe(504);
    expect(v2.headers.get('preference-applied')).toBe('wait=1');
    expect(await v2.json()).toMatchObject({ ok: false, code: 504, error: expect.stringMatching(/deadline of 1 s/) });
    await Promise.all(ahead);
  }, 30_000);

  it('a wait past the bound is served as the bound; one that is not a positive integer is ignored', async () => {
    const p = page('account actions');
    expect((await bench.run(p, { prefer: 'wait=3600' })).headers.get('preference-applied')).toBe('wait=60');
    for (const prefer of ['wait=0', 'wait=soon', 'wait=-1', 'return=minimal']) {
      const r = await bench.run(p, { prefer });
      expect(r.headers.get('preference-applied'), prefer).toBeNull();
      expect(r.body.errors, prefer).toBeUndefined();
    }
  });
});
