/**
 * What crosses between the chain's thread and an emulator worker (executor-pool.ts, executor-worker.ts):
 * sandbox's executor arguments with every Cell as a base64 BoC and every bigint as a decimal string, so a
 * message is plain JSON and a worker can be replaced without anything of the chain's living in it.
 *
 * The config, libraries and PREVBLOCKS change rarely; they travel only when they differ from what that worker
 * last received (absent = unchanged), and the worker keeps the last ones it was given.
 */
import { Address, Cell, type TupleItem } from '@ton/core';
import type {
  BlockId,
  ExecutorEmulationResult,
  ExecutorGetMethodArgs,
  ExecutorGetMethodResult,
  ExecutorRunTickTockArgs,
  ExecutorRunTransactionArgs,
  ExecutorVerbosity,
  PrevBlocksInfo,
} from '@ton/sandbox';
import type { CascadeInput, CascadeResult, CascadeStep } from '../model/emulate/cascade.js';

export type WireTupleItem =
  | { type: 'null' }
  | { type: 'nan' }
  | { type: 'int'; value: string }
  | { type: 'cell' | 'slice' | 'builder'; cell: string }
  | { type: 'tuple'; items: WireTupleItem[] };

interface WireBlockId {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

export interface WirePrevBlocks {
  lastMcBlocks: WireBlockId[];
  prevKeyBlock: WireBlockId;
  lastMcBlocks100?: WireBlockId[];
}

/** The slowly changing context of a call; each field absent when the worker already holds it. */
export interface WireContext {
  config?: string;
  /** base64 BoC of the libraries dictionary, or null for none */
  libs?: string | null;
  /** null: no PREVBLOCKS */
  prevBlocks?: WirePrevBlocks | null;
}

interface WireCommon {
  verbosity: ExecutorVerbosity;
  shardAccount: string;
  now: number;
  lt: string;
  /** hex, or null for none */
  randomSeed: string | null;
  ignoreChksig: boolean;
  debugEnabled: boolean;
}

export type WireCall =
  /** a whole emulated cascade (cascade.ts); the worker asks for states it lacks with `need` */
  | { kind: 'cascade'; input: CascadeInput }
  | ({ kind: 'transaction'; message: string } & WireCommon)
  | ({ kind: 'tickTock'; which: 'tick' | 'tock' } & WireCommon)
  | {
      kind: 'getMethod';
      code: string;
      data: string;
      methodId: number;
      stack: WireTupleItem[];
      verbosity: ExecutorVerbosity;
      address: string;
      unixTime: number;
      balance: string;
      randomSeed: string;
      gasLimit: string;
      debugEnabled: boolean;
      extraCurrency?: Record<string, string>;
    };

export type WireRequest = { id: number; context: WireContext; call: WireCall };

/** The answer to a cascade's `need`: the states (or why none), and the libraries when they grew since the call began. */
export type WireAccounts = { type: 'accounts'; id: number; accounts?: Record<string, string | null>; libs?: string | null; error?: string };

/** Why a worker was ended and replaced (the label of the restart counter). */
export type RestartReason = 'trap' | 'crash' | 'oom' | 'timeout';

export type WireReply =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: ExecutorEmulationResult | ExecutorGetMethodResult | CascadeResult; wasmBytes: number }
  /** a running cascade asks for these accounts' states (raw addresses) */
  | { type: 'need'; id: number; addresses: string[] }
  /** a running cascade made this step (its `done` holds it again) */
  | { type: 'step'; id: number; index: number; step: CascadeStep }
  /** `fatal`: the emulator itself failed and its instance can no longer be trusted */
  | { type: 'failed'; id: number; message: string; fatal?: RestartReason };

const b64 = (c: Cell): string => c.toBoc().toString('base64');

export function tupleToWire(items: TupleItem[]): WireTupleItem[] {
  return items.map((t): WireTupleItem => {
    switch (t.type) {
      case 'null':
      case 'nan':
        return { type: t.type };
      case 'int':
        return { type: 'int', value: t.value.toString() };
      case 'cell':
      case 'slice':
      case 'builder':
        return { type: t.type, cell: b64(t.cell) };
      case 'tuple':
        return { type: 'tuple', items: tupleToWire(t.items) };
    }
  });
}

export function tupleFromWire(items: WireTupleItem[]): TupleItem[] {
  return items.map((t): TupleItem => {
    switch (t.type) {
      case 'null':
      case 'nan':
        return { type: t.type };
      case 'int':
        return { type: 'int', value: BigInt(t.value) };
      case 'cell':
      case 'slice':
      case 'builder':
        return { type: t.type, cell: Cell.fromBase64(t.cell) };
      case 'tuple':
        return { type: 'tuple', items: tupleFromWire(t.items) };
    }
  });
}

const blockIdToWire = (b: BlockId): WireBlockId => ({
  workchain: b.workchain,
  shard: b.shard.toString(),
  seqno: b.seqno,
  rootHash: b.rootHash.toString('hex'),
  fileHash: b.fileHash.toString('hex'),
});

const blockIdFromWire = (b: WireBlockId): BlockId => ({
  workchain: b.workchain,
  shard: BigInt(b.shard),
  seqno: b.seqno,
  rootHash: Buffer.from(b.rootHash, 'hex'),
  fileHash: Buffer.from(b.fileHash, 'hex'),
});

export function prevBlocksToWire(info: PrevBlocksInfo): WirePrevBlocks {
  return {
    lastMcBlocks: info.lastMcBlocks.map(blockIdToWire),
    prevKeyBlock: blockIdToWire(info.prevKeyBlock),
    ...(info.lastMcBlocks100 ? { lastMcBlocks100: info.lastMcBlocks100.map(blockIdToWire) } : {}),
  };
}

export function prevBlocksFromWire(w: WirePrevBlocks): PrevBlocksInfo {
  return {
    lastMcBlocks: w.lastMcBlocks.map(blockIdFromWire),
    prevKeyBlock: blockIdFromWire(w.prevKeyBlock),
    ...(w.lastMcBlocks100 ? { lastMcBlocks100: w.lastMcBlocks100.map(blockIdFromWire) } : {}),
  };
}

type Common = Omit<ExecutorRunTransactionArgs, 'message'>;

function commonToWire(a: Common): WireCommon {
  return {
    verbosity: a.verbosity,
    shardAccount: a.shardAccount,
    now: a.now,
    lt: a.lt.toString(),
    randomSeed: a.randomSeed === null ? null : a.randomSeed.toString('hex'),
    ignoreChksig: a.ignoreChksig,
    debugEnabled: a.debugEnabled,
  };
}

export const transactionToWire = (a: ExecutorRunTransactionArgs): WireCall => ({ kind: 'transaction', message: b64(a.message), ...commonToWire(a) });

export const tickTockToWire = (a: ExecutorRunTickTockArgs): WireCall => ({ kind: 'tickTock', which: a.which, ...commonToWire(a) });

export function getMethodToWire(a: ExecutorGetMethodArgs): WireCall {
  return {
    kind: 'getMethod',
    code: b64(a.code),
    data: b64(a.data),
    methodId: a.methodId,
    stack: tupleToWire(a.stack),
    verbosity: a.verbosity,
    address: a.address.toRawString(),
    unixTime: a.unixTime,
    balance: a.balance.toString(),
    randomSeed: a.randomSeed.toString('hex'),
    gasLimit: a.gasLimit.toString(),
    debugEnabled: a.debugEnabled,
    ...(a.extraCurrency ? { extraCurrency: Object.fromEntries(Object.entries(a.extraCurrency).map(([k, v]) => [k, v.toString()])) } : {}),
  };
}

/** The context a worker holds, as sandbox's arguments take it. */
export interface HeldContext {
  config: string;
  libs: Cell | null;
  prevBlocks: PrevBlocksInfo | undefined;
}

function commonFromWire(w: WireCommon, held: HeldContext): Common {
  return {
    config: held.config,
    libs: held.libs,
    verbosity: w.verbosity,
    shardAccount: w.shardAccount,
    now: w.now,
    lt: BigInt(w.lt),
    randomSeed: w.randomSeed === null ? null : Buffer.from(w.randomSeed, 'hex'),
    ignoreChksig: w.ignoreChksig,
    debugEnabled: w.debugEnabled,
    prevBlocksInfo: held.prevBlocks,
  };
}

export function transactionFromWire(w: WireCall & { kind: 'transaction' }, held: HeldContext): ExecutorRunTransactionArgs {
  return { ...commonFromWire(w, held), message: Cell.fromBase64(w.message) };
}

export function tickTockFromWire(w: WireCall & { kind: 'tickTock' }, held: HeldContext): ExecutorRunTickTockArgs {
  return { ...commonFromWire(w, held), which: w.which };
}

export function getMethodFromWire(w: WireCall & { kind: 'getMethod' }, held: HeldContext): ExecutorGetMethodArgs {
  return {
    code: Cell.fromBase64(w.code),
    data: Cell.fromBase64(w.data),
    methodId: w.methodId,
    stack: tupleFromWire(w.stack),
    config: held.config,
    verbosity: w.verbosity,
    libs: held.libs ?? undefined,
    address: Address.parseRaw(w.address),
    unixTime: w.unixTime,
    balance: BigInt(w.balance),
    randomSeed: Buffer.from(w.randomSeed, 'hex'),
    gasLimit: BigInt(w.gasLimit),
    debugEnabled: w.debugEnabled,
    prevBlocksInfo: held.prevBlocks,
    ...(w.extraCurrency ? { extraCurrency: Object.fromEntries(Object.entries(w.extraCurrency).map(([k, v]) => [Number(k), BigInt(v)])) } : {}),
  };
}
