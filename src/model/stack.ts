/**
 * Get-method stacks in both v2 encodings (v2.md §5): the legacy `[type, value]` pairs of runGetMethod and the
 * typed `tvm.stackEntry*` objects of runGetMethodStd, to and from @ton/core tuples.
 *
 * Parsing follows ton-http-api-cpp `converters/runmethod.hpp` (messages and statuses included). Output follows
 * tonlib `to_tonlib_api(StackEntry)`: null and every 2-tuple chain ending in null is a `list`, other tuples are
 * `tuple`, slices keep their own type in the Std form and print as `cell` in the legacy form.
 */
import { Cell, serializeTuple, type TupleItem } from '@ton/core';
import { CHAIN_SIZE_LIMITS, EMULATOR_MAX_DEPTH, LimitError, MAX_STACK_ENTRIES, MAX_TUPLE_LENGTH, checkBoc, checkBocText, readBocHeader, vmDataLimits } from './limits.js';
import type { LegacyStackEntry, StackArg, StdStackEntry } from '../api/v2.js';
import { bocB64 } from './message.js';

// ---- input ----

const NUM_TYPES = new Set(['num', 'int', 'number', 'integer']);
const INT257_MIN = -(1n << 256n);
const INT257_MAX = (1n << 256n) - 1n;

/**
 * A stack the model refuses, with the text ton-http-api-cpp answers and, as a hint for the surfaces that answer
 * it, the C++ status: 422, 542 for an entry type it does not know, 500 for one tonlib refuses.
 */
export class StackError extends Error {
  constructor(
    message: string,
    readonly status: 422 | 500 | 542 = 422,
  ) {
    super(message);
    this.name = 'StackError';
  }
}

const bad = (message: string): StackError => new StackError(message);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** td::string_to_int256: decimal, `0x` hex or `-0x` hex, at most 255 characters, within int257. */
export function parseInt257(s: string): bigint | null {
  const m = /^(-?)(?:0x([0-9a-fA-F]+)|([0-9]+))$/.exec(s);
  if (!m || s.length > 258) return null;
  const v = m[2] !== undefined ? BigInt(`0x${m[2]}`) : BigInt(m[3]!);
  const n = m[1] ? -v : v;
  return n >= INT257_MIN && n <= INT257_MAX ? n : null;
}

/** td::base64_decode: standard alphabet, length a multiple of 4, at most two `=`. */
function decodeBase64(s: string): Buffer | string {
  if (s.length % 4 !== 0) return 'Wrong string length';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return 'Wrong character in string';
  return Buffer.from(s, 'base64');
}

const VM_DATA_LIMITS = vmDataLimits(CHAIN_SIZE_LIMITS);

/** Cells of the stack read so far: all its bags together stay within config param 43's max_msg_cells. */
export interface StackTally {
  cells: number;
}

function countCells(tally: StackTally, cells: number): void {
  tally.cells += cells;
  const max = CHAIN_SIZE_LIMITS.maxMsgCells;
  if (tally.cells > max) throw bad(`stack has more than ${max} cells, the limit is ${max} (config param 43 max_msg_cells)`);
}

/**
 * A base64 BoC with one root (tonlib would reject anything else when it builds the stack), held to the VM data
 * limits of config param 43: its size is refused before decoding, its cell count before any cell is built.
 */
export function stackBoc(s: string, what: string, tally: StackTally = { cells: 0 }): Buffer {
  try {
    checkBocText(s, what, CHAIN_SIZE_LIMITS);
    const buf = decodeBase64(s);
    if (typeof buf === 'string') throw bad(buf);
    // the whole stack's cells are counted as each bag is read, before its cells are built
    const header = readBocHeader(buf);
    if (typeof header !== 'string') countCells(tally, header.cells);
    if (checkBoc(buf, what, VM_DATA_LIMITS).roots.length === 1) return buf;
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    // an unreadable bag gets tonlib's text; a bag over a limit names the limit
    if (e.limit !== 'boc') throw bad(e.message);
  }
  throw bad(`Invalid ${what}: bag of cells with one root expected`);
}

/** One legacy `[type, value]` request entry. */
function parseLegacyEntry(entry: unknown, tally: StackTally): StackArg {
  if (!Array.isArray(entry)) throw bad('Invalid stack entry: array expected');
  if (entry.length !== 2) throw bad(`Expected 2 elements in stack entry, got: ${entry.length}`);
  const [type, value] = entry as [unknown, unknown];
  if (typeof type !== 'string') throw bad('Expected string as first element in stack entry');

  if (NUM_TYPES.has(type)) {
    if (typeof value === 'number') {
      if (!Number.isInteger(value)) throw bad('Wrong type of number in stack entry');
      const n = BigInt(value);
      // a JSON number may be far wider than TVM's 257-bit integers (1e300 is an integer)
      if (n < INT257_MIN || n > INT257_MAX) throw bad(`Invalid number: ${value}`);
      return { type: 'int', value: n };
    }
    if (typeof value === 'string') {
      const n = parseInt257(value);
      if (n === null) throw bad(`Invalid number: ${value}`);
      return { type: 'int', value: n };
    }
    throw bad('Wrong type of number in stack entry');
  }
  if (type === 'tvm.Cell' || type === 'tvm.Slice' || type === 'tvm.Builder') {
    const name = type;
    if (typeof value !== 'string') throw bad(`Invalid ${name}, base64 string expected`);
    if (value === '') throw bad(`Empty ${name}`);
    const boc = stackBoc(value, name, tally);
    return type === 'tvm.Cell' ? { type: 'cell', boc } : type === 'tvm.Slice' ? { type: 'slice', boc } : { type: 'builder', boc };
  }
  if (type === 'cell' || type === 'slice') {
    if (!isObject(value) || typeof value.bytes !== 'string') throw bad(`Invalid ${type}, object with field bytes expected`);
    if (value.bytes === '') throw bad(`Empty ${type}`);
    return { type, boc: stackBoc(value.bytes, type, tally) };
  }
  if (type === 'tuple' || type === 'tvm.Tuple') {
    const elements = elementsOf(value, 'tvm.tuple');
    if (!elements) throw bad('Invalid tvm.Tuple, valid tvm_stackEntryTuple expected');
    return { type: 'tuple', items: elements.map((e) => parseStdEntry(e, tally)) };
  }
  if (type === 'list' || type === 'tvm.List') {
    const elements = elementsOf(value, 'tvm.list');
    if (!elements) throw bad('Invalid tvm.List, valid tvm_stackEntryList expected');
    return listArg(elements.map((e) => parseStdEntry(e, tally)));
  }
  throw new StackError(`Unsupported stack entry type: ${type}`, 542);
}

/** `{"@type": tag, elements: [...]}`; the tag may be left out, as the schema gives it a default. */
function elementsOf(value: unknown, tag: string): unknown[] | null {
  if (!isObject(value) || !Array.isArray(value.elements)) return null;
  if (value['@type'] !== undefined && value['@type'] !== tag) return null;
  // refused before its elements are parsed
  if (value.elements.length > MAX_TUPLE_LENGTH) {
    throw bad(`stack holds a ${tag.slice(4)} of ${value.elements.length} items, the limit is ${MAX_TUPLE_LENGTH} (TVM tuple length)`);
  }
  return value.elements;
}

/** tonlib builds a list as nested pairs ending in null. */
function listArg(items: StackArg[]): StackArg {
  let tail: StackArg = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) tail = { type: 'tuple', items: [items[i]!, tail] };
  return tail;
}

/** One typed `tvm.stackEntry*` entry (runGetMethodStd, and tuple/list elements in both forms). */
function parseStdEntry(entry: unknown, tally: StackTally): StackArg {
  if (!isObject(entry) || typeof entry['@type'] !== 'string') throw bad('Invalid stack entry: object with @type expected');
  const inner = (key: string, tag: string): Record<string, unknown> => {
    const v = entry[key];
    if (!isObject(v) || (v['@type'] !== undefined && v['@type'] !== tag)) throw bad(`Invalid ${entry['@type']}: ${key} of type ${tag} expected`);
    return v;
  };
  switch (entry['@type']) {
    case 'tvm.stackEntryNumber': {
      const num = inner('number', 'tvm.numberDecimal').number;
      const n = typeof num === 'string' ? parseInt257(num) : typeof num === 'number' && Number.isInteger(num) ? BigInt(num) : null;
      if (n === null) throw bad(`Failed to parse int256: '${String(num)}'`);
      return { type: 'int', value: n };
    }
    case 'tvm.stackEntryCell': {
      const bytes = inner('cell', 'tvm.cell').bytes;
      if (typeof bytes !== 'string' || bytes === '') throw bad('Invalid tvm.stackEntryCell: non-empty bytes expected');
      return { type: 'cell', boc: stackBoc(bytes, 'tvm.cell', tally) };
    }
    case 'tvm.stackEntrySlice': {
      const bytes = inner('slice', 'tvm.slice').bytes;
      if (typeof bytes !== 'string' || bytes === '') throw bad('Invalid tvm.stackEntrySlice: non-empty bytes expected');
      return { type: 'slice', boc: stackBoc(bytes, 'tvm.slice', tally) };
    }
    case 'tvm.stackEntryTuple': {
      const elements = elementsOf(entry.tuple, 'tvm.tuple');
      if (!elements) throw bad('Invalid tvm.stackEntryTuple: tuple with elements expected');
      return { type: 'tuple', items: elements.map((e) => parseStdEntry(e, tally)) };
    }
    case 'tvm.stackEntryList': {
      const elements = elementsOf(entry.list, 'tvm.list');
      if (!elements) throw bad('Invalid tvm.stackEntryList: list with elements expected');
      return listArg(elements.map((e) => parseStdEntry(e, tally)));
    }
    case 'tvm.stackEntryUnsupported':
      // tonlib from_tonlib_api refuses it (its text, typo included); a tonlib error maps to 500
      throw new StackError('Unsuppored stack entry', 500);
    default:
      throw bad(`Unsupported stack entry type: ${entry['@type']}`);
  }
}

/** Deepest tuple nesting taken in get-method arguments: the TVM emulator fails (wasm memory errors) near 1,000. */
const MAX_STACK_ARG_DEPTH = 128;
/** JSON levels a stack may use: a typed tuple spends three per tuple level. */
const MAX_STACK_JSON_DEPTH = 3 * MAX_STACK_ARG_DEPTH + 4;

/** Nesting depth of a JSON value, walked without recursion so hostile nesting cannot overflow the JS stack. */
function jsonDepthOver(json: unknown, limit: number): boolean {
  const todo: [unknown, number][] = [[json, 1]];
  while (todo.length) {
    const [v, d] = todo.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    for (const child of Object.values(v)) todo.push([child, d + 1]);
  }
  return false;
}

const STACK_LIMIT_NAMES = `${MAX_STACK_ENTRIES} entries, tuples of ${MAX_TUPLE_LENGTH}, ${MAX_STACK_ARG_DEPTH} levels`;

/**
 * Refuses arguments TVM should not be handed: nested deeper than MAX_STACK_ARG_DEPTH (a list of N items is N
 * nested pairs), more than MAX_STACK_ENTRIES entries counting nested ones, a tuple longer than TVM's 255, or
 * cells adding up to more than config param 43's max_msg_cells. Each BoC was checked on its own when parsed.
 */
export function checkStackArgs(args: StackArg[]): StackArg[] {
  if (args.length > MAX_STACK_ENTRIES) throw bad(`stack has ${args.length} entries, the limit is ${MAX_STACK_ENTRIES} (${STACK_LIMIT_NAMES})`);
  const todo: [StackArg, number][] = args.map((a) => [a, 1]);
  let entries = 0;
  let cells = 0;
  while (todo.length) {
    const [a, d] = todo.pop()!;
    if (d > MAX_STACK_ARG_DEPTH) throw bad(`stack entries nest deeper than ${MAX_STACK_ARG_DEPTH} levels`);
    if (++entries > MAX_STACK_ENTRIES) throw bad(`stack has more than ${MAX_STACK_ENTRIES} entries counting nested ones (${STACK_LIMIT_NAMES})`);
    if (a.type === 'tuple') {
      if (a.items.length > MAX_TUPLE_LENGTH) throw bad(`stack holds a tuple of ${a.items.length} items, the limit is ${MAX_TUPLE_LENGTH} (TVM tuple length)`);
      for (const item of a.items) todo.push([item, d + 1]);
    } else if (a.type === 'cell' || a.type === 'slice' || a.type === 'builder') {
      const header = readBocHeader(a.boc);
      cells += typeof header === 'string' ? 0 : header.cells;
    }
  }
  const max = CHAIN_SIZE_LIMITS.maxMsgCells;
  if (cells > max) throw bad(`stack has ${cells} cells, the limit is ${max} (config param 43 max_msg_cells)`);
  // the emulator is handed the stack as one cell tree (vm_stack: a chain of entries, tuples and cells below)
  const depth = serializeTuple(stackArgsToTuple(args)).depth();
  if (depth > EMULATOR_MAX_DEPTH) throw bad(`stack serialises ${depth} cells deep, the limit is ${EMULATOR_MAX_DEPTH} (the emulator's bound)`);
  return args;
}

const expectArray = (json: unknown): unknown[] => {
  if (!Array.isArray(json)) throw bad('stack must be an array');
  // the cheap refusals first: a 60,000-entry array is not walked
  if (json.length > MAX_STACK_ENTRIES) throw bad(`stack has ${json.length} entries, the limit is ${MAX_STACK_ENTRIES} (${STACK_LIMIT_NAMES})`);
  if (jsonDepthOver(json, MAX_STACK_JSON_DEPTH)) throw bad(`stack entries nest deeper than ${MAX_STACK_ARG_DEPTH} levels`);
  return json;
};

/** runGetMethod `stack`: legacy `[type, value]` pairs. `["null"]` is refused like the C++ variant does. */
export function parseLegacyStack(json: unknown): StackArg[] {
  const tally: StackTally = { cells: 0 };
  return checkStackArgs(expectArray(json).map((e) => parseLegacyEntry(e, tally)));
}

/** runGetMethodStd `stack`: typed `tvm.stackEntry*` objects. */
export function parseStdStack(json: unknown): StackArg[] {
  const tally: StackTally = { cells: 0 };
  return checkStackArgs(expectArray(json).map((e) => parseStdEntry(e, tally)));
}

/** Parsed arguments as @ton/core tuple items, ready for a TVM run. */
export function stackArgsToTuple(args: StackArg[]): TupleItem[] {
  return args.map(argToItem);
}

function argToItem(arg: StackArg): TupleItem {
  switch (arg.type) {
    case 'int':
      return { type: 'int', value: arg.value };
    case 'null':
      return { type: 'null' };
    case 'tuple':
      return { type: 'tuple', items: arg.items.map(argToItem) };
    case 'cell':
    case 'slice':
    case 'builder':
      return { type: arg.type, cell: Cell.fromBoc(arg.boc)[0]! };
  }
}

// ---- output ----

/** tonlib is_list: null, or 2-tuples whose second element is again a list. */
function isList(item: TupleItem): boolean {
  let node = item;
  for (;;) {
    if (node.type === 'null') return true;
    if (node.type !== 'tuple' || node.items.length !== 2) return false;
    node = node.items[1]!;
  }
}

/** Heads of a list, in order. */
function listItems(item: TupleItem): TupleItem[] {
  const out: TupleItem[] = [];
  let node = item;
  while (node.type === 'tuple') {
    out.push(node.items[0]!);
    node = node.items[1]!;
  }
  return out;
}

const numberEntry = (value: bigint): StdStackEntry => ({
  '@type': 'tvm.stackEntryNumber',
  number: { '@type': 'tvm.numberDecimal', number: value.toString() },
});

/** One item in the typed form. */
function itemToStd(item: TupleItem): StdStackEntry {
  switch (item.type) {
    case 'int':
      return numberEntry(item.value);
    case 'cell':
    // tonlib has no builder entry (it answers unsupported); a builder is printed as the cell it would build
    case 'builder':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bocB64(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: bocB64(item.cell) } };
    case 'null':
    case 'tuple':
      if (isList(item)) return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: listItems(item).map(itemToStd) } };
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: (item as { items: TupleItem[] }).items.map(itemToStd) } };
    case 'nan':
      // tonlib prints NaN as the decimal "NaN", which no client parses; say so plainly instead
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

/** runGetMethodStd result stack. */
export function tupleToStd(items: TupleItem[]): StdStackEntry[] {
  return items.map(itemToStd);
}

/** td::RefInt256::to_hex_string with the 0x / -0x prefix the C++ variant adds; lowercase. */
export const hexNumber = (v: bigint): string => (v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`);

/** Cell data bytes with the completion tag (as vm::DataCell stores them) for the legacy `object` view. */
function taggedData(cell: Cell): Buffer {
  const len = cell.bits.length;
  const out = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (cell.bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  if (len % 8 !== 0) out[len >> 3]! |= 0x80 >> (len & 7);
  return out;
}

interface LegacyCellObject {
  data: { b64: string; len: number };
  refs: LegacyCellObject[];
  special: boolean;
}

/** ton-http-api-cpp SerializeCell: the cell tree as data/refs/special. */
function cellObject(cell: Cell): LegacyCellObject {
  return {
    data: { b64: taggedData(cell).toString('base64'), len: cell.bits.length },
    refs: cell.refs.map(cellObject),
    special: cell.isExotic,
  };
}

/** One item in the legacy pair form. */
function itemToLegacy(item: TupleItem): LegacyStackEntry {
  switch (item.type) {
    case 'int':
      return ['num', hexNumber(item.value)];
    case 'cell':
    case 'slice':
    case 'builder':
      return ['cell', { bytes: bocB64(item.cell), object: cellObject(item.cell) }];
    case 'null':
    case 'tuple': {
      const std = itemToStd(item);
      return std['@type'] === 'tvm.stackEntryList' ? ['list', std.list] : ['tuple', (std as Extract<StdStackEntry, { tuple: unknown }>).tuple];
    }
    case 'nan':
      return ['unsupported', ''];
  }
}

/** runGetMethod result stack (legacy pairs). */
export function tupleToLegacy(items: TupleItem[]): LegacyStackEntry[] {
  return items.map(itemToLegacy);
}
