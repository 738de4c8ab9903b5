/**
 * `npm run workbench-bench [-- --txs 100000 --dir DIR --keep --rounds 5 --json]`: the workbench's goals (issue 44) on a
 * durable local chain of about `txs` transactions (filled as the storage scripts do, scripts/lib/fill-chain.ts; a
 * DIR already holding a chain of this seed is continued up to `txs`).
 *
 * Per round: a checkpoint made at the head (timed), 10 more blocks of 100 sends (about 200 transactions) each, the checkpoint restored
 * (timed: the call returns once every index has undone the cut); then, with a finality delay of an hour, 10 more
 * unfinalized blocks of 100 sends and a rollback of all 10 (timed the same way). The medians are printed with the
 * heap after a full GC before and after, so a restore's memory can be read against the history's size; `--json`
 * adds them as one JSON line at the end (bench/check.ts's workbench part reads it).
 * Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalChain } from '../src/sources/localnet/index.js';
import { fillChain, txCount } from './lib/fill-chain.js';
import { median } from '../bench/lib/load.js';

const SEED = 'workbench-bench';
const BLOCKS = 10;
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '100000' },
    dir: { type: 'string' },
    keep: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const target = Number(values.txs);
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(target) || target < 100 || target > 1_000_000 || !Number.isSafeInteger(rounds) || rounds < 1) {
  console.error('usage: npm run workbench-bench -- [--txs 100..1000000] [--dir DIR] [--keep] [--rounds N]');
  process.exit(2);
}
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'workbench-bench-'));
const heapMB = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed / MB;
};

const chain = await LocalChain.create({ seed: SEED, blockInterval: 3_600_000, dataDir: dir });
try {
  const t0 = performance.now();
  await fillChain(chain, target);
  console.log(`chain: ${txCount(chain)} transactions, ${chain.store.lastMc.seqno} masterchain blocks (filled in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const wb = chain.workbench;
  /** `BLOCKS` blocks of one fill round (100 sends) each, on top of the head */
  const grow = async () => {
    const start = chain.store.lastMc.seqno;
    for (let i = 0; i < BLOCKS; i++) await fillChain(chain, txCount(chain) + 1);
    return chain.store.lastMc.seqno - start;
  };
  const create: number[] = [];
  const restore: number[] = [];
  const rollback: number[] = [];
  const heap: { before: number; after: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    await wb.setFinalityDelay(0);
    const name = `bench-${r}`;
    let t = performance.now();
    await wb.createCheckpoint(name, false);
    create.push(performance.now() - t);
    const grown = await grow();
    const before = heapMB();
    t = performance.now();
    const restored = await wb.restoreCheckpoint(name);
    restore.push(performance.now() - t);
    const after = heapMB();
    heap.push({ before, after });
    await wb.deleteCheckpoint(name);

    await wb.setFinalityDelay(3_600_000);
    const base = chain.store.lastMc.seqno;
    const unfinal = await grow();
    t = performance.now();
    const undone = await wb.rollback(base);
    rollback.push(performance.now() - t);
    console.log(
      `round ${r + 1}: checkpoint ${create.at(-1)!.toFixed(1)} ms; restore over ${grown} blocks ${restore.at(-1)!.toFixed(1)} ms (to block ${restored.block_seqno}, heap ${before.toFixed(0)} -> ${after.toFixed(0)} MB); rollback of ${unfinal} blocks / ${undone.transactions_undone} tx ${rollback.at(-1)!.toFixed(1)} ms`,
    );
  }
  console.log(
    `median over ${rounds} rounds at ${txCount(chain)} transactions: checkpoint ${median(create).toFixed(1)} ms (goal <= 200), restore ${median(restore).toFixed(1)} ms (goal <= 200), rollback of ${BLOCKS} unfinalized blocks ${median(rollback).toFixed(1)} ms (goal <= 50)`,
  );
  if (values.json) {
    const report = { txs: txCount(chain), rounds, checkpointMs: median(create), restoreMs: median(restore), rollbackMs: median(rollback), create, restore, rollback, heapMB: heap };
    console.log(JSON.stringify(report));
  }
} finally {
  await chain.close();
  if (!values.keep && !values.dir) rmSync(dir, { recursive: true, force: true });
}
