/**
 * Graceful shutdown of the CLI: SIGTERM while GraphQL requests are in flight (their bodies only half sent, so
 * they are certainly mid-request) stops new connections, lets every one of them finish with 200, and exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/gateway.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IN_FLIGHT = 6;
const QUERY = JSON.stringify({ query: '{ masterchainInfo { last { seqno shards { workchain seqno } } } }' });

let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

interface Pending {
  finish(): void;
  done: Promise<{ status: number; body: string }>;
}

/** A POST /graphql whose headers and first half of the body are sent now, the rest on finish(). */
function halfSent(url: string): Pending {
  const u = new URL('/graphql', url);
  const cut = Math.floor(QUERY.length / 2);
  let finish = () => {};
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      u,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(QUERY) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(QUERY.slice(0, cut));
    finish = () => req.end(QUERY.slice(cut));
  });
  return { finish: () => finish(), done };
}

describe('SIGTERM', () => {
  it('drains requests in flight, refuses new connections and exits 0', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', '--block-interval', '200'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const lines: string[] = [];
    let stderr = '';
    let rest = '';
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      const parts = (rest + c).split('\n');
      rest = parts.pop()!;
      lines.push(...parts);
    });
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    const logs = () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);

    const url = await waitFor(async () => lines.map((l) => /^Listening on (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean), 30_000);
    await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 60_000, 200);

    const pending = Array.from({ length: IN_FLIGHT }, () => halfSent(url));
    // whole requests too, racing the signal; they must not fail either
    const racing = Array.from({ length: 3 }, () =>
      fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      })),
    );
    const arrived = () => logs().filter((e) => e.msg === 'incoming request' && e.req?.url === '/graphql').length;
    await waitFor(async () => (arrived() >= IN_FLIGHT + racing.length ? true : undefined), 15_000, 20);

    proc.kill('SIGTERM');
    await waitFor(async () => (logs().some((e) => e.msg === 'shutting down') ? true : undefined), 10_000, 20);
    // the listener is closed at once: a new connection is refused while the old requests still wait for their bodies
    await waitFor(
      async () =>
        fetch(`${url}/health`).then(
          () => undefined,
          () => true,
        ),
      5_000,
      50,
    );
    expect(proc.exitCode).toBeNull();

    for (const p of pending) p.finish();
    const results = await Promise.all([...pending.map((p) => p.done), ...racing]);
    for (const r of results) {
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body).data.masterchainInfo.last.seqno).toBeGreaterThan(0);
    }
    expect(await exited, stderr).toBe(0);
  }, 90_000);
});
