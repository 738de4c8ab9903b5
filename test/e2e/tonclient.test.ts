/** @ton/ton TonClient against the gateway over loopback JSON-RPC, as a dapp developer would use it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, SendMode, internal, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { mnemonicToPrivateKey } from '@ton/crypto';
import type { Gateway } from '../../src/gateway.js';
import type { GenesisWallet } from '../../src/api/localnet.js';
import { fetchWallets, startTestGateway, waitFor } from '../helpers/gateway.js';

let gw: Gateway;
let client: TonClient;
let wallets: GenesisWallet[];

beforeAll(async () => {
  gw = await startTestGateway({ blockInterval: 200 });
  client = new TonClient({ endpoint: `${gw.url}/api/v2/jsonRPC` });
  wallets = await fetchWallets(gw.url);
});
afterAll(async () => {
  await gw?.close();
});

const v4 = () => wallets.find((w) => w.version === 'v4r2')!;

describe('TonClient over the local chain', () => {
  it('reads genesis wallet balances', async () => {
    for (const w of wallets) {
      const balance = await client.getBalance(Address.parse(w.address));
      expect(balance).toBeGreaterThan(0n);
    }
  });

  it('reads masterchain info, shards and shard transactions', async () => {
    const info = await client.getMasterchainInfo();
    expect(info.workchain).toBe(-1);
    expect(info.shard).toBe('-9223372036854775808');
    expect(info.latestSeqno).toBeGreaterThanOrEqual(info.initSeqno);

    const shards = await client.getWorkchainShards(info.latestSeqno);
    expect(shards).toHaveLength(1);
    expect(shards[0]!.workchain).toBe(0);

    // walk back to a block that holds genesis transactions
    let found = 0;
    for (let seqno = info.latestSeqno; seqno >= info.initSeqno && found === 0; seqno--) {
      const [shard] = await client.getWorkchainShards(seqno);
      const txs = await client.getShardTransactions(0, shard!.seqno, shard!.shard);
      for (const t of txs) {
        expect(t.account.workChain).toBe(0);
        expect(t.lt).toMatch(/^\d+$/);
      }
      found = txs.length;
    }
    expect(found).toBeGreaterThan(0);
  });

  it('runs the seqno get-method of a genesis wallet', async () => {
    const res = await client.runMethod(Address.parse(v4().address), 'seqno');
    expect(res.stack.readNumber()).toBeGreaterThanOrEqual(1);
  });

  it('sends a WalletContractV4 transfer and reads it back with getTransactions', async () => {
    const w = v4();
    const key = await mnemonicToPrivateKey(w.mnemonic);
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }));
    expect(wallet.address.toRawString()).toBe(w.address);

    const dest = Address.parse(wallets.find((x) => x !== w)!.address);
    const destBefore = await client.getBalance(dest);
    const seqno = await wallet.getSeqno();
    await wallet.sendTransfer({
      seqno,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      messages: [internal({ to: dest, value: toNano('1.25'), body: 'hello from TonClient', bounce: false })],
    });

    await waitFor(async () => ((await wallet.getSeqno()) === seqno + 1 ? true : undefined));
    const incoming = await waitFor(async () => {
      const txs = await client.getTransactions(dest, { limit: 5 });
      return txs.find((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(wallet.address));
    });
    expect(incoming.inMessage!.info.type).toBe('internal');
    if (incoming.inMessage!.info.type === 'internal') expect(incoming.inMessage!.info.value.coins).toBe(toNano('1.25'));
    const comment = incoming.inMessage!.body.beginParse();
    expect(comment.loadUint(32)).toBe(0);
    expect(comment.loadStringTail()).toBe('hello from TonClient');
    // the receiving wallet pays its own gas and storage out of what arrived
    expect(await client.getBalance(dest)).toBe(destBefore + toNano('1.25') - incoming.totalFees.coins);

    // the sender's side: the external message that carried the transfer
    const outgoing = await client.getTransactions(wallet.address, { limit: 1 });
    expect(outgoing[0]!.inMessage!.info.type).toBe('external-in');
    expect(outgoing[0]!.outMessages.size).toBe(1);

    const sent = outgoing[0]!.outMessages.get(0)!.info;
    if (sent.type !== 'internal') throw new Error('expected an internal out-message');
    const located = await client.tryLocateResultTx(wallet.address, dest, String(sent.createdLt));
    expect(located.hash().toString('hex')).toBe(incoming.hash().toString('hex'));
  });

  it('pages through an account history with lt+hash, every transaction once', async () => {
    const addr = Address.parse(v4().address);
    const all = await client.getTransactions(addr, { limit: 100 });
    expect(all.length).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    let page = await client.getTransactions(addr, { limit: 2 });
    while (page.length > 0) {
      seen.push(...page.map((t) => t.hash().toString('hex')));
      const last = page[page.length - 1]!;
      page = await client.getTransactions(addr, { limit: 2, lt: String(last.lt), hash: last.hash().toString('base64') });
    }
    expect(seen).toEqual(all.map((t) => t.hash().toString('hex')));
    const lts = all.map((t) => t.lt);
    expect([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(lts);
  });

  it('estimates an external message fee', async () => {
    const w = v4();
    const key = await mnemonicToPrivateKey(w.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    const body = wallet.createTransfer({
      seqno: await client.open(wallet).getSeqno(),
      secretKey: key.secretKey,
      messages: [internal({ to: wallet.address, value: 1n })],
    });
    const fees = await client.estimateExternalMessageFee(wallet.address, {
      body,
      initCode: null,
      initData: null,
      ignoreSignature: true,
    });
    expect(fees['@type']).toBe('query.fees');
    expect(fees.source_fees.gas_fee).toBeGreaterThan(0);
    expect(fees.source_fees.in_fwd_fee).toBeGreaterThan(0);
    const seqnoBefore = await client.open(wallet).getSeqno();
    await client.estimateExternalMessageFee(wallet.address, { body, initCode: null, initData: null, ignoreSignature: true });
    expect(await client.open(wallet).getSeqno()).toBe(seqnoBefore);
  });
});
