/**
 * HTTP caching by finality, on the local chain, through yoga's full handler and through the fast path alike:
 * answers reading only final data (a block by seqno, a transaction or message by hash) are immutable with an
 * ETag and a 304 for a current copy, and stay byte-equal while the chain grows; anything reading the tip, an
 * account's state, an open list, a message's yet-unknown destination, a mutation, an error or a missing block
 * is no-store.
 */
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE } from '../../../src/surfaces/graphql/caching.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { gql, startServer, type TestServer } from './helpers.js';

let chain: LocalChain;
const servers: Record<'fast' | 'yoga', TestServer> = {} as never;
let tx: { hash: string; inMessage: { hash: string }; block: { workchain: number; shard: string; seqno: number } };
let mcSeqno: number;

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-caching-test', blockInterval: 0 });
  const v3 = localV3Api(chain);
  servers.fast = await startServer({ v2: chain.v2, v3 });
  servers.yoga = await startServer({ v2: chain.v2, v3, fastPath: false });
  const res = await gql(servers.yoga.url, '{ transactions(first: 1, workchain: 0) { nodes { hash inMessage { hash } block { workchain shard seqno } } } }');
  tx = res.data.transactions.nodes[0];
  mcSeqno = (await gql(servers.yoga.url, '{ masterchainInfo { last { seqno } } }')).data.masterchainInfo.last.seqno;
}, 120_000);

afterAll(async () => {
  await servers.fast?.close();
  await servers.yoga?.close();
  await chain?.close();
});

async function post(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, cacheControl: res.headers.get('cache-control'), etag: res.headers.get('etag'), body: await res.text() };
}

const finalQueries = () => [
  ['a masterchain block by seqno', `{ block(workchain: -1, seqno: ${mcSeqno}) { seqno rootHash shards { seqno } } }`],
  [
    'a shard block by seqno with its transactions',
    `{ block(workchain: ${tx.block.workchain}, shard: "${tx.block.shard}", seqno: ${tx.block.seqno}) {
        seqno masterchainBlock { seqno } transactions(first: 5) { edges { cursor node { hash } } pageInfo { hasNextPage } } } }`,
  ],
  [
    'a transaction by hash with its phases, block, messages and account address',
    `query($h: Hash!) { transaction(hash: $h) { __typename hash lt description { computePhase { gasUsed } } block { seqno }
        account { address } inMessage { hash value source { address } } outMessages { hash } } }`,
  ],
  ['a message by hash with the transaction that sent it', `query($h: Hash!) { message(hash: $h) { hash body value sourceTransaction { hash } } }`],
];

const liveQueries = () => [
  ['the tip', '{ masterchainInfo { last { seqno } } }'],
  ['an account balance reached from a final transaction', 'query($h: Hash!) { transaction(hash: $h) { hash account { balance } } }'],
  ['the destination transaction of a message', 'query($h: Hash!) { message(hash: $h) { hash destinationTransaction { hash } } }'],
  ['an open-ended list', '{ transactions(first: 2) { nodes { hash } } }'],
  ['a block not produced yet', '{ block(workchain: -1, seqno: 99999999) { seqno } }'],
  ['a final field and a live one side by side', `query($h: Hash!) { transaction(hash: $h) { hash } masterchainInfo { last { seqno } } }`],
  ['an error', '{ transaction(hash: "not-a-hash") { hash } }'],
  ['introspection', '{ __schema { queryType { name } } }'],
  ['a mutation', 'mutation { sendMessage(boc: "te6cckEBAQEAAgAAAEysuc0=") { hash } }'],
];

const FINAL_NAMES = [
  'a masterchain block by seqno',
  'a shard block by seqno with its transactions',
  'a transaction by hash with its phases, block, messages and account address',
  'a message by hash with the transaction that sent it',
];
const LIVE_NAMES = [
  'the tip',
  'an account balance reached from a final transaction',
  'the destination transaction of a message',
  'an open-ended list',
  'a block not produced yet',
  'a final field and a live one side by side',
  'an error',
  'introspection',
  'a mutation',
];

const variablesFor = (query: string): Record<string, unknown> =>
  query.includes('message(') ? { h: tx.inMessage.hash } : query.includes('$h') ? { h: tx.hash } : {};

describe.each(['fast', 'yoga'] as const)('caching through the %s path', (path) => {
  // the queries name this chain's blocks and hashes, known only once it runs
  it.each(FINAL_NAMES)('%s is immutable with an ETag and a 304', async (name) => {
    const query = finalQueries().find(([n]) => n === name)![1]!;
    const url = servers[path].url;
    const first = await post(url, query, variablesFor(query));
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).errors).toBeUndefined();
    expect(first.cacheControl).toBe(IMMUTABLE);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    const conditional = await post(url, query, variablesFor(query), { 'if-none-match': `W/${first.etag}, "other"` });
    expect(conditional.status).toBe(304);
    expect(conditional.body).toBe('');
    const stale = await post(url, query, variablesFor(query), { 'if-none-match': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it.each(LIVE_NAMES)('%s is no-store', async (name) => {
    const query = liveQueries().find(([n]) => n === name)![1]!;
    const res = await post(servers[path].url, query, variablesFor(query), { 'if-none-match': '*' });
    expect(res.status).not.toBe(304);
    expect(res.cacheControl).toBe('no-store');
    expect(res.etag).toBeNull();
  });
});

describe('finality', () => {
  it('final answers stay byte-equal (same ETag) while the chain grows; both paths agree', async () => {
    const before = await Promise.all(finalQueries().map(([, q]) => post(servers.fast.url, q!, variablesFor(q!))));
    await chain.faucet(new Address(0, Buffer.alloc(32, 7)), 1_000_000_000n);
    await chain.sealBlock();
    const tip = (await gql(servers.yoga.url, '{ masterchainInfo { last { seqno } } }')).data.masterchainInfo.last.seqno;
    expect(tip).toBeGreaterThan(mcSeqno);
    for (const [i, [, q]] of finalQueries().entries()) {
      const fast = await post(servers.fast.url, q!, variablesFor(q!));
      const yoga = await post(servers.yoga.url, q!, variablesFor(q!));
      expect(fast.body).toBe(before[i]!.body);
      expect(fast.etag).toBe(before[i]!.etag);
      expect(yoga.etag).toBe(fast.etag);
    }
  });

  it('a GET of a final query is cacheable too; SSE subscriptions are not', async () => {
    const q = `{ block(workchain: -1, seqno: ${mcSeqno}) { seqno } }`;
    const get = await fetch(`${servers.fast.url}/graphql?query=${encodeURIComponent(q)}`, { headers: { accept: 'application/json' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(get.headers.get('vary')).toMatch(/accept/i);
    const abort = new AbortController();
    const sse = await fetch(`${servers.fast.url}/graphql?query=${encodeURIComponent('subscription { blocks { seqno } }')}`, {
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.headers.get('cache-control')).toBe('no-store');
    abort.abort();
  });
});
