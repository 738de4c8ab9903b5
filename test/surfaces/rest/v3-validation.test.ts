/**
 * Every documented 4xx of the part-1 /api/v3 routes (v3.md §1.2, §1.4, §2.1, §2.2, §2.7, §5), over real HTTP,
 * with a data source that fails the test if it is asked anything.
 */
import { Address, beginCell } from '@ton/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request, startV3Server, throwingApi, type Call, type V3Server } from './v3-harness.js';

const ADDR = new Address(0, Buffer.alloc(32, 0x11));
const FRIENDLY = ADDR.toString();
const HASH = Buffer.alloc(32, 7).toString('base64url');
const BOC = beginCell().storeUint(1, 32).endCell().toBoc().toString('base64');

const conv = (name: string, index?: number) =>
  index === undefined
    ? `failed to decode: schema: error converting value for "${name}"`
    : `failed to decode: schema: error converting value for index ${index} of "${name}"`;

/** [label, path with query, status, error] for GET routes. */
const GET_CASES: Array<[string, string, number, string]> = [
  // /blocks: every converter and the paging rules
  ['blocks workchain not a number', '/blocks?workchain=abc', 422, conv('workchain')],
  ['blocks workchain over int32', '/blocks?workchain=2147483648', 422, conv('workchain')],
  ['blocks shard not hex or decimal', '/blocks?shard=xyz', 422, conv('shard')],
  ['blocks shard over 64 bits', '/blocks?shard=0x1ffffffffffffffff', 422, conv('shard')],
  ['blocks seqno fraction', '/blocks?seqno=1.5', 422, conv('seqno')],
  ['blocks root_hash', '/blocks?root_hash=zz', 422, conv('root_hash')],
  ['blocks file_hash short hex', `/blocks?file_hash=${'ab'.repeat(31)}`, 422, conv('file_hash')],
  ['blocks mc_seqno', '/blocks?mc_seqno=x', 422, conv('mc_seqno')],
  ['blocks start_utime negative', '/blocks?start_utime=-1', 422, conv('start_utime')],
  ['blocks end_utime text', '/blocks?end_utime=soon', 422, conv('end_utime')],
  ['blocks start_lt negative', '/blocks?start_lt=-1', 422, conv('start_lt')],
  ['blocks end_lt over uint64', '/blocks?end_lt=18446744073709551616', 422, conv('end_lt')],
  ['blocks limit text', '/blocks?limit=ten', 422, conv('limit')],
  ['blocks limit over 1000', '/blocks?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['blocks offset text', '/blocks?offset=x', 422, conv('offset')],
  ['blocks sort', '/blocks?sort=up', 422, 'wrong value for sort parameter'],
  ['blocks two bad params', '/blocks?workchain=x&seqno=y', 422, `${conv('workchain')} (and 1 other error)`],
  ['blocks three bad params', '/blocks?workchain=x&seqno=y&mc_seqno=z', 422, `${conv('workchain')} (and 2 other errors)`],
  ['blocks limit checked before sort', '/blocks?limit=5000&sort=up', 422, 'limit is not allowed: 5000 > 1000'],

  ['masterchainBlockShardState no seqno', '/masterchainBlockShardState', 422, 'seqno is required'],
  ['masterchainBlockShardState bad seqno', '/masterchainBlockShardState?seqno=abc', 422, conv('seqno')],
  ['masterchainBlockShards no seqno', '/masterchainBlockShards?limit=5', 422, 'seqno is required'],
  ['masterchainBlockShards bad seqno', '/masterchainBlockShards?seqno=-', 422, conv('seqno')],
  ['masterchainBlockShards limit', '/masterchainBlockShards?seqno=1&limit=1001', 422, 'limit is not allowed: 1001 > 1000'],

  // /transactions
  ['transactions bad account', '/transactions?account=nope', 422, conv('account', 0)],
  ['transactions second account bad', `/transactions?account=${FRIENDLY}&account=nope`, 422, conv('account', 1)],
  ['transactions comma list is not split', `/transactions?account=${FRIENDLY},${FRIENDLY}`, 422, conv('account', 0)],
  ['transactions bare hex is not an address', `/transactions?account=${'11'.repeat(32)}`, 422, conv('account', 0)],
  ['transactions bad exclude_account', '/transactions?exclude_account=x', 422, conv('exclude_account', 0)],
  ['transactions bad hash', '/transactions?hash=zz', 422, conv('hash', 0)],
  ['transactions bad lt', '/transactions?lt=-5', 422, conv('lt')],
  ['transactions bad workchain', '/transactions?workchain=w', 422, conv('workchain')],
  ['transactions bad shard', '/transactions?shard=g', 422, conv('shard')],
  ['transactions bad mc_seqno', '/transactions?mc_seqno=1e3', 422, conv('mc_seqno')],
  ['transactions bad utime', '/transactions?start_utime=abc', 422, conv('start_utime')],
  ['transactions bad start_lt', '/transactions?start_lt=1.5', 422, conv('start_lt')],
  ['transactions limit', '/transactions?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['transactions sort', '/transactions?sort=ascending', 422, 'wrong value for sort parameter'],

  ['transactionsByMasterchainBlock no seqno', '/transactionsByMasterchainBlock', 422, 'seqno is required'],
  ['transactionsByMasterchainBlock bad seqno', '/transactionsByMasterchainBlock?seqno=one', 422, conv('seqno')],
  ['transactionsByMasterchainBlock limit', '/transactionsByMasterchainBlock?seqno=1&limit=2000', 422, 'limit is not allowed: 2000 > 1000'],
  ['transactionsByMasterchainBlock sort', '/transactionsByMasterchainBlock?seqno=1&sort=x', 422, 'wrong value for sort parameter'],

  // /transactionsByMessage
  ['transactionsByMessage nothing given', '/transactionsByMessage', 422, 'at least one of msg_hash, body_hash, opcode should be specified'],
  ['transactionsByMessage only direction', '/transactionsByMessage?direction=in', 422, 'at least one of msg_hash, body_hash, opcode should be specified'],
  ['transactionsByMessage bad direction', `/transactionsByMessage?msg_hash=${HASH}&direction=both`, 422, 'direction should be one of: in, out'],
  ['transactionsByMessage direction checked first', '/transactionsByMessage?direction=up', 422, 'direction should be one of: in, out'],
  ['transactionsByMessage bad msg_hash', '/transactionsByMessage?msg_hash=abc', 422, conv('msg_hash', 0)],
  ['transactionsByMessage bad body_hash', '/transactionsByMessage?body_hash=abc', 422, conv('body_hash')],
  ['transactionsByMessage bad opcode', '/transactionsByMessage?opcode=0xZZ', 422, conv('opcode')],
  ['transactionsByMessage opcode over 32 bits', '/transactionsByMessage?opcode=0x100000000', 422, conv('opcode')],
  ['transactionsByMessage decimal opcode over int32', '/transactionsByMessage?opcode=-2147483649', 422, conv('opcode')],
  ['transactionsByMessage limit', `/transactionsByMessage?opcode=1&limit=1001`, 422, 'limit is not allowed: 1001 > 1000'],

  ['adjacentTransactions no hash', '/adjacentTransactions', 422, 'hash is required'],
  ['adjacentTransactions bad hash', '/adjacentTransactions?hash=00', 422, conv('hash')],
  ['adjacentTransactions bad direction', `/adjacentTransactions?hash=${HASH}&direction=both`, 422, 'direction should be one of: in, out'],

  // /messages
  ['messages bad source', '/messages?source=nobody', 422, conv('source')],
  ['messages bad destination', '/messages?destination=NULL', 422, conv('destination')],
  ['messages bad msg_hash', `/messages?msg_hash=${HASH}&msg_hash=x`, 422, conv('msg_hash', 1)],
  ['messages bad legacy hash', '/messages?hash=x', 422, conv('hash', 0)],
  ['messages bad body_hash', '/messages?body_hash=x', 422, conv('body_hash')],
  ['messages legacy and new hashes', `/messages?hash=${HASH}&msg_hash=${HASH}`, 422, 'cannot use both legacy and new message hashes'],
  // /transactions: the message filters (toncenter-newer.md §2)
  ['transactions direction alone', '/transactions?direction=in', 422, 'direction can be specified only with msg_hash or opcode'],
  ['transactions direction with body_hash', `/transactions?direction=in&body_hash=${HASH}`, 422, 'direction can be specified only with msg_hash or opcode'],
  ['transactions bad direction', '/transactions?direction=both&opcode=1', 422, 'direction should be one of: in, out'],
  ['transactions bad exclude_account', '/transactions?exclude_account=x', 422, conv('exclude_account', 0)],
  ['transactions bad source', '/transactions?source=null', 422, conv('source')],
  // /balanceChanges (toncenter-newer.md §4)
  ['balanceChanges nothing given', '/balanceChanges', 400, 'trace_id or action_id is required'],
  ['balanceChanges bad trace_id', '/balanceChanges?trace_id=x', 422, conv('trace_id')],
  ['balanceChanges bad action_id', '/balanceChanges?action_id=x', 422, conv('action_id')],
  ['messages bad opcode', '/messages?opcode=xyz', 422, conv('opcode')],
  ['messages bad direction', '/messages?direction=sideways', 422, 'direction should be one of: in, out'],
  ['messages bad exclude_externals', '/messages?exclude_externals=maybe', 422, conv('exclude_externals')],
  ['messages bad only_externals', '/messages?only_externals=2', 422, conv('only_externals')],
  ['messages bad end_utime', '/messages?end_utime=NaN', 422, conv('end_utime')],
  ['messages bad end_lt', '/messages?end_lt=x', 422, conv('end_lt')],
  ['messages limit', '/messages?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['messages sort', '/messages?sort=newest', 422, 'wrong value for sort parameter'],

  // accounts
  ['accountStates no address', '/accountStates', 422, 'address of account is required'],
  ['accountStates empty address', '/accountStates?address=', 422, 'address of account is required'],
  ['accountStates bad address', `/accountStates?address=${FRIENDLY}&address=bad`, 422, conv('address', 1)],
  ['accountStates bad include_boc', `/accountStates?address=${FRIENDLY}&include_boc=yes`, 422, conv('include_boc')],
  ['accountStates bad code_hash', `/accountStates?address=${FRIENDLY}&code_hash=x`, 422, conv('code_hash', 0)],
  ['walletStates no address', '/walletStates', 422, 'address of account is required'],
  ['walletStates bad address', '/walletStates?address=0:zz', 422, conv('address', 0)],
  ['addressBook no address', '/addressBook', 422, 'at least 1 address required'],
  ['topAccountsByBalance limit', '/topAccountsByBalance?limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
  ['topAccountsByBalance bad limit', '/topAccountsByBalance?limit=1.0', 422, conv('limit')],
  ['topAccountsByBalance bad offset', '/topAccountsByBalance?offset=a', 422, conv('offset')],

  // legacy (the reference's 401s are kept, v3.md §2.7)
  ['addressInformation no address', '/addressInformation', 401, 'address of account is required'],
  ['addressInformation bad address', '/addressInformation?address=EQbad', 422, conv('address')],
  ['addressInformation bad use_v2', `/addressInformation?address=${FRIENDLY}&use_v2=yes`, 422, conv('use_v2')],
  ['account alias no address', '/account', 401, 'address of account is required'],
  ['account alias bad address', '/account?address=1:2', 422, conv('address')],
  ['walletInformation no address', '/walletInformation', 401, 'address of account is required'],
  ['walletInformation bad address', '/walletInformation?address=x', 422, conv('address')],
  ['wallet alias no address', '/wallet', 401, 'address of account is required'],
  ['wallet alias bad use_v2', `/wallet?address=${FRIENDLY}&use_v2=2`, 422, conv('use_v2')],

  // routing
  ['unknown route', '/nope', 404, 'Cannot GET /api/v3/nope'],
  ['unknown nested route', '/jetton/nothing?x=1', 404, 'Cannot GET /api/v3/jetton/nothing'],
  ['GET on a POST route', '/message', 405, 'Method Not Allowed'],
];

/** [label, path, raw body, status, error] for POST routes. */
const POST_CASES: Array<[string, string, string | undefined, number, string | RegExp]> = [
  ['message no boc', '/message', '{}', 401, 'boc is required'],
  ['message empty boc', '/message', '{"boc":""}', 401, 'boc is required'],
  ['message null body', '/message', 'null', 401, 'boc is required'],
  ['message boc not a string', '/message', '{"boc":123}', 422, 'json: cannot unmarshal number into Go struct field V2SendMessageRequest.boc of type string'],
  ['message boc not base64', '/message', '{"boc":"!!!"}', 422, 'boc is not a valid base64 BoC'],
  ['message boc base64 but not a BoC', '/message', '{"boc":"aGVsbG8="}', 422, 'boc is not a valid base64 BoC'],
  ['message garbage JSON', '/message', '{oops', 422, /^failed to parse JSON body: /],
  ['message empty body', '/message', '', 422, /^failed to parse JSON body: /],
  ['message array body', '/message', '[1]', 422, 'json: cannot unmarshal array into Go value of type models.V2SendMessageRequest'],
  ['message string body', '/message', '"x"', 422, 'json: cannot unmarshal string into Go value of type models.V2SendMessageRequest'],

  ['runGetMethod no address', '/runGetMethod', '{"method":"seqno"}', 401, 'address is required'],
  ['runGetMethod no method', '/runGetMethod', `{"address":"${FRIENDLY}"}`, 401, 'method is required'],
  ['runGetMethod bad address', '/runGetMethod', '{"address":"x","method":"seqno"}', 422, "invalid address: 'x'"],
  ['runGetMethod numeric method', '/runGetMethod', `{"address":"${FRIENDLY}","method":85143}`, 422, 'json: cannot unmarshal number into Go struct field V2RunGetMethodRequest.method of type string'],
  ['runGetMethod stack not an array', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":{}}`, 422, 'json: cannot unmarshal object into Go struct field V2RunGetMethodRequest.stack of type []models.V2StackEntity'],
  ['runGetMethod stack entry not an object', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":[["num","1"]]}`, 422, 'json: cannot unmarshal array into Go struct field V2RunGetMethodRequest.stack of type models.V2StackEntity'],
  ['runGetMethod unsupported stack type', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":[{"type":"tuple","value":[]}]}`, 422, 'unsupported stack parameter type: tuple'],
  ['runGetMethod bad number', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":[{"type":"num","value":"abc"}]}`, 422, 'Invalid number: "abc" at stack index 0'],
  ['runGetMethod number over int257', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":[{"type":"num","value":"0x1${'0'.repeat(64)}"}]}`, 422, /^Invalid number: /],
  ['runGetMethod bad cell', '/runGetMethod', `{"address":"${FRIENDLY}","method":"seqno","stack":[{"type":"num","value":1},{"type":"cell","value":"zz"}]}`, 422, 'stack entry 1: cell value must be a base64 BoC'],
  ['runGetMethod garbage JSON', '/runGetMethod', 'address=x', 422, /^failed to parse JSON body: /],

  ['estimateFee no address', '/estimateFee', '{}', 422, 'address is required'],
  ['estimateFee bad address', '/estimateFee', `{"address":"nope","body":"${BOC}"}`, 422, "invalid address: 'nope'"],
  ['estimateFee no body', '/estimateFee', `{"address":"${FRIENDLY}"}`, 422, 'body is required'],
  ['estimateFee bad body', '/estimateFee', `{"address":"${FRIENDLY}","body":"xx"}`, 422, 'body is not a valid base64 BoC'],
  ['estimateFee bad init_code', '/estimateFee', `{"address":"${FRIENDLY}","body":"${BOC}","init_code":"x"}`, 422, 'init_code is not a valid base64 BoC'],
  ['estimateFee bad ignore_chksig', '/estimateFee', `{"address":"${FRIENDLY}","body":"${BOC}","ignore_chksig":"yes"}`, 422, 'json: cannot unmarshal string into Go struct field V2EstimateFeeRequest.ignore_chksig of type bool'],

  ['POST on a GET route', '/transactions', '{}', 405, 'Method Not Allowed'],
  ['POST unknown route', '/nothing', '{}', 404, 'Cannot POST /api/v3/nothing'],
];

describe('v3 validation over HTTP (the data source is never asked)', () => {
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
    const r = await request(`${server.url}/api/v3`, path);
    expect(r.body).toEqual({ code: status, error });
    expect(r.status).toBe(status);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(calls).toEqual([]);
  });

  it.each(POST_CASES)('POST %s', async (_label, path, body, status, error) => {
    const r = await request(`${server.url}/api/v3`, path, { method: 'POST', body });
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ code: status, error: typeof error === 'string' ? error : expect.stringMatching(error) });
    expect(calls).toEqual([]);
  });

  it('POST bodies are read as JSON whatever the content type says', async () => {
    const res = await fetch(`${server.url}/api/v3/message`, { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, error: 'boc is required' });
  });

  it('an unreadable content type is a 415 in the v3 shape', async () => {
    const res = await fetch(`${server.url}/api/v3/message`, { method: 'POST', body: '{}', headers: { 'content-type': '' } });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 415, error: expect.any(String) });
    expect(calls).toEqual([]);
  });

  it('an oversized body is a 413 in the v3 shape', async () => {
    const r = await request(`${server.url}/api/v3`, '/message', { method: 'POST', body: JSON.stringify({ boc: 'A'.repeat(2 * 1024 * 1024) }) });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 413, error: expect.any(String) });
    expect(calls).toEqual([]);
  });

  it('paths outside the reference answer a v3-shaped 404', async () => {
    for (const p of ['/nft/offers', '/jetton/holders', '/transaction', '/acton/contracts']) {
      const r = await request(`${server.url}/api/v3`, p);
      expect(r.status, p).toBe(404);
      expect(r.body, p).toEqual({ code: 404, error: `Cannot GET /api/v3${p}` });
    }
  });
});
