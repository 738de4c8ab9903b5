/**
 * End to end on the real local chain: every part-1 /api/v3 route, called over HTTP with valid parameters,
 * answers 200 and its body validates against the openapi response schema (test/helpers/openapi.ts).
 */
import { internal, loadMessage, type Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/api/v3/transactions.js';
import { signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { assertResponse } from '../../helpers/openapi.js';
import { request, startV3Server, waitFor, type V3Server } from './v3-harness.js';

describe('v3 routes over the local chain', () => {
  let chain: LocalChain;
  let server: V3Server;
  let alice: Address;
  let bob: Address;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'test', blockInterval: 0 });
    server = await startV3Server(localV3Api(chain));
    const [a, b] = chain.keyedWallets();
    alice = a!.contract.address;
    bob = b!.contract.address;
  });
  afterAll(async () => {
    await server?.close();
    await chain?.close();
  });

  /** GET or POST one route, expect 200 and a body that fits the openapi; returns the body. */
  async function call<T = Record<string, unknown>>(method: 'get' | 'post', path: string, query = '', body?: unknown): Promise<T> {
    const r = await request(`${server.url}/api/v3`, path + (query ? `?${query}` : ''), {
      method: method.toUpperCase(),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    expect(r.status, `${method} ${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    return assertResponse(`/api/v3${path}`, method, 200, r.body as T, { closed: true });
  }

  it('blocks: masterchainInfo, blocks, masterchainBlockShards, masterchainBlockShardState', async () => {
    const info = await call<{ first: { seqno: number }; last: { seqno: number; workchain: number } }>('get', '/masterchainInfo');
    expect(info.last.workchain).toBe(-1);
    expect(info.last.seqno).toBeGreaterThanOrEqual(info.first.seqno);

    const all = await call<{ blocks: unknown[] }>('get', '/blocks', 'limit=50');
    expect(all.blocks.length).toBeGreaterThan(0);
    await call('get', '/blocks', `workchain=-1&seqno=${info.last.seqno}&sort=desc`);
    await call('get', '/blocks', 'workchain=0&shard=8000000000000000&sort=asc&limit=3&start_utime=0&end_lt=18446744073709551615');

    await call('get', '/masterchainBlockShardState', `seqno=${info.last.seqno}`);
    // some masterchain block commits shard blocks: find one that answers
    let found = false;
    for (let s = info.last.seqno; s >= info.first.seqno && !found; s--) {
      const r = await request(`${server.url}/api/v3`, `/masterchainBlockShards?seqno=${s}`);
      if (r.status === 404) continue;
      expect(r.status).toBe(200);
      assertResponse('/api/v3/masterchainBlockShards', 'get', 200, r.body, { closed: true });
      found = true;
    }
    expect(found).toBe(true);
  });

  it('transactions and messages', async () => {
    const { transactions } = await call<{ transactions: Transaction[] }>('get', '/transactions', 'limit=100&sort=asc');
    expect(transactions.length).toBeGreaterThan(0);
    await call('get', '/transactions', `account=${alice.toString()}&account=${bob.toRawString()}&limit=5`);
    await call('get', '/transactions', 'workchain=0&start_utime=1&end_utime=4000000000&sort=desc');

    // a transaction whose outbound internal message was received by another one
    const sender = transactions.find((t) => t.out_msgs.some((m) => m.destination !== null));
    expect(sender).toBeDefined();
    const tx = sender!;
    await call('get', '/transactions', `hash=${encodeURIComponent(tx.hash)}`);
    await call('get', '/transactions', `lt=${tx.lt}`);
    await call('get', '/transactionsByMasterchainBlock', `seqno=${tx.mc_block_seqno}&sort=asc`);
    const adj = await call<{ transactions: Transaction[] }>('get', '/adjacentTransactions', `hash=${encodeURIComponent(tx.hash)}&direction=out`);
    expect(adj.transactions.length).toBeGreaterThan(0);

    const out = tx.out_msgs.find((m) => m.destination !== null)!;
    const byMsg = await call<{ transactions: Transaction[] }>('get', '/transactionsByMessage', `msg_hash=${encodeURIComponent(out.hash)}`);
    expect(byMsg.transactions.length).toBeGreaterThan(0);
    await call('get', '/transactionsByMessage', `msg_hash=${encodeURIComponent(out.hash)}&direction=in&limit=1`);
    if (out.opcode) await call('get', '/transactionsByMessage', `opcode=${out.opcode}`);
    if (out.message_content?.hash) await call('get', '/transactionsByMessage', `body_hash=${encodeURIComponent(out.message_content.hash)}`);

    const msgs = await call<{ messages: unknown[] }>('get', '/messages', 'limit=20');
    expect(msgs.messages.length).toBeGreaterThan(0);
    await call('get', '/messages', `msg_hash=${encodeURIComponent(out.hash)}`);
    await call('get', '/messages', 'source=null&limit=5');
    await call('get', '/messages', 'destination=null&limit=5');
    await call('get', '/messages', `source=${alice.toString()}&exclude_externals=true&start_lt=1&sort=desc`);
    await call('get', '/messages', 'only_externals=true&direction=in&start_utime=1');
  });

  it('accounts: accountStates, walletStates, addressBook, topAccountsByBalance', async () => {
    const states = await call<{ accounts: unknown[] }>('get', '/accountStates', `address=${alice.toString()}&address=${bob.toRawString()}`);
    expect(states.accounts).toHaveLength(2);
    await call('get', '/accountStates', `address=${alice.toString()}&include_boc=false`);
    const wallets = await call<{ wallets: Array<{ is_wallet: boolean }> }>('get', '/walletStates', `address=${alice.toString()}&address=${bob.toString()}`);
    expect(wallets.wallets.every((w) => w.is_wallet)).toBe(true);
    await call('get', '/addressBook', `address=${alice.toString()}&address=${bob.toRawString()}&address=garbage`);
    const top = await call<unknown[]>('get', '/topAccountsByBalance', 'limit=5');
    expect(top.length).toBeGreaterThan(0);
  });

  it('legacy: addressInformation, walletInformation and their aliases', async () => {
    await call('get', '/addressInformation', `address=${alice.toString()}`);
    const acc = await request(`${server.url}/api/v3`, `/account?address=${alice.toString()}`);
    expect(acc.status).toBe(200);
    assertResponse('/api/v3/addressInformation', 'get', 200, acc.body, { closed: true });

    const w = await call<{ seqno?: number }>('get', '/walletInformation', `address=${alice.toString()}`);
    expect(typeof w.seqno).toBe('number');
    const alias = await request(`${server.url}/api/v3`, `/wallet?address=${bob.toRawString()}`);
    expect(alias.status).toBe(200);
    assertResponse('/api/v3/walletInformation', 'get', 200, alias.body, { closed: true });
  });

  it('POST runGetMethod, estimateFee, message', async () => {
    const run = await call<{ exit_code: number; stack: Array<{ type: string; value: string }> }>('post', '/runGetMethod', '', {
      address: alice.toString(),
      method: 'seqno',
      stack: [],
    });
    expect(run.exit_code).toBe(0);
    expect(run.stack[0]).toMatchObject({ type: 'num', value: expect.stringMatching(/^-?0x[0-9a-f]+$/) });
    const seqno = Number(BigInt(run.stack[0]!.value));

    const [aliceKeys] = chain.keyedWallets();
    const validUntil = Math.floor(Date.now() / 1000) + 86_400;
    const ext = signedTransfer(aliceKeys!, seqno, [internal({ to: bob, value: 1_000_000n, bounce: false, body: 'v3 e2e' })], validUntil);
    const extBody = loadMessage(ext.beginParse()).body;
    await call('post', '/estimateFee', '', {
      address: alice.toString(),
      body: extBody.toBoc().toString('base64'),
      ignore_chksig: true,
    });

    const sent = await call<{ message_hash: string; message_hash_norm?: string }>('post', '/message', '', { boc: ext.toBoc().toString('base64') });
    expect(sent.message_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);

    // once sealed, the transaction is found by either hash of its external message
    for (const h of [sent.message_hash, sent.message_hash_norm].filter((x): x is string => !!x)) {
      const found = await waitFor(async () => {
        const r = await request(`${server.url}/api/v3`, `/transactionsByMessage?msg_hash=${encodeURIComponent(h)}`);
        const txs = (r.body as { transactions?: Transaction[] }).transactions;
        return r.status === 200 && txs?.length ? txs : undefined;
      });
      expect(found[0]!.account).toBe(`0:${alice.hash.toString('hex').toUpperCase()}`);
      assertResponse('/api/v3/transactionsByMessage', 'get', 200, { transactions: found }, { closed: true });
    }
  });
});
