/**
 * What every v3 route module shares: the route record the table, the mount code and the openapi generator
 * read, and the parameter groups and small rules of the reference's request structs (v3.md §1.4, §2).
 * Route tables live in v3.ts (part 1), v3-tokens.ts, v3-traces.ts and v3-other.ts (part 2).
 */
import { ApiError } from '../../api/errors.js';
import { resolvePage, type PageParams, type V3Api, type V3Options } from '../../api/v3.js';
import { checkSort, int32, parseAddressV3, text, uint64, utime, type ParamMap, type Parsed } from './v3-params.js';

export const V3_PREFIX = '/api/v3';

/** What a route's call gets besides its parsed query. */
export interface V3CallContext {
  /** X-No-Address-Book / X-No-Metadata (header or x_no_* query param) */
  options: V3Options;
  /** the parsed JSON object of a POST body ({} on GET) */
  body: Record<string, unknown>;
  /** a request header's first value (lower-case name), e.g. x-actions-version */
  header(name: string): string | undefined;
}

/** A body field, for the openapi generator (the route's call does the reading). */
export interface V3BodyField {
  type: 'string' | 'boolean' | 'array';
  required?: boolean;
  description?: string;
}

export interface V3Route<M extends ParamMap = ParamMap> {
  method: 'GET' | 'POST';
  /** under /api/v3 */
  path: string;
  /** undocumented paths answering the same (v3.md §1.1) */
  aliases?: string[];
  summary: string;
  query: M;
  /** POST only: the JSON body's fields, and the Go struct name used in type-error messages */
  body?: { struct: string; fields: Record<string, V3BodyField> };
  /** the openapi definition of the 200 answer as this surface sends it (v3.md wins where the openapi differs) */
  response: string;
  call(api: V3Api, q: Parsed<M>, ctx: V3CallContext): Promise<unknown>;
}

export const route = <M extends ParamMap>(r: V3Route<M>): V3Route => r as unknown as V3Route;

// ---- shared param groups (the reference's request structs, v3.md §2) ----

export const pageParams = { limit: int32(), offset: int32() };
export const sortParam = { sort: text() };
export const utimeParams = { start_utime: utime(), end_utime: utime() };
export const ltParams = { start_lt: uint64(), end_lt: uint64() };

/** limit/offset after the reference's rules (v3.md §1.4); a limit over 1000 is a 422 before the source is asked. */
export function page(q: { limit?: number; offset?: number }): Required<PageParams> {
  return resolvePage({ limit: q.limit, offset: q.offset });
}

/** Drops undefined values so sources (and tests) see only what was given. */
export function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** Non-empty list or undefined. */
export const nonEmpty = <T>(a: T[]): T[] | undefined => (a.length ? a : undefined);

/** limit/offset after the reference's rules, and the sort, for routes that take both. */
export function pageSort(q: { limit?: number; offset?: number; sort?: string }) {
  return { ...page(q), sort: checkSort(q.sort) };
}

/** The utime and lt window of a list route, named as the seams take them (absent bounds left out later by `defined`). */
export function timeWindow(q: { start_utime?: number; end_utime?: number; start_lt?: bigint; end_lt?: bigint }) {
  return { startUtime: q.start_utime, endUtime: q.end_utime, startLt: q.start_lt, endLt: q.end_lt };
}

/** The reference reads a missing seqno as 0; a 422 here, since a missing required param is bad input. */
export const requireSeqno = (seqno: number | undefined): number => {
  if (seqno === undefined) throw new ApiError(422, 'seqno is required');
  return seqno;
};

/** An address from a JSON body, or the reference's 422. */
export function bodyAddress(raw: string) {
  const a = parseAddressV3(raw);
  if (!a) throw new ApiError(422, `invalid address: '${raw}'`);
  return a;
}

