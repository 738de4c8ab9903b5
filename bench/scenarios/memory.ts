/**
 * Memory of one gateway process: after warm-up, after N local-chain transactions (faucet transfers over HTTP),
 * and after a mixed read/write load; each point after a full GC, with the store's contents beside it.
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
  stateRecords: number;
  /** serialized size of what the store holds: state BoCs (base64 as stored), transaction and message BoCs */
  stateAfterB64Bytes: number;
  txBocBytes: number;
  msgBocBytes: number;
}

export interface MemoryReport {
  points: MemPoint[];
  fillTransactions: number;
  mixedSeconds: number;
  mixedRequests: number;
  fillTxPerSecond: number;
  perThousandTx: { rssMB: number; heapUsedMB: number; storedBocKB: number };
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

    // reads with one faucet write among them, cycled by every connection
    const mixed = await load({ url, durationS: mixedSeconds, requests: [...reads, faucetRequest(200, 0xfb0000)] });
    points.push(await point(gw, `after ${mixedSeconds} s mixed load`));
    o.log(`  memory: mixed ${mixed.requests} requests, rss ${points[2]!.rssMB.toFixed(0)} MB`);

    const [w, f] = [points[0]!, points[1]!];
    const k = 1000 / (f.transactions - w.transactions);
    const stored = (p: MemPoint) => p.stateAfterB64Bytes + p.txBocBytes + p.msgBocBytes;
    return {
      points,
      fillTransactions: f.transactions - w.transactions,
      mixedSeconds,
      mixedRequests: mixed.requests,
      fillTxPerSecond: ((f.transactions - w.transactions) / fillMs) * 1000,
      perThousandTx: {
        rssMB: (f.rssMB - w.rssMB) * k,
        heapUsedMB: (f.heapUsedMB - w.heapUsedMB) * k,
        storedBocKB: ((stored(f) - stored(w)) * k) / 1024,
      },
    };
  } finally {
    await gw.stop();
  }
}
