/**
 * toncenter-newer.md §1: every answer under /api/v3/ (a route's, an error, the 404 of an unknown path, the
 * OpenAPI document) carries `Server-timing: app;dur=<Go duration>` and `X-API-Version` (V3_API_VERSION,
 * default 1.3.0); other surfaces do not. Real HTTP on loopback against the gateway on the local chain, and in
 * upstream mode in front of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Gateway } from '../../src/gateway.js';
import { goDuration } from '../../src/pipeline/v3-headers.js';
import { startTestGateway } from '../helpers/gateway.js';
import { startUpstreamGateway } from '../sources/upstream/helpers.js';

/**
 * A header's bytes as UTF-8 (fetch hands them over one byte per character): `µ` travels as Go writes it, C2 B5, so
 * a lone B5 (latin1) does not decode and fails the match.
 */
const utf8 = (header: string | null): string | null => (header === null ? null : Buffer.from(header, 'latin1').toString('utf8'));

/** Go's Duration.String() of a duration under an hour: a number and one unit, or minutes then seconds. */
const GO_DURATION_TEXT = /^app;dur=(\d+ns|\d+(\.\d{1,3})?µs|\d+(\.\d{1,6})?ms|(\d+m)?\d+(\.\d{1,9})?s)$/;

describe('Go duration text', () => {
  it('prints as time.Duration.String() does', () => {
    expect(goDuration(0n)).toBe('0s');
    expect(goDuration(999n)).toBe('999ns');
    expect(goDuration(812_300n)).toBe('812.3µs');
    expect(goDuration(1_000n)).toBe('1µs');
    expect(goDuration(1_204_511n)).toBe('1.204511ms');
    expect(goDuration(20_000_000n)).toBe('20ms');
    expect(goDuration(2_500_000_000n)).toBe('2.5s');
    expect(goDuration(60_250_000_000n)).toBe('1m0.25s');
    expect(goDuration(3_600_000_000_000n)).toBe('1h0m0s');
    expect(goDuration(-1_500n)).toBe('-1.5µs');
  });
});

describe('V3_API_VERSION', () => {
  it('defaults to 1.3.0 and takes major.minor.patch only', () => {
    expect(loadConfig([], {})).toMatchObject({ v3ApiVersion: '1.3.0' });
    expect(loadConfig(['--v3-api-version', '1.2.10'], {})).toMatchObject({ v3ApiVersion: '1.2.10' });
    for (const bad of ['1.3', 'v1.3.0', '1.3.0-rc']) {
      expect(() => loadConfig([], { V3_API_VERSION: bad })).toThrow(ConfigError);
      expect(() => loadConfig([], { V3_API_VERSION: bad })).toThrow('V3_API_VERSION must be major.minor.patch');
    }
  });
});

describe('headers on every /api/v3/ answer, local chain and upstream mode', () => {
  let A: Gateway;
  let B: Gateway;

  beforeAll(async () => {
    A = await startTestGateway({ v3ApiVersion: '1.2.10' });
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
  }, 120_000);
  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  const V3_ANSWERS: [string, number][] = [
    ['/api/v3/masterchainInfo', 200],
    // a list answer, which the server writes as bytes (the others as text): the header's bytes are the same
    ['/api/v3/transactions?limit=3', 200],
    ['/api/v3/transactions?limit=5000', 422],
    ['/api/v3/adjacentTransactions', 422],
    ['/api/v3/no/such/route', 404],
    ['/api/v3/openapi.json', 200],
  ];

  it('stamps Server-timing (Go duration) and X-API-Version on routes, errors, 404s and the document', async () => {
    for (const [gw, version] of [[A, '1.2.10'], [B, '1.3.0']] as const) {
      for (const [path, status] of V3_ANSWERS) {
        const res = await fetch(gw.url + path);
        await res.arrayBuffer();
        expect(res.status, path).toBe(status);
        expect(utf8(res.headers.get('server-timing')), path).toMatch(GO_DURATION_TEXT);
        expect(res.headers.get('x-api-version'), path).toBe(version);
      }
      const post = await fetch(`${gw.url}/api/v3/message`, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
      await post.arrayBuffer();
      expect(post.status).toBe(422);
      expect(post.headers.get('x-api-version')).toBe(version);
    }
  });

  it('leaves the other surfaces alone', async () => {
    for (const path of ['/health', '/api/v2/getMasterchainInfo', '/api/v3x']) {
      const res = await fetch(A.url + path);
      await res.arrayBuffer();
      expect(res.headers.get('x-api-version'), path).toBeNull();
      expect(res.headers.get('server-timing'), path).toBeNull();
    }
  });

  it('times the Emulate API in the same Go duration text', async () => {
    const res = await fetch(`${A.url}/api/emulate/v1/emulateTrace`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await res.arrayBuffer();
    expect(utf8(res.headers.get('server-timing'))).toMatch(GO_DURATION_TEXT);
    expect(res.headers.get('x-api-version')).toBeNull();
  });
});
