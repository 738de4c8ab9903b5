/** Config from flags and environment: validated once, a bad value is one readable line and exit code 2. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseApiKeys, type Config } from '../src/config.js';

const run = promisify(execFile);

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 8080, backend: 'localnet', network: 'testnet', blockInterval: 1000, keylessRps: 0, apiKeys: [] });
  });

  it('bounds what a socket or stream may hold, by default and as given', () => {
    expect(loadConfig([], {})).toMatchObject({ sockets: { maxQueuedBytes: 8 * 1024 * 1024, maxOperations: 32, maxSockets: 10_000, keepAliveMs: 12_000 } });
    const c = loadConfig(['--max-queued-bytes', '1048576', '--keepalive-ms', '5000'], { MAX_SOCKET_OPERATIONS: '8', MAX_SOCKETS: '100' });
    expect(c).toMatchObject({ sockets: { maxQueuedBytes: 1_048_576, maxOperations: 8, maxSockets: 100, keepAliveMs: 5_000 } });
  });

  it("bounds how long a fork's message waits for its account and how many accounts load at once", () => {
    const fork = (argv: string[], env: NodeJS.ProcessEnv) => (loadConfig(['--fork', 'http://127.0.0.1:9', ...argv], env) as Config).fork;
    expect(fork([], {})).toMatchObject({ deliveryDeadlineMs: 120_000, deliveryLoads: 16 });
    expect(fork(['--fork-wait-ms', '5000'], { FORK_LOADS: '2' })).toMatchObject({ deliveryDeadlineMs: 5_000, deliveryLoads: 2 });
    expect(() => fork([], { FORK_WAIT_MS: '10' })).toThrow('FORK_WAIT_MS must be at least 1000');
    expect(() => fork(['--fork-loads', '0'], {})).toThrow('FORK_LOADS must be at least 1');
  });

  it('takes flags over environment variables', () => {
    const c = loadConfig(['--port', '9001', '--block-interval', '0'], { PORT: '9000', BLOCK_INTERVAL: '500', SEED: 's1' });
    expect(c).toMatchObject({ port: 9001, blockInterval: 0, seed: 's1' });
  });

  it.each([
    [['--port', 'abc'], {}, 'PORT must be a number'],
    [['--port', '70000'], {}, 'PORT must be at most 65535'],
    [[], { BLOCK_INTERVAL: '-1' }, 'BLOCK_INTERVAL must be at least 0'],
    [[], { NETWORK: 'moon' }, 'NETWORK must be mainnet or testnet'],
    [['--nope'], {}, "Unknown option '--nope'"],
    [['--max-queued-bytes', '1000'], {}, 'MAX_QUEUED_BYTES must be at least 65536'],
    [[], { MAX_SOCKET_OPERATIONS: '0' }, 'MAX_SOCKET_OPERATIONS must be at least 1'],
  ] as [string[], NodeJS.ProcessEnv, string][])('rejects %j %j', (argv, env, message) => {
    expect(() => loadConfig(argv, env)).toThrow(ConfigError);
    expect(() => loadConfig(argv, env)).toThrow(message);
  });

  it('parses API_KEYS and names the bad entry', () => {
    expect(parseApiKeys('a:testnet:5, b:mainnet|testnet:0')).toEqual([
      { key: 'a', networks: ['testnet'], rps: 5 },
      { key: 'b', networks: ['mainnet', 'testnet'], rps: 0 },
    ]);
    expect(() => parseApiKeys('a:testnet:5,broken')).toThrow('API_KEYS: entry 2 is not of the form key:network[|network]:rps');
    expect(() => parseApiKeys('a:venus:5')).toThrow("API_KEYS: entry 1 names unknown network 'venus'");
    expect(() => parseApiKeys('a:testnet:5,a:mainnet:1')).toThrow('API_KEYS: entry 2 repeats a key');
  });
});

describe('sources per interface', () => {
  const load = (argv: string[], env: NodeJS.ProcessEnv) => loadConfig(argv, env) as Config;

  it('takes BACKEND for both interfaces unless V2_SOURCE / V3_SOURCE name another', () => {
    expect(load([], {}).sources).toEqual({ v2: 'localnet', v3: 'localnet' });
    expect(load([], { BACKEND: 'toncenter' }).sources).toEqual({ v2: 'toncenter', v3: 'toncenter' });
    const mixed = load(['--v3-source', 'toncenter'], { V2_SOURCE: 'localnet', BACKEND: 'toncenter' });
    expect(mixed).toMatchObject({ backend: 'toncenter', sources: { v2: 'localnet', v3: 'toncenter' } });
    // toncenter's keyless limit: the default as soon as either interface is in front of it
    expect(load([], { V3_SOURCE: 'toncenter' }).keylessRps).toBe(1);
  });

  it('reads a base address as an upstream there: v3 from a ton-indexer, v2 from a ton-http-api in two settings', () => {
    const c = load([], { V3_SOURCE: 'http://indexer:8081/', V2_SOURCE: 'http://http-api:8082' });
    expect(c.sources).toEqual({ v2: 'toncenter', v3: 'toncenter' });
    expect(c.upstream).toMatchObject({ v2Url: 'http://http-api:8082', v3Url: 'http://indexer:8081' });
    const local = load(['--v2-source', 'https://toncenter.com'], {});
    expect(local.sources).toEqual({ v2: 'toncenter', v3: 'localnet' });
    expect(local.upstream.v2Url).toBe('https://toncenter.com');
  });

  it('gives each interface its own upstream key and pace, defaulting to the shared ones', () => {
    expect(load([], { BACKEND: 'toncenter', UPSTREAM_API_KEY: 'k' }).upstreamApis).toEqual({ v2: { apiKey: 'k', rps: 0 }, v3: { apiKey: 'k', rps: 0 } });
    expect(load([], { BACKEND: 'toncenter', UPSTREAM_RPS: '5' }).upstreamApis).toEqual({ v2: { apiKey: '', rps: 5 }, v3: { apiKey: '', rps: 5 } });
    const c = load(['--v2-upstream-rps', '3'], { BACKEND: 'toncenter', UPSTREAM_API_KEY: 'k', V3_UPSTREAM_API_KEY: '' });
    // a keyless v3 is paced like any keyless upstream; the v2 pace is the one given
    expect(c.upstreamApis).toEqual({ v2: { apiKey: 'k', rps: 3 }, v3: { apiKey: '', rps: 1 } });
    expect(load([], { V3_UPSTREAM_API_KEY: 'j' }).upstreamApis.v3).toEqual({ apiKey: 'j', rps: 0 });
  });

  it.each([
    [{ V2_SOURCE: 'tonapi' }, 'V2_SOURCE must be localnet, toncenter or an http(s) URL'],
    [{ V3_SOURCE: '' }, 'V3_SOURCE must be localnet, toncenter or an http(s) URL'],
    [{ V3_SOURCE: 'ftp://x' }, 'V3_SOURCE must be an http(s) URL without query or fragment'],
    [{ V2_SOURCE: 'http://a', V2_URL: 'http://b' }, 'V2_SOURCE gives an address and V2_URL another: set one of them'],
    [{ V3_UPSTREAM_RPS: '-1' }, 'V3_UPSTREAM_RPS must be at least 0'],
    [{ V2_UPSTREAM_RPS: 'fast' }, 'V2_UPSTREAM_RPS must be a number'],
  ] as [NodeJS.ProcessEnv, string][])('rejects %j', (env, message) => {
    expect(() => loadConfig([], env)).toThrow(ConfigError);
    expect(() => loadConfig([], env)).toThrow(message);
  });
});

describe('the CLI', () => {
  it('stops on a bad value with one line on stderr and exit code 2, no stack trace', async () => {
    const err = await run('npx', ['tsx', 'src/main.ts', '--port', 'abc'], { cwd: process.cwd() }).catch((e) => e as { code: number; stderr: string });
    expect((err as { code: number }).code).toBe(2);
    const lines = (err as { stderr: string }).stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual(['ton-graphql-gateway: PORT must be a number', 'Run with --help for the options.']);
  });

  it('names a bad source the same way', async () => {
    const err = (await run('npx', ['tsx', 'src/main.ts', '--v3-source', 'nowhere'], { cwd: process.cwd() }).catch((e) => e)) as { code: number; stderr: string };
    expect(err.code).toBe(2);
    const lines = err.stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual(['ton-graphql-gateway: V3_SOURCE must be localnet, toncenter or an http(s) URL', 'Run with --help for the options.']);
  });
});
