/**
 * Get-methods: the stack in and out as toncenter v3's runGetMethod has it (v3.md §2.7), numbers as 0x-hex
 * and cells/slices as BoC, with tuples nested. Root field: runGetMethod; Account.getMethod uses the same.
 */
import type { Address } from '@ton/core';
import type { StackArg } from '../../../api/v2.js';
import type { V2RunGetMethodResult, V3StackEntry } from '../wire.js';
import { checkMethodRef } from '../../../model/limits.js';
import { checkStackArgs, parseInt257, stackBoc, StackError } from '../../../model/stack.js';
import { builder, type GraphQLContext } from '../builder.js';
import { badInput } from '../errors.js';

type StackEntryType = 'num' | 'cell' | 'slice' | 'builder' | 'tuple' | 'null';

// GraphQL forbids an enum value named null, so the names are upper-case and the values v3's strings
const StackEntryTypeEnum = builder.enumType('StackEntryType', {
  values: {
    NUM: { value: 'num' },
    CELL: { value: 'cell' },
    SLICE: { value: 'slice' },
    BUILDER: { value: 'builder' },
    TUPLE: { value: 'tuple' },
    NULL: { value: 'null' },
  } as const,
});

interface StackEntryInputShape {
  type: StackEntryType;
  value?: string | null;
  items?: StackEntryInputShape[] | null;
}

export const StackEntryInput = builder.inputRef<StackEntryInputShape>('StackEntryInput').implement({
  description: 'A get-method argument: `num` takes a decimal or 0x-hex value, `cell`/`slice`/`builder` a base64 BoC, `tuple` its items.',
  fields: (t) => ({
    type: t.field({ type: StackEntryTypeEnum, required: true }),
    value: t.string(),
    items: t.field({ type: [StackEntryInput] }),
  }),
});

function bocOf(e: StackEntryInputShape): Buffer {
  return stackBoc(e.value ?? '', `stack entry of type ${e.type}`);
}

function toStackArg(e: StackEntryInputShape): StackArg {
  switch (e.type) {
    case 'num': {
      const v = e.value == null ? null : parseInt257(e.value);
      if (v === null) throw badInput(`stack entry of type num needs a decimal or 0x-hex integer, got ${JSON.stringify(e.value)}`);
      return { type: 'int', value: v };
    }
    case 'cell':
    case 'slice':
    case 'builder':
      return { type: e.type, boc: bocOf(e) };
    case 'null':
      return { type: 'null' };
    case 'tuple':
      return { type: 'tuple', items: (e.items ?? []).map(toStackArg) };
  }
}

export const StackEntryRef = builder.objectRef<V3StackEntry>('StackEntry');

StackEntryRef.implement({
  description: 'A get-method result entry: `value` holds a number (0x-hex) or a BoC; `items` a tuple or list.',
  fields: (t) => ({
    type: t.string({ resolve: (e) => e.type }),
    value: t.string({ nullable: true, resolve: (e) => (typeof e.value === 'string' ? e.value : null) }),
    number: t.field({
      type: 'BigInt',
      nullable: true,
      description: 'The value of a `num` entry as a decimal.',
      resolve: (e) => (e.type === 'num' ? parseInt257(e.value) : null),
    }),
    items: t.field({ type: [StackEntryRef], nullable: true, resolve: (e) => (Array.isArray(e.value) ? e.value : null) }),
  }),
});

export const GetMethodResultRef = builder.objectRef<V2RunGetMethodResult>('GetMethodResult').implement({
  fields: (t) => ({
    exitCode: t.exposeInt('exit_code'),
    gasUsed: t.exposeInt('gas_used'),
    stack: t.field({ type: [StackEntryRef], description: 'Empty when the source prints none.', resolve: (r) => r.stack ?? [] }),
  }),
});

export function runGetMethod(
  ctx: GraphQLContext,
  address: Address,
  method: string,
  stack: readonly StackEntryInputShape[] | null | undefined,
): Promise<V2RunGetMethodResult> {
  let args: StackArg[];
  try {
    args = checkStackArgs((stack ?? []).map(toStackArg));
  } catch (e) {
    // a stack over a limit is refused before it reaches the emulator, as BAD_USER_INPUT like every other bad entry
    if (e instanceof StackError) throw badInput(e.message);
    throw e;
  }
  try {
    checkMethodRef(method);
  } catch (e) {
    throw badInput((e as Error).message);
  }
  const id = /^-?\d+$/.test(method) ? Number(method) : method;
  return ctx.v3.runGetMethod({ address, method: id, stack: args });
}

builder.queryField('runGetMethod', (t) =>
  t.field({
    type: GetMethodResultRef,
    nullable: true,
    args: {
      address: t.arg({ type: 'Address', required: true }),
      method: t.arg.string({ required: true, description: 'Method name or numeric id.' }),
      stack: t.arg({ type: [StackEntryInput], defaultValue: [] }),
    },
    resolve: (_root, args, ctx) => runGetMethod(ctx, args.address, args.method, args.stack),
  }),
);
