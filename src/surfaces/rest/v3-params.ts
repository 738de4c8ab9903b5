/**
 * Reading a v3 request the way the reference server does (v3.md §1.2): the query decoded as gorilla/schema +
 * fiber decode it (keys lower-cased, `[]` dropped, every conversion failure collected into one MultiError
 * text), then each descriptor param's checks in the reference's order, giving the seam's params object.
 */
import { fieldOf } from '../../api/descriptor.js';
import { ApiError } from '../../api/errors.js';
import { API_KEY_PARAM, countsOf, membersOf, paramProblem } from '../../api/strict-params.js';
import type { BodyRead, QueryConvert, V3Descriptor, V3ParamSpec } from '../../api/v3/params.js';
import type { V3Options } from '../../api/v3/common.js';

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

const conversionError = (name: string, index?: number): string =>
  index === undefined
    ? `schema: error converting value for "${name}"`
    : `schema: error converting value for index ${index} of "${name}"`;

/** gorilla's MultiError text: the first failure plus a count of the others. */
function multiError(errors: string[]): string {
  const [first] = errors;
  if (errors.length === 1) return first!;
  if (errors.length === 2) return `${first} (and 1 other error)`;
  return `${first} (and ${errors.length - 1} other errors)`;
}

/** A descriptor's params in declaration order, listed once per descriptor rather than on every request. */
const paramLists = new WeakMap<V3Descriptor, [string, V3ParamSpec][]>();
function paramsOf(d: V3Descriptor): [string, V3ParamSpec][] {
  let list = paramLists.get(d);
  if (!list) paramLists.set(d, (list = Object.entries(d.params)));
  return list;
}

/** The query params by wire name ('' is absent; a repeated scalar keeps its last value, as gorilla/schema does). */
function decodeQuery(d: V3Descriptor, query: Map<string, string[]>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const errors: string[] = [];
  for (const [name, p] of paramsOf(d)) {
    if (p.in !== 'query') continue;
    const convert = p.reader as QueryConvert<unknown>;
    const values = query.get(name) ?? [];
    if (p.list) {
      const items: unknown[] = [];
      values.forEach((raw, i) => {
        if (raw === '') return;
        const v = convert(raw);
        if (v === undefined) errors.push(conversionError(name, i));
        else items.push(v);
      });
      out.set(name, items);
    } else {
      const raw = values.length ? values[values.length - 1]! : '';
      if (raw === '') continue;
      const v = convert(raw);
      if (v === undefined) errors.push(conversionError(name));
      else out.set(name, v);
    }
  }
  if (errors.length) throw new ApiError(422, `failed to decode: ${multiError(errors)}`);
  return out;
}

/** Query names every route reads besides its own: the request settings (v3.md §1.1) and the API key. */
const SETTINGS: ReadonlySet<string> = new Set(['x_timeout', 'x_no_address_book', 'x_no_metadata', 'x_debug_request', API_KEY_PARAM]);

interface KnownNames {
  query: ReadonlySet<string>;
  /** query params that may repeat */
  lists: ReadonlySet<string>;
  body: ReadonlySet<string>;
}

const knownNames = new WeakMap<V3Descriptor, KnownNames>();
function namesOf(d: V3Descriptor): KnownNames {
  let names = knownNames.get(d);
  if (!names) {
    const params = paramsOf(d);
    const named = (keep: (p: V3ParamSpec) => boolean) => new Set(params.filter(([, p]) => keep(p)).map(([name]) => name));
    names = { query: named((p) => p.in === 'query'), lists: named((p) => p.in === 'query' && p.list), body: named((p) => p.in === 'body') };
    knownNames.set(d, names);
  }
  return names;
}

/**
 * Why strict parameters refuse a request (api/strict-params.ts), or undefined: a query name the route does not
 * read (keys as gorilla/schema matches them), a single-valued one repeated, or a body member it does not read. A
 * `strictBody` route's body is left to its own check, which answers toncenter's words.
 */
export function strictProblem(d: V3Descriptor, query: Map<string, string[]>, body: Record<string, unknown>): string | undefined {
  const names = namesOf(d);
  return (
    paramProblem(countsOf(query), names.query, { lists: names.lists, ignored: SETTINGS, body: names.body }) ??
    (d.strictBody ? undefined : paramProblem(membersOf(body), names.body))
  );
}

/** What a request holds besides its query. */
export interface V3Request {
  query: Map<string, string[]>;
  /** the parsed JSON object of a POST body ({} on GET) */
  body: Record<string, unknown>;
  /** a request header's first value (lower-case name) */
  header(name: string): string | undefined;
  options: V3Options;
}

/**
 * The seam's params object of one request. Order of the rules: every query conversion, then each param's own
 * check in declaration order (body members read at their turn), the route's check, the late param checks
 * (limit, then sort), the route's late check. Empty lists are absent; absent values take their default.
 */
export function seamParams(d: V3Descriptor, req: V3Request): Record<string, unknown> {
  const decoded = decodeQuery(d, req.query);
  const out: Record<string, unknown> = {};
  const set = (wire: string, spec: V3ParamSpec, value: unknown) => {
    const field = spec.fills ?? fieldOf(wire, spec);
    // a legacy alias never overrides its field, nor clears it
    if (spec.fills && (out[field] !== undefined || value === undefined)) return;
    if (value === undefined) delete out[field];
    else out[field] = value;
  };
  const late: [string, V3ParamSpec, unknown][] = [];
  for (const [wire, spec] of paramsOf(d)) {
    let value = spec.in === 'body' ? (spec.reader as BodyRead<unknown>)(req.body, d.bodyStruct ?? 'Request', wire) : decoded.get(wire);
    const header = spec.header === undefined ? undefined : req.header(spec.header);
    if (header !== undefined) value = [header];
    if (Array.isArray(value) && value.length === 0) value = undefined;
    if (value === undefined && spec.default !== undefined) value = spec.default;
    if (spec.late) late.push([wire, spec, value]);
    else if (spec.check) value = spec.check(value);
    set(wire, spec, value);
  }
  d.check?.(out);
  for (const [wire, spec, value] of late) set(wire, spec, spec.check ? spec.check(value) : value);
  d.lateCheck?.(out);
  if (d.options) Object.assign(out, req.options);
  return Object.assign(out, d.fixed);
}
