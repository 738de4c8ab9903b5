/**
 * Automatic persisted queries with Apollo Client's PersistedQueryLink against the real server: the first request
 * of a document carries its hash only and is answered PersistedQueryNotFound, the link resends it with the
 * document, and from then on (another client too, GET too) the hash alone is enough. A final answer fetched by
 * hash over GET carries the long-lived cache headers a CDN keeps.
 */
import { createHash } from 'node:crypto';
import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { IMMUTABLE } from '../../../src/surfaces/graphql/caching.js';
import { startServer, type TestServer } from './helpers.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

let chain: LocalChain;
let server: TestServer;

interface Seen {
  url: string;
  method: string;
  hasQuery: boolean;
  status: number;
  cacheControl: string | null;
  etag: string | null;
}

/** An Apollo Client whose link records each HTTP exchange (the exchange itself is the real fetch). */
function client(opts: { useGET?: boolean } = {}) {
  const seen: Seen[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(String(input));
    const hasQuery = init?.method === 'GET' ? url.searchParams.has('query') : 'query' in JSON.parse(String(init?.body ?? '{}'));
    seen.push({ url: url.href, method: init?.method ?? 'GET', hasQuery, status: res.status, cacheControl: res.headers.get('cache-control'), etag: res.headers.get('etag') });
    return res;
  };
  const link = new PersistedQueryLink({ sha256, useGETForHashedQueries: opts.useGET ?? false }).concat(
    new HttpLink({ uri: `${server.url}/graphql`, fetch: recording }),
  );
  return { apollo: new ApolloClient({ link, cache: new InMemoryCache() }), seen };
}

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-apq-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('automatic persisted queries', () => {
  it('registers a document on PersistedQueryNotFound, then serves it by hash to any client', async () => {
    const query = apolloGql`query Tip { masterchainInfo { last { seqno } } }`;
    const first = client();
    const r1 = await first.apollo.query({ query, fetchPolicy: 'no-cache' });
    expect((r1.data as any).masterchainInfo.last.seqno).toBeGreaterThan(0);
    expect(first.seen.map((s) => s.hasQuery)).toEqual([false, true]);
    // the tip: never to be kept, not even the not-found answer
    expect(first.seen.every((s) => s.cacheControl === 'no-store')).toBe(true);

    const second = client();
    const r2 = await second.apollo.query({ query, fetchPolicy: 'no-cache' });
    expect((r2.data as any).masterchainInfo.last.seqno).toBeGreaterThan(0);
    expect(second.seen.map((s) => s.hasQuery)).toEqual([false]);
  });

  it('over GET, a final answer by hash alone carries immutable caching and an ETag', async () => {
    const query = apolloGql`query Block($seqno: Int!) { block(workchain: -1, seqno: $seqno) { seqno rootHash fileHash } }`;
    const c = client({ useGET: true });
    const r1 = await c.apollo.query({ query, variables: { seqno: 1 }, fetchPolicy: 'no-cache' });
    expect((r1.data as any).block.seqno).toBe(1);
    // hash-only GET, then the registering POST (the link never sends a document over GET)
    expect(c.seen.map((s) => [s.method, s.hasQuery])).toEqual([
      ['GET', false],
      ['POST', true],
    ]);
    await c.apollo.query({ query, variables: { seqno: 1 }, fetchPolicy: 'no-cache' });
    const get = c.seen[2]!;
    expect([get.method, get.hasQuery, get.status]).toEqual(['GET', false, 200]);
    expect(get.cacheControl).toBe(IMMUTABLE);
    expect(get.etag).toMatch(/^"[\w-]+"$/);
    // the same URL again, as a browser or CDN would revalidate it
    const url = get.url;
    const direct = await fetch(url, { headers: { accept: 'application/json' } });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('etag')).toBe(get.etag);
    const again = await fetch(url, { headers: { accept: 'application/json', 'if-none-match': get.etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('refuses a hash that does not match the document, and an unknown protocol version, as bad input', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const query = '{ masterchainInfo { last { seqno } } }';
    const mismatch = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(`${query} `) } } });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as any).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const version = await post({ query, extensions: { persistedQuery: { version: 2, sha256Hash: sha256(query) } } });
    expect(version.status).toBe(400);
    const notHex = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'zz' } } });
    expect(notHex.status).toBe(400);
    const unknown = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ never sent }') } } });
    expect(unknown.status).toBe(200);
    expect(((await unknown.json()) as any).errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
  });
});
