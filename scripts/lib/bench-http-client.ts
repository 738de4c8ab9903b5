/**
 * An HTTP client in a process of its own, for benchmarks that time a gateway route as a remote caller would see
 * it: the caller's work (building the request, reading the answer) does not run on the gateway's main thread, as
 * it does with `fetch` in the benchmark's own process.
 *
 * The parent sends `{ n, url, body }` over IPC; this process POSTs `body` (JSON) to `url` on one kept-alive undici
 * connection, reads the whole answer, and replies `{ n, ms, status, bytes }`: `ms` from the request's start to the
 * answer's last byte, measured here. Started with `startHttpClient()`; ended with `close()`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Timed {
  ms: number;
  status: number;
  bytes: number;
}

export interface HttpClient {
  post(url: string, body: string): Promise<Timed>;
  close(): Promise<void>;
}

interface Ask {
  n: number;
  url: string;
  body: string;
}

/** The parent's side: a child running this file, one request at a time. */
export async function startHttpClient(): Promise<HttpClient> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map<number, (t: Timed) => void>();
  child.on('message', (m: Timed & { n: number }) => {
    waiting.get(m.n)?.(m);
    waiting.delete(m.n);
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  let next = 0;
  return {
    post: (url, body) =>
      new Promise<Timed>((resolve) => {
        const n = next++;
        waiting.set(n, resolve);
        child.send({ n, url, body } satisfies Ask);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

async function runChild(): Promise<void> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connections: 1, pipelining: 1, keepAliveTimeout: 60_000 });
  process.on('message', async (m: Ask) => {
    const t = performance.now();
    const res = await request(m.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: m.body, dispatcher });
    const buf = Buffer.from(await res.body.arrayBuffer());
    process.send!({ n: m.n, ms: performance.now() - t, status: res.statusCode, bytes: buf.length });
  });
  process.on('disconnect', () => void dispatcher.close().then(() => process.exit(0)));
  process.send!({ ready: true });
}

if (process.argv.includes('--child')) await runChild();
