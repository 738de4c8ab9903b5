/**
 * Relay paging of every connection on the local chain, as a property: walking a list forwards (first/after) or
 * backwards (last/before) with random page sizes yields exactly the items of one large page, in order, and on
 * every page hasNextPage / hasPreviousPage say whether items remain on that side. Lists are filtered the ways a
 * client filters them (by account, lt window, block, direction), since each filter is a different source query.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { gql, startServer, type TestServer } from './helpers.js';

const SEED = 19_001;
const MAX_PAGE = 100;

let chain: LocalChain;
let server: TestServer;
let wallets: Record<string, string>;
let tokens: ReturnType<LocalChain['tokens']>;

interface Page {
  edges: { cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** A connection under test: the field with its filter arguments, and where the connection sits in the answer. */
interface Case {
  name: string;
  /** a query with `PAGE` where the connection's page arguments go and `SELECTION` for its selection */
  query: string;
  path: string[];
  /** only first/after: the list is paged by position (token lists) */
  forwardOnly?: boolean;
  /** the least number of items the case must have for the walk to test anything */
  min: number;
}

const SELECTION = 'edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

async function page(c: Case, args: Record<string, unknown>): Promise<Page> {
  const page = Object.entries(args)
    .filter(([, v]) => v != null)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
  const query = c.query.replace('PAGE', page).replace('SELECTION', SELECTION);
  const res = await gql(server.url, query);
  if (res.errors) throw new Error(`${c.name} (${page}): ${JSON.stringify(res.errors)}`);
  let v: any = res.data;
  for (const k of c.path) v = v[k];
  return v as Page;
}

/** The whole list in pages of the largest size (one page when it fits; the blocks list does not). */
async function largePages(c: Case): Promise<string[]> {
  const all: string[] = [];
  let after: string | null = null;
  for (;;) {
    const p = await page(c, { first: MAX_PAGE, after });
    all.push(...p.edges.map((e) => e.cursor));
    if (!p.pageInfo.hasNextPage) return all;
    after = p.pageInfo.endCursor;
  }
}

async function walkForward(c: Case, sizes: number[], total: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (let i = 0; ; i++) {
    const first = sizes[i % sizes.length]!;
    const p = await page(c, { first, after });
    seen.push(...p.edges.map((e) => e.cursor));
    expect(p.edges.length, `${c.name}: page ${i} size`).toBe(Math.min(first, total - (seen.length - p.edges.length)));
    expect(p.pageInfo.hasNextPage, `${c.name}: hasNextPage after ${seen.length} of ${total}`).toBe(seen.length < total);
    expect(p.pageInfo.hasPreviousPage, `${c.name}: hasPreviousPage of page ${i}`).toBe(after !== null);
    if (!p.pageInfo.hasNextPage) return seen;
    after = p.pageInfo.endCursor;
    if (i > total) throw new Error(`${c.name}: no end after ${i} pages`);
  }
}

async function walkBackward(c: Case, sizes: number[], total: number): Promise<string[]> {
  const seen: string[] = [];
  let before: string | null = null;
  for (let i = 0; ; i++) {
    const last = sizes[i % sizes.length]!;
    const p = await page(c, { last, before });
    seen.unshift(...p.edges.map((e) => e.cursor));
    expect(p.edges.length, `${c.name}: page ${i} size`).toBe(Math.min(last, total - (seen.length - p.edges.length)));
    expect(p.pageInfo.hasPreviousPage, `${c.name}: hasPreviousPage after ${seen.length} of ${total}`).toBe(seen.length < total);
    expect(p.pageInfo.hasNextPage, `${c.name}: hasNextPage of page ${i}`).toBe(before !== null);
    if (!p.pageInfo.hasPreviousPage) return seen;
    before = p.pageInfo.startCursor;
    if (i > total) throw new Error(`${c.name}: no start after ${i} pages`);
  }
}

function cases(): Case[] {
  const alice = wallets.alice!;
  const bob = wallets.bob!;
  const jetton = tokens.jetton.master;
  const collection = tokens.nft_collection.address;
  const keyset = (field: string, args = '', min = 5): Case => ({
    name: `${field}(${args})`,
    query: `{ ${field}(PAGE${args ? `, ${args}` : ''}) { SELECTION } }`,
    path: [field],
    min,
  });
  return [
    keyset('transactions'),
    keyset('transactions', `account: "${alice}"`),
    keyset('transactions', `account: "${alice}", startLt: "2"`),
    keyset('transactions', 'workchain: 0'),
    {
      name: 'account.transactions',
      query: `{ account(address: "${alice}") { transactions(PAGE) { SELECTION } } }`,
      path: ['account', 'transactions'],
      min: 10,
    },
    {
      name: 'account.transactions with an lt window',
      query: `{ account(address: "${bob}") { transactions(PAGE, startLt: "1", endLt: "100000000000") { SELECTION } } }`,
      path: ['account', 'transactions'],
      min: 2,
    },
    {
      name: 'block.transactions',
      query: `{ block(workchain: 0, seqno: 1) { transactions(PAGE) { SELECTION } } }`,
      path: ['block', 'transactions'],
      min: 5,
    },
    keyset('transactions', 'startUtime: 1, endUtime: 2000000000'),
    keyset('transactions', 'workchain: 0, seqno: 1', 2),
    keyset('transactions', 'mcSeqno: 1', 2),
    keyset('blocks', '', 3),
    keyset('blocks', 'startUtime: 1', 3),
    keyset('blocks', 'mcSeqno: 2', 1),
    keyset('blocks', 'workchain: 0', 2),
    keyset('messages'),
    keyset('messages', `source: "${alice}"`, 3),
    keyset('messages', `destination: "${alice}"`, 3),
    keyset('messages', 'excludeExternals: true'),
    keyset('messages', 'onlyExternals: true', 3),
    keyset('messages', 'startUtime: 1', 3),
    keyset('messages', `direction: in, destination: "${alice}"`, 3),
    keyset('messages', 'startLt: "1"', 3),
    keyset('traces'),
    keyset('traces', `account: "${alice}"`, 3),
    keyset('traces', `account: "${alice}", startLt: "1"`, 3),
    keyset('actions'),
    keyset('actions', `account: "${alice}"`, 3),
    keyset('actions', `account: "${alice}", types: ["ton_transfer"]`, 2),
    keyset('jettonTransfers', `jetton: "${jetton}"`, 1),
    keyset('nftTransfers', `collection: "${collection}"`, 1),
    {
      name: 'jettonMaster.transfers',
      query: `{ jettonMaster(address: "${jetton}") { transfers(PAGE) { SELECTION } } }`,
      path: ['jettonMaster', 'transfers'],
      min: 1,
    },
    { ...keyset('nftItems', `collection: "${collection}"`, 3), forwardOnly: true },
    { ...keyset('jettonWallets', `jetton: "${jetton}"`, 2), forwardOnly: true },
  ];
}

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-paging-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  wallets = Object.fromEntries(chain.keyedWallets().map((k) => [k.name, rawUpper(k.contract.address)]));
  tokens = chain.tokens();
  // more of alice's history than genesis leaves, sealed into blocks of several transactions each
  const alice = chain.keyedWallets().find((k) => k.name === 'alice')!.contract.address;
  for (let block = 0; block < 3; block++) {
    await Promise.all(Array.from({ length: 6 }, () => chain.faucet(alice, 1_000_000_000n)));
    await chain.sealBlock();
  }
  // and a burst of blocks sealed within a second or two: more than a page's slack share one gen_utime
  for (let block = 0; block < 15; block++) {
    await chain.faucet(alice, 1_000_000_000n);
    await chain.sealBlock();
  }
}, 180_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('Relay paging', () => {
  it('every connection walks forwards and backwards to the items of one large page, with exact page info', async () => {
    const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 12 });
    for (const c of cases()) {
      const expected = await largePages(c);
      expect(expected.length, `${c.name}: enough items to page`).toBeGreaterThanOrEqual(c.min);
      await fc.assert(
        fc.asyncProperty(sizes, async (s) => {
          expect(await walkForward(c, s, expected.length), `${c.name}: forwards`).toEqual(expected);
          if (!c.forwardOnly) expect(await walkBackward(c, s, expected.length), `${c.name}: backwards`).toEqual(expected);
        }),
        { seed: SEED, numRuns: 4, endOnFailure: true },
      );
    }
  }, 600_000);

  it('a page of size 0 still says whether items remain', async () => {
    const c = cases()[1]!;
    const all = await page(c, { first: MAX_PAGE });
    const mid = all.edges[2]!.cursor;
    const empty = await page(c, { first: 0, after: mid });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo.hasNextPage).toBe(true);
    const last = all.edges[all.edges.length - 1]!.cursor;
    expect((await page(c, { first: 0, after: last })).pageInfo.hasNextPage).toBe(false);
    const none = await page(c, { first: 0 });
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect((await page(c, { last: 0 })).pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const tokens = cases().find((k) => k.forwardOnly)!;
    expect((await page(tokens, { first: 0 })).pageInfo.hasNextPage).toBe(true);
  });
  it("messages: the graph's order is /api/v3/messages' (effective lt, then hash), ext-ins among the internals, and the cursor is that key", async () => {
    const c = cases().find((k) => k.name === 'messages()')!;
    const cursors = await largePages(c);
    const keys = cursors.map((k) => JSON.parse(Buffer.from(k, 'base64url').toString('utf8')) as [number, string, string]);
    const rest = (await localV3Api(chain).messages({ limit: 1000, offset: 0, sort: 'desc' })).messages;
    expect(keys.map((k) => k[2])).toEqual(rest.map((m) => m.hash));
    // an external-in is keyed by its receiving transaction's lt, so it is not at the list's end
    const txLt = new Map((await localV3Api(chain).transactions({ limit: 1000, offset: 0, sort: 'desc' })).transactions.map((t) => [t.hash, t.lt]));
    const ext = rest.map((m, i) => ({ m, i })).filter(({ m }) => m.source === null);
    expect(ext.length).toBeGreaterThan(0);
    for (const { m, i } of ext) expect(keys[i]![1]).toBe(txLt.get(m.in_msg_tx_hash!));
    expect(ext.some(({ i }) => i < rest.length - ext.length)).toBe(true);
    // a walk in small pages from an ext-in's cursor, backwards and forwards, keeps to the list
    const at = ext[0]!.i;
    const after = await page(c, { first: 3, after: cursors[at] });
    expect(after.edges.map((e) => e.cursor)).toEqual(cursors.slice(at + 1, at + 4));
    const before = await page(c, { last: 3, before: cursors[at] });
    expect(before.edges.map((e) => e.cursor)).toEqual(cursors.slice(Math.max(0, at - 3), at));
  });
});
