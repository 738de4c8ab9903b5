/** autocannon runs and the statistics the table reports. */
import autocannon from 'autocannon';
import type { Child } from './child.js';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** the server process's CPU time (user + system) per request, when it was measured */
  cpuUs?: number;
}

export interface LoadOptions {
  url: string;
  durationS?: number;
  amount?: number;
  connections?: number;
  requests: autocannon.Request[];
}

export async function load(o: LoadOptions): Promise<LoadResult> {
  const r = await autocannon({
    url: o.url,
    connections: o.connections ?? 10,
    pipelining: 1,
    ...(o.amount !== undefined ? { amount: o.amount } : { duration: o.durationS ?? 5 }),
    requests: o.requests,
    timeout: 30,
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The median of each field over repeated runs. */
export function medianResult(rs: LoadResult[]): LoadResult {
  return {
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    ...(rs.every((r) => r.cpuUs !== undefined) ? { cpuUs: median(rs.map((r) => r.cpuUs!)) } : {}),
  };
}

/** A run with the serving process's CPU time per request (its `cpu` RPC read before and after). */
export async function withCpu(server: Child, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = await server.call<NodeJS.CpuUsage>('cpu');
  const r = await run();
  const after = await server.call<NodeJS.CpuUsage>('cpu');
  return { ...r, cpuUs: (after.user - before.user + after.system - before.system) / Math.max(1, r.requests) };
}
