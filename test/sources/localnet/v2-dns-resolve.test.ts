/**
 * v2 `dnsResolve` as ton-http-api-cpp answers it since 2.1.13 (toncenter-newer.md §11), on the local chain and
 * through upstream mode in front of it, over GET, POST and JSON-RPC alike: the domain normalised and encoded as
 * TEP-81 names it, `dnsresolve` followed through delegation, every category of the final record dictionary
 * printed as tonlib prints it, the 422s of a bad domain or seqno and the 502s of a resolver out of the protocol,
 * in the reference's words; the former `address`/`name`/`category`/`ttl` still accepted. The resolvers are a
 * FunC contract compiled here, deployed in one mode per case (its data says which).
 */
import { compileFunc } from '@ton-community/func-js';
import { ADNLAddress, Address, beginCell, Cell, contractAddress, Dictionary, internal, toNano, type StateInit } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

type Json = any;

/** Modes: 0 a zone (a leading zero byte and one label, then `next`), 1 a leaf (all of it: `records`), 2 one byte a
 * call to itself, 3 two bytes to `next`, 4 throws 77, 5 one byte and no record. */
const RESOLVER = `
#include "stdlib.fc";
(int, cell) dnsresolve(slice name, int category) method_id {
  slice ds = get_data().begin_parse();
  int mode = ds~load_uint(8);
  slice next = ds~load_msg_addr();
  cell records = ds~load_maybe_ref();
  cell delegate = begin_cell().store_uint(0xba93, 16).store_slice(next).end_cell();
  if (mode == 0) {
    int n = 8;
    if (name.preload_uint(8) == 0) { name~skip_bits(8); n += 8; }
    while (name.preload_uint(8) != 0) { name~skip_bits(8); n += 8; }
    return (n, delegate);
  }
  if (mode == 1) { return (name.slice_bits(), records); }
  if (mode == 2) { return (8, begin_cell().store_uint(0xba93, 16).store_slice(my_address()).end_cell()); }
  if (mode == 3) { return (16, delegate); }
  if (mode == 4) { throw(77); }
  return (8, null());
}
() recv_internal() impure { }
`;

const category = (name: string) => BigInt(`0x${sha256_sync(name).toString('hex')}`);
const b64 = (key: bigint) => Buffer.from(key.toString(16).padStart(64, '0'), 'hex').toString('base64');
const friendly = (a: Address) => a.toString({ urlSafe: true, bounceable: true });

describe('v2 dnsResolve, local chain and upstream mode', () => {
  let A: Gateway;
  let B: Gateway;
  const both = onBoth(() => A, () => B, '/api/v2');
  const at: Record<string, Address> = {};
  let bob: Address;
  let carol: Address;
  const adnl = Buffer.alloc(32, 0xad);
  const bag = Buffer.alloc(32, 0xba);
  const unknownRecord = beginCell().storeUint(0xabcd, 16).storeUint(7, 8).endCell();
  let expected: Json[];

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const wallets = A.chain!.keyedWallets();
    bob = wallets[1]!.contract.address;
    carol = wallets[2]!.contract.address;
    const r = await compileFunc({ targets: ['resolver.fc'], sources: { 'stdlib.fc': readFileSync(new URL('../../../contracts/stdlib.fc', import.meta.url), 'utf8'), 'resolver.fc': RESOLVER } });
    if (r.status === 'error') throw new Error(r.message);
    const code = Cell.fromBase64(r.codeBoc);

    const record = (b: (x: ReturnType<typeof beginCell>) => void) => {
      const x = beginCell();
      b(x);
      return x.endCell();
    };
    const dict = (entries: [bigint, Cell][]) => {
      const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
      for (const [k, v] of entries) d.set(k, v);
      return beginCell().storeDictDirect(d).endCell();
    };
    const records = dict([
      [category('wallet'), record((x) => x.storeUint(0x9fd3, 16).storeAddress(bob).storeUint(0, 8))],
      [category('site'), record((x) => x.storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8))],
      [category('storage'), record((x) => x.storeUint(0x7473, 16).storeBuffer(bag))],
      [category('dns_next_resolver'), record((x) => x.storeUint(0xba93, 16).storeAddress(carol))],
      [category('text'), record((x) => x.storeUint(0x1eda, 16).storeUint(1, 8).storeUint(5, 8).storeBuffer(Buffer.from('hello')))],
      [category('other'), unknownRecord],
    ]);
    const badDict = (() => {
      const d = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Uint(8));
      d.set(category('wallet'), 1);
      return beginCell().storeDictDirect(d).endCell();
    })();
    const malformed = dict([[category('wallet'), record((x) => x.storeUint(0x9fd3, 16).storeAddress(bob).storeUint(5, 8))]]);
    const init = (mode: number, next: Address | null, recs: Cell | null): StateInit => ({
      code,
      data: beginCell().storeUint(mode, 8).storeAddress(next).storeMaybeRef(recs).endCell(),
    });
    const inits: Record<string, StateInit> = {};
    inits.leaf = init(1, null, records);
    at.leaf = contractAddress(0, inits.leaf);
    inits.zone = init(0, at.leaf, null);
    inits.empty = init(1, null, null);
    inits.step = init(2, null, null);
    inits.split = init(3, at.leaf, null);
    inits.fail = init(4, null, null);
    inits.partial = init(5, null, null);
    inits.badDict = init(1, null, badDict);
    inits.malformed = init(1, null, malformed);
    for (const [k, v] of Object.entries(inits)) at[k] = contractAddress(0, v);

    const alice: KeyedWallet = wallets[0]!;
    const names = Object.keys(inits);
    for (let i = 0; i < names.length; i += 4) {
      const seqno = ((await http(`${A.url}/api/v2/runGetMethod`, { body: { address: alice.contract.address.toRawString(), method: 'seqno', stack: [] } })).body as Json).result.stack[0][1];
      const msgs = names.slice(i, i + 4).map((n) => internal({ to: at[n]!, value: toNano('0.5'), bounce: false, init: inits[n] }));
      const boc = signedTransfer(alice, Number(seqno), msgs, Math.floor(Date.now() / 1000) + 600).toBoc().toString('base64');
      expect((await http(`${A.url}/api/v2/sendBoc`, { body: { boc } })).status).toBe(200);
      await waitFor(async () => {
        for (const n of names.slice(i, i + 4)) {
          const s = (await http(`${A.url}/api/v2/getAddressState?address=${at[n]!.toRawString()}`)).body as Json;
          if (s.result !== 'active') return undefined;
        }
        return true;
      });
    }

    expected = [
      ['wallet', { '@type': 'dns.entryDataSmcAddress', smc_address: { '@type': 'accountAddress', account_address: friendly(bob) } }],
      ['site', { '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: new ADNLAddress(adnl).toString() } }],
      ['storage', { '@type': 'dns.entryDataStorageAddress', bag_id: bag.toString('base64') }],
      ['dns_next_resolver', { '@type': 'dns.entryDataNextResolver', resolver: { '@type': 'accountAddress', account_address: friendly(carol) } }],
      ['text', { '@type': 'dns.entryDataText', text: 'hello' }],
      ['other', { '@type': 'dns.entryDataUnknown', bytes: unknownRecord.toBoc({ idx: false, crc32: false }).toString('base64') }],
    ]
      .map(([name, entry]) => ({ key: category(name as string), entry }))
      .sort((x, y) => (x.key < y.key ? -1 : 1))
      .map(({ key, entry }) => ({ '@type': 'dns.entry', name: 'leaf.zone', category: b64(key), entry }));
  }, 180_000);
  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  /** GET, POST and JSON-RPC of the same params answer alike; returns the GET answer. */
  async function resolve(params: Record<string, string>): Promise<{ status: number; body: Json }> {
    const get = await both(`/dnsResolve?${q(params)}`);
    for (const gw of [A, B]) {
      const post = await http(`${gw.url}/api/v2/dnsResolve`, { body: params });
      expect(post, `POST ${JSON.stringify(params)}`).toEqual(get);
      const rpc = await http(`${gw.url}/api/v2/jsonRPC`, { body: { jsonrpc: '2.0', id: 1, method: 'dnsResolve', params } });
      expect(rpc.status).toBe(get.status);
      expect((rpc.body as Json).result ?? (rpc.body as Json).error).toEqual(get.body.result ?? get.body.error);
    }
    return get;
  }

  it('follows delegation to the leaf and prints every category of its records, in key order', async () => {
    const r = await resolve({ domain: 'leaf.zone', resolver_address: at.zone!.toRawString() });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.result['@type']).toBe('dns.resolved');
    expect(r.body.result.entries).toEqual(expected);
    // lower-cased, one trailing dot dropped, any address form, pinned to a block
    const seqno = String(((await http(`${A.url}/api/v2/getMasterchainInfo`)).body as Json).result.last.seqno);
    for (const params of [
      { domain: 'LEAF.Zone.', resolver_address: at.zone!.toString(), seqno },
      { domain: 'leaf.zone', resolver_address: friendly(at.zone!) },
    ] as Record<string, string>[]) {
      expect((await resolve(params)).body.result, JSON.stringify(params)).toEqual(r.body.result);
    }
  });

  it('still takes the former address, name, category and ttl', async () => {
    const r = await resolve({ domain: 'leaf.zone', resolver_address: at.zone!.toRawString() });
    expect((await resolve({ name: 'leaf.zone', address: at.zone!.toRawString() })).body.result).toEqual(r.body.result);
    expect((await resolve({ name: 'leaf.zone', address: at.zone!.toRawString(), category: 'wallet', ttl: '3' })).body.result).toEqual(r.body.result);
    expect((await resolve({ domain: 'leaf.zone', resolver_address: at.zone!.toRawString(), ttl: '-1' })).body).toMatchObject({ ok: false, code: 422, error: 'ttl should be non-negative' });
  });

  it('answers no entries where the name has no records', async () => {
    const r = await resolve({ domain: 'nothing', resolver_address: at.empty!.toRawString() });
    expect(r).toMatchObject({ status: 200, body: { ok: true, result: { '@type': 'dns.resolved', entries: [] } } });
  });

  it('refuses a bad domain or seqno with 422 in the reference words', async () => {
    const resolver = at.leaf!.toRawString();
    const cases: [Record<string, string>, string][] = [
      [{ resolver_address: resolver }, 'domain must contain nonempty labels'],
      [{ domain: '' }, 'domain must contain nonempty labels'],
      [{ domain: 'a..b' }, 'domain must contain nonempty labels'],
      [{ domain: '.a' }, 'domain must contain nonempty labels'],
      [{ domain: '.' }, 'domain must contain nonempty labels'],
      [{ domain: 'a b' }, 'domain must not contain spaces or control characters'],
      [{ domain: 'a\u0001b' }, 'domain must not contain spaces or control characters'],
      [{ domain: 'a\u007fb' }, 'domain must not contain spaces or control characters'],
      [{ domain: 'a'.repeat(126), resolver_address: resolver }, 'encoded domain must not exceed 127 bytes'],
      [{ domain: `${'a.'.repeat(63)}a` }, 'encoded domain must not exceed 127 bytes'],
      [{ domain: 'leaf', seqno: '0' }, 'seqno should be positive'],
      [{ domain: 'leaf', seqno: 'x' }, 'failed to parse seqno'],
    ];
    for (const [params, error] of cases) {
      expect(await resolve(params), JSON.stringify(params)).toMatchObject({ status: 422, body: { ok: false, code: 422, error } });
    }
    // invalid UTF-8 in a query: the bytes a client sent, percent-encoded
    expect(await both('/dnsResolve?domain=a%FFb')).toMatchObject({ status: 422, body: { error: 'domain must be valid UTF-8' } });
    // 126 bytes is one under the bound without the explicit resolver's self byte
    expect((await resolve({ domain: 'a'.repeat(125), resolver_address: resolver })).status).toBe(200);
  });

  it('answers 502 `DNS resolution: …` for a resolver out of the protocol', async () => {
    const labels = Array.from({ length: 40 }, () => 'a').join('.');
    const cases: [string, string, string][] = [
      ['step', labels, 'DNS resolution: resolver hop limit exceeded (64 calls)'],
      ['split', 'abc', 'DNS resolution: delegation splits a domain label'],
      ['fail', 'x', 'DNS resolution: dnsresolve get-method failed with exit code 77'],
      ['partial', 'abc', 'DNS resolution: partial resolution without a next resolver'],
      ['badDict', 'x', 'DNS resolution: invalid record dictionary'],
    ];
    for (const [resolver, domain, error] of cases) {
      const r = await resolve({ domain, resolver_address: at[resolver]!.toRawString() });
      expect(r, resolver).toMatchObject({ status: 502, body: { ok: false, code: 502, error } });
    }
    const malformed = await resolve({ domain: 'x', resolver_address: at.malformed!.toRawString() });
    expect(malformed.status).toBe(502);
    expect(malformed.body.error).toMatch(/^DNS resolution: malformed DNS record: /);
    // without resolver_address the root is config param 4's: mainnet's root, which this chain does not hold
    const root = await resolve({ domain: 'foundation.ton' });
    expect(root.status).toBe(502);
    expect(root.body.error).toMatch(/^DNS resolution: /);
  });
});
