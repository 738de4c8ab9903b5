/**
 * A data dir in the old journal format (DIR/journal, before the SQLite store) is imported once into
 * DIR/chain.db: the recorded chain comes back as the old code left it (blocks, transactions, pending ones,
 * balances), the journal is left untouched and never read again, and the chain goes on. A damaged journal, or
 * one made with another seed, is refused with the journal's message and nothing in the directory changes.
 * The fixture was recorded by the old code; how is in test/fixtures/localnet/legacy-journal/README.md.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Address } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirError, LocalChain } from '../../../src/sources/localnet/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/localnet/legacy-journal');
const JOURNAL = readFileSync(join(FIXTURE, 'journal'));

/** What the old code's chain held when it closed (expected.json, written by the recording script). */
interface Recorded {
  seed: string;
  globalId: number;
  blockInterval: number;
  lastMcSeqno: number;
  mc: { seqno: number; rootHash: string; fileHash: string; txHashes: string[] }[];
  shard: { seqno: number; rootHash: string; txHashes: string[] }[];
  sealedTxs: { hash: string; lt: string; account: string }[];
  pending: string[];
  /** the three credited addresses: the first two credits sealed, the third pending */
  targets: string[];
  alice: string;
  aliceSeqno: number;
  balances: Record<string, string>;
}
const recorded = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Recorded;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A temporary data dir holding `journal` (the fixture's unless given). */
function legacyDir(journal: Buffer = JOURNAL): string {
  const d = mkdtempSync(join(tmpdir(), 'localnet-legacy-'));
  dirs.push(d);
  writeFileSync(join(d, 'journal'), journal);
  return d;
}

const open = (dir: string, seed = recorded.seed) =>
  LocalChain.create({ seed, blockInterval: recorded.blockInterval, globalId: recorded.globalId, dataDir: dir });

/** The chain as the recording describes it. */
async function view(chain: LocalChain) {
  const s = chain.store;
  const balances: Record<string, string> = {};
  for (const a of Object.keys(recorded.balances)) balances[a] = (await chain.v2.getAddressBalance({ address: Address.parseRaw(a) })).toString();
  return {
    lastMcSeqno: s.lastMc.seqno,
    mc: s.mcBlocks.map((b) => ({ seqno: b.seqno, rootHash: b.rootHash.toString('hex'), fileHash: b.fileHash.toString('hex'), txHashes: b.txHashes })),
    shard: s.shardBlocks.map((b) => ({ seqno: b.seqno, rootHash: b.rootHash.toString('hex'), txHashes: b.txHashes })),
    sealedTxs: s.sealedTransactions().map((t) => ({ hash: t.hash, lt: t.lt.toString(), account: t.account.hash.toString('hex') })),
    pending: s.pending.map((t) => t.hash),
    aliceSeqno: (await chain.v2.getWalletInformation({ address: Address.parseRaw(recorded.alice) })).seqno,
    balances,
  };
}
const { seed: _seed, globalId: _globalId, blockInterval: _interval, targets: _targets, alice: _alice, ...expected } = recorded;

/** 64 random bytes at the journal's middle, where valid entries follow. */
function damagedJournal(): Buffer {
  const copy = Buffer.from(JOURNAL);
  randomBytes(64).copy(copy, Math.floor(copy.length / 2));
  return copy;
}

describe('a data dir in the old journal format', () => {
  it('is imported once: the recorded chain, the journal untouched and not read again, and the chain goes on', async () => {
    expect(recorded.pending.length).toBeGreaterThan(0);
    const dir = legacyDir();
    const a = await open(dir);
    try {
      expect(await view(a)).toEqual(expected);
    } finally {
      await a.close();
    }
    expect(readFileSync(join(dir, 'journal')).equals(JOURNAL)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['chain.db', 'journal']);

    // the second start reads the database: a journal that would now be refused is not even looked at
    const damaged = damagedJournal();
    writeFileSync(join(dir, 'journal'), damaged);
    const b = await open(dir);
    try {
      expect(await view(b)).toEqual(expected);
      // what the old chain left pending is sealed in the next block, chained to the last recorded one
      await b.sealBlock();
      expect(b.store.lastMc.seqno).toBe(recorded.lastMcSeqno + 1);
      expect(b.store.lastMc.prev!.rootHash.toString('hex')).toBe(recorded.mc.at(-1)!.rootHash);
      expect(b.store.transactionsOfMcBlock(b.store.lastMc.seqno).map((t) => t.hash).sort()).toEqual([...recorded.pending].sort());
      expect(await b.v2.getAddressBalance({ address: Address.parseRaw(recorded.targets[2]!) })).toBe('3000000000');
    } finally {
      await b.close();
    }
    expect(readFileSync(join(dir, 'journal')).equals(damaged)).toBe(true);

    // and without the journal at all
    rmSync(join(dir, 'journal'));
    const c = await open(dir);
    try {
      expect(c.store.lastMc.seqno).toBe(recorded.lastMcSeqno + 1);
      expect(c.store.mcBlocks.slice(0, -1).map((m) => m.rootHash.toString('hex'))).toEqual(recorded.mc.map((m) => m.rootHash));
      expect(c.store.pending).toEqual([]);
    } finally {
      await c.close();
    }
    expect(existsSync(join(dir, 'journal'))).toBe(false);
  }, 120_000);

  it('refuses a damaged journal with the journal message, changing nothing; its repair keeps the entries before the damage', async () => {
    const damaged = damagedJournal();
    const dir = legacyDir(damaged);
    const journal = join(dir, 'journal');
    const refused = await open(dir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^${journal} is damaged at offset \\d+ \\(the entry there: .+\\); refusing to start, nothing was changed\\. ` +
          `To keep the \\d+ entries before it \\(the damaged file is kept as journal\\.damaged-<time>\\), run: npm run journal -- repair ${dir}$`,
      ),
    );
    expect(readFileSync(journal).equals(damaged)).toBe(true);
    // nothing was changed: no database was left beside the journal
    expect(readdirSync(dir)).toEqual(['journal']);

    // the repair the message names works on the journal
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/journal.ts', 'repair', dir], { cwd: ROOT });
    expect(stdout).toMatch(new RegExp(`^${journal}: kept \\d+ entries, cut \\d+ bytes; the original is ${dir}/journal\\.damaged-\\S+\n$`));
    const chain = await open(dir);
    try {
      // the damage lies inside the recorded genesis (mc blocks 1..7), so the repaired journal holds no completed
      // genesis and genesis runs again: the recorded genesis blocks come back identical (the zerostate salt hashes the
      // config without the local validator set, which follows from the seed), then the ten blocks genesis has gained
      // since the recording (the NFT sale and auction, the DNS auction of genesis-dns.ts, the validator's stake and
      // recovery of genesis-elector.ts, the four of the nominator pool of genesis-pool.ts), none of the recorded
      // blocks after it
      const recordedGenesis = 7;
      const hashes = chain.store.mcBlocks.map((m) => m.rootHash.toString('hex'));
      expect(hashes.slice(0, recordedGenesis + 1)).toEqual(recorded.mc.slice(0, recordedGenesis + 1).map((m) => m.rootHash));
      expect(chain.store.lastMc.seqno).toBe(recordedGenesis + 10);
      expect(hashes.slice(recordedGenesis + 1)).not.toContain(recorded.mc[recordedGenesis + 1]!.rootHash);
    } finally {
      await chain.close();
    }
  }, 120_000);

  it('refuses a journal made with another seed, changing nothing', async () => {
    const dir = legacyDir();
    const refused = await open(dir, 'another').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DataDirError);
    expect((refused as Error).message).toBe(`${dir} holds a local chain made with seed "${recorded.seed}", not "another"`);
    expect(readdirSync(dir)).toEqual(['journal']);
    // and the recorded seed still opens it
    const chain = await open(dir);
    try {
      expect(chain.store.lastMc.seqno).toBe(recorded.lastMcSeqno);
    } finally {
      await chain.close();
    }
  }, 120_000);
});
