/**
 * /api/v2 REST + JSON-RPC over real loopback HTTP, with a V2Api double that records calls: parsed params must
 * reach the source as documented, results come back in the envelope, and bad input never reaches the source.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Address, beginCell } from '@ton/core';
import { ApiError } from '../../../src/api/errors.js';
import { V2_ENDPOINTS, type BlockIdExt, type TransactionId, type V2Api } from '../../../src/api/v2.js';
import { registerV2Routes } from '../../../src/surfaces/rest/v2.js';

// ---- a recording V2Api with well-formed canned answers ----

interface Call {
  method: string;
  params: unknown;
}

const BLOCK: BlockIdExt = {
  '@type': 'ton.blockIdExt',
  workchain: -1,
  shard: '-9223372036854775808',
  seqno: 7,
  root_hash: Buffer.alloc(32, 1).toString('base64'),
  file_hash: Buffer.alloc(32, 2).toString('base64'),
};
const TXID: TransactionId = { '@type': 'internal.transactionId', lt: '1000000', hash: Buffer.alloc(32, 3).toString('base64') };

const CANNED: { -readonly [K in keyof V2Api]: Awaited<ReturnType<V2Api[K]>> } = {
  getAddressInformation: {
    '@type': 'raw.fullAccountState',
    balance: '5',
    extra_currencies: [],
    code: '',
    data: '',
    last_transaction_id: TXID,
    block_id: BLOCK,
    frozen_hash: '',
    sync_utime: 1,
    state: 'uninitialized',
  },
  getExtendedAddressInformation: {
    '@type': 'fullAccountState',
    address: { '@type': 'accountAddress', account_address: 'EQ' },
    balance: '5',
    extra_currencies: [],
    last_transaction_id: TXID,
    block_id: BLOCK,
    sync_utime: 1,
    account_state: { '@type': 'uninited.accountState', frozen_hash: '' },
    revision: 0,
  },
  getWalletInformation: {
    '@type': 'ext.accounts.walletInformation',
    wallet: false,
    balance: '5',
    account_state: 'uninitialized',
    last_transaction_id: TXID,
  },
  getAddressBalance: '5',
  getAddressState: 'active',
  getTokenData: {
    '@type': 'ext.tokens.nftItemData',
    contract_type: 'nft_item',
    address: 'EQ',
    init: true,
    index: '0',
    content: {},
  },
  getMasterchainInfo: { '@type': 'blocks.masterchainInfo', last: BLOCK, state_root_hash: BLOCK.root_hash, init: BLOCK },
  getMasterchainBlockSignatures: { '@type': 'blocks.blockSignatures', id: BLOCK, signatures: [] },
  getShardBlockProof: { '@type': 'blocks.shardBlockProof', from: BLOCK, mc_id: BLOCK, links: [], mc_proof: [] },
  getConsensusBlock: { '@type': 'ext.blocks.consensusBlock', consensus_block: 7, timestamp: 1 },
  lookupBlock: BLOCK,
  getShards: { '@type': 'blocks.shards', shards: [BLOCK] },
  getBlockHeader: {
    '@type': 'blocks.header',
    id: BLOCK,
    global_id: -217,
    version: 0,
    flags: 0,
    after_merge: false,
    after_split: false,
    before_split: false,
    want_merge: false,
    want_split: false,
    validator_list_hash_short: 0,
    catchain_seqno: 0,
    min_ref_mc_seqno: 0,
    is_key_block: false,
    prev_key_block_seqno: 0,
    start_lt: '0',
    end_lt: '1',
    gen_utime: 1,
    vert_seqno: 0,
    prev_blocks: [],
  },
  getOutMsgQueueSize: { '@type': 'blocks.outMsgQueueSizes', shards: [], ext_msg_queue_size_limit: 8000 },
  getBlockTransactions: { '@type': 'blocks.transactions', id: BLOCK, req_count: 40, incomplete: false, transactions: [] },
  getBlockTransactionsExt: { '@type': 'blocks.transactionsExt', id: BLOCK, req_count: 40, incomplete: false, transactions: [] },
  getTransactions: [],
  getTransactionsStd: { '@type': 'raw.transactions', transactions: [], previous_transaction_id: TXID },
  tryLocateTx: {
    '@type': 'ext.transaction',
    address: { '@type': 'accountAddress', account_address: 'EQ' },
    account: '0:00',
    utime: 1,
    data: '',
    transaction_id: TXID,
    fee: '0',
    storage_fee: '0',
    other_fee: '0',
    out_msgs: [],
  },
  tryLocateResultTx: undefined as never,
  tryLocateSourceTx: undefined as never,
  sendBoc: { '@type': 'ok' },
  sendBocReturnHash: { '@type': 'raw.extMessageInfo', hash: TXID.hash, hash_norm: TXID.hash },
  estimateFee: {
    '@type': 'query.fees',
    source_fees: { '@type': 'fees', in_fwd_fee: 1, storage_fee: 2, gas_fee: 3, fwd_fee: 4 },
    destination_fees: [],
  },
  runGetMethod: { '@type': 'smc.runResult', gas_used: 1, stack: [['num', '0x1']], exit_code: 0, block_id: BLOCK, last_transaction_id: TXID },
  runGetMethodStd: { '@type': 'smc.runResult', gas_used: 1, stack: [], exit_code: 0 },
  detectAddress: {
    '@type': 'ext.utils.detectedAddress',
    raw_form: '0:00',
    bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: 'EQ', b64url: 'EQ' },
    non_bounceable: { '@type': 'ext.utils.detectedAddressVariant', b64: 'UQ', b64url: 'UQ' },
    given_type: 'raw_form',
    test_only: false,
  },
  detectHash: { '@type': 'ext.utils.detectedHash', b64: '', b64url: '', hex: '' },
  packAddress: 'EQ',
  unpackAddress: '0:00',
  getConfigParam: { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: '' } },
  getConfigAll: { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: '' } },
  getLibraries: { '@type': 'smc.libraryResult', result: [] },
  dnsResolve: { '@type': 'dns.resolved', entries: [] },
};
CANNED.tryLocateResultTx = CANNED.tryLocateTx;
CANNED.tryLocateSourceTx = CANNED.tryLocateTx;

/** Per-test override of one method's behaviour (e.g. throw). */
let override: Partial<Record<keyof V2Api, (p: unknown) => Promise<unknown>>> = {};
const calls: Call[] = [];

const api = new Proxy({} as V2Api, {
  get(_t, method) {
    if (typeof method !== 'string' || method === 'then') return undefined;
    return async (params: unknown) => {
      calls.push({ method, params });
      const o = override[method as keyof V2Api];
      if (o) return o(params);
      return CANNED[method as keyof V2Api];
    };
  },
});

// ---- server and requests ----

let app: FastifyInstance;
let base: string;

/** every route the surface registered, as `METHOD /path` */
const registered: string[] = [];

beforeAll(async () => {
  app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) registered.push(`${m} ${r.url}`);
  });
  registerV2Routes(app, { v2: api });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  override = {};
});

interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

async function http(path: string, init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const body = init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined);
  const res = await fetch(base + path, {
    method: init.method ?? (body !== undefined ? 'POST' : 'GET'),
    body,
    headers: body !== undefined ? { 'content-type': 'application/json', ...init.headers } : init.headers,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // the assertion that follows shows the text
  }
  // toncenter's per-request @extra tag (v2-extra.test.ts) is checked for its form and set aside, so results compare with CANNED
  const result = (parsed as { result?: unknown } | null)?.result;
  if (typeof result === 'object' && result !== null && '@extra' in result) {
    expect(result['@extra']).toMatch(/^\d+\.\d+:0:/);
    delete result['@extra'];
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

const get = (method: string, query: Record<string, string | number | string[]> = {}) => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
  const s = qs.toString();
  return http(`/api/v2/${method}${s ? `?${s}` : ''}`);
};
const post = (method: string, body: unknown) => http(`/api/v2/${method}`, { body });
const rpc = (body: unknown) => http('/api/v2/jsonRPC', { body });

/** Asserts a 422 (or other) error envelope with the exact message, and that the source was not asked. */
function expectError(r: Reply, status: number, error: string, extra: Record<string, unknown> = {}) {
  expect({ status: r.status, body: r.body }).toEqual({ status, body: { ok: false, error, code: status, ...extra } });
  expect(calls).toEqual([]);
}

function lastCall(method: string): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(calls.map((c) => c.method)).toEqual([method]);
  return calls[0]!.params;
}

// ---- fixtures ----

const HASH = Buffer.from('83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8', 'hex');
const ADDR = new Address(0, HASH);
const MC = '-9223372036854775808';
const SEQNO = { workchain: -1, shard: MC, seqno: 7 };

describe('table', () => {
  it('serves the 33 endpoints of the spec list, the hidden sendBocReturnHashNoError, jsonRPC and the aliases, nothing else', async () => {
    const spec = [
      'getAddressInformation', 'getExtendedAddressInformation', 'getWalletInformation', 'getAddressBalance', 'getAddressState',
      'getTokenData', 'getMasterchainInfo', 'getMasterchainBlockSignatures', 'getShardBlockProof', 'getConsensusBlock',
      'lookupBlock', 'getShards', 'getBlockHeader', 'getOutMsgQueueSize', 'getBlockTransactions', 'getBlockTransactionsExt',
      'getTransactions', 'getTransactionsStd', 'tryLocateTx', 'tryLocateResultTx', 'tryLocateSourceTx', 'sendBoc',
      'sendBocReturnHash', 'estimateFee', 'runGetMethod', 'runGetMethodStd', 'detectAddress', 'detectHash', 'packAddress',
      'unpackAddress', 'getConfigParam', 'getConfigAll', 'getLibraries',
    ];
    expect(new Set(spec).size).toBe(33);
    // hidden in toncenter's docs, served there (v2.md §4.1, method inventory), and the C++ variant's dnsResolve
    // (toncenter-newer.md §11)
    const hidden = ['sendBocReturnHashNoError', 'dnsResolve'];
    const aliases = V2_ENDPOINTS.flatMap((e) => e.aliases ?? []);
    expect(aliases).toEqual(expect.arrayContaining(['shards', 'getOutMsgQueueSizes']));
    const served = new Set(registered.filter((r) => r.startsWith('POST /api/v2/')).map((r) => r.slice('POST /api/v2/'.length)));
    expect([...served].sort()).toEqual([...spec, ...hidden, 'jsonRPC', ...aliases].sort());
    // and each answers over HTTP (a 404 would mean mounted elsewhere): with its own error for missing
    // parameters or its answer, never the not-found envelope an unknown name gets
    for (const name of served) {
      const r = await http(`/api/v2/${name}`, { method: 'POST', body: {} });
      expect(r.status, name).not.toBe(404);
    }
    expect((await http('/api/v2/getNothing', { method: 'POST', body: {} })).status).toBe(404);
  });
});

describe('getBlockTransactions(Ext): the spec 422 table, word for word', () => {
  const cases: [string, Record<string, string | number>, string][] = [
    ['workchain not a number', { ...SEQNO, workchain: 'abc' }, 'failed to parse workchain'],
    ['workchain missing', { shard: MC, seqno: 7 }, 'failed to parse workchain'],
    ['workchain beyond int32', { ...SEQNO, workchain: '2147483648' }, 'failed to parse workchain'],
    ['shard not a number', { ...SEQNO, shard: 'xyz' }, 'failed to parse shard'],
    ['shard beyond int64', { ...SEQNO, shard: '9223372036854775808' }, 'failed to parse shard'],
    ['shard missing', { workchain: -1, seqno: 7 }, 'failed to parse shard'],
    ['seqno not a number', { ...SEQNO, seqno: '7x' }, 'failed to parse seqno'],
    ['seqno beyond int32', { ...SEQNO, seqno: '99999999999' }, 'failed to parse seqno'],
    ['after_lt alone', { ...SEQNO, after_lt: 5 }, 'after_lt and after_hash should be used together'],
    ['after_hash alone', { ...SEQNO, after_hash: HASH.toString('hex') }, 'after_lt and after_hash should be used together'],
    ['after_lt negative', { ...SEQNO, after_lt: -1, after_hash: HASH.toString('hex') }, 'after_lt should be non-negative'],
    ['count 0', { ...SEQNO, count: 0 }, 'count should be positive'],
    ['count negative', { ...SEQNO, count: -3 }, 'count should be positive'],
    ['count 10001', { ...SEQNO, count: 10001 }, 'count should be less or equal 10000'],
  ];
  for (const method of ['getBlockTransactions', 'getBlockTransactionsExt']) {
    for (const [what, query, message] of cases) {
      it(`${method} GET: ${what}`, async () => {
        expectError(await get(method, query), 422, message);
      });
    }
    it(`${method} POST and JSON-RPC give the same texts`, async () => {
      expectError(await post(method, { ...SEQNO, count: 0 }), 422, 'count should be positive');
      expectError(await post(method, { ...SEQNO, workchain: 'x' }), 422, 'failed to parse workchain');
      expectError(await rpc({ id: 9, method, params: { ...SEQNO, after_lt: '5' } }), 422, 'after_lt and after_hash should be used together', {
        jsonrpc: '2.0',
        id: 9,
      });
    });
  }

  it('count 10000 is accepted; defaults reach the source (count 40, no cursor)', async () => {
    let r = await get('getBlockTransactions', SEQNO);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, result: CANNED.getBlockTransactions });
    expect(lastCall('getBlockTransactions')).toEqual({ workchain: -1, shard: -(1n << 63n), seqno: 7, count: 40 });
    calls.length = 0;
    r = await get('getBlockTransactionsExt', { ...SEQNO, count: 10000 });
    expect(r.status).toBe(200);
    expect(lastCall('getBlockTransactionsExt').count).toBe(10000);
  });

  it('passes the cursor and the block hashes through; after_hash as a hash or as any address form', async () => {
    for (const after of [HASH.toString('hex'), HASH.toString('base64'), ADDR.toString(), ADDR.toRawString()]) {
      calls.length = 0;
      const r = await get('getBlockTransactions', {
        ...SEQNO,
        root_hash: HASH.toString('base64'),
        file_hash: HASH.toString('hex'),
        after_lt: '123',
        after_hash: after,
        count: '5',
      });
      expect(r.status).toBe(200);
      expect(lastCall('getBlockTransactions')).toEqual({
        workchain: -1,
        shard: -(1n << 63n),
        seqno: 7,
        rootHash: HASH,
        fileHash: HASH,
        after: { lt: 123n, accountHash: HASH },
        count: 5,
      });
    }
  });
});

describe('addresses and hashes', () => {
  // an account id whose friendly forms carry '-' '_' url-safe and '+' '/' in standard base64
  const SAMPLE = new Address(0, Buffer.from('fbef'.repeat(16), 'hex'));
  const friendly = (o: { bounceable: boolean; testOnly: boolean; urlSafe: boolean }) => SAMPLE.toString(o);
  const forms = {
    raw: SAMPLE.toRawString(),
    rawUpper: `0:${SAMPLE.hash.toString('hex').toUpperCase()}`,
    EQ: friendly({ bounceable: true, testOnly: false, urlSafe: true }),
    UQ: friendly({ bounceable: false, testOnly: false, urlSafe: true }),
    kQ: friendly({ bounceable: true, testOnly: true, urlSafe: true }),
    '0Q': friendly({ bounceable: false, testOnly: true, urlSafe: true }),
    standardBase64: friendly({ bounceable: true, testOnly: false, urlSafe: false }),
  };

  it('uses friendly forms with "+" or "/" for the standard-base64 case', () => {
    expect(forms.EQ.startsWith('EQ')).toBe(true);
    expect(forms.UQ.startsWith('UQ')).toBe(true);
    expect(forms.kQ.startsWith('kQ')).toBe(true);
    expect(forms['0Q'].startsWith('0Q')).toBe(true);
    expect(forms.EQ).toMatch(/[-_]/);
    expect(forms.standardBase64).toMatch(/[+/]/);
  });

  for (const [name, form] of Object.entries(forms)) {
    it(`getAddressInformation accepts the ${name} form and hands the same Address on`, async () => {
      const r = await get('getAddressInformation', { address: form });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, result: CANNED.getAddressInformation });
      const p = lastCall('getAddressInformation');
      expect(Object.keys(p)).toEqual(['address']);
      expect(p.address).toBeInstanceOf(Address);
      expect(p.address.equals(SAMPLE)).toBe(true);
    });
  }

  it("a standard-base64 address sent unencoded in a query ('+' read as a space) still parses", async () => {
    const r = await http(`/api/v2/getAddressBalance?address=${forms.standardBase64}`);
    expect(r.body).toEqual({ ok: true, result: '5' });
    expect(lastCall('getAddressBalance').address.equals(SAMPLE)).toBe(true);
  });

  it('a bad address is a 422 that quotes the value (GET and POST wrappers)', async () => {
    expectError(
      await get('getAddressBalance', { address: 'not-an-address' }),
      422,
      "failed to parse get request: failed to parse address: invalid address 'not-an-address'",
    );
    expectError(
      await post('getAddressBalance', { address: '0:1234' }),
      422,
      "failed to parse post request: failed to parse address: invalid address '0:1234'",
    );
    expectError(await get('getAddressBalance', {}), 422, 'failed to parse get request: address required');
    expectError(await get('getAddressBalance', { address: '' }), 422, 'failed to validate request: empty address');
    expectError(await post('getAddressBalance', { address: 5 }), 422, 'failed to parse post request: failed to parse address: string expected');
  });

  it('tryLocate*: source, destination and created_lt', async () => {
    for (const m of ['tryLocateTx', 'tryLocateResultTx', 'tryLocateSourceTx']) {
      calls.length = 0;
      const r = await get(m, { source: forms.UQ, destination: forms.raw, created_lt: '77' });
      expect(r.status).toBe(200);
      const p = lastCall(m);
      expect(p.source.equals(SAMPLE) && p.destination.equals(SAMPLE)).toBe(true);
      expect(p.createdLt).toBe(77n);
    }
    calls.length = 0;
    expectError(
      await get('tryLocateSourceTx', { source: forms.raw, destination: forms.raw, created_lt: '-1' }),
      422,
      'failed to validate request: created_lt should be non-negative',
    );
    expectError(
      await get('tryLocateSourceTx', { source: forms.raw, created_lt: '1' }),
      422,
      'failed to parse get request: destination required',
    );
  });

  it('getTransactions takes the start hash as hex, base64 or base64url (padded or not)', async () => {
    for (const h of [HASH.toString('hex'), HASH.toString('hex').toUpperCase(), HASH.toString('base64'), HASH.toString('base64url'), `${HASH.toString('base64url')}=`]) {
      calls.length = 0;
      const r = await get('getTransactions', { address: forms.raw, lt: '100', hash: h });
      expect(r.status).toBe(200);
      expect(lastCall('getTransactions').from).toEqual({ lt: 100n, hash: HASH });
    }
    calls.length = 0;
    expectError(
      await get('getTransactions', { address: forms.raw, lt: '100', hash: 'zz' }),
      422,
      "failed to parse get request: failed to parse hash: invalid hash 'zz'",
    );
  });

  it('detectHash checks the hash and passes the text as given', async () => {
    const r = await get('detectHash', { hash: HASH.toString('base64url') });
    expect(r.status).toBe(200);
    expect(lastCall('detectHash')).toEqual({ hash: HASH.toString('base64url') });
    calls.length = 0;
    expectError(await get('detectHash', { hash: 'not a hash' }), 422, "failed to parse get request: failed to parse hash: invalid hash 'not a hash'");
    // 43-char standard base64 without padding is refused, as the C++ variant does
    expectError(
      await get('detectHash', { hash: HASH.toString('base64').slice(0, 43) }),
      422,
      `failed to parse get request: failed to parse hash: invalid hash '${HASH.toString('base64').slice(0, 43)}'`,
    );
  });

  it('detectAddress / packAddress / unpackAddress get the address text as given', async () => {
    for (const m of ['detectAddress', 'packAddress', 'unpackAddress']) {
      calls.length = 0;
      const r = await get(m, { address: forms.kQ });
      expect(r.status).toBe(200);
      expect(lastCall(m)).toEqual({ address: forms.kQ });
    }
  });
});

describe('getTransactions defaults and checks', () => {
  const address = ADDR.toRawString();

  it('limit 10, to_lt 0, archival false reach the source', async () => {
    const r = await get('getTransactions', { address });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, result: [] });
    const p = lastCall('getTransactions');
    expect(p.address.equals(ADDR)).toBe(true);
    expect({ ...p, address: undefined }).toEqual({ address: undefined, limit: 10, toLt: 0n, archival: false });
  });

  it('lt=0 is the same as no lt; every param passes through (POST with JSON numbers)', async () => {
    let r = await get('getTransactionsStd', { address, lt: 0 });
    expect(r.status).toBe(200);
    expect(lastCall('getTransactionsStd').from).toBeUndefined();
    calls.length = 0;
    r = await post('getTransactions', { address, limit: 1000, lt: 5, hash: HASH.toString('base64'), to_lt: '3', archival: true });
    expect(r.status).toBe(200);
    const p = lastCall('getTransactions');
    expect({ ...p, address: undefined }).toEqual({
      address: undefined,
      limit: 1000,
      from: { lt: 5n, hash: HASH },
      toLt: 3n,
      archival: true,
    });
  });

  it('refuses bad limits, lone lt or hash, negative and overflowing values, bad booleans', async () => {
    const bad: [Record<string, string | number>, string][] = [
      [{ limit: 0 }, 'failed to validate request: limit should be positive'],
      [{ limit: 1001 }, 'failed to validate request: limit should be less or equal 1000'],
      [{ lt: 5 }, 'failed to validate request: lt and hash should be used together'],
      [{ hash: HASH.toString('hex') }, 'failed to validate request: lt and hash should be used together'],
      [{ lt: -5, hash: HASH.toString('hex') }, 'failed to validate request: lt should be non-negative'],
      [{ lt: '9223372036854775808', hash: HASH.toString('hex') }, 'failed to parse get request: failed to parse lt'],
      [{ limit: '1.5' }, 'failed to parse get request: failed to parse limit'],
      [{ archival: 'maybe' }, 'failed to parse get request: failed to parse archival'],
    ];
    for (const [extra, message] of bad) expectError(await get('getTransactions', { address, ...extra }), 422, message);
    expectError(await post('getTransactions', { address, limit: 2.5 }), 422, 'failed to parse post request: failed to parse limit');
    expectError(await post('getTransactions', { address, archival: 'x' }), 422, 'failed to parse post request: failed to parse archival');
  });
});

describe('blocks, config, libraries', () => {
  it('getShards / shards alias, GET and POST, numbers as strings or JSON numbers', async () => {
    for (const r of [await get('getShards', { seqno: 7 }), await get('shards', { seqno: '7' }), await post('getShards', { seqno: 7 }), await post('shards', { seqno: '7' })]) {
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, result: CANNED.getShards });
    }
    expect(calls).toEqual(Array(4).fill({ method: 'getShards', params: { seqno: 7 } }));
    calls.length = 0;
    expectError(await get('getShards', { seqno: 0 }), 422, 'failed to validate request: seqno should be positive');
    expectError(await get('getShards', { seqno: '4294967297' }), 422, 'failed to parse get request: failed to parse seqno');
    expectError(await get('getShards', {}), 422, 'failed to parse get request: seqno required');
    expectError(await post('getShards', { seqno: true }), 422, 'failed to parse post request: failed to parse seqno');
  });

  it('getOutMsgQueueSizes is an alias of getOutMsgQueueSize', async () => {
    const r = await get('getOutMsgQueueSizes');
    expect(r.body).toEqual({ ok: true, result: CANNED.getOutMsgQueueSize });
    expect(lastCall('getOutMsgQueueSize')).toBeUndefined();
  });

  it('lookupBlock wants exactly one of seqno, lt, unixtime', async () => {
    const r = await get('lookupBlock', { workchain: 0, shard: MC, lt: '1000' });
    expect(r.status).toBe(200);
    expect(lastCall('lookupBlock')).toEqual({ workchain: 0, shard: -(1n << 63n), lt: 1000n });
    calls.length = 0;
    expectError(
      await get('lookupBlock', { workchain: 0, shard: MC, seqno: 1, unixtime: 5 }),
      422,
      'failed to validate request: exactly one of seqno, lt, unixtime should be specified',
    );
    expectError(await get('lookupBlock', { workchain: 0, shard: MC }), 422, 'failed to validate request: exactly one of seqno, lt, unixtime should be specified');
  });

  it('getBlockHeader and getShardBlockProof pass ids through', async () => {
    let r = await get('getBlockHeader', { ...SEQNO, root_hash: HASH.toString('base64') });
    expect(r.status).toBe(200);
    expect(lastCall('getBlockHeader')).toEqual({ workchain: -1, shard: -(1n << 63n), seqno: 7, rootHash: HASH });
    calls.length = 0;
    r = await post('getShardBlockProof', { workchain: 0, shard: '-9223372036854775808', seqno: 3, from_seqno: 9 });
    expect(r.status).toBe(200);
    expect(lastCall('getShardBlockProof')).toEqual({ workchain: 0, shard: -(1n << 63n), seqno: 3, fromSeqno: 9 });
  });

  it('getConfigParam takes config_id or param; getConfigAll takes seqno', async () => {
    await get('getConfigParam', { config_id: 34 });
    await post('getConfigParam', { param: '12', seqno: 4 });
    await get('getConfigAll', { seqno: 4 });
    expect(calls).toEqual([
      { method: 'getConfigParam', params: { configId: 34 } },
      { method: 'getConfigParam', params: { configId: 12, seqno: 4 } },
      { method: 'getConfigAll', params: { seqno: 4 } },
    ]);
    calls.length = 0;
    expectError(await get('getConfigParam', {}), 422, 'failed to validate request: only one of config_id or param should be specified');
    expectError(await post('getConfigParam', { config_id: 1, param: 2 }), 422, 'failed to validate request: only one of config_id or param should be specified');
    expectError(await get('getConfigParam', { config_id: -1 }), 422, 'failed to validate request: param should be non-negative');
  });

  it('getLibraries reads repeated query params and body arrays', async () => {
    const other = Buffer.alloc(32, 9);
    await get('getLibraries', { libraries: [HASH.toString('hex'), other.toString('base64')] });
    await post('getLibraries', { libraries: [HASH.toString('base64url')] });
    await get('getLibraries');
    expect(calls).toEqual([
      { method: 'getLibraries', params: { libraries: [HASH, other] } },
      { method: 'getLibraries', params: { libraries: [HASH] } },
      { method: 'getLibraries', params: { libraries: [] } },
    ]);
    calls.length = 0;
    expectError(await get('getLibraries', { libraries: [HASH.toString('hex'), 'nope'] }), 422, "failed to parse get request: failed to parse libraries: invalid hash 'nope'");
  });
});

describe('send, estimate, run', () => {
  const cell = beginCell().storeUint(7, 32).endCell();
  const b64 = cell.toBoc().toString('base64');

  it('sendBoc / sendBocReturnHash pass the BoC bytes; bad BoCs are 422', async () => {
    let r = await post('sendBoc', { boc: b64 });
    expect(r.body).toEqual({ ok: true, result: { '@type': 'ok' } });
    expect(lastCall('sendBoc')).toEqual({ boc: Buffer.from(b64, 'base64') });
    calls.length = 0;
    r = await post('sendBocReturnHash', { boc: cell.toBoc().toString('base64url') });
    expect(r.body).toEqual({ ok: true, result: CANNED.sendBocReturnHash });
    calls.length = 0;
    expectError(await post('sendBoc', { boc: '***' }), 422, 'failed to parse post request: failed to parse boc: invalid base64');
    expectError(await post('sendBoc', { boc: Buffer.from('hello world').toString('base64') }), 422, 'failed to parse post request: failed to parse boc: invalid boc');
    expectError(await post('sendBoc', { boc: '' }), 422, 'failed to validate request: empty boc');
    expectError(await post('sendBoc', {}), 422, 'failed to parse post request: boc required');
  });

  it('sendBocReturnHashNoError turns a refused message into 400', async () => {
    override.sendBocReturnHash = async () => {
      throw new ApiError(500, 'LITE_SERVER_UNKNOWN: cannot apply external message to current state');
    };
    const r = await post('sendBocReturnHashNoError', { boc: b64 });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ ok: false, error: 'LITE_SERVER_UNKNOWN: cannot apply external message to current state', code: 400 });
  });

  it('estimateFee defaults: ignore_chksig true, init_code/init_data empty', async () => {
    let r = await post('estimateFee', { address: ADDR.toString(), body: b64 });
    expect(r.body).toEqual({ ok: true, result: CANNED.estimateFee });
    let p = lastCall('estimateFee');
    expect({ ...p, address: undefined }).toEqual({ address: undefined, body: Buffer.from(b64, 'base64'), ignoreChksig: true });
    calls.length = 0;
    r = await post('estimateFee', { address: ADDR.toString(), body: b64, init_code: b64, init_data: '', ignore_chksig: false });
    p = lastCall('estimateFee');
    expect(p.initCode).toEqual(Buffer.from(b64, 'base64'));
    expect(p.initData).toBeUndefined();
    expect(p.ignoreChksig).toBe(false);
    calls.length = 0;
    expectError(await post('estimateFee', { address: ADDR.toString() }), 422, 'failed to parse post request: body required');
  });

  it('runGetMethod parses the legacy stack; runGetMethodStd the typed one', async () => {
    let r = await post('runGetMethod', { address: ADDR.toString(), method: 'seqno', stack: [['num', '7'], ['num', '0x10']] });
    expect(r.body).toEqual({ ok: true, result: CANNED.runGetMethod });
    let p = lastCall('runGetMethod');
    expect(p.method).toBe('seqno');
    expect(p.stack).toEqual([
      { type: 'int', value: 7n },
      { type: 'int', value: 16n },
    ]);
    calls.length = 0;
    r = await post('runGetMethodStd', {
      address: ADDR.toRawString(),
      method: 85143,
      seqno: 3,
      stack: [{ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '5' } }],
    });
    expect(r.status).toBe(200);
    p = lastCall('runGetMethodStd');
    expect(p.method).toBe(85143);
    expect(p.seqno).toBe(3);
    expect(p.stack).toEqual([{ type: 'int', value: 5n }]);
  });

  it('runGetMethod stack errors keep the codec text as validation errors', async () => {
    expectError(
      await post('runGetMethod', { address: ADDR.toString(), method: 'seqno', stack: [['num', 'abc']] }),
      422,
      'failed to validate request: Invalid number: abc',
    );
    expectError(
      await post('runGetMethod', { address: ADDR.toString(), method: 'seqno', stack: [['num']] }),
      422,
      'failed to validate request: Expected 2 elements in stack entry, got: 1',
    );
    expectError(await post('runGetMethod', { address: ADDR.toString(), method: 'seqno' }), 422, 'failed to parse post request: stack required');
  });
});

describe('JSON-RPC', () => {
  it('echoes a string id (TonClient) and a numeric id (tonweb) with jsonrpc 2.0', async () => {
    let r = await rpc({ id: '1', jsonrpc: '2.0', method: 'getMasterchainInfo', params: {} });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, result: CANNED.getMasterchainInfo, jsonrpc: '2.0', id: '1' });
    r = await rpc({ id: 1, jsonrpc: '2.0', method: 'getAddressBalance', params: { address: ADDR.toString() } });
    expect(r.body).toEqual({ ok: true, result: '5', jsonrpc: '2.0', id: 1 });
    r = await rpc({ method: 'getConsensusBlock' });
    expect(r.body).toEqual({ ok: true, result: CANNED.getConsensusBlock, jsonrpc: '2.0' });
  });

  it('dispatches `shards` and every alias to the same endpoint; params parse like a POST body', async () => {
    const r = await rpc({ id: '1', jsonrpc: '2.0', method: 'shards', params: { seqno: '7' } });
    expect(r.body).toEqual({ ok: true, result: CANNED.getShards, jsonrpc: '2.0', id: '1' });
    expect(lastCall('getShards')).toEqual({ seqno: 7 });
    calls.length = 0;
    // TonClient's getShardTransactions: no count, shard as a string
    await rpc({ id: '1', method: 'getBlockTransactions', params: { workchain: -1, seqno: 7, shard: MC } });
    expect(lastCall('getBlockTransactions').count).toBe(40);
  });

  it('keeps the id on errors: parse errors, unknown method, params array, missing method', async () => {
    expectError(await rpc({ id: 'a', method: 'getShards', params: { seqno: 'x' } }), 422, 'failed to parse post request: failed to parse seqno', {
      jsonrpc: '2.0',
      id: 'a',
    });
    expectError(await rpc({ id: 3, method: 'nope', params: {} }), 422, 'Unknown method', { jsonrpc: '2.0', id: 3 });
    expectError(await rpc({ id: 4, method: 'getShards', params: [7] }), 422, 'params must contain an object', { jsonrpc: '2.0', id: 4 });
    expectError(await rpc({ id: 5, params: {} }), 422, 'method required', { jsonrpc: '2.0', id: 5 });
    expectError(await http('/api/v2/jsonRPC', { raw: '{"id":1,' }), 422, 'failed to parse post request: body is not valid JSON', { jsonrpc: '2.0' });
  });

  it('an empty params array is an empty object', async () => {
    const r = await rpc({ id: 1, method: 'getMasterchainInfo', params: [] });
    expect(r.body).toEqual({ ok: true, result: CANNED.getMasterchainInfo, jsonrpc: '2.0', id: 1 });
  });

  it('source errors keep their status through JSON-RPC, with the id', async () => {
    override.tryLocateTx = async () => {
      throw new ApiError(404, 'transaction not found');
    };
    const r = await rpc({ id: '1', method: 'tryLocateTx', params: { source: ADDR.toString(), destination: ADDR.toString(), created_lt: '5' } });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ ok: false, error: 'transaction not found', code: 404, jsonrpc: '2.0', id: '1' });
  });

  it('GET /api/v2/jsonRPC is 405', async () => {
    expectError(await http('/api/v2/jsonRPC'), 405, 'method GET is not supported');
  });
});

describe('envelope and HTTP edges', () => {
  it('unknown routes are 404 in the envelope', async () => {
    expectError(await http('/api/v2/nope'), 404, 'Not Found');
    expectError(await http('/api/v2/nope', { body: {} }), 404, 'Not Found');
    expectError(await http('/api/v2'), 404, 'Not Found');
  });

  it('a wrong method is 405 in the envelope', async () => {
    expectError(await get('sendBoc'), 405, 'method GET is not supported');
    expectError(await get('runGetMethod'), 405, 'method GET is not supported');
    expectError(await http('/api/v2/getMasterchainInfo', { method: 'DELETE' }), 405, 'method DELETE is not supported');
  });

  it('garbage or non-object JSON bodies are 422 in the envelope', async () => {
    expectError(await http('/api/v2/getShards', { raw: '{"seqno":' }), 422, 'failed to parse post request: body is not valid JSON');
    expectError(await http('/api/v2/sendBoc', { raw: 'garbage', headers: { 'content-type': 'text/plain' } }), 422, 'failed to parse post request: body is not valid JSON');
    expectError(await http('/api/v2/getShards', { raw: '[1,2]' }), 422, 'failed to parse post request: body must be a JSON object');
    expectError(await http('/api/v2/getBlockTransactions', { raw: '"x"' }), 422, 'body must be a JSON object');
  });

  it('an oversized body is a 413 in the envelope', async () => {
    const r = await http('/api/v2/sendBoc', { raw: JSON.stringify({ boc: 'A'.repeat(1024 * 1024 + 10) }) });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ ok: false, code: 413 });
    expect(calls).toEqual([]);
  });

  it('a POST without a body is an empty object', async () => {
    const r = await http('/api/v2/getMasterchainInfo', { method: 'POST' });
    expect(r.body).toEqual({ ok: true, result: CANNED.getMasterchainInfo });
  });

  it('source ApiErrors keep status and text; anything else is a bare 500', async () => {
    override.getMasterchainInfo = async () => {
      throw new ApiError(504, 'LITE_SERVER_NETWORK timeout');
    };
    let r = await get('getMasterchainInfo');
    expect({ status: r.status, body: r.body }).toEqual({ status: 504, body: { ok: false, error: 'LITE_SERVER_NETWORK timeout', code: 504 } });
    override.getMasterchainInfo = async () => {
      throw new TypeError('secret internals at /srv/x.ts:1');
    };
    r = await get('getMasterchainInfo');
    expect({ status: r.status, body: r.body }).toEqual({ status: 500, body: { ok: false, error: 'internal error', code: 500 } });
  });

  it('answers JSON with the ok envelope on success', async () => {
    const r = await get('getAddressState', { address: ADDR.toString() });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ ok: true, result: 'active' });
  });
});
