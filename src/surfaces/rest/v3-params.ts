/**
 * Query-parameter converters for /api/v3, matching the reference server's parsing (v3.md §1.2, §1.4, §5):
 * each converter accepts exactly what the Go converter accepts, and a failure is reported with the
 * wording gorilla/schema + fiber produce (`failed to decode: schema: error converting value for "x"`).
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type { Direction, Sort } from '../../api/v3.js';
import { parseAddressAny } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';

/** A converter for one query value; `undefined` means the value is not acceptable. */
export interface Param<T> {
  /** what the openapi generator prints as the parameter type */
  readonly kind: string;
  readonly list: boolean;
  readonly required: boolean;
  readonly description?: string;
  convert(raw: string): T | undefined;
}

export type ParamMap = Record<string, Param<unknown>>;

/** The parsed shape of a ParamMap: lists are arrays (empty when absent), scalars are optional. */
export type Parsed<M extends ParamMap> = {
  [K in keyof M]: M[K] extends Param<infer T> ? (M[K]['list'] extends true ? T[] : T | undefined) : never;
};

const param = <T>(kind: string, convert: (raw: string) => T | undefined): Param<T> & { list: false } => ({
  kind,
  list: false,
  required: false,
  convert,
});

/** Makes a converter repeatable (`?k=a&k=b`); comma-separated values are not split (v3.md §1.2). */
export const list = <T>(p: Param<T>): Param<T> & { list: true } => ({ ...p, list: true });

/** Marks a param required for the openapi generator; the route still checks it, with the reference's message. */
export const mandatory = <P extends Param<unknown>>(p: P): P => ({ ...p, required: true });

// ---- converters (v3.md §1.2 table; Go strconv semantics) ----

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
export const int32 = () =>
  param<number>('int32', (raw) => {
    const v = intInRange(raw, -(1n << 31n), (1n << 31n) - 1n);
    return v === undefined ? undefined : Number(v);
  });

/** Go `uint64` (strconv.ParseUint base 10): lt values. */
export const uint64 = () =>
  param<bigint>('uint64', (raw) => {
    if (!UINT.test(raw)) return undefined;
    const v = BigInt(raw);
    return v <= MAX_U64 ? v : undefined;
  });

/** Go `bool` (strconv.ParseBool). */
export const bool = () =>
  param<boolean>('bool', (raw) => {
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
    return undefined;
  });

/** Free text, validated later by the route (sort, direction). */
export const text = () => param<string>('string', (raw) => raw);

/** ShardId: unsigned hex (optional 0x) tried first, then signed decimal; held as the uint64 bit pattern. */
export const shard = () =>
  param<bigint>('ShardId', (raw) => {
    const s = raw.startsWith('0x') ? raw.slice(2) : raw;
    if (HEX.test(s) && BigInt(`0x${s}`) <= MAX_U64) return BigInt(`0x${s}`);
    const v = intInRange(s, -(1n << 63n), (1n << 63n) - 1n);
    return v === undefined ? undefined : BigInt.asUintN(64, v);
  });

/** HashType: 64 hex (optional 0x), or 44-char base64 / base64url (43-char unpadded base64url too). */
export const hash = () => param<Buffer>('HashType', parseHashV3);

export function parseHashV3(raw: string): Buffer | undefined {
  const s = raw.length === 66 && raw.startsWith('0x') ? raw.slice(2) : raw;
  return parseHash(s) ?? undefined;
}

/** AccountAddress: user-friendly (base64 or base64url) or raw `wc:hex`; a bare hex id is not an address in v3. */
export const address = () => param<Address>('AccountAddress', parseAddressV3);

export function parseAddressV3(raw: string): Address | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return undefined;
  return parseAddressAny(raw)?.address ?? undefined;
}

/** AccountAddressNullable: an address, or the literal `null` (IS NULL filter). */
export const addressNullable = () =>
  param<Address | null>('AccountAddressNullable', (raw) => (raw === 'null' ? null : parseAddressV3(raw)));

/** OpcodeType: hex first (with or without 0x), then signed 32-bit decimal; held as int32 like the reference. */
export const opcode = () =>
  param<number>('OpcodeType', (raw) => {
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
export const utime = () =>
  param<number>('UtimeType', (raw) => {
    if (UINT.test(raw)) {
      const v = Number(raw);
      return Number.isSafeInteger(v) ? v : undefined;
    }
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return undefined;
    const f = Number(raw);
    if (!Number.isFinite(f) || f < 0 || f > Number.MAX_SAFE_INTEGER) return undefined;
    return Math.trunc(f);
  });

// ---- query decoding ----

/** Raw query values by key, lower-cased and with `[]` dropped, because gorilla/schema and fiber match keys that way. */
export function rawQuery(url: string): Map<string, string[]> {
  const q = url.indexOf('?');
  const out = new Map<string, string[]>();
  if (q < 0) return out;
  for (const [key, v] of new URLSearchParams(url.slice(q + 1))) {
    const k = key.toLowerCase().replace(/\[\]$/, '');
    const arr = out.get(k);
    if (arr) arr.push(v);
    else out.set(k, [v]);
  }
  return out;
}

export const conversionError = (name: string, index?: number): string =>
  index === undefined
    ? `schema: error converting value for "${name}"`
    : `schema: error converting value for index ${index} of "${name}"`;

/** Decodes a route's declared params (others ignored; '' is absent; a repeated scalar keeps its last value, as gorilla/schema does). */
export function decodeQuery<M extends ParamMap>(spec: M, query: Map<string, string[]>): Parsed<M> {
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [name, p] of Object.entries(spec)) {
    const values = query.get(name) ?? [];
    if (p.list) {
      const items: unknown[] = [];
      values.forEach((raw, i) => {
        if (raw === '') return;
        const v = p.convert(raw);
        if (v === undefined) errors.push(conversionError(name, i));
        else items.push(v);
      });
      out[name] = items;
    } else {
      const raw = values.length ? values[values.length - 1]! : '';
      if (raw === '') continue;
      const v = p.convert(raw);
      if (v === undefined) errors.push(conversionError(name));
      else out[name] = v;
    }
  }
  if (errors.length) throw new ApiError(422, `failed to decode: ${multiError(errors)}`);
  return out as Parsed<M>;
}

/** gorilla's MultiError text: the first failure plus a count of the others. */
function multiError(errors: string[]): string {
  const [first] = errors;
  if (errors.length === 1) return first!;
  if (errors.length === 2) return `${first} (and 1 other error)`;
  return `${first} (and ${errors.length - 1} other errors)`;
}

// ---- sort / direction (v3.md §1.4, validateDirection) ----

/** sort: asc|a|desc|d in any case; absent stays absent so the source applies the route's default. */
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
