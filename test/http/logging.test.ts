/** Structured logs: a request id per request, echoed in X-Request-Id, and no API key in any captured line. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway, type Gateway } from '../../src/gateway.js';
import { redactUrl } from '../../src/pipeline/logging.js';

const KEY = 'obs-test-key-7f3a9c2e51';
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let gw: Gateway;

beforeAll(async () => {
  const base = loadConfig([], {}) as Config;
  gw = await startGateway(
    { ...base, port: 0, quiet: true, blockInterval: 0, apiKeys: [{ key: KEY, networks: [base.network], rps: 0 }] },
    { log: { level: 'info', stream: sink } },
  );
});
afterAll(async () => {
  await gw?.close();
});

const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('request ids', () => {
  it('gives every response an X-Request-Id that its log lines carry', async () => {
    const a = await fetch(`${gw.url}/health`);
    const b = await fetch(`${gw.url}/health`);
    const idA = a.headers.get('x-request-id');
    const idB = b.headers.get('x-request-id');
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(idB).toMatch(/^[0-9a-f-]{36}$/);
    expect(idA).not.toBe(idB);
    const done = entries().filter((e) => e.reqId === idA);
    expect(done.map((e) => e.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });

  it('accepts a well-formed incoming id and replaces a malformed one', async () => {
    const ok = await fetch(`${gw.url}/health`, { headers: { 'x-request-id': 'client-trace.42:a_b' } });
    expect(ok.headers.get('x-request-id')).toBe('client-trace.42:a_b');
    const bad = await fetch(`${gw.url}/health`, { headers: { 'x-request-id': 'has spaces {"level":60}' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const long = await fetch(`${gw.url}/health`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(long.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is on refusals made before routing too', async () => {
    const res = await fetch(`${gw.url}/api/v2/getMasterchainInfo?api_key=wrong`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});

describe('secrets', () => {
  it('never writes an API key, given in the header or the query, to the logs', async () => {
    const r1 = await fetch(`${gw.url}/api/v2/getMasterchainInfo`, { headers: { 'x-api-key': KEY } });
    const r2 = await fetch(`${gw.url}/api/v2/getMasterchainInfo?api_key=${KEY}&x=1`, { headers: { 'x-lenient-params': '1' } });
    const r3 = await fetch(`${gw.url}/api/v3/masterchainInfo?API_KEY=${KEY}`);
    const r4 = await fetch(`${gw.url}/api/v2/getMasterchainInfo?api_key=${KEY}x`);
    expect([r1.status, r2.status, r3.status, r4.status]).toEqual([200, 200, 200, 401]);
    const log = lines.join('\n');
    expect(log).toContain('/api/v2/getMasterchainInfo?api_key=[Redacted]&x=1');
    expect(log).not.toContain(KEY);
  });

  it('logs a path spelled another way as the routes read it, and as it was sent, both redacted', async () => {
    const res = await fetch(`${gw.url}/%61pi//v2/getMasterchainInfo?api_key=${KEY}`);
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    const incoming = entries().find((e) => e.reqId === id && e.msg === 'incoming request') as { req: Record<string, unknown> };
    expect(incoming.req).toMatchObject({ url: '/api/v2/getMasterchainInfo?api_key=[Redacted]', originalUrl: '/%61pi//v2/getMasterchainInfo?api_key=[Redacted]' });
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('redacts api_key wherever it sits in a query', () => {
    expect(redactUrl('/a?x=1&api_key=s3&y=2')).toBe('/a?x=1&api_key=[Redacted]&y=2');
    expect(redactUrl('/a?api%5Fkey=s3')).toBe('/a?api_key=[Redacted]');
    expect(redactUrl('/a?api_key')).toBe('/a?api_key=[Redacted]');
    expect(redactUrl('/a?not_api_key=1')).toBe('/a?not_api_key=1');
    expect(redactUrl('/a')).toBe('/a');
  });
});
