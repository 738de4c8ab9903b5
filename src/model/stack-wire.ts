/**
 * Parsed get-method arguments back into the wire forms the upstream reads (v2.md §5, v3.md §2.7), so an
 * argument survives the surface's parse and the upstream's parse unchanged.
 */
import type { LegacyStackEntry, StackArg, StdStackEntry } from '../api/v2.js';

const num = (v: bigint): string => (v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`);

/** tonlib reads a null-terminated chain of pairs as a list; the surface parsed lists into exactly that. */
function listItems(arg: StackArg): StackArg[] | undefined {
  const items: StackArg[] = [];
  let node = arg;
  for (;;) {
    if (node.type === 'null') return items;
    if (node.type !== 'tuple' || node.items.length !== 2) return undefined;
    items.push(node.items[0]!);
    node = node.items[1]!;
  }
}

function toStd(arg: StackArg): StdStackEntry {
  const list = listItems(arg);
  if (list) return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: list.map(toStd) } };
  switch (arg.type) {
    case 'int':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: arg.value.toString() } };
    case 'cell':
    case 'builder':
      // the Std form has no builder; a builder's bytes are a cell's bytes
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: arg.boc.toString('base64') } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: arg.boc.toString('base64') } };
    case 'tuple':
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: arg.items.map(toStd) } };
    case 'null':
      return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } };
  }
}

/** runGetMethod's `[type, value]` pairs. */
export function toLegacyStack(args: StackArg[]): LegacyStackEntry[] {
  return args.map((arg): LegacyStackEntry => {
    const list = listItems(arg);
    if (list) return ['list', { '@type': 'tvm.list', elements: list.map(toStd) }];
    switch (arg.type) {
      case 'int':
        return ['num', num(arg.value)];
      case 'cell':
        return ['tvm.Cell', arg.boc.toString('base64')];
      case 'slice':
        return ['tvm.Slice', arg.boc.toString('base64')];
      case 'builder':
        return ['tvm.Builder', arg.boc.toString('base64')];
      case 'tuple':
        return ['tuple', { '@type': 'tvm.tuple', elements: arg.items.map(toStd) }];
      case 'null':
        return ['list', { '@type': 'tvm.list', elements: [] }];
    }
  });
}

/** runGetMethodStd's typed entries. */
export const toStdStack = (args: StackArg[]): StdStackEntry[] => args.map(toStd);

/** v3 runGetMethod's `{type, value}`: only num, cell and slice exist there. */
export function toV3Stack(args: StackArg[]): { type: string; value: string }[] {
  return args.map((arg) => {
    switch (arg.type) {
      case 'int':
        return { type: 'num', value: num(arg.value) };
      case 'cell':
      case 'builder':
        return { type: 'cell', value: arg.boc.toString('base64') };
      case 'slice':
        return { type: 'slice', value: arg.boc.toString('base64') };
      default:
        return { type: arg.type, value: '' };
    }
  });
}
