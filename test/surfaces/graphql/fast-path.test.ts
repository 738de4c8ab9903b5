/**
 * The JSON fast path must answer exactly what yoga's own handler answers: the same requests go to a server with
 * it and one without, and status, content type, Retry-After and body must match, for answers with data, field
 * errors (masked, coded, rate-limited), parse, validation, limit and input errors, and for requests that are
 * not eligible (which both hand to yoga). The eligible ones are checked to really take the fast path. Each request
 * goes to the fast server three times: first sight runs yoga's pipeline with graphql-js's execute, later ones with
 * the compiled query in its place (test/surfaces/graphql/pipeline.test.ts counts those).
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { eligibleParams } from '../../../src/surfaces/graphql/fast-path.js';
import { startServer, stubSources, type StubImpl, type TestServer } from './helpers.js';

let impl: StubImpl = {};
const stubs = stubSources(() => impl);

let fast: TestServer;
let slow: TestServer;
beforeAll(async () => {
  fast = await startServer(stubs);
  slow = await startServer({ ...stubs, fastPath: false });
});
afterAll(async () => {
  await fast?.close();
  await slow?.close();
});
beforeEach(() => {
  impl = {};
});

const ADDRESS = `0:${'ab'.repeat(32)}`;
const JSON_CT = { 'content-type': 'application/json' };
/** costs its page size squared: over the limit at 100, well within at 2 */
const BY_PAGE_SIZE = `query($n: Int) { account(address: "${ADDRESS}") { transactions(first: $n) { nodes { outMessages { destination { transactions(first: $n) { nodes { hash lt now } } } } } } } }`;

interface Case {
  name: string;
  body: unknown;
  headers?: Record<string, string>;
  /** sets the stub's answers before each of the two requests */
  setup?: () => void;
  eligible: boolean;
}

const throwing = (e: Error) => async () => {
  throw e;
};

const cases: Case[] = [
  { name: 'data', body: { query: '{ serviceConfig { maxPageSize defaultPageSize } }' }, eligible: true },
  {
    name: 'data with variables and an operation name',
    body: { query: 'query A($n: Int) { serviceConfig { maxPageSize } } query B { serviceConfig { maxQueryCost } }', operationName: 'B', variables: { n: 1 } },
    eligible: true,
  },
  {
    name: 'a rate-limited data source (code and Retry-After)',
    body: { query: '{ masterchainInfo { last { seqno } } serviceConfig { maxPageSize } }' },
    setup: () => {
      impl.masterchainInfo = throwing(new ApiError(429, 'slow down', { retryAfterS: 3 }));
    },
    eligible: true,
  },
  {
    name: 'a masked internal error',
    body: { query: '{ masterchainInfo { last { seqno } } }' },
    setup: () => {
      impl.masterchainInfo = throwing(new Error('secret'));
    },
    eligible: true,
  },
  { name: 'a parse error', body: { query: '{ serviceConfig { ' }, eligible: true },
  { name: 'a validation error', body: { query: '{ serviceConfig { nope } }' }, eligible: true },
  {
    name: 'over the cost limit',
    body: { query: 'query($a: Address!) { account(address: $a) { transactions(first: 100) { nodes { outMessages { destination { transactions(first: 100) { nodes { hash } } } } } } } }', variables: { a: ADDRESS } },
    eligible: true,
  },
  { name: 'a bad variable', body: { query: 'query($a: Address!) { account(address: $a) { address } }', variables: { a: 'nope' } }, eligible: true },
  { name: 'a missing variable', body: { query: 'query($a: Address!) { account(address: $a) { address } }' }, eligible: true },
  { name: 'two operations, no name', body: { query: 'query A { serviceConfig { maxPageSize } } query B { serviceConfig { maxPageSize } }' }, eligible: true },
  { name: 'an unknown operation name', body: { query: '{ serviceConfig { maxPageSize } }', operationName: 'Nope' }, eligible: true },
  { name: 'a literal Address argument', body: { query: `{ account(address: "${ADDRESS}") { address } }` }, eligible: true },
  {
    name: 'a literal Address beside variables',
    body: { query: `query($n: Int) { account(address: "${ADDRESS}") { address } serviceConfig { maxPageSize } }`, variables: { n: 2 } },
    eligible: true,
  },
  { name: 'cost by variables: over the limit', body: { query: BY_PAGE_SIZE, variables: { n: 100 } }, eligible: true },
  {
    name: 'cost by variables: within the limit',
    body: { query: BY_PAGE_SIZE, variables: { n: 2 } },
    setup: () => {
      impl.transactions = async () => ({ transactions: [], address_book: {} });
    },
    eligible: true,
  },
  { name: 'a coded input error from a resolver', body: { query: `{ account(address: "${ADDRESS}") { transactions(first: 1, last: 1) { nodes { hash } } } }` }, eligible: true },
  { name: 'a bad literal Address', body: { query: '{ account(address: "nope") { address } }' }, eligible: true },
  {
    name: 'a field error beside data',
    body: { query: '{ masterchainInfo { last { seqno } } serviceConfig { maxPageSize } }' },
    setup: () => {
      impl.masterchainInfo = throwing(new Error('secret'));
    },
    eligible: true,
  },
  { name: 'a mutation', body: { query: 'mutation { sendMessage(boc: "te6cckEBAQEAAgAAAEysuc0=") { hash } }' }, eligible: true },
  { name: 'Accept: */*', body: { query: '{ serviceConfig { maxPageSize } }' }, headers: { accept: '*/*' }, eligible: true },
  { name: 'Accept: application/graphql-response+json', body: { query: '{ serviceConfig { nope } }' }, headers: { accept: 'application/graphql-response+json' }, eligible: false },
  { name: 'an Origin (CORS headers)', body: { query: '{ serviceConfig { maxPageSize } }' }, headers: { origin: 'http://example.test' }, eligible: false },
  { name: 'an unknown body field', body: { query: '{ serviceConfig { maxPageSize } }', foo: 1 }, eligible: false },
  { name: 'variables as a list', body: { query: '{ serviceConfig { maxPageSize } }', variables: [1] }, eligible: false },
  { name: 'a query that is not a string', body: { query: 1 }, eligible: false },
  { name: 'a batch', body: [{ query: '{ serviceConfig { maxPageSize } }' }], eligible: false },
  { name: 'a subscription over plain JSON', body: { query: 'subscription { blocks { seqno } }' }, eligible: false },
  { name: 'a document over the size limit', body: { query: `{ serviceConfig { maxPageSize } }#${'x'.repeat(40_000)}` }, eligible: false },
];

async function answer(server: TestServer, c: Case) {
  c.setup?.();
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { ...JSON_CT, ...c.headers }, body: JSON.stringify(c.body) });
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    retryAfter: res.headers.get('retry-after'),
    cors: res.headers.get('access-control-allow-origin'),
    body: await res.text(),
  };
}

describe('the fast path answers what yoga answers', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const b = await answer(slow, c);
      for (let i = 0; i < 3; i++) expect(await answer(fast, c)).toEqual(b);
      const request = { method: 'POST', headers: { ...JSON_CT, ...c.headers }, body: c.body } as unknown as FastifyRequest;
      expect(eligibleParams(request) !== undefined).toBe(c.eligible);
    });
  }

  it('the cases cover answers with data, errors and both', async () => {
    const bodies = await Promise.all(cases.filter((c) => c.eligible).map(async (c) => JSON.parse((await answer(fast, c)).body) as { data?: unknown; errors?: unknown[] }));
    expect(bodies.some((b) => b.data && !b.errors)).toBe(true);
    expect(bodies.some((b) => b.data && b.errors)).toBe(true);
    expect(bodies.some((b) => !b.data && b.errors)).toBe(true);
  });
});
