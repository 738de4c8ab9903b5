/**
 * Parameter readers for /api/v2 (v2.md §1.2, §4): one reader per value kind, used alike for GET query
 * strings and for POST / JSON-RPC bodies, where numbers may be JSON numbers or strings (v2.md §1.2).
 *
 * A reader throws ParamError; the endpoint table decides how the text is wrapped (the C++ variant's
 * `failed to parse get request: …` / `failed to validate request: …`, or the spec's bare texts).
 */
import type { Address } from '@ton/core';
import { parseAddressAny } from '../../model/address.js';
import { CHAIN_SIZE_LIMITS, LimitError, checkBoc, checkBocText, checkMethodRef, messageLimits } from '../../model/limits.js';
import { parseHash } from '../../model/hash.js';

/** `parse`: the value is unreadable or missing; `validate`: readable but out of bounds. */
export class ParamError extends Error {
  constructor(
    readonly stage: 'parse' | 'validate',
    message: string,
    readonly status = 422,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

export const parseFail = (message: string): ParamError => new ParamError('parse', message);
export const invalid = (message: string, status = 422): ParamError => new ParamError('validate', message, status);

/** Where a value came from: query strings are always text, bodies carry JSON values. */
export type Source = 'query' | 'body';

export type ParamKind =
  | 'int32'
  | 'int64'
  | 'bool'
  | 'address'
  | 'hash'
  | 'account_id'
  | 'boc'
  | 'method'
  | 'stack'
  | 'string';

/** One parameter of an endpoint; also what an openapi generator reads. */
export interface V2Param<T = unknown> {
  readonly kind: ParamKind;
  readonly required: boolean;
  /** repeatable in the query (`?k=a&k=b`), a JSON array in a body */
  readonly list: boolean;
  /** the value the surface uses when the parameter is absent, as documented */
  readonly default?: string | number | boolean;
  readonly description?: string;
  read(value: unknown, name: string, from: Source): T;
}

export type ParamMap = Record<string, V2Param>;

type ValueOf<P> = P extends V2Param<infer T> ? T : never;

/** Parsed params: required ones are present, optional ones may be undefined, lists are arrays. */
export type Parsed<M extends ParamMap> = {
  [K in keyof M]: M[K]['list'] extends true
    ? ValueOf<M[K]>[]
    : M[K]['required'] extends true
      ? ValueOf<M[K]>
      : ValueOf<M[K]> | undefined;
};

type Optional<T> = V2Param<T> & { readonly required: false; readonly list: false };

const make = <T>(kind: ParamKind, read: (value: unknown, name: string, from: Source) => T, description?: string): Optional<T> => ({
  kind,
  required: false,
  list: false,
  description,
  read,
});

/** Marks a parameter required; its absence is a parse failure naming it. */
export const required = <T>(p: Optional<T>): V2Param<T> & { readonly required: true; readonly list: false } => ({
  ...p,
  required: true,
});

/** Documents the default the endpoint applies (the table's call applies it). */
export const withDefault = <P extends V2Param>(p: P, dflt: string | number | boolean): P => ({ ...p, default: dflt });

export const describe = <P extends V2Param>(p: P, description: string): P => ({ ...p, description });

export const list = <T>(p: Optional<T>): V2Param<T> & { readonly required: false; readonly list: true } => ({
  ...p,
  list: true,
});

/** Values echoed in messages are cut short so a huge input is not mirrored back. */
export const quote = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return `'${s.length > 120 ? `${s.slice(0, 120)}…` : s}'`;
};

// ---- integers (boost::lexical_cast semantics: optional sign, decimal digits, no spaces) ----

const DIGITS = /^[+-]?\d{1,40}$/;

function readInteger(value: unknown, name: string, min: bigint, max: bigint): bigint {
  let v: bigint | undefined;
  if (typeof value === 'number' && Number.isInteger(value)) v = BigInt(value);
  else if (typeof value === 'string' && DIGITS.test(value)) v = BigInt(value);
  if (v === undefined || v < min || v > max) throw parseFail(`failed to parse ${name}`);
  return v;
}

const I32_MIN = -(1n << 31n);
const I32_MAX = (1n << 31n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

export const int32 = (description?: string) =>
  make<number>('int32', (v, name) => Number(readInteger(v, name, I32_MIN, I32_MAX)), description);

export const int64 = (description?: string) =>
  make<bigint>('int64', (v, name) => readInteger(v, name, I64_MIN, I64_MAX), description);

// ---- booleans (utils::stringToBool of the C++ variant, plus JSON booleans and 0/1) ----

const TRUE = new Set(['y', 'yes', 't', 'true', 'on', '1']);
const FALSE = new Set(['n', 'no', 'f', 'false', 'off', '0']);

export const bool = (description?: string) =>
  make<boolean>(
    'bool',
    (v, name) => {
      if (typeof v === 'boolean') return v;
      if (v === 0 || v === 1) return v === 1;
      if (typeof v === 'string') {
        const s = v.toLowerCase();
        if (TRUE.has(s)) return true;
        if (FALSE.has(s)) return false;
      }
      throw parseFail(`failed to parse ${name}`);
    },
    description,
  );

// ---- strings: addresses, hashes, BoCs ----

/** A string value; in a query a space can only be an unencoded '+' (no accepted form has spaces), so it is put back. */
function text(v: unknown, name: string, from: Source): string {
  if (typeof v !== 'string') throw parseFail(`failed to parse ${name}: string expected`);
  return from === 'query' ? v.replace(/ /g, '+') : v;
}

/** An address in any form (raw, friendly bounceable or not, url-safe or standard, test-only). */
export const address = (description?: string) =>
  make<Address>(
    'address',
    (v, name, from) => {
      const s = text(v, name, from);
      if (s === '') throw invalid(`empty ${name}`);
      const parsed = parseAddressAny(s);
      if (!parsed) throw parseFail(`failed to parse ${name}: invalid address ${quote(v)}`);
      return parsed.address;
    },
    description,
  );

/** An address kept as the caller wrote it (detect/pack/unpack answer about the given form); still checked here. */
export const addressText = (description?: string) =>
  make<string>(
    'address',
    (v, name, from) => {
      const s = text(v, name, from);
      if (s === '') throw invalid(`empty ${name}`);
      if (!parseAddressAny(s)) throw parseFail(`failed to parse ${name}: invalid address ${quote(v)}`);
      return s;
    },
    description,
  );

/** A 256-bit hash: 64 hex, 44-char base64 / base64url, 43-char base64url; the empty string counts as absent. */
export const hash = (description?: string) =>
  make<Buffer | undefined>(
    'hash',
    (v, name, from) => {
      const s = text(v, name, from);
      if (s === '') return undefined;
      const h = parseHash(s);
      if (!h) throw parseFail(`failed to parse ${name}: invalid hash ${quote(v)}`);
      return h;
    },
    description,
  );

/** A hash kept as the caller wrote it (detectHash answers about it); still checked here. */
export const hashText = (description?: string) =>
  make<string>(
    'hash',
    (v, name, from) => {
      const s = text(v, name, from);
      if (!parseHash(s)) throw parseFail(`failed to parse ${name}: invalid hash ${quote(v)}`);
      return s;
    },
    description,
  );

/** An account id without workchain (after_hash): any address form, or a bare 256-bit hash (TonAddrWithoutWorkchain). */
export const accountId = (description?: string) =>
  make<Buffer>(
    'account_id',
    (v, name, from) => {
      const s = text(v, name, from);
      const h = parseHash(s) ?? parseAddressAny(s)?.address.hash;
      if (!h) throw parseFail(`failed to parse ${name}: invalid account id ${quote(v)}`);
      return h;
    },
    description,
  );

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

const MESSAGE_LIMITS = messageLimits(CHAIN_SIZE_LIMITS);

/**
 * A base64 BoC that must parse as a bag of cells; url-safe letters are accepted too. The empty string is
 * `undefined`. Held to config param 43's message limits: its size before decoding, its header's cell count
 * before any cell is built, then its bits and depth; over a limit is a validation failure naming it.
 */
export const boc = (description?: string) =>
  make<Buffer | undefined>(
    'boc',
    (v, name, from) => {
      const s = text(v, name, from);
      if (s === '') return undefined;
      const std = s.replace(/-/g, '+').replace(/_/g, '/');
      try {
        checkBocText(std, name, CHAIN_SIZE_LIMITS);
        if (!B64.test(std)) throw parseFail(`failed to parse ${name}: invalid base64`);
        const buf = Buffer.from(std, 'base64');
        checkBoc(buf, name, MESSAGE_LIMITS);
        return buf;
      } catch (e) {
        if (!(e instanceof LimitError)) throw e;
        if (e.limit === 'boc') throw parseFail(`failed to parse ${name}: invalid boc`);
        throw invalid(e.message);
      }
    },
    description,
  );

/** runGetMethod `method`: a name, or a numeric method id (a JSON number, or decimal text) that fits TVM's 32 bits. */
export const methodRef = (description?: string) =>
  make<string | number>(
    'method',
    (v, name, from) => {
      if (typeof v === 'number') return Number(readInteger(v, name, I32_MIN, I32_MAX));
      const s = text(v, name, from);
      if (s === '') throw invalid(`empty ${name}`);
      try {
        return checkMethodRef(s);
      } catch (e) {
        if (e instanceof LimitError) throw invalid(e.message);
        throw e;
      }
    },
    description,
  );

/** A get-method stack, handed as JSON to the stack codec of the endpoint. */
export const stackJson = (description?: string) =>
  make<unknown>(
    'stack',
    (v, name, from) => {
      if (from === 'query') throw parseFail(`failed to parse ${name}: a JSON array in the POST body expected`);
      return v;
    },
    description,
  );

// ---- reading a whole request ----

/** Query string as name → every value given, in order (`?k=a&k=b` → ['a','b']). */
export function queryValues(url: string): Map<string, string[]> {
  const i = url.indexOf('?');
  const out = new Map<string, string[]>();
  if (i < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(i + 1))) {
    const prev = out.get(k);
    if (prev) prev.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** The raw value of a param (undefined = absent); lists come back as arrays. */
function rawValue(p: V2Param, name: string, input: Map<string, string[]> | Record<string, unknown>): unknown {
  if (input instanceof Map) {
    const vs = input.get(name);
    if (!vs) return undefined;
    return p.list ? vs : vs[0];
  }
  if (!Object.hasOwn(input, name)) return undefined;
  const v = input[name];
  return v === null ? undefined : v;
}

/** Reads every param of a map; an absent required one fails with `missing(name)`; unknown members are ignored. */
export function readParams<M extends ParamMap>(
  params: M,
  input: Map<string, string[]> | Record<string, unknown>,
  missing: (name: string) => string = (name) => `${name} required`,
): Parsed<M> {
  const from: Source = input instanceof Map ? 'query' : 'body';
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params)) {
    const raw = rawValue(p, name, input);
    if (raw === undefined) {
      if (p.required) throw parseFail(missing(name));
      out[name] = p.list ? [] : undefined;
      continue;
    }
    if (p.list) {
      const items = Array.isArray(raw) ? raw : [raw];
      out[name] = items.map((item) => p.read(item, name, from));
    } else {
      out[name] = p.read(raw, name, from);
    }
  }
  return out as Parsed<M>;
}
