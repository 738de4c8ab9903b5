/**
 * The v3 flavour of the descriptor kit: query converters that accept exactly what the reference's Go
 * converters accept (v3.md §1.2, §1.4, §5), JSON-body readers, the shared param groups of the reference's
 * request structs (v3.md §2) and the V3Descriptor every route file declares.
 */
import type { Address } from '@ton/core';
import { parseAddressAny } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';
import { descriptor, type Descriptor, type ParamSpec } from '../descriptor.js';
import { ApiError } from '../errors.js';
import { type Direction, type Sort, V3_DEFAULT_LIMIT, V3_MAX_LIMIT } from './common.js';
import type { V3Api } from './index.js';
import type { V3BranchFeature } from './branch.js';

/** A query value's converter; `undefined` means the value is not acceptable (a gorilla/schema conversion error). */
export type QueryConvert<T> = (raw: string) => T | undefined;
/** A JSON body member's reader (`struct` names the Go request struct in type-error messages); throws ApiError. */
export type BodyRead<T> = (body: Record<string, unknown>, struct: string, field: string) => T | undefined;

export interface V3ParamSpec<T = unknown> extends ParamSpec<T, QueryConvert<T> | BodyRead<T>> {
  readonly in: 'query' | 'body';
  /** a request header that replaces the value when given (X-Actions-Version, v3.md §1.1) */
  readonly header?: string;
  /** a legacy alias: its value fills this seam field when the field's own param gave nothing */
  readonly fills?: string;
  /** read only when this branch-only feature is served (branch.ts) */
  readonly branch?: V3BranchFeature;
}

export type V3Params = Record<string, V3ParamSpec<any>>;

export interface V3Descriptor extends Descriptor<V3Api, V3Params> {
  readonly methods: readonly ['GET'] | readonly ['POST'];
  /** mounted only when this branch-only feature is served (branch.ts) */
  readonly branch?: V3BranchFeature;
  /** seam params set, beside `fixed`, when a branch-only feature is served */
  readonly branchFixed?: Partial<Record<V3BranchFeature, Record<string, unknown>>>;
  /** a body member the route does not declare is a 422 (`invalid JSON: json: unknown field "x"`), as Go's strict decoder */
  readonly strictBody?: true;
  /** a GET answer carries a strong ETag, and If-None-Match with it is a 304 */
  readonly etag?: true;
}

export const v3Route = (d: V3Descriptor): V3Descriptor => descriptor<V3Api, V3Params>(d) as V3Descriptor;

type Extra<T> = Partial<Omit<V3ParamSpec<T>, 'in' | 'reader' | 'kind'>>;

const queryParam =
  <T>(kind: string, convert: QueryConvert<T>) =>
  (extra: Extra<T> = {}): V3ParamSpec<T> => ({ in: 'query', kind, reader: convert, list: false, required: false, ...extra });

/** Makes a param repeatable (`?k=a&k=b`, or a JSON array in a body); comma-separated values are not split (v3.md §1.2). */
export const list = <T>(p: V3ParamSpec<T>): V3ParamSpec<T> => ({ ...p, list: true });

/** A required param: absent (or an empty list) is `status` with the reference's `message`, checked in declaration order. */
export const required = <T>(p: V3ParamSpec<T>, message: string, status = 422, late = false): V3ParamSpec<T> => ({
  ...p,
  required: true,
  late,
  check: (v: unknown) => {
    if (v === undefined) throw new ApiError(status, message);
    return p.check ? p.check(v) : (v as T);
  },
});

// ---- query converters (v3.md §1.2 table; Go strconv semantics) ----

const INT = /^[+-]?\d+$/;
const UINT = /^\d+$/;
const HEX = /^[0-9a-fA-F]+$/;
const MAX_U64 = (1n << 64n) - 1n;

function intInRange(raw: string, min: bigint, max: bigint): bigint | undefined {
  if (!INT.test(raw)) return undefined;
  const v = BigInt(raw);
  return v >= min && v <= max ? v : undefined;
}

/** Go `int32` (strconv.ParseInt base 10, 32 bits). */
export const int32 = queryParam<number>('int32', (raw) => {
  const v = intInRange(raw, -(1n << 31n), (1n << 31n) - 1n);
  return v === undefined ? undefined : Number(v);
});

/** Go `uint64` (strconv.ParseUint base 10): lt values. */
export const uint64 = queryParam<bigint>('uint64', (raw) => {
  if (!UINT.test(raw)) return undefined;
  const v = BigInt(raw);
  return v <= MAX_U64 ? v : undefined;
});

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go strconv.ParseBool: also how the request settings (X-No-*) are read. */
export const parseGoBool = (raw: string): boolean | undefined => (GO_TRUE.has(raw) ? true : GO_FALSE.has(raw) ? false : undefined);

/** Go `bool` (strconv.ParseBool). */
export const bool = queryParam<boolean>('bool', parseGoBool);

/** Free text, validated later by a check (sort, direction). */
export const text = queryParam<string>('string', (raw) => raw);

/** ShardId: unsigned hex (optional 0x) tried first, then signed decimal; held as the uint64 bit pattern. */
export const shard = queryParam<bigint>('ShardId', (raw) => {
  const s = raw.startsWith('0x') ? raw.slice(2) : raw;
  if (HEX.test(s) && BigInt(`0x${s}`) <= MAX_U64) return BigInt(`0x${s}`);
  const v = intInRange(s, -(1n << 63n), (1n << 63n) - 1n);
  return v === undefined ? undefined : BigInt.asUintN(64, v);
});

export function parseHashV3(raw: string): Buffer | undefined {
  const s = raw.length === 66 && raw.startsWith('0x') ? raw.slice(2) : raw;
  return parseHash(s) ?? undefined;
}

/** HashType: 64 hex (optional 0x), or 44-char base64 / base64url (43-char unpadded base64url too). */
export const hash = queryParam<Buffer>('HashType', parseHashV3);

export function parseAddressV3(raw: string): Address | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return undefined;
  return parseAddressAny(raw)?.address ?? undefined;
}

/** AccountAddress: user-friendly (base64 or base64url) or raw `wc:hex`; a bare hex id is not an address in v3. */
export const address = queryParam<Address>('AccountAddress', parseAddressV3);

/** AccountAddressNullable: an address, or the literal `null` (IS NULL filter). */
export const addressNullable = queryParam<Address | null>('AccountAddressNullable', (raw) =>
  raw === 'null' ? null : parseAddressV3(raw),
);

/** OpcodeType: hex first (with or without 0x), then signed 32-bit decimal; held as int32 like the reference. */
export const opcode = queryParam<number>('OpcodeType', (raw) => {
  const prefixed = raw.startsWith('0x') || raw.startsWith('0X');
  const s = prefixed ? raw.slice(2) : raw;
  if (HEX.test(s)) {
    const v = BigInt(`0x${s}`);
    if (v <= 0xffffffffn) return Number(BigInt.asIntN(32, v));
  }
  if (prefixed) return undefined;
  const d = intInRange(s, -(1n << 31n), (1n << 31n) - 1n);
  return d === undefined ? undefined : Number(d);
});

/** UtimeType: unsigned integer or float (truncated); negatives and non-finite values are refused. */
export const utime = queryParam<number>('UtimeType', (raw) => {
  if (UINT.test(raw)) {
    const v = Number(raw);
    return Number.isSafeInteger(v) ? v : undefined;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return undefined;
  const f = Number(raw);
  if (!Number.isFinite(f) || f < 0 || f > Number.MAX_SAFE_INTEGER) return undefined;
  return Math.trunc(f);
});

// ---- sort / direction / paging (v3.md §1.4, validateDirection, limitQuery) ----

/** sort: asc|a|desc|d in any case; absent only where the route declares no default (/blocks: no order). */
export function checkSort(sort: string | undefined): Sort | undefined {
  if (sort === undefined) return undefined;
  switch (sort.toLowerCase()) {
    case 'asc':
    case 'a':
      return 'asc';
    case 'desc':
    case 'd':
      return 'desc';
  }
  throw new ApiError(422, 'wrong value for sort parameter');
}

/** direction: in|out only (validateDirection in the reference). */
export function checkDirection(direction: string | undefined): Direction | undefined {
  if (direction === undefined || direction === 'in' || direction === 'out') return direction;
  throw new ApiError(422, 'direction should be one of: in, out');
}

/** The `direction` of transaction and message routes. */
export const direction = (extra: { late?: boolean } = {}) => text({ check: checkDirection, ...extra });

/** `limit` after the reference's limitQuery: default `fallback`, over 1000 a 422, below 1 raised to 1. */
export const limitParam = (fallback = V3_DEFAULT_LIMIT) => ({
  limit: int32({
    default: fallback,
    min: 1,
    max: V3_MAX_LIMIT,
    late: true,
    check: (limit: number) => {
      if (limit > V3_MAX_LIMIT) throw new ApiError(422, `limit is not allowed: ${limit} > ${V3_MAX_LIMIT}`);
      return Math.max(1, limit);
    },
  }),
});

/** limit/offset after the reference's rules: default 100, over 1000 a 422, below 1 raised to 1, negative offsets 0. */
export const pageParams = {
  ...limitParam(),
  offset: int32({ default: 0, min: 0, late: true, check: (offset: number) => Math.max(0, offset) }),
};
export const sortParam = { sort: text({ default: 'desc', upstreamDefault: true, late: true, check: checkSort, description: 'asc or desc' }) };
/** /blocks and /jetton/wallets: no default, not asking changes the order (v3.md §2.1, §2.4). */
export const unorderedSortParam = { sort: text({ late: true, check: checkSort, description: 'asc or desc' }) };
export const utimeParams = { start_utime: utime(), end_utime: utime() };
/** The newer routes' inclusive window (v3-more-routes.md conventions): a reversed one is a 422. */
export function checkWindow(p: { startUtime?: number; endUtime?: number }): void {
  if (p.startUtime !== undefined && p.endUtime !== undefined && p.startUtime > p.endUtime) {
    throw new ApiError(422, 'start_utime must be less than or equal to end_utime');
  }
}
export const ltParams = { start_lt: uint64(), end_lt: uint64() };

/** The X-Actions-Version header replaces supported_action_types (v3.md §1.1). */
export const supportedActionTypes = () => list(text({ header: 'x-actions-version' }));

/** The rows under an answer's top-level `key` (none when the answer has another shape), for cache policies. */
export function listOf(v: unknown, key: string): Record<string, unknown>[] {
  const rows = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}
