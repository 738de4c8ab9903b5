/**
 * The reference runner's checks (`tests/utils/generic_yaml_test.py`) over a local action or block: for each
 * expected type exactly one of that type (the one its selector picks, when it has one), and each listed column
 * equal: lists of the same length with every expected item found, objects member by member, scalars equal (a
 * recorded integer against a decimal string by value).
 */
import type { ClassifiedAction } from '../../../src/model/v3/actions/index.js';
import { COLUMNS } from './columns.js';

/** Why a column could not be compared: v3 prints no counterpart of it, so the local classifier keeps none. */
export class NotInV3 extends Error {}

const b64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');

/** The action-level columns, the same for every type. */
function common(a: ClassifiedAction, column: string): { value: unknown } | null {
  switch (column) {
    case 'type':
      return { value: a.type };
    case 'success':
      return { value: a.success };
    case 'tx_hashes':
      return { value: a.txHashes.map(b64) };
    case 'accounts':
      return { value: a.accounts };
    case 'start_lt':
      return { value: a.startLt };
    case 'end_lt':
      return { value: a.endLt };
    case 'start_utime':
      return { value: a.startUtime };
    case 'end_utime':
      return { value: a.endUtime };
    case 'action_id':
      return { value: a.actionId };
    case 'ancestor_type':
      return { value: a.ancestorTypes };
    case 'parent_action_id':
      return { value: null };
    case 'opcode':
      return typeof a.details.opcode === 'string' ? { value: Number.parseInt(a.details.opcode, 16) } : null;
    default:
      return null;
  }
}

const walk = (v: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

/**
 * The value of an indexer column path (`source`, `jetton_swap_data.dex_incoming_transfer.amount`,
 * `vault_excesses[0]`) on a local action: the longest prefix the column table knows, then the rest walked.
 */
export function columnValue(a: ClassifiedAction, path: string): unknown {
  const segs = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const map = COLUMNS[a.type] ?? {};
  for (let i = segs.length; i >= 1; i--) {
    const prefix = segs.slice(0, i).join('.');
    const c = common(a, prefix);
    if (c) return walk(c.value, segs.slice(i));
    const key = map[prefix];
    if (key !== undefined) return walk(a.details, [...key.split('.'), ...segs.slice(i)]);
  }
  throw new NotInV3(`${a.type}: no v3 counterpart of ${path}`);
}

function scalarEqual(actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (typeof expected === 'bigint' || typeof expected === 'number') {
    if (typeof actual !== 'bigint' && typeof actual !== 'number' && typeof actual !== 'string') return false;
    try {
      return BigInt(actual) === BigInt(expected);
    } catch {
      return false;
    }
  }
  if (typeof expected === 'string' && typeof actual === 'string') return actual.toUpperCase() === expected.toUpperCase();
  return actual === expected;
}

/** check_value: throws with the path and both values when they differ. */
export function check(actual: unknown, expected: unknown, path: string): void {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) throw new Error(`${path}: expected ${show(expected)}, got ${show(actual)}`);
    for (const item of expected) {
      if (!actual.some((x) => ok(() => check(x, item, path)))) throw new Error(`${path}: ${show(item)} not in ${show(actual)}`);
    }
  } else if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') throw new Error(`${path}: expected ${show(expected)}, got ${show(actual)}`);
    for (const [k, v] of Object.entries(expected)) check((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else if (!scalarEqual(actual, expected)) throw new Error(`${path}: expected ${show(expected)}, got ${show(actual)}`);
}

const ok = (f: () => void): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

export const show = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

/**
 * A selector (`{{ value.a.b == 'x' and value.c != None }}`, `|length`) over an item whose paths `read` answers:
 * clauses joined by and/or, left to right.
 */
export function selects(read: (path: string) => unknown, selector: string): boolean {
  const body = selector.trim().replace(/^\{\{/, '').replace(/\}\}$/, '').trim();
  return body.split(/\s+or\s+/).some((alt) =>
    alt.split(/\s+and\s+/).every((clause) => {
      const m = /^value\.([\w.[\]]+)(\|length)?\s*(==|!=)\s*(.+)$/.exec(clause.trim());
      if (!m) throw new Error(`selector not understood: ${clause}`);
      let actual: unknown;
      try {
        actual = read(m[1]!);
      } catch {
        actual = undefined;
      }
      if (m[2]) actual = Array.isArray(actual) ? actual.length : 0;
      const equal = scalarEqual(actual, literal(m[4]!.trim()));
      return m[3] === '==' ? equal : !equal;
    }),
  );
}

function literal(s: string): unknown {
  if (s === 'None') return null;
  if (s === 'True' || s === 'False') return s === 'True';
  if (/^'.*'$/.test(s)) return s.slice(1, -1);
  if (/^0x[0-9a-f]+$/i.test(s)) return Number.parseInt(s, 16);
  if (/^-?\d+$/.test(s)) return BigInt(s);
  throw new Error(`selector literal not understood: ${s}`);
}

/** What comparing one expected item's columns found: the first mismatch (null when none) and the columns not compared. */
export interface Comparison {
  failure: string | null;
  uncompared: string[];
}

/**
 * Each listed column of one expected item against the local one (its paths answered by `read`); a column that
 * `composite` names (`<type>_data`, a block's `data`) is compared member by member under its own paths.
 */
export function compareColumns(read: (path: string) => unknown, values: Record<string, unknown>, composite: (column: string) => boolean): Comparison {
  let failure: string | null = null;
  const uncompared: string[] = [];
  for (const [column, expected] of Object.entries(values)) {
    const members = expected !== null && typeof expected === 'object' && !Array.isArray(expected) && composite(column) ? Object.entries(expected) : null;
    for (const [path, want] of members ? members.map(([k, v]) => [`${column}.${k}`, v] as const) : [[column, expected] as const]) {
      try {
        check(read(path), want, path);
      } catch (e) {
        if (e instanceof NotInV3) uncompared.push(path);
        else failure ??= (e as Error).message;
      }
    }
  }
  return { failure, uncompared };
}

/** An action's columns: `<type>_data` and `extra` are composites. */
export const actionComposite = (column: string): boolean => /(_data|^extra)$/.test(column);
