/**
 * The v3 descriptors as the one place a route is declared: a request read by the REST mount from a descriptor
 * reaches an upstream exactly as the descriptor's params, defaults, legacy aliases and fixed params say,
 * through the generic upstream client, with the descriptor's cache policy and option headers.
 */
import { Address, beginCell } from '@ton/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import type { CachePolicy, UpstreamClient, UpstreamRequest } from '../../../src/remote/client.js';
import { upstreamV3 } from '../../../src/remote/v3.js';
import { request, startV3Server, type V3Server } from './v3-harness.js';

const A = new Address(0, Buffer.alloc(32, 0x11));
const B = new Address(-1, Buffer.alloc(32, 0xab));
const H = Buffer.alloc(32, 7);

/** Every top-level list an answer of these routes is checked for. */
const ANSWER = { wallets: [], blocks: [], messages: [], jetton_transfers: [], traces: [], address_book: {}, metadata: {} };

describe('v3 descriptors drive the REST surface and the upstream client alike', () => {
  let server: V3Server;
  const sent: { req: UpstreamRequest; policy?: CachePolicy }[] = [];

  beforeAll(async () => {
    const client = {
      call: async (req: UpstreamRequest, policy?: CachePolicy, check?: (v: unknown) => void) => {
        sent.push({ req, policy });
        const value = req.method === 'POST' ? { ok: true } : ANSWER;
        check?.(value);
        return value;
      },
    } as unknown as UpstreamClient;
    server = await startV3Server(upstreamV3(client));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    sent.length = 0;
  });

  async function upstreamCall(path: string, init?: { method?: string; body?: string; headers?: Record<string, string> }) {
    const r = await request(`${server.url}/api/v3`, path, init);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(sent).toHaveLength(1);
    return sent[0]!;
  }

  it('gives every seam method one descriptor an upstream is asked through', () => {
    const upstream = V3_DESCRIPTORS.filter((d) => d.upstream !== false).map((d) => d.api);
    expect(new Set(upstream).size).toBe(upstream.length);
    expect(new Set(V3_DESCRIPTORS.map((d) => d.api))).toEqual(new Set(upstream));
  });

  it('/walletStates: repeated addresses in any form go on raw, with the TTL policy and the option headers', async () => {
    const { req, policy } = await upstreamCall(`/walletStates?address=${A.toString()}&address=${rawUpper(B)}`, {
      headers: { 'x-no-address-book': '1' },
    });
    expect(req).toMatchObject({ method: 'GET', path: '/walletStates', headers: { 'x-no-address-book': 'true' } });
    expect(req.query).toEqual([
      ['address', rawUpper(A)],
      ['address', rawUpper(B)],
    ]);
    expect(policy).toEqual({ kind: 'ttl' });
  });

  it('/blocks: shards as unsigned hex, the paging defaults sent, cached for good when the block is named, else for the TTL', async () => {
    const { req, policy } = await upstreamCall('/blocks?workchain=-1&shard=-9223372036854775808&seqno=5&sort=A');
    expect(req.query).toEqual([
      ['workchain', '-1'],
      ['shard', '8000000000000000'],
      ['seqno', '5'],
      ['limit', '100'],
      ['offset', '0'],
      ['sort', 'asc'],
    ]);
    expect(policy?.kind).toBe('immutable');
    sent.length = 0;
    // an open filter grows as blocks are sealed: reused for the TTL only (issue 30)
    expect((await upstreamCall('/blocks?workchain=-1')).policy).toEqual({ kind: 'ttl' });
  });

  it('/messages: the legacy `hash` fills msg_hash and is not sent itself; opcodes go as 0x%08x', async () => {
    const { req } = await upstreamCall(`/messages?hash=${H.toString('hex')}&opcode=-1&source=null`);
    expect(req.query).toEqual([
      ['msg_hash', H.toString('base64')],
      ['source', 'null'],
      ['opcode', '0xffffffff'],
      ['limit', '100'],
      ['offset', '0'],
    ]);
  });

  it('/jetton/transfers: the legacy owner `address` becomes owner_address, `both` is no direction', async () => {
    const { req } = await upstreamCall(`/jetton/transfers?address=${A.toString()}&direction=both&limit=2`);
    expect(req.query).toEqual([
      ['owner_address', rawUpper(A)],
      ['limit', '2'],
      ['offset', '0'],
    ]);
  });

  it('/events is /traces upstream, with include_actions fixed on', async () => {
    const { req } = await upstreamCall(`/events?account=${A.toString()}&include_actions=false`);
    expect(req.path).toBe('/traces');
    expect(req.query).toContainEqual(['include_actions', 'true']);
    expect(req.query).toContainEqual(['account', rawUpper(A)]);
  });

  it('POST bodies: the address raw, the stack in v3 form; GET /decode goes upstream as POST', async () => {
    const run = await upstreamCall('/runGetMethod', {
      method: 'POST',
      body: JSON.stringify({ address: A.toString(), method: 'seqno', stack: [{ type: 'num', value: '7' }] }),
    });
    expect(run.req).toMatchObject({ method: 'POST', path: '/runGetMethod', idempotent: true });
    expect(run.req.body).toEqual({ address: rawUpper(A), method: 'seqno', stack: [{ type: 'num', value: '0x7' }] });
    sent.length = 0;
    const boc = beginCell().storeUint(1, 8).endCell().toBoc().toString('base64');
    const msg = await upstreamCall('/message', { method: 'POST', body: JSON.stringify({ boc }) });
    expect(msg.req).toMatchObject({ path: '/message', body: { boc }, idempotent: false });
    sent.length = 0;
    const decode = await upstreamCall('/decode?opcodes=0x1');
    expect(decode.req).toMatchObject({ method: 'POST', path: '/decode', body: { opcodes: ['0x1'], bodies: [] } });
  });
});
