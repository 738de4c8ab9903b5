/** v2 get-methods (v2.md §5): run a contract's get-method with a stack in either encoding. */
import type { Address } from '@ton/core';
import { NO_CACHE } from '../descriptor.js';
import { atSeqnoOr, endpoint, object, POST_ONLY, type V2Endpoint } from './endpoint.js';
import { seqnoAt } from './accounts.js';
import type { AtSeqno, BlockIdExt, TransactionId, TvmCell } from './objects.js';
import { address, legacyStack, methodRef, required, stdStack } from './params.js';

/** A legacy stack entry: ["num","0x.."], ["cell",{bytes,object}], ["tuple",{...}], ["list",{...}], ["null"]. */
export type LegacyStackEntry = [string, unknown] | [string];

export type StdStackEntry =
  | { '@type': 'tvm.stackEntryNumber'; number: { '@type': 'tvm.numberDecimal'; number: string } }
  | { '@type': 'tvm.stackEntryCell'; cell: TvmCell }
  | { '@type': 'tvm.stackEntrySlice'; slice: { '@type': 'tvm.slice'; bytes: string } }
  | { '@type': 'tvm.stackEntryTuple'; tuple: { '@type': 'tvm.tuple'; elements: StdStackEntry[] } }
  | { '@type': 'tvm.stackEntryList'; list: { '@type': 'tvm.list'; elements: StdStackEntry[] } }
  | { '@type': 'tvm.stackEntryUnsupported' };

export interface RunResult {
  '@type': 'smc.runResult';
  gas_used: number;
  stack: LegacyStackEntry[];
  exit_code: number;
  block_id: BlockIdExt;
  last_transaction_id: TransactionId;
}

export interface RunResultStd {
  '@type': 'smc.runResult';
  gas_used: number;
  stack: StdStackEntry[];
  exit_code: number;
}

export interface RunGetMethodParams extends AtSeqno {
  address: Address;
  /** method name or numeric id */
  method: string | number;
}

/** A get-method argument after parsing either stack format. */
export type StackArg =
  | { type: 'int'; value: bigint }
  | { type: 'cell'; boc: Buffer }
  | { type: 'slice'; boc: Buffer }
  | { type: 'builder'; boc: Buffer }
  | { type: 'null' }
  | { type: 'tuple'; items: StackArg[] };


export interface RunGetMethodApi {
  runGetMethod(p: RunGetMethodParams & { stack: StackArg[] }): Promise<RunResult>;
  runGetMethodStd(p: RunGetMethodParams & { stack: StackArg[] }): Promise<RunResultStd>;
}

const runParams = (stack: typeof legacyStack) => ({
  address: required(address()),
  method: required(methodRef('get-method name or numeric id')),
  stack: required(stack()),
  seqno: seqnoAt(),
});

export const RUN_GET_METHOD: readonly V2Endpoint[] = [
  endpoint({
    name: 'runGetMethod',
    methods: POST_ONLY,
    category: 'Run method',
    summary: 'Run a get-method; stack in the legacy [type, value] form',
    params: runParams(legacyStack),
    result: object('smc.runResult'),
    cache: atSeqnoOr(NO_CACHE),
  }),
  endpoint({
    name: 'runGetMethodStd',
    methods: POST_ONLY,
    category: 'Run method',
    summary: 'Run a get-method; stack as typed tvm.stackEntry* objects',
    params: runParams(stdStack),
    result: object('smc.runResult'),
    cache: atSeqnoOr(NO_CACHE),
  }),
];
