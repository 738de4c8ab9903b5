/**
 * v2 parameters (v2.md §1.2, §4): one reader per value kind, used alike for GET query strings and for POST /
 * JSON-RPC bodies, where numbers may be JSON numbers or strings (v2.md §1.2). A parameter also says which seam
 * field it fills, its bounds and its default, so the surface validates and the upstream client writes it back
 * from the same declaration.
 *
 * A reader throws ParamError; the endpoint decides how the text is wrapped (the C++ variant's
 * `failed to parse get request: …` / `failed to validate request: …`, or the spec's bare texts).
 */
import type { Address } from '@ton/core';
import { parseAddressAny, rawLower } from '../../model/address.js';
import { CHAIN_SIZE_LIMITS, LimitError, checkBoc, checkBocText, checkMethodRef, MESSAGE_LIMITS } from '../../model/limits.js';
import { parseHash } from '../../model/hash.js';
import { parseLegacyStack, parseStdStack, StackError } from '../../model/stack.js';
import { toLegacyStack, toStdStack } from '../../model/stack-wire.js';
import { fieldOf, type ParamSpec } from '../descriptor.js';
import type { StackArg } from './run-get-method.js';

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
  | 'stack_legacy'
  | 'stack_std'
  | 'string';

/** Reads one raw value (query text or a JSON value) into what the parameter's checks and the seam take. */
export type V2Reader = (value: unknown, name: string, from: Source) => unknown;

/**
 * One v2 parameter on the descriptor kit: `reader` parses, `min`/`max` are checked on the read value (an int64
 * is read whole, so a huge `count` fails its bound, not its parse), `check` then shapes it for the seam, and
 * `encode` writes the seam's value back for an upstream. A dotted `field` fills a nested object (`after.lt`).
 */
export interface V2Param extends ParamSpec<any, V2Reader> {
  readonly kind: ParamKind;
}

export type ParamMap = Record<string, V2Param>;

type Optional = V2Param & { readonly required: false; readonly list: false };

const make = (kind: ParamKind, reader: V2Reader, description?: string, encode?: (value: any) => unknown): Optional => ({
  kind,
  in: 'any',
  required: false,
  list: false,
  reader,
  ...(description ? { description } : {}),
  ...(encode ? { encode } : {}),
});

const base64 = (b: Buffer): string => b.toString('base64');

/** Marks a parameter required; its absence is a parse failure naming it. */
export const required = (p: Optional): V2Param & { readonly required: true } => ({ ...p, required: true });

type Extras = Pick<V2Param, 'field' | 'upstream' | 'default' | 'description' | 'min' | 'max' | 'check'>;

/** The same parameter with its seam field, bounds, default, description or check set. */
export const at = <P extends V2Param>(p: P, extras: Extras): P => ({ ...p, ...extras });

export const list = (p: Optional): V2Param & { readonly list: true } => ({ ...p, list: true });

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
  make('int32', (v, name) => Number(readInteger(v, name, I32_MIN, I32_MAX)), description);

export const int64 = (description?: string) =>
  make('int64', (v, name) => readInteger(v, name, I64_MIN, I64_MAX), description);

// ---- booleans (utils::stringToBool of the C++ variant, plus JSON booleans and 0/1) ----

const TRUE = new Set(['y', 'yes', 't', 'true', 'on', '1']);
const FALSE = new Set(['n', 'no', 'f', 'false', 'off', '0']);

export const bool = (description?: string) =>
  make(
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

/** An address's text as given, and the address it names; empty is a validation failure, unreadable a parse failure. */
function readAddress(v: unknown, name: string, from: Source): [string, Address] {
  const s = text(v, name, from);
  if (s === '') throw invalid(`empty ${name}`);
  const parsed = parseAddressAny(s);
  if (!parsed) throw parseFail(`failed to parse ${name}: invalid address ${quote(v)}`);
  return [s, parsed.address];
}

/** Text taken as given (no `+` put back for a space: a space is then the caller's, and the endpoint judges it). */
export const string = (description?: string) =>
  make(
    'string',
    (v, name) => {
      if (typeof v !== 'string') throw parseFail(`failed to parse ${name}: string expected`);
      return v;
    },
    description,
  );

/** An address in any form (raw, friendly bounceable or not, url-safe or standard, test-only). */
export const address = (description?: string) =>
  make('address', (v, name, from) => readAddress(v, name, from)[1], description, (a: Address) => rawLower(a));

/** An address kept as the caller wrote it (detect/pack/unpack answer about the given form); still checked here. */
export const addressText = (description?: string) => make('address', (v, name, from) => readAddress(v, name, from)[0], description);

/** A 256-bit hash: 64 hex, 44-char base64 / base64url, 43-char base64url; the empty string counts as absent. */
export const hash = (description?: string) =>
  make(
    'hash',
    (v, name, from) => {
      const s = text(v, name, from);
      if (s === '') return undefined;
      const h = parseHash(s);
      if (!h) throw parseFail(`failed to parse ${name}: invalid hash ${quote(v)}`);
      return h;
    },
    description,
    base64,
  );

/** A hash kept as the caller wrote it (detectHash answers about it); still checked here. */
export const hashText = (description?: string) =>
  make(
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
  make(
    'account_id',
    (v, name, from) => {
      const s = text(v, name, from);
      const h = parseHash(s) ?? parseAddressAny(s)?.address.hash;
      if (!h) throw parseFail(`failed to parse ${name}: invalid account id ${quote(v)}`);
      return h;
    },
    description,
    base64,
  );

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/**
 * A base64 BoC that must parse as a bag of cells; url-safe letters are accepted too. The empty string is
 * `undefined`. Held to config param 43's message limits: its size before decoding, its header's cell count
 * before any cell is built, then its bits and depth; over a limit is a validation failure naming it.
 */
export const boc = (description?: string) =>
  make(
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
    base64,
  );

/** runGetMethod `method`: a name, or a numeric method id (a JSON number, or decimal text) that fits TVM's 32 bits. */
export const methodRef = (description?: string) =>
  make(
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

/** A stack is read as JSON and parsed once bounds passed; the codecs' StackErrors are validation errors in the C++ variant. */
const stackParam = (
  kind: 'stack_legacy' | 'stack_std',
  parse: (json: unknown) => StackArg[],
  encode: (args: StackArg[]) => unknown,
  description?: string,
): Optional => ({
  ...make(
    kind,
    (v, name, from) => {
      if (from === 'query') throw parseFail(`failed to parse ${name}: a JSON array in the POST body expected`);
      return v;
    },
    description,
    encode,
  ),
  in: 'body',
  check(json: unknown): StackArg[] {
    try {
      return parse(json);
    } catch (e) {
      if (e instanceof StackError) throw invalid(e.message, e.status);
      throw e;
    }
  },
});

/** runGetMethod's stack: legacy `[type, value]` pairs. */
export const legacyStack = (description?: string) => stackParam('stack_legacy', parseLegacyStack, toLegacyStack, description);

/** runGetMethodStd's stack: typed `tvm.stackEntry*` objects. */
export const stdStack = (description?: string) => stackParam('stack_std', parseStdStack, toStdStack, description);

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

function setPath(obj: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let o = obj;
  for (let i = 0; i < keys.length - 1; i++) o = (o[keys[i]!] ??= {}) as Record<string, unknown>;
  o[keys[keys.length - 1]!] = value;
}

function checkBounds(name: string, p: V2Param, value: unknown): void {
  if (value === undefined || (p.min === undefined && p.max === undefined)) return;
  const v = BigInt(value as number | bigint);
  if (p.min !== undefined && v < BigInt(p.min)) throw invalid(`${name} should be ${p.min > 0 ? 'positive' : 'non-negative'}`);
  if (p.max !== undefined && v > BigInt(p.max)) throw invalid(`${name} should be less or equal ${p.max}`);
}

/**
 * Reads, validates and shapes a request's parameters into the seam's params object. Every parameter is read
 * first (parse failures, in declaration order; an absent one takes its default), then: params filling one field
 * are resolved (a query takes the first given, a body must give exactly one), required values checked non-empty
 * and bounds checked in declaration order, each param's `check` applied, and the members of one nested object
 * required together. Unknown members are ignored.
 */
export function readArgs(
  params: ParamMap,
  input: Map<string, string[]> | Record<string, unknown>,
  missing: (name: string) => string = (name) => `${name} required`,
): Record<string, unknown> {
  const { entries, groups, nested } = planOf(params);
  const from: Source = input instanceof Map ? 'query' : 'body';
  const values = new Array<unknown>(entries.length);
  const given = new Array<boolean>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { name, p } = entries[i]!;
    const raw = rawValue(p, name, input);
    given[i] = raw !== undefined;
    if (raw === undefined) {
      if (p.required) throw parseFail(missing(name));
      values[i] = p.list ? [] : p.default;
    } else {
      values[i] = p.list
        ? (Array.isArray(raw) ? raw : [raw]).map((item) => p.reader(item, name, from)).filter((v) => v !== undefined)
        : p.reader(raw, name, from);
    }
  }

  const fields = new Array<unknown>(groups.length);
  for (let g = 0; g < groups.length; g++) {
    const { members } = groups[g]!;
    const first = members.find((i) => given[i]);
    if (members.length > 1) {
      const count = members.filter((i) => given[i]).length;
      if (count === 0 || (from === 'body' && count > 1)) {
        throw invalid(`only one of ${members.map((i) => entries[i]!.name).join(' or ')} should be specified`);
      }
    }
    fields[g] = values[first ?? members[0]!];
  }

  for (const { name, p, group } of entries) {
    if (p.required && fields[group] === undefined) throw invalid(`empty ${name}`);
    checkBounds(name, p, fields[group]);
  }
  for (const { p, group } of entries) {
    const value = fields[group];
    if (p.check && value !== undefined) fields[group] = p.check(value);
  }

  for (const { names, members } of nested) {
    const count = members.filter((i) => fields[entries[i]!.group] !== undefined).length;
    if (count > 0 && count < members.length) throw invalid(`${names} should be used together`);
  }

  const args: Record<string, unknown> = {};
  for (let g = 0; g < groups.length; g++) if (fields[g] !== undefined) setPath(args, groups[g]!.path, fields[g]);
  return args;
}

/** How an endpoint's params fill fields: worked out once per param map, since descriptors never change. */
interface ReadPlan {
  /** params in declaration order, each with the index of the field it fills */
  entries: { name: string; p: V2Param; group: number }[];
  /** fields in order of first appearance: their path and the params filling them */
  groups: { path: string[]; members: number[] }[];
  /** members of one nested object, which must be given together */
  nested: { names: string; members: number[] }[];
}

const plans = new WeakMap<ParamMap, ReadPlan>();

function planOf(params: ParamMap): ReadPlan {
  let plan = plans.get(params);
  if (plan) return plan;
  const byField = new Map<string, number>();
  const byParent = new Map<string, number[]>();
  const groups: ReadPlan['groups'] = [];
  const entries = Object.entries(params).map(([name, p], i) => {
    const field = fieldOf(name, p);
    let group = byField.get(field);
    if (group === undefined) {
      group = groups.push({ path: field.split('.'), members: [] }) - 1;
      byField.set(field, group);
    }
    groups[group]!.members.push(i);
    const parent = field.slice(0, Math.max(0, field.lastIndexOf('.')));
    if (parent) byParent.set(parent, [...(byParent.get(parent) ?? []), i]);
    return { name, p, group };
  });
  const nested = [...byParent.values()].map((members) => ({ names: members.map((i) => entries[i]!.name).join(' and '), members }));
  plan = { entries, groups, nested };
  plans.set(params, plan);
  return plan;
}
