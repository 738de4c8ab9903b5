/** tonweb's HttpProvider against the gateway's JSON-RPC over loopback (it sends a numeric id and reads only `result`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell, SendMode, beginCell, external, internal, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { mnemonicToPrivateKey } from '@ton/crypto';
import TonWeb from 'tonweb';
import type { Gateway } from '../../src/gateway.js';
import type { GenesisWallet } from '../../src/api/localnet.js';
import { fetchWallets, startTestGateway, waitFor } from '../helpers/gateway.js';

interface TonwebTx {
  transaction_id: { lt: string; hash: string };
  fee: string;
  in_msg?: { source: string; destination: string; value: string; message?: string };
}
interface TonwebCell {
  bits: { length: number };
  hash(): Promise<Uint8Array>;
  toBoc(hasIdx?: boolean): Promise<Uint8Array>;
}
interface Provider {
  getBalance(a: string): Promise<string>;
  getTransactions(a: string, limit?: number, lt?: string, hash?: string): Promise<TonwebTx[]>;
  call2(a: string, method: string, params?: unknown[]): Promise<{ toString(): string }>;
  sendBoc(b64: string): Promise<{ '@type': string }>;
  getConfigParam(id: number): Promise<TonwebCell>;
}

let gw: Gateway;
let provider: Provider;
let wallets: GenesisWallet[];

beforeAll(async () => {
  gw = await startTestGateway();
  const Ctor = (TonWeb as unknown as { HttpProvider: new (host: string) => Provider }).HttpProvider;
  provider = new Ctor(`${gw.url}/api/v2/jsonRPC`);
  wallets = await fetchWallets(gw.url);
});
afterAll(async () => {
  await gw?.close();
});

describe('tonweb HttpProvider over the local chain', () => {
  it('getBalance goes through getAddressBalance and returns the balance string', async () => {
    for (const w of wallets) {
      const b = await provider.getBalance(w.address);
      expect(typeof b).toBe('string');
      expect(BigInt(b)).toBeGreaterThan(0n);
    }
  });

  it('reads transactions, with the text comment decoded into `message`', async () => {
    const all = await Promise.all(wallets.map((w) => provider.getTransactions(w.address, 20)));
    const txs = all.flat();
    expect(txs.length).toBeGreaterThan(0);
    expect(txs.some((t) => t.in_msg?.message !== undefined && /[a-z]/i.test(t.in_msg.message) && !t.in_msg.message.endsWith('\n'))).toBe(true);
    const first = all.find((a) => a.length > 1)!;
    const page = await provider.getTransactions(wallets[all.indexOf(first)]!.address, 1, first[1]!.transaction_id.lt, first[1]!.transaction_id.hash);
    expect(page[0]!.transaction_id).toEqual(first[1]!.transaction_id);
  });

  it('reads a config param as a cell (it insists on configInfo and tvm.cell)', async () => {
    const cell = await provider.getConfigParam(34);
    expect(cell.bits.length).toBeGreaterThan(0);
    // tonweb hashes through isomorphic-webcrypto on Node (its mobile optional dependencies are overridden away)
    const boc = Buffer.from(await cell.toBoc(false));
    expect(Buffer.from(await cell.hash()).equals(Cell.fromBoc(boc)[0]!.hash())).toBe(true);
  });

  it('runs seqno with call2 (hex numbers in the legacy stack) and sends a BoC', async () => {
    const w = wallets.find((x) => x.version === 'v4r2')!;
    const seqno = Number((await provider.call2(w.address, 'seqno')).toString());
    expect(seqno).toBeGreaterThanOrEqual(1);

    const key = await mnemonicToPrivateKey(w.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    const dest = Address.parse(wallets.find((x) => x !== w)!.address);
    const body = wallet.createTransfer({
      seqno,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      messages: [internal({ to: dest, value: toNano('0.5'), bounce: false })],
    });
    const ext = external({ to: wallet.address, body });
    const boc = beginCell().store(storeMessage(ext)).endCell().toBoc().toString('base64');
    const before = BigInt(await provider.getBalance(dest.toRawString()));
    const res = await provider.sendBoc(boc);
    expect(res['@type']).toBe('ok');
    const incoming = await waitFor(async () => {
      const txs = await provider.getTransactions(dest.toRawString(), 5);
      return txs.find((t) => t.in_msg?.source === wallet.address.toString() && t.in_msg.value === String(toNano('0.5')));
    });
    // the receiving wallet pays its own fees out of what arrived
    expect(BigInt(await provider.getBalance(dest.toRawString()))).toBe(before + toNano('0.5') - BigInt(incoming.fee));
    expect(Number((await provider.call2(w.address, 'seqno')).toString())).toBe(seqno + 1);
  });
});
