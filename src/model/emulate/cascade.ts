/**
 * The emulated cascade itself, on wire values only (BoCs as base64, lts as decimal strings), so that it runs
 * the same inside an emulator worker (executor-worker.ts: the whole cascade is one call, the worker asking its
 * caller only for the account states it does not hold) and on the caller's side over any executor (engine.ts,
 * when the executor has no worker). Nothing here touches a chain: states live in this run's map.
 *
 * Order and limits are the reference's (emulate-v1.md §7): messages breadth first, only internal out-messages
 * followed, at most `maxTransactions` transactions (reaching it sets `incomplete`), messages deeper than
 * `maxDepth` dropped. Each transaction takes the next lt step. The gateway's own bound on top: the messages the
 * answer prints (each transaction's in-message and out-messages, a message once per place it appears) may hold
 * at most `maxAnswerBytes` bytes and `maxAnswerCells` cells of BoC; the transaction that would pass either is
 * left out and the run ends `incomplete`, as at the transaction limit, or, when it is the first, ends
 * `tooLarge` (there is no answer without it). Between two transactions the wall clock is
 * checked against `deadline`: past it the run stops and says so (a single transaction is bounded by whoever
 * runs the emulator). When the next message goes to an account the run does not hold, the destinations of every
 * message still queued that it does not hold are asked for at once.
 */
import { beginCell, Cell, storeShardAccount, type Address } from '@ton/core';
import { createEmptyShardAccount, type ExecutorEmulationResult, type PrevBlocksInfo } from '@ton/sandbox';
import { bocCellCount, messageDestination, transactionOutMessages } from './raw-boc.js';

export interface CascadeInput {
  /** the root message, base64 BoC */
  root: string;
  /** account states already known, by raw address: base64 ShardAccount BoC, null for an account that does not exist */
  accounts: Record<string, string | null>;
  /** the world's identity (`EmulationWorld.key`): an executor may keep the states it was given under it */
  world?: string;
  now: number;
  /** decimal: the first transaction's lt */
  lt: string;
  /** decimal: the lt distance between two transactions */
  ltStep: string;
  /** hex */
  randomSeed: string;
  ignoreChksig: boolean;
  maxTransactions: number;
  maxDepth: number;
  /** bytes of message BoCs the answer may print, counted once per place a message appears */
  maxAnswerBytes: number;
  /** cells of those BoCs */
  maxAnswerCells: number;
  /** epoch ms: no transaction starts after it */
  deadline: number;
}

export interface CascadeStep {
  /** raw address */
  account: string;
  /** base64 BoC */
  tx: string;
  /** the account's state after it, base64 ShardAccount BoC */
  shardAccount: string;
  /** 1 for the root */
  depth: number;
  /** index of the step whose out-message caused this one; -1 for the root */
  parent: number;
}

export interface CascadeResult {
  kind: 'cascade';
  steps: CascadeStep[];
  incomplete: boolean;
  /** the root message was not accepted: its exit code */
  rejected?: number;
  /** the deadline passed before the cascade ended */
  timedOut?: boolean;
  /** the root transaction's messages alone hold more than the answer may: what they hold */
  tooLarge?: AnswerSize;
}

/** What messages printed in an answer hold: bytes and cells of their BoCs. */
export interface AnswerSize {
  bytes: number;
  cells: number;
}

export interface CascadeHost {
  /** one transaction on `shardAccount` (base64 BoC) of `message` (its BoC) */
  run(shardAccount: string, message: Buffer, lt: bigint): Promise<ExecutorEmulationResult>;
  /** the states of these accounts (raw addresses); one missing from the answer does not exist */
  need(addresses: string[]): Promise<Record<string, string | null>>;
  /** told each step as the cascade goes on (a worker posts each as the next transaction starts, so its caller can read it meanwhile; the last may come only with the result) */
  step?(step: CascadeStep, index: number): void;
}

const emptyAccount = (a: Address): string => beginCell().store(storeShardAccount(createEmptyShardAccount(a))).endCell().toBoc().toString('base64');

interface Queued {
  /** the message's BoC */
  boc: Buffer;
  /** the cells in it */
  cells: number;
  dest: Address;
  depth: number;
  parent: number;
}

export async function runCascade(input: CascadeInput, host: CascadeHost): Promise<CascadeResult> {
  const states = new Map<string, string | null>(Object.entries(input.accounts));
  const step = BigInt(input.ltStep);
  let lt = BigInt(input.lt);
  const rootBoc = Buffer.from(input.root, 'base64');
  // only the header is read, as bytes: the emulator parses the message itself
  const rootDest = messageDestination(rootBoc);
  if (!rootDest) throw new Error('an external-out message cannot be emulated');
  const queue: Queued[] = [{ boc: rootBoc, cells: bocCellCount(rootBoc), dest: rootDest, depth: 1, parent: -1 }];
  const steps: CascadeStep[] = [];
  const printed: AnswerSize = { bytes: 0, cells: 0 };
  for (let i = 0; i < queue.length; i++) {
    if (steps.length >= input.maxTransactions) return { kind: 'cascade', steps, incomplete: true };
    if (Date.now() > input.deadline) return { kind: 'cascade', steps, incomplete: true, timedOut: true };
    const item = queue[i]!;
    const key = item.dest.toRawString();
    if (!states.has(key)) {
      const missing = [...new Set(queue.slice(i).map((q) => q.dest.toRawString()))].filter((k) => !states.has(k));
      const got = await host.need(missing);
      for (const k of missing) states.set(k, got[k] ?? null);
    }
    const res = await host.run(states.get(key) ?? emptyAccount(item.dest), item.boc, lt);
    lt += step;
    if (!res.result.success) {
      if (i === 0) return { kind: 'cascade', steps, incomplete: false, rejected: res.result.vmResults?.vmExitCode ?? 0 };
      continue;
    }
    // only the out-messages' cells and headers are read here, as bytes: the caller parses the whole transaction
    const out = transactionOutMessages(Buffer.from(res.result.transaction, 'base64'));
    const size: AnswerSize = { bytes: item.boc.length, cells: item.cells };
    for (const m of out) {
      size.bytes += m.boc.length;
      size.cells += m.cells;
    }
    if (printed.bytes + size.bytes > input.maxAnswerBytes || printed.cells + size.cells > input.maxAnswerCells) {
      return steps.length === 0 ? { kind: 'cascade', steps, incomplete: false, tooLarge: size } : { kind: 'cascade', steps, incomplete: true };
    }
    printed.bytes += size.bytes;
    printed.cells += size.cells;
    const n = steps.push({ account: key, tx: res.result.transaction, shardAccount: res.result.shardAccount, depth: item.depth, parent: item.parent }) - 1;
    host.step?.(steps[n]!, n);
    states.set(key, res.result.shardAccount);
    if (item.depth >= input.maxDepth) continue;
    for (const m of out) if (m.dest) queue.push({ boc: m.boc, cells: m.cells, dest: m.dest, depth: item.depth + 1, parent: n });
  }
  return { kind: 'cascade', steps, incomplete: false };
}

/** The slowly changing context of a cascade: a world's (api/emulate.ts `EmulationWorld`); `libs` may grow while it runs. */
export interface CascadeContext {
  readonly config: string;
  readonly libs: Cell | null;
  readonly prevBlocks?: PrevBlocksInfo;
}

/**
 * An executor that runs a whole cascade itself (an emulator worker), asking `need` for the states it lacks and
 * telling `step` the steps as it goes (perhaps not the last: the result holds them all).
 */
export interface CascadeExecutor {
  runCascade(input: CascadeInput, context: CascadeContext, need: CascadeHost['need'], step?: CascadeHost['step']): Promise<CascadeResult>;
}
