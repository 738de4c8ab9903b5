/**
 * The jetton, NFT and /metadata routes over HTTP (v3.md §2.2, §2.3, §2.4, §5): every documented 422 with its
 * exact text before the source is asked, the parameters the surface hands to the source, and every route with
 * valid parameters on a real local chain answering bodies the openapi accepts.
 */
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genesisTokens } from '../../../src/sources/localnet/chain/genesis.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { assertResponse } from '../../helpers/openapi.js';
import { recordingApi, request, startV3Server, throwingApi, type Call, type V3Server } from './v3-harness.js';

const A = new Address(0, Buffer.alloc(32, 0x11));
const B = new Address(0, Buffer.alloc(32, 0x22));
const RA = rawUpper(A);
const RB = rawUpper(B);

const conv = (name: string, index?: number) =>
  index === undefined
    ? `failed to decode: schema: error converting value for "${name}"`
    : `failed to decode: schema: error converting value for index ${index} of "${name}"`;

const CASES: Array<[string, string, string]> = [
  // /jetton/masters
  ['masters bad address', '/jetton/masters?address=nope', conv('address', 0)],
  ['masters bad admin_address', `/jetton/masters?admin_address=${RA}&admin_address=x`, conv('admin_address', 1)],
  ['masters limit', '/jetton/masters?limit=1001', 'limit is not allowed: 1001 > 1000'],
  ['masters limit text', '/jetton/masters?limit=ten', conv('limit')],
  // /jetton/wallets
  ['wallets two jettons, no owner', `/jetton/wallets?jetton_address=${RA}&jetton_address=${RB}`, 'exact one owner_address required for multiple jetton_address'],
  ['wallets two jettons, two owners', `/jetton/wallets?jetton_address=${RA}&jetton_address=${RB}&owner_address=${RA}&owner_address=${RB}`, 'exact one owner_address required for multiple jetton_address'],
  ['wallets owner rule before limit', `/jetton/wallets?jetton_address=${RA}&jetton_address=${RB}&limit=5000`, 'exact one owner_address required for multiple jetton_address'],
  ['wallets bad exclude_zero_balance', '/jetton/wallets?exclude_zero_balance=maybe', conv('exclude_zero_balance')],
  ['wallets bad owner', '/jetton/wallets?owner_address=0:zz', conv('owner_address', 0)],
  ['wallets sort', '/jetton/wallets?sort=up', 'wrong value for sort parameter'],
  ['wallets limit before sort', '/jetton/wallets?sort=up&limit=2000', 'limit is not allowed: 2000 > 1000'],
  // /jetton/transfers
  ['transfers bad owner', '/jetton/transfers?owner_address=x', conv('owner_address', 0)],
  ['transfers bad jetton_master', '/jetton/transfers?jetton_master=x', conv('jetton_master')],
  ['transfers bad jetton_wallet', '/jetton/transfers?jetton_wallet=x', conv('jetton_wallet', 0)],
  ['transfers bad start_utime', '/jetton/transfers?start_utime=-1', conv('start_utime')],
  ['transfers bad end_lt', '/jetton/transfers?end_lt=abc', conv('end_lt')],
  ['transfers sort', '/jetton/transfers?sort=newest', 'wrong value for sort parameter'],
  ['transfers limit', '/jetton/transfers?limit=1001', 'limit is not allowed: 1001 > 1000'],
  // /jetton/burns
  ['burns bad owner', '/jetton/burns?owner_address=x', conv('owner_address', 0)],
  ['burns bad jetton_master', '/jetton/burns?jetton_master=1', conv('jetton_master')],
  ['burns sort', '/jetton/burns?sort=x', 'wrong value for sort parameter'],
  ['burns limit', '/jetton/burns?limit=1001', 'limit is not allowed: 1001 > 1000'],
  // /nft/collections
  ['collections bad address', '/nft/collections?collection_address=x', conv('collection_address', 0)],
  ['collections limit', '/nft/collections?limit=1001', 'limit is not allowed: 1001 > 1000'],
  // /nft/items
  ['items two collections, no owner', `/nft/items?collection_address=${RA}&collection_address=${RB}`, 'exact one owner_address required for multiple collection_address'],
  ['items index not digits', `/nft/items?collection_address=${RA}&index=1a`, 'index should contain digits only'],
  ['items negative index', `/nft/items?collection_address=${RA}&index=-1`, 'index should contain digits only'],
  ['items second index bad', `/nft/items?collection_address=${RA}&index=1&index=2.5`, 'index should contain digits only'],
  ['items index without collection', '/nft/items?index=1', 'index parameter is not allowed without the collection_address'],
  ['items digits checked before the collection rule', '/nft/items?index=x', 'index should contain digits only'],
  ['items bad include_on_sale', '/nft/items?include_on_sale=2', conv('include_on_sale')],
  ['items bad sort_by_last_transaction_lt', '/nft/items?sort_by_last_transaction_lt=yes', conv('sort_by_last_transaction_lt')],
  ['items limit', '/nft/items?limit=1001', 'limit is not allowed: 1001 > 1000'],
  // /nft/transfers
  ['nft transfers bad item', '/nft/transfers?item_address=x', conv('item_address', 0)],
  ['nft transfers bad collection', '/nft/transfers?collection_address=x', conv('collection_address')],
  ['nft transfers bad end_utime', '/nft/transfers?end_utime=later', conv('end_utime')],
  ['nft transfers sort', '/nft/transfers?sort=z', 'wrong value for sort parameter'],
  ['nft transfers limit', '/nft/transfers?limit=1001', 'limit is not allowed: 1001 > 1000'],
  // /metadata
  ['metadata without address', '/metadata', 'at least 1 address required'],
  ['metadata empty address', '/metadata?address=', 'at least 1 address required'],
];

describe('token routes: 422s before the source', () => {
  let server: V3Server;
  const calls: Call[] = [];
  beforeAll(async () => {
    server = await startV3Server(throwingApi(calls));
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(CASES)('%s', async (_label, path, error) => {
    const r = await request(`${server.url}/api/v3`, path);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ code: 422, error });
    expect(calls).toEqual([]);
  });
});

describe('token routes: what the source is asked', () => {
  let server: V3Server;
  const calls: Call[] = [];
  beforeAll(async () => {
    server = await startV3Server(recordingApi(calls));
  });
  afterAll(async () => {
    await server?.close();
  });

  const last = async (path: string): Promise<Call> => {
    calls.length = 0;
    const r = await request(`${server.url}/api/v3`, path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(calls).toHaveLength(1);
    return calls[0]!;
  };
  const raws = (v: unknown) => (v as Address[]).map(rawUpper);

  it('defaults: limit 100, offset 0, no sort', async () => {
    const c = await last('/jetton/masters');
    expect(c).toEqual({ method: 'jettonMasters', params: { limit: 100, offset: 0 } });
    expect((await last('/jetton/wallets')).params).toEqual({ limit: 100, offset: 0 });
    expect((await last('/nft/items')).params).toEqual({ limit: 100, offset: 0 });
  });

  it('jetton/wallets: lists, the flag, sort normalised; one jetton with several owners is fine', async () => {
    const c = await last(`/jetton/wallets?owner_address=${A.toString()}&jetton_address=${RB}&jetton_address=${RA}&exclude_zero_balance=true&sort=D&limit=0&offset=-3`);
    const p = c.params as Record<string, unknown>;
    expect(raws(p.ownerAddress)).toEqual([RA]);
    expect(raws(p.jettonAddress)).toEqual([RB, RA]);
    expect(p).toMatchObject({ excludeZeroBalance: true, sort: 'desc', limit: 1, offset: 0 });
    expect((await last(`/jetton/wallets?jetton_address=${RA}&owner_address=${RA}&owner_address=${RB}`)).method).toBe('jettonWallets');
  });

  it('transfers: the legacy address stands for owner_address, direction both is none', async () => {
    let p = (await last(`/jetton/transfers?address=${RA}&direction=both`)).params as Record<string, unknown>;
    expect(raws(p.ownerAddress)).toEqual([RA]);
    expect(p.direction).toBeUndefined();
    // owner_address wins over address; an unreadable legacy address is ignored
    p = (await last(`/jetton/transfers?owner_address=${RB}&address=${RA}&direction=in`)).params as Record<string, unknown>;
    expect(raws(p.ownerAddress)).toEqual([RB]);
    expect(p.direction).toBe('in');
    p = (await last('/jetton/transfers?address=garbage')).params as Record<string, unknown>;
    expect(p.ownerAddress).toBeUndefined();
    p = (await last(`/jetton/burns?address=${RA}&jetton_master=${RB}&start_lt=5&end_utime=9&sort=a`)).params as Record<string, unknown>;
    expect(raws(p.ownerAddress)).toEqual([RA]);
    expect(rawUpper(p.jettonMaster as Address)).toBe(RB);
    expect(p).toMatchObject({ startLt: 5n, endUtime: 9, sort: 'asc' });
    p = (await last(`/nft/transfers?address=${RA}&direction=out&collection_address=${RB}`)).params as Record<string, unknown>;
    expect(raws(p.ownerAddress)).toEqual([RA]);
    expect(p.direction).toBe('out');
  });

  it('nft/items: index strings with their collection, flags', async () => {
    const p = (await last(`/nft/items?collection_address=${RA}&index=0&index=17&include_on_sale=1&sort_by_last_transaction_lt=true`)).params as Record<string, unknown>;
    expect(p).toMatchObject({ index: ['0', '17'], includeOnSale: true, sortByLastTransactionLt: true });
    expect(raws(p.collectionAddress)).toEqual([RA]);
  });

  it('metadata: the caller strings, unparsed', async () => {
    expect((await last(`/metadata?address=${RA}&address=junk`)).params).toEqual({ address: [RA, 'junk'] });
  });
});

describe('token routes on the local chain', () => {
  let chain: LocalChain;
  let server: V3Server;
  let tokens: ReturnType<typeof genesisTokens>;
  let alice: Address;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'v3-tokens-rest', blockInterval: 0 });
    server = await startV3Server(localV3Api(chain));
    tokens = genesisTokens(chain.keyedWallets());
    alice = chain.keyedWallets()[0]!.contract.address;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await chain?.close();
  });

  async function get<T = Record<string, unknown>>(path: string, query = ''): Promise<T> {
    const r = await request(`${server.url}/api/v3`, path + (query ? `?${query}` : ''));
    expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
    return assertResponse(`/api/v3${path}`, 'get', 200, r.body as T, { closed: true });
  }
  const len = (body: Record<string, unknown>, key: string) => (body[key] as unknown[]).length;

  it('every route answers a valid body, with and without filters', async () => {
    const master = tokens.jettonMaster.toString();
    const item0 = rawUpper(tokens.nftItems[0]!);
    expect(len(await get('/jetton/masters'), 'jetton_masters')).toBe(1);
    expect(len(await get('/jetton/masters', `address=${master}&admin_address=${rawUpper(alice)}&limit=5`), 'jetton_masters')).toBe(1);
    expect(len(await get('/jetton/wallets'), 'jetton_wallets')).toBe(3);
    expect(len(await get('/jetton/wallets', `jetton_address=${master}&exclude_zero_balance=1&sort=desc`), 'jetton_wallets')).toBe(3);
    expect(len(await get('/jetton/wallets', `owner_address=${rawUpper(alice)}`), 'jetton_wallets')).toBe(1);
    expect(len(await get('/jetton/transfers'), 'jetton_transfers')).toBe(1);
    expect(len(await get('/jetton/transfers', `owner_address=${rawUpper(alice)}&direction=out&jetton_master=${master}&sort=asc&start_utime=0`), 'jetton_transfers')).toBe(1);
    expect(len(await get('/jetton/burns'), 'jetton_burns')).toBe(1);
    expect(len(await get('/jetton/burns', `jetton_master=${master}&end_lt=1`), 'jetton_burns')).toBe(0);
    // the art collection and the DNS collection of the genesis auction
    expect(len(await get('/nft/collections'), 'nft_collections')).toBe(2);
    expect(len(await get('/nft/items', `collection_address=${rawUpper(tokens.nftCollection)}&index=0&index=2`), 'nft_items')).toBe(2);
    expect(len(await get('/nft/items', `owner_address=${rawUpper(alice)}`), 'nft_items')).toBe(0);
    expect(len(await get('/nft/transfers', `item_address=${item0}&direction=both`), 'nft_transfers')).toBe(1);
    const md = await get('/metadata', `address=${master}&address=${item0}&address=${rawUpper(alice)}`);
    expect(Object.keys(md).sort()).toEqual([rawUpper(tokens.jettonMaster), item0].sort());
  });

  it('X-No-Address-Book and X-No-Metadata empty both maps', async () => {
    const r = await request(`${server.url}/api/v3`, '/jetton/wallets', { headers: { 'x-no-address-book': '1', 'x-no-metadata': 'true' } });
    expect(r.status).toBe(200);
    const body = r.body as { jetton_wallets: unknown[]; address_book: object; metadata: object };
    expect(body.jetton_wallets).toHaveLength(3);
    expect(body.address_book).toEqual({});
    expect(body.metadata).toEqual({});
  });
});
