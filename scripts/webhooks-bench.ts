/**
 * Webhooks benchmark on the local chain (issue 45's goals): many webhooks over many addresses, one loopback
 * receiver in a process of its own, events at a steady rate; then the receiver down for a while, and back.
 *
 *   npx tsx --expose-gc scripts/webhooks-bench.ts [--webhooks 10000] [--addresses 100000] [--rate 50]
 *     [--seconds 60] [--down-seconds 600] [--json]
 *
 * The gateway runs in this process with --data-dir (webhooks in SQLite) and a block every 200 ms; each webhook
 * watches its own `addresses / webhooks` fresh addresses for finalized `transactions` and `account_state_change`
 * (one credit to a watched address is one event of each, to one webhook), so `--rate` events/s is rate/2
 * faucet credits a second, each to a random watched address. Measured:
 * - memory per idle webhook: heap and RSS after a full GC, before and after making them all (through the API),
 *   divided by their number; and at the end, a fresh gateway loading them at start against the same gateway
 *   without them, each in a process of its own;
 * - finality to delivery: from when the seal listeners reach this script's (the block that finalized the credit)
 *   to when the receiver has read the `transactions` event's body, on one clock (performance.timeOrigin + now(),
 *   the same in both processes), every event counted, p50 / p99 / max, over `--seconds` of steady traffic;
 * - the receiver down for `--down-seconds` under the same traffic, then back: nothing lost (every credit's
 *   `transactions` event delivered to its webhook), repeats after deduplication by event id, order per webhook
 *   (cursors increasing), no webhook paused, and how long the backlog took to drain.
 */
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Address } from '@ton/core';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { compareCursors } from '../src/live/feed.js';
import { rawUpper } from '../src/model/address.js';

const now = (): number => performance.timeOrigin + performance.now();

/** What the receiver reports of each POST it read. */
interface Arrival {
  at: number;
  webhook: string;
  event: string;
  cursor: string;
  type: string;
  /** `transactions`: the watched account's transaction hash and its masterchain block */
  hash?: string;
  mc?: number;
}

type FromReceiver = { t: 'listening'; port: number } | { t: 'arrivals'; list: Arrival[] } | { t: 'down' } | { t: 'up' };
type ToReceiver = { t: 'down' } | { t: 'up' };

/** The receiver's side: answers 200 to every POST, reports what it read every 100 ms; goes down and up on command. */
async function receiver(): Promise<void> {
  const send = (m: FromReceiver) => process.send!(m);
  let pending: Arrival[] = [];
  const sockets = new Set<Socket>();
  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; cursor: string; transactions?: { hash: string; mc_block_seqno: number }[] };
      const tx = body.transactions?.[0];
      pending.push({
        at,
        webhook: String(req.headers['x-webhook-id']),
        event: String(req.headers['x-webhook-event-id']),
        cursor: body.cursor,
        type: body.type,
        ...(tx ? { hash: tx.hash, mc: tx.mc_block_seqno } : {}),
      });
      res.writeHead(200).end();
    });
  };
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer(handler);
    server.on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', () => r()));
    port = (server!.address() as AddressInfo).port;
  };
  setInterval(() => {
    if (pending.length === 0) return;
    send({ t: 'arrivals', list: pending });
    pending = [];
  }, 100);
  process.on('message', async (m: ToReceiver) => {
    if (m.t === 'down') {
      const s = server!;
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => s.close(() => r()));
      send({ t: 'down' });
    } else {
      await listen();
      send({ t: 'up' });
    }
  });
  await listen();
  send({ t: 'listening', port });
}

/** A gateway started on `dir` (its webhooks.db, if any, loaded), its memory reported after a full GC. */
async function idleChild(dir: string): Promise<void> {
  const base = loadConfig([], {}) as Config;
  const g = await startGateway({ ...base, port: 0, quiet: true, blockInterval: 200, dataDir: dir, webhooks: { ...base.webhooks, allowPrivate: true } });
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 5; i++) {
    gc?.();
    await sleep(300);
  }
  const m = process.memoryUsage();
  process.send!({ webhooks: g.webhooks?.size ?? 0, rss: m.rss, heapUsed: m.heapUsed });
  await g.close();
}

/** Memory of a fresh gateway with and without the webhooks of `webhooksDb`, each in a process of its own. */
async function loadedAtStart(webhooksDb: string): Promise<{ webhooks: number; heapBytes: number; rssBytes: number }> {
  const run = async (withWebhooks: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), 'webhooks-bench-idle-'));
    if (withWebhooks) copyFileSync(webhooksDb, join(dir, 'webhooks.db'));
    const child = fork(fileURLToPath(import.meta.url), ['--idle-child', dir], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: 'inherit' });
    const m = await new Promise<{ webhooks: number; rss: number; heapUsed: number }>((r) => child.once('message', r));
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
    return m;
  };
  const without = await run(false);
  const loaded = await run(true);
  return { webhooks: loaded.webhooks, heapBytes: (loaded.heapUsed - without.heapUsed) / loaded.webhooks, rssBytes: (loaded.rss - without.rss) / loaded.webhooks };
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      webhooks: { type: 'string', default: '10000' },
      addresses: { type: 'string', default: '100000' },
      rate: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '60' },
      'down-seconds': { type: 'string', default: '600' },
      json: { type: 'boolean', default: false },
    },
  });
  const W = Number(values.webhooks);
  const A = Number(values.addresses);
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const downSeconds = Number(values['down-seconds']);
  const perHook = Math.max(1, Math.floor(A / W));
  const log = (line: string) => !values.json && console.log(line);

  const dir = mkdtempSync(join(tmpdir(), 'webhooks-bench-'));
  const KEY = 'bench-key';
  const base = loadConfig([], {}) as Config;
  const g = await startGateway({
    ...base,
    port: 0,
    quiet: true,
    blockInterval: 200,
    dataDir: dir,
    apiKeys: [{ key: KEY, networks: ['testnet', 'mainnet'], rps: 0 }],
    webhooks: { ...base.webhooks, allowPrivate: true, maxPerKey: W },
  });
  const child = fork(fileURLToPath(import.meta.url), ['--receiver'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const arrivals: Arrival[] = [];
  const waiting: ((m: FromReceiver) => void)[] = [];
  child.on('message', (m: FromReceiver) => {
    if (m.t === 'arrivals') arrivals.push(...m.list);
    else waiting.shift()?.(m);
  });
  const next = () => new Promise<FromReceiver>((r) => waiting.push(r));
  const tell = async (m: ToReceiver) => {
    const answer = next();
    child.send(m);
    await answer;
  };
  const { port } = (await next()) as { port: number };
  const url = `http://127.0.0.1:${port}/hook`;

  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) console.warn('run with --expose-gc for memory figures that are not noise');
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await sleep(200);
    }
  };
  // the addresses, made before the baseline: this script's own copies are not the webhooks' memory
  const watched = Array.from({ length: W * perHook }, () => rawUpper(new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))))));
  await settle();
  const before = process.memoryUsage();

  // the webhooks, made through the API, 16 requests at a time
  const making = performance.now();
  for (let i = 0; i < W; i += 16) {
    await Promise.all(
      Array.from({ length: Math.min(16, W - i) }, async (_, k) => {
        const addresses = watched.slice((i + k) * perHook, (i + k + 1) * perHook);
        const res = await fetch(`${g.url}/api/webhooks/v1`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': KEY },
          body: JSON.stringify({ url, types: ['transactions', 'account_state_change'], addresses }),
        });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
      }),
    );
  }
  const makeMs = performance.now() - making;
  await settle();
  const after = process.memoryUsage();
  const perWebhook = { heapBytes: (after.heapUsed - before.heapUsed) / W, rssBytes: (after.rss - before.rss) / W };
  const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
  log(`${W} webhooks over ${watched.length} addresses made in ${(makeMs / 1000).toFixed(1)} s; per idle webhook: heap ${(perWebhook.heapBytes / 1024).toFixed(2)} KB, RSS ${(perWebhook.rssBytes / 1024).toFixed(2)} KB (RSS ${mb(before.rss)} -> ${mb(after.rss)} MB, heap total ${mb(before.heapTotal)} -> ${mb(after.heapTotal)} MB, external ${mb(before.external)} -> ${mb(after.external)} MB)`);

  const sealAt = new Map<number, number>();
  g.chain!.store.onSeal((mc) => sealAt.set(mc.seqno, now()));
  /** credits sent, by watched account (raw): what must arrive */
  const sent = new Map<string, number>();
  const creditsPerSecond = rate / 2;
  let credits = 0;
  /** Credits random watched addresses at the rate for `s` seconds. */
  const traffic = async (s: number) => {
    const start = performance.now();
    for (let k = 0; performance.now() - start < s * 1000; k++) {
      const due = start + (k * 1000) / creditsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const i = Math.floor(Math.random() * watched.length);
      await g.chain!.faucet(Address.parseRaw(watched[i]!), 10_000_000n);
      sent.set(watched[i]!, (sent.get(watched[i]!) ?? 0) + 1);
      credits++;
    }
  };
  const transactionsArrived = () => new Set(arrivals.filter((a) => a.type === 'transactions').map((a) => `${a.webhook} ${a.event}`)).size;
  const drain = async (ms: number) => {
    const deadline = performance.now() + ms;
    while (transactionsArrived() < credits && performance.now() < deadline) await sleep(200);
  };

  // steady traffic: finality to delivery
  const steadyFrom = arrivals.length;
  await traffic(seconds);
  await drain(60_000);
  const lags = arrivals
    .slice(steadyFrom)
    .filter((a) => a.type === 'transactions' && sealAt.has(a.mc!))
    .map((a) => a.at - sealAt.get(a.mc!)!)
    .sort((x, y) => x - y);
  log(`steady: ${credits} credits in ${seconds} s (${rate} events/s), finality -> delivery p50 ${pct(lags, 50).toFixed(1)} ms, p99 ${pct(lags, 99).toFixed(1)} ms, max ${lags.at(-1)?.toFixed(1)} ms (${lags.length} events)`);

  // the receiver down under the same traffic, then back
  await tell({ t: 'down' });
  const downCredits = credits;
  let peakRss = 0;
  let peakQueued = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    void fetch(`${g.url}/metrics`)
      .then((r) => r.text())
      .then((t) => (peakQueued = Math.max(peakQueued, Number(/^ton_gateway_webhook_queued_bytes (\d+)/m.exec(t)?.[1] ?? 0))))
      .catch(() => {});
  }, 1000);
  await traffic(downSeconds);
  const backAt = performance.now();
  await tell({ t: 'up' });
  await drain(Math.max(120_000, downSeconds * 2000));
  const drainMs = performance.now() - backAt;
  clearInterval(sampler);

  // what arrived: every credit's transactions event, in order per webhook, repeats counted
  const byHook = new Map<string, Arrival[]>();
  const seen = new Set<string>();
  let repeats = 0;
  for (const a of arrivals) {
    const key = `${a.webhook} ${a.event}`;
    if (seen.has(key)) {
      repeats++;
      continue;
    }
    seen.add(key);
    let list = byHook.get(a.webhook);
    if (!list) byHook.set(a.webhook, (list = []));
    list.push(a);
  }
  let outOfOrder = 0;
  for (const list of byHook.values()) for (let i = 1; i < list.length; i++) if (compareCursors(list[i]!.cursor, list[i - 1]!.cursor) <= 0) outOfOrder++;
  const delivered = transactionsArrived();
  const paused = (await (await fetch(`${g.url}/api/webhooks/v1`, { headers: { 'x-api-key': KEY } })).json()) as { webhooks: { paused: boolean }[] };
  const result = {
    webhooks: W,
    addresses: watched.length,
    ratePerSecond: rate,
    perIdleWebhook: { heapKB: +(perWebhook.heapBytes / 1024).toFixed(2), rssKB: +(perWebhook.rssBytes / 1024).toFixed(2) },
    rssMB: { before: +mb(before.rss), withWebhooks: +mb(after.rss) },
    makeSeconds: +(makeMs / 1000).toFixed(1),
    steady: { seconds, events: lags.length, p50Ms: +pct(lags, 50).toFixed(1), p99Ms: +pct(lags, 99).toFixed(1), maxMs: +(lags.at(-1) ?? NaN).toFixed(1) },
    down: {
      seconds: downSeconds,
      credits: credits - downCredits,
      drainSeconds: +(drainMs / 1000).toFixed(1),
      peakRssMB: +(peakRss / 1024 / 1024).toFixed(1),
      peakQueuedMB: +(peakQueued / 1024 / 1024).toFixed(2),
    },
    credits,
    transactionsDelivered: delivered,
    lost: credits - delivered,
    repeats,
    outOfOrder,
    paused: paused.webhooks.filter((w) => w.paused).length,
  };
  if (!values.json) {
    log(`down ${downSeconds} s: ${result.down.credits} credits meanwhile; backlog drained ${result.down.drainSeconds} s after the receiver came back; peak RSS ${result.down.peakRssMB} MB (the chain grows with every credit), events held in webhook queues at most ${result.down.peakQueuedMB} MB`);
    log(`all: ${credits} credits, ${delivered} transactions events delivered (lost ${result.lost}), ${repeats} repeats after deduplication, ${outOfOrder} out of order, ${result.paused} webhooks paused`);
  }
  child.kill();
  await g.close();
  // the same webhooks loaded by a fresh gateway at start, against the same gateway without them
  const idle = await loadedAtStart(join(dir, 'webhooks.db'));
  rmSync(dir, { recursive: true, force: true });
  const perLoaded = { heapKB: +(idle.heapBytes / 1024).toFixed(2), rssKB: +(idle.rssBytes / 1024).toFixed(2) };
  if (values.json) console.log(JSON.stringify({ ...result, perIdleWebhookLoadedAtStart: perLoaded }));
  else log(`${idle.webhooks} webhooks loaded by a fresh gateway at start: per idle webhook heap ${perLoaded.heapKB} KB, RSS ${perLoaded.rssKB} KB (each gateway in a process of its own, after a full GC)`);
  if (result.lost !== 0 || outOfOrder !== 0 || result.paused !== 0) process.exitCode = 1;
}

const idleAt = process.argv.indexOf('--idle-child');
if (process.argv.includes('--receiver')) await receiver();
else if (idleAt >= 0) await idleChild(process.argv[idleAt + 1]!);
else await main();
