/**
 * The explorer's pages as a new user meets them in upstream mode: a gateway on a local chain (standing in for
 * toncenter), a counting HTTP proxy in front of it (the provider's books), and a gateway in upstream mode,
 * paced at `rps`, in front of the proxy. Each page runs the explorer's own GraphQL documents
 * (src/surfaces/explorer/app/documents.ts) with the variables the page sends, and is measured in upstream
 * calls (what the proxy saw) and time. Shared by scripts/upstream-cost.ts and its test.
 */
import { Address } from '@ton/core';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import { countingProxy, type CountingProxy } from './counting-proxy.js';
import { ACCOUNT_ACTIONS, ACCOUNT_SUMMARY, BLOCK, HOME_LATEST_BLOCKS, TRANSACTION } from '../../src/surfaces/explorer/app/documents.js';

export interface Page {
  name: string;
  query: string;
  variables: Record<string, unknown>;
}

export interface PageRun {
  name: string;
  calls: number;
  byPath: Record<string, number>;
  ms: number;
  status: number;
  /** the GraphQL answer as sent, and parsed */
  text: string;
  body: { data?: unknown; errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[]; extensions?: Record<string, unknown> };
  headers: Headers;
}

export interface PageBench {
  local: Gateway;
  proxy: CountingProxy;
  upstream: Gateway;
  pages: Page[];
  /** runs one page through the upstream-mode gateway (or `via`, another one) and counts what reached the proxy */
  run(page: Page, headers?: Record<string, string>, via?: Gateway): Promise<PageRun>;
  /** another upstream-mode gateway in front of the same proxy, with its own pace and settings (closed with the bench) */
  another(rps: number, env?: Record<string, string>): Promise<Gateway>;
  /** a fresh upstream-mode gateway (cold cache) with the same settings */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function gql(url: string, page: Page, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: PageRun['body']; headers: Headers }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headers },
    body: JSON.stringify({ query: page.query, variables: page.variables }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as PageRun['body'], headers: res.headers };
}

/** Data the pages ask about, found on the local chain's genesis: carol's jetton transfer from alice, its block. */
async function pagesOf(local: Gateway): Promise<Page[]> {
  const wallets = (await (await fetch(`${local.url}/localnet/wallets`)).json()) as { name: string; address: string }[];
  const carol = wallets.find((w) => w.name === 'carol')!.address;
  const find = await gql(local.url, {
    name: 'find',
    query: `query($o: Address!) { jettonTransfers(owner: $o, direction: in, first: 1) { nodes { transaction { hash block { workchain shard seqno } } } } }`,
    variables: { o: carol },
  });
  type Found = { jettonTransfers: { nodes: { transaction: { hash: string; block: { workchain: number; shard: string; seqno: number } } }[] } };
  const { hash, block } = (find.body.data as Found).jettonTransfers.nodes[0]!.transaction;
  const address = Address.parse(carol).toRawString();
  return [
    { name: 'home', query: HOME_LATEST_BLOCKS, variables: { n: 15 } },
    { name: 'account summary', query: ACCOUNT_SUMMARY, variables: { address } },
    { name: 'account actions', query: ACCOUNT_ACTIONS, variables: { address, first: 10 } },
    { name: 'transaction', query: TRANSACTION, variables: { hash } },
    { name: 'block', query: BLOCK, variables: { ...block, first: 20 } },
  ];
}

/**
 * The pages on a wallet's NFT activity (issue 40 measures alice, the genesis marketplace, who passed item 0 to
 * dave): its summary, its actions, the wallet's own transaction of its latest `nft_transfer` action (whose trace
 * shows the item) and the masterchain block that transaction is committed in (the block pages the home page
 * links to, which list shards).
 */
export async function nftPagesOf(local: Gateway, name: string): Promise<Page[]> {
  const wallets = (await (await fetch(`${local.url}/localnet/wallets`)).json()) as { name: string; address: string }[];
  const address = Address.parse(wallets.find((w) => w.name === name)!.address).toRawString();
  const find = await gql(local.url, {
    name: 'find',
    query: 'query($a: Address!) { actions(account: $a, first: 100) { nodes { type transactions { hash mcBlockSeqno account { address } } } } }',
    variables: { a: address },
  });
  type Found = { actions: { nodes: { type: string; transactions: { hash: string; mcBlockSeqno: number; account: { address: string } }[] }[] } };
  const action = (find.body.data as Found).actions.nodes.find((a) => a.type === 'nft_transfer');
  const tx = action?.transactions.find((t) => Address.parse(t.account.address).equals(Address.parse(address)));
  if (!tx) throw new Error(`${name} has no nft_transfer action of its own: ${find.text.slice(0, 300)}`);
  return [
    { name: 'home', query: HOME_LATEST_BLOCKS, variables: { n: 15 } },
    { name: 'account summary', query: ACCOUNT_SUMMARY, variables: { address } },
    { name: 'account actions', query: ACCOUNT_ACTIONS, variables: { address, first: 10 } },
    { name: 'transaction', query: TRANSACTION, variables: { hash: tx.hash } },
    { name: 'block', query: BLOCK, variables: { workchain: -1, shard: '8000000000000000', seqno: tx.mcBlockSeqno, first: 20 } },
  ];
}

export interface BenchOptions {
  rps: number;
  /** ACCOUNT_TTL_MS of the upstream-mode gateway (how long the tip and account states are reused) */
  accountTtlMs?: number;
  /** masterchain blocks sealed before measuring, each with a basechain transfer (the home page shows 15) */
  blocks?: number;
  /** extra environment of the upstream-mode gateway */
  env?: Record<string, string>;
  /** the pages measured (default: carol's, from her jetton transfer) */
  pages?: (local: Gateway) => Promise<Page[]>;
}

export async function startPageBench({ rps, accountTtlMs = 60_000, blocks = 16, env = {}, pages: pagesFor = pagesOf }: BenchOptions): Promise<PageBench> {
  const base = loadConfig([], {}) as Config;
  const local = await startGateway({ ...base, port: 0, quiet: true, blockInterval: 0, seed: 'upstream-pages' });
  const chain = local.chain!;
  const wallets = (await (await fetch(`${local.url}/localnet/wallets`)).json()) as { address: string }[];
  for (let i = 0; i < blocks; i++) {
    // with no block interval the faucet seals a block holding its transfer
    await chain.faucet(Address.parse(wallets[i % wallets.length]!.address), 1_000_000n);
  }
  const pages = await pagesFor(local);
  const proxy = await countingProxy(local.url);
  const upstreamConfig = (pace = rps, more: Record<string, string> = {}): Config => {
    const cfg = loadConfig([], {
      BACKEND: 'toncenter',
      V2_URL: proxy.url,
      V3_URL: proxy.url,
      KEYLESS_RPS: '0',
      UPSTREAM_RPS: String(pace),
      ACCOUNT_TTL_MS: String(accountTtlMs),
      // no background polling: every call the proxy sees is one a page made
      POLL_INTERVAL_MS: '600000',
      ...env,
      ...more,
    }) as Config;
    return { ...cfg, port: 0, quiet: true };
  };
  let upstream = await startGateway(upstreamConfig());
  const others: Gateway[] = [];
  return {
    local,
    proxy,
    get upstream() {
      return upstream;
    },
    pages,
    async run(page, headers = {}, via = upstream) {
      proxy.reset();
      const t0 = performance.now();
      const answer = await gql(via.url, page, headers);
      const ms = performance.now() - t0;
      return { name: page.name, calls: proxy.total(), byPath: Object.fromEntries(proxy.counts), ms, ...answer };
    },
    async another(pace, more = {}) {
      const g = await startGateway(upstreamConfig(pace, more));
      others.push(g);
      return g;
    },
    async restart() {
      await upstream.close();
      upstream = await startGateway(upstreamConfig());
    },
    async close() {
      await Promise.all([upstream, ...others].map((g) => g.close()));
      await proxy.close();
      await local.close();
    },
  };
}
