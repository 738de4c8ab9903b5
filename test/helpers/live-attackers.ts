/**
 * The other processes of the live-event attack tests (test/helpers/live-attack.ts): the probe, an ordinary client
 * timing a v2 read and a small GraphQL query every 200 ms, and each attacker of issue 41, so that neither their
 * work nor the test runner's pauses are counted against the gateway.
 *
 *   node --import tsx test/helpers/live-attackers.ts <name> <url> <json options>
 *
 * Each prints one JSON object per line: what it saw, and `{"t":"done",…}` with its tally once it has finished or
 * has been told to stop (a line on stdin); some take further commands on stdin.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import net from 'node:net';
import WebSocket from 'ws';

const [name, url, json] = process.argv.slice(2) as [string, string, string | undefined];
const opts = JSON.parse(json ?? '{}') as Record<string, any>;
const out = (o: object): void => void process.stdout.write(`${JSON.stringify(o)}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const wsUrl = `${url.replace(/^http/, 'ws')}/api/streaming/v2/ws`;

let stopped = false;
const commands: ((line: string) => void)[] = [];
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'stop') stopped = true;
  for (const c of commands) c(line);
});
process.stdin.on('end', () => (stopped = true));

/** Counts things by name. */
class Tally {
  readonly counts: Record<string, number> = {};
  add(key: string, n = 1): void {
    this.counts[key] = (this.counts[key] ?? 0) + n;
  }
}

/** A reply's kind: its status, or its error text with numbers taken out (so the texts of one refusal count as one). */
const kindOf = (data: Buffer | string): string => {
  try {
    const m = JSON.parse(data.toString()) as { status?: string; error?: string; type?: string };
    if (m.status) return m.status;
    if (m.error) return `error: ${m.error.replace(/\d+/g, 'N')}`;
    return m.type ? `event: ${m.type}` : 'other';
  } catch {
    return 'unparsable';
  }
};

/** A v2 read and a small GraphQL query every 200 ms, each timed; prints each pair. */
async function probe(): Promise<void> {
  const query = JSON.stringify({ query: '{ masterchainInfo { last { seqno } } }' });
  while (!stopped) {
    const line: Record<string, unknown> = { t: 'probe', at: Date.now() };
    try {
      let t0 = performance.now();
      const v2 = await fetch(`${url}/api/v2/getMasterchainInfo`, { signal: AbortSignal.timeout(20_000) });
      const v2Body = (await v2.json()) as { ok?: boolean };
      line.v2 = performance.now() - t0;
      if (v2.status !== 200 || !v2Body.ok) line.fail = `v2 ${v2.status}`;
      t0 = performance.now();
      const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: query, signal: AbortSignal.timeout(20_000) });
      const gqlBody = (await gql.json()) as { data?: { masterchainInfo?: { last?: { seqno?: number } } } };
      line.gql = performance.now() - t0;
      if (gql.status !== 200 || !(gqlBody.data?.masterchainInfo?.last?.seqno! > 0)) line.fail = `graphql ${gql.status}`;
    } catch (e) {
      line.fail = String(e);
    }
    out(line);
    await sleep(200);
  }
  out({ t: 'done' });
}

/** A streaming WebSocket, open. */
async function openWs(): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl);
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', (code) => reject(new Error(`closed ${code} before it opened`)));
  });
  return ws;
}

/**
 * Attack 1: one socket (or `sockets`) that never reads, sending 2-byte frames as fast as the server takes them.
 * On `read` it reads again: what the server queued, then how it closed.
 */
async function tinyFrames(): Promise<void> {
  const n = opts.sockets ?? 1;
  const tally = new Tally();
  const closes: { code: number; reason: string; afterMs: number }[] = [];
  let sent = 0;
  const start = performance.now();
  const sockets = await Promise.all(Array.from({ length: n }, openWs));
  let open = n;
  const ended = new Promise<void>((resolve) => {
    for (const ws of sockets) {
      ws.pause();
      ws.on('message', (d: Buffer) => tally.add(kindOf(d)));
      ws.once('close', (code, reason) => {
        closes.push({ code, reason: reason.toString(), afterMs: performance.now() - start });
        if (--open === 0) resolve();
      });
    }
  });
  commands.push((line) => {
    if (line === 'read') for (const ws of sockets) ws.resume();
  });
  out({ t: 'ready' });
  const frame = Buffer.from('{}');
  // as fast as the server reads them: the client's own buffer kept small
  while (!stopped && open > 0) {
    for (const ws of sockets) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      for (let i = 0; i < 256 && ws.bufferedAmount < 256 * 1024; i++, sent++) ws.send(frame);
    }
    await new Promise((r) => setImmediate(r));
  }
  out({ t: 'stopped', sent });
  await Promise.race([ended, sleep(opts.waitCloseMs ?? 15_000)]);
  out({ t: 'done', sent, closes, replies: tally.counts });
  for (const ws of sockets) ws.terminate();
}

/** `n` addresses in raw form, made from a seed. */
function addresses(seed: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `0:${((seed * 1_000_003 + i) >>> 0).toString(16).toUpperCase().padStart(8, '0').repeat(8)}`);
}

/**
 * Attack 2: `sockets` sockets, each sending `rate` messages a second, subscribe and unsubscribe of 900 addresses
 * in turn, reading every reply; until told to stop.
 */
async function storm(): Promise<void> {
  const n = opts.sockets ?? 100;
  const rate = opts.rate ?? 10;
  const size = opts.addresses ?? 900;
  const tally = new Tally();
  const closes = new Tally();
  const sockets = await Promise.all(Array.from({ length: n }, openWs));
  let sent = 0;
  sockets.forEach((ws, k) => {
    ws.on('message', (d: Buffer) => tally.add(kindOf(d)));
    ws.once('close', (code, reason) => closes.add(`${code} ${reason.toString().replace(/\d+/g, 'N')}`));
    const list = addresses(k, size);
    let i = 0;
    const timer = setInterval(() => {
      if (stopped || ws.readyState !== WebSocket.OPEN) return clearInterval(timer);
      const op = i++ % 2 === 0 ? 'subscribe' : 'unsubscribe';
      ws.send(JSON.stringify(op === 'subscribe' ? { id: String(i), operation: op, types: ['transactions'], addresses: list } : { id: String(i), operation: op, addresses: list }));
      sent++;
    }, 1000 / rate);
  });
  out({ t: 'ready' });
  while (!stopped) await sleep(100);
  // the replies still on their way
  await sleep(1_000);
  out({ t: 'done', sent, replies: tally.counts, closes: closes.counts });
  for (const ws of sockets) ws.terminate();
}

/** Opens an SSE stream on a bare socket, the request written by hand; the caller reads it or not. */
function sseSocket(body: object, headers: Record<string, string>): net.Socket {
  const { hostname, port } = new URL(url);
  const text = JSON.stringify(body);
  const socket = net.connect(Number(port), hostname);
  const head = { host: `${hostname}:${port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers };
  socket.write(`POST /api/streaming/v2/sse HTTP/1.1\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${text}`);
  socket.on('error', () => undefined);
  return socket;
}

/** The status of an HTTP answer read so far, and the count of `id:` lines (finalized events) in it. */
function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

/**
 * Attack 3: `clients` SSE clients resuming from `cursor` at once, each reading all it is sent; each reports its
 * status, the finalized events it got, and how its stream ended (or that it is still open when told to stop).
 */
async function resumeStorm(): Promise<void> {
  const n = opts.clients ?? 100;
  const body = { types: opts.types ?? ['transactions'], addresses: opts.addresses };
  const results = new Tally();
  const events: number[] = [];
  const done = await Promise.all(
    Array.from(
      { length: n },
      (_, k) =>
        new Promise<void>((resolve) => {
          const socket = sseSocket(body, { 'last-event-id': String(opts.cursor ?? 0) });
          let head = '';
          let status = 0;
          let ids = 0;
          let tail = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => {
            if (!status) {
              head += chunk;
              status = statusOf(head);
              chunk = head;
            }
            const text = tail + chunk;
            ids += (text.match(/\nid: /g) ?? []).length;
            tail = text.slice(-8);
          });
          let finished = false;
          const finish = (how: string) => {
            // the stop's own destroy closes the socket too: counted once, as open
            if (finished) return;
            finished = true;
            results.add(`${status} ${how}`);
            events[k] = ids;
            resolve();
          };
          socket.once('end', () => finish('ended'));
          socket.once('close', () => finish('closed'));
          const check = setInterval(() => {
            if (!stopped) return;
            clearInterval(check);
            finish('open');
            socket.destroy();
          }, 100);
          socket.once('close', () => clearInterval(check));
        }),
    ),
  );
  void done;
  out({ t: 'done', results: results.counts, events });
}

/** Attack 3, second part: `total` SSE resumes from `cursor`, `rate` a second, each closed as soon as it is sent. */
async function hitAndRun(): Promise<void> {
  const body = { types: opts.types ?? ['transactions'], addresses: opts.addresses };
  let opened = 0;
  out({ t: 'ready' });
  while (!stopped && opened < (opts.total ?? 300)) {
    const socket = sseSocket(body, { 'last-event-id': String(opts.cursor ?? 0) });
    opened++;
    socket.once('connect', () => setTimeout(() => socket.destroy(), opts.holdMs ?? 0));
    await sleep(1000 / (opts.rate ?? 10));
  }
  out({ t: 'done', opened });
}

/**
 * Attack 4: WebSocket subscribers, each of its own addresses (a list per socket, in the JSON file `listsFile`), that stop reading
 * once subscribed; reports how each was closed when told to stop (after reading what is left on `read`).
 */
async function unreadSubscribers(): Promise<void> {
  const lists = JSON.parse(readFileSync(opts.listsFile as string, 'utf8')) as string[][];
  const closes = new Tally();
  const tally = new Tally();
  const sockets: WebSocket[] = [];
  for (let i = 0; i < lists.length; i += 50) {
    const batch = await Promise.all(
      lists.slice(i, i + 50).map(async (list) => {
        const ws = await openWs();
        ws.once('close', (code, reason) => closes.add(`${code} ${reason.toString().replace(/\d+/g, 'N')}`));
        const subscribed = new Promise<void>((resolve) =>
          ws.on('message', (d: Buffer) => {
            const kind = kindOf(d);
            tally.add(kind);
            if (kind === 'subscribed') resolve();
          }),
        );
        ws.send(JSON.stringify({ id: 's', operation: 'subscribe', types: opts.types ?? ['transactions', 'actions'], addresses: list, min_finality: 'pending' }));
        await subscribed;
        ws.pause();
        return ws;
      }),
    );
    sockets.push(...batch);
  }
  commands.push((line) => {
    if (line === 'read') for (const ws of sockets) ws.resume();
  });
  out({ t: 'ready' });
  while (!stopped) await sleep(100);
  for (const ws of sockets) ws.resume();
  await sleep(opts.waitCloseMs ?? 3_000);
  const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  out({ t: 'done', open, closes: closes.counts, replies: tally.counts });
  for (const ws of sockets) ws.terminate();
}

const ATTACKERS: Record<string, () => Promise<void>> = { probe, tinyFrames, storm, resumeStorm, hitAndRun, unreadSubscribers };
const run = ATTACKERS[name];
if (!run) throw new Error(`no attacker named ${name}`);
run().then(
  () => process.exit(0),
  (e: unknown) => {
    out({ t: 'error', message: String(e) });
    process.exit(1);
  },
);
