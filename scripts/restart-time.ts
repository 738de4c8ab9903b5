/**
 * `npm run restart-time [-- --txs 10000 --dir DIR --keep]`: builds a durable local chain of about `txs`
 * transactions (faucet credits to 500 addresses and signed wallet transfers, sealed every 100 sends; a DIR that
 * already holds a chain of this seed is continued up to `txs`), closes it, then restarts it in a fresh process
 * and prints the restart time (LocalChain.create on the directory: open, check every row, read the index back)
 * and the process's RSS and heap before and after. Not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LocalChain } from '../src/sources/localnet/index.js';
import { fillChain, txCount } from './lib/fill-chain.js';

const SEED = 'restart-time';
const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(0)} MB`;

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '10000' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** internal: measure the restart of DIR (or, with '', a fresh in-memory start) in this process; one JSON line */
    measure: { type: 'string' },
  },
});

if (values.measure !== undefined) {
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const chain = await LocalChain.create({ seed: SEED, blockInterval: 3_600_000, ...(values.measure ? { dataDir: values.measure } : {}) });
  const ms = performance.now() - t0;
  const rssAfter = process.memoryUsage().rss;
  global.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  const txs = txCount(chain);
  process.stdout.write(`${JSON.stringify({ ms, rssBefore, rssAfter, heapBefore, heapAfter, txs, blocks: chain.store.lastMc.seqno })}\n`);
  await chain.close();
  process.exit(0);
}

const target = Number(values.txs);
if (!Number.isSafeInteger(target) || target < 100 || target > 1_000_000) {
  console.error('usage: npm run restart-time -- [--txs 100..1000000] [--dir DIR] [--keep]');
  process.exit(2);
}
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'restart-time-'));

const t0 = performance.now();
const chain = await LocalChain.create({ seed: SEED, blockInterval: 3_600_000, dataDir: dir });
const sends = await fillChain(chain, target);
const built = txCount(chain);
await chain.close();
const buildS = (performance.now() - t0) / 1000;
const dbSize = statSync(join(dir, 'chain.db')).size;
console.log(`built ${built} transactions (${sends} new sends) in ${buildS.toFixed(1)} s; chain.db ${mb(dbSize)}`);

interface Measured {
  ms: number;
  rssBefore: number;
  rssAfter: number;
  heapBefore: number;
  heapAfter: number;
  txs: number;
  blocks: number;
}

/** Starts a chain in a fresh process, so time and RSS are those of a real restart. */
function measure(dataDir: string): Measured {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--measure', dataDir], { encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as Measured;
}

const m = measure(dir);
console.log(
  `restart: ${m.txs} transactions in ${m.blocks} blocks rebuilt in ${(m.ms / 1000).toFixed(2)} s; ` +
    `RSS ${mb(m.rssBefore)} before, ${mb(m.rssAfter)} after; heap after a full GC ${mb(m.heapAfter)} (${mb(m.heapBefore)} before)`,
);
const base = measure('');
console.log(
  `for comparison, a fresh start on a temporary database (genesis, ${base.txs} transactions): ${(base.ms / 1000).toFixed(2)} s, ` +
    `RSS ${mb(base.rssAfter)}, heap ${mb(base.heapAfter)}`,
);
if (m.txs !== built) {
  console.error(`the restart found ${m.txs} transactions, not ${built}`);
  process.exit(1);
}
if (!values.keep && values.dir === undefined) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
