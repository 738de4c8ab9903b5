/**
 * Impersonated wallets (issue 33, item 3) and provenance in the graph (item 4), over real HTTP on loopback:
 * an external message to an impersonated wallet runs without its signature check, by `--impersonate` or by
 * one call of POST /localnet/impersonate {boc}; an account says whether its state is the forked network's or
 * the local chain's, and reads itself from the network it was forked from.
 */
import { Address, beginCell, external, SendMode, storeMessage, toNano } from '@ton/core';
import { internal } from '@ton/sandbox';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../../src/config.js';
import type { Gateway } from '../../../src/gateway.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { v4Transfer } from '../../helpers/transfer.js';

/** A wallet nobody else knows the key of, and a key that is not its. */
const own = keyPairFromSeed(Buffer.alloc(32, 7));
const wrong = keyPairFromSeed(Buffer.alloc(32, 9));
const ownWallet = WalletContractV4.create({ workchain: 0, publicKey: own.publicKey });
const receiver = Address.parse('0:' + '5'.repeat(64));

let local: Gateway;
let wallets: readonly KeyedWallet[];

const post = async (g: Gateway, path: string, body: unknown) => {
  const res = await fetch(`${g.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const v2 = async (g: Gateway, method: string, params: Record<string, unknown>) =>
  (await post(g, '/api/v2/jsonRPC', { jsonrpc: '2.0', id: 1, method, params })).body as { ok: boolean; result?: any; error?: string };
const sendBoc = (g: Gateway, boc: Buffer) => v2(g, 'sendBoc', { boc: boc.toString('base64') });
const balanceOf = async (g: Gateway, a: Address) => BigInt((await v2(g, 'getAddressBalance', { address: a.toRawString() })).result as string);
const seqnoOf = async (g: Gateway, a: Address) => (await v2(g, 'getWalletInformation', { address: a.toRawString() })).result.seqno as number;
const graphql = async (g: Gateway, query: string) => (await post(g, '/graphql', { query })).body as { data?: any; errors?: any[] };

const provenanceQuery = (a: Address) => `{ account(address: "${a.toRawString()}") {
  balance origin forkBlock upstreamState { status balance lastTransactionLt }
} }`;

beforeAll(async () => {
  const config = loadConfig(['--impersonate', ownWallet.address.toString()], {}) as Config;
  expect(config.impersonate).toEqual([ownWallet.address.toRawString()]);
  local = await startTestGateway({ impersonate: config.impersonate });
  wallets = local.chain!.keyedWallets();
  // the impersonated wallet: funded by the faucet, deployed by a transfer signed with its own key
  expect((await post(local, '/localnet/faucet', { address: ownWallet.address.toRawString(), amount: toNano('5').toString() })).status).toBe(200);
  const body = ownWallet.createTransfer({ seqno: 0, secretKey: own.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [] });
  const deploy = beginCell().store(storeMessage(external({ to: ownWallet.address, init: ownWallet.init, body }))).endCell();
  expect((await sendBoc(local, deploy.toBoc())).ok).toBe(true);
}, 120_000);

afterAll(() => local?.close());

describe('impersonated wallets', () => {
  it('refuses --impersonate in upstream mode and a bad address, each with one line', () => {
    const addr = ownWallet.address.toRawString();
    expect(() => loadConfig(['--backend', 'toncenter', '--impersonate', addr], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--backend', 'toncenter'], { IMPERSONATE: addr })).toThrow(/IMPERSONATE: only a local chain or a fork/);
    expect(() => loadConfig(['--impersonate', `${addr},nope`], {})).toThrow(/IMPERSONATE: not an address: 'nope'/);
    const two = loadConfig([], { IMPERSONATE: `${addr}, ${receiver.toString()}` }) as Config;
    expect(two.impersonate).toEqual([addr, receiver.toRawString()]);
  });

  it('runs a transfer signed with a wrong key to a wallet listed by --impersonate', async () => {
    const before = await balanceOf(local, receiver);
    const seqno = await seqnoOf(local, ownWallet.address);
    const res = await sendBoc(local, v4Transfer({ contract: ownWallet, keyPair: wrong }, receiver, toNano('1'), seqno));
    expect(res.ok).toBe(true);
    expect(await seqnoOf(local, ownWallet.address)).toBe(seqno + 1);
    expect(await balanceOf(local, receiver)).toBe(before + toNano('1'));
  });

  it('refuses a wrong-key transfer from a genesis wallet, and runs it when the call impersonates that wallet', async () => {
    const alice = wallets.find((w) => w.version === 'v4r2')!;
    const from = alice.contract.address;
    const seqno = await seqnoOf(local, from);
    const forged = v4Transfer({ contract: alice.contract as WalletContractV4, keyPair: wrong }, receiver, toNano('2'), seqno);
    const refused = await sendBoc(local, forged);
    expect(refused.ok).toBe(false);
    expect(await seqnoOf(local, from)).toBe(seqno);

    const before = await balanceOf(local, receiver);
    const ran = await post(local, '/localnet/impersonate', { boc: forged.toString('base64') });
    expect(ran.status).toBe(200);
    expect(ran.body.transactions.length).toBeGreaterThanOrEqual(2);
    expect(await seqnoOf(local, from)).toBe(seqno + 1);
    // the receiver, uninitialised since the first transfer, pays a little storage from what it gets
    expect(await balanceOf(local, receiver)).toBeGreaterThan(before + toNano('2') - toNano('0.01'));
    // the same message again: the wallet's seqno moved on, so even without a signature check it is refused
    const replay = await post(local, '/localnet/impersonate', { boc: forged.toString('base64') });
    expect(replay.status).toBe(500);
    expect(replay.body.error).toMatch(/External message was not accepted/);
  });

  it('answers a {boc} that is not an external message with a 422', async () => {
    const msg = beginCell().store(storeMessage(internal({ from: receiver, to: ownWallet.address, value: 1n }))).endCell();
    const res = await post(local, '/localnet/impersonate', { boc: msg.toBoc().toString('base64') });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 422, error: expect.stringMatching(/external message/) });
    expect((await post(local, '/localnet/impersonate', { boc: 'not a boc' })).status).toBe(422);
  });
});

describe('provenance in the graph', () => {
  it('says LOCAL, no fork block and no upstream state on a local chain', async () => {
    const res = await graphql(local, provenanceQuery(wallets[0]!.contract.address));
    expect(res.errors).toBeUndefined();
    expect(res.data.account).toMatchObject({ origin: 'LOCAL', forkBlock: null, upstreamState: null });
  });

  describe('on a fork of that chain', () => {
    let fork: Gateway;
    let forkSeqno: number;
    beforeAll(async () => {
      forkSeqno = local.chain!.store.lastMc.seqno;
      fork = await startTestGateway({ fork: { url: local.url, seqno: forkSeqno, apiKey: '', rps: 0 } } as Partial<Config>);
    }, 120_000);
    afterAll(() => fork?.close());

    it('says FORK for a fetched account until a local transaction changes it, and reads it from the network now', async () => {
      const bob = wallets[1]!.contract.address;
      const there = await balanceOf(local, bob);
      const first = await graphql(fork, provenanceQuery(bob));
      expect(first.errors).toBeUndefined();
      expect(first.data.account).toMatchObject({ origin: 'FORK', forkBlock: forkSeqno, balance: there.toString() });
      expect(first.data.account.upstreamState).toMatchObject({ status: 'active', balance: there.toString() });

      // credited on the fork only: the account is now the fork's own, the network still holds the old balance
      expect((await post(fork, '/localnet/faucet', { address: bob.toRawString(), amount: toNano('3').toString() })).status).toBe(200);
      const after = await graphql(fork, provenanceQuery(bob));
      expect(after.errors).toBeUndefined();
      expect(after.data.account.origin).toBe('LOCAL');
      expect(after.data.account.forkBlock).toBe(forkSeqno);
      // the credit's transaction charged storage since the account's last payment
      const mine = BigInt(after.data.account.balance);
      expect(mine).toBeGreaterThan(there + toNano('3') - toNano('0.1'));
      expect(mine).toBeLessThanOrEqual(there + toNano('3'));
      expect(after.data.account.upstreamState.balance).toBe(there.toString());

      // a change on the network after the fork block shows in upstreamState, not in the fork's own state
      const seqno = await seqnoOf(local, bob);
      expect((await sendBoc(local, v4Transfer(wallets[1]!, receiver, toNano('1'), seqno))).ok).toBe(true);
      const moved = await graphql(fork, provenanceQuery(bob));
      expect(BigInt(moved.data.account.upstreamState.balance)).toBeLessThan(there - toNano('1') + 1n);
      expect(BigInt(moved.data.account.balance)).toBe(mine);
    });
  });
});
