/**
 * Streaming API v2 benchmark on the local chain: seal-to-delivery latency at N concurrent subscribers (half SSE,
 * half WebSocket), and the gateway's memory per idle subscriber.
 *
 *   npx tsx --expose-gc scripts/streaming-bench.ts [subscribers=1000] [rounds=20]
 *   (BENCH_OPEN_AT_ONCE=N: subscriptions opened at once, default 50; fewer on a loaded machine.
 *    BENCH_CLIENT_PROCESSES=k: the subscribers split over k child processes, default 1)
 *
 * The gateway runs in this process; the subscribers in a child process (so their memory and CPU are not the
 * gateway's), each watching the same genesis wallet for finalized `transactions`, each as light as a subscriber
 * on a machine of its own would be (scripts/lib/bench-subscribers.ts: SSE over a bare socket, WebSocket with ws).
 * Each round sends one transfer from that wallet; the block is sealed at once (block interval 0). Measured, all on
 * one clock (performance.timeOrigin + performance.now(), the same in both processes):
 * - seal: when the store's seal listeners reach this script's (after the feed has taken its snapshot of the
 *   masterchain block finalizing the transfer);
 * - seal → event built: until the feed hands the hub the finalized `transactions` event;
 * - fan-out: the hub's publish of that event, which writes it to every subscriber's socket;
 * - seal → delivery: until the subscriber's socket data callback that read the event's last byte, taken before
 *   any parsing, one figure per subscriber per round, every subscriber counted; also apart for SSE and WebSocket.
 * A round ends when every subscriber has its event; each one is then parsed and must be the finalized event of
 * the one transaction of the wallet that the hub published (its hash), or the run fails. Two warm-up rounds are
 * not counted.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { loadConfig, type Config } from '../src/config.js';
import { startGateway } from '../src/gateway.js';
import { rawUpper } from '../src/model/address.js';
import { SseSubscriber, WsSubscriber, type Subscriber } from './lib/bench-subscribers.js';

const now = (): number => performance.timeOrigin + performance.now();

type ToParent =
  | { t: 'started' }
  | { t: 'ready'; opened: number }
  | { t: 'round'; r: number; times: number[]; hashes: Record<string, number>; wrong: string[] }
  | { t: 'error'; message: string };

/**
 * The subscribers' side: opens them, then reports each round once every subscriber has its round's event, with
 * each one's arrival time and what the events were (the hash of the one transaction each carries).
 */
async function clients(url: string, n: number, address: string): Promise<void> {
  const send = (m: ToParent) => process.send!(m);
  send({ t: 'started' });
  const body = { types: ['transactions'], addresses: [address] };
  const subs: Subscriber[] = [];
  // opened a few at a time, so the accept queue is not flooded (on a loaded machine a request waiting there
  // longer than the server's 10 s for headers gets 408)
  const AT_ONCE = Number(process.env.BENCH_OPEN_AT_ONCE ?? 50);
  for (let i = 0; i < n; i += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, n - i) }, (_, k) => ((i + k) % 2 === 0 ? new SseSubscriber(url, body) : new WsSubscriber(url, body)));
    await Promise.all(batch.map((c) => c.ready));
    subs.push(...batch);
  }
  /** subscribers that have their event of round r, by r */
  const complete: number[] = [];
  const report = (r: number) => {
    const times: number[] = [];
    const hashes: Record<string, number> = {};
    const wrong: string[] = [];
    for (const c of subs) {
      const { at, text } = c.events[r]!;
      times.push(at);
      const e = JSON.parse(text) as { type?: string; finality?: string; transactions?: { account?: string; hash?: string }[] };
      const tx = e.transactions?.[0];
      if (e.type !== 'transactions' || e.finality !== 'finalized' || e.transactions!.length !== 1 || tx?.account !== address) wrong.push(text.slice(0, 300));
      else hashes[tx.hash!] = (hashes[tx.hash!] ?? 0) + 1;
    }
    send({ t: 'round', r, times, hashes, wrong: wrong.slice(0, 3) });
  };
  for (const c of subs) {
    c.onEvent = (s) => {
      const r = s.events.length - 1;
      complete[r] = (complete[r] ?? 0) + 1;
      if (complete[r] === n) report(r);
    };
  }
  send({ t: 'ready', opened: subs.length });
}

function v4Transfer(w: { contract: unknown; keyPair: { secretKey: Buffer } }, to: Address, seqno: number): string {
  const wallet = w.contract as WalletContractV4;
  const body = wallet.createTransfer({ seqno, secretKey: w.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: toNano('0.01'), bounce: false })] });
  return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc().toString('base64');
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1000);
  const rounds = Number(process.argv[3] ?? 20);
  const base = loadConfig([], {}) as Config;
  const config: Config = {
    ...base,
    port: 0,
    quiet: true,
    blockInterval: 0,
    streaming: { ...base.streaming, maxConnections: 0, maxSockets: n + 100 },
  };
  const g = await startGateway(config);
  const wallet = g.chain!.keyedWallets()[0]!;
  let seqno = (await g.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
  const gc = (globalThis as { gc?: () => void }).gc;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await settle();
  const before = process.memoryUsage();

  // BENCH_CLIENT_PROCESSES=k: the subscribers split over k child processes (each half SSE, half WebSocket)
  const procs = Math.max(1, Number(process.env.BENCH_CLIENT_PROCESSES ?? 1));
  const children = Array.from({ length: procs }, (_, i) =>
    fork(fileURLToPath(import.meta.url), ['--clients', g.url, String(Math.floor(n / procs) + (i < n % procs ? 1 : 0)), rawUpper(wallet.contract.address)], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    }),
  );
  const fromChild = (child: ChildProcess): Promise<ToParent> =>
    new Promise((resolve) =>
      child.once('message', (m: ToParent) => {
        if (m.t === 'error') throw new Error(m.message);
        resolve(m);
      }),
    );
  /** the next message of every child, the subscribers' figures in order (SSE at even places within each child) */
  const fromChildren = async (): Promise<ToParent[]> => Promise.all(children.map(fromChild));
  await fromChildren();
  const opening = performance.now();
  const ready = await fromChildren();
  const openedMs = performance.now() - opening;
  await settle();
  const after = process.memoryUsage();
  if (!gc) console.warn('run with --expose-gc for memory figures that are not noise');

  let sealAt = 0;
  let builtAt = 0;
  g.chain!.store.onSeal(() => (sealAt = now()));
  // when the feed hands the hub the finalized event: what of the latency is the event's making
  const hub = g.liveHub!;
  const publish = hub.publish.bind(hub);
  let fannedOutAt = 0;
  let published = '';
  const walletRaw = rawUpper(wallet.contract.address);
  hub.publish = (e) => {
    const mark = e.type === 'transactions' && e.finality === 'finalized';
    if (mark) {
      builtAt = now();
      published = (e.transactions as { account: string; hash: string }[]).find((t) => t.account === walletRaw)?.hash ?? '';
    }
    publish(e);
    if (mark) fannedOutAt = now();
  };
  const sse: number[] = [];
  const ws: number[] = [];
  const built: number[] = [];
  const fannedOut: number[] = [];
  // the first rounds warm the classifier, the metadata index and the JIT up; they are not counted
  const WARMUP = 2;
  for (let r = 0; r < rounds + WARMUP; r++) {
    const got = fromChildren();
    const res = await fetch(`${g.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: v4Transfer(wallet, Address.parse(`0:${r.toString(16).padStart(64, '0')}`), seqno++) }) });
    if (res.status !== 200) throw new Error(`sendBoc ${res.status}`);
    const ms = await got;
    let delivered = 0;
    for (const m of ms) {
      if (m.t !== 'round' || m.r !== r) throw new Error(`expected round ${r}, got ${JSON.stringify(m).slice(0, 200)}`);
      // every subscriber got this round's transaction, and nothing else
      if (m.wrong.length > 0 || Object.keys(m.hashes).some((h) => h !== published)) throw new Error(`round ${r}: expected only ${published}, got ${JSON.stringify(m.hashes)} ${m.wrong.join('\n')}`);
      delivered += m.hashes[published] ?? 0;
      if (r >= WARMUP) m.times.forEach((t, i) => (i % 2 === 0 ? sse : ws).push(t - sealAt));
    }
    if (delivered !== n) throw new Error(`round ${r}: ${delivered} of ${n} subscribers got ${published}`);
    if (r >= WARMUP) {
      built.push(builtAt - sealAt);
      fannedOut.push(fannedOutAt - builtAt);
    }
  }
  const latencies = [...sse, ...ws];
  sse.sort((a, b) => a - b);
  ws.sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  built.sort((a, b) => a - b);
  fannedOut.sort((a, b) => a - b);
  const kb = (b: number) => (b / 1024).toFixed(1);
  console.log(
    JSON.stringify(
      {
        subscribers: ready.reduce((sum, m) => sum + (m as { opened: number }).opened, 0),
        clientProcesses: procs,
        half: 'SSE / WebSocket',
        rounds,
        openMs: Math.round(openedMs),
        sealToEventBuiltMs: { p50: +pct(built, 50).toFixed(1), max: +built.at(-1)!.toFixed(1) },
        fanOutMs: { p50: +pct(fannedOut, 50).toFixed(1), max: +fannedOut.at(-1)!.toFixed(1) },
        sealToDeliveryMs: { p50: +pct(latencies, 50).toFixed(1), p99: +pct(latencies, 99).toFixed(1), max: +latencies.at(-1)!.toFixed(1) },
        sseDeliveryMs: { p50: +pct(sse, 50).toFixed(1), p99: +pct(sse, 99).toFixed(1) },
        wsDeliveryMs: { p50: +pct(ws, 50).toFixed(1), p99: +pct(ws, 99).toFixed(1) },
        perIdleSubscriberKB: {
          rss: kb((after.rss - before.rss) / n),
          heapUsed: kb((after.heapUsed - before.heapUsed) / n),
          external: kb((after.external + after.arrayBuffers - before.external - before.arrayBuffers) / n),
        },
      },
      null,
      2,
    ),
  );
  for (const child of children) child.kill();
  await g.close();
}

if (process.argv[2] === '--clients') {
  clients(process.argv[3]!, Number(process.argv[4]), process.argv[5]!).catch((e: unknown) => {
    process.send!({ t: 'error', message: String(e) } satisfies ToParent);
  });
} else {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
