/**
 * `npx tsx scripts/scale-reads.ts [--txs 1000] [--dir DIR] [--calls 200]`: read latency of the local chain as it
 * grows (issue 17). Builds a durable chain of about `txs` transactions in DIR (or a temporary directory) the way
 * scripts/restart-time.ts does (faucet credits to 500 addresses and signed wallet transfers, sealed every 100
 * sends; same seed, so a DIR built by either script is reused and continued), reopens it, then times in process
 * the median of `calls` calls of each read below, each call with another input taken across the whole chain.
 * Every read runs twice over the same inputs: "first" (caches cold for those inputs) and "again" (warm).
 * Not part of `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withResolvedPaging } from '../src/api/v3/paging.js';
import { LocalChain } from '../src/sources/localnet/index.js';
import { localV3Api } from '../src/sources/localnet/v3/index.js';
import { fillChain, txCount } from './lib/fill-chain.js';

const SEED = 'restart-time';

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '1000' },
    dir: { type: 'string' },
    calls: { type: 'string', default: '200' },
  },
});
const target = Number(values.txs);
const calls = Number(values.calls);
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'scale-reads-'));

async function build(): Promise<void> {
  const chain = await LocalChain.create({ seed: SEED, blockInterval: 3_600_000, dataDir: dir });
  if (txCount(chain) < target) {
    const t0 = performance.now();
    await fillChain(chain, target);
    console.log(`built ${txCount(chain)} transactions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await chain.close();
}

await build();
const chain = await LocalChain.create({ seed: SEED, blockInterval: 3_600_000, dataDir: dir });
const api = withResolvedPaging(localV3Api(chain));
const store = chain.store;
const txs = store.sealedTransactions();
console.log(`chain: ${txs.length} sealed transactions, ${store.lastMc.seqno + 1} masterchain blocks, ${store.stats().accounts} accounts`);

// inputs spread over the whole chain: every k-th transaction, its account, its in-message
const sample = Array.from({ length: calls }, (_, i) => txs[Math.floor(((i + 0.5) * txs.length) / calls)]!);
const basechain = sample.map((t) => (t.account.workChain === 0 ? t : txs.find((x) => x.account.workChain === 0)!));
const opts = { noAddressBook: true, noMetadata: true } as const;

const reads: [string, (i: number) => Promise<unknown>][] = [
  ['v3 /blocks by seqno', (i) => api.blocks({ workchain: -1, seqno: sample[i]!.mcSeqno! })],
  ['v3 /transactions by account, limit 10', (i) => api.transactions({ account: [basechain[i]!.account], limit: 10, ...opts })],
  ['v3 /transactions newest 10', () => api.transactions({ limit: 10, ...opts })],
  ['v3 /traces by tx_hash', (i) => api.listTraces({ txHash: [Buffer.from(sample[i]!.hash, 'hex')], ...opts })],
  ['v3 /actions by account, limit 10', (i) => api.actions({ account: basechain[i]!.account, limit: 10, ...opts })],
  ['v3 /messages by hash', (i) => api.messages({ msgHash: [Buffer.from(sample[i]!.inMsgHash!, 'hex')], ...opts })],
  ['v2 getTransactions, limit 10', (i) => chain.v2.getTransactions({ address: basechain[i]!.account, limit: 10, toLt: 0n, archival: false })],
  ['v2 getAddressInformation', (i) => chain.v2.getAddressInformation({ address: basechain[i]!.account })],
];

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[s.length >> 1]!;
};
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

for (const [name, read] of reads) {
  const passes: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      await read(i);
      times.push(performance.now() - t0);
    }
    passes.push(median(times));
  }
  console.log(`${name.padEnd(42)} first ${us(passes[0]!).padStart(10)}   again ${us(passes[1]!).padStart(10)}`);
}
await chain.close();
if (values.dir === undefined) rmSync(dir, { recursive: true, force: true });
