/**
 * v2 endpoints on the descriptor kit (../descriptor.ts): everything the REST surface, JSON-RPC, the OpenAPI
 * document and the upstream client need to know about one toncenter v2 endpoint, declared once in its group's file.
 */
import type { CachePolicy, Descriptor, HttpMethod } from '../descriptor.js';
import type { V2Api } from '../v2.js';
import type { ParamMap } from './params.js';

/** Read methods take GET and POST in the C++ variant; send/run/estimate are POST only. */
export const READ: readonly HttpMethod[] = ['GET', 'POST'];
export const POST_ONLY: readonly HttpMethod[] = ['POST'];

export const IMMUTABLE: CachePolicy = { kind: 'immutable' };

/** What `result` holds: a string, an array, or an object (with this `@type`, when given). */
export type ResultShape = { kind: 'string' } | { kind: 'array' } | { kind: 'object'; type?: string };

export const STRING: ResultShape = { kind: 'string' };
export const ARRAY: ResultShape = { kind: 'array' };
export const object = (type?: string): ResultShape => ({ kind: 'object', type });

export const resultMatches = (shape: ResultShape, value: unknown): boolean =>
  shape.kind === 'string'
    ? typeof value === 'string'
    : shape.kind === 'array'
      ? Array.isArray(value)
      : typeof value === 'object' && value !== null && !Array.isArray(value) &&
        (shape.type === undefined || (value as Record<string, unknown>)['@type'] === shape.type);

export type V2Category = 'Accounts' | 'Blocks' | 'Transactions' | 'Send' | 'Run method' | 'Utils' | 'Configuration';

/** A v2 endpoint: its path is `/name`, its aliases are further JSON-RPC names (each also a path). */
export interface V2Endpoint extends Descriptor<V2Api> {
  /** path under /api/v2 without the slash, and JSON-RPC method name */
  readonly name: string;
  readonly category: V2Category;
  readonly params: ParamMap;
  /** `result`'s shape, which an upstream answer must have */
  readonly result: ResultShape;
  /** errors in the spec's own words, without the C++ `failed to parse … request:` / `failed to validate request:` wrappers */
  readonly bareErrors?: boolean;
  /** the status every failure of the source is reported with (sendBocReturnHashNoError) */
  readonly failureStatus?: number;
}

type EndpointSpec = Omit<V2Endpoint, 'path' | 'response' | 'api'> & { readonly api?: keyof V2Api };

/** Declares an endpoint: the path follows the name, the 200 answer is the v2 envelope, the seam method is the name unless given. */
export const endpoint = (e: EndpointSpec): V2Endpoint => ({
  ...e,
  path: `/${e.name}`,
  response: 'V2Ok',
  api: e.api ?? (e.name as keyof V2Api),
});

/** An account, config or get-method answer as of a given masterchain block never changes; the latest one does. */
export const atSeqnoOr =
  (latest: CachePolicy) =>
  (params: Record<string, unknown>): CachePolicy =>
    params.seqno !== undefined ? IMMUTABLE : latest;
