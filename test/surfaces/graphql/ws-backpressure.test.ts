/**
 * Issue 27, item 4: clients that do not read what they asked for. The gateway runs as the CLI in its own process
 * (so its RSS is the server's alone) with the default bounds, and a client sends 1,500 graphql-ws `subscribe`
 * messages for the introspection query (276 KB of answer each, 414 MB in all) on a socket whose reading it has
 * paused; unbounded, that queued about 2 GB in the server and stalled every other client for seconds, and three
 * such sockets killed it. Throughout, another client's ordinary query is timed and the server's RSS sampled.
 * The SSE variant streams introspection answers into a graphql-sse stream nobody reads. The keepalive, the count
 * of sockets and of operations per socket are checked on a server in this process with small bounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { waitFor } from '../../helpers/gateway.js';
import { startServer, stubSources, type TestServer } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const INTROSPECTION = getIntrospectionQuery();
const SUBSCRIBES = 1_500;
/** the other client's query */
const ORDINARY = '{ masterchainInfo { last { seqno } } }';
/** the bound on the server's growth during an attack */
const RSS_GROWTH_BOUND_MB = 512;
/** the bound on another client's wait during an attack */
const OTHER_CLIENT_MS = 1_000;
/** the gateway's default MAX_QUEUED_BYTES */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
const OVERFLOW_LOG = 'closing a socket whose client is not reading';
const KEEPALIVE_LOG = 'cutting a socket that did not answer its ping';
const SSE_OVERFLOW_LOG = 'ending a stream whose client is not reading';

let proc: ChildProcess;
let url: string;
let logs = '';

const post = (query: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

const rssMb = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) / 1024;

const count = (text: string, what: string): number => text.split(what).length - 1;

/** Resolves once the server has logged any of `what` `n` times in all. */
async function logged(what: string | string[], n: number, ms = 30_000): Promise<void> {
  const seen = () => [what].flat().reduce((sum, w) => sum + count(logs, w), 0);
  if (seen() >= n) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not log "${what}" ${n} times`)), ms);
    const check = () => {
      if (seen() < n) return;
      clearTimeout(timer);
      proc.stdout!.off('data', check);
      resolve();
    };
    proc.stdout!.on('data', check);
  });
}

/**
 * While `attack` runs: another client's ordinary query, one after another, each timed, and the server's RSS
 * sampled; answers the slowest query and the largest growth over the RSS before the attack.
 */
async function underAttack(attack: () => Promise<void>): Promise<{ slowestMs: number; growthMb: number; queries: number }> {
  const baseline = rssMb();
  let peak = baseline;
  let slowestMs = 0;
  let queries = 0;
  let running = true;
  const start = performance.now();
  const slow: string[] = [];
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
  const other = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${url}/graphql`, post(ORDINARY));
      const body = (await res.json()) as { data?: { masterchainInfo: { last: { seqno: number } } } };
      const ms = performance.now() - t0;
      if (ms > OTHER_CLIENT_MS / 2) slow.push(`${ms.toFixed(0)} ms at +${(t0 - start).toFixed(0)} ms`);
      slowestMs = Math.max(slowestMs, ms);
      expect(body.data!.masterchainInfo.last.seqno).toBeGreaterThan(0);
      queries++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await attack();
  } finally {
    running = false;
    clearInterval(sampler);
    await other;
  }
  // eslint-disable-next-line no-console
  if (slow.length > 0) console.log(`the other client's queries over ${OTHER_CLIENT_MS / 2} ms: ${slow.join(', ')}`);
  return { slowestMs, growthMb: peak - baseline, queries };
}

interface Attacker {
  ws: WebSocket;
  /** graphql-ws messages received, by type and error code */
  received: Map<string, number>;
  closed: Promise<{ code: number; reason: string }>;
  /** subscribe messages sent so far */
  sent(): number;
  /** sends no more */
  stop(): void;
  /** starts reading again */
  resume(): void;
}

const wsUrl = (base: string): string => `${base.replace(/^http/, 'ws')}/graphql`;

/** A graphql-ws socket past its connection_ack. */
async function acknowledged(base: string): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl(base), 'graphql-transport-ws');
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'connection_init' }));
  const [ack] = (await once(ws, 'message')) as [Buffer];
  expect(JSON.parse(ack.toString())).toEqual({ type: 'connection_ack' });
  return ws;
}

/** Counts graphql-ws messages by type (and an error's code). */
function tally(ws: WebSocket): Map<string, number> {
  const received = new Map<string, number>();
  ws.on('message', (data: Buffer) => {
    const m = JSON.parse(data.toString()) as { type: string; payload?: { extensions?: { code?: string } }[] };
    const key = m.type === 'error' ? `error:${m.payload?.[0]?.extensions?.code}` : m.type;
    received.set(key, (received.get(key) ?? 0) + 1);
  });
  return received;
}

const subscribe = (ws: WebSocket, id: number): void =>
  ws.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query: INTROSPECTION } }));

/**
 * A graphql-ws client that completes the handshake, stops reading, and asks for `n` introspection answers, 10 every
 * 100 ms, so the operations the server finishes are replaced by new ones, until `stop()`.
 */
async function attacker(n = SUBSCRIBES): Promise<Attacker> {
  const ws = await acknowledged(url);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  // writing to a socket the server has cut fails; the close is what is asserted
  ws.on('error', () => undefined);
  const received = tally(ws);
  const socket = (ws as unknown as { _socket: Socket })._socket;
  socket.pause();
  let sent = 0;
  // a first burst past the 32 operations a socket may hold open, sent in one go so that they arrive together
  // (operations sent 10 at a time may each finish before the next arrive, and none is ever refused)
  while (sent < Math.min(40, n)) subscribe(ws, sent++);
  const waves = setInterval(() => {
    for (let i = 0; i < 10 && sent < n && ws.readyState === WebSocket.OPEN; i++) subscribe(ws, sent++);
    if (sent >= n) clearInterval(waves);
  }, 100);
  return {
    ws,
    received,
    closed,
    sent: () => sent,
    stop: () => clearInterval(waves),
    resume: () => socket.resume(),
  };
}

/** A raw HTTP request on its own socket, which the caller reads or not. */
function rawRequest(path: string, headers: Record<string, string>): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const head = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\n${head.join('')}\r\n`);
  return once(socket, 'connect').then(() => socket);
}

describe('the CLI in its own process, default bounds', () => {
  beforeAll(async () => {
    proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', '--block-interval', '1000'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => (logs += c));
    url = await waitFor(async () => /Listening on (http:\/\/\S+)/.exec(logs)?.[1], 30_000);
    await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 90_000, 200);
    // the first of each query compiles what later ones reuse: the other client's times are taken after
    expect((await fetch(`${url}/graphql`, post(INTROSPECTION))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/graphql`, post(ORDINARY))).status).toBe(200);
    // and of the WebSocket path
    const ws = await acknowledged(url);
    const received = tally(ws);
    subscribe(ws, 0);
    await waitFor(async () => received.get('complete'), 20_000, 50);
    ws.close();
  }, 120_000);
  afterAll(() => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  });

  describe('graphql-ws: a client that does not read', () => {
    it('is closed with 4413 once its unread answers pass the bound; past 32 open operations the rest are refused unrun', async () => {
      let a!: Attacker;
      const seen = count(logs, OVERFLOW_LOG);
      const figures = await underAttack(async () => {
        a = await attacker();
        await logged(OVERFLOW_LOG, seen + 1);
        a.stop();
        // read now: what was queued, then the close frame the server sent after it
        a.resume();
        const { code, reason } = await a.closed;
        expect(code).toBe(4413);
        expect(reason).toBe(`More than ${MAX_QUEUED_BYTES} bytes queued unread: read the answers sent`);
      });
      const answers = a.received.get('next') ?? 0;
      const refused = a.received.get('error:TOO_MANY_OPERATIONS') ?? 0;
      // eslint-disable-next-line no-console
      console.log(
        `one socket: RSS +${figures.growthMb.toFixed(0)} MB, another client's slowest query ${figures.slowestMs.toFixed(0)} ms ` +
          `(${figures.queries} queries); ${a.sent()} subscribes sent, ${answers} answered, ${refused} refused as past 32 open`,
      );
      expect(figures.growthMb).toBeLessThan(RSS_GROWTH_BOUND_MB);
      expect(figures.slowestMs).toBeLessThan(OTHER_CLIENT_MS);
      // what the client got before the close frame: the answers that filled the queue, each whole
      expect(answers * 276_000).toBeGreaterThan(MAX_QUEUED_BYTES);
      expect(answers).toBeLessThan(SUBSCRIBES / 4);
      expect(refused).toBeGreaterThan(0);
    }, 60_000);

    it('three such sockets at once: each is cut, the server stays up, bounded, and answers others within 1 s', async () => {
      let attackers: Attacker[] = [];
      const overflows = count(logs, OVERFLOW_LOG);
      const seen = overflows + count(logs, KEEPALIVE_LOG);
      const figures = await underAttack(async () => {
        attackers = await Promise.all([attacker(), attacker(), attacker()]);
        // sharing the server's turns, each fills its queue a third as fast: past its bound, or when it leaves the
        // keepalive's ping unanswered (within 24 s), whichever comes first
        await logged([OVERFLOW_LOG, KEEPALIVE_LOG], seen + 3, 40_000);
        for (const a of attackers) a.stop();
      });
      const why = `${count(logs, OVERFLOW_LOG) - overflows} past the bound, the others at the keepalive`;
      // eslint-disable-next-line no-console
      console.log(`three sockets: RSS +${figures.growthMb.toFixed(0)} MB, another client's slowest query ${figures.slowestMs.toFixed(0)} ms (${figures.queries} queries); ${why}`);
      expect(figures.growthMb).toBeLessThan(RSS_GROWTH_BOUND_MB);
      expect(figures.slowestMs).toBeLessThan(OTHER_CLIENT_MS);
      expect(proc.exitCode).toBeNull();
      // the server closed them: reading again finds each closed (with its close frame, or cut after it)
      for (const a of attackers) a.resume();
      for (const a of attackers) expect([4413, 1006]).toContain((await a.closed).code);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    }, 60_000);
  });

  describe('graphql-sse: a stream nobody reads', () => {
    it('is ended once its unread bytes pass the bound; operations sent into it afterwards are refused', async () => {
      const seen = count(logs, SSE_OVERFLOW_LOG);
      let stream!: Socket;
      let accepted = 0;
      let afterwards = 0;
      const figures = await underAttack(async () => {
        const put = await fetch(`${url}/graphql`, { method: 'PUT' });
        expect(put.status).toBe(201);
        const token = await put.text();
        stream = await rawRequest('/graphql', { accept: 'text/event-stream', 'x-graphql-event-stream-token': token });
        // the headers come back; from then on the stream is never read
        await once(stream, 'data');
        stream.pause();
        const send = async (i: number) => {
          const res = await fetch(`${url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-graphql-event-stream-token': token },
            body: JSON.stringify({ query: INTROSPECTION, extensions: { operationId: String(i) } }),
          });
          await res.arrayBuffer();
          if (res.status === 202) accepted++;
          return res.status;
        };
        // 276 KB each: 8 MiB of queue and the sockets' kernel buffers fill in some tens of answers
        for (let i = 0; i < 300 && count(logs, SSE_OVERFLOW_LOG) === seen; i += 2) {
          await Promise.all([send(i), send(i + 1)]);
        }
        await logged(SSE_OVERFLOW_LOG, seen + 1);
        afterwards = await send(1_000);
      });
      // eslint-disable-next-line no-console
      console.log(`SSE: RSS +${figures.growthMb.toFixed(0)} MB, another client's slowest query ${figures.slowestMs.toFixed(0)} ms, ${accepted} operations streamed before the stream was ended`);
      expect(figures.growthMb).toBeLessThan(RSS_GROWTH_BOUND_MB);
      expect(figures.slowestMs).toBeLessThan(OTHER_CLIENT_MS);
      expect(accepted * 276_000).toBeGreaterThan(MAX_QUEUED_BYTES);
      expect(accepted).toBeLessThan(300);
      // the stream is gone: an operation for it finds no stream
      expect(afterwards).toBe(404);
      stream.resume();
      await once(stream, 'close');
      expect((await fetch(`${url}/health`)).status).toBe(200);
    }, 60_000);
  });
});

describe('per-socket bounds, on a server with small ones', () => {
  const KEEPALIVE_MS = 1_000;
  const MAX_SOCKETS = 4;
  const MAX_OPERATIONS = 8;
  let server: TestServer;
  beforeAll(async () => {
    const sockets = { maxQueuedBytes: MAX_QUEUED_BYTES, maxOperations: MAX_OPERATIONS, maxSockets: MAX_SOCKETS, keepAliveMs: KEEPALIVE_MS, maxQueuedBytesTotal: 2 ** 30 };
    server = await startServer({ ...stubSources(() => ({})), sockets });
  });
  afterAll(() => server?.close());

  it('an idle socket that stops reading misses its pings and is cut; one that reads stays open', async () => {
    const silent = await acknowledged(server.url);
    const reading = await acknowledged(server.url);
    const silentClosed = once(silent, 'close');
    (silent as unknown as { _socket: Socket })._socket.pause();
    // a ping every KEEPALIVE_MS; a socket is cut when the next comes with the last unanswered
    await new Promise((resolve) => setTimeout(resolve, 4 * KEEPALIVE_MS));
    (silent as unknown as { _socket: Socket })._socket.resume();
    expect((await silentClosed)[0]).toBe(1006);
    expect(reading.readyState).toBe(WebSocket.OPEN);
    reading.close();
    await once(reading, 'close');
  });

  it(`past ${MAX_SOCKETS} open sockets the next is closed with 1013`, async () => {
    const open = await Promise.all(Array.from({ length: MAX_SOCKETS }, () => acknowledged(server.url)));
    try {
      const extra = new WebSocket(wsUrl(server.url), 'graphql-transport-ws');
      const [code, reason] = (await once(extra, 'close')) as [number, Buffer];
      expect(code).toBe(1013);
      expect(reason.toString()).toBe(`Too many open sockets: at most ${MAX_SOCKETS}`);
    } finally {
      await Promise.all(open.map(async (ws) => (ws.close(), once(ws, 'close'))));
    }
  });

  it(`a client that reads gets every answer it asked for while at most ${MAX_OPERATIONS} are open, and a coded refusal for the rest`, async () => {
    const ws = await acknowledged(server.url);
    const received = tally(ws);
    const outcomes = new Map<string, string>();
    const refusals = new Set<string>();
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString()) as { id?: string; type: string; payload?: { message: string; extensions: { code: string; limit: number } }[] };
      if (m.type === 'error') refusals.add(JSON.stringify(m.payload));
      if (m.id !== undefined && m.type !== 'complete') outcomes.set(m.id, m.type);
    });
    const n = 40;
    for (let i = 0; i < n; i++) subscribe(ws, i);
    await expect.poll(() => outcomes.size, { timeout: 20_000 }).toBe(n);
    expect(received.get('next')).toBeGreaterThanOrEqual(MAX_OPERATIONS);
    expect(received.get('error:TOO_MANY_OPERATIONS')).toBeGreaterThan(0);
    const message = `Too many operations open on this socket: at most ${MAX_OPERATIONS}; wait for their results`;
    expect([...refusals].map((r) => JSON.parse(r))).toEqual([[{ message, extensions: { code: 'TOO_MANY_OPERATIONS', limit: MAX_OPERATIONS } }]]);
    // the socket is still open: a refusal is per operation, and one sent after the others finished runs
    outcomes.clear();
    subscribe(ws, n);
    await expect.poll(() => outcomes.get(String(n)), { timeout: 10_000 }).toBe('next');
    ws.close();
  }, 30_000);
});
