/**
 * Limits and errors of /graphql, each case asserting `extensions.code`: over-limit queries are rejected before
 * any data-source call, bad arguments are BAD_USER_INPUT, data-source failures are coded on the affected field
 * while the rest of the response survives, and internal errors are masked. The data source is a stub whose
 * methods each test sets.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { Block } from '../../../src/api/v3/blocks.js';
import { LIMITS } from '../../../src/surfaces/graphql/limits.js';
import { callsBetween, gql, sourceCalls, startServer, stubSources, type StubImpl, type TestServer } from './helpers.js';

let impl: StubImpl = {};
const stubs = stubSources(() => impl);

const block = (seqno: number): Block => ({
  workchain: -1,
  shard: '8000000000000000',
  seqno,
  root_hash: Buffer.alloc(32, 1).toString('base64'),
  file_hash: Buffer.alloc(32, 2).toString('base64'),
  global_id: -239,
  version: 0,
  after_merge: false,
  before_split: false,
  after_split: false,
  want_merge: false,
  want_split: false,
  key_block: false,
  vert_seqno_incr: false,
  flags: 1,
  gen_utime: '1700000000',
  start_lt: '1000',
  end_lt: '1001',
  validator_list_hash_short: 0,
  gen_catchain_seqno: 0,
  min_ref_mc_seqno: 0,
  prev_key_block_seqno: 0,
  vert_seqno: 0,
  master_ref_seqno: 0,
  rand_seed: Buffer.alloc(32).toString('base64'),
  created_by: Buffer.alloc(32).toString('base64'),
  tx_count: 0,
  masterchain_block_ref: { workchain: -1, shard: '8000000000000000', seqno },
  prev_blocks: [],
});

let server: TestServer;

beforeAll(async () => {
  server = await startServer(stubs);
});
afterAll(() => server?.close());
beforeEach(() => {
  impl = {};
});

const ADDRESS = `0:${'ab'.repeat(32)}`;
const codes = (res: { errors?: { extensions?: { code?: string } }[] }): (string | undefined)[] =>
  (res.errors ?? []).map((e) => e.extensions?.code);

describe('limits, rejected before execution', () => {
  async function rejected(query: string, variables?: Record<string, unknown>) {
    const before = await sourceCalls(server.url);
    const res = await gql(server.url, query, variables);
    expect(callsBetween(before, await sourceCalls(server.url))).toEqual({});
    expect(res.data ?? null).toBeNull();
    return res;
  }

  it('publishes the limits in serviceConfig', async () => {
    const res = await gql(server.url, `{ serviceConfig { maxQueryDepth maxQueryCost maxAliases maxQueryBytes maxRequestBytes defaultPageSize maxPageSize maxListArgument } }`);
    expect(res.data.serviceConfig).toEqual({
      maxQueryDepth: LIMITS.maxDepth,
      maxQueryCost: LIMITS.maxCost,
      maxAliases: LIMITS.maxAliases,
      maxQueryBytes: LIMITS.maxQueryBytes,
      maxRequestBytes: LIMITS.maxRequestBytes,
      defaultPageSize: 20,
      maxPageSize: 100,
      maxListArgument: LIMITS.maxListArgument,
    });
  });

  it('depth', async () => {
    let inner = 'hash';
    for (let i = 0; i < 8; i++) inner = `inMessage { sourceTransaction { ${inner} } }`;
    const res = await rejected(`{ transaction(hash: "${'00'.repeat(32)}") { ${inner} } }`);
    expect(codes(res)).toEqual(['QUERY_TOO_DEEP']);
    expect(res.errors![0]!.message).toMatch(/depth \d+ exceeds the maximum of 16/);
  });

  it('cost: connections multiply by their page size', async () => {
    const res = await rejected(
      `query($a: Address!) { account(address: $a) { transactions(first: 100) { nodes { outMessages { destination { transactions(first: 100) { nodes { hash lt } } } } } } } }`,
      { a: ADDRESS },
    );
    expect(codes(res)).toEqual(['QUERY_TOO_COMPLEX']);
    expect(res.errors![0]!.extensions).toMatchObject({ limit: LIMITS.maxCost });
  });

  it('cost follows the page size given in variables', async () => {
    const q = `query($n: Int) { account(address: "${ADDRESS}") { transactions(first: $n) { nodes { outMessages { destination { transactions(first: $n) { nodes { hash lt now } } } } } } } }`;
    expect(codes(await rejected(q, { n: 100 }))).toEqual(['QUERY_TOO_COMPLEX']);
    impl.transactions = async () => ({ transactions: [], address_book: {} });
    const small = await gql(server.url, q, { n: 2 });
    expect(small.errors).toBeUndefined();
    // the same document validated once must still be costed with each request's own variables
    expect(codes(await rejected(q, { n: 100 }))).toEqual(['QUERY_TOO_COMPLEX']);
  });

  it('a verdict for variables that are all strings is not reused for a list in their place', async () => {
    // an all-string request is costed by its variables' names alone; a list given for the same name is another shape
    const q = `query ListOrOne($a: [Address!]!) { accounts(addresses: $a) { transactions(first: 100) { nodes { hash outMessages { hash } } } } }`;
    impl.transactions = async () => ({ transactions: [], address_book: {} });
    for (let i = 0; i < 3; i++) expect((await gql(server.url, q, { a: ADDRESS })).errors).toBeUndefined();
    expect(codes(await rejected(q, { a: Array(LIMITS.maxListArgument).fill(ADDRESS) }))).toEqual(['QUERY_TOO_COMPLEX']);
    expect((await gql(server.url, q, { a: ADDRESS })).errors).toBeUndefined();
  });

  it('aliases', async () => {
    const fields = Array.from({ length: LIMITS.maxAliases + 1 }, (_, i) => `a${i}: serviceConfig { maxPageSize }`).join(' ');
    expect(codes(await rejected(`{ ${fields} }`))).toEqual(['TOO_MANY_ALIASES']);
  });

  it('document size', async () => {
    const res = await rejected(`{ serviceConfig { maxPageSize } }\n#${'x'.repeat(LIMITS.maxQueryBytes)}`);
    expect(codes(res)).toEqual(['REQUEST_TOO_LARGE']);
    expect(res.status).toBe(413);
  });

  it('request body size', async () => {
    const res = await rejected(`query($pad: String) { serviceConfig { maxPageSize } }`, { pad: 'x'.repeat(LIMITS.maxRequestBytes) });
    expect(codes(res)).toEqual(['REQUEST_TOO_LARGE']);
    expect(res.status).toBe(413);
  });
});

describe('bad arguments are BAD_USER_INPUT', () => {
  const cases: [string, string, Record<string, unknown>?][] = [
    ['an unparsable address literal', `{ account(address: "not-an-address") { address } }`],
    ['an unparsable address variable', `query($a: Address!) { account(address: $a) { address } }`, { a: '0:xyz' }],
    ['an unparsable hash', `{ transaction(hash: "abc") { hash } }`],
    ['a page over the maximum', `{ account(address: "${ADDRESS}") { transactions(first: 101) { nodes { hash } } } }`],
    ['a cursor not made here', `{ account(address: "${ADDRESS}") { transactions(after: "bm9wZQ") { nodes { hash } } } }`],
    ['a bad BigInt', `{ transactions(startLt: "12ab") { nodes { hash } } }`],
    ['a bad shard', `{ block(workchain: 0, shard: "zz", seqno: 1) { seqno } }`],
    ['a global id of another API', `{ node(id: "Wallet:1") { id } }`],
    [
      'a variable nested too deep to walk',
      `query($a: Address!, $m: String!, $s: [StackEntryInput!]) { runGetMethod(address: $a, method: $m, stack: $s) { exitCode } }`,
      { a: ADDRESS, m: 'seqno', s: [Array.from({ length: 1500 }).reduce<object>((inner) => ({ type: 'TUPLE', items: [inner] }), { type: 'NUM', value: '1' })] },
    ],
    ['too many addresses', `query($a: [Address!]!) { accounts(addresses: $a) { address } }`, { a: Array(LIMITS.maxListArgument + 1).fill(ADDRESS) }],
  ];
  for (const [name, query, variables] of cases) {
    it(name, async () => {
      const res = await gql(server.url, query, variables);
      expect(codes(res)).toEqual(['BAD_USER_INPUT']);
    });
  }

  it('a bad variable is reported even after the same document passed with good values', async () => {
    const q = `query AfterGood($a: Address!) { account(address: $a) { address } }`;
    expect((await gql(server.url, q, { a: ADDRESS })).errors).toBeUndefined();
    const res = await gql(server.url, q, { a: '0:xyz' });
    expect(codes(res)).toEqual(['BAD_USER_INPUT']);
    expect(res.errors![0]!.message).toContain('0:xyz');
  });

  it('canonicalises every accepted form of an address', async () => {
    const { Address } = await import('@ton/core');
    const a = Address.parseRaw(ADDRESS);
    for (const form of [ADDRESS, a.toString(), a.toString({ bounceable: false, testOnly: true, urlSafe: false })]) {
      const res = await gql(server.url, `query($a: Address!) { account(address: $a) { address } }`, { a: form });
      expect(res.data.account.address).toBe(`0:${'AB'.repeat(32)}`);
    }
  });
});

describe('data-source failures are coded on the affected field', () => {
  const cases: [number, string][] = [
    [504, 'UPSTREAM_TIMEOUT'],
    [429, 'UPSTREAM_RATE_LIMITED'],
    [500, 'UPSTREAM_ERROR'],
    [503, 'UPSTREAM_ERROR'],
  ];
  for (const [status, code] of cases) {
    it(`ApiError ${status} → ${code}, siblings survive`, async () => {
      impl.masterchainInfo = async () => {
        throw new ApiError(status, `upstream said ${status}`);
      };
      const res = await gql(server.url, `{ masterchainInfo { last { seqno } } serviceConfig { maxPageSize } }`);
      expect(codes(res)).toEqual([code]);
      expect(res.errors![0]!.path).toEqual(['masterchainInfo']);
      expect(res.data).toEqual({ masterchainInfo: null, serviceConfig: { maxPageSize: 100 } });
    });
  }

  it('a failure deep in the graph nulls only that field', async () => {
    impl.masterchainInfo = async () => ({ first: block(1), last: block(2) });
    impl.masterchainBlockShards = async () => {
      throw new ApiError(504, 'timeout');
    };
    const res = await gql(server.url, `{ masterchainInfo { first { seqno } last { seqno shards { seqno } } } }`);
    expect(codes(res)).toEqual(['UPSTREAM_TIMEOUT']);
    expect(res.errors![0]!.path).toEqual(['masterchainInfo', 'last', 'shards']);
    expect(res.data.masterchainInfo).toEqual({ first: { seqno: 1 }, last: { seqno: 2, shards: null } });
  });

  it('internal errors are masked', async () => {
    impl.masterchainInfo = async () => {
      throw new Error('secret detail of the server');
    };
    const res = await gql(server.url, `{ masterchainInfo { last { seqno } } }`);
    expect(codes(res)).toEqual(['INTERNAL_SERVER_ERROR']);
    expect(JSON.stringify(res)).not.toContain('secret');
  });
});

describe('transport', () => {
  it('answers GET with the query in the URL, and CORS preflight', async () => {
    const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ serviceConfig { maxPageSize } }')}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { serviceConfig: { maxPageSize: 100 } } });
    const pre = await fetch(`${server.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('refuses a mutation over GET', async () => {
    const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { sendMessage(boc: "te6cckEBAQEAAgAAAEysuc0=") { hash } }')}`, {
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(405);
  });

  it('serves the call counter on GET /metrics', async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('# TYPE ton_graphql_source_calls_total counter');
  });
});
