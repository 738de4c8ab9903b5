/**
 * The upstream v2 client built from the endpoint descriptors: each seam method becomes its endpoint's request,
 * parameters written back from their declarations (nested fields, a surface-only alias left out, lists
 * repeated, POST bodies as JSON), with the descriptor's cache policy and result check.
 */
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { V2_ENDPOINTS, type V2Api } from '../../src/api/v2.js';
import type { CachePolicy, UpstreamClient, UpstreamRequest } from '../../src/remote/client.js';
import { upstreamV2 } from '../../src/remote/v2.js';

interface Seen {
  req: UpstreamRequest;
  policy: CachePolicy;
}

/** A client that records each request and answers `answer`, passed through the caller's check. */
function recorder(answer: unknown): { v2: V2Api; seen: Seen[] } {
  const seen: Seen[] = [];
  const client = {
    call: async (req: UpstreamRequest, policy: CachePolicy, check?: (v: unknown) => void) => {
      seen.push({ req, policy });
      check?.(answer);
      return answer;
    },
  } as unknown as UpstreamClient;
  return { v2: upstreamV2(client), seen };
}

const ADDR = Address.parse('0:' + 'ab'.repeat(32));
const HASH = Buffer.alloc(32, 7);

describe('upstream v2 requests from the descriptors', () => {
  it('answers every V2Api method through exactly one endpoint', () => {
    const { v2 } = recorder({});
    const asked = V2_ENDPOINTS.filter((e) => e.upstream !== false).map((e) => e.api);
    expect(new Set(asked).size).toBe(asked.length);
    expect(Object.keys(v2).sort()).toEqual([...asked].sort());
    expect(V2_ENDPOINTS.filter((e) => e.upstream === false).map((e) => e.name)).toEqual(['sendBocReturnHashNoError']);
  });

  it('writes a nested page cursor back as its two wire params, in declaration order', async () => {
    const { v2, seen } = recorder({ '@type': 'blocks.transactions' });
    await v2.getBlockTransactions({ workchain: 0, shard: -(1n << 63n), seqno: 5, after: { lt: 9n, accountHash: HASH }, count: 40 });
    expect(seen[0]!.req).toEqual({
      api: 'v2',
      method: 'GET',
      path: '/getBlockTransactions',
      query: [
        ['workchain', '0'],
        ['shard', '-9223372036854775808'],
        ['seqno', '5'],
        ['after_lt', '9'],
        ['after_hash', HASH.toString('base64')],
        ['count', '40'],
      ],
      idempotent: true,
    });
    expect(seen[0]!.policy).toEqual({ kind: 'immutable' });
  });

  it('caches an account history only from a fixed transaction, and only when it found something', async () => {
    const { v2, seen } = recorder([]);
    await v2.getTransactions({ address: ADDR, limit: 10, toLt: 0n, archival: false });
    await v2.getTransactions({ address: ADDR, limit: 2, from: { lt: 100n, hash: HASH }, toLt: 0n, archival: true });
    expect(seen[0]!.req.query).toEqual([
      ['address', ADDR.toRawString()],
      ['limit', '10'],
      ['to_lt', '0'],
      ['archival', 'false'],
    ]);
    expect(seen[0]!.policy).toEqual({ kind: 'none' });
    expect(seen[1]!.req.query).toEqual([
      ['address', ADDR.toRawString()],
      ['limit', '2'],
      ['lt', '100'],
      ['hash', HASH.toString('base64')],
      ['to_lt', '0'],
      ['archival', 'true'],
    ]);
    const policy = seen[1]!.policy as { kind: 'immutable'; keep: (v: unknown) => boolean };
    expect([policy.kind, policy.keep([]), policy.keep([{}])]).toEqual(['immutable', false, true]);
  });

  it('sends config_id, never its surface-only alias; repeats list params', async () => {
    const { v2, seen } = recorder({ '@type': 'configInfo' });
    await v2.getConfigParam({ configId: 34 });
    expect(seen[0]!.req.query).toEqual([['config_id', '34']]);
    expect(seen[0]!.policy).toEqual({ kind: 'ttl' });
    const libs = recorder({ '@type': 'smc.libraryResult', result: [] });
    await libs.v2.getLibraries({ libraries: [HASH, Buffer.alloc(32, 1)] });
    expect(libs.seen[0]!.req.query).toEqual([
      ['libraries', HASH.toString('base64')],
      ['libraries', Buffer.alloc(32, 1).toString('base64')],
    ]);
  });

  it('posts get-method runs and sends as JSON; a send is never repeated', async () => {
    const run = recorder({ '@type': 'smc.runResult' });
    await run.v2.runGetMethod({ address: ADDR, method: 'seqno', seqno: 3, stack: [{ type: 'int', value: 5n }] });
    expect(run.seen[0]!.req).toEqual({
      api: 'v2',
      method: 'POST',
      path: '/runGetMethod',
      body: { address: ADDR.toRawString(), method: 'seqno', stack: [['num', '0x5']], seqno: 3 },
      idempotent: true,
    });
    expect(run.seen[0]!.policy).toEqual({ kind: 'immutable' });
    const send = recorder({ '@type': 'ok' });
    const boc = Buffer.from('b5ee9c72', 'hex');
    await send.v2.sendBoc({ boc });
    expect(send.seen[0]!.req).toMatchObject({ method: 'POST', path: '/sendBoc', body: { boc: boc.toString('base64') }, idempotent: false });
  });

  it('refuses an answer of another shape than the endpoint promises', async () => {
    const { v2 } = recorder({ '@type': 'blocks.header' });
    await expect(v2.getShards({ seqno: 1 })).rejects.toMatchObject({
      status: 502,
      message: 'v2 upstream answered getShards with an unexpected result (expected blocks.shards)',
    });
    await expect(recorder({}).v2.getAddressBalance({ address: ADDR })).rejects.toMatchObject({ status: 502 });
  });
});
