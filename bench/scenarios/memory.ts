/**
 * Memory of one gateway process: after warm-up, after N local-chain transactions (faucet transfers over HTTP),
 * after 2N more, and after a mixed read/write load; each point after a full GC, with the store's contents beside
 * it. The local chain keeps a compact index per transaction and bounded caches of parsed objects (they fill up
 * during the first fill), so the growth per 1,000 transactions is read from the second fill, after the caches
 * are full; the first fill's figure includes filling them.
 */
import type autocannon from 'autocannon';
import { takeChild, type Child, type SpawnOptions } from '../lib/child.js';
import { load } from '../lib/load.js';
import type { RunOptions } from './types.js';

export interface MemPoint {
  label: string;
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
  transactions: number;
  messages: number;
  accounts: number;
  /** what the database holds: state BoCs and transaction BoCs (messages are inside the latter), and its files */
  stateBocBytes: number;
  txBocBytes: number;
  dbFileBytes: number;
  /** what the bounded caches of parsed objects hold (their own estimate) */
  cacheBytes: number;
  cacheEntries: number;
}

export interface MemoryReport {
  points: MemPoint[];
  fillTransactions: number;
  mixedSeconds: number;
  mixedRequests: number;
  fillTxPerSecond: number;
  /** over the second fill (caches already full) */
  perThousandTx: { rssMB: number; heapUsedMB: number; storedBocKB: number; dbFileKB: number };
  /** over the first fill (includes filling the caches) */
  perThousandTxFirstFill: { rssMB: number; heapUsedMB: number };
}

export const MEMORY_GATEWAY = (): [string, SpawnOptions] => ['gateway', { exposeGc: true }];

const MB = 1024 * 1024;
const json = { 'content-type': 'application/json' };

async function point(gw: Child, label: string): Promise<MemPoint> {
  const m = await gw.call<NodeJS.MemoryUsage>('mem');
  const s = await gw.call<Omit<MemPoint, 'label' | 'rssMB' | 'heapUsedMB' | 'externalMB'>>('storeStats');
  return { label, rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB, externalMB: m.external / MB, ...s };
}

/** Faucet requests to a rotating set of fresh addresses, so accounts grow as on a busy chain. */
function faucetRequest(pool: number, prefix: number): autocannon.Request {
  let i = 0;
  return {
    method: 'POST',
    path: '/localnet/faucet',
    headers: json,
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ address: `0:${(prefix + (i++ % pool)).toString(16).padStart(64, '0')}`, amount: '1000000000' }),
    }),
  };
}

export async function memoryScenario(o: RunOptions): Promise<MemoryReport> {
  const fillTransactions = o.quick ? 1_000 : 10_000;
  const mixedSeconds = o.quick ? 15 : 300;
  const gw = await takeChild('memory-gw', ...MEMORY_GATEWAY());
  try {
    const url = gw.info.url as string;
    const wallets = (await (await fetch(`${url}/localnet/wallets`)).json()) as { address: string }[];
    const a = encodeURIComponent(wallets[0]!.address);
    const reads: autocannon.Request[] = [
      { method: 'GET', path: `/api/v2/getAddressBalance?address=${a}` },
      { method: 'GET', path: `/api/v2/getTransactions?address=${a}&limit=10` },
      { method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: `{ account(address: "${wallets[1]!.address}") { balance transactions(first: 5) { nodes { hash inMessage { value } } } } }` }) },
      { method: 'GET', path: '/api/v3/transactions?limit=20&sort=desc' },
      { method: 'GET', path: '/api/v2/getMasterchainInfo' },
    ];
    await load({ url, durationS: o.quick ? 2 : 10, requests: reads });
    const points = [await point(gw, 'after warm-up')];

    const before = points[0]!.transactions;
    const t0 = performance.now();
    // each faucet transfer is two transactions: the faucet's own and the credit
    await load({ url, amount: Math.ceil(fillTransactions / 2), connections: 4, requests: [faucetRequest(1_000, 0xfa0000)] });
    const fillMs = performance.now() - t0;
    points.push(await point(gw, `after ${fillTransactions.toLocaleString('en')} transactions`));
    o.log(`  memory: fill ${points[1]!.transactions - before} tx in ${(fillMs / 1000).toFixed(1)} s, rss ${points[1]!.rssMB.toFixed(0)} MB`);
    await load({ url, amount: fillTransactions, connections: 4, requests: [faucetRequest(1_000, 0xfc0000)] });
    points.push(await point(gw, `after ${(3 * fillTransactions).toLocaleString('en')} transactions`));
    o.log(`  memory: second fill to ${points[2]!.transactions} tx, rss ${points[2]!.rssMB.toFixed(0)} MB`);

    // reads with one faucet write among them, cycled by every connection
    const mixed = await load({ url, durationS: mixedSeconds, requests: [...reads, faucetRequest(200, 0xfb0000)] });
    points.push(await point(gw, `after ${mixedSeconds} s mixed load`));
    o.log(`  memory: mixed ${mixed.requests} requests, rss ${points[3]!.rssMB.toFixed(0)} MB`);

    const [w, f, g] = [points[0]!, points[1]!, points[2]!];
    const k1 = 1000 / (f.transactions - w.transactions);
    const k = 1000 / (g.transactions - f.transactions);
    const stored = (p: MemPoint) => p.stateBocBytes + p.txBocBytes;
    return {
      points,
      fillTransactions: f.transactions - w.transactions,
      mixedSeconds,
      mixedRequests: mixed.requests,
      fillTxPerSecond: ((f.transactions - w.transactions) / fillMs) * 1000,
      perThousandTx: {
        rssMB: (g.rssMB - f.rssMB) * k,
        heapUsedMB: (g.heapUsedMB - f.heapUsedMB) * k,
        storedBocKB: ((stored(g) - stored(f)) * k) / 1024,
        dbFileKB: ((g.dbFileBytes - f.dbFileBytes) * k) / 1024,
      },
      perThousandTxFirstFill: { rssMB: (f.rssMB - w.rssMB) * k1, heapUsedMB: (f.heapUsedMB - w.heapUsedMB) * k1 },
    };
  } finally {
    await gw.stop();
  }
}
