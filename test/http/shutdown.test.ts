/**
 * Graceful shutdown of the CLI: SIGTERM while GraphQL requests are in flight (their bodies only half sent, so
 * they are certainly mid-request) stops new connections, lets every one of them finish with 200, and exits 0.
 * And shutdown always ends, whatever became of the process' output: with its stdout/stderr pipes closed (a
 * parent that died) it exits 0 at once; with pipes still open but no longer read (a parent that stopped
 * reading), it exits 0 within the deadline, dropping the lines nobody takes.
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
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of [child, ...children]) if (c && c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
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

/** --shutdown-timeout-ms of these runs: past it the process exits with 1, so an exit 0 sooner is a clean shutdown */
const DEADLINE_MS = 3000;

/** The CLI with piped stdout/stderr, once it listens and is healthy. */
async function startPiped(): Promise<{ proc: ChildProcess; url: string; ended: Promise<{ code: number | null; signal: string | null; at: number }> }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', '0', '--block-interval', '200', '--shutdown-timeout-ms', String(DEADLINE_MS)],
    { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(proc);
  const ended = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  let out = '';
  const onData = (c: Buffer) => (out += c.toString('utf8'));
  proc.stdout!.on('data', onData);
  const url = await waitFor(async () => /Listening on (http:\/\/\S+)/.exec(out)?.[1], 30_000);
  await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 60_000, 200);
  proc.stdout!.off('data', onData);
  return { proc, url, ended };
}

describe('shutdown always ends', () => {
  it('with its output pipes closed, as a dead parent leaves them: exit 0 well within the deadline', async () => {
    const { proc, url, ended } = await startPiped();
    proc.stdout!.destroy();
    proc.stderr!.destroy();
    // log lines now go nowhere (EPIPE); the server keeps answering
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/health`)).status).toBe(200);
    const sent = Date.now();
    proc.kill('SIGTERM');
    const end = await ended;
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.at - sent).toBeLessThan(DEADLINE_MS);
  }, 90_000);

  it('with its output pipes open but unread, the pipe full: the lines it cannot hand over are dropped and it exits 0 within the deadline', async () => {
    const { proc, url, ended } = await startPiped();
    proc.stdout!.pause();
    proc.stderr!.pause();
    // each request logs its 7 KB URL: 4 MB of lines, far past what the pipe (a socket pair) holds
    const long = `${url}/api/v2/getMasterchainInfo?pad=${'x'.repeat(7000)}`;
    const statuses = await Promise.all(Array.from({ length: 600 }, () => fetch(long, { headers: { 'x-lenient-params': '1' } }).then((r) => r.status)));
    // the log writes are asynchronous and bounded: the server keeps answering while nobody reads its output
    expect(new Set(statuses)).toEqual(new Set([200]));
    const sent = Date.now();
    proc.kill('SIGTERM');
    const end = await ended;
    expect(end).toMatchObject({ code: 0, signal: null });
    expect(end.at - sent).toBeLessThan(DEADLINE_MS);
    // what the pipe held is still there to read; the rest was dropped, not waited for
    let received = 0;
    proc.stdout!.on('data', (c: Buffer) => (received += c.length));
    proc.stdout!.resume();
    await new Promise((resolve) => proc.stdout!.on('close', resolve));
    expect(received).toBeLessThan(600 * 7000);
  }, 90_000);
});
