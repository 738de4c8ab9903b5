/**
 * acton's control API (../shared/reference/acton-localnet.md), method by method, over real HTTP on loopback,
 * against a local chain and against a fork of one: each method's body, its result in the envelope, and its
 * error texts and statuses, through a client written from the reference (test/helpers/acton-client.ts). The
 * chain is read back through /api/v2 to see that each call did what acton's does. Blocks are mined by the
 * client (the timer is an hour), as with acton's manual mining.
 */
import { randomBytes } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  external,
  internal,
  storeMessage,
  storeShardAccount,
  toNano,
  type ShardAccount,
} from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { ActonClient } from '../../helpers/acton-client.js';
import { startUpstreamGateway } from '../../sources/upstream/helpers.js';

const HOUR = 3_600_000;
const fresh = (): Address => new Address(0, randomBytes(32));
const raw = (a: Address): string => a.toRawString();

let origin: Gateway;
const targets: Record<'local chain' | 'fork', Gateway> = {} as never;

beforeAll(async () => {
  origin = await startTestGateway({ blockInterval: 0, seed: 'acton-origin' });
  targets['local chain'] = await startTestGateway({ blockInterval: HOUR, seed: 'acton-local' });
  targets.fork = await startTestGateway({ blockInterval: HOUR, fork: { url: origin.url, seqno: origin.chain!.store.lastMc.seqno, apiKey: '', rps: 0 } } as never);
}, 180_000);

afterAll(async () => {
  for (const g of Object.values(targets)) await g?.close();
  await origin?.close();
});

async function v2(g: Gateway, method: string, params: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${g.url}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}
const balance = async (g: Gateway, a: Address): Promise<bigint> => BigInt(await v2(g, 'getAddressBalance', { address: raw(a) }));
const stateOf = async (g: Gateway, a: Address): Promise<string> => v2(g, 'getAddressState', { address: raw(a) });

/** The envelope of a failure, checked whole: its text, its status in `code`, and `@extra`. */
function failed(a: { status: number; body: any }, status: number, error: string | RegExp): void {
  expect(a.status).toBe(status);
  expect(a.body).toEqual({ ok: false, error: typeof error === 'string' ? error : expect.stringMatching(error), code: status, '@extra': expect.stringMatching(/^\d+$/) });
}

/** The envelope of a success; its result. */
function ok(a: { status: number; body: any }): any {
  expect(a.status).toBe(200);
  expect(a.body).toEqual({ ok: true, result: a.body.result, '@extra': expect.stringMatching(/^\d+$/) });
  return a.body.result;
}

const internalBoc = (from: Address, to: Address, value: bigint): string =>
  beginCell().store(storeMessage({ ...internal({ to, value, bounce: false }), info: { ...(internal({ to, value, bounce: false }).info as any), src: from } })).endCell().toBoc().toString('base64');

describe.each(['local chain', 'fork'] as const)('acton control API on a %s', (name) => {
  let g: Gateway;
  let acton: ActonClient;
  beforeAll(() => {
    g = targets[name];
    acton = new ActonClient(g.url);
  });

  it('fundAccount queues a credit from the giver that lands when a block is mined', async () => {
    const to = fresh();
    const hash = ok(await acton.fundAccount(raw(to), 1_000_000_000n)).hash;
    expect(ok(await acton.fundAccount(raw(to), 0))).toEqual({ '@type': 'ok', hash: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) });
    expect(hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await balance(g, to)).toBe(0n);
    ok(await acton.mine());
    expect(await balance(g, to)).toBe(1_000_000_000n);
    // a user-friendly address works as well as a raw one
    ok(await acton.fundAccount(to.toString({ bounceable: false }), 5));
    failed(await acton.fundAccount('nope', 1), 422, 'Invalid address, only standard internal address is allowed');
    failed(await acton.fundAccount(raw(to), 10n ** 36n), 500, 'Giver has insufficient balance');
  });

  it('refuses a body that does not fit, as acton\'s JSON extractor does (plain text, 415/400/422)', async () => {
    const to = raw(fresh());
    const plain = async (a: Promise<{ status: number; body: unknown }>, status: number, text: string) => {
      const r = await a;
      expect(r.status).toBe(status);
      expect(r.body).toBe(text);
    };
    await plain(acton.post('fundAccount', { address: to, amount: 1 }, { 'content-type': 'text/plain' }), 415, 'Expected request with `Content-Type: application/json`');
    const bad = await acton.post('fundAccount', '{"address":');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/^Failed to parse the request body as JSON: /);
    await plain(acton.post('fundAccount', { address: to }), 422, 'Failed to deserialize the JSON body into the target type: missing field `amount`');
    await plain(acton.post('fundAccount', { address: to, amount: '1' }), 422, 'Failed to deserialize the JSON body into the target type: invalid type: string "1", expected u128');
    await plain(acton.post('fundAccount', { address: to, amount: -1 }), 422, 'Failed to deserialize the JSON body into the target type: invalid value: integer `-1`, expected u128');
    await plain(acton.post('setTime', { timestamp: 2 ** 32 }), 422, 'Failed to deserialize the JSON body into the target type: invalid value: integer `4294967296`, expected u32');
    await plain(acton.post('setMiningMode', { skip_empty_blocks: 'yes' }), 422, 'Failed to deserialize the JSON body into the target type: invalid type: string "yes", expected a boolean');
    await plain(acton.post('setMiningMode', [true]), 422, 'Failed to deserialize the JSON body into the target type: invalid type: sequence, expected struct SetMiningModeRequest');
    // fields acton does not know are ignored, as serde ignores them
    expect(ok(await acton.post('setMiningMode', { skip_empty_blocks: false, extra: 1 }))).toEqual({ skip_empty_blocks: false });
  });

  it('takes a u128 amount whole, past what a double holds', async () => {
    const to = fresh();
    ok(await acton.fundAccount(raw(to), 123_456_789_012_345_678n));
    ok(await acton.mine());
    expect(await balance(g, to)).toBe(123_456_789_012_345_678n);
  });

  it('fundJetton mints display units as the jetton admin; refuses what is no mintable master', async () => {
    const tokens = (await (await fetch(`${(name === 'fork' ? origin : g).url}/localnet/tokens`)).json()) as { jetton: { master: string; decimals: number } };
    const master = tokens.jetton.master;
    const owner = fresh();
    const minted = ok(await acton.post('fundJetton', { address: raw(owner), jetton_master: master, amount: '12.5' }));
    expect(minted).toEqual({ '@type': 'ok', hash: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) });
    // on a fork the mint reaches the new jetton wallet once the upstream has answered for it, in a later block
    const wallets = await waitFor(async () => {
      ok(await acton.mine());
      const res = await fetch(`${g.url}/api/v3/jetton/wallets?owner_address=${raw(owner)}&jetton_address=${master}`);
      const found = ((await res.json()) as { jetton_wallets: { balance: string }[] }).jetton_wallets;
      return found.length > 0 ? found : undefined;
    });
    expect(wallets.map((w) => w.balance)).toEqual([String(125n * 10n ** BigInt(tokens.jetton.decimals - 1))]);
    failed(await acton.post('fundJetton', { address: raw(owner), jetton_master: raw(owner), amount: '1' }), 422, 'This address is not a jetton master');
    failed(await acton.post('fundJetton', { address: 'x', jetton_master: master, amount: '1' }), 422, 'Invalid recipient address');
    failed(await acton.post('fundJetton', { address: raw(owner), jetton_master: 'x', amount: '1' }), 422, 'Invalid jetton master address');
    for (const amount of ['0', '-1', '1.0000000001', 'abc']) {
      failed(await acton.post('fundJetton', { address: raw(owner), jetton_master: master, amount }), 422, 'Invalid jetton amount: expected a value greater than zero with up to 9 decimal places');
    }
  });

  it('sendInternalMessage runs an internal message as given: the source is neither checked nor debited', async () => {
    const from = new Address(0, Buffer.alloc(32, 0x11));
    const to = fresh();
    const boc = internalBoc(from, to, toNano('0.05'));
    expect(ok(await acton.post('sendInternalMessage', { boc }))).toEqual({ '@type': 'ok', hash: Cell.fromBase64(boc).hash().toString('base64') });
    ok(await acton.mine());
    expect(await balance(g, to)).toBe(toNano('0.05'));
    const ext = beginCell().store(storeMessage(external({ to }))).endCell().toBoc().toString('base64');
    failed(await acton.post('sendInternalMessage', { boc: ext }), 500, 'acton_sendInternalMessage accepts only internal messages');
    failed(await acton.post('sendInternalMessage', { boc: '***' }), 500, 'Invalid BOC base64');
  });

  it('setShardAccount replaces the newest state at once, with no transaction and no block', async () => {
    const target = fresh();
    const head = (await acton.nodeInfo()).last_block_seqno;
    const sa: ShardAccount = {
      account: { addr: target, storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: 0, storageExtra: null }, storage: { lastTransLt: 6n, balance: { coins: 777n }, state: { type: 'uninit' } } },
      lastTransactionHash: 7n,
      lastTransactionLt: 5n,
    };
    const boc = beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
    expect(ok(await acton.post('setShardAccount', { address: raw(target), shard_account: boc }))).toBeNull();
    expect(await balance(g, target)).toBe(777n);
    const info = await v2(g, 'getAddressInformation', { address: raw(target) });
    expect(info.last_transaction_id.lt).toBe('5');
    expect((await acton.nodeInfo()).last_block_seqno).toBe(head);
    failed(await acton.post('setShardAccount', { address: raw(target), shard_account: 'not base64!' }), 500, 'Invalid shard_account base64');
    failed(await acton.post('setShardAccount', { address: raw(target), shard_account: 'AAAA' }), 500, 'Failed to decode ShardAccount BOC');
    failed(await acton.post('setShardAccount', { address: raw(target), shard_account: beginCell().storeUint(1, 1).endCell().toBoc().toString('base64') }), 500, 'Failed to parse ShardAccount BOC');
    // the account goes on from it: a credit adds to the balance set
    ok(await acton.fundAccount(raw(target), 1000));
    ok(await acton.mine());
    expect(await balance(g, target)).toBe(1777n);
  });

  it('changeAccountState writes nonexist, uninit and frozen states, and freezes an active account with a transaction', async () => {
    const a = fresh();
    ok(await acton.fundAccount(raw(a), toNano('1')));
    ok(await acton.mine());
    expect(ok(await acton.post('changeAccountState', { address: raw(a), state: { type: 'uninit', balance: '42' } }))).toBeNull();
    expect(await balance(g, a)).toBe(42n);
    ok(await acton.post('changeAccountState', { address: raw(a), state: { type: 'frozen', frozen_hash: '11'.repeat(32), balance: '9' } }));
    expect(await stateOf(g, a)).toBe('frozen');
    expect(await balance(g, a)).toBe(9n);
    ok(await acton.post('changeAccountState', { address: raw(a), state: { type: 'nonexist' } }));
    expect(await stateOf(g, a)).toBe('uninitialized');
    expect(await balance(g, a)).toBe(0n);

    // an active wallet frozen from its current state: a synthetic transaction from 0:000…0 in a new block
    const w = g.chain!.fork ? undefined : g.chain!.keyedWallets()[1]!.contract.address;
    if (w) {
      const before = await balance(g, w);
      const head = (await acton.nodeInfo()).last_block_seqno;
      expect(ok(await acton.post('changeAccountState', { address: raw(w), state: { type: 'frozen', source: 'current' } }))).toBeNull();
      expect((await acton.nodeInfo()).last_block_seqno).toBe(head + 1);
      expect(await stateOf(g, w)).toBe('frozen');
      expect(await balance(g, w)).toBe(before);
      const [tx] = await v2(g, 'getTransactions', { address: raw(w), limit: 1 });
      expect(Address.parse(tx.in_msg.source).equals(new Address(0, Buffer.alloc(32)))).toBe(true);
      expect(tx.in_msg.value).toBe('0');
      failed(await acton.post('changeAccountState', { address: raw(w), state: { type: 'frozen', source: 'current' } }), 500, 'Account is already frozen');
    }
    const texts: [unknown, string][] = [
      [{ type: 'frozen', source: 'current', balance: '1' }, '`balance` cannot be used with frozen `source: current`'],
      [{ type: 'frozen', source: 'current', frozen_hash: '11'.repeat(32) }, '`frozen_hash` cannot be used with frozen `source: current`'],
      [{ type: 'frozen', source: 'genesis' }, 'Unsupported frozen account state source `genesis`; supported value is `current`'],
      [{ type: 'frozen' }, 'Frozen account state requires either `source: current` or `frozen_hash`'],
    ];
    for (const [state, text] of texts) failed(await acton.post('changeAccountState', { address: raw(a), state }), 500, text);
    failed(await acton.post('changeAccountState', { address: raw(a), state: { type: 'uninit' }, mine: false }), 500, '`mine: false` is only supported with frozen `source: current`');
    failed(await acton.post('changeAccountState', { address: raw(fresh()), state: { type: 'frozen', source: 'current' } }), 500, 'Cannot freeze non-existing account from current state');
    const unknown = await acton.post('changeAccountState', { address: raw(a), state: { type: 'gone' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toBe('Failed to deserialize the JSON body into the target type: unknown variant `gone`, expected one of `nonexist`, `uninit`, `frozen`');
  });

  it('setConfig runs the chain with a new config from a config-only block on', async () => {
    const all = await v2(g, 'getConfigAll', {});
    const root = Cell.fromBase64(all.config.bytes);
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
    dict.set(999, beginCell().storeUint(0xabcd, 16).endCell());
    const config = beginCell().storeDictDirect(dict).endCell();
    const head = (await acton.nodeInfo()).last_block_seqno;
    expect(ok(await acton.post('setConfig', { config: config.toBoc().toString('base64') }))).toEqual({ config_hash: config.hash().toString('hex'), block_seqno: head + 1 });
    const p999 = await v2(g, 'getConfigParam', { config_id: 999 });
    expect(Cell.fromBase64(p999.config.bytes).beginParse().loadUint(16)).toBe(0xabcd);
    failed(await acton.post('setConfig', { config: '!' }), 500, 'Invalid config base64');
    failed(await acton.post('setConfig', { config: beginCell().endCell().toBoc().toString('base64') }), 500, 'Failed to parse blockchain config dictionary');
    expect((await acton.nodeInfo()).last_block_seqno).toBe(head + 1);
    // the chain goes on with it: a credit executes and seals
    const to = fresh();
    ok(await acton.fundAccount(raw(to), 100));
    ok(await acton.mine());
    expect(await balance(g, to)).toBe(100n);
  });

  it('mine seals blocks under the mining mode; setMiningMode skips empty ones', async () => {
    const head = (await acton.nodeInfo()).last_block_seqno;
    const one = ok(await acton.mine());
    expect(one).toEqual({
      blocks_mined: 1,
      skipped_empty_blocks: 0,
      last_block_seqno: head + 1,
      blocks: [{ workchain: 0, shard: expect.any(Number), seqno: head + 1, root_hash: expect.stringMatching(/^[0-9a-f]{64}$/), file_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    // the shard is the signed 64-bit -2^63, written as that integer
    expect((await acton.mine()).body).toBeDefined();
    const text = await (await fetch(`${g.url}/acton_mine`, { method: 'POST' })).text();
    expect(text).toContain('"shard":-9223372036854775808,');
    expect(ok(await acton.post('setMiningMode', { skip_empty_blocks: true }))).toEqual({ skip_empty_blocks: true });
    expect((await acton.nodeInfo()).mining_mode).toEqual({ skip_empty_blocks: true });
    const now = (await acton.nodeInfo()).last_block_seqno;
    expect(ok(await acton.mine(2))).toEqual({ blocks_mined: 0, skipped_empty_blocks: 2, last_block_seqno: now, blocks: [] });
    ok(await acton.fundAccount(raw(fresh()), 1));
    expect(ok(await acton.mine(2))).toMatchObject({ blocks_mined: 1, skipped_empty_blocks: 1, last_block_seqno: now + 1 });
    ok(await acton.post('setMiningMode', { skip_empty_blocks: false }));
    failed(await acton.mine(0), 500, 'blocks must be greater than 0');
    failed(await acton.post('mine', '{"blocks":'), 500, /^Invalid mine request JSON: /);
  });

  it('moves virtual time: increaseTime, setTime (not before the newest block), setNextBlockTimestamp for one block', async () => {
    const clock = (r: any) => expect(r).toEqual({ current_unix_time: expect.any(Number), time_offset_seconds: expect.any(Number), next_block_timestamp: r.next_block_timestamp });
    const before = ok(await acton.post('increaseTime', { seconds: 3600 }));
    clock(before);
    expect(before.time_offset_seconds).toBeGreaterThanOrEqual(3600);
    failed(await acton.post('increaseTime', { seconds: 0 }), 500, 'seconds must be greater than 0');
    const latest = (await v2(g, 'getMasterchainInfo', {})).last.seqno;
    const latestTime = (await v2(g, 'getBlockHeader', { workchain: -1, shard: '-9223372036854775808', seqno: latest })).gen_utime as number;
    failed(await acton.post('setTime', { timestamp: latestTime - 1 }), 500, `timestamp ${latestTime - 1} is before latest block timestamp ${latestTime}`);
    const target = before.current_unix_time + 86_400;
    const set = ok(await acton.post('setTime', { timestamp: target }));
    expect(set.current_unix_time - target).toBeLessThanOrEqual(1);
    const next = target + 1000;
    expect(ok(await acton.post('setNextBlockTimestamp', { timestamp: next })).next_block_timestamp).toBe(next);
    const mined = ok(await acton.mine());
    const header = await v2(g, 'getBlockHeader', { workchain: -1, shard: '-9223372036854775808', seqno: mined.last_block_seqno });
    expect(header.gen_utime).toBe(next);
    const after = await acton.nodeInfo();
    expect(after.next_block_timestamp).toBeNull();
    expect(after.current_unix_time).toBeGreaterThanOrEqual(next);
  });

  it('checkpoints: create, list, restore (any number of times, in any order), delete, clear', async () => {
    ok(await acton.post('clearCheckpoints'));
    const a = fresh();
    const head = (await acton.nodeInfo()).last_block_seqno;
    expect(ok(await acton.post('createCheckpoint', { name: ' older ' }))).toEqual({ name: 'older', block_seqno: head });
    ok(await acton.fundAccount(raw(a), 1_000_000_000));
    ok(await acton.mine());
    expect(ok(await acton.post('createCheckpoint', { name: 'newer' }))).toEqual({ name: 'newer', block_seqno: head + 1 });
    failed(await acton.post('createCheckpoint', { name: 'newer' }), 500, 'Checkpoint name newer already exists');
    failed(await acton.post('createCheckpoint', { name: '  ' }), 500, 'Checkpoint name cannot be empty');

    expect(ok(await acton.post('restoreCheckpoint', { name: 'older' }))).toEqual({ name: 'older', block_seqno: head });
    expect((await acton.nodeInfo()).last_block_seqno).toBe(head);
    expect(await balance(g, a)).toBe(0n);
    // a new branch from the older checkpoint reuses the seqnos
    expect(ok(await acton.mine()).last_block_seqno).toBe(head + 1);
    expect(ok(await acton.post('createCheckpoint', { name: 'current' }))).toEqual({ name: 'current', block_seqno: head + 1 });
    expect(ok(await acton.post('restoreCheckpoint', { name: 'newer' }))).toEqual({ name: 'newer', block_seqno: head + 1 });
    expect(await balance(g, a)).toBe(1_000_000_000n);
    expect(ok(await acton.post('restoreCheckpoint', { name: 'current' }))).toEqual({ name: 'current', block_seqno: head + 1 });
    expect(await balance(g, a)).toBe(0n);
    expect(ok(await acton.post('restoreCheckpoint', { name: 'older' })).block_seqno).toBe(head);
    expect(ok(await acton.post('restoreCheckpoint', { name: 'newer' })).block_seqno).toBe(head + 1);
    expect(await balance(g, a)).toBe(1_000_000_000n);
    expect(ok(await acton.get('listCheckpoints'))).toEqual([
      { name: 'older', block_seqno: head },
      { name: 'newer', block_seqno: head + 1 },
      { name: 'current', block_seqno: head + 1 },
    ]);
    // force replaces in place
    expect(ok(await acton.post('createCheckpoint', { name: 'older', force: true }))).toEqual({ name: 'older', block_seqno: head + 1 });
    expect(ok(await acton.post('deleteCheckpoint', { name: 'newer' }))).toEqual({ name: 'newer', block_seqno: head + 1 });
    failed(await acton.post('restoreCheckpoint', { name: 'newer' }), 500, 'Checkpoint name newer not found');
    failed(await acton.post('deleteCheckpoint', { name: 'newer' }), 500, 'Checkpoint name newer not found');
    expect(ok(await acton.post('clearCheckpoints'))).toEqual({ deleted: 2 });
    expect(ok(await acton.get('listCheckpoints'))).toEqual([]);
  });

  it('a restore puts back the clock and the pending next-block timestamp', async () => {
    const info = await acton.nodeInfo();
    ok(await acton.post('createCheckpoint', { name: 'clock' }));
    ok(await acton.post('increaseTime', { seconds: 5000 }));
    ok(await acton.post('setNextBlockTimestamp', { timestamp: info.current_unix_time + 10_000 }));
    ok(await acton.post('restoreCheckpoint', { name: 'clock' }));
    const back = await acton.nodeInfo();
    expect(back.time_offset_seconds).toBe(info.time_offset_seconds);
    expect(back.next_block_timestamp).toBe(info.next_block_timestamp);
    ok(await acton.post('deleteCheckpoint', { name: 'clock' }));
  });

  it('nodeInfo says how the node runs; setNetworkConditions delays /api answers only', async () => {
    const info = await acton.nodeInfo();
    expect(info).toEqual({
      uptime_seconds: expect.any(Number),
      last_block_seqno: expect.any(Number),
      current_unix_time: expect.any(Number),
      time_offset_seconds: expect.any(Number),
      next_block_timestamp: null,
      auto_mining: true,
      block_interval_ms: HOUR,
      rate_limit_rps: null,
      mining_mode: { skip_empty_blocks: false },
      state_source: name === 'fork' ? 'remote' : 'local',
      fork_network: name === 'fork' ? origin.url : null,
      fork_block_number: name === 'fork' ? origin.chain!.store.mcBlock(g.chain!.store.mcBlocks[0]!.seqno)!.seqno : null,
      network_conditions: { response_delay_ms: 0 },
    });
    expect(ok(await acton.post('setNetworkConditions', { response_delay_ms: 300 }))).toEqual({ response_delay_ms: 300 });
    const t0 = performance.now();
    await v2(g, 'getMasterchainInfo', {});
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    expect((await acton.nodeInfo()).network_conditions).toEqual({ response_delay_ms: 300 });
    expect(ok(await acton.post('setNetworkConditions', { response_delay_ms: 0 }))).toEqual({ response_delay_ms: 0 });
  });

  it('getStartupAccounts lists the genesis wallets (none on a fork); unknown methods and wrong verbs', async () => {
    const accounts = ok(await acton.get('getStartupAccounts'));
    if (name === 'fork') expect(accounts).toEqual([]);
    else {
      expect(accounts.length).toBe(g.chain!.keyedWallets().length);
      for (const a of accounts) expect(a).toEqual({ name: expect.any(String), version: expect.stringMatching(/^v/), network: 'localnet', address: expect.stringMatching(/^0:[0-9a-f]{64}$/) });
    }
    failed(await acton.post('noSuchMethod', {}), 404, 'Not Found');
    failed(await acton.get('getAddressName'), 404, 'Not Found');
    expect((await acton.get('mine')).status).toBe(405);
  });
});

describe('acton control API in upstream mode', () => {
  let front: Gateway;
  beforeAll(async () => {
    front = await startUpstreamGateway(origin.url);
  }, 60_000);
  afterAll(() => front?.close());

  it('refuses every method, and every drill, saying the local chain is needed', async () => {
    const acton = new ActonClient(front.url);
    failed(await acton.get('nodeInfo'), 404, /^\/acton_nodeInfo needs the local chain/);
    failed(await acton.fundAccount(raw(fresh()), 1), 404, /^\/acton_fundAccount needs the local chain/);
    const res = await fetch(`${front.url}/localnet/rollback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"to_seqno":1}' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, error: expect.stringMatching(/^\/localnet\/rollback needs the local chain/) });
  });
});
