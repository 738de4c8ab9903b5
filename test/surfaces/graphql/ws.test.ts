/**
 * Subscriptions through the clients people configure: Apollo Client's GraphQLWsLink and graphql-ws's own client
 * over WebSocket (same port and path), graphql-sse's client in its distinct-connections and single-connection
 * modes; new blocks and an account's transactions on the local chain, with the same keys, limits and shutdown
 * as the SSE transport.
 */
import { ApolloClient, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { Address } from '@ton/core';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createYoga } from 'graphql-yoga';
import type { Gateway } from '../../../src/gateway.js';
import { schema } from '../../../src/surfaces/graphql/schema.js';
import { useGraphQLSSESingleConnection } from '../../../src/surfaces/graphql/sse.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/wait.js';

const fresh = (n: number): Address => new Address(0, Buffer.alloc(32, 0x40 + n));

async function faucet(url: string, address: Address, amount: bigint): Promise<string> {
  const res = await fetch(`${url}/localnet/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: address.toRawString(), amount: String(amount) }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { hash: string }).hash;
}

const BLOCKS = 'subscription { blocks { workchain seqno } }';
const TXS = 'subscription($accounts: [Address!]!) { transactions(accounts: $accounts) { hash account { address } } }';

const wsUrl = (url: string, query = '') => `${url.replace(/^http/, 'ws')}/graphql${query}`;

function wsClient(url: string, opts: { connectionParams?: Record<string, unknown>; query?: string; headers?: Record<string, string> } = {}): Client {
  class HeaderWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: opts.headers ?? {} });
    }
  }
  return createWsClient({
    url: wsUrl(url, opts.query),
    webSocketImpl: HeaderWebSocket,
    retryAttempts: 0,
    lazy: true,
    ...(opts.connectionParams ? { connectionParams: opts.connectionParams } : {}),
  });
}

/** The next result of a subscription iterator, or a failure after `ms`. */
async function next<T>(it: AsyncIterator<T>, ms = 20_000): Promise<IteratorResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([it.next(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no event in time')), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Subscriptions set up on the server so far, as its /metrics counts them. */
async function started(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^ton_graphql_subscriptions_started_total (\d+)$/m.exec(text)?.[1] ?? 0);
}

/**
 * Waits until `n` subscriptions more than `before` are set up on the server: a subscription's first event can only
 * come from a block sealed after that.
 */
const live = (url: string, before: number, n: number) =>
  waitFor(async () => ((await started(url)) >= before + n ? true : undefined), 20_000, 20);

describe('GraphQL over WebSocket and graphql-sse on the local chain', () => {
  let gw: Gateway;
  const clients: { dispose(): unknown }[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({
      subscriptions: { pollMs: 1000, maxPerClient: 3, maxAccounts: 2 },
      apiKeys: [
        { key: 'ws-key', networks: ['testnet'], rps: 0 },
        { key: 'mainnet-key', networks: ['mainnet'], rps: 0 },
        { key: 'slow-key', networks: ['testnet'], rps: 2 },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await gw?.close();
  });

  it("Apollo Client's GraphQLWsLink receives new blocks and an account's transactions", async () => {
    const wsc = wsClient(gw.url);
    clients.push(wsc);
    const apollo = new ApolloClient({ link: new GraphQLWsLink(wsc), cache: new InMemoryCache() });
    const blocks: any[] = [];
    const txs: any[] = [];
    const watched = fresh(1);
    const before = await started(gw.url);
    const s1 = apollo.subscribe({ query: apolloGql(BLOCKS) }).subscribe({ next: (r) => blocks.push(r) });
    const s2 = apollo
      .subscribe({ query: apolloGql(TXS), variables: { accounts: [watched.toRawString()] } })
      .subscribe({ next: (r) => txs.push(r) });
    await live(gw.url, before, 2);
    const hash = await faucet(gw.url, watched, 2_000_000_000n);
    await expect.poll(() => txs.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(txs[0].data.transactions.hash).toBe(hash);
    expect(txs[0].data.transactions.account.address).toBe(watched.toRawString().toUpperCase());
    await expect.poll(() => blocks.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(blocks[0].data.blocks.workchain).toBe(-1);
    s1.unsubscribe();
    s2.unsubscribe();
  }, 60_000);

  it("graphql-ws's client runs queries too, and a key in connectionParams or the URL is checked", async () => {
    const ok = wsClient(gw.url, { connectionParams: { apiKey: 'ws-key' } });
    clients.push(ok);
    const info = await next(ok.iterate({ query: '{ masterchainInfo { last { seqno } } }' }));
    expect((info.value as any).data.masterchainInfo.last.seqno).toBeGreaterThan(0);

    // connectionParams: refused in the protocol's own way (4403) with the HTTP stage's message
    for (const [key, reason] of [
      ['no-such-key', 'API key does not exist'],
      ['mainnet-key', 'Network not allowed'],
    ]) {
      const bad = wsClient(gw.url, { connectionParams: { apiKey: key } });
      clients.push(bad);
      const err = await next(bad.iterate({ query: '{ masterchainInfo { last { seqno } } }' })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 4403, reason });
    }

    // header or api_key on the upgrade request: the HTTP stage answers the handshake itself
    const status = (headers: Record<string, string>, query = '') =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(wsUrl(gw.url, query), 'graphql-transport-ws', { headers });
        ws.once('unexpected-response', (req, res) => {
          req.destroy();
          resolve(res.statusCode ?? 0);
        });
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('error', reject);
      });
    expect(await status({ 'x-api-key': 'no-such-key' })).toBe(401);
    expect(await status({}, '?api_key=mainnet-key')).toBe(403);
    expect(await status({ 'x-api-key': 'ws-key' })).toBe(101);

    // subscriptions-transport-ws's legacy subprotocol is not served: the handshake names no subprotocol
    const legacy = await new Promise<string>((resolve) => {
      const ws = new WebSocket(wsUrl(gw.url), 'graphql-ws');
      ws.once('error', (e) => resolve(e.message));
      ws.once('open', () => resolve(`open with ${ws.protocol}`));
    });
    expect(legacy).toBe('Server sent no subprotocol');
  });

  it("each operation takes a token of its key's rate limit, as an HTTP request does", async () => {
    const c = wsClient(gw.url, { connectionParams: { apiKey: 'slow-key' } });
    clients.push(c);
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        next(c.iterate({ query: '{ masterchainInfo { last { seqno } } }' })).then(
          (r) => (r.value as any).errors?.[0]?.extensions ?? 'ok',
          (e: any[]) => e[0].extensions,
        ),
      ),
    );
    expect(outcomes).toContain('ok');
    const refused = outcomes.filter((o) => o !== 'ok');
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const r of refused) expect(r).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
  });

  it('the SSE limits hold: subscriptions per client (key from connectionParams), accounts per subscription, depth', async () => {
    const c = wsClient(gw.url, { connectionParams: { apiKey: 'ws-key' } });
    clients.push(c);
    const before = await started(gw.url);
    const held = [c.iterate({ query: BLOCKS }), c.iterate({ query: BLOCKS }), c.iterate({ query: BLOCKS })];
    // an iterator subscribes when first pulled
    for (const it of held) void it.next().catch(() => undefined);
    await live(gw.url, before, 3);
    // as over SSE, a refused subscription is one result with the error, then complete
    const refused = await next(c.iterate({ query: BLOCKS }));
    expect((refused.value as any).errors[0].extensions.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    // another key's client has its own count
    const other = wsClient(gw.url);
    clients.push(other);
    const accounts = [fresh(2), fresh(3), fresh(4)].map((a) => a.toRawString());
    const tooMany = await next(other.iterate({ query: TXS, variables: { accounts } }));
    expect((tooMany.value as any).errors[0].extensions.code).toBe('TOO_MANY_ACCOUNTS');
    const deep = `subscription { blocks { ${'masterchainBlock { '.repeat(16)}seqno${' }'.repeat(16)} } }`;
    const tooDeep = await next(other.iterate({ query: deep }));
    expect((tooDeep.value as any).errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    for (const it of held) await it.return?.();
  }, 60_000);

  for (const singleConnection of [false, true]) {
    it(`graphql-sse's client (${singleConnection ? 'single connection' : 'distinct connections'}) receives blocks and transactions, and runs a query`, async () => {
      const client = createSseClient({ url: `${gw.url}/graphql`, singleConnection, retryAttempts: 0 });
      clients.push(client);
      const watched = fresh(singleConnection ? 6 : 5);
      const before = await started(gw.url);
      const blocks = client.iterate({ query: BLOCKS });
      const txs = client.iterate({ query: TXS, variables: { accounts: [watched.toRawString()] } });
      const firstBlock = next(blocks);
      const firstTx = next(txs);
      await live(gw.url, before, 2);
      const hash = await faucet(gw.url, watched, 1_000_000_000n);
      expect(((await firstTx).value as any).data.transactions.hash).toBe(hash);
      expect(((await firstBlock).value as any).data.blocks.workchain).toBe(-1);
      await blocks.return?.();
      await txs.return?.();
      // a query too: in single-connection mode its answer comes in the stream, not in the POST's response
      const info = await next(client.iterate({ query: '{ masterchainInfo { last { seqno } } }' }));
      expect((info.value as any).data.masterchainInfo.last.seqno).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe("graphql-sse's single-connection reservations", () => {
  it('refusals are coded errors; a reservation never opened is released', async () => {
    const gw = await startTestGateway();
    try {
      const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
        fetch(`${gw.url}${path}`, { method, headers, ...(body ? { body } : {}) }).then(async (r) => ({ status: r.status, body: await r.text() }));
      const put = await send('PUT', '/graphql');
      expect(put.status).toBe(201);
      const again = await send('PUT', '/graphql', { 'x-graphql-event-stream-token': put.body });
      expect(again.status).toBe(409);
      expect(JSON.parse(again.body).errors[0].extensions.code).toBe('BAD_REQUEST');
      // an operation sent before the stream is opened would have its answers held with no bound
      const early = await send(
        'POST',
        '/graphql',
        { 'x-graphql-event-stream-token': put.body, 'content-type': 'application/json' },
        JSON.stringify({ query: '{ masterchainInfo { last { seqno } } }', extensions: { operationId: 'early' } }),
      );
      expect(early.status).toBe(409);
      expect(JSON.parse(early.body).errors[0].extensions.code).toBe('STREAM_NOT_OPEN');
      const unknown = await send('DELETE', '/graphql?token=never-reserved&operationId=x');
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body).errors[0]).toMatchObject({ message: 'Stream not found', extensions: { code: 'BAD_REQUEST' } });
      const notText = await send('PUT', '/graphql', { accept: 'application/json' });
      expect(notText.status).toBe(406);
      expect(JSON.parse(notText.body).errors[0].extensions.code).toBe('BAD_REQUEST');
    } finally {
      await gw.close();
    }
    // the release, with a short time to live, on yoga alone
    const yoga = createYoga({ schema, plugins: [useGraphQLSSESingleConnection('/graphql', 50)] });
    const put = (token?: string) =>
      yoga.fetch('http://localhost/graphql', { method: 'PUT', headers: token ? { 'x-graphql-event-stream-token': token } : {} });
    const first = await put();
    expect(first.status).toBe(201);
    const token = await first.text();
    expect((await put(token)).status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await put(token)).status).toBe(201);
  });
});

describe('shutdown', () => {
  it('completes open subscriptions over WebSocket (then closes the socket with 1001) and graphql-sse single connection, and the gateway closes', async () => {
    const gw = await startTestGateway({ subscriptions: { pollMs: 1000, maxPerClient: 4, maxAccounts: 10 } });
    let closeCode: number | undefined;
    const client = createWsClient({
      url: wsUrl(gw.url),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      // kept open while idle, so the close seen is the server's
      lazy: false,
      // the server's 1001 is this client's expected end, not an error to print
      onNonLazyError: () => undefined,
      on: { closed: (e) => (closeCode = (e as { code: number }).code) },
    });
    const before = await started(gw.url);
    const blocks = client.iterate({ query: BLOCKS });
    const first = next(blocks);
    const sse = createSseClient({ url: `${gw.url}/graphql`, singleConnection: true, retryAttempts: 0 });
    const sseBlocks = sse.iterate({ query: BLOCKS });
    const sseFirst = next(sseBlocks);
    await live(gw.url, before, 2);
    await faucet(gw.url, fresh(9), 1_000_000_000n);
    expect(((await first).value as any).data.blocks.workchain).toBe(-1);
    expect(((await sseFirst).value as any).data.blocks.workchain).toBe(-1);
    const closing = gw.close();
    // the server's complete message ends each iterator normally, before the connection goes
    expect(await next(blocks)).toEqual({ done: true, value: undefined });
    expect(await next(sseBlocks)).toEqual({ done: true, value: undefined });
    await closing;
    sse.dispose();
    await expect.poll(() => closeCode, { timeout: 5_000 }).toBe(1001);
    await client.dispose();
  }, 120_000);
});
