/**
 * toncenter-newer.md §2, §3 and §5 on the local chain (A) and through upstream mode in front of it (B), every
 * answer alike on both: /transactions takes the message filters of /transactionsByMessage (msg_hash[],
 * body_hash, opcode, source, destination, direction) with their 422s, parses exclude_account[] and ignores it;
 * an opcode matches the sending and the receiving side unless direction narrows it (on both routes); one
 * account orders by the sort's direction; /messages refuses the legacy hash[] beside msg_hash[] and reads it
 * alone as msg_hash; `suspended` is `true` or absent. The data is genesis: alice's jetton transfer to carol.
 */
import { Cell, Dictionary } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { assertResponse } from '../../helpers/openapi.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

const V3 = '/api/v3';
const TRANSFER = '0x0f8a7ea5';
type Json = any;

describe('v3 message filters on /transactions and /messages, local chain and upstream mode', () => {
  let A: Gateway;
  let B: Gateway;
  let alice: string;
  let carol: string;
  /** alice's `transfer` to her jetton wallet, as /messages prints it */
  let transfer: Json;

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const wallets = A.chain!.keyedWallets();
    alice = wallets[0]!.contract.address.toRawString().toUpperCase();
    carol = wallets[2]!.contract.address.toRawString().toUpperCase();
    const r = (await http(`${A.url}${V3}/messages?opcode=${TRANSFER}&source=${alice}`)).body as Json;
    transfer = r.messages.find((m: Json) => m.source === alice);
  }, 120_000);
  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  const both = onBoth(() => A, () => B);

  /** The hashes of a 200 /transactions-shaped answer, checked against the reference's schema. */
  async function txHashes(route: string, query: string): Promise<string[]> {
    const r = await both(`${route}?${query}`);
    expect(r.status, `${route}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
    assertResponse(`${V3}${route}`, 'get', 200, r.body, { closed: true });
    return r.body.transactions.map((t: Json) => t.hash);
  }

  const enc = encodeURIComponent;

  it('finds the genesis jetton transfer: sent by alice, received by her jetton wallet', () => {
    expect(transfer).toBeDefined();
    expect(transfer.opcode).toBe(TRANSFER);
    expect(typeof transfer.out_msg_tx_hash).toBe('string');
    expect(typeof transfer.in_msg_tx_hash).toBe('string');
  });

  it('an opcode matches both sides on /transactions and /transactionsByMessage; direction narrows it', async () => {
    const sent = transfer.out_msg_tx_hash;
    const received = transfer.in_msg_tx_hash;
    for (const route of ['/transactions', '/transactionsByMessage']) {
      const any = await txHashes(route, `opcode=${TRANSFER}`);
      expect(any, route).toEqual(expect.arrayContaining([sent, received]));
      const inbound = await txHashes(route, `opcode=${TRANSFER}&direction=in`);
      expect(inbound, route).toContain(received);
      expect(inbound, route).not.toContain(sent);
      const outbound = await txHashes(route, `opcode=${TRANSFER}&direction=out`);
      expect(outbound, route).toContain(sent);
      expect(outbound, route).not.toContain(received);
      expect([...inbound, ...outbound].sort(), route).toEqual([...any].sort());
      // signed decimal and bare hex name the same opcode
      expect(await txHashes(route, `opcode=${0x0f8a7ea5}`), route).toEqual(any);
      expect(await txHashes(route, 'opcode=f8a7ea5'), route).toEqual(any);
    }
  });

  it('msg_hash, body_hash, source and destination select the transactions of the messages they match', async () => {
    const sent = transfer.out_msg_tx_hash;
    const received = transfer.in_msg_tx_hash;
    expect((await txHashes('/transactions', `msg_hash=${enc(transfer.hash)}`)).sort()).toEqual([sent, received].sort());
    expect(await txHashes('/transactions', `msg_hash=${enc(transfer.hash)}&direction=in`)).toEqual([received]);
    expect(await txHashes('/transactions', `body_hash=${enc(transfer.message_content.hash)}`)).toEqual(expect.arrayContaining([sent, received]));
    // every transaction of source=alice sent a message of hers or received one
    const bySource = await both(`/transactions?source=${alice}&limit=1000`);
    expect(bySource.body.transactions.length).toBeGreaterThan(1);
    for (const t of bySource.body.transactions) {
      const fromAlice = t.in_msg?.source === alice || (t.account === alice && t.out_msgs.length > 0);
      expect(fromAlice, t.hash).toBe(true);
    }
    expect(bySource.body.transactions.map((t: Json) => t.hash)).toEqual(expect.arrayContaining([sent, received]));
    // destination=carol: her transactions with an in-message, and the ones that sent them
    const byDestination = await both(`/transactions?destination=${carol}&limit=1000`);
    for (const t of byDestination.body.transactions) {
      const toCarol = (t.account === carol && t.in_msg?.destination === carol) || t.out_msgs.some((m: Json) => m.destination === carol);
      expect(toCarol, t.hash).toBe(true);
    }
    // with the transaction filters: the jetton wallet's own side only
    const walletTx = bySource.body.transactions.find((t: Json) => t.hash === received);
    expect(await txHashes('/transactions', `account=${walletTx.account}&opcode=${TRANSFER}`)).toEqual([received]);
    // newest first by lt, as every /transactions list
    const lts = bySource.body.transactions.map((t: Json) => BigInt(t.lt));
    expect([...lts].sort((x, y) => (x < y ? 1 : x > y ? -1 : 0))).toEqual(lts);
  });

  it('refuses direction outside in|out, and without msg_hash or opcode, in the reference words', async () => {
    const cases: [string, string][] = [
      ['direction=sideways', 'direction should be one of: in, out'],
      ['direction=sideways&opcode=1', 'direction should be one of: in, out'],
      ['direction=in', 'direction can be specified only with msg_hash or opcode'],
      [`direction=out&body_hash=${enc(transfer.message_content.hash)}`, 'direction can be specified only with msg_hash or opcode'],
      [`direction=in&source=${alice}`, 'direction can be specified only with msg_hash or opcode'],
      [`direction=in&destination=${alice}`, 'direction can be specified only with msg_hash or opcode'],
      // the direction rule comes before the query builder's limit
      ['direction=in&limit=5000', 'direction can be specified only with msg_hash or opcode'],
    ];
    for (const [q, error] of cases) expect(await both(`/transactions?${q}`), q).toEqual({ status: 422, body: { code: 422, error } });
    // /transactionsByMessage keeps its own rules: direction is checked, and needs no msg_hash there
    expect(await both('/transactionsByMessage?direction=sideways&opcode=1')).toEqual({ status: 422, body: { code: 422, error: 'direction should be one of: in, out' } });
    expect((await both(`/transactionsByMessage?body_hash=${enc(transfer.message_content.hash)}&direction=in`)).status).toBe(200);
  });

  it('parses exclude_account[] (a bad address is the parser\'s 422) and ignores it', async () => {
    expect(await both('/transactions?exclude_account=nope')).toEqual({
      status: 422,
      body: { code: 422, error: 'failed to decode: schema: error converting value for index 0 of "exclude_account"' },
    });
    const plain = await txHashes('/transactions', `account=${alice}&limit=20`);
    expect(await txHashes('/transactions', `account=${alice}&exclude_account=${alice}&limit=20`)).toEqual(plain);
  });

  it('orders one account\'s transactions by the sort in both directions', async () => {
    const desc = await txHashes('/transactions', `account=${alice}&limit=1000&sort=desc`);
    const asc = await txHashes('/transactions', `account=${alice}&limit=1000&sort=asc`);
    expect(desc.length).toBeGreaterThan(2);
    expect(asc).toEqual([...desc].reverse());
    const ascWindow = await txHashes('/transactions', `account=${alice}&start_utime=1&limit=1000&sort=asc`);
    expect(ascWindow).toEqual(asc);
  });

  it('/messages: the legacy hash[] alone is msg_hash; both together are refused', async () => {
    const byNew = await both(`/messages?msg_hash=${enc(transfer.hash)}`);
    expect(byNew.body.messages.map((m: Json) => m.hash)).toEqual([transfer.hash]);
    expect(await both(`/messages?hash=${enc(transfer.hash)}`)).toEqual(byNew);
    const other = (await both(`/messages?source=${carol}&limit=1`)).body.messages[0];
    const two = await both(`/messages?hash=${enc(transfer.hash)}&hash=${enc(other.hash)}`);
    expect(two.body.messages.map((m: Json) => m.hash).sort()).toEqual([transfer.hash, other.hash].sort());
    expect(await both(`/messages?hash=${enc(transfer.hash)}&msg_hash=${enc(transfer.hash)}`)).toEqual({
      status: 422,
      body: { code: 422, error: 'cannot use both legacy and new message hashes' },
    });
    // the hash rule comes before the builder's checks
    expect((await both(`/messages?hash=${enc(transfer.hash)}&msg_hash=${enc(transfer.hash)}&direction=x&limit=5000`)).body.error).toBe(
      'cannot use both legacy and new message hashes',
    );
  });

  it('`suspended` is true for an account config param 44 lists (while it lasts) and absent otherwise, never false', async () => {
    const r = (await http(`${A.url}/api/v2/getConfigParam?config_id=44`)).body as Json;
    const s = Cell.fromBase64(r.result.config.bytes).beginParse();
    expect(s.loadUint(8)).toBe(0);
    const dict = s.loadDict(Dictionary.Keys.BigUint(288), { serialize: () => undefined, parse: () => true });
    const until = s.loadUint(32);
    const listed = dict.keys().map((k) => `${Number(BigInt.asIntN(32, k >> 256n))}:${(k & ((1n << 256n) - 1n)).toString(16).padStart(64, '0').toUpperCase()}`);
    for (const path of [`/accountStates?address=${alice}`, `/walletStates?address=${alice}`, `/addressInformation?address=${alice}`, `/walletInformation?address=${alice}`, `/account?address=${alice}`, `/wallet?address=${alice}`]) {
      const body = (await both(path)).body;
      const row = body.accounts?.[0] ?? body.wallets?.[0] ?? body;
      expect(row, path).not.toHaveProperty('suspended');
    }
    // the chain's config is mainnet's (@ton/sandbox's default), whose list lasts until 2027-02-21
    expect(listed.length).toBeGreaterThan(0);
    const lastUtime = Number(((await both('/masterchainInfo')).body as Json).last.gen_utime);
    expect(until).toBeGreaterThan(lastUtime);
    for (const path of [`/addressInformation?address=${listed[0]}`, `/walletInformation?address=${listed[0]}`]) {
      expect((await both(path)).body.suspended, path).toBe(true);
    }
  });
});
