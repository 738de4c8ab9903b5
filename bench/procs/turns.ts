/**
 * Long event-loop turns of a gateway process, for `LOADTEST_TRACE_TURNS=1 npm run loadtest`: a turn is timed
 * from one check phase to the next (a setImmediate chain), and every turn over LONG_MS is kept with what ran in
 * it: requests by route, connections accepted, GC pauses, the main thread's CPU time and its time waiting for a
 * CPU (from /proc/thread-self/schedstat), which tell a turn that computed from one that was descheduled, and its
 * start on the clock of --cpu-prof's samples. BENCH_LONG_TURN_MS sets what is long (60 ms).
 */
import { openSync, readSync } from 'node:fs';
import type { Server } from 'node:http';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { statCpuMs } from '../lib/proc-stat.js';

const LONG_MS = Number(process.env.BENCH_LONG_TURN_MS ?? 60);

const schedFd = ((): number | undefined => {
  try {
    return openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
})();
const schedBuf = Buffer.alloc(128);

/**
 * The main thread's time on a CPU and waiting on a run queue, in ms: from /proc/thread-self/schedstat (ns, the
 * scheduler's own accounting), else on-CPU time from /proc/thread-self/stat (10 ms ticks) with no wait figure;
 * zeros where /proc is missing.
 */
function threadTimes(): [cpuMs: number, waitMs: number] {
  if (schedFd !== undefined) {
    // read again from offset 0: procfs regenerates the line on each read, no open per turn
    const n = readSync(schedFd, schedBuf, 0, schedBuf.length, 0);
    const [run, wait] = schedBuf.toString('latin1', 0, n).split(' ');
    return [Number(run) / 1e6, Number(wait) / 1e6];
  }
  return [statCpuMs('/proc/thread-self/stat') ?? 0, 0];
}

export interface LongTurn {
  /** when the turn began, in µs of the monotonic clock (process.hrtime), the clock of a .cpuprofile's timestamps */
  atUs: number;
  ms: number;
  cpuMs: number;
  /** time the main thread was ready to run but waited for a CPU (another thread or process had both) */
  waitMs: number;
  requests: number;
  accepted: number;
  gcMs: number[];
  routes: Record<string, number>;
}

/** Starts tracing; the returned function gives the turns' percentiles and long turns since its last call. */
export function traceTurns(server: Server): () => {
  turns: number;
  p50: number;
  p99: number;
  max: number;
  period: { ms: number; cpuMs: number; waitMs: number };
  long: LongTurn[];
} {
  const gcs: PerformanceEntry[] = [];
  new PerformanceObserver((list) => void gcs.push(...list.getEntries())).observe({ entryTypes: ['gc'] });
  let requests = 0;
  let accepted = 0;
  const routes = new Map<string, number>();
  server.on('request', (req: { method?: string; url?: string }) => {
    requests++;
    const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
    routes.set(route, (routes.get(route) ?? 0) + 1);
  });
  server.on('connection', () => void accepted++);
  const lengths: number[] = [];
  const long: LongTurn[] = [];
  const spans = new Map<LongTurn, [number, number]>();
  let start = performance.now();
  let startUs = Number(process.hrtime.bigint() / 1000n);
  let [cpu0, wait0] = threadTimes();
  const since = { at: start, cpu: cpu0, wait: wait0 };
  const tick = () => {
    const now = performance.now();
    const [cpu1, wait1] = threadTimes();
    lengths.push(now - start);
    if (now - start > LONG_MS) {
      // the turn's GC pauses are filled in when reported: the observer hears of a pause only after the turn
      const turn = { atUs: startUs, ms: Number((now - start).toFixed(1)), cpuMs: Number((cpu1 - cpu0).toFixed(1)), waitMs: Number((wait1 - wait0).toFixed(1)), requests, accepted, gcMs: [], routes: Object.fromEntries(routes) };
      long.push(turn);
      spans.set(turn, [start, now]);
    }
    requests = 0;
    accepted = 0;
    routes.clear();
    start = now;
    startUs = Number(process.hrtime.bigint() / 1000n);
    cpu0 = cpu1;
    wait0 = wait1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    for (const turn of long) {
      const [from, to] = spans.get(turn)!;
      turn.gcMs = gcs.filter((g) => g.startTime >= from && g.startTime < to).map((g) => Number(g.duration.toFixed(1)));
    }
    gcs.length = 0;
    spans.clear();
    const sorted = lengths.sort((a, b) => a - b);
    const at = (q: number) => Number((sorted[Math.floor(q * (sorted.length - 1))] ?? 0).toFixed(1));
    // over the whole period: wall time, the main thread's time on a CPU, and its time ready but not running
    const [cpuNow, waitNow] = threadTimes();
    const nowMs = performance.now();
    const period = { ms: Math.round(nowMs - since.at), cpuMs: Math.round(cpuNow - since.cpu), waitMs: Math.round(waitNow - since.wait) };
    Object.assign(since, { at: nowMs, cpu: cpuNow, wait: waitNow });
    const out = { turns: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1), period, long: long.splice(0) };
    lengths.length = 0;
    return out;
  };
}
