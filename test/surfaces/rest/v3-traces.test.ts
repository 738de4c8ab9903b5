/**
 * The trace, action, pending and /decode routes over HTTP: on a real gateway every route with valid params
 * answers 200 with a body the openapi accepts (closed objects), the X-Actions-Version header and the /events
 * alias behave as the reference's handlers; and every documented 4xx comes with its text before any data
 * source is asked.
 */
import { beginCell } from '@ton/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import type { LaterAction as Action } from '../../../src/api/v3/actions.js';
import type { Trace } from '../../../src/api/v3/traces.js';
import { assertResponse } from '../../helpers/openapi.js';
import { fetchWallets, startTestGateway, waitFor } from '../../helpers/gateway.js';
import { request, startV3Server, throwingApi, type Call, type V3Server } from './v3-harness.js';

const V3 = '/api/v3';

describe('trace routes on a real gateway', () => {
  let gw: Gateway;
  let alice: string;
  let traces: Trace[];

  async function call<T = Record<string, unknown>>(method: 'get' | 'post', path: string, query = '', init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const r = await request(`${gw.url}${V3}`, path + (query ? `?${query}` : ''), {
      method: method.toUpperCase(),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.headers ? { headers: init.headers } : {}),
    });
    expect(r.status, `${method} ${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    return assertResponse(`${V3}${path}`, method, 200, r.body as T, { closed: true });
  }

  beforeAll(async () => {
    gw = await startTestGateway({ blockInterval: 0 });
    await waitFor(async () => ((await fetch(`${gw.url}/health`)).status === 200 ? true : undefined), 120_000);
    alice = (await fetchWallets(gw.url))[0]!.address;
    traces = (await call<{ traces: Trace[] }>('get', '/traces', 'limit=1000&sort=asc&include_actions=true')).traces;
  }, 180_000);

  afterAll(async () => {
    await gw?.close();
  });

  it('GET /traces with each selector and filter', async () => {
    expect(traces.length).toBeGreaterThan(5);
    const t = traces[traces.length - 1]!;
    const root = t.transactions![t.trace_id!]!;
    for (const q of [
      `account=${alice}`,
      `trace_id=${encodeURIComponent(t.trace_id!)}`,
      `tx_hash=${Buffer.from(t.transactions_order![1] ?? t.trace_id!, 'base64').toString('hex')}`,
      `msg_hash=${encodeURIComponent(root.in_msg!.hash)}`,
      `mc_seqno=${t.mc_seqno_end}`,
      `start_lt=${t.end_lt}&end_lt=${t.end_lt}&sort=a`,
      `start_utime=0&end_utime=${t.end_utime}&limit=2&offset=1`,
      'include_actions=1&supported_action_types=v1&supported_action_types=jettons',
    ]) {
      const r = await call<{ traces: Trace[] }>('get', '/traces', q);
      expect(r.traces.length, q).toBeGreaterThan(0);
    }
    const byId = await call<{ traces: Trace[] }>('get', '/traces', `trace_id=${encodeURIComponent(t.trace_id!)}`);
    expect(byId.traces.map((x) => x.trace_id)).toEqual([t.trace_id]);
  });

  it('/events is /traces with actions, under the key events', async () => {
    const res = await request(`${gw.url}${V3}`, '/events?limit=3');
    expect(res.status).toBe(200);
    const r = res.body as { events: Trace[]; address_book: unknown; metadata: unknown };
    expect(Object.keys(r)).toEqual(['events', 'address_book', 'metadata']);
    // the published openapi has no /events: its body is a TracesResponse under another key
    assertResponse(`${V3}/traces`, 'get', 200, { traces: r.events, address_book: r.address_book, metadata: r.metadata }, { closed: true });
    expect(r.events).toHaveLength(3);
    expect(r.events.every((e) => Array.isArray(e.actions) && e.actions.length > 0)).toBe(true);
    const plain = (await request(`${gw.url}${V3}`, '/traces?limit=3')).body as { traces: Trace[] };
    expect(r.events.map((e) => e.trace_id)).toEqual(plain.traces.map((e) => e.trace_id));
    expect(plain.traces.every((t) => !('actions' in t))).toBe(true);
  });

  it('GET /actions with each filter, include_accounts and include_transactions', async () => {
    const all = await call<{ actions: Action[] }>('get', '/actions', 'limit=1000&include_accounts=true&include_transactions=true');
    expect(all.actions.length).toBeGreaterThan(10);
    expect(all.actions.every((a) => Array.isArray(a.accounts) && a.transactions_full!.length === a.transactions.length)).toBe(true);
    const jt = all.actions.find((a) => a.type === 'jetton_transfer')!;
    expect(jt).toBeDefined();
    for (const q of [
      `account=${alice}`,
      `tx_hash=${encodeURIComponent(jt.transactions[0]!)}`,
      `msg_hash=${encodeURIComponent(jt.trace_external_hash!)}`,
      `action_id=${encodeURIComponent(jt.action_id)}`,
      `trace_id=${encodeURIComponent(jt.trace_id!)}`,
      `mc_seqno=${jt.trace_mc_seqno_end}`,
      'action_type=jetton_transfer&action_type=jetton_burn',
      'exclude_action_type=contract_deploy&sort=asc&limit=5&offset=2',
      `start_utime=0&end_utime=${jt.trace_end_utime}`,
      `start_lt=0&end_lt=${jt.trace_end_lt}`,
    ]) {
      const r = await call<{ actions: Action[] }>('get', '/actions', q);
      expect(r.actions.length, q).toBeGreaterThan(0);
    }
    const byId = await call<{ actions: Action[]; address_book: Record<string, unknown> }>('get', '/actions', `action_id=${encodeURIComponent(jt.action_id)}`);
    expect(byId.actions.map((a) => a.type)).toEqual(['jetton_transfer']);
    expect(byId.address_book[jt.details.sender as string]).toBeDefined();
  });

  it('X-Actions-Version replaces supported_action_types', async () => {
    const base = (await call<{ actions: Action[] }>('get', '/actions', 'limit=1000')).actions.length;
    // an unknown name stands for itself and v1 is always in: the same v1 actions
    const viaHeader = await call<{ actions: Action[] }>('get', '/actions', 'limit=1000&supported_action_types=nothing', { headers: { 'x-actions-version': 'v1' } });
    expect(viaHeader.actions.length).toBe(base);
    const traced = await call<{ traces: Trace[] }>('get', '/traces', 'limit=2&include_actions=true', { headers: { 'x-actions-version': 'latest' } });
    expect(traced.traces.every((t) => Array.isArray(t.actions))).toBe(true);
  });

  it('pending routes: 404 and empty lists when nothing is pending, shapes valid', async () => {
    const r = await request(`${gw.url}${V3}`, `/pendingTransactions?account=${alice}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 404, error: 'emulated traces not found' });
    const pt = await call<{ traces: Trace[] }>('get', '/pendingTraces', `account=${alice}`);
    expect(pt.traces).toEqual([]);
    const pa = await call<{ actions: Action[] }>('get', '/pendingActions', `ext_msg_hash=${'ab'.repeat(32)}&include_transactions=true`);
    expect(pa.actions).toEqual([]);
  });

  it('GET and POST /decode', async () => {
    const body = beginCell().storeUint(0, 32).storeStringTail('hey').endCell().toBoc();
    const get = await call<{ opcodes: string[]; bodies: unknown[] }>('get', '/decode', `opcodes=0x0f8a7ea5&opcodes=7362d09c&opcodes=-1&bodies=${encodeURIComponent(body.toString('base64'))}&bodies=${body.toString('hex')}&bodies=00`);
    expect(get.opcodes).toEqual(['jetton_transfer', 'jetton_notify', 'bounce']);
    expect(get.bodies).toEqual([{ '@type': 'text_comment', text: 'hey' }, { '@type': 'text_comment', text: 'hey' }, { error: expect.stringMatching(/^unknown: /) }]);
    const post = await call<{ opcodes: string[]; bodies: unknown[] }>('post', '/decode', '', { body: { opcodes: ['0x05138d91', '305419896'], bodies: [] } });
    expect(post).toEqual({ opcodes: ['nft_ownership_assigned', 'unknown'], bodies: [] });
  });
});

const conv = (name: string, index?: number) =>
  index === undefined
    ? `failed to decode: schema: error converting value for "${name}"`
    : `failed to decode: schema: error converting value for index ${index} of "${name}"`;

const ADDR = '0:' + '11'.repeat(32);
const HASH = Buffer.alloc(32, 7).toString('hex');
const many = (key: string, n: number, v = '1') => Array.from({ length: n }, () => `${key}=${v}`).join('&');

const GET_CASES: Array<[string, string, number, string]> = [
  ['traces two selectors', `/traces?account=${ADDR}&trace_id=${HASH}`, 422, 'only one of account, trace_id, tx_hash, msg_hash should be specified'],
  ['traces tx_hash and msg_hash', `/traces?tx_hash=${HASH}&msg_hash=${HASH}`, 422, 'only one of account, trace_id, tx_hash, msg_hash should be specified'],
  ['traces bad account', '/traces?account=nope', 422, conv('account')],
  ['traces bad trace_id', '/traces?trace_id=zz', 422, conv('trace_id', 0)],
  ['traces bad tx_hash', `/traces?tx_hash=${HASH}&tx_hash=x`, 422, conv('tx_hash', 1)],
  ['traces bad msg_hash', '/traces?msg_hash=1', 422, conv('msg_hash', 0)],
  ['traces bad mc_seqno', '/traces?mc_seqno=a', 422, conv('mc_seqno')],
  ['traces bad include_actions', '/traces?include_actions=maybe', 422, conv('include_actions')],
  ['traces bad utime', '/traces?start_utime=-1', 422, conv('start_utime')],
  ['traces bad lt', '/traces?end_lt=x', 422, conv('end_lt')],
  ['traces limit', '/traces?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['traces sort', '/traces?sort=up', 422, 'wrong value for sort parameter'],
  ['events two selectors', `/events?account=${ADDR}&msg_hash=${HASH}`, 422, 'only one of account, trace_id, tx_hash, msg_hash should be specified'],
  ['events limit', '/events?limit=5000', 422, 'limit is not allowed: 5000 > 1000'],

  ['actions bad action_type', '/actions?action_type=jetton-transfer', 422, 'action_type contains invalid characters'],
  ['actions bad exclude_action_type', '/actions?exclude_action_type=a%20b', 422, 'exclude_action_type contains invalid characters'],
  ['actions bad account', '/actions?account=x', 422, conv('account')],
  ['actions bad action_id', '/actions?action_id=zz', 422, conv('action_id', 0)],
  ['actions bad tx_hash', '/actions?tx_hash=zz', 422, conv('tx_hash', 0)],
  ['actions bad include_accounts', '/actions?include_accounts=2', 422, conv('include_accounts')],
  ['actions bad include_transactions', '/actions?include_transactions=yes', 422, conv('include_transactions')],
  ['actions limit', '/actions?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['actions sort', '/actions?sort=x', 422, 'wrong value for sort parameter'],

  ['pendingTransactions no account', '/pendingTransactions', 422, 'at least 1 account address required'],
  ['pendingTransactions trace_id only', `/pendingTransactions?trace_id=${HASH}`, 422, 'at least 1 account address required'],
  ['pendingTransactions bad account', '/pendingTransactions?account=x', 422, conv('account', 0)],
  ['pendingTraces nothing', '/pendingTraces', 422, 'account or ext_msg_hash should be specified'],
  ['pendingTraces bad ext_msg_hash', '/pendingTraces?ext_msg_hash=zz', 422, conv('ext_msg_hash', 0)],
  ['pendingActions nothing', '/pendingActions?include_transactions=true', 422, 'account or ext_msg_hash should be specified'],
  ['pendingActions bad account', '/pendingActions?account=zz', 422, conv('account')],

  ['decode bad opcode', '/decode?opcodes=0x1&opcodes=0xzz', 422, 'invalid opcode format at index 1: zz'],
  ['decode opcode over 32 bits', '/decode?opcodes=0x1ffffffffff', 422, 'invalid opcode format at index 0: 1ffffffffff'],
  ['decode too many opcodes', `/decode?${many('opcodes', 1001)}`, 422, 'opcodes list exceeds maximum length of 1000'],
  ['decode too many bodies', `/decode?${many('bodies', 1001, '00')}`, 422, 'bodies list exceeds maximum length of 1000'],
];

const POST_CASES: Array<[string, string, number, string]> = [
  ['decode opcodes not a list', '{"opcodes":"0x1"}', 422, 'json: cannot unmarshal string into Go struct field DecodeRequest.opcodes of type []string'],
  ['decode bodies of numbers', '{"bodies":[1]}', 422, 'json: cannot unmarshal number into Go struct field DecodeRequest.bodies of type string'],
  ['decode bad opcode', '{"opcodes":["12","-"]}', 422, 'invalid opcode format at index 1: -'],
  ['decode too many', JSON.stringify({ opcodes: Array.from({ length: 1001 }, () => '1') }), 422, 'opcodes list exceeds maximum length of 1000'],
  ['decode not an object', '[1]', 422, 'json: cannot unmarshal array into Go value of type models.DecodeRequest'],
];

describe('trace route validation over HTTP (the data source is never asked)', () => {
  let server: V3Server;
  const calls: Call[] = [];

  beforeAll(async () => {
    server = await startV3Server(throwingApi(calls));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    calls.length = 0;
  });

  it.each(GET_CASES)('GET %s', async (_label, path, status, error) => {
    const r = await request(`${server.url}${V3}`, path);
    expect(r.body).toEqual({ code: status, error });
    expect(r.status).toBe(status);
    expect(calls).toEqual([]);
  });

  it.each(POST_CASES)('POST %s', async (_label, path, status, error) => {
    const r = await request(`${server.url}${V3}`, '/decode', { method: 'POST', body: path });
    expect(r.body).toEqual({ code: status, error });
    expect(r.status).toBe(status);
    expect(calls).toEqual([]);
  });
});
