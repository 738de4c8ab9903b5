/**
 * `npm run bench [-- --quick] [-- --profile] [-- --only 1,6,7,8,mem]` (8 runs rows 8 and 9): starts everything it measures on loopback,
 * runs each scenario against its baseline in the same run, prints a table and writes bench/results.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { prestart, stopUntaken, type SpawnOptions } from './lib/child.js';
import { BLOCK_GATEWAY, blockViewScenario } from './scenarios/block-view.js';
import { HTTP_GATEWAY, httpScenarios } from './scenarios/http.js';
import { MEMORY_GATEWAY, memoryScenario, type MemoryReport } from './scenarios/memory.js';
import { READS_GATEWAY, readsDuringSendScenario } from './scenarios/reads-during-send.js';
import { SENDBOC_GATEWAY, sendBocScenario } from './scenarios/send-boc.js';
import type { Row, RunOptions } from './scenarios/types.js';
import { upstreamScenarios } from './scenarios/upstream.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, profile: { type: 'boolean' }, only: { type: 'string' }, reps: { type: 'string' } },
});
const quick = Boolean(values.quick);
const only = values.only ? new Set(values.only.split(',')) : undefined;
const want = (k: string) => !only || only.has(k);
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const profDir = values.profile ? `${benchDir}profiles/${new Date().toISOString().replace(/[:.]/g, '-')}` : undefined;
if (profDir) mkdirSync(profDir, { recursive: true });

const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(0).padStart(4);
const opts: RunOptions = {
  quick,
  reps: Number(values.reps ?? 3),
  durationS: quick ? 1 : 5,
  profDir,
  log: (m) => console.log(`[${elapsed()} s]${m}`),
};
if (opts.reps < 3) console.log('note: fewer than 3 repetitions; the issue asks for at least 3');

const rows: Row[] = [];
let memory: MemoryReport | undefined;
const step = async (name: string, fn: () => Promise<void>) => {
  opts.log(` ${name}`);
  await fn();
};
const wanted = (...ids: string[]) => ids.some(want);
type Spec = [key: string, script: string, opts?: SpawnOptions];
const children: Spec[] = [];
if (wanted('1', '2', '3')) children.push(['http-gw', ...HTTP_GATEWAY(opts)], ['bare', 'bare']);
if (wanted('4', '5')) children.push(['upstream-a', 'gateway']);
if (wanted('6')) children.push(['block-gw', ...BLOCK_GATEWAY(opts)]);
if (wanted('7')) children.push(['sendboc-gw', ...SENDBOC_GATEWAY(opts)], ['sandbox', 'sandbox']);
if (wanted('8')) children.push(['reads-gw', ...READS_GATEWAY(opts)]);
if (wanted('mem')) children.push(['memory-gw', ...MEMORY_GATEWAY()]);
await step(`starting ${children.length} processes at once`, () => prestart(children));
if (want('1') || want('2') || want('3')) await step('scenarios 1-3: REST and GraphQL vs bare node:http', async () => void rows.push(...(await httpScenarios(opts))));
if (want('4') || want('5')) await step('scenarios 4-5: upstream mode', async () => void rows.push(...(await upstreamScenarios(opts))));
if (want('6')) await step('scenario 6: block view over a 20 ms link', async () => void rows.push(await blockViewScenario(opts)));
if (want('7')) await step('scenario 7: sendBoc vs direct sandbox', async () => void rows.push(await sendBocScenario(opts)));
if (want('8')) await step('scenarios 8-9: reads during a sendBoc burst', async () => void rows.push(...(await readsDuringSendScenario(opts))));
if (want('mem')) await step('memory', async () => void (memory = await memoryScenario(opts)));
await stopUntaken();

const fmt = (x: number | undefined, d = 0) => (x === undefined ? '' : x.toFixed(d));
const side = (r: Row, which: 'subject' | 'baseline') => {
  const s = r[which] as Record<string, number> | undefined;
  if (!s) return '';
  if ('rps' in s) return `${fmt(s.rps, s.rps < 100 ? 1 : 0)}/s${s.p50 !== undefined ? ` p50 ${s.p50} p99 ${s.p99} ms` : ''}${s.cpuUs !== undefined ? `, ${fmt(s.cpuUs)} µs CPU/req` : ''}`;
  return `${s.roundTrips} trips, ${fmt(s.wallMs)} ms`;
};
const lines = [
  '| # | scenario | subject | baseline | ratio | target | |',
  '|---|---|---|---|---|---|---|',
  ...rows
    .sort((a, b) => a.id - b.id)
    .flatMap((r) => {
      const main = `| ${r.id} | ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${side(r, 'subject')} | ${side(r, 'baseline')} | ${r.ratio === undefined ? 'n/a' : `${fmt(r.ratio, 2)} ${r.metric}`} | ${r.target === undefined ? '(no goal)' : `>= ${r.target}`} | ${r.ratio === undefined ? 'not measured' : r.target === undefined ? '' : r.ratio >= r.target ? 'met' : 'MISSED'} |`;
      const extra = (r.extra ?? []).map((e) => `| ${r.id} | | | | ${fmt(e.ratio, 2)} ${e.metric} | >= ${e.target} | ${e.ratio >= e.target ? 'met' : 'MISSED'} |`);
      return [main, ...extra];
    }),
];
if (memory) {
  lines.push(
    '',
    '| point | RSS MB | heap used MB | external MB | transactions | messages | accounts | stored BoC KB | database file KB | cached MB |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of memory.points) {
    lines.push(
      `| ${p.label} | ${fmt(p.rssMB)} | ${fmt(p.heapUsedMB, 1)} | ${fmt(p.externalMB, 1)} | ${p.transactions} | ${p.messages} | ${p.accounts} | ` +
        `${fmt((p.stateBocBytes + p.txBocBytes) / 1024)} | ${fmt(p.dbFileBytes / 1024)} | ${fmt(p.cacheBytes / 1024 / 1024, 1)} |`,
    );
  }
  const k = memory.perThousandTx;
  const k1 = memory.perThousandTxFirstFill;
  lines.push(
    '',
    `per 1,000 transactions (second fill, caches full): RSS +${fmt(k.rssMB, 1)} MB, heap +${fmt(k.heapUsedMB, 2)} MB, stored BoCs +${fmt(k.storedBocKB)} KB, ` +
      `database file +${fmt(k.dbFileKB)} KB; first fill (caches filling): RSS +${fmt(k1.rssMB, 1)} MB, heap +${fmt(k1.heapUsedMB, 2)} MB; ` +
      `fill ${fmt(memory.fillTxPerSecond)} tx/s; mixed load ${memory.mixedSeconds} s, ${memory.mixedRequests} requests`,
  );
}
const machine = { nproc: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` };
lines.push('', `machine: ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}; mode ${quick ? '--quick' : 'full'}, ${opts.reps} repetitions (median), ${elapsed().trim()} s`);
console.log(`\n${lines.join('\n')}`);
writeFileSync(
  `${benchDir}results.json`,
  `${JSON.stringify({ date: new Date().toISOString(), mode: quick ? 'quick' : 'full', reps: opts.reps, machine, rows, memory, profiles: profDir }, null, 2)}\n`,
);
if (profDir) console.log(`cpu profiles: ${profDir} (summarise with: npx tsx bench/profile-summary.ts FILE)`);
