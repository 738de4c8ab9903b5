/**
 * Parameter passing on /api/v3: what reaches the data source for valid input (repeated params, defaults,
 * sort, windows, converters), and how the source's answers and errors come back over HTTP.
 */
import { Address, beginCell } from '@ton/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { recordingApi, request, startV3Server, type Call, type V3Server } from './v3-harness.js';

const A = new Address(0, Buffer.alloc(32, 0x11));
const B = new Address(-1, Buffer.alloc(32, 0xab));
const H = Buffer.alloc(32, 7);
const BOC = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc();

describe('v3 parameter passing over HTTP', () => {
  let server: V3Server;
  const calls: Call[] = [];
  let answer: (method: string, params: unknown) => unknown = () => ({ ok: 'answer' });

  beforeAll(async () => {
    server = await startV3Server(recordingApi(calls, (m, p) => answer(m, p)));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    calls.length = 0;
    answer = () => ({ ok: 'answer' });
  });

  /** Calls one route and returns the single params object the source received. */
  async function passed(path: string, init?: { method?: string; body?: string; headers?: Record<string, string> }) {
    const r = await request(`${server.url}/api/v3`, path, init);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(calls).toHaveLength(1);
    return calls[0]!;
  }

  it('masterchainInfo takes no params and answers the source object as is', async () => {
    answer = () => ({ first: { seqno: 1 }, last: { seqno: 9 } });
    const r = await request(`${server.url}/api/v3`, '/masterchainInfo?unknown=1', { headers: { 'x-lenient-params': '1' } });
    expect(r).toMatchObject({ status: 200, body: { first: { seqno: 1 }, last: { seqno: 9 } } });
    expect(r.contentType).toMatch(/^application\/json/);
    expect(calls).toEqual([{ method: 'masterchainInfo', params: undefined }]);
  });

  it('blocks: defaults are limit 100, offset 0 and no sort', async () => {
    expect(await passed('/blocks')).toEqual({ method: 'blocks', params: { limit: 100, offset: 0 } });
  });

  it('blocks: every filter, parsed', async () => {
    const q = [
      'workchain=-1',
      'shard=8000000000000000',
      'seqno=42',
      `root_hash=${H.toString('hex')}`,
      `file_hash=0x${H.toString('hex').toUpperCase()}`,
      'mc_seqno=7',
      'start_utime=1700000000.9',
      'end_utime=1700000100',
      'start_lt=1000',
      'end_lt=18446744073709551615',
      'limit=5',
      'offset=10',
      'sort=A',
      'ignored=yes',
    ].join('&');
    // a name it does not read is ignored, as toncenter ignores it, when the request asks for leniency
    expect((await passed(`/blocks?${q}`, { headers: { 'x-lenient-params': '1' } })).params).toEqual({
      workchain: -1,
      shard: 0x8000000000000000n,
      seqno: 42,
      rootHash: H,
      fileHash: H,
      mcSeqno: 7,
      startUtime: 1700000000,
      endUtime: 1700000100,
      startLt: 1000n,
      endLt: 18446744073709551615n,
      limit: 5,
      offset: 10,
      sort: 'asc',
    });
  });

  it.each([
    ['8000000000000000', 0x8000000000000000n],
    ['0x8000000000000000', 0x8000000000000000n],
    ['-9223372036854775808', 0x8000000000000000n],
    ['-1', 0xffffffffffffffffn],
    // hex is tried first, as the reference does
    ['10', 0x10n],
  ])('shard %s → %s', async (raw, want) => {
    expect((await passed(`/blocks?shard=${encodeURIComponent(raw)}`)).params).toMatchObject({ shard: want });
  });

  it.each([
    ['0', 1],
    ['-5', 1],
    ['1000', 1000],
  ])('limit %s is passed as %s', async (raw, want) => {
    expect((await passed(`/transactions?limit=${raw}`)).params).toMatchObject({ limit: want });
  });

  it('negative offset becomes 0; sort is case-insensitive', async () => {
    expect((await passed('/transactions?offset=-3&sort=DESC')).params).toMatchObject({ offset: 0, sort: 'desc' });
    calls.length = 0;
    expect((await passed('/transactions?sort=d')).params).toMatchObject({ sort: 'desc' });
    calls.length = 0;
    expect((await passed('/transactions?sort=Asc')).params).toMatchObject({ sort: 'asc' });
  });

  it('transactions: repeated account and hash, every address and hash form', async () => {
    const q = [
      `account=${encodeURIComponent(A.toString())}`,
      `account=${encodeURIComponent(B.toString({ urlSafe: false, bounceable: false }))}`,
      `account=${A.toRawString().toLowerCase()}`,
      `account=-1:${B.hash.toString('hex').toUpperCase()}`,
      `exclude_account=${B.toString({ testOnly: true })}`,
      `hash=${H.toString('base64url')}`,
      `hash=${encodeURIComponent(H.toString('base64'))}`,
      `hash=${H.toString('hex')}`,
      'lt=123456789012345',
      'mc_seqno=3',
      'start_utime=10&end_utime=20&start_lt=30&end_lt=40',
    ].join('&');
    const { method, params } = await passed(`/transactions?${q}`);
    expect(method).toBe('transactions');
    const p = params as Record<string, unknown>;
    expect((p.account as Address[]).map((a) => a.toRawString())).toEqual([A, B, A, B].map((a) => a.toRawString()));
    expect((p.excludeAccount as Address[]).map((a) => a.toRawString())).toEqual([B.toRawString()]);
    expect(p.hash).toEqual([H, H, H]);
    expect(p).toMatchObject({ lt: 123456789012345n, mcSeqno: 3, startUtime: 10, endUtime: 20, startLt: 30n, endLt: 40n, limit: 100, offset: 0 });
    // paging reaches the seam resolved: the descriptor's default sort, as for limit and offset
    expect(p.sort).toBe('desc');
  });

  it('keys match case-insensitively and `key[]` is `key`, as in the reference', async () => {
    const p = (await passed(`/transactions?Account[]=${A.toRawString()}&account=${B.toRawString()}&LIMIT=7&Sort=asc`)).params as Record<string, unknown>;
    expect((p.account as Address[]).map(String)).toEqual([A, B].map(String));
    expect(p).toMatchObject({ limit: 7, sort: 'asc' });
  });

  it('transactions: X-No-Address-Book header and x_no_metadata query reach the source', async () => {
    const c = await passed('/transactions?x_no_metadata=true', { headers: { 'X-No-Address-Book': '1' } });
    expect(c.params).toMatchObject({ noAddressBook: true, noMetadata: true });
    calls.length = 0;
    // unreadable switches are ignored, as in the reference
    expect((await passed('/transactions?x_no_address_book=maybe')).params).not.toHaveProperty('noAddressBook');
  });

  it('transactionsByMasterchainBlock / masterchainBlockShards / masterchainBlockShardState', async () => {
    expect(await passed('/transactionsByMasterchainBlock?seqno=5&sort=asc&limit=3&offset=1')).toEqual({
      method: 'transactionsByMasterchainBlock',
      params: { seqno: 5, limit: 3, offset: 1, sort: 'asc' },
    });
    calls.length = 0;
    expect(await passed('/masterchainBlockShards?seqno=5')).toEqual({
      method: 'masterchainBlockShards',
      params: { seqno: 5, limit: 100, offset: 0 },
    });
    calls.length = 0;
    expect(await passed('/masterchainBlockShardState?seqno=0')).toEqual({ method: 'masterchainBlockShardState', params: { seqno: 0 } });
  });

  it.each([
    ['0x0f8a7ea5', 0x0f8a7ea5],
    ['0X0F8A7EA5', 0x0f8a7ea5],
    ['0f8a7ea5', 0x0f8a7ea5],
    // bare hex is tried before decimal (v3.md §1.2)
    ['10', 16],
    ['-1', -1],
    ['0xffffffff', -1],
    ['-2147483648', -2147483648],
  ])('transactionsByMessage opcode %s → %s', async (raw, want) => {
    expect((await passed(`/transactionsByMessage?opcode=${raw}`)).params).toEqual({ opcode: want, limit: 100, offset: 0 });
  });

  it('transactionsByMessage: repeated msg_hash, body_hash, direction', async () => {
    const h2 = Buffer.alloc(32, 9);
    const c = await passed(`/transactionsByMessage?msg_hash=${H.toString('hex')}&msg_hash=${h2.toString('base64url')}&body_hash=${h2.toString('hex')}&direction=out&limit=2`);
    expect(c).toEqual({ method: 'transactionsByMessage', params: { msgHash: [H, h2], bodyHash: h2, direction: 'out', limit: 2, offset: 0 } });
  });

  it('adjacentTransactions: hash and optional direction', async () => {
    expect(await passed(`/adjacentTransactions?hash=${H.toString('base64url')}`)).toEqual({ method: 'adjacentTransactions', params: { hash: H } });
    calls.length = 0;
    expect((await passed(`/adjacentTransactions?hash=${H.toString('hex')}&direction=in`)).params).toEqual({ hash: H, direction: 'in' });
  });

  it('messages: null source/destination, legacy hash, flags', async () => {
    const p1 = (await passed(`/messages?source=null&destination=${A.toRawString()}&hash=${H.toString('hex')}&exclude_externals=true&only_externals=F&direction=in&start_lt=1&sort=asc`)).params as Record<string, unknown>;
    expect(p1.source).toBeNull();
    expect((p1.destination as Address).equals(A)).toBe(true);
    expect(p1).toMatchObject({ msgHash: [H], excludeExternals: true, onlyExternals: false, direction: 'in', startLt: 1n, sort: 'asc', limit: 100, offset: 0 });
    calls.length = 0;
    // the legacy hash[] repeats, and only msgHash reaches the source
    const h2 = Buffer.alloc(32, 2);
    const p2 = (await passed(`/messages?destination=null&hash=${h2.toString('hex')}&hash=${H.toString('hex')}`)).params as Record<string, unknown>;
    expect(p2).toMatchObject({ msgHash: [h2, H], destination: null });
    expect(p2).not.toHaveProperty('source');
    expect(p2).not.toHaveProperty('legacyHash');
  });

  it('accountStates: include_boc defaults to true; code_hash repeats', async () => {
    const p = (await passed(`/accountStates?address=${A.toString()}&address=${B.toRawString()}`)).params as Record<string, unknown>;
    expect((p.address as Address[]).map(String)).toEqual([A, B].map(String));
    expect(p.includeBoc).toBe(true);
    calls.length = 0;
    const p2 = (await passed(`/accountStates?address=${A.toString()}&include_boc=false&code_hash=${H.toString('hex')}&code_hash=${H.toString('base64url')}`)).params;
    expect(p2).toMatchObject({ includeBoc: false, codeHash: [H, H] });
  });

  it('walletStates: repeated address', async () => {
    const p = (await passed(`/walletStates?address=${A.toString()}&address=${B.toString()}`)).params as { address: Address[] };
    expect(p.address.map(String)).toEqual([A, B].map(String));
  });

  it('addressBook: the caller strings, unparsed (bad ones included)', async () => {
    answer = () => ({ x: { user_friendly: null, domain: null, interfaces: [] } });
    const r = await request(`${server.url}/api/v3`, `/addressBook?address=${A.toRawString()}&address=x`);
    expect(r).toMatchObject({ status: 200, body: { x: { user_friendly: null } } });
    expect(calls).toEqual([{ method: 'addressBook', params: { address: [A.toRawString(), 'x'] } }]);
  });

  it('topAccountsByBalance: paging only; the bare array comes back', async () => {
    answer = () => [{ account: A.toRawString(), balance: '5' }];
    const r = await request(`${server.url}/api/v3`, '/topAccountsByBalance?limit=2&offset=4&sort=asc', { headers: { 'x-lenient-params': '1' } });
    expect(r).toMatchObject({ status: 200, body: [{ account: A.toRawString(), balance: '5' }] });
    expect(calls).toEqual([{ method: 'topAccountsByBalance', params: { limit: 2, offset: 4 } }]);
  });

  it.each(['/addressInformation', '/account'])('%s: address and use_v2 (default false)', async (path) => {
    const p = (await passed(`${path}?address=${A.toString({ urlSafe: false })}`)) as { method: string; params: { address: Address; useV2: boolean } };
    expect(p.method).toBe('addressInformation');
    expect(p.params.address.equals(A)).toBe(true);
    expect(p.params.useV2).toBe(false);
    calls.length = 0;
    expect((await passed(`${path}?address=${A.toString()}&use_v2=1`)).params).toMatchObject({ useV2: true });
  });

  it.each(['/walletInformation', '/wallet'])('%s reaches walletInformation', async (path) => {
    const p = await passed(`${path}?address=${A.toString()}`);
    expect(p.method).toBe('walletInformation');
    expect(p.params).toMatchObject({ useV2: false });
  });

  it('POST message: the BoC bytes', async () => {
    const p = await passed('/message', { method: 'POST', body: JSON.stringify({ boc: BOC.toString('base64'), extra: 1 }), headers: { 'x-lenient-params': '1' } });
    expect(p).toEqual({ method: 'message', params: { boc: BOC } });
  });

  it('POST runGetMethod: typed stack in, numbers as bigint', async () => {
    const body = {
      address: A.toString(),
      method: 'get_wallet_address',
      stack: [
        { type: 'num', value: '0x10' },
        { type: 'num', value: -5 },
        { type: 'num', value: '-0x10' },
        { type: 'num', value: '123456789012345678901234567890' },
        { type: 'cell', value: BOC.toString('base64') },
        { type: 'slice', value: BOC.toString('base64url') },
      ],
    };
    const { method, params } = await passed('/runGetMethod', { method: 'POST', body: JSON.stringify(body) });
    expect(method).toBe('runGetMethod');
    const p = params as { address: Address; method: string; stack: unknown[] };
    expect(p.address.equals(A)).toBe(true);
    expect(p.method).toBe('get_wallet_address');
    expect(p.stack).toEqual([
      { type: 'int', value: 16n },
      { type: 'int', value: -5n },
      { type: 'int', value: -16n },
      { type: 'int', value: 123456789012345678901234567890n },
      { type: 'cell', boc: BOC },
      { type: 'slice', boc: BOC },
    ]);
  });

  it('POST runGetMethod: stack may be absent', async () => {
    const p = await passed('/runGetMethod', { method: 'POST', body: JSON.stringify({ address: A.toRawString(), method: 'seqno' }) });
    expect(p.params).toMatchObject({ method: 'seqno', stack: [] });
  });

  it('POST estimateFee: BoCs as bytes, ignore_chksig', async () => {
    const b64 = BOC.toString('base64');
    const p = await passed('/estimateFee', {
      method: 'POST',
      body: JSON.stringify({ address: A.toString(), body: b64, init_code: b64, init_data: '', ignore_chksig: true }),
    });
    expect(p.method).toBe('estimateFee');
    expect(p.params).toMatchObject({ body: BOC, initCode: BOC, ignoreChksig: true });
    expect(p.params).not.toHaveProperty('initData');
  });

  it('an ApiError from the source keeps its status and text', async () => {
    answer = () => {
      throw new ApiError(404, 'blocks not found');
    };
    const r = await request(`${server.url}/api/v3`, '/masterchainBlockShards?seqno=99999');
    expect(r).toMatchObject({ status: 404, body: { code: 404, error: 'blocks not found' } });
    answer = () => {
      throw new ApiError(409, 'not a wallet');
    };
    const r2 = await request(`${server.url}/api/v3`, `/walletInformation?address=${A.toString()}`);
    expect(r2).toMatchObject({ status: 409, body: { code: 409, error: 'not a wallet' } });
  });

  it('a source crash is a 500 worded like the reference', async () => {
    answer = () => {
      throw new Error('boom');
    };
    const r = await request(`${server.url}/api/v3`, '/masterchainInfo');
    expect(r).toMatchObject({ status: 500, body: { code: 500, error: 'internal server error: boom' } });
  });

  it('the descriptors list each route once, with its params', () => {
    const keys = V3_DESCRIPTORS.map((r) => `${r.methods[0]} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(
      [
        'GET /masterchainInfo',
        'GET /blocks',
        'GET /masterchainBlockShards',
        'GET /masterchainBlockShardState',
        'GET /transactions',
        'GET /transactionsByMasterchainBlock',
        'GET /transactionsByMessage',
        'GET /adjacentTransactions',
        'GET /messages',
        'GET /accountStates',
        'GET /walletStates',
        'GET /addressBook',
        'GET /topAccountsByBalance',
        'GET /addressInformation',
        'GET /walletInformation',
        'POST /message',
        'POST /runGetMethod',
        'POST /estimateFee',
        // part 2
        'GET /pendingTransactions',
        'GET /metadata',
        'GET /jetton/masters',
        'GET /jetton/wallets',
        'GET /jetton/transfers',
        'GET /jetton/burns',
        'GET /nft/collections',
        'GET /nft/items',
        'GET /nft/transfers',
        'GET /traces',
        'GET /events',
        'GET /actions',
        'GET /pendingTraces',
        'GET /pendingActions',
        'GET /balanceChanges',
        // branch-only (V3_BRANCH_FEATURES=acton)
        'GET /acton/contracts',
        'POST /acton/decode',
        'POST /acton/runGetMethod',
        'GET /decode',
        'POST /decode',
        'GET /dns/records',
        'GET /multisig/wallets',
        'GET /multisig/orders',
        'GET /vesting',
        // new in 1.2.6
        'GET /dns/activeAuctions',
        'GET /nft/sales',
        'GET /staking/nominatorPools/pool',
        'GET /staking/nominatorPools/nominator',
        'GET /staking/nominatorPools/nominatorEvents',
        'GET /staking/nominatorPools/nominatorRewards',
        'GET /staking/nominatorPools/validatorEvents',
        'GET /staking/nominatorPools/validatorRewards',
        'GET /validators/events',
        'GET /validators/elections',
        'GET /validators/cycles',
        'GET /validators/complaints',
      ].sort(),
    );
    const tx = V3_DESCRIPTORS.find((r) => r.path === '/transactions')!;
    expect(tx.params.account).toMatchObject({ in: 'query', kind: 'AccountAddress', list: true });
    expect(tx.params.lt).toMatchObject({ kind: 'uint64', list: false, required: false });
    expect(V3_DESCRIPTORS.find((r) => r.path === '/accountStates')!.params.address).toMatchObject({ kind: 'AccountAddress', list: true, required: true });
    expect(V3_DESCRIPTORS.find((r) => r.path === '/addressInformation')!.aliases).toEqual(['/account']);
  });
});
