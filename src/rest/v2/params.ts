/**
 * v2 parameter parsing with the reference's messages (v2.md §1.2, §3.2; service-spec.md Errors).
 * A GET query and a POST/JSON-RPC body are read through one Source, so both forms validate alike:
 * query values are strings, body values may be JSON numbers, strings, booleans or arrays.
 */
import { Cell, type Address } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import { parseAddressAny } from '../../model/address.js';
import { parseHash } from '../../model/hash.js';

export interface Source {
  readonly kind: 'get' | 'post';
  /** the value of a parameter; for a repeated query parameter, the last one */
  get(name: string): unknown;
  /** every value of a parameter (repeated query keys, or a JSON array) */
  all(name: string): unknown[];
  has(name: string): boolean;
}

export function querySource(url: string): Source {
  const q = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  return {
    kind: 'get',
    get: (n) => {
      const v = q.getAll(n);
      return v.length ? v[v.length - 1] : undefined;
    },
    all: (n) => q.getAll(n),
    has: (n) => q.has(n),
  };
}

export function bodySource(body: Record<string, unknown>): Source {
  const present = (n: string) => body[n] !== undefined && body[n] !== null;
  return {
    kind: 'post',
    get: (n) => (present(n) ? body[n] : undefined),
    all: (n) => {
      if (!present(n)) return [];
      const v = body[n];
      return Array.isArray(v) ? v : [v];
    },
    has: present,
  };
}

/** 422 with the C++ variant's wrapper for a value that cannot be read. */
export function parseError(src: Source, what: string): ApiError {
  return new ApiError(422, `failed to parse ${src.kind} request: ${what}`);
}

/** 422 for a value that was read but breaks a rule. */
export function validationError(msg: string): ApiError {
  return new ApiError(422, `failed to validate request: ${msg}`);
}

const INT = /^-?\d+$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** A whole number from a JSON number or a decimal string; undefined when it is neither. */
function wholeNumber(v: unknown): bigint | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v === 'string' && INT.test(v.trim()) && v.trim().length <= 40) return BigInt(v.trim());
  return undefined;
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

interface NumOpts {
  /** the exact message for an unreadable or missing value (the spec's getBlockTransactions texts) */
  failMessage?: string;
}

export function optInt32(src: Source, name: string, opts: NumOpts = {}): number | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (typeof raw === 'string' && raw === '') return undefined;
  const n = wholeNumber(raw);
  if (n === undefined || n < BigInt(INT32_MIN) || n > BigInt(INT32_MAX)) {
    throw opts.failMessage ? new ApiError(422, opts.failMessage) : parseError(src, `invalid integer in '${name}': '${show(raw)}'`);
  }
  return Number(n);
}

export function int32(src: Source, name: string, opts: NumOpts = {}): number {
  const v = optInt32(src, name, opts);
  if (v === undefined) throw opts.failMessage ? new ApiError(422, opts.failMessage) : missing(src, name);
  return v;
}

export function optInt64(src: Source, name: string, opts: NumOpts = {}): bigint | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (typeof raw === 'string' && raw === '') return undefined;
  const n = wholeNumber(raw);
  if (n === undefined || n < INT64_MIN || n > INT64_MAX) {
    throw opts.failMessage ? new ApiError(422, opts.failMessage) : parseError(src, `invalid integer in '${name}': '${show(raw)}'`);
  }
  return n;
}

export function int64(src: Source, name: string, opts: NumOpts = {}): bigint {
  const v = optInt64(src, name, opts);
  if (v === undefined) throw opts.failMessage ? new ApiError(422, opts.failMessage) : missing(src, name);
  return v;
}

export function optBool(src: Source, name: string): boolean | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    const s = raw.toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  throw parseError(src, `invalid boolean in '${name}': '${show(raw)}'`);
}

export function missing(src: Source, name: string): ApiError {
  return parseError(src, `missing required parameter '${name}'`);
}

export function string(src: Source, name: string): string {
  if (!src.has(name)) throw missing(src, name);
  const raw = src.get(name);
  if (typeof raw !== 'string') throw parseError(src, `'${name}' must be a string`);
  return raw;
}

export function address(src: Source, name: string): Address {
  const raw = string(src, name);
  if (raw === '') throw validationError('empty address');
  const parsed = parseAddressAny(raw);
  if (!parsed) throw parseError(src, `Failed to parse ton_addr: '${raw}'`);
  return parsed.address;
}

function hashValue(src: Source, raw: unknown): Buffer {
  const h = typeof raw === 'string' ? parseHash(raw) : null;
  if (!h) throw parseError(src, `invalid hash: '${show(raw)}'`);
  return h;
}

export function optHash(src: Source, name: string): Buffer | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (raw === '') return undefined;
  return hashValue(src, raw);
}

export function hashList(src: Source, name: string): Buffer[] {
  return src.all(name).map((v) => hashValue(src, v));
}

/** An account id without workchain: any address form, or a bare 256-bit hash (after_hash). */
export function optAccountId(src: Source, name: string): Buffer | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (raw === '') return undefined;
  if (typeof raw === 'string') {
    const h = parseHash(raw);
    if (h) return h;
    const a = parseAddressAny(raw);
    if (a) return a.address.hash;
  }
  throw parseError(src, `invalid account id in '${name}': '${show(raw)}'`);
}

/** Base64 bytes (standard or url-safe). */
export function optBytes(src: Source, name: string): Buffer | undefined {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (typeof raw !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(raw)) {
    throw parseError(src, `'${name}' is not valid base64`);
  }
  return Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** A bag of cells in base64 that must deserialize; empty means absent. */
export function optBoc(src: Source, name: string): Buffer | undefined {
  const bytes = optBytes(src, name);
  if (bytes === undefined || bytes.length === 0) return undefined;
  try {
    Cell.fromBoc(bytes);
  } catch {
    throw parseError(src, `'${name}' is not a valid bag of cells`);
  }
  return bytes;
}

export function boc(src: Source, name: string): Buffer {
  if (!src.has(name)) throw missing(src, name);
  const b = optBoc(src, name);
  if (!b) throw validationError(`empty ${name}`);
  return b;
}

/** Optional masterchain seqno: must be positive when given. */
export function optSeqno(src: Source): number | undefined {
  const s = optInt32(src, 'seqno', { failMessage: 'failed to parse seqno' });
  if (s !== undefined && s <= 0) throw validationError('seqno should be positive');
  return s;
}

/** A JSON value carried in a query string (a stack) or directly in a body. */
export function json(src: Source, name: string): unknown {
  if (!src.has(name)) return undefined;
  const raw = src.get(name);
  if (src.kind === 'get' && typeof raw === 'string') {
    try {
      return JSON.parse(raw);
    } catch {
      throw parseError(src, `'${name}' is not valid JSON`);
    }
  }
  return raw;
}
