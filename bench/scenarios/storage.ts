/**
 * Storage with `--data-dir`, streaming event store included: the gateway's RSS per 1,000 stored transactions once
 * its caches are full, and its restart time extrapolated to a larger chain.
 *
 * One gateway (its own process, `--expose-gc`) fills its chain as the storage scripts do (scripts/lib/fill-chain.ts),
 * `step` transactions at a time until the store's bounded caches stop growing (they are full and evicting), then
 * `measured` more in the same steps, a point after a full GC after each; the least-squares slope of RSS over those
 * points gives the growth per 1,000.
 *
 * Then the restart, in `restarts` pairs: a gateway started in a fresh process on that directory, and one on a
 * directory holding only genesis, each timed from the start of `startGateway` to its return (the chain opened and
 * its index read back, the event store opened, the server listening), wall clock and the process's CPU time. What
 * a restart reads back grows linearly with the transactions stored; the fixed part (the server, the schema, the
 * executor workers) does not. At ten thousand transactions the per-transaction part is a few hundred ms, under the
 * wall clock's noise on a shared machine, so it is taken from CPU time, which the load disturbs far less: the
 * median over the pairs of (CPU of the chain's restart - CPU of genesis's) / (their difference in transactions).
 * The restart at `scaleTo` is the chain's measured wall time (median) plus that slope for the transactions still to
 * come. The wall clock's own slope is kept beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild, type Child } from '../lib/child.js';
import { median } from '../lib/load.js';

export interface StorageOptions {
  step: number;
  /** the most transactions filled while waiting for the caches to fill */
  maxWarm: number;
  measured: number;
  restarts: number;
  scaleTo: number;
  log: (m: string) => void;
}

interface StoreStats {
  transactions: number;
  pending: number;
  cacheBytes: number;
  dbFileBytes: number;
  eventsFileBytes: number;
}

export interface StoragePoint extends StoreStats {
  rssMB: number;
  /** the main thread's heap; RSS also holds the executor workers' heaps and emulator memory, and native buffers */
  heapUsedMB: number;
  externalMB: number;
  arrayBuffersMB: number;
}

export interface StorageReport {
  points: StoragePoint[];
  rssPerThousandTxMB: number;
  heapPerThousandTxMB: number;
  /** bytes on disk per 1,000 transactions over the measured fill: the chain's database and the event store */
  chainDbPerThousandTxKB: number;
  eventsDbPerThousandTxKB: number;
  fillTxPerSecond: number;
  restart: {
    genesisTx: number;
    chainTx: number;
    /** wall time and CPU time of each restart, ms */
    genesis: { ms: number; cpuMs: number }[];
    chain: { ms: number; cpuMs: number }[];
    /** CPU ms per 1,000 transactions (median of the pairs), and the wall clock's own slope */
    cpuPerThousandTxMs: number;
    wallPerThousandTxMs: number;
    scaledTo: number;
    scaledS: number;
  };
}

const MB = 1024 * 1024;
/** blocks are sealed by the fill itself */
const args = (dir: string) => ['--data-dir', dir, '--block-interval', '3600000'];

async function point(gw: Child): Promise<StoragePoint> {
  const m = await gw.call<NodeJS.MemoryUsage>('mem');
  const s = await gw.call<StoreStats>('storeStats');
  return { ...s, rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB, externalMB: m.external / MB, arrayBuffersMB: m.arrayBuffers / MB };
}

/** A gateway started on `dir` and stopped: its start time, the CPU it spent starting, the transactions it found. */
async function restart(dir: string): Promise<{ ms: number; cpuMs: number; tx: number }> {
  const gw = await spawnChild('gateway', { args: args(dir) });
  try {
    const s = await gw.call<StoreStats>('storeStats');
    return { ms: gw.info.startMs as number, cpuMs: gw.info.startCpuMs as number, tx: s.transactions + s.pending };
  } finally {
    await gw.stop();
  }
}

export async function storageScenario(o: StorageOptions): Promise<StorageReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-storage-'));
  const genesisDir = mkdtempSync(join(tmpdir(), 'bench-storage-genesis-'));
  try {
    // the genesis-only directory is made while the other fills (its genesis is not measured)
    const [gw, genesisGw] = await Promise.all([spawnChild('gateway', { args: args(dir), exposeGc: true }), spawnChild('gateway', { args: args(genesisDir) })]);
    let points: StoragePoint[];
    let fillMs: number;
    try {
      await genesisGw.stop();
      let a = await point(gw);
      for (;;) {
        await gw.call('fill', { target: a.transactions + a.pending + o.step });
        const next = await point(gw);
        // full: a step grew what the caches hold by under 2%
        const full = next.cacheBytes < a.cacheBytes * 1.02;
        a = next;
        o.log(`  storage: ${a.transactions} tx, caches ${(a.cacheBytes / MB).toFixed(1)} MB, rss ${a.rssMB.toFixed(0)} MB`);
        if (full || a.transactions >= o.maxWarm) break;
      }
      const t0 = performance.now();
      // in the warm-up's steps, a point (after a full GC) after each: one long burst of fills would leave RSS at the
      // high-water mark of the garbage it made (V8 keeps the pages its heap grew to), not what the store holds
      points = [a];
      for (let done = 0; done < o.measured; done += o.step) {
        await gw.call('fill', { target: a.transactions + a.pending + done + o.step });
        points.push(await point(gw));
      }
      fillMs = performance.now() - t0;
      const b = points.at(-1)!;
      o.log(`  storage: ${b.transactions} tx (caches ${(b.cacheBytes / MB).toFixed(0)} MB), rss ${b.rssMB.toFixed(0)} MB, chain.db ${(b.dbFileBytes / MB).toFixed(1)} MB, stream-events.db ${(b.eventsFileBytes / MB).toFixed(1)} MB`);
    } finally {
      await Promise.all([gw.stop(), genesisGw.stop()]);
    }
    const a = points[0]!;
    const b = points.at(-1)!;
    const k = 1000 / (b.transactions + b.pending - a.transactions - a.pending);
    const tx = (p: StoragePoint) => p.transactions + p.pending;

    const genesis: { ms: number; cpuMs: number }[] = [];
    const chain: { ms: number; cpuMs: number }[] = [];
    let genesisTx = 0;
    let chainTx = 0;
    for (let i = 0; i < o.restarts; i++) {
      const g = await restart(genesisDir);
      const c = await restart(dir);
      genesis.push({ ms: g.ms, cpuMs: g.cpuMs });
      chain.push({ ms: c.ms, cpuMs: c.cpuMs });
      genesisTx = g.tx;
      chainTx = c.tx;
      o.log(`  restart: genesis (${g.tx} tx) ${g.ms.toFixed(0)} ms (CPU ${g.cpuMs.toFixed(0)} ms), chain (${c.tx} tx) ${c.ms.toFixed(0)} ms (CPU ${c.cpuMs.toFixed(0)} ms)`);
    }
    if (chainTx !== b.transactions + b.pending) throw new Error(`the restart found ${chainTx} transactions, not ${b.transactions + b.pending}`);
    // each pair taken one right after the other: the median of their differences
    const slope = (f: (r: { ms: number; cpuMs: number }) => number) => median(chain.map((c, i) => f(c) - f(genesis[i]!))) / (chainTx - genesisTx);
    const cpuPerTxMs = slope((r) => r.cpuMs);
    return {
      points,
      // least squares over the measured steps, so no single point's noise decides it; the warm-up's last point is
      // left out, as RSS there still holds pages the warm-up's own bursts grew (given back by the first step)
      rssPerThousandTxMB: fitSlope(points.slice(1).map((p) => [tx(p), p.rssMB] as [number, number])) * 1000,
      heapPerThousandTxMB: fitSlope(points.slice(1).map((p) => [tx(p), p.heapUsedMB] as [number, number])) * 1000,
      chainDbPerThousandTxKB: ((b.dbFileBytes - a.dbFileBytes) * k) / 1024,
      eventsDbPerThousandTxKB: ((b.eventsFileBytes - a.eventsFileBytes) * k) / 1024,
      fillTxPerSecond: ((b.transactions + b.pending - a.transactions - a.pending) / fillMs) * 1000,
      restart: {
        genesisTx,
        chainTx,
        genesis,
        chain,
        cpuPerThousandTxMs: cpuPerTxMs * 1000,
        wallPerThousandTxMs: slope((r) => r.ms) * 1000,
        scaledTo: o.scaleTo,
        scaledS: (median(chain.map((c) => c.ms)) + Math.max(0, cpuPerTxMs) * (o.scaleTo - chainTx)) / 1000,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(genesisDir, { recursive: true, force: true });
  }
}

/** The least-squares slope of y over x. */
function fitSlope(xy: [number, number][]): number {
  const n = xy.length;
  const mx = xy.reduce((s, [x]) => s + x, 0) / n;
  const my = xy.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxy / sxx;
}
