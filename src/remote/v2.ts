/**
 * V2Api over HTTP, generic over the endpoint descriptors: each seam method becomes its endpoint's toncenter v2
 * call, the parameters written back by their declarations (addresses raw, hashes and BoCs base64, int64 values
 * as decimal strings; a GET query, or a JSON body for POST-only endpoints), cached by the endpoint's policy, and
 * the envelope's `result` comes back as it was sent, unknown fields included, once it has the promised shape.
 */
import { cachePolicyOf, wireValues } from '../api/descriptor.js';
import { ApiError } from '../api/errors.js';
import { V2_ENDPOINTS, type V2Api, type V2Endpoint } from '../api/v2.js';
import { resultMatches } from '../api/v2/endpoint.js';
import type { UpstreamClient, UpstreamRequest } from './client.js';

/** The request a descriptor makes of a seam params object. */
function request(e: V2Endpoint, params: Record<string, unknown>): UpstreamRequest {
  const values = wireValues(e, params);
  const idempotent = e.idempotent !== false;
  if (e.methods.includes('GET')) {
    const query = values.flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((item): [string, string] => [name, String(item)]));
    return { api: 'v2', method: 'GET', path: e.path, query, idempotent };
  }
  return { api: 'v2', method: 'POST', path: e.path, body: Object.fromEntries(values), idempotent };
}

/** One seam method asking its endpoint; an answer of another shape than promised is not usable. */
const caller =
  (client: UpstreamClient, e: V2Endpoint) =>
  (params: Record<string, unknown> = {}): Promise<unknown> =>
    client.call(request(e, params), cachePolicyOf(e, params), (v) => {
      if (resultMatches(e.result, v)) return;
      const expected = e.result.kind === 'object' && e.result.type ? ` (expected ${e.result.type})` : '';
      throw new ApiError(502, `v2 upstream answered ${e.name} with an unexpected result${expected}`);
    });

export function upstreamV2(client: UpstreamClient): V2Api {
  const methods = V2_ENDPOINTS.filter((e) => e.upstream !== false).map((e) => [e.api, caller(client, e)] as const);
  return Object.fromEntries(methods) as unknown as V2Api;
}
