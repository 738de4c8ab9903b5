/**
 * `/api/v3/acton` (toncenter-newer.md §8, the second design of a feature branch), mounted only with
 * V3_BRANCH_FEATURES=acton, on the local chain and through upstream mode in front of it (bodies alike): the
 * catalog of the chain's own contracts listed and selected (ABI only for a selector), bodies decoded as a contract
 * declares them, getters run with named arguments on the genesis jetton and wallets and checked against the other
 * routes; the documented 4xx texts, strict bodies, the catalog revision header and the ETag of GETs.
 */
import { Address, beginCell, getMethodId, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { jettonTransferBody, jettonWalletCode } from '../../../src/sources/localnet/chain/contracts/index.js';
import { genesisTokens } from '../../../src/sources/localnet/chain/genesis.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

type Json = any;
const V3 = '/api/v3';

describe('/api/v3/acton behind V3_BRANCH_FEATURES=acton', () => {
  let A: Gateway;
  let B: Gateway;
  let plain: Gateway;
  const both = onBoth(() => A, () => B);
  let alice: Address;
  let carol: Address;
  let aliceWallet: string;
  let master: string;

  beforeAll(async () => {
    A = await startTestGateway({ v3BranchFeatures: ['acton'] });
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0', V3_BRANCH_FEATURES: 'acton' });
    plain = await startTestGateway();
    const wallets = A.chain!.keyedWallets();
    alice = wallets[0]!.contract.address;
    carol = wallets[2]!.contract.address;
    const t = genesisTokens(wallets);
    aliceWallet = t.jettonWallets[0]!.address.toRawString().toUpperCase();
    master = t.jettonMaster.toRawString().toUpperCase();
  }, 120_000);
  afterAll(async () => {
    await plain?.close();
    await B?.close();
    await A?.close();
  });

  const post = (path: string, body: unknown) => {
    const run = async (gw: Gateway) => http(`${gw.url}${V3}${path}`, { body });
    return Promise.all([run(A), run(B)]).then(([a, b]) => {
      expect(b, `upstream mode: ${path}`).toEqual(a);
      return a as { status: number; body: Json };
    });
  };

  it('is not served by default', async () => {
    for (const path of ['/acton/contracts']) expect((await http(`${plain.url}${V3}${path}`)).status).toBe(404);
    expect((await http(`${plain.url}${V3}/acton/decode`, { body: {} })).status).toBe(404);
  });

  it('/contracts lists the catalog; a selector adds the ABI; limit and offset page it', async () => {
    const all = await both('/acton/contracts');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['contracts', 'total', 'limit', 'offset']);
    expect(all.body).toMatchObject({ total: all.body.contracts.length, limit: all.body.contracts.length, offset: 0 });
    expect(all.body.contracts.map((c: Json) => c.catalog_id)).toEqual(
      expect.arrayContaining(['localnet.jetton_minter', 'localnet.jetton_wallet', 'localnet.nft_collection', 'localnet.nft_item', 'localnet.wallet_v4r2', 'localnet.wallet_v5r1']),
    );
    for (const c of all.body.contracts) {
      expect(Object.keys(c)).toEqual(['catalog_id', 'display_name', 'code_hashes', 'known_addresses', 'links', 'get_methods']);
      for (const h of c.code_hashes) expect(Buffer.from(h, 'base64')).toHaveLength(32);
      for (const g of c.get_methods) {
        expect(Object.keys(g)).toEqual(['name', 'method_id', 'parameters', 'return']);
        expect(g.method_id).toBe(getMethodId(g.name));
      }
    }
    const byId = await both('/acton/contracts?catalog_id=localnet.jetton_wallet');
    const byHash = await both(`/acton/contracts?code_hash=${jettonWalletCode.hash().toString('hex')}`);
    expect(byHash.body).toEqual(byId.body);
    expect(byId.body.contracts).toHaveLength(1);
    expect(byId.body.contracts[0].code_hashes).toEqual([jettonWalletCode.hash().toString('base64')]);
    expect(byId.body.contracts[0].abi.incoming_messages.map((t: Json) => t.name)).toEqual(['JettonTransfer', 'JettonInternalTransfer', 'JettonBurn']);
    const page = await both('/acton/contracts?limit=2&offset=1');
    expect(page.body).toMatchObject({ total: all.body.total, limit: 2, offset: 1 });
    expect(page.body.contracts).toEqual(all.body.contracts.slice(1, 3));
    expect((await both('/acton/contracts?catalog_id=nothing')).body).toMatchObject({ contracts: [], total: 0 });
  });

  it('/contracts refuses bad selectors, limits and offsets in the reference words', async () => {
    const selectors = Array.from({ length: 51 }, (_, i) => `catalog_id=x${i}`).join('&');
    const cases: [string, string][] = [
      [selectors, 'provide at most 50 code_hash and catalog_id selectors'],
      ['limit=0', 'limit must be between 1 and 1000'],
      ['limit=1001', 'limit must be between 1 and 1000'],
      ['offset=-1', 'offset must be nonnegative'],
    ];
    for (const [q, error] of cases) expect(await both(`/acton/contracts?${q}`), q).toEqual({ status: 422, body: { code: 422, error } });
  });

  it('answers and the catalog\'s refusals name its revision; a GET has a strong ETag and a matching If-None-Match is a 304', async () => {
    const res = await fetch(`${A.url}${V3}/acton/contracts`);
    await res.arrayBuffer();
    expect(res.headers.get('x-acton-catalog-revision')).toMatch(/^[0-9a-f]{64}$/);
    const refused = await fetch(`${A.url}${V3}/acton/decode`, {
      method: 'POST',
      body: JSON.stringify({ catalog_id: 'nothing', direction: 'storage', body: 'te6cckEBAQEAAgAAAEysuc0=' }),
      headers: { 'content-type': 'application/json' },
    });
    await refused.arrayBuffer();
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-acton-catalog-revision')).toBe(res.headers.get('x-acton-catalog-revision'));
    for (const gw of [A, B]) {
      const first = await fetch(`${gw.url}${V3}/acton/contracts`);
      const text = await first.text();
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      const again = await fetch(`${gw.url}${V3}/acton/contracts`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      const changed = await fetch(`${gw.url}${V3}/acton/contracts?limit=1`, { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(text.length).toBeGreaterThan(0);
    }
  });

  it('/decode reads a body as a contract declares it, by catalog id or code hash', async () => {
    const body = jettonTransferBody({ queryId: 7n, amount: 1000n, destination: carol, responseDestination: alice, forwardTonAmount: toNano('0.01') }).toBoc().toString('base64');
    const r = await post('/acton/decode', { catalog_id: 'localnet.jetton_wallet', direction: 'incoming_messages', body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      catalog_id: 'localnet.jetton_wallet',
      direction: 'incoming_messages',
      type: { name: 'JettonTransfer' },
      decoded: { query_id: '7', amount: '1000', destination: carol.toRawString().toUpperCase(), response_destination: alice.toRawString().toUpperCase(), forward_ton_amount: '10000000' },
    });
    const byHash = await post('/acton/decode', { code_hash: jettonWalletCode.hash().toString('hex'), direction: 'incoming_messages', body });
    expect(byHash.body).toEqual(r.body);
    // alice's jetton wallet's storage, against /jetton/wallets
    const state = (await both(`/accountStates?address=${aliceWallet}`)).body.accounts[0];
    const storage = await post('/acton/decode', { catalog_id: 'localnet.jetton_wallet', direction: 'storage', body: state.data_boc });
    const row = (await both(`/jetton/wallets?address=${aliceWallet}`)).body.jetton_wallets[0];
    expect(storage.body.decoded).toMatchObject({ balance: row.balance, owner_address: row.owner, jetton_master_address: row.jetton });
  });

  it('/decode refuses in the reference words', async () => {
    const body = beginCell().storeUint(0x0f8a7ea5, 32).endCell().toBoc().toString('base64');
    const cases: [unknown, number, string][] = [
      [{ direction: 'storage', body }, 422, 'provide exactly one of catalog_id or code_hash'],
      [{ catalog_id: 'localnet.jetton_wallet', code_hash: jettonWalletCode.hash().toString('hex'), direction: 'storage', body }, 422, 'provide exactly one of catalog_id or code_hash'],
      [{ catalog_id: 'localnet.jetton_wallet', direction: 'storage' }, 422, 'body BOC is required'],
      [{ catalog_id: 'localnet.jetton_wallet', direction: 'sideways', body }, 422, 'direction must be one of storage, deployment_storage, incoming_messages, incoming_external, outgoing_messages, emitted_events'],
      [{ catalog_id: 'nothing', direction: 'storage', body }, 404, 'contract is not in the catalog'],
      [{ catalog_id: 'localnet.jetton_wallet', direction: 'storage', body, extra: 1 }, 422, 'invalid JSON: json: unknown field "extra"'],
      [{ catalog_id: 'localnet.wallet_v4r2', direction: 'emitted_events', body }, 422, 'localnet.wallet_v4r2 declares no emitted_events type'],
    ];
    for (const [req, status, error] of cases) expect(await post('/acton/decode', req), JSON.stringify(req)).toEqual({ status, body: { code: status, error } });
    const truncated = await post('/acton/decode', { catalog_id: 'localnet.jetton_wallet', direction: 'incoming_messages', body });
    expect(truncated.status).toBe(422);
    expect(truncated.body.error).toMatch(/^body does not decode as JettonTransfer: /);
  });

  it('/runGetMethod runs a catalog getter with named arguments and decodes it, with the state it ran on', async () => {
    const r = await post('/acton/runGetMethod', { address: aliceWallet, method: 'get_wallet_data' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const row = (await both(`/jetton/wallets?address=${aliceWallet}`)).body.jetton_wallets[0];
    expect(r.body).toMatchObject({
      exit_code: 0,
      success: true,
      catalog_id: 'localnet.jetton_wallet',
      identification: 'exact_code_hash',
      method: { name: 'get_wallet_data', method_id: getMethodId('get_wallet_data'), parameters: [], return: 'JettonWalletData' },
      decoded: { balance: row.balance, owner_address: row.owner, jetton_master_address: row.jetton },
    });
    expect(r.body.gas_used).toMatch(/^\d+$/);
    expect(r.body.stack.map((v: Json) => v.type)).toEqual(['int', 'slice', 'slice', 'cell']);
    expect(r.body.stack[0]).toEqual({ type: 'int', value: row.balance });
    expect(r.body.raw_stack[0]).toEqual({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: row.balance } });
    const state = (await both(`/accountStates?address=${aliceWallet}`)).body.accounts[0];
    expect(r.body.snapshot).toMatchObject({
      address: aliceWallet,
      account_status: 'active',
      account_state_hash: state.account_state_hash,
      code_hash: state.code_hash,
      data_hash: state.data_hash,
      last_transaction_hash: state.last_transaction_hash,
      last_transaction_lt: state.last_transaction_lt,
    });
    // a getter with an argument, and the same getter by its numeric id
    const wallet = await post('/acton/runGetMethod', { address: master, method: 'get_wallet_address', args: { owner_address: alice.toString() } });
    expect(wallet.body.decoded).toBe(aliceWallet);
    const byId = await post('/acton/runGetMethod', { address: master, method: String(getMethodId('get_wallet_address')), args: { owner_address: alice.toRawString() } });
    expect(byId.body.decoded).toBe(aliceWallet);
    // the standard wallets
    expect((await post('/acton/runGetMethod', { address: carol.toRawString(), method: 'is_signature_allowed' })).body).toMatchObject({ catalog_id: 'localnet.wallet_v5r1', decoded: true });
    const seqno = await post('/acton/runGetMethod', { address: alice.toRawString(), method: 'seqno' });
    expect(seqno.body.catalog_id).toBe('localnet.wallet_v4r2');
    const v2seqno = ((await http(`${A.url}/api/v2/runGetMethod`, { body: { address: alice.toRawString(), method: 'seqno', stack: [] } })).body as Json).result.stack[0][1];
    expect(BigInt(seqno.body.decoded)).toBe(BigInt(v2seqno));
    // pinned to a block: genesis, before alice's wallet ran its first transfer
    const pinned = await post('/acton/runGetMethod', { address: alice.toRawString(), method: 'seqno', seqno: 1 });
    expect(pinned.status).toBe(404);
  });

  it('/runGetMethod refuses in the reference words', async () => {
    const cases: [unknown, number, string][] = [
      [{ method: 'seqno' }, 422, 'address is required'],
      [{ address: alice.toRawString() }, 422, 'method is required'],
      [{ address: alice.toRawString(), method: 'x'.repeat(257) }, 422, 'method must not exceed 256 characters'],
      [{ address: alice.toRawString(), method: 'seqno', seqno: 0 }, 422, 'seqno must be a positive int32'],
      [{ address: alice.toRawString(), method: 'seqno', args: 'owner' }, 422, 'args must be an object'],
      [{ address: alice.toRawString(), method: 'seqno', args: [1] }, 422, 'args must be an object'],
      [{ address: alice.toRawString(), method: 'seqno', oops: true }, 422, 'invalid JSON: json: unknown field "oops"'],
      [{ address: new Address(0, Buffer.alloc(32, 5)).toRawString(), method: 'seqno' }, 404, 'contract is not in the catalog'],
      [{ address: alice.toRawString(), method: 'get_nothing' }, 404, 'localnet.wallet_v4r2 declares no getter get_nothing'],
      [{ address: master, method: 'get_wallet_address' }, 422, 'args.owner_address is required'],
      [{ address: master, method: 'get_wallet_address', args: { owner_address: 'nope' } }, 422, 'args.owner_address: not a valid address'],
      [{ address: master, method: 'get_wallet_address', args: { owner_address: alice.toRawString(), more: 1 } }, 422, 'args.more: get_wallet_address takes no such argument'],
    ];
    for (const [req, status, error] of cases) expect(await post('/acton/runGetMethod', req), JSON.stringify(req).slice(0, 80)).toEqual({ status, body: { code: status, error } });
  });
});
