/**
 * The DNS, multisig and vesting routes over HTTP (v3.md §2.5, §5): every documented 422 with its exact text
 * before the source is asked, the defaults the surface hands to the source, and every route with valid
 * parameters on a real local chain (which deploys none of these contracts) answering empty bodies the openapi
 * accepts.
 */
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { assertResponse } from '../../helpers/openapi.js';
import { recordingApi, request, startV3Server, throwingApi, type Call, type V3Server } from './v3-harness.js';

const A = rawUpper(new Address(0, Buffer.alloc(32, 0x11)));
const B = rawUpper(new Address(0, Buffer.alloc(32, 0x22)));

const conv = (name: string, index?: number) =>
  index === undefined
    ? `failed to decode: schema: error converting value for "${name}"`
    : `failed to decode: schema: error converting value for index ${index} of "${name}"`;

const CASES: Array<[string, string, string]> = [
  ['dns nothing given', '/dns/records', 'either wallet address or domain is required'],
  ['dns empty domain is nothing', '/dns/records?domain=', 'either wallet address or domain is required'],
  ['dns both given', `/dns/records?wallet=${A}&domain=foo.ton`, 'provide either wallet address or domain, not both'],
  ['dns bad wallet', '/dns/records?wallet=nope', conv('wallet')],
  ['dns limit', '/dns/records?domain=foo.ton&limit=1001', 'limit is not allowed: 1001 > 1000'],
  ['dns rule before limit', '/dns/records?limit=5000', 'either wallet address or domain is required'],
  ['multisig wallets nothing given', '/multisig/wallets', 'At least one of address or wallet_address should be specified'],
  ['multisig wallets only flags', '/multisig/wallets?include_orders=false&limit=5', 'At least one of address or wallet_address should be specified'],
  ['multisig wallets bad address', '/multisig/wallets?address=x', conv('address', 0)],
  ['multisig wallets bad include_orders', `/multisig/wallets?address=${A}&include_orders=no`, conv('include_orders')],
  ['multisig wallets sort', `/multisig/wallets?address=${A}&sort=up`, 'wrong value for sort parameter'],
  ['multisig wallets limit', `/multisig/wallets?wallet_address=${A}&limit=1001`, 'limit is not allowed: 1001 > 1000'],
  ['multisig orders nothing given', '/multisig/orders', 'At least one of address or multisig_address should be specified'],
  ['multisig orders bad multisig_address', `/multisig/orders?multisig_address=${A}&multisig_address=bad`, conv('multisig_address', 1)],
  ['multisig orders bad parse_actions', `/multisig/orders?address=${A}&parse_actions=x`, conv('parse_actions')],
  ['multisig orders sort', `/multisig/orders?address=${A}&sort=x`, 'wrong value for sort parameter'],
  ['multisig orders limit', `/multisig/orders?address=${A}&limit=1001`, 'limit is not allowed: 1001 > 1000'],
  ['vesting nothing given', '/vesting', 'at least one of contract_address or wallet_address is required'],
  ['vesting both given', `/vesting?contract_address=${A}&wallet_address=${B}`, 'only one of contract_address or wallet_address should be specified'],
  ['vesting bad contract_address', '/vesting?contract_address=x', conv('contract_address', 0)],
  ['vesting bad check_whitelist', `/vesting?wallet_address=${A}&check_whitelist=2`, conv('check_whitelist')],
  ['vesting limit', `/vesting?wallet_address=${A}&limit=1001`, 'limit is not allowed: 1001 > 1000'],
];

describe('dns, multisig and vesting routes: 422s before the source', () => {
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

describe('dns, multisig and vesting routes: what the source is asked', () => {
  let server: V3Server;
  const calls: Call[] = [];
  beforeAll(async () => {
    server = await startV3Server(recordingApi(calls));
  });
  afterAll(async () => {
    await server?.close();
  });

  const params = async (path: string): Promise<Record<string, unknown>> => {
    calls.length = 0;
    const r = await request(`${server.url}/api/v3`, path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(calls).toHaveLength(1);
    return calls[0]!.params as Record<string, unknown>;
  };

  it('defaults: include_orders true, parse_actions false, check_whitelist false', async () => {
    expect(await params(`/multisig/wallets?address=${A}`)).toMatchObject({ includeOrders: true, limit: 100, offset: 0 });
    expect(await params(`/multisig/orders?multisig_address=${A}`)).toMatchObject({ parseActions: false, limit: 100, offset: 0 });
    expect(await params(`/vesting?wallet_address=${A}`)).toMatchObject({ checkWhitelist: false, limit: 100, offset: 0 });
    expect(await params('/dns/records?domain=alice.ton')).toEqual({ domain: 'alice.ton', limit: 100, offset: 0 });
  });

  it('given values pass through, sort normalised', async () => {
    const p = await params(`/multisig/wallets?wallet_address=${A}&include_orders=false&sort=A&offset=2`);
    expect(p).toMatchObject({ includeOrders: false, sort: 'asc', offset: 2 });
    expect((p.walletAddress as Address[]).map(rawUpper)).toEqual([A]);
    expect(await params(`/multisig/orders?address=${A}&parse_actions=true`)).toMatchObject({ parseActions: true });
    const v = await params(`/vesting?wallet_address=${A}&wallet_address=${B}&check_whitelist=t`);
    expect((v.walletAddress as Address[]).map(rawUpper)).toEqual([A, B]);
    expect(v.checkWhitelist).toBe(true);
    const d = await params(`/dns/records?wallet=${A}`);
    expect(rawUpper(d.wallet as Address)).toBe(A);
  });
});

describe('dns, multisig and vesting routes on the local chain', () => {
  let chain: LocalChain;
  let server: V3Server;
  let alice: string;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'v3-other-rest', blockInterval: 0 });
    server = await startV3Server(localV3Api(chain));
    alice = rawUpper(chain.keyedWallets()[0]!.contract.address);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await chain?.close();
  });

  async function get(path: string, query: string): Promise<Record<string, unknown>> {
    const r = await request(`${server.url}/api/v3`, `${path}?${query}`);
    expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
    return assertResponse(`/api/v3${path}`, 'get', 200, r.body as Record<string, unknown>, { closed: true });
  }

  it('the chain holds none of these contracts: empty, valid answers', async () => {
    expect(await get('/dns/records', `wallet=${alice}`)).toEqual({ records: [], address_book: {} });
    expect(await get('/dns/records', 'domain=alice.ton&limit=10&offset=1')).toEqual({ records: [], address_book: {} });
    expect(await get('/multisig/wallets', `wallet_address=${alice}&include_orders=true&sort=asc`)).toEqual({ multisigs: [], address_book: {} });
    // a genesis wallet is not a multisig: asking for it by address finds nothing
    expect(await get('/multisig/wallets', `address=${alice}`)).toEqual({ multisigs: [], address_book: {} });
    expect(await get('/multisig/orders', `multisig_address=${alice}&parse_actions=1`)).toEqual({ orders: [], address_book: {} });
    expect(await get('/vesting', `contract_address=${alice}`)).toEqual({ vesting_contracts: [], address_book: {} });
    expect(await get('/vesting', `wallet_address=${alice}&check_whitelist=true`)).toEqual({ vesting_contracts: [], address_book: {} });
  });
});
