/**
 * A real redis-server for the tests: REDIS_TEST_URL when set (`.ci/run` starts one), else a child process on a
 * free loopback port with persistence off, killed by stop().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from '../sources/upstream/helpers.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  /** stops a spawned server (no-op for REDIS_TEST_URL) */
  stop(): Promise<void>;
}

/** True when some Redis can be had: a given URL or Debian's redis-server package. */
export const haveRedis = (): boolean => Boolean(process.env.REDIS_TEST_URL) || existsSync(REDIS_SERVER);

/** The shared test Redis when one is given, else a fresh child process. */
export async function testRedis(): Promise<TestRedis> {
  const given = process.env.REDIS_TEST_URL;
  if (given) return { url: given, stop: async () => {} };
  return spawnRedis();
}

/** Always a child process of its own (on `port`, else a free one), for tests that stop Redis under a running gateway. */
export async function spawnRedis(port?: number): Promise<TestRedis & { process: ChildProcess }> {
  port ??= await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await waitForPing(url);
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

async function waitForPing(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    probe.on('error', () => {});
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server at ${url} did not answer within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      probe.disconnect();
    }
  }
}
