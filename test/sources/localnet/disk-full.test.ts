/**
 * A `--data-dir` on a filesystem that really fills: a small tmpfs mounted for the test (the test runs as root in
 * CI; without mount it is skipped with one line). A filler file takes every free byte until SQLite's writes fail.
 * Then /health and /ready answer 503 with the reason, sends on every surface answer 503 LITE_SERVER_NOTREADY
 * (never 500) without executing, the server keeps answering another client's reads within a second, and once
 * the filler is deleted the chain goes on by itself: health 200, new blocks, every acknowledged send sealed,
 * and the database holds them sealed.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Address, toNano } from '@ton/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';
import { waitFor } from '../../helpers/wait.js';

const MNT = mkdtempSync(join(tmpdir(), 'localnet-disk-full-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', MNT], { stdio: 'pipe' });
    return true;
  } catch (e) {
    console.log(`disk-full tests skipped: cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]})`);
    return false;
  }
})();

const gateways: Gateway[] = [];

afterAll(async () => {
  for (const g of gateways) await g.close().catch(() => undefined);
  if (mounted) {
    try {
      execFileSync('umount', [MNT], { stdio: 'pipe' });
    } catch {
      execFileSync('umount', ['-l', MNT], { stdio: 'pipe' });
    }
  }
  rmSync(MNT, { recursive: true, force: true });
});

const FILLER = join(MNT, 'filler');

/**
 * Writes the filler until the filesystem has no byte left (ENOSPC at every chunk size down to 512 bytes), off
 * the event loop: the server runs in this process and the other client's reads are timed meanwhile.
 */
async function fill(): Promise<number> {
  const file = await open(FILLER, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 14, 512]) {
      const chunk = Buffer.alloc(size, 0xa5);
      for (;;) {
        try {
          written += (await file.write(chunk)).bytesWritten;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
          break;
        }
      }
    }
  } finally {
    await file.close();
  }
  return written;
}

const fresh = () => new Address(0, randomBytes(32));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function request(url: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The four ways a client hands the gateway an external message, each answering in its own envelope. */
const SURFACES = {
  v2: (url: string, boc: string) => request(url, '/api/v2/sendBoc', { boc }),
  jsonRpc: (url: string, boc: string) => request(url, '/api/v2/jsonRPC', { id: 1, jsonrpc: '2.0', method: 'sendBoc', params: { boc } }),
  v3: (url: string, boc: string) => request(url, '/api/v3/message', { boc }),
  graphql: (url: string, boc: string) => request(url, '/graphql', { query: 'mutation($b: Boc!) { sendMessage(boc: $b) { hash } }', variables: { b: boc } }),
};

/** The refusal text a send gets while the storage fails, from whichever envelope carries it. */
function refusal(a: Answer): string {
  const errors = a.body.errors as { message: string; extensions: { status?: number } }[] | undefined;
  if (errors) {
    expect(errors[0]!.extensions.status).toBe(503);
    return errors[0]!.message;
  }
  expect(a.status).toBe(503);
  expect(a.body.code).toBe(503);
  return String(a.body.error);
}

const NOT_READY = /LITE_SERVER_NOTREADY: storage: database or disk is full \(SQLITE_FULL\)/;

/** Another client reading the tip every 50 ms for as long as the test runs: its statuses and latencies, and the process's RSS growth. */
function reader(url: string) {
  const statuses: number[] = [];
  const latencies: number[] = [];
  const rss0 = process.memoryUsage().rss;
  let rssMax = rss0;
  let running = true;
  const done = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v2/getMasterchainInfo`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      statuses.push(res.status);
      rssMax = Math.max(rssMax, process.memoryUsage().rss);
      await sleep(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { statuses, latencies, max: Math.max(...latencies), rssGrowth: rssMax - rss0 };
    },
  };
}

const seqnoOf = async (g: Gateway, w: KeyedWallet) => (await g.chain!.v2.getWalletInformation({ address: w.contract.address })).seqno!;
const sealedTxs = (g: Gateway, a: Address) => g.chain!.store.accountTransactions(a).length;
const health = async (g: Gateway) => [await request(g.url, '/health'), await request(g.url, '/ready')];

/**
 * Before the disk fills: one transfer from `w` acknowledged on each surface (which also warms each up before the
 * other client's reads are timed). The targets, and `w`'s next seqno.
 */
async function sendOnEachSurface(g: Gateway, w: KeyedWallet): Promise<{ acked: Address[]; seqno: number }> {
  let seqno = await seqnoOf(g, w);
  const acked: Address[] = [];
  for (const send of Object.values(SURFACES)) {
    const to = fresh();
    const a = await send(g.url, v4Transfer(w, to, toNano('0.1'), seqno++).toString('base64'));
    expect(a.status).toBe(200);
    expect(a.body.errors).toBeUndefined();
    acked.push(to);
  }
  return { acked, seqno };
}

/**
 * Sends transfers from `w` (v2 sendBoc) until one is refused: the acknowledged targets and the target of the
 * refused one. Every answer is 200 or 503, never anything else.
 */
async function sendUntilRefused(g: Gateway, w: KeyedWallet, seqno: number): Promise<{ acked: Address[]; refused: Address; answer: Answer }> {
  const acked: Address[] = [];
  for (let i = 0; i < 100; i++) {
    const to = fresh();
    const answer = await SURFACES.v2(g.url, v4Transfer(w, to, toNano('0.1'), seqno).toString('base64'));
    expect([200, 503]).toContain(answer.status);
    if (answer.status === 503) return { acked, refused: to, answer };
    acked.push(to);
    seqno++;
  }
  throw new Error('the filled disk never refused a write');
}

/** Each address received exactly one transaction, and a block row in `dataDir`'s database holds it (what a restart reads back). */
function expectSealedOnDisk(dataDir: string, addresses: Address[]): void {
  const db = new Database(join(dataDir, 'chain.db'), { readonly: true });
  try {
    const sealed = new Set(
      (db.prepare('SELECT body FROM blocks').all() as { body: string }[]).flatMap((r) => {
        const b = JSON.parse(r.body) as { mc: { txHashes: string[] }; shard: { txHashes: string[] } };
        return [...b.mc.txHashes, ...b.shard.txHashes];
      }),
    );
    const txOf = db.prepare<[string], { hash: Buffer }>('SELECT hash FROM txs WHERE account = ?');
    for (const a of addresses) {
      const rows = txOf.all(`0:${a.hash.toString('hex')}`);
      expect(rows.length).toBe(1);
      expect(sealed.has(rows[0]!.hash.toString('hex'))).toBe(true);
    }
  } finally {
    db.close();
  }
}

describe.skipIf(!mounted)('a data dir whose filesystem fills up', () => {
  it('answers 503 with the reason while writes fail and goes on by itself once space is freed (block interval 300 ms)', async () => {
    const dataDir = join(MNT, 'interval');
    mkdirSync(dataDir);
    const g = await startTestGateway({ dataDir, blockInterval: 300 });
    gateways.push(g);
    const [alice, bob] = g.chain!.keyedWallets();

    const { acked: before, seqno: aliceSeqno } = await sendOnEachSurface(g, alice!);
    const other = reader(g.url);

    const filled = await fill();
    const { acked, answer } = await sendUntilRefused(g, alice!, aliceSeqno);
    expect(refusal(answer)).toMatch(NOT_READY);
    const stalledAt = g.chain!.store.lastMc.seqno;
    for (const a of await health(g)) {
      expect(a.status).toBe(503);
      expect(a.body).toEqual({ status: 'unavailable', error: expect.stringMatching(/^storage: database or disk is full \(SQLITE_FULL\)/) });
    }
    // refused on every surface, before executing: bob's seqno stays, so the same seqno is accepted later
    const bobSeqno = await seqnoOf(g, bob!);
    for (const send of Object.values(SURFACES)) {
      const a = await send(g.url, v4Transfer(bob!, fresh(), toNano('0.1'), bobSeqno).toString('base64'));
      expect(refusal(a)).toMatch(NOT_READY);
    }
    // the producer does not go on while nothing can be written
    await sleep(1000);
    expect(g.chain!.store.lastMc.seqno).toBe(stalledAt);
    expect((await health(g))[0]!.status).toBe(503);

    rmSync(FILLER);
    const freedAt = performance.now();
    await waitFor(async () => ((await health(g)).every((a) => a.status === 200) ? true : undefined), 5000, 50);
    const recovery = performance.now() - freedAt;
    await waitFor(async () => (g.chain!.store.lastMc.seqno >= stalledAt + 2 ? true : undefined), 5000, 50);
    expect((await health(g)).map((a) => a.body.status)).toEqual(['ok', 'ready']);

    // every acknowledged send is sealed
    const all = [...before, ...acked];
    await waitFor(async () => (all.every((a) => sealedTxs(g, a) === 1) ? true : undefined), 5000, 50);

    // sends are accepted again; bob's refused transfers never ran, so his seqno is unchanged
    const after = fresh();
    expect(await seqnoOf(g, bob!)).toBe(bobSeqno);
    expect((await SURFACES.v3(g.url, v4Transfer(bob!, after, toNano('0.1'), bobSeqno).toString('base64'))).status).toBe(200);
    await waitFor(async () => (sealedTxs(g, after) === 1 ? true : undefined), 5000, 50);

    const seen = await other.stop();
    expect(new Set(seen.statuses)).toEqual(new Set([200]));
    expect(seen.max).toBeLessThan(1000);
    expect(seen.rssGrowth).toBeLessThan(512 * 2 ** 20);
    console.log(
      `disk full (interval 300 ms): filler ${(filled / 2 ** 20).toFixed(1)} MiB, ${acked.length} sends acknowledged on the filling disk, ` +
        `health 200 ${Math.round(recovery)} ms after the space was freed; another client's getMasterchainInfo: ${seen.latencies.length} reads, max ${Math.round(seen.max)} ms; ` +
        `RSS grew ${Math.round(seen.rssGrowth / 2 ** 20)} MB`,
    );

    // on disk, sealed: what a restart reads back
    await g.close();
    gateways.pop();
    expectSealedOnDisk(dataDir, [...all, after]);
  }, 90_000);

  it('seals the transfer whose own write failed once writing works again (block interval 0)', async () => {
    const dataDir = join(MNT, 'at-once');
    mkdirSync(dataDir);
    const g = await startTestGateway({ dataDir, blockInterval: 0 });
    gateways.push(g);
    const [alice] = g.chain!.keyedWallets();
    const { acked: before, seqno } = await sendOnEachSurface(g, alice!);
    const other = reader(g.url);

    await fill();
    const { acked, refused, answer } = await sendUntilRefused(g, alice!, seqno);
    expect(refusal(answer)).toMatch(NOT_READY);
    const stalledAt = g.chain!.store.lastMc.seqno;
    for (const a of await health(g)) expect(a.status).toBe(503);
    for (const a of [...before, ...acked]) expect(sealedTxs(g, a)).toBe(1);
    // executed, held in memory, not visible
    expect(sealedTxs(g, refused)).toBe(0);
    expect(g.chain!.store.pending.length).toBeGreaterThan(0);

    rmSync(FILLER);
    const freedAt = performance.now();
    // the retry seals it (one block, at the utime it executed in) without any further send
    await waitFor(async () => (sealedTxs(g, refused) === 1 ? true : undefined), 5000, 50);
    const sealedAfter = performance.now() - freedAt;
    expect(g.chain!.store.lastMc.seqno).toBe(stalledAt + 1);
    expect(g.chain!.store.pending).toEqual([]);
    expect(g.chain!.store.lastMc.genUtime).toBe(g.chain!.store.accountTransactions(refused)[0]!.now);
    await waitFor(async () => ((await health(g)).every((a) => a.status === 200) ? true : undefined), 5000, 50);
    // it ran once: the wallet's next transfer takes the seqno after it, and is accepted
    expect(await seqnoOf(g, alice!)).toBe(seqno + acked.length + 1);
    const after = fresh();
    expect((await SURFACES.graphql(g.url, v4Transfer(alice!, after, toNano('0.1'), seqno + acked.length + 1).toString('base64'))).body.errors).toBeUndefined();

    const seen = await other.stop();
    expect(new Set(seen.statuses)).toEqual(new Set([200]));
    expect(seen.max).toBeLessThan(1000);
    expect(seen.rssGrowth).toBeLessThan(512 * 2 ** 20);
    console.log(
      `disk full (interval 0): the transfer whose write failed sealed ${Math.round(sealedAfter)} ms after the space was freed; ` +
        `another client's getMasterchainInfo: ${seen.latencies.length} reads, max ${Math.round(seen.max)} ms; RSS grew ${Math.round(seen.rssGrowth / 2 ** 20)} MB`,
    );

    // the rows of the transfer whose write failed were written with the block that holds them
    await g.close();
    gateways.pop();
    expectSealedOnDisk(dataDir, [...before, ...acked, refused, after]);
  }, 60_000);
});
