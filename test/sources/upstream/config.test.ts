/** Upstream-mode options: defaults by network and key, validation in one readable line. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../../src/config.js';

const load = (argv: string[], env: NodeJS.ProcessEnv) => loadConfig(argv, env) as Config;

describe('upstream config', () => {
  it('defaults to the network\'s toncenter, 1 rps keyless, and keeps the local chain at 0 keyless rps', () => {
    expect(load([], { BACKEND: 'toncenter' })).toMatchObject({
      backend: 'toncenter',
      keylessRps: 1,
      upstream: { v2Url: 'https://testnet.toncenter.com', v3Url: 'https://testnet.toncenter.com', apiKey: '', rps: 1, timeoutMs: 15_000, maxBytes: 64 * 1024 * 1024, cacheMb: 64, accountTtlMs: 1_000 },
    });
    expect(load(['--backend', 'toncenter', '--network', 'mainnet'], {}).upstream.v2Url).toBe('https://toncenter.com');
    expect(load([], {}).keylessRps).toBe(0);
  });

  it('is unpaced with an API key, and takes flags over the environment', () => {
    expect(load([], { BACKEND: 'toncenter', UPSTREAM_API_KEY: 'k' }).upstream).toMatchObject({ apiKey: 'k', rps: 0 });
    const c = load(['--v2-url', 'http://127.0.0.1:8081/prefix/', '--upstream-rps', '3', '--upstream-max-bytes', '1048576'], {
      BACKEND: 'toncenter',
      V2_URL: 'http://ignored',
      V3_URL: 'http://127.0.0.1:8082',
      UPSTREAM_TIMEOUT_MS: '500',
      UPSTREAM_MAX_BYTES: '2048',
      CACHE_MB: '0',
      ACCOUNT_TTL_MS: '0',
      KEYLESS_RPS: '0',
    });
    expect(c.keylessRps).toBe(0);
    expect(c.upstream).toMatchObject({ v2Url: 'http://127.0.0.1:8081/prefix', v3Url: 'http://127.0.0.1:8082', rps: 3, timeoutMs: 500, maxBytes: 1_048_576, cacheMb: 0, accountTtlMs: 0 });
    expect(load([], { BACKEND: 'toncenter', UPSTREAM_MAX_BYTES: '2048' }).upstream.maxBytes).toBe(2048);
  });

  it.each([
    [{ BACKEND: 'tonapi' }, 'BACKEND must be localnet or toncenter'],
    [{ V2_URL: 'not a url' }, 'V2_URL must be an http(s) URL'],
    [{ V3_URL: 'ftp://x' }, 'V3_URL must be an http(s) URL without query or fragment'],
    [{ UPSTREAM_RPS: '-1' }, 'UPSTREAM_RPS must be at least 0'],
    [{ UPSTREAM_TIMEOUT_MS: 'soon' }, 'UPSTREAM_TIMEOUT_MS must be a number'],
    [{ UPSTREAM_MAX_BYTES: '100' }, 'UPSTREAM_MAX_BYTES must be at least 1024'],
    [{ UPSTREAM_MAX_BYTES: String(2 ** 30) }, 'UPSTREAM_MAX_BYTES must be at most 524288000'],
    [{ CACHE_MB: '1.5' }, 'CACHE_MB must be a whole number'],
    [{ ACCOUNT_TTL_MS: '-5' }, 'ACCOUNT_TTL_MS must be at least 0'],
  ] as [NodeJS.ProcessEnv, string][])('rejects %j', (env, message) => {
    expect(() => loadConfig([], env)).toThrow(ConfigError);
    expect(() => loadConfig([], env)).toThrow(message);
  });
});
