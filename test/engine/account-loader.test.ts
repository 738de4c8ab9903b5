/**
 * The upstream account loader against a real upstream over loopback HTTP: a gateway on its local chain plays
 * the network, the loader reads it through the upstream client (pacer, cache, bounds) and what it rebuilds is
 * compared with what the origin chain holds.
 */
import { Blockchain, internal } from '@ton/sandbox';
import { Address, beginCell, Cell, Dictionary, loadShardAccount, storeShardAccount, toNano, type ShardAccount } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { AccountLoader, libraryRefs, storageUsed } from '../../src/engine/account-loader.js';
import { createUpstream, type Upstream } from '../../src/remote/upstream.js';
import { startTestGateway } from '../helpers/gateway.js';
import { v4Transfer } from '../helpers/transfer.js';

let origin: Gateway;
let upstream: Upstream;
let forkSeqno: number;

const connect = (url: string): Upstream =>
  createUpstream({ v2Url: url, v3Url: url, apiKey: '', rps: 0, timeoutMs: 10_000, maxBytes: 16 * 1024 * 1024, cacheMb: 16, accountTtlMs: 0 });

/** The origin's state at the fork block, without storage_extra (which no v2 answer carries). */
function originState(address: Address): ShardAccount {
  const held = origin.chain!.store.accountState(address, forkSeqno)!.shardAccount;
  return held.account ? { ...held, account: { ...held.account, storageStats: { ...held.account.storageStats, storageExtra: null } } } : held;
}

const bocOf = (sa: ShardAccount): string => beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');

/**
 * Accounts whose state a transaction wrote: the faucet's was injected by sandbox with no storage stat, and an
 * account placed in the zerostate that never ran a transaction (the config contract) keeps the placed state.
 */
function executedAccounts(): Address[] {
  const faucet = origin.chain!.faucetAddress.toRawString();
  const ran = new Set(origin.chain!.store.sealedTransactions().map((t) => t.account.toRawString()));
  return origin
    .chain!.store.accounts()
    .filter((a) => a !== faucet && ran.has(Address.parse(a).toRawString()))
    .map((a) => Address.parse(a));
}

beforeAll(async () => {
  origin = await startTestGateway();
  upstream = connect(origin.url);
  forkSeqno = origin.chain!.store.lastMc.seqno;
}, 120_000);

afterAll(async () => {
  await upstream?.close();
  await origin?.close();
});

describe('account loader', () => {
  it('rebuilds every executed account exactly as the origin holds it, storage info included', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const accounts = executedAccounts();
    // wallets, jetton master and wallets, NFT collection and items
    expect(accounts.length).toBeGreaterThanOrEqual(12);
    for (const address of accounts) {
      const loaded = await loader.account(address);
      const held = originState(address);
      expect(loaded.status).toBe('active');
      expect(loaded.shardAccount.account!.storageStats).toEqual(held.account!.storageStats);
      expect(loaded.boc).toBe(bocOf(held));
    }
    // an account at or above 26 cells carries storage_extra on the origin; the rest of its state matches
    const big = accounts.filter((a) => origin.chain!.store.accountState(a, forkSeqno)!.shardAccount.account!.storageStats.storageExtra !== null);
    expect(big.length).toBeGreaterThan(0);
    expect(loader.stats.calls.getAddressInformation).toBe(accounts.length);
    expect(loader.stats.calls.getTransactions).toBe(accounts.length);
  }, 60_000);

  it('rebuilds an account placed in the zerostate that never ran a transaction (the config contract) from its state alone', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await loader.config());
    const config = new Address(-1, params.get(0)!.beginParse().loadBuffer(32));
    const loaded = await loader.account(config);
    const held = origin.chain!.store.accountState(config, forkSeqno)!.shardAccount;
    expect(loaded.status).toBe('active');
    expect(loaded.shardAccount.lastTransactionLt).toBe(0n);
    const state = (sa: typeof held) => (sa.account!.storage.state.type === 'active' ? sa.account!.storage.state.state : null);
    expect(state(loaded.shardAccount)!.code!.equals(state(held)!.code!)).toBe(true);
    expect(state(loaded.shardAccount)!.data!.equals(state(held)!.data!)).toBe(true);
    expect(loaded.shardAccount.account!.storage.balance.coins).toBe(held.account!.storage.balance.coins);
    expect(loader.stats.calls.getTransactions).toBe(0);
  });

  it('asks the upstream once per account: a second load is answered from its cache', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const [a, b] = executedAccounts();
    await Promise.all([loader.account(a!), loader.account(a!), loader.account(b!)]);
    const sent = upstream.client.stats.sent;
    const calls = { ...loader.stats.calls };
    await loader.account(a!);
    await loader.account(b!);
    expect(loader.stats.calls).toEqual(calls);
    expect(calls.getAddressInformation).toBe(2);
    expect(loader.stats.hits).toBe(2);
    expect(upstream.client.stats.sent).toBe(sent);
  });

  it('keeps its cache within its byte bound', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno, { maxBytes: 8 * 1024 });
    for (const a of executedAccounts()) await loader.account(a);
    expect(loader.cachedBytes).toBeGreaterThan(0);
    expect(loader.cachedBytes).toBeLessThanOrEqual(8 * 1024);
  });

  it('reads the state as of the fork block, not the newest', async () => {
    const [alice, bob] = origin.chain!.keyedWallets();
    const before = new AccountLoader(upstream.v2, forkSeqno);
    const res = await fetch(`${origin.url}/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boc: v4Transfer(alice!, bob!.contract.address, toNano('1'), await seqnoOf(alice!.contract.address)).toString('base64') }),
    });
    expect(res.status).toBe(200);
    expect(origin.chain!.store.lastMc.seqno).toBeGreaterThan(forkSeqno);
    const pinned = await before.account(alice!.contract.address);
    expect(pinned.boc).toBe(bocOf(originState(alice!.contract.address)));
    const now = await new AccountLoader(upstream.v2, origin.chain!.store.lastMc.seqno).account(alice!.contract.address);
    expect(now.shardAccount.lastTransactionLt).toBeGreaterThan(pinned.shardAccount.lastTransactionLt);
  }, 60_000);

  it('answers an account with no state at the block as nonexistent, in one call', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const nobody = new Address(0, Buffer.alloc(32, 7));
    const loaded = await loader.account(nobody);
    expect(loaded.status).toBe('nonexist');
    expect(loaded.shardAccount.account).toBeNull();
    expect(loadShardAccount(Cell.fromBase64(loaded.boc).beginParse()).account ?? null).toBeNull();
    expect(loader.stats.calls.getAddressInformation).toBe(1);
    expect(loader.stats.calls.getTransactions).toBe(0);
  });

  it('reads the config and the block header of the fork block, once each', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const [config, again] = await Promise.all([loader.config(), loader.config()]);
    const held = Cell.fromBase64((await origin.chain!.v2.getConfigAll({})).config.bytes);
    expect(config.hash().equals(held.hash())).toBe(true);
    expect(again).toBe(config);
    const block = await loader.block();
    const mc = origin.chain!.store.mcBlock(forkSeqno)!;
    expect(block).toMatchObject({ seqno: forkSeqno, globalId: origin.chain!.globalId, genUtime: mc.genUtime, endLt: mc.endLt });
    expect(block.rootHash.equals(mc.rootHash)).toBe(true);
    await loader.block();
    expect(loader.stats.calls.getConfigAll).toBe(1);
    expect(loader.stats.calls.getBlockHeader).toBe(1);
  });

  it('fetches the library cells code refers to, and reports the ones the upstream lacks, asking once', async () => {
    const lib = beginCell().storeUint(0xc0de, 16).storeRef(beginCell().storeUint(1, 8)).endCell();
    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(lib.hash(), lib);
    // the origin publishes the library as a masterchain account's public library would
    const bc = (origin.chain as unknown as { chain: { bc: Blockchain } }).chain.bc;
    bc.libs = beginCell().storeDictDirect(libs).endCell();
    const unknown = Buffer.alloc(32, 9);
    const ref = (hash: Buffer) => new Cell({ exotic: true, bits: beginCell().storeUint(2, 8).storeBuffer(hash).endCell().bits });
    const code = beginCell().storeUint(1, 1).storeRef(ref(lib.hash())).storeRef(beginCell().storeRef(ref(unknown))).endCell();
    expect(libraryRefs([code]).sort()).toEqual([lib.hash().toString('hex'), unknown.toString('hex')].sort());

    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const first = await loader.libraries([code]);
    expect([...first.found.keys()]).toEqual([lib.hash().toString('hex')]);
    expect(first.found.get(lib.hash().toString('hex'))!.equals(lib)).toBe(true);
    expect(first.missing).toEqual([unknown.toString('hex')]);
    const second = await loader.libraries([code]);
    expect(second.missing).toEqual(first.missing);
    expect(loader.stats.calls.getLibraries).toBe(1);
  });

  it('gives the same storage fees as the origin state when both run the same message at the same time', async () => {
    const loader = new AccountLoader(upstream.v2, forkSeqno);
    const [, bob] = origin.chain!.keyedWallets();
    const address = bob!.contract.address;
    const loaded = await loader.account(address);
    const config = await loader.config();
    const lastPaid = loaded.shardAccount.account!.storageStats.lastPaid;
    const run = async (sa: ShardAccount) => {
      const bc = await Blockchain.create({ config });
      bc.now = lastPaid + 365 * 24 * 3600;
      await bc.setShardAccount(address, sa);
      const r = await bc.sendMessage(internal({ from: new Address(0, Buffer.alloc(32, 1)), to: address, value: toNano('1'), bounce: false }));
      const d = r.transactions[0]!.description;
      if (d.type !== 'generic') throw new Error(d.type);
      return d.storagePhase!.storageFeesCollected;
    };
    const fromLoader = await run(loaded.shardAccount);
    const fromOrigin = await run(origin.chain!.store.accountState(address, forkSeqno)!.shardAccount);
    expect(fromLoader).toBeGreaterThan(0n);
    expect(fromLoader).toBe(fromOrigin);
  }, 60_000);

  it('counts the distinct cells and bits of a tree once each', () => {
    const leaf = beginCell().storeUint(5, 10).endCell();
    const root = beginCell().storeUint(1, 3).storeRef(leaf).storeRef(beginCell().storeRef(leaf)).endCell();
    expect(storageUsed(root)).toEqual({ cells: 3n, bits: 13n });
  });
});

async function seqnoOf(address: Address): Promise<number> {
  return (await origin.chain!.v2.getWalletInformation({ address })).seqno!;
}
