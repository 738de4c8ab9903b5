/**
 * V3Api over HTTP, generic over the route descriptors: each seam method becomes the toncenter v3 call of its
 * descriptor, the query (or POST body) built from the declared params (addresses raw, hashes base64, shards as
 * unsigned hex, opcodes as 0x%08x), cached as the descriptor says, and the body comes back as it was sent.
 */
import { Address } from '@ton/core';
import { cachePolicyOf, wireValues } from '../api/descriptor.js';
import { ApiError } from '../api/errors.js';
import { V3_UPSTREAM_ROUTES } from '../api/v3/index.js';
import type { V3Descriptor } from '../api/v3/params.js';
import type { StackArg } from '../api/v2.js';
import type { V3Options } from '../api/v3/common.js';
import type { V3Api } from '../api/v3/index.js';
import { rawUpper } from '../model/address.js';
import { b64, opcodeHex, shardHex } from '../model/v3/common.js';
import type { UpstreamClient } from './client.js';
import { toV3Stack } from '../model/stack-wire.js';

/** The wire form of one value: by the param's kind where the value alone is ambiguous, else by its type. */
function wireForm(kind: string, v: unknown): unknown {
  if (kind === 'ShardId') return shardHex(v as bigint);
  if (kind === 'OpcodeType') return opcodeHex(v as number);
  if (kind === 'stack') return toV3Stack(v as StackArg[]);
  if (v === null) return 'null';
  if (v instanceof Address) return rawUpper(v);
  if (Buffer.isBuffer(v)) return b64(v);
  return v;
}

const optionHeaders = (o: V3Options): Record<string, string> => ({
  ...(o.noAddressBook ? { 'x-no-address-book': 'true' } : {}),
  ...(o.noMetadata ? { 'x-no-metadata': 'true' } : {}),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body must be an object holding `key` as an array (or be an array when key is `[]`, any object when undefined). */
function expectBody(route: string, v: unknown, key?: string): void {
  const ok = key === undefined ? isObject(v) : key === '[]' ? Array.isArray(v) : isObject(v) && Array.isArray(v[key]);
  if (!ok) throw new ApiError(502, `v3 upstream answered ${route} with an unexpected body`);
}

/** One upstream call of a descriptor with the seam's params object. */
function call(client: UpstreamClient, d: V3Descriptor, p: Record<string, unknown> = {}): Promise<unknown> {
  const values = wireValues(d, p).map(([wire, v]): [string, unknown] => {
    const { kind, list } = d.params[wire]!;
    return [wire, list && Array.isArray(v) ? v.map((item) => wireForm(kind, item)) : wireForm(kind, v)];
  });
  const [method] = d.methods;
  if (method === 'POST') {
    const body = Object.fromEntries(values);
    return client.call({ api: 'v3', method, path: d.path, body, idempotent: d.idempotent ?? true }, undefined, (v) => expectBody(d.path, v));
  }
  const query = values.flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item): [string, string] => [k, String(item)]));
  const headers = d.options ? optionHeaders(p as V3Options) : undefined;
  return client.call({ api: 'v3', method, path: d.path, query, headers, idempotent: true }, cachePolicyOf(d, p), (v) =>
    expectBody(d.path, v, d.top),
  );
}

/** Every v3 seam method, each asked through its descriptor. */
export function upstreamV3(client: UpstreamClient): V3Api {
  const api: Record<string, (p?: Record<string, unknown>) => Promise<unknown>> = {};
  for (const [method, d] of V3_UPSTREAM_ROUTES) api[method] = (p) => call(client, d, p);
  return api as unknown as V3Api;
}
