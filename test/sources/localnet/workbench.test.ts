/**
 * The local chain's drills over real HTTP on loopback (issue 44): with a finality delay, blocks stay confirmed;
 * a rollback and a reorg undo them, a Streaming API v2 client and a GraphQL subscription subscribed meanwhile
 * are sent trace_invalidated for exactly the traces undone and then the replacements; no index (v2, v3,
 * GraphQL, the jetton index) shows an undone transaction once the call has returned; finalized blocks are never
 * rolled back; a checkpoint restored under concurrent reads answers each read from one side; and with a data
 * dir, a rollback, a restore and a reset are on disk across a restart, nothing finalized lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Address, toNano } from '@ton/core';
import { createClient as createSseClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseClient, type Frame } from '../../../scripts/lib/streaming-client.js';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { ActonClient } from '../../helpers/acton-client.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';

const HOUR = 3_600_000;
const fresh = (): Address => new Address(0, randomBytes(32));

async function post(g: Gateway, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${g.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
async function get(g: Gateway, path: string): Promise<any> {
  const res = await fetch(`${g.url}${path}`);
  expect(res.status).toBe(200);
  return res.json();
}
const gql = async (g: Gateway, query: string): Promise<any> => (await post(g, '/graphql', { query })).body;
const v2 = async (g: Gateway, method: string, params: Record<string, unknown>): Promise<any> => (await post(g, '/api/v2/jsonRPC', { jsonrpc: '2.0', id: 1, method, params })).body.result;

/** A wallet's transfers, signed in order; each sent through v3, which names its external's normalised hash. */
class Sender {
  seqno = 0;
  constructor(
    private readonly g: Gateway,
    readonly wallet: KeyedWallet,
  ) {}

  async init(): Promise<this> {
    this.seqno = (await v2(this.g, 'getWalletInformation', { address: this.wallet.contract.address.toRawString() })).seqno;
    return this;
  }

  /** A transfer's BoC (base64) for the next seqno. */
  next(to = fresh()): string {
    return v4Transfer(this.wallet, to, toNano('0.01'), this.seqno++).toString('base64');
  }

  async send(boc = this.next()): Promise<string> {
    const r = await post(this.g, '/api/v3/message', { boc });
    expect(r.status).toBe(200);
    return r.body.message_hash_norm as string;
  }
}

const invalidations = (frames: Frame[]) => frames.filter((f) => f.data?.type === 'trace_invalidated').map((f) => f.data.trace_external_hash_norm as string);
const stagesOf = (frames: Frame[], norm: string) =>
  frames.filter((f) => f.data?.trace_external_hash_norm === norm).map((f) => (f.data.type === 'trace_invalidated' ? 'invalidated' : f.data.finality));

describe('drills with a finality delay', () => {
  let g: Gateway;
  let acton: ActonClient;
  let alice: Sender;
  let gqlSse: Client;
  /** what a test leaves open is closed before the server, which waits for its connections */
  const open: (() => unknown)[] = [];
  beforeAll(async () => {
    g = await startTestGateway({ blockInterval: HOUR });
    acton = new ActonClient(g.url);
    alice = await new Sender(g, g.chain!.keyedWallets()[0]!).init();
    gqlSse = createSseClient({ url: `${g.url}/graphql`, retryAttempts: 0 });
  }, 120_000);
  afterAll(async () => {
    for (const close of open) await close();
    gqlSse?.dispose();
    await g?.close();
  });

  it('undoes only unfinalized blocks; streaming and GraphQL clients are told exactly what was undone, then see the replacements', async () => {
    const walletRaw = rawUpper(alice.wallet.contract.address);
    const sse = await SseClient.open(g.url, { types: ['transactions'], addresses: [walletRaw], min_finality: 'pending' });
    open.push(() => sse.close());
    expect((await sse.next()).data.status).toBe('subscribed');
    const gqlEvents: any[] = [];
    const sub = gqlSse.iterate({ query: `subscription ($a: [Address!]!) { transactionEvents(accounts: $a, minFinality: pending) { finality invalidated traceExternalHashNorm } }`, variables: { a: [walletRaw] } });
    const pump = (async () => {
      for await (const r of sub) gqlEvents.push((r.data as any).transactionEvents);
    })();
    open.push(async () => {
      await sub.return?.();
      await pump.catch(() => undefined);
    });
    for (let i = 0; i < 100 && g.liveHub!.size < 2; i++) await new Promise((r) => setTimeout(r, 50));

    const n0 = await alice.send();
    ok(await acton.mine());
    await sse.next((f) => f.data?.trace_external_hash_norm === n0 && f.data.finality === 'finalized');
    const finalBlock = (await acton.nodeInfo()).last_block_seqno;

    expect((await post(g, '/localnet/finality', { finality_delay_ms: 600_000 })).body).toEqual({ finality_delay_ms: 600_000, last_block_seqno: finalBlock, last_finalized_seqno: finalBlock });
    const n1 = await alice.send();
    ok(await acton.mine());
    const kept = (await acton.nodeInfo()).last_block_seqno;
    const m2 = alice.next();
    const n2 = await alice.send(m2);
    const minted = fresh();
    const master = (await get(g, '/localnet/tokens')).jetton.master as string;
    ok(await acton.post('fundJetton', { address: minted.toRawString(), jetton_master: master, amount: '3' }));
    ok(await acton.mine());
    const m3 = alice.next();
    const n3 = await alice.send(m3);
    const confirmed2 = await sse.next((f) => f.data?.trace_external_hash_norm === n2 && f.data.finality === 'confirmed');
    const undoneTx = confirmed2.data.transactions[0].hash as string;
    await sse.next((f) => f.data?.trace_external_hash_norm === n3 && f.data.finality === 'pending');
    expect((await get(g, `/api/v3/jetton/wallets?owner_address=${minted.toRawString()}`)).jetton_wallets).toHaveLength(1);

    // a finalized block is never rolled back
    const refused = await post(g, '/localnet/rollback', { to_seqno: finalBlock - 1 });
    expect(refused).toEqual({ status: 409, body: { code: 409, error: expect.stringMatching(new RegExp(`^block ${finalBlock} is finalized: finalized blocks are never rolled back`)) } });

    const rolled = await post(g, '/localnet/rollback', { to_seqno: kept });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ from_seqno: kept + 1, to_seqno: kept, blocks_undone: 1 });
    // the two transfers and the jetton mint
    expect(rolled.body.undone_traces).toEqual(expect.arrayContaining([n2, n3]));
    expect(rolled.body.undone_traces).toHaveLength(3);

    // no index shows the undone transaction once the call has returned
    const hex = Buffer.from(undoneTx, 'base64').toString('hex');
    expect((await get(g, `/api/v3/transactions?hash=${hex}`)).transactions).toEqual([]);
    expect((await get(g, `/api/v3/transactions?account=${walletRaw}&limit=5`)).transactions.map((t: any) => t.hash)).not.toContain(undoneTx);
    expect((await get(g, `/api/v3/traces?msg_hash=${encodeURIComponent(n2)}`)).traces).toEqual([]);
    expect((await get(g, `/api/v3/messages?msg_hash=${encodeURIComponent(n2)}`)).messages).toEqual([]);
    expect((await get(g, `/api/v3/actions?account=${walletRaw}&limit=20`)).actions.map((a: any) => a.trace_external_hash_norm)).not.toContain(n2);
    expect((await get(g, `/api/v3/jetton/wallets?owner_address=${minted.toRawString()}`)).jetton_wallets).toEqual([]);
    expect((await get(g, `/api/v3/blocks?workchain=-1&seqno=${kept + 1}`)).blocks).toEqual([]);
    const txs = await v2(g, 'getTransactions', { address: walletRaw, limit: 10 });
    expect(txs.map((t: any) => t.transaction_id.hash)).not.toContain(undoneTx);
    expect((await gql(g, `{ transaction(hash: "${undoneTx}") { hash } }`)).data.transaction).toBeNull();
    const pending = await fetch(`${g.url}/api/v3/pendingTransactions?account=${walletRaw}`);
    expect([pending.status, await pending.json()]).toEqual([404, { code: 404, error: 'emulated traces not found' }]);

    // the replacements: the same messages sent again, then sealed
    expect(await alice.send(m2)).toBe(n2);
    expect(await alice.send(m3)).toBe(n3);
    ok(await acton.mine());
    await sse.next((f) => f.data?.trace_external_hash_norm === n3 && f.data.finality === 'confirmed');
    expect(new Set(invalidations(sse.frames))).toEqual(new Set([n2, n3]));
    expect(invalidations(sse.frames)).toHaveLength(2);
    expect(stagesOf(sse.frames, n2)).toEqual(['pending', 'confirmed', 'invalidated', 'pending', 'confirmed']);
    expect(stagesOf(sse.frames, n3)).toEqual(['pending', 'invalidated', 'pending', 'confirmed']);
    expect(stagesOf(sse.frames, n1)).toEqual(['pending', 'confirmed']);
    expect(stagesOf(sse.frames, n0)).toEqual(['pending', 'confirmed', 'finalized']);

    // a reorg of the newest block, replaying its messages: invalidated, then the same traces again
    const reorg = await post(g, '/localnet/reorg', { depth: 1 });
    expect(reorg.status).toBe(200);
    expect(reorg.body).toMatchObject({ blocks_undone: 1, messages_executed: 2, messages_failed: 0, blocks: [{ seqno: kept + 1, transactions: expect.any(Number) }] });
    expect(new Set(reorg.body.undone_traces)).toEqual(new Set([n2, n3]));
    await sse.next((f) => f.data?.trace_external_hash_norm === n3 && f.data.finality === 'confirmed');
    expect(stagesOf(sse.frames, n3)).toEqual(['pending', 'invalidated', 'pending', 'confirmed', 'invalidated', 'pending', 'confirmed']);
    expect(invalidations(sse.frames)).toHaveLength(4);

    // the GraphQL subscription saw the same invalidations
    for (let i = 0; i < 100 && gqlEvents.filter((e) => e.invalidated).length < 4; i++) await new Promise((r) => setTimeout(r, 50));
    expect(gqlEvents.filter((e) => e.invalidated).map((e) => e.traceExternalHashNorm).sort()).toEqual([n2, n2, n3, n3].sort());
    expect(gqlEvents.filter((e) => e.invalidated).every((e) => e.finality === null)).toBe(true);

    // once the delay is lifted, the waiting blocks are final and can no longer be undone
    await post(g, '/localnet/finality', { finality_delay_ms: 0 });
    await sse.next((f) => f.data?.trace_external_hash_norm === n3 && f.data.finality === 'finalized');
    expect((await post(g, '/localnet/rollback', { to_seqno: kept })).status).toBe(409);
  }, 120_000);

  it('refuses a seqno past the newest block and bad bodies, each with one line', async () => {
    const head = (await acton.nodeInfo()).last_block_seqno;
    expect(await post(g, '/localnet/rollback', { to_seqno: head + 5 })).toEqual({ status: 422, body: { code: 422, error: `block ${head + 5} does not exist: the newest block is ${head}` } });
    expect((await post(g, '/localnet/rollback', { to_seqno: 'x' })).body).toEqual({ code: 422, error: 'to_seqno must be a masterchain seqno (a whole number)' });
    expect((await post(g, '/localnet/reorg', { depth: 0 })).body).toEqual({ code: 422, error: 'depth must be a whole number of blocks, at least 1' });
    expect((await post(g, '/localnet/reorg', { depth: 1, messages: ['AAAA'] })).body).toEqual({ code: 422, error: expect.stringMatching(/^messages\[0\] is not a message BoC in base64/) });
    expect((await post(g, '/localnet/reset', { fork_block: 5 })).body).toEqual({ code: 422, error: 'fork_block is for a fork: this chain started from its own genesis' });
    expect((await post(g, '/localnet/finality', { finality_delay_ms: 10 ** 9 })).body).toEqual({ code: 422, error: 'finality_delay_ms must be at most 3600000' });
  });
});

function ok(a: { status: number; body: any }): any {
  expect(a.status).toBe(200);
  expect(a.body.ok).toBe(true);
  return a.body.result;
}

describe('a checkpoint restored under concurrent reads', () => {
  let g: Gateway;
  let acton: ActonClient;
  beforeAll(async () => {
    g = await startTestGateway({ blockInterval: HOUR, seed: 'workbench-concurrent' });
    acton = new ActonClient(g.url);
  }, 120_000);
  afterAll(() => g?.close());

  it('answers every read from one side of the restore, never a mix: a restore waits for the reads under way, later ones wait for it', async () => {
    const x = fresh();
    const master = (await get(g, '/localnet/tokens')).jetton.master as string;
    // one answer read in steps (each level of the graph an await): the account, its transactions, their accounts
    const query = `{ masterchainInfo { last { seqno } } account(address: "${x.toRawString()}") { balance jettonWallets(first: 5) { nodes { balance } }
      transactions(first: 5) { nodes { hash account { balance } inMessage { source { balance } } } } } }`;
    const read = async (): Promise<string> => JSON.stringify((await gql(g, query)).data);
    const before = await read();
    ok(await acton.post('createCheckpoint', { name: 'before' }));
    ok(await acton.fundAccount(x.toRawString(), toNano('2')));
    ok(await acton.post('fundJetton', { address: x.toRawString(), jetton_master: master, amount: '7' }));
    ok(await acton.mine());
    const after = await read();
    expect(after).not.toBe(before);

    // readers loop until the restore has returned: many reads are under way whenever it starts and while it runs
    let restored = false;
    const answers: string[] = [];
    const reader = async () => {
      while (!restored) answers.push(await read());
    };
    const readers = Array.from({ length: 8 }, reader);
    await new Promise((r) => setTimeout(r, 100));
    const restore = await acton.post('restoreCheckpoint', { name: 'before' });
    restored = true;
    await Promise.all(readers);
    expect(ok(restore).name).toBe('before');
    expect(answers.length).toBeGreaterThan(8);
    for (const a of answers) expect([before, after]).toContain(a);
    expect(answers).toContain(after);
    expect(await read()).toBe(before);
  });

  it('holds a restore until a read under way has been answered, and a read made meanwhile until the restore is done', async () => {
    const x = fresh();
    ok(await acton.post('createCheckpoint', { name: 'held' }));
    ok(await acton.fundAccount(x.toRawString(), 1234));
    ok(await acton.mine());
    // answers to /api reads leave 400 ms after they are made (acton's network conditions): a read stays under way
    ok(await acton.post('setNetworkConditions', { response_delay_ms: 400 }));
    const done: Record<string, number> = {};
    const timed = async <T>(name: string, p: Promise<T>): Promise<T> => {
      const v = await p;
      done[name] = performance.now();
      return v;
    };
    const balance = () => v2(g, 'getAddressBalance', { address: x.toRawString() });
    const first = timed('first read', balance());
    await new Promise((r) => setTimeout(r, 100));
    const restore = timed('restore', acton.post('restoreCheckpoint', { name: 'held' }));
    await new Promise((r) => setTimeout(r, 50));
    const second = timed('second read', balance());
    const [a, r, b] = await Promise.all([first, restore, second]);
    ok(await acton.post('setNetworkConditions', { response_delay_ms: 0 }));
    expect(ok(r).name).toBe('held');
    expect([a, b]).toEqual(['1234', '0']);
    expect(done.restore).toBeGreaterThanOrEqual(done['first read']!);
    expect(done['second read']).toBeGreaterThanOrEqual(done.restore!);
  });
});

describe('with a data dir', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps a rollback, a restore and a reset across restarts, and never loses a finalized block', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workbench-'));
    dirs.push(dataDir);
    const start = () => startTestGateway({ blockInterval: HOUR, dataDir, seed: 'workbench-durable' });
    let g = await start();
    let acton = new ActonClient(g.url);
    const genesisHead = (await acton.nodeInfo()).last_block_seqno;
    const final = fresh();
    ok(await acton.fundAccount(final.toRawString(), 1000));
    ok(await acton.mine());
    const finalHead = (await acton.nodeInfo()).last_block_seqno;
    await post(g, '/localnet/finality', { finality_delay_ms: 600_000 });
    const undone = fresh();
    ok(await acton.fundAccount(undone.toRawString(), 2000));
    ok(await acton.mine(2));
    expect((await post(g, '/localnet/rollback', { to_seqno: finalHead })).status).toBe(200);
    const balance = async (a: Address) => BigInt(await v2(g, 'getAddressBalance', { address: a.toRawString() }));
    expect(await balance(undone)).toBe(0n);
    await g.close();

    g = await start();
    acton = new ActonClient(g.url);
    expect((await acton.nodeInfo()).last_block_seqno).toBe(finalHead);
    expect(await balance(final)).toBe(1000n);
    expect(await balance(undone)).toBe(0n);
    // a restore is written through too, and the chain goes on from it
    ok(await acton.post('createCheckpoint', { name: 'cp' }));
    const later = fresh();
    ok(await acton.fundAccount(later.toRawString(), 3000));
    ok(await acton.mine());
    ok(await acton.post('restoreCheckpoint', { name: 'cp' }));
    ok(await acton.fundAccount(later.toRawString(), 4000));
    ok(await acton.mine());
    await g.close();

    g = await start();
    acton = new ActonClient(g.url);
    expect(await balance(later)).toBe(4000n);
    expect(await balance(final)).toBe(1000n);
    // checkpoints live as long as the process
    expect(ok(await acton.get('listCheckpoints'))).toEqual([]);
    const reset = await post(g, '/localnet/reset', {});
    expect(reset.body).toMatchObject({ to_seqno: genesisHead });
    await g.close();

    g = await start();
    acton = new ActonClient(g.url);
    expect((await acton.nodeInfo()).last_block_seqno).toBe(genesisHead);
    expect(await balance(final)).toBe(0n);
    // genesis wallets are as genesis left them, and the chain goes on
    const alice = await new Sender(g, g.chain!.keyedWallets()[0]!).init();
    await alice.send();
    ok(await acton.mine());
    expect((await acton.nodeInfo()).last_block_seqno).toBe(genesisHead + 1);
    await g.close();
  }, 180_000);
});
