/**
 * `npm run bench:check [-- --only http,block,streaming,emulation,storage,explorer,workbench] [-- --update-benchmarks]`: the
 * benchmark gate CI runs after the suite. In one run it starts its own baselines (each in a process of its own) and
 * measures every figure of bench/goals.json as a ratio against them, or as a count; it prints a markdown table,
 * writes bench/check-results.json and bench/check-results.md, and exits 1 when a figure is past its floor or could
 * not be measured. `--update-benchmarks` also puts the table at the top of BENCHMARKS.md. The workbench part runs only
 * when `--only` names it.
 *
 * Noise is kept down by the design, not by the floors: every timed figure is taken against a baseline measured in
 * the same minute (HTTP runs interleaved with their baselines, order alternating, the median of per-repetition
 * ratios; emulation subjects taking turns every round), after an unmeasured warm-up, and the parts run one after
 * another so none competes with another for the two cores.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prestart, stopUntaken } from './lib/child.js';
import { median } from './lib/load.js';
import { blockViewScenario, BLOCK_GATEWAY } from './scenarios/block-view.js';
import { explorerScenario } from './scenarios/explorer.js';
import { HTTP_GATEWAY, measureHttp, type HttpKind } from './scenarios/http.js';
import { storageScenario } from './scenarios/storage.js';
import type { RunOptions } from './scenarios/types.js';

interface Goal {
  title: string;
  part: string;
  unit: string;
  better: 'higher' | 'lower';
  goal: number;
  floor: number;
}

const PARTS = ['http', 'block', 'streaming', 'emulation', 'storage', 'explorer', 'workbench'] as const;
type Part = (typeof PARTS)[number];

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const goals = (JSON.parse(readFileSync(`${benchDir}goals.json`, 'utf8')) as { figures: Record<string, Goal> }).figures;

const { values } = parseArgs({ options: { only: { type: 'string' }, 'update-benchmarks': { type: 'boolean' } } });
// the workbench part builds a 100,000-transaction chain first (minutes on 2 cores): run only when named, not in CI
const only = values.only?.split(',') ?? PARTS.filter((p) => p !== 'workbench');
for (const p of only) if (!PARTS.includes(p as Part)) throw new Error(`unknown part ${p}; parts: ${PARTS.join(', ')}`);
const want = (p: Part) => only.includes(p);

const started = performance.now();
const elapsedS = () => (performance.now() - started) / 1000;
const log = (m: string) => console.log(`[${elapsedS().toFixed(0).padStart(4)} s]${m}`);
const loadAtStart = loadavg();

/** What each part measured: figures by goals.json key, and what stands beside them. */
const measured = new Map<string, number>();
const details: Record<string, unknown> = {};
const failures = new Map<Part, string>();
const partSeconds: Record<string, number> = {};

/** Runs a script of scripts/ in a process of its own and answers its standard output. */
function runScript(args: string[], nodeFlags: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args[0]} exited with ${code}: ${out.slice(-500)}`))));
  });
}

const opts: RunOptions = { quick: false, reps: 5, durationS: 1, log };

async function http(): Promise<void> {
  const kinds: HttpKind[] = ['bareRest', 'fastifyRest', 'gwRest', 'bareGql', 'fastifyGql', 'gwGql'];
  const { runs } = await measureHttp(opts, kinds);
  const r = runs as Record<HttpKind, { rps: number; cpuUs?: number }[]>;
  // the ratio of each repetition's runs (taken next to each other), then the median over repetitions
  const paired = (f: (i: number) => number) => median(r.gwRest.map((_, i) => f(i)));
  measured.set('restReadRatio', paired((i) => r.gwRest[i]!.rps / r.bareRest[i]!.rps));
  measured.set('graphqlReadRatio', paired((i) => r.gwGql[i]!.rps / r.bareGql[i]!.rps));
  measured.set('restCpuRatio', paired((i) => r.gwRest[i]!.cpuUs! / r.fastifyRest[i]!.cpuUs!));
  measured.set('graphqlCpuRatio', paired((i) => r.gwGql[i]!.cpuUs! / r.fastifyGql[i]!.cpuUs!));
  details.http = Object.fromEntries(kinds.map((k) => [k, { rps: median(r[k].map((x) => x.rps)), cpuUsPerRequest: median(r[k].map((x) => x.cpuUs!)) }]));
}

async function block(): Promise<void> {
  const row = await blockViewScenario({ ...opts, reps: 3 });
  measured.set('blockViewTrips', row.ratio!);
  measured.set('blockViewWall', row.extra![0]!.ratio);
  details.block = { graphql: row.subject, rest: row.baseline, note: row.note };
}

const STREAM_SUBSCRIBERS = 1000;
const STREAM_ROUNDS = 30;

async function streaming(): Promise<void> {
  const out = await runScript(['scripts/streaming-bench.ts', String(STREAM_SUBSCRIBERS), String(STREAM_ROUNDS)], ['--expose-gc']);
  const r = JSON.parse(out.slice(out.indexOf('{'))) as { sealToDeliveryMs: { p50: number; p99: number; max: number } };
  log(`  streaming: seal to delivery p50 ${r.sealToDeliveryMs.p50} p99 ${r.sealToDeliveryMs.p99} max ${r.sealToDeliveryMs.max} ms`);
  measured.set('streamingP99Ms', r.sealToDeliveryMs.p99);
  details.streaming = r;
}

const EMULATION_RUNS = 200;

async function emulation(): Promise<void> {
  const out = await runScript(['scripts/bench-emulate.ts', String(EMULATION_RUNS), '--json']);
  const r = JSON.parse(out.trim().split('\n').pop()!) as Record<'inProcess' | 'overHttp' | 'sandbox' | 'npmSandbox', { median: number; p90: number }>;
  log(`  emulation: gateway in process ${r.inProcess.median.toFixed(2)} ms, sandbox (npm packages) ${r.npmSandbox.median.toFixed(2)} ms, sandbox (this process) ${r.sandbox.median.toFixed(2)} ms`);
  measured.set('emulationRatio', r.npmSandbox.median / r.inProcess.median);
  details.emulation = { ...r, ratioSameProcessSandbox: r.sandbox.median / r.inProcess.median, ratioOverHttp: r.npmSandbox.median / r.overHttp.median };
}

async function storage(): Promise<void> {
  const r = await storageScenario({ step: 1_000, maxWarm: 20_000, measured: 8_000, restarts: 3, scaleTo: 100_000, log });
  measured.set('rssPerThousandTxMB', r.rssPerThousandTxMB);
  measured.set('restart100kS', r.restart.scaledS);
  details.storage = r;
}

async function explorer(): Promise<void> {
  const pages = await explorerScenario({ rps: 1, account: 'alice', log });
  const key: Record<string, string> = {
    home: 'explorerHomeCalls',
    'account summary': 'explorerAccountCalls',
    'account actions': 'explorerActionsCalls',
    transaction: 'explorerTransactionCalls',
    block: 'explorerBlockCalls',
    'final data again': 'explorerFinalAgainCalls',
  };
  for (const p of pages) measured.set(key[p.name]!, p.calls);
  details.explorer = pages;
}

const WORKBENCH_TXS = 100_000;

async function workbench(): Promise<void> {
  const out = await runScript(['scripts/workbench-bench.ts', '--txs', String(WORKBENCH_TXS), '--rounds', '5', '--json'], ['--expose-gc']);
  const r = JSON.parse(out.trim().split('\n').pop()!) as { txs: number; checkpointMs: number; restoreMs: number; rollbackMs: number };
  log(`  workbench: at ${r.txs} tx checkpoint ${r.checkpointMs.toFixed(1)} ms, restore ${r.restoreMs.toFixed(1)} ms, rollback of 10 blocks ${r.rollbackMs.toFixed(1)} ms`);
  measured.set('checkpoint100kMs', r.checkpointMs);
  measured.set('restore100kMs', r.restoreMs);
  measured.set('rollback10Ms', r.rollbackMs);
  details.workbench = r;
}

const RUN: Record<Part, () => Promise<void>> = { http, block, streaming, emulation, storage, explorer, workbench };

const children: [string, string, ReturnType<typeof HTTP_GATEWAY>[1]][] = [];
if (want('http')) children.push(['http-gw', ...HTTP_GATEWAY(opts)], ['bare', 'bare', {}]);
if (want('block')) children.push(['block-gw', ...BLOCK_GATEWAY(opts)]);
log(` starting ${children.length} processes at once`);
await prestart(children);
for (const part of PARTS) {
  if (!want(part)) continue;
  log(` ${part}`);
  const t0 = performance.now();
  try {
    await RUN[part]();
  } catch (e) {
    failures.set(part, e instanceof Error ? e.message : String(e));
    log(`  ${part} failed: ${failures.get(part)}`);
  }
  partSeconds[part] = Math.round((performance.now() - t0) / 1000);
}
await stopUntaken();

// ---- the verdict ----
type Status = 'met' | 'missed' | 'FAIL' | 'not measured';
const figures = Object.entries(goals)
  .filter(([, g]) => want(g.part as Part))
  .map(([key, g]) => {
    const value = measured.get(key);
    const within = (limit: number) => (value === undefined ? false : g.better === 'higher' ? value >= limit : value <= limit);
    const status: Status = value === undefined ? 'not measured' : within(g.goal) ? 'met' : within(g.floor) ? 'missed' : 'FAIL';
    return { key, ...g, value, status, command: `npm run bench:check -- --only ${g.part}`, ...(failures.has(g.part as Part) ? { error: failures.get(g.part as Part) } : {}) };
  });
const failed = figures.filter((f) => f.status === 'FAIL' || f.status === 'not measured');

const commit = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    // what this check writes itself does not make the tree another one
    const own = [':!bench/check-results.json', ':!bench/check-results.md', ':!BENCHMARKS.md'];
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ...own], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
})();
const loadAtEnd = loadavg();
const machine = { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` };
const wallS = Math.round(elapsedS());
const date = new Date().toISOString();

const fmt = (v: number | undefined, unit: string) => {
  if (v === undefined) return 'not measured';
  const digits = unit === 'calls' ? 0 : Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  if (unit === 'x') return `${v.toFixed(digits)}x`;
  return `${v.toFixed(digits)} ${unit === 'calls' && v === 1 ? 'call' : unit}`;
};
const bound = (g: Goal, v: number) => `${g.better === 'higher' ? '>=' : '<='} ${fmt(v, g.unit)}`;
const mark: Record<Status, string> = { met: 'met', missed: 'missed (above floor)', FAIL: '**FAIL** (past floor)', 'not measured': '**FAIL** (not measured)' };
const md = [
  `bench:check on ${date.slice(0, 16).replace('T', ' ')} UTC, commit ${commit}; ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}; ` +
    `load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end; ${wallS} s in all.`,
  '',
  '| figure | measured | goal | floor | result | command |',
  '|---|---|---|---|---|---|',
  ...figures.map((f) => `| ${f.title} | ${fmt(f.value, f.unit)} | ${bound(f, f.goal)} | ${bound(f, f.floor)} | ${mark[f.status]} | \`${f.command}\` |`),
  ...[...failures].map(([part, e]) => `\n${part} could not be measured: ${e.replace(/\s+/g, ' ').slice(0, 400)}`),
].join('\n');

console.log(`\n${md}\n`);
writeFileSync(`${benchDir}check-results.md`, `${md}\n`);
writeFileSync(
  `${benchDir}check-results.json`,
  `${JSON.stringify({ date, commit, machine, load: { start: loadAtStart, end: loadAtEnd }, wallS, partSeconds, parts: only, figures, details }, null, 2)}\n`,
);

if (values['update-benchmarks']) {
  const path = `${root}BENCHMARKS.md`;
  const text = readFileSync(path, 'utf8');
  const [open, close] = ['<!-- bench:check -->', '<!-- /bench:check -->'];
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from < 0 || to < from) throw new Error(`BENCHMARKS.md has no ${open} ... ${close} section`);
  writeFileSync(path, `${text.slice(0, from + open.length)}\n${md}\n${text.slice(to)}`);
  console.log('BENCHMARKS.md updated');
}

if (failed.length) {
  console.error(`bench:check FAILED: ${failed.map((f) => `${f.key} ${fmt(f.value, f.unit)} (floor ${bound(f, f.floor)})`).join('; ')}`);
  process.exit(1);
}
console.log(`bench:check passed (${figures.filter((f) => f.status === 'missed').length} figure(s) between floor and goal)`);
