/**
 * Long event-loop turns of a gateway process, for `LOADTEST_TRACE_TURNS=1 npm run loadtest`: a turn is timed
 * from one check phase to the next (a setImmediate chain), and every turn over LONG_MS is kept with what ran in
 * it: requests by route, connections accepted, GC pauses, and the main thread's CPU time (from
 * /proc/thread-self/stat, 10 ms ticks), which tells a turn that computed from one that was descheduled, and its
 * start on the clock of --cpu-prof's samples. BENCH_LONG_TURN_MS sets what is long (60 ms).
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const LONG_MS = Number(process.env.BENCH_LONG_TURN_MS ?? 60);

/** Main-thread CPU time in ms (utime + stime, clock ticks of 10 ms); 0 where /proc is missing. */
function threadCpuMs(): number {
  try {
    const s = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

export interface LongTurn {
  /** when the turn began, in µs of the monotonic clock (process.hrtime), the clock of a .cpuprofile's timestamps */
  atUs: number;
  ms: number;
  cpuMs: number;
  requests: number;
  accepted: number;
  gcMs: number[];
  routes: Record<string, number>;
}

/** Starts tracing; the returned function gives the turns' percentiles and long turns since its last call. */
export function traceTurns(server: Server): () => { turns: number; p50: number; p99: number; max: number; long: LongTurn[] } {
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
  let cpu0 = threadCpuMs();
  const tick = () => {
    const now = performance.now();
    const cpu1 = threadCpuMs();
    lengths.push(now - start);
    if (now - start > LONG_MS) {
      // the turn's GC pauses are filled in when reported: the observer hears of a pause only after the turn
      const turn = { atUs: startUs, ms: Number((now - start).toFixed(1)), cpuMs: cpu1 - cpu0, requests, accepted, gcMs: [], routes: Object.fromEntries(routes) };
      long.push(turn);
      spans.set(turn, [start, now]);
    }
    requests = 0;
    accepted = 0;
    routes.clear();
    start = now;
    startUs = Number(process.hrtime.bigint() / 1000n);
    cpu0 = cpu1;
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
    const out = { turns: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1), long: long.splice(0) };
    lengths.length = 0;
    return out;
  };
}
