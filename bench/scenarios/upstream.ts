/**
 * Scenarios 4-5: upstream mode, instance B (backend toncenter) in front of instance A (local chain), against the
 * same calls straight to A. Upstream mode is detected at run time: if B will not start in that mode or does
 * not answer with A's data, both rows say "not measured".
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnChild, takeChild, type Child } from '../lib/child.js';
import { load, medianResult, type LoadResult } from '../lib/load.js';
import type { Row, RunOptions } from './types.js';

const ROWS = {
  4: 'upstream: uncached v2 getTransactions through B vs straight to A',
  5: 'upstream: repeated v3 transaction by hash (cached) through B vs straight to A',
} as const;

function notMeasured(reason: string): Row[] {
  return [
    { id: 4, scenario: ROWS[4], metric: 'req/s', target: 0.8, note: `not measured: ${reason}` },
    { id: 5, scenario: ROWS[5], metric: 'req/s', target: 2.0, note: `not measured: ${reason}` },
  ];
}

async function startB(aUrl: string, cacheMb: number, profDir?: string): Promise<Child> {
  return spawnChild('gateway', {
    cpuProfDir: profDir,
    args: ['--backend', 'toncenter', '--v2-url', aUrl, '--v3-url', aUrl, '--upstream-rps', '0', '--keyless-rps', '0', '--cache-mb', String(cacheMb), '--account-ttl-ms', '0'],
  });
}

export async function upstreamScenarios(o: RunOptions): Promise<Row[]> {
  if (!existsSync(fileURLToPath(new URL('../../src/sources/upstream/index.ts', import.meta.url)))) return notMeasured('upstream mode not present');
  const a = await takeChild('upstream-a', 'gateway');
  const bs: Child[] = [];
  try {
    const aUrl = a.info.url as string;
    const wallets = (await (await fetch(`${aUrl}/localnet/wallets`)).json()) as { address: string }[];
    const [hash] = await a.call<string[]>('faucetMany', { addresses: [wallets[0]!.address], amount: '1000000000' });
    await a.call('seal');
    let bCached: Child;
    try {
      // one B: its cache holds immutable objects only, and with the account TTL at 0 an account's list is always fetched
      bCached = await startB(aUrl, 64, o.profDir);
      bs.push(bCached);
    } catch (e) {
      return notMeasured(`upstream mode not present (${(e as Error).message.split('\n')[0]})`);
    }
    const txPath = `/api/v3/transactions?hash=${encodeURIComponent(hash!)}`;
    // B must be serving A's data, not a chain of its own: A's faucet transaction exists nowhere else
    const probe = await fetch(`${bCached.info.url as string}${txPath}`).then((r) => r.text(), (e: Error) => e.message);
    if (!probe.includes(hash!)) return notMeasured(`upstream mode not present (B answered ${probe.slice(0, 120)})`);

    const listPath = `/api/v2/getTransactions?address=${encodeURIComponent(wallets[0]!.address)}&limit=10`;
    const run = (url: string, path: string) => load({ url, durationS: o.durationS, requests: [{ method: 'GET', path }] });
    // both sides warm, so the first repetition does not time A's (or B's) JIT and first collections
    for (const url of [bCached.info.url as string, aUrl]) {
      await run(url, listPath);
      await run(url, txPath);
    }

    const r: Record<'aList' | 'bList' | 'aTx' | 'bTx', LoadResult[]> = { aList: [], bList: [], aTx: [], bTx: [] };
    for (let i = 0; i < o.reps; i++) {
      r.aList.push(await run(aUrl, listPath));
      r.bList.push(await run(bCached.info.url as string, listPath));
      r.aTx.push(await run(aUrl, txPath));
      r.bTx.push(await run(bCached.info.url as string, txPath));
      o.log(`  upstream rep ${i + 1}: list A ${r.aList[i]!.rps.toFixed(0)} B ${r.bList[i]!.rps.toFixed(0)}; tx A ${r.aTx[i]!.rps.toFixed(0)} B ${r.bTx[i]!.rps.toFixed(0)} req/s`);
    }
    const m = { aList: medianResult(r.aList), bList: medianResult(r.bList), aTx: medianResult(r.aTx), bTx: medianResult(r.bTx) };
    return [
      { id: 4, scenario: ROWS[4], metric: 'req/s', subject: m.bList, baseline: m.aList, ratio: m.bList.rps / m.aList.rps, target: 0.8, note: 'B with --account-ttl-ms 0' },
      { id: 5, scenario: ROWS[5], metric: 'req/s', subject: m.bTx, baseline: m.aTx, ratio: m.bTx.rps / m.aTx.rps, target: 2.0, note: 'B with --cache-mb 64 --account-ttl-ms 0' },
    ];
  } finally {
    await Promise.all([a.stop(), ...bs.map((b) => b.stop())]);
  }
}
