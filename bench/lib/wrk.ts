/**
 * Drives a closed-loop HTTP load with wrk (Debian's `wrk` package, C, epoll) instead of autocannon: the same
 * requests in turn on every connection, statuses and GraphQL errors counted in wrk's Lua hooks, latency
 * percentiles from wrk's own histogram. wrk has no garbage collector and no event loop of JS to stall, so a
 * response is timed when it arrives rather than when a paused generator gets to it; under the loadtest's mix it
 * spends ~21 µs of CPU per request (most of it loopback TCP in the kernel) where autocannon spends ~30.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { statCpuMs } from './proc-stat.js';

export interface WrkRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkResult {
  requests: number;
  durationS: number;
  statuses: [status: number, count: number][];
  /** connect, read and write errors */
  socketErrors: number;
  timeouts: number;
  /** 200 answers whose body holds an `"errors"` member */
  graphqlErrors: number;
  /** ms */
  latency: { p50: number; p99: number; p99_9: number; max: number };
  /** wrk's CPU time in seconds (user + system) */
  cpuS: number;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** A Lua string literal for any text: long brackets with a level no `]=...=]` in the text closes. */
function luaString(s: string): string {
  let eq = '';
  while (s.includes(`]${eq}]`)) eq += '=';
  // a long bracket drops a newline right after its opening, so one is always put there
  return `[${eq}[\n${s}]${eq}]`;
}

function script(requests: WrkRequest[]): string {
  const defs = requests
    .map((r) => {
      const headers = Object.entries(r.headers ?? {})
        .map(([k, v]) => `[ ${luaString(k)} ] = ${luaString(v)}`)
        .join(', ');
      return `  { ${luaString(r.method)}, ${luaString(r.path)}, { ${headers} }, ${r.body === undefined ? 'nil' : luaString(r.body)} },`;
    })
    .join('\n');
  return `
local defs = {
${defs}
}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  built = {}
  for i, d in ipairs(defs) do built[i] = wrk.format(d[1], d[2], d[3], d[4]) end
  n = 0
  statuses = {}
  gqlErrors = 0
end
function request()
  n = n % #built + 1
  return built[n]
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 200 and body ~= nil and string.find(body, '"errors"', 1, true) then gqlErrors = gqlErrors + 1 end
end
function done(summary, latency, requests)
  local st = {}
  local ge = 0
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do st[k] = (st[k] or 0) + v end
    ge = ge + t:get("gqlErrors")
  end
  local parts = {}
  for k, v in pairs(st) do table.insert(parts, string.format('[%d,%d]', k, v)) end
  local e = summary.errors
  io.write(string.format(
    'WRK-RESULT {"requests":%d,"durationUs":%d,"statuses":[%s],"socketErrors":%d,"timeouts":%d,"graphqlErrors":%d,' ..
    '"p50":%d,"p99":%d,"p999":%d,"max":%d}\\n',
    summary.requests, summary.duration, table.concat(parts, ','), e.connect + e.read + e.write, e.timeout, ge,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max))
end
`;
}

/** Runs wrk with one thread (as autocannon runs in one) for `durationS` over `connections` connections. */
export async function runWrk(url: string, connections: number, durationS: number, requests: WrkRequest[]): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'loadtest-wrk-'));
  try {
    const file = join(dir, 'mix.lua');
    writeFileSync(file, script(requests));
    const proc = spawn('wrk', ['-t1', `-c${connections}`, `-d${durationS}s`, '--timeout', '30s', '-s', file, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    // wrk's CPU time, read while it runs (its /proc entry goes with it)
    let cpuMs = 0;
    const sampler = setInterval(() => (cpuMs = statCpuMs(`/proc/${proc.pid!}/stat`) ?? cpuMs), 200);
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    clearInterval(sampler);
    const line = out.split('\n').find((l) => l.startsWith('WRK-RESULT '));
    if (code !== 0 || !line) throw new Error(`wrk exited with ${code}:\n${out}`);
    const r = JSON.parse(line.slice('WRK-RESULT '.length)) as Record<string, number> & { statuses: [number, number][] };
    const ms = (us: number) => us / 1000;
    return {
      requests: r.requests,
      durationS: r.durationUs / 1e6,
      statuses: r.statuses,
      socketErrors: r.socketErrors,
      timeouts: r.timeouts,
      graphqlErrors: r.graphqlErrors,
      latency: { p50: ms(r.p50), p99: ms(r.p99), p99_9: ms(r.p999), max: ms(r.max) },
      cpuS: cpuMs / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
