/**
 * GET /metrics: the HTTP counters and histogram move per request, the chain-height gauge follows new blocks, and the
 * subscription counter and gauge follow a subscription's life.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { fetchWallets, startTestGateway } from '../helpers/gateway.js';
import { waitFor } from '../helpers/wait.js';

let gw: Gateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${gw.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one sample line, selected by its exact name and label set; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = m[2] ? m[2].split(/,(?=[a-zA-Z_]+=")/) : [];
    if (got.length === want.length && want.every((w) => got.includes(w))) return Number(m[3]);
  }
  return 0;
}

describe('/metrics', () => {
  it('counts a subscription once it is set up, and as open until its client goes', async () => {
    const read = async () => {
      const text = await scrape();
      return { started: sample(text, 'ton_graphql_subscriptions_started_total'), open: sample(text, 'ton_graphql_subscriptions_open') };
    };
    const before = await read();
    const client = new AbortController();
    const res = await fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { blocks { seqno } }' }),
      signal: client.signal,
    });
    expect(res.status).toBe(200);
    const during = await waitFor(async () => {
      const now = await read();
      return now.open === before.open + 1 ? now : undefined;
    });
    expect(during.started).toBe(before.started + 1);
    client.abort();
    await res.body?.cancel().catch(() => undefined);
    const after = await waitFor(async () => {
      const now = await read();
      return now.open === before.open ? now : undefined;
    });
    expect(after.started).toBe(before.started + 1);
  });

  it('exposes every gateway metric family', async () => {
    const text = await scrape();
    for (const name of [
      'ton_gateway_http_requests_total',
      'ton_gateway_http_request_duration_seconds',
      'ton_graphql_source_calls_total',
      'ton_gateway_upstream_requests_total',
      'ton_gateway_upstream_cache_total',
      'ton_gateway_upstream_queue_depth',
      'ton_gateway_localnet_masterchain_seqno',
      'ton_graphql_subscriptions_started_total',
      'ton_graphql_subscriptions_open',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
  });

  it('counts a request under its route pattern, method and status, and times it', async () => {
    const labels = { route: '/api/v2/getMasterchainInfo', method: 'GET', status: '200' };
    const before = await scrape();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw.url}/api/v2/getMasterchainInfo?x=${i}`, { headers: { 'x-lenient-params': '1' } });
      expect(res.status).toBe(200);
    }
    const after = await scrape();
    expect(sample(after, 'ton_gateway_http_requests_total', labels) - sample(before, 'ton_gateway_http_requests_total', labels)).toBe(3);
    expect(
      sample(after, 'ton_gateway_http_request_duration_seconds_count', labels) -
        sample(before, 'ton_gateway_http_request_duration_seconds_count', labels),
    ).toBe(3);
    // the raw URL (with its query) never becomes a label
    expect(after).not.toContain('x=1');
  });

  it('labels unknown paths as unmatched and counts GraphQL source calls', async () => {
    expect((await fetch(`${gw.url}/no/such/${Math.random()}`)).status).toBe(404);
    const gql = await fetch(`${gw.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ masterchainInfo { last { seqno } } }' }),
    });
    expect(gql.status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'ton_gateway_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBeGreaterThan(0);
    expect(sample(text, 'ton_gateway_http_requests_total', { route: '/graphql', method: 'POST', status: '200' })).toBeGreaterThan(0);
    expect(text).toMatch(/^ton_graphql_source_calls_total\{[^}]*\} [1-9]/m);
  });

  it('follows the local chain height as blocks are made', async () => {
    const h0 = sample(await scrape(), 'ton_gateway_localnet_masterchain_seqno');
    expect(h0).toBe(gw.chain!.store.lastMc.seqno);
    const [w] = await fetchWallets(gw.url);
    const res = await fetch(`${gw.url}/localnet/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: w!.address, amount: '1000000' }),
    });
    expect(res.status).toBe(200);
    const h1 = sample(await scrape(), 'ton_gateway_localnet_masterchain_seqno');
    expect(h1).toBeGreaterThan(h0);
    expect(h1).toBe(gw.chain!.store.lastMc.seqno);
  });
});
