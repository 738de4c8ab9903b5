/**
 * The nested graph over the local chain, end to end on loopback: the two queries of the batching bound
 * (issue 4) answer what the v3 REST routes answer for the same objects, in at most 5 data-source calls each,
 * read from GET /metrics.
 *
 * With GRAPH_BACKEND=upstream (test/sources/upstream/graph.test.ts) the same suite runs against a gateway in upstream
 * mode whose V2Api/V3Api are HTTP clients in front of a second server on the local chain.
 */
import { createHash } from 'node:crypto';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { registerV2Routes } from '../../../src/surfaces/rest/v2.js';
import { createUpstream } from '../../../src/remote/upstream.js';
import { rawUpper } from '../../../src/model/address.js';
import { gql, measuredQuery, rest, startServer, total, type TestServer } from './helpers.js';

const FRESH_ACCOUNTS = 45;
const HUB_TRANSFERS = 110;
const TON = 1_000_000_000n;

const UPSTREAM = process.env.GRAPH_BACKEND === 'upstream';

let chain: LocalChain;
let server: TestServer;
/** upstream mode: the local chain's own server, which the server under test calls over HTTP */
let origin: TestServer | undefined;
let originRequests = 0;
let hub: Address;

const freshAddress = (i: number): Address => new Address(0, createHash('sha256').update(`graphql-test/${i}`).digest());

const measured = <T = any>(query: string, variables?: Record<string, unknown>) => measuredQuery<T>(server.url, query, variables);

beforeAll(async () => {
  // no timer seals: blocks are sealed by hand, the hub's history first, then one block of fresh accounts
  chain = await LocalChain.create({ seed: 'graphql-graph-test', blockInterval: 3_600_000 });
  const local = { v2: chain.v2, v3: localV3Api(chain) };
  if (UPSTREAM) {
    origin = await startServer(local, (app) => {
      registerV2Routes(app, { v2: local.v2 });
      app.addHook('onRequest', async () => {
        originRequests++;
      });
    });
    const env = { BACKEND: 'toncenter', V2_URL: origin.url, V3_URL: origin.url, UPSTREAM_RPS: '0', ACCOUNT_TTL_MS: '0' };
    const upstream = createUpstream((loadConfig([], env) as Config).upstream);
    server = await startServer({ v2: upstream.v2, v3: upstream.v3 });
  } else {
    server = await startServer(local);
  }
  hub = freshAddress(1000);
  for (let i = 0; i < HUB_TRANSFERS; i++) await chain.faucet(hub, TON);
  await chain.sealBlock();
  for (let i = 0; i < FRESH_ACCOUNTS; i++) await chain.faucet(freshAddress(i), TON + BigInt(i));
  await chain.sealBlock();
}, 300_000);

afterAll(async () => {
  await server?.close();
  await origin?.close();
  await chain?.close();
});

it.runIf(UPSTREAM)('reaches its data through the upstream server over HTTP', async () => {
  const before = originRequests;
  await measured(`{ masterchainInfo { last { seqno } } }`);
  expect(originRequests).toBeGreaterThan(before);
});

describe('masterchain → shard block → transactions → messages → accounts', () => {
  const BOUND_QUERY = `{ masterchainInfo { last { shards { transactions(first: 100) { nodes { inMessage { source { balance } } outMessages { destination { balance } } } } } } } }`;

  it('the issue query makes at most 5 source calls over a block with many transactions', async () => {
    const { data, calls } = await measured(BOUND_QUERY);
    const shards = data.masterchainInfo.last.shards as { transactions: { nodes: unknown[] } }[];
    const txCount = shards.reduce((n, s) => n + s.transactions.nodes.length, 0);
    expect(txCount).toBeGreaterThanOrEqual(2 * FRESH_ACCOUNTS);
    console.log(`bound query 1: ${txCount} transactions, source calls ${JSON.stringify(calls)}`);
    expect(total(calls)).toBeLessThanOrEqual(5);
  });

  it('answers what the v3 REST routes answer for the same objects', async () => {
    const { data, calls } = await measured(`{
      masterchainInfo { last { workchain shard seqno rootHash
        shards { workchain shard seqno rootHash txCount
          transactions(first: 100) { nodes {
            hash lt now totalFees
            account { address }
            inMessage { hash value comment source { address balance status } }
            outMessages { hash value destination { address balance status } }
          } }
        }
      } }
    }`);
    expect(total(calls)).toBeLessThanOrEqual(5);

    const last = data.masterchainInfo.last;
    const restInfo = await rest(server.url, '/masterchainInfo');
    expect(last).toMatchObject({ workchain: -1, seqno: restInfo.last.seqno, rootHash: restInfo.last.root_hash, shard: restInfo.last.shard });

    const shard = data.masterchainInfo.last.shards.find((s: { workchain: number }) => s.workchain === 0);
    const restShards = await rest(server.url, `/masterchainBlockShards?seqno=${last.seqno}`);
    const restShard = restShards.blocks.find((b: { workchain: number }) => b.workchain === 0);
    expect(shard).toMatchObject({ seqno: restShard.seqno, rootHash: restShard.root_hash, txCount: restShard.tx_count });

    const restTxs = await rest(server.url, `/transactions?workchain=0&shard=${shard.shard}&seqno=${shard.seqno}&sort=asc&limit=1000`);
    // the whole block fits one page, so the page holds exactly the block's transactions
    expect(restTxs.transactions.length).toBeLessThanOrEqual(100);
    const nodes = shard.transactions.nodes as any[];
    expect(nodes.map((n) => n.hash).sort()).toEqual(restTxs.transactions.map((t: { hash: string }) => t.hash).sort());

    const addresses = new Set<string>();
    for (const n of nodes) {
      const t = restTxs.transactions.find((r: { hash: string }) => r.hash === n.hash);
      expect(n).toMatchObject({ lt: t.lt, now: t.now, totalFees: t.total_fees, account: { address: t.account } });
      expect(n.inMessage?.hash ?? null).toBe(t.in_msg?.hash ?? null);
      expect(n.inMessage?.value ?? null).toBe(t.in_msg?.value ?? null);
      expect(n.inMessage?.source?.address ?? null).toBe(t.in_msg?.source ?? null);
      expect(n.outMessages.map((m: { hash: string }) => m.hash)).toEqual(t.out_msgs.map((m: { hash: string }) => m.hash));
      expect(n.outMessages.map((m: any) => m.destination?.address ?? null)).toEqual(t.out_msgs.map((m: any) => m.destination));
      if (n.inMessage?.source) addresses.add(n.inMessage.source.address);
      for (const m of n.outMessages) if (m.destination) addresses.add(m.destination.address);
    }
    const states = await rest(server.url, `/accountStates?${[...addresses].map((a) => `address=${encodeURIComponent(a)}`).join('&')}`);
    const balances = new Map<string, string>(states.accounts.map((a: { address: string; balance: string }) => [a.address, a.balance]));
    for (const n of nodes) {
      if (n.inMessage?.source) expect(n.inMessage.source.balance).toBe(balances.get(n.inMessage.source.address) ?? '0');
      for (const m of n.outMessages) if (m.destination) expect(m.destination.balance).toBe(balances.get(m.destination.address) ?? '0');
    }
    // a fresh account credited in this block shows up with the balance the faucet gave it, less its fees
    const fresh = rawUpper(freshAddress(3));
    expect(BigInt(balances.get(fresh)!)).toBeGreaterThan(0n);
  });
});

describe("an account's transactions → in-message → source transaction → its account", () => {
  const QUERY = `query($a: Address!) { account(address: $a) { transactions(first: 100) { nodes {
    hash lt inMessage { hash sourceTransaction { hash lt account { address balance } } }
  } } } }`;

  it('makes at most 5 source calls for the last 100 transactions', async () => {
    const { data, calls } = await measured(QUERY, { a: hub.toString() });
    const nodes = data.account.transactions.nodes as unknown[];
    expect(nodes.length).toBe(100);
    console.log(`bound query 2: ${nodes.length} transactions, source calls ${JSON.stringify(calls)}`);
    expect(total(calls)).toBeLessThanOrEqual(5);
  });

  it('answers what the v3 REST routes answer', async () => {
    const { data } = await measured(QUERY, { a: rawUpper(hub) });
    const nodes = data.account.transactions.nodes as any[];
    const restTxs = await rest(server.url, `/transactions?account=${rawUpper(hub)}&limit=100&sort=desc`);
    expect(nodes.map((n) => n.hash)).toEqual(restTxs.transactions.map((t: { hash: string }) => t.hash));
    const faucet = rawUpper(chain.faucetAddress);
    const faucetState = await rest(server.url, `/accountStates?address=${faucet}`);
    for (const n of nodes) {
      const msg = await rest(server.url, `/messages?msg_hash=${encodeURIComponent(n.inMessage.hash)}`);
      expect(n.inMessage.sourceTransaction.hash).toBe(msg.messages[0].out_msg_tx_hash);
      expect(n.inMessage.sourceTransaction.account).toEqual({ address: faucet, balance: faucetState.accounts[0].balance });
    }
  });
});

describe('connections', () => {
  it('pages an account with keyset cursors, forward and back', async () => {
    const page = `query($a: Address!, $first: Int, $after: String, $last: Int, $before: String) {
      account(address: $a) { transactions(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { hash } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const all = (await gql(server.url, page, { a: rawUpper(hub), first: 100 })).data.account.transactions.edges.map((e: any) => e.node.hash);
    const p1 = (await gql(server.url, page, { a: rawUpper(hub), first: 12 })).data.account.transactions;
    const p2 = (await gql(server.url, page, { a: rawUpper(hub), first: 12, after: p1.pageInfo.endCursor })).data.account.transactions;
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect([...p1.edges, ...p2.edges].map((e: any) => e.node.hash)).toEqual(all.slice(0, 24));
    const back = (await gql(server.url, page, { a: rawUpper(hub), last: 5, before: p2.pageInfo.startCursor })).data.account.transactions;
    expect(back.edges.map((e: any) => e.node.hash)).toEqual(all.slice(7, 12));
  });

  it('pages a block by (lt, hash) cursors without losing or repeating a transaction', async () => {
    const info = await rest(server.url, '/masterchainInfo');
    const shards = await rest(server.url, `/masterchainBlockShards?seqno=${info.last.seqno}`);
    const shard = shards.blocks.find((b: { workchain: number }) => b.workchain === 0);
    const q = `query($s: Int!, $after: String) { block(workchain: 0, seqno: $s) { transactions(first: 7, after: $after) {
      nodes { hash } pageInfo { hasNextPage endCursor } } } }`;
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { data } = await gql(server.url, q, { s: shard.seqno, after });
      seen.push(...data.block.transactions.nodes.map((n: { hash: string }) => n.hash));
      if (!data.block.transactions.pageInfo.hasNextPage) break;
      after = data.block.transactions.pageInfo.endCursor;
    }
    expect(seen.length).toBe(shard.tx_count);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('loaders and ids', () => {
  it('inline messages prime the loaders: a transaction and its in-message’s receiver cost one call', async () => {
    const restTxs = await rest(server.url, `/transactions?account=${rawUpper(hub)}&limit=1`);
    const hash = restTxs.transactions[0].hash;
    const { data, calls } = await measured(`query($h: Hash!) { transaction(hash: $h) { inMessage { destinationTransaction { hash } } } }`, {
      h: Buffer.from(hash, 'base64').toString('hex'),
    });
    expect(data.transaction.inMessage.destinationTransaction.hash).toBe(hash);
    expect(calls).toEqual({ 'v3.transactions': 1 });
  });

  it('node and nodes resolve the type-prefixed ids of every node type', async () => {
    const { data } = await measured(`{ masterchainInfo { last { id shards { id transactions(first: 2) { nodes { id inMessage { id } account { id } } } } } } }`);
    const shard = data.masterchainInfo.last.shards[0];
    const tx = shard.transactions.nodes[1];
    const ids = [data.masterchainInfo.last.id, shard.id, tx.id, tx.inMessage.id, tx.account.id];
    expect(ids.map((id: string) => id.split(':')[0])).toEqual(['Block', 'Block', 'Transaction', 'Message', 'Account']);
    const res = await gql(server.url, `query($ids: [ID!]!) { nodes(ids: $ids) { id __typename } }`, { ids });
    expect(res.data.nodes.map((n: { id: string }) => n.id)).toEqual(ids);
    const one = await gql(server.url, `query($id: ID!) { node(id: $id) { ... on Transaction { hash } } }`, { id: tx.id });
    expect(`Transaction:${one.data.node.hash}`).toBe(tx.id);
  });

  it('an absent object is null, not an error', async () => {
    const res = await gql(server.url, `{ transaction(hash: "${'00'.repeat(32)}") { hash } message(hash: "${'11'.repeat(32)}") { hash } block(workchain: 0, seqno: 999999) { seqno } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ transaction: null, message: null, block: null });
  });

  it('an account never seen on chain is nonexist with balance 0', async () => {
    const res = await gql(server.url, `query($a: Address!) { account(address: $a) { status balance friendly(bounceable: false, testOnly: true) } }`, {
      a: rawUpper(freshAddress(99_999)),
    });
    expect(res.data.account).toEqual({ status: 'nonexist', balance: '0', friendly: freshAddress(99_999).toString({ bounceable: false, testOnly: true }) });
  });
});
