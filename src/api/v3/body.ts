/**
 * JSON bodies of the POST routes under /api/v3 (message, runGetMethod, estimateFee, decode), read the way the
 * reference's fiber BodyParser + encoding/json reads them: a wrong JSON type is a 422 worded like Go's
 * `json: cannot unmarshal …`, `null` leaves a field at its zero value, unknown keys are ignored.
 */
import { ApiError } from '../errors.js';
import type { StackArg } from '../v2.js';
import { CHAIN_SIZE_LIMITS, LimitError, MAX_STACK_ENTRIES, checkBoc, checkBocText, MESSAGE_LIMITS, readBocHeader, vmDataLimits, type BocLimits } from '../../model/limits.js';
import { checkStackArgs, StackError } from '../../model/stack.js';
import type { V3ParamSpec } from './params.js';

type JsonKind = 'string' | 'number' | 'bool' | 'array' | 'object' | 'null';

const kindOf = (v: unknown): JsonKind =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'boolean'
        ? 'bool'
        : typeof v === 'number'
          ? 'number'
          : typeof v === 'string'
            ? 'string'
            : 'object';

/** Parses the raw body text; anything but a JSON object is a 422 (Go cannot unmarshal it into the request struct). */
export function jsonObject(raw: unknown, struct: string): Record<string, unknown> {
  let value: unknown = raw;
  if (typeof raw === 'string' || raw === undefined) {
    try {
      value = JSON.parse(raw ?? '');
    } catch (e) {
      throw new ApiError(422, `failed to parse JSON body: ${(e as Error).message}`);
    }
  }
  const kind = kindOf(value);
  if (kind === 'null') return {};
  if (kind !== 'object') throw new ApiError(422, `json: cannot unmarshal ${kind} into Go value of type models.${struct}`);
  return value as Record<string, unknown>;
}

const typeError = (v: unknown, struct: string, field: string, goType: string): ApiError =>
  new ApiError(422, `json: cannot unmarshal ${kindOf(v)} into Go struct field ${struct}.${field} of type ${goType}`);

/** A string field; absent or null is ''. */
export function stringField(body: Record<string, unknown>, struct: string, field: string): string {
  const v = body[field];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw typeError(v, struct, field, 'string');
  return v;
}

/** A bool field; absent or null is false. */
export function boolField(body: Record<string, unknown>, struct: string, field: string): boolean {
  const v = body[field];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw typeError(v, struct, field, 'bool');
  return v;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Base64 (or base64url) BoC text to its bytes, checked to be a BoC within `limits` (config param 43): the size
 * before decoding, the header's cell count before any cell is built, then bits and depth. Undefined when it is
 * not a BoC; a 422 naming the limit when it is one over a limit.
 */
export function bocBytes(text: string, what: string, limits: BocLimits): Buffer | undefined {
  const s = text.trim();
  if (!s) return undefined;
  try {
    checkBocText(s, what, CHAIN_SIZE_LIMITS);
    if (!(B64.test(s) || B64URL.test(s))) return undefined;
    const buf = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    checkBoc(buf, what, limits);
    return buf;
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    if (e.limit === 'boc') return undefined;
    throw new ApiError(422, e.message);
  }
}

const VM_DATA_LIMITS = vmDataLimits(CHAIN_SIZE_LIMITS);

/** A field holding a base64 BoC of a message or a part of one; '' is undefined, anything unreadable a 422. */
export function bocField(body: Record<string, unknown>, struct: string, field: string): Buffer | undefined {
  const s = stringField(body, struct, field);
  if (s === '') return undefined;
  const buf = bocBytes(s, field, MESSAGE_LIMITS);
  if (!buf) throw new ApiError(422, `${field} is not a valid base64 BoC`);
  return buf;
}

const NUM_DEC = /^-?\d+$/;
const NUM_HEX = /^-?0[xX][0-9a-fA-F]+$/;
const INT257_MIN = -(1n << 256n);
const INT257_MAX = (1n << 256n) - 1n;

function parseNum(v: unknown): bigint | undefined {
  let n: bigint;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) return undefined;
    n = BigInt(v);
  } else if (typeof v === 'string' && (NUM_DEC.test(v) || NUM_HEX.test(v))) {
    n = v.startsWith('-') ? -BigInt(v.slice(1)) : BigInt(v);
  } else {
    return undefined;
  }
  return n >= INT257_MIN && n <= INT257_MAX ? n : undefined;
}

/**
 * runGetMethod's `[{type: num|cell|slice, value}]`; other types get the reference's text, as a 422 instead of its
 * 500. The stack is held to the limits of the v2 stacks (entry count first, then each BoC, then their cells).
 */
export function stackValue(v: unknown): StackArg[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw typeError(v, 'V2RunGetMethodRequest', 'stack', '[]models.V2StackEntity');
  if (v.length > MAX_STACK_ENTRIES) throw new ApiError(422, `stack has ${v.length} entries, the limit is ${MAX_STACK_ENTRIES}`);
  let cells = 0;
  const args = v.map((entry, i): StackArg => {
    if (kindOf(entry) !== 'object') throw typeError(entry, 'V2RunGetMethodRequest', 'stack', 'models.V2StackEntity');
    const e = entry as Record<string, unknown>;
    const type = stringField(e, 'V2StackEntity', 'type');
    switch (type) {
      case 'num': {
        const n = parseNum(e.value);
        if (n === undefined) throw new ApiError(422, `Invalid number: ${JSON.stringify(e.value ?? null)} at stack index ${i}`);
        return { type: 'int', value: n };
      }
      case 'cell':
      case 'slice': {
        const boc = typeof e.value === 'string' ? bocBytes(e.value, `stack entry ${i}`, VM_DATA_LIMITS) : undefined;
        if (!boc) throw new ApiError(422, `stack entry ${i}: ${type} value must be a base64 BoC`);
        // counted as the entries are read, so no more than one bag's cells are built past the limit
        const header = readBocHeader(boc);
        cells += typeof header === 'string' ? 0 : header.cells;
        if (cells > CHAIN_SIZE_LIMITS.maxMsgCells) {
          throw new ApiError(422, `stack has more than ${CHAIN_SIZE_LIMITS.maxMsgCells} cells, the limit is ${CHAIN_SIZE_LIMITS.maxMsgCells} (config param 43 max_msg_cells)`);
        }
        return { type, boc };
      }
      default:
        throw new ApiError(422, `unsupported stack parameter type: ${type}`);
    }
  });
  try {
    return checkStackArgs(args);
  } catch (e) {
    // the model's refusal, answered with its status and text
    if (e instanceof StackError) throw new ApiError(e.status, e.message);
    throw e;
  }
}

/** A `[]string` field; absent or null is []. */
export function stringListField(body: Record<string, unknown>, struct: string, field: string): string[] {
  const v = body[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw typeError(v, struct, field, '[]string');
  return v.map((item) => {
    if (typeof item !== 'string') throw typeError(item, struct, field, 'string');
    return item;
  });
}

// ---- body params of the route descriptors ----

type Extra<T> = Partial<Omit<V3ParamSpec<T>, 'in' | 'reader' | 'kind'>>;

const bodyParam =
  <T>(kind: string, reader: V3ParamSpec<T>['reader']) =>
  (extra: Extra<T> = {}): V3ParamSpec<T> => ({ in: 'body', kind, reader, list: false, required: false, ...extra });

/** A string member; '' (absent, null or empty) counts as absent. */
export const bodyText = bodyParam<string>('string', (body, struct, field) => stringField(body, struct, field) || undefined);

/** A base64 BoC member of a message; the check reads it, so a required one is reported before its content. */
export const bodyBoc = bodyParam<Buffer>('boc', (body, struct, field) => bocField(body, struct, field));

export const bodyBool = bodyParam<boolean>('bool', (body, struct, field) => boolField(body, struct, field));

/** A `[]string` member, absent or null read as []. */
export const bodyStrings = (extra: Extra<string[]> = {}): V3ParamSpec<string[]> => ({
  ...bodyParam<string[]>('string', stringListField)(extra),
  list: true,
});

/** A get-method stack (`[{type, value}]`), read by a late check so the other members are judged first. */
export const bodyStack = bodyParam<unknown>('stack', (body, _struct, field) => body[field] ?? undefined);
