/** Config from flags and environment: validated once, a bad value is one readable line and exit code 2. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseApiKeys } from '../src/config.js';

const run = promisify(execFile);

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 8080, backend: 'localnet', network: 'testnet', blockInterval: 1000, keylessRps: 0, apiKeys: [] });
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

describe('the CLI', () => {
  it('stops on a bad value with one line on stderr and exit code 2, no stack trace', async () => {
    const err = await run('npx', ['tsx', 'src/main.ts', '--port', 'abc'], { cwd: process.cwd() }).catch((e) => e as { code: number; stderr: string });
    expect((err as { code: number }).code).toBe(2);
    const lines = (err as { stderr: string }).stderr.split('\n').filter((l) => l && !l.startsWith('npm warn'));
    expect(lines).toEqual(['ton-graphql-gateway: PORT must be a number', 'Run with --help for the options.']);
  });
});
