/**
 * `--data-dir`: the local chain's database (DIR/chain.db, SQLite in WAL mode). In process: close and reopen
 * gives the same chain, which continues; a WAL torn in its last frame or followed by garbage opens at its last
 * whole commit; damage inside the database file is refused untouched and the repair keeps the blocks before
 * it; another seed is refused. Then the real CLI: a damaged database, another global id, an old journal made
 * with another seed and a directory in use are refused before it listens, and it is killed with SIGKILL in the
 * middle of a burst of sends (garbage then appended to the WAL it left) and restarted on the same directory.
 */
import { exec, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Address, toNano } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, describe, expect, it } from 'vitest';
import { repairDb } from '../../../src/sources/localnet/chain/db.js';
import { DataDirError, LocalChain } from '../../../src/sources/localnet/index.js';
import { ready, startCli as startCliProcess, type Cli } from '../../helpers/cli.js';
import { v4Transfer } from '../../helpers/transfer.js';
import { waitFor } from '../../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** a data dir in the old journal format, recorded by the code before the database (see its README) */
const LEGACY_JOURNAL = join(ROOT, 'test/fixtures/localnet/legacy-journal/journal');
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'localnet-durability-'));
  dirs.push(d);
  return d;
}

const fresh = () => new Address(0, randomBytes(32));

/** Everything a client can see of the chain, to compare before and after a restart. */
async function snapshot(chain: LocalChain) {
  const s = chain.store;
  return {
    info: await chain.v2.getMasterchainInfo(),
    mc: s.mcBlocks.map((b) => [b.seqno, b.rootHash.toString('hex'), b.fileHash.toString('hex'), b.startLt, b.endLt, b.genUtime, b.txHashes]),
    shard: s.shardBlocks.map((b) => [b.seqno, b.rootHash.toString('hex'), b.txHashes]),
    txs: s.sealedTransactions().map((t) => [t.hash, t.lt, t.endLt, t.now, t.mcSeqno, t.block?.seqno, t.parentHash, t.traceRootHash, t.inMsgHash, t.outMsgHashes]),
    pending: s.pending.map((t) => t.hash),
    wallets: chain.wallets(),
    accounts: s.accounts().map((a) => [a, s.accountStateHistory(Address.parseRaw(a)).map((h) => [h.lt, h.mcSeqno, h.boc])]),
  };
}

const balance = async (chain: LocalChain, a: Address) => BigInt(await chain.v2.getAddressBalance({ address: a }));

/**
 * A closed durable chain in `dir` with `n` faucet credits, each sealed in its own block: the credited addresses,
 * every masterchain block's root hash (hex), and for each credit the row (`seq`) and BoC of the crediting
 * transaction, to find in the file.
 */
async function creditedDb(dir: string, seed: string, n: number): Promise<{ targets: Address[]; roots: string[]; credits: { seq: number; boc: Buffer }[] }> {
  const chain = await LocalChain.create({ seed, blockInterval: 3_600_000, dataDir: dir });
  const targets = Array.from({ length: n }, fresh);
  const credits: { seq: number; boc: Buffer }[] = [];
  const row = chain.store.db.db.prepare<[Buffer], { seq: number; boc: Buffer }>('SELECT seq, boc FROM txs WHERE hash = ?');
  try {
    for (const [i, t] of targets.entries()) {
      await chain.faucet(t, 1_000_000_000n + BigInt(i));
      await chain.sealBlock();
      credits.push(row.get(Buffer.from(chain.store.accountTransactions(t)[0]!.hash, 'hex'))!);
    }
    return { targets, credits, roots: chain.store.mcBlocks.map((b) => b.rootHash.toString('hex')) };
  } finally {
    await chain.close();
  }
}

/** Where `bytes` (a stored value) lies in the database file `data`; it must be there exactly once. */
function offsetOf(data: Buffer, bytes: Buffer): number {
  const at = data.indexOf(bytes);
  expect(at).toBeGreaterThan(0);
  expect(data.indexOf(bytes, at + 1)).toBe(-1);
  return at;
}

/**
 * What a torn or stray write could leave after a WAL's last frame: two whole frames that carry the WAL's salts
 * (so only their checksums tell them apart from real ones) and claim to rewrite page 1, the second as a commit,
 * then 4 KiB of random bytes.
 */
function walGarbage(wal: Buffer): Buffer {
  const pageSize = wal.readUInt32BE(8);
  const frames = [0, 1].map((i) => {
    const frame = randomBytes(24 + pageSize);
    frame.writeUInt32BE(1, 0);
    frame.writeUInt32BE(i === 1 ? 64 : 0, 4);
    wal.copy(frame, 8, 16, 24);
    return frame;
  });
  return Buffer.concat([...frames, randomBytes(4096)]);
}

/** `bytes` overwritten with random ones at `offset`. */
function overwrite(data: Buffer, offset: number, bytes: number): Buffer {
  const copy = Buffer.from(data);
  randomBytes(bytes).copy(copy, offset);
  return copy;
}

describe('durable local chain, in process', () => {
  it('reopens with the same blocks, transactions and states, and continues', async () => {
    const dir = tempDir();
    const memory = await LocalChain.create({ seed: 'durable-1', blockInterval: 0 });
    const a = await LocalChain.create({ seed: 'durable-1', blockInterval: 0, dataDir: dir });
    const target = fresh();
    let before;
    let aliceLast: { lt: bigint; hash: string };
    let targetBalance: bigint;
    try {
      // journaling does not change what genesis makes
      expect(await a.v2.getMasterchainInfo()).toEqual(await memory.v2.getMasterchainInfo());
      await a.faucet(target, 3_000_000_000n);
      const alice = a.keyedWallets()[0]!;
      const seqno = (await a.v2.getWalletInformation({ address: alice.contract.address })).seqno!;
      await a.v2.sendBoc({ boc: v4Transfer(alice, target, toNano('2'), seqno) });
      await a.faucet(target, 1_000_000_000n);
      before = await snapshot(a);
      expect(before.txs.length).toBeGreaterThan(15);
      aliceLast = a.store.accountTransactions(alice.contract.address).at(-1)!;
      targetBalance = await balance(a, target);
      expect(targetBalance).toBeGreaterThan(5_999_000_000n); // 6 TON less storage fees
    } finally {
      await Promise.all([a.close(), memory.close()]);
    }
    const b = await LocalChain.create({ seed: 'durable-1', blockInterval: 0, dataDir: dir });
    try {
      expect(await snapshot(b)).toEqual(before);
      expect(await balance(b, target)).toBe(targetBalance!);

      // it continues: new seqnos, a new transaction chained to the old state of the same wallet
      const alice = b.keyedWallets()[0]!;
      const seqno = (await b.v2.getWalletInformation({ address: alice.contract.address })).seqno!;
      const last = b.store.lastMc;
      await b.v2.sendBoc({ boc: v4Transfer(alice, target, toNano('1'), seqno) });
      expect(b.store.lastMc.seqno).toBe(last.seqno + 1);
      expect(b.store.lastMc.prev!.rootHash).toEqual(last.rootHash);
      const newest = b.store.accountTransactions(alice.contract.address).at(-1)!;
      expect(newest.lt).toBeGreaterThan(before.txs.at(-1)![2] as bigint);
      expect(newest.tx.prevTransactionLt).toBe(aliceLast!.lt);
      expect(newest.tx.prevTransactionHash.toString(16).padStart(64, '0')).toBe(aliceLast!.hash);
      // the target got 1 TON more, less the storage fee its transaction collected
      const credit = b.store.accountTransactions(target).at(-1)!;
      const d = credit.tx.description;
      const storageFee = d.type === 'generic' ? (d.storagePhase?.storageFeesCollected ?? 0n) : 0n;
      expect(credit.parentHash).toBe(newest.hash);
      expect(await balance(b, target)).toBe(targetBalance! + 1_000_000_000n - storageFee);
      expect((await b.v2.getWalletInformation({ address: alice.contract.address })).seqno).toBe(seqno + 1);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('keeps pending transactions pending across a restart and seals them in the next block', async () => {
    const dir = tempDir();
    const a = await LocalChain.create({ seed: 'durable-2', blockInterval: 3_600_000, dataDir: dir });
    const target = fresh();
    let lastSeqno: number;
    let pendingHashes: string[];
    try {
      await a.faucet(target, 5_000_000_000n);
      lastSeqno = a.store.lastMc.seqno;
      pendingHashes = a.store.pending.map((t) => t.hash);
      expect(pendingHashes.length).toBe(2);
    } finally {
      await a.close(); // no seal on close
    }
    const b = await LocalChain.create({ seed: 'durable-2', blockInterval: 3_600_000, dataDir: dir });
    try {
      expect(b.store.lastMc.seqno).toBe(lastSeqno);
      expect(b.store.pending.map((t) => t.hash)).toEqual(pendingHashes);
      expect(await balance(b, target)).toBe(0n); // not visible until sealed
      const openUtime = b.store.pending[0]!.now;
      await b.sealBlock();
      const mc = b.store.lastMc;
      expect(mc.seqno).toBe(lastSeqno + 1);
      expect(mc.genUtime).toBe(openUtime);
      expect(b.store.transactionsOfMcBlock(mc.seqno).map((t) => t.hash).sort()).toEqual([...pendingHashes].sort());
      expect(await balance(b, target)).toBe(5_000_000_000n);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('opens a WAL left by a killed process at its last whole commit, whether its last frame is torn or garbage follows it', async () => {
    const dir = tempDir();
    const db = join(dir, 'chain.db');
    const wal = `${db}-wal`;
    const a = await LocalChain.create({ seed: 'durable-3', blockInterval: 3_600_000, dataDir: dir });
    const first = fresh();
    const second = fresh();
    let consistent;
    let latest;
    let sizeBefore: number;
    let left: { db: Buffer; wal: Buffer };
    try {
      await a.faucet(first, 1_000_000_000n);
      await a.sealBlock();
      consistent = await snapshot(a);
      sizeBefore = statSync(wal).size;
      await a.faucet(second, 2_000_000_000n); // the last commit: one exec, still pending
      latest = await snapshot(a);
      // what a process killed now leaves: every commit has reached the files (synchronous=NORMAL), none is checkpointed
      left = { db: readFileSync(db), wal: readFileSync(wal) };
    } finally {
      await a.close();
    }
    expect(latest.pending.length).toBe(consistent.pending.length + 2);
    const frame = 24 + left.wal.readUInt32BE(8);
    expect((left.wal.length - 32) % frame).toBe(0);
    expect(left.wal.length).toBeGreaterThan(sizeBefore + frame); // the last commit was appended after the seal's frames

    const cases = [
      { name: 'garbage after the last frame', wal: Buffer.concat([left.wal, walGarbage(left.wal)]), expected: latest },
      { name: 'the last frame cut short', wal: left.wal.subarray(0, left.wal.length - 100), expected: consistent },
      (() => {
        // same length, one byte of the last frame's page flipped: its checksum fails
        const copy = Buffer.from(left.wal);
        copy[copy.length - 20] ^= 0x01;
        return { name: 'a byte of the last frame flipped', wal: copy, expected: consistent };
      })(),
    ];
    for (const [i, { name, wal: data, expected }] of cases.entries()) {
      writeFileSync(db, left.db);
      writeFileSync(wal, data);
      const b = await LocalChain.create({ seed: 'durable-3', blockInterval: 3_600_000, dataDir: dir });
      try {
        expect(await snapshot(b), name).toEqual(expected);
        expect(await balance(b, second)).toBe(0n);
        // after the last case the chain goes on from there, and what it adds survives the next restart
        if (i === cases.length - 1) {
          await b.faucet(second, 4_000_000_000n);
          await b.sealBlock();
        }
      } finally {
        await b.close();
      }
    }
    const c = await LocalChain.create({ seed: 'durable-3', blockInterval: 3_600_000, dataDir: dir });
    try {
      expect(c.store.lastMc.seqno).toBe(consistent.info.last.seqno + 1);
      expect(await balance(c, first)).toBe(1_000_000_000n);
      expect(await balance(c, second)).toBe(4_000_000_000n);
    } finally {
      await c.close();
    }
  }, 180_000);

  it('refuses damage inside chain.db without changing it; the repair keeps the blocks before it, and the chain goes on', async () => {
    const dir = tempDir();
    const path = join(dir, 'chain.db');
    const { targets, roots, credits } = await creditedDb(dir, 'durable-5', 8);
    const lastMc = roots.length - 1;
    const full = readFileSync(path);
    expect(readdirSync(dir)).toEqual(['chain.db']); // closed: the WAL is checkpointed into the file and removed
    const pageSize = full.readUInt16BE(16);
    const middle = Math.floor(full.length / pageSize / 2) * pageSize;
    // credit 4's transaction, with the credits after it in later rows and blocks
    const credit4 = offsetOf(full, credits[4]!.boc);
    const damaged = [
      { name: 'the header of a page in the middle', data: overwrite(full, middle, 64) },
      { name: 'the inside of a page in the middle', data: overwrite(full, middle + pageSize / 2, 64) },
      { name: "credit 4's transaction BoC", data: overwrite(full, credit4 + 100, 64), reason: `transaction row ${credits[4]!.seq} fails its checksum` },
    ];
    for (const { name, data, reason } of damaged) {
      writeFileSync(path, data);
      const refused = await LocalChain.create({ seed: 'durable-5', blockInterval: 3_600_000, dataDir: dir }).catch((e: unknown) => e);
      expect(refused, name).toBeInstanceOf(DataDirError);
      const message = (refused as Error).message;
      expect(message).toMatch(
        new RegExp(`^${path} is damaged \\(.+\\); refusing to start, nothing was changed\\. .+ run: npm run journal -- repair ${dir}$`),
      );
      if (reason) expect(message).toContain(`is damaged (${reason});`);
      expect(readFileSync(path).equals(data), name).toBe(true);
      expect(readdirSync(dir), name).toEqual(['chain.db']);
    }

    // the repair keeps a prefix of the chain, whatever was hit; the damaged file is set aside as it was
    for (const { name, data, reason } of [damaged[0]!, damaged[2]!]) {
      writeFileSync(path, data);
      const repaired = repairDb(dir);
      expect(repaired.backup, name).toMatch(new RegExp(`^${dir}/chain\\.db\\.damaged-\\S+$`));
      expect(readFileSync(repaired.backup!).equals(data), name).toBe(true);
      expect(repaired.blocks, name).toBeGreaterThan(0);
      expect(repaired.blocks, name).toBeLessThanOrEqual(lastMc);
      // a second repair finds nothing wrong and changes nothing
      expect(repairDb(dir)).toEqual({ path, blocks: repaired.blocks, transactions: repaired.transactions });
      if (reason) {
        // whole cascades before the damaged row: credits 0-3 and their blocks (credit 4's faucet transaction,
        // the row before the damaged one, goes with it)
        expect(repaired.transactions).toBe(credits[4]!.seq - 2);
        expect(repaired.blocks).toBe(lastMc + 1 - 4);
      }
      const chain = await LocalChain.create({ seed: 'durable-5', blockInterval: 3_600_000, dataDir: dir });
      try {
        const kept = repaired.blocks - 1;
        expect(chain.store.lastMc.seqno, name).toBe(kept);
        expect(chain.store.mcBlocks.map((b) => b.rootHash.toString('hex')), name).toEqual(roots.slice(0, kept + 1));
        if (reason) for (const [i, t] of targets.entries()) expect(await balance(chain, t)).toBe(i < 4 ? 1_000_000_000n + BigInt(i) : 0n);
        // it continues: a new credit is sealed in the next block
        const after = fresh();
        await chain.faucet(after, 5_000_000_000n);
        await chain.sealBlock();
        expect(chain.store.lastMc.seqno).toBe(kept + 1);
        expect(chain.store.lastMc.prev!.rootHash.toString('hex')).toBe(roots[kept]);
        expect(await balance(chain, after)).toBe(5_000_000_000n);
      } finally {
        await chain.close();
      }
    }
  }, 180_000);

  it('refuses a directory made with another seed, or held by another chain', async () => {
    const dir = tempDir();
    const a = await LocalChain.create({ seed: 'durable-4', blockInterval: 0, dataDir: dir });
    try {
      const held = await LocalChain.create({ seed: 'durable-4', blockInterval: 0, dataDir: dir }).catch((e: unknown) => e);
      expect(held).toBeInstanceOf(DataDirError);
      expect((held as Error).message).toBe(`${dir} is in use by process ${process.pid}`);
    } finally {
      await a.close();
    }
    const other = await LocalChain.create({ seed: 'other', blockInterval: 0, dataDir: dir }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(DataDirError);
    expect((other as Error).message).toBe(`${dir} holds a local chain made with seed "durable-4", not "other"`);
    // the refusal released the directory
    const again = await LocalChain.create({ seed: 'durable-4', blockInterval: 0, dataDir: dir });
    await again.close();
  }, 120_000);
});

const startCli = (args: string[]): Cli => startCliProcess(args, (proc) => children.push(proc));

async function v2get<T>(url: string, method: string, params: Record<string, string>): Promise<T> {
  const res = await fetch(`${url}/api/v2/${method}?${new URLSearchParams(params)}`);
  const body = (await res.json()) as { ok: boolean; result: T; error?: string };
  if (!body.ok) throw new Error(`${method}: ${res.status} ${body.error}`);
  return body.result;
}

interface Sent {
  to: Address;
  amount: bigint;
  /** 200 with this tx hash (faucet) or ok (transfer); undefined when the answer never came */
  ok?: string | true;
  status?: number;
  /** when the 200 arrived (performance.now()) */
  at?: number;
}

describe('the CLI on a damaged database, on another global id or seed, or on a directory in use', () => {
  it('refuses before it listens and names the repair, after which the chain starts from the blocks before the damage', async () => {
    const dir = tempDir();
    const path = join(dir, 'chain.db');
    // the in-process chain's global id is mainnet's, the CLI's default testnet's
    const args = ['--seed', 'durable-cli', '--global-id=-239', '--data-dir', dir];
    const { targets, roots, credits } = await creditedDb(dir, 'durable-cli', 4);
    // 64 bytes overwritten inside credit 2's transaction, with credit 3 after it
    const damaged = overwrite(readFileSync(path), offsetOf(readFileSync(path), credits[2]!.boc) + 100, 64);
    writeFileSync(path, damaged);

    const refused = startCli(args);
    expect(await refused.exited).toBe(2);
    expect(refused.stdout()).toBe('');
    const line = refused.stderr();
    expect(line).toMatch(
      new RegExp(
        `^ton-graphql-gateway: ${path} is damaged \\(transaction row ${credits[2]!.seq} fails its checksum\\); refusing to start, nothing was changed\\. .+ run: npm run journal -- repair ${dir}\n$`,
      ),
    );
    expect(readFileSync(path).equals(damaged)).toBe(true);
    expect(readdirSync(dir)).toEqual(['chain.db']);

    // the command the line names, as given
    const command = /run: (npm run journal -- repair \S+)\n$/.exec(line)![1]!;
    const { stdout } = await promisify(exec)(command, { cwd: ROOT });
    const kept = new RegExp(`^${path}: kept (\\d+) blocks and (\\d+) transactions; the original is ${dir}/chain\\.db\\.damaged-\\S+$`, 'm').exec(stdout);
    expect(kept, stdout).not.toBeNull();
    // the seals of credits 2 and 3 are gone, and credit 2's whole cascade (its faucet transaction too) on
    expect(Number(kept![1])).toBe(roots.length - 2);
    expect(Number(kept![2])).toBe(credits[2]!.seq - 2);

    // the chain was made with global id -239; the CLI's default is -3
    const otherId = startCli(['--seed', 'durable-cli', '--data-dir', dir]);
    expect(await otherId.exited).toBe(2);
    expect(otherId.stdout()).toBe('');
    expect(otherId.stderr()).toBe(`ton-graphql-gateway: ${dir} holds a local chain with global id -239, not -3 (see --global-id)\n`);

    const server = startCli(args);
    const url = await ready(server);
    const info = await v2get<{ last: { seqno: number } }>(url, 'getMasterchainInfo', {});
    expect(info.last.seqno).toBe(roots.length - 3);
    for (let seqno = 1; seqno <= info.last.seqno; seqno++) {
      const id = await v2get<{ root_hash: string }>(url, 'lookupBlock', { workchain: '-1', shard: '-9223372036854775808', seqno: String(seqno) });
      expect(Buffer.from(id.root_hash, 'base64').toString('hex'), `mc block ${seqno}`).toBe(roots[seqno]);
    }
    for (const [i, t] of targets.entries()) {
      const balance = await v2get<string>(url, 'getAddressBalance', { address: t.toRawString() });
      expect(BigInt(balance), `credit ${i}`).toBe(i < 2 ? 1_000_000_000n + BigInt(i) : 0n);
    }

    const second = startCli(args);
    expect(await second.exited).toBe(2);
    expect(second.stdout()).toBe('');
    expect(second.stderr()).toBe(`ton-graphql-gateway: ${dir} is in use by process ${server.proc.pid}\n`);

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 180_000);

  it('refuses a directory in the old journal format made with another seed before it listens, changing nothing', async () => {
    const dir = tempDir();
    copyFileSync(LEGACY_JOURNAL, join(dir, 'journal'));
    const cli = startCli(['--seed', 'another', '--global-id=-239', '--data-dir', dir]);
    expect(await cli.exited, cli.stderr()).toBe(2);
    expect(cli.stdout()).toBe('');
    expect(cli.stderr()).toBe(`ton-graphql-gateway: ${dir} holds a local chain made with seed "legacy-journal", not "another"\n`);
    expect(readdirSync(dir)).toEqual(['journal']);
    expect(readFileSync(join(dir, 'journal')).equals(readFileSync(LEGACY_JOURNAL))).toBe(true);
  }, 60_000);
});

describe('the CLI killed with SIGKILL in the middle of a burst of sends', () => {
  it('keeps every answered send exactly once and continues the chain after a restart', async () => {
    const dir = tempDir();
    const args = ['--seed', 'durable-kill', '--block-interval', '3000', '--data-dir', dir];
    const first = startCli(args);
    const url = await ready(first);

    const wallets = (await (await fetch(`${url}/localnet/wallets`)).json()) as { name: string; address: string; mnemonic: string[] }[];
    const aliceInfo = wallets.find((w) => w.name === 'alice')!;
    const key = await mnemonicToPrivateKey(aliceInfo.mnemonic);
    const alice = { contract: WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }), keyPair: key };
    expect(alice.contract.address.toRawString()).toBe(Address.parseRaw(aliceInfo.address).toRawString());
    const seqno0 = (await v2get<{ seqno: number }>(url, 'getWalletInformation', { address: aliceInfo.address })).seqno;
    const startSeqno = (await v2get<{ last: { seqno: number } }>(url, 'getMasterchainInfo', {})).last.seqno;

    // blocks clients saw before the kill (they must keep their hashes), and when each was first seen
    const seen = new Map<number, { rootHash: string; at: number }>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        try {
          const info = await v2get<{ last: { seqno: number; root_hash: string } }>(url, 'getMasterchainInfo', {});
          if (!seen.has(info.last.seqno)) seen.set(info.last.seqno, { rootHash: info.last.root_hash, at: performance.now() });
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    // faucet credits, 16 always in flight until the server dies, each to its own fresh address
    const faucets: Sent[] = [];
    const faucetDone = Array.from({ length: 16 }, async () => {
      for (;;) {
        const f: Sent = { to: fresh(), amount: 1_000_000_000n + BigInt(faucets.length) };
        faucets.push(f);
        try {
          const res = await fetch(`${url}/localnet/faucet`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ address: f.to.toRawString(), amount: f.amount.toString() }),
          });
          f.status = res.status;
          const body = (await res.json()) as { hash?: string };
          if (res.status !== 200) return;
          f.ok = body.hash;
          f.at = performance.now();
        } catch {
          return; // the server died before answering
        }
      }
    });
    // and signed wallet transfers, one after another (each needs the previous seqno)
    const transfers: Sent[] = [];
    const transferDone = (async () => {
      for (let s = seqno0; ; s++) {
        const t: Sent = { to: fresh(), amount: 100_000_000n + BigInt(s) };
        transfers.push(t);
        try {
          const res = await fetch(`${url}/api/v2/sendBoc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ boc: v4Transfer(alice, t.to, t.amount, s).toString('base64') }),
          });
          t.status = res.status;
          await res.text();
          if (res.status !== 200) return;
          t.ok = true;
        } catch {
          return;
        }
      }
    })();

    // Kill between two seals (3 s apart), once some sends answered after the latest seal: those are pending.
    await waitFor(
      async () => {
        const blocks = [...seen].filter(([seqno]) => seqno > startSeqno);
        if (blocks.length === 0 || faucets.filter((f) => f.ok).length < 25 || transfers.filter((t) => t.ok).length < 2) return undefined;
        const sealedAt = blocks[blocks.length - 1]![1].at;
        const now = performance.now();
        const since = faucets.filter((f) => f.at !== undefined && f.at > sealedAt + 300).length;
        return since >= 3 && now < sealedAt + 2000 ? true : undefined;
      },
      120_000,
      5,
    );
    first.proc.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    watching = false;
    await Promise.all([...faucetDone, transferDone, watch]);

    const okFaucets = faucets.filter((f) => f.ok);
    const okTransfers = transfers.filter((t) => t.ok);
    // the kill really came mid-burst: sends in flight never got an answer, and none was refused before it
    expect(faucets.filter((f) => f.status === undefined).length).toBeGreaterThan(0);
    expect(faucets.every((f) => f.status === undefined || f.status === 200)).toBe(true);
    const lastSeen = Math.max(...seen.keys());

    // the WAL the kill left, with garbage after its last frame: frames that fail its checksum are not applied
    const wal = join(dir, 'chain.db-wal');
    const left = readFileSync(wal);
    expect(left.length).toBeGreaterThan(32);
    appendFileSync(wal, walGarbage(left));

    // a longer interval after the restart, so the first block (sealing what the kill left pending) is seen coming
    const second = startCli([...args, '--block-interval', '8000']);
    const url2 = await ready(second);
    const restartedAt = (await v2get<{ last: { seqno: number } }>(url2, 'getMasterchainInfo', {})).last.seqno;
    expect(restartedAt).toBeGreaterThanOrEqual(lastSeen);
    for (const [seqno, { rootHash }] of seen) {
      const id = await v2get<{ root_hash: string }>(url2, 'lookupBlock', { workchain: '-1', shard: '-9223372036854775808', seqno: String(seqno) });
      expect(id.root_hash, `mc block ${seqno}`).toBe(rootHash);
    }
    // what was pending at the kill is sealed by the next block
    await waitFor(async () => ((await v2get<{ last: { seqno: number } }>(url2, 'getMasterchainInfo', {})).last.seqno > restartedAt ? true : undefined), 60_000);

    const sealedTxs = (a: Address) =>
      v2get<{ transaction_id: { hash: string } }[]>(url2, 'getTransactions', { address: a.toRawString(), limit: '10', archival: 'false' });
    const balanceOf = async (a: Address) => BigInt(await v2get<string>(url2, 'getAddressBalance', { address: a.toRawString() }));
    let sealedAfterRestart = 0;
    for (const f of faucets) {
      const txs = await sealedTxs(f.to);
      if (f.ok) {
        // answered ok: sealed, exactly once, the very transaction the answer named
        expect(txs.map((t) => t.transaction_id.hash)).toEqual([f.ok]);
        expect(await balanceOf(f.to)).toBe(f.amount);
        const v3 = (await (await fetch(`${url2}/api/v3/transactions?account=${f.to.toRawString()}`)).json()) as {
          transactions: { mc_block_seqno: number }[];
        };
        if (v3.transactions[0]!.mc_block_seqno > restartedAt) sealedAfterRestart++;
      } else {
        // never answered: applied once or not at all
        expect(txs.length).toBeLessThanOrEqual(1);
        expect([0n, f.amount]).toContain(await balanceOf(f.to));
      }
    }
    // some answered sends were still pending at the kill: the first block after the restart sealed them
    expect(sealedAfterRestart).toBeGreaterThanOrEqual(3);
    let applied = 0;
    for (const t of transfers) {
      const txs = await sealedTxs(t.to);
      expect(txs.length).toBeLessThanOrEqual(1);
      if (t.ok) expect(txs.length).toBe(1);
      if (txs.length === 1) {
        applied++;
        expect(await balanceOf(t.to)).toBe(t.amount);
      }
    }
    expect(applied).toBeGreaterThanOrEqual(okTransfers.length);
    expect(okFaucets.length).toBeGreaterThanOrEqual(25);
    // the wallet's seqno counts exactly the transfers that were applied, so none ran twice
    expect((await v2get<{ seqno: number }>(url2, 'getWalletInformation', { address: aliceInfo.address })).seqno).toBe(seqno0 + applied);

    // the chain goes on: a new credit after the restart, sealed in a later block
    const after = fresh();
    const res = await fetch(`${url2}/localnet/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: after.toRawString(), amount: '7000000000' }),
    });
    expect(res.status).toBe(200);
    await waitFor(async () => ((await sealedTxs(after)).length === 1 ? true : undefined), 30_000);

    // SIGTERM: the database is synced and closed, exit 0; the directory is free again
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(existsSync(join(dir, 'lock'))).toBe(false);

    // another seed on the same directory: one line, exit 2
    const wrong = startCli(['--seed', 'another', '--data-dir', dir]);
    expect(await wrong.exited, wrong.stderr()).toBe(2);
    expect(wrong.stderr()).toBe(`ton-graphql-gateway: ${dir} holds a local chain made with seed "durable-kill", not "another"\n`);
  }, 300_000);
});
