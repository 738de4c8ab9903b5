/**
 * The emulation core: one message and the cascade it causes (cascade.ts: order, limits, lt steps) over a copy
 * of a world's state (api/emulate.ts `EmulationWorld`). An executor that can run a whole cascade (the local
 * chain's emulator workers, with every bound they keep) runs it as one call, asking back only for account
 * states it lacks; any other executor is driven from here transaction by transaction. Accounts are read from the
 * world once, when first needed; every state the cascade produces lives only in this run. Nothing is written.
 *
 * Every transaction runs at the world's time; each takes the next lt step (1,000,000, as sandbox and the local
 * chain step), so out-messages' created_lt follow as they would on the chain. An external message the contract
 * does not accept fails the whole emulation (`EmulationExternalNotAccepted: <exit code>`); so does the
 * deadline, whether it passes while a state is read, between two transactions or while they are read here
 * (in slices, so that other requests are answered meanwhile). The answer's messages are bounded in the
 * executor (cascade.ts): a trace cut there is `incomplete`, a first transaction past the bound a 413.
 */
import { randomBytes } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  getMethodId,
  loadCommonMessageInfo,
  loadMessage,
  loadShardAccount,
  loadTransaction,
  parseTuple,
  storeShardAccount,
  type CommonMessageInfo,
  type Message,
  type ShardAccount,
  type Transaction,
  type TupleItem,
} from '@ton/core';
import type { IExecutor } from '@ton/sandbox';
import { EMULATE_LIMITS, EmulateError, type EmulationWorld } from '../../api/emulate.js';
import { rawUpper } from '../address.js';
import { messageCells } from '../message.js';
import { cellFromBase64 } from './cell-cache.js';
import { runCascade, type AnswerSize, type CascadeExecutor, type CascadeHost, type CascadeInput, type CascadeStep } from './cascade.js';
import { Slices, timedOut, withinDeadline } from './slices.js';
import type { ContractInfo } from '../v3/actions/block.js';
import { getMethodContractInfo, tupleGetStack, walletData } from '../v3/contract-info.js';

/** The lt distance between two transactions of a run. */
const LT_STEP = 1_000_000n;
const GET_METHOD_GAS = 10_000_000n;
/** the longest stretch of reading steps while the executor still runs, before other requests get a turn, ms */
const RUNNING_SLICE_MS = 4;

export interface EmulatedTx {
  /** hex */
  hash: string;
  /** hex hash of the transaction whose out-message caused this one */
  parentHash?: string;
  /** 1 for the root */
  depth: number;
  tx: Transaction;
  account: Address;
  inMsg: { msg: Message; cell: Cell };
  /** the state this transaction started from, and whether this run produced it (else the world's) */
  before: ShardAccount | null;
  beforeEmulated: boolean;
  after: ShardAccount;
}

export interface TraceRun {
  world: EmulationWorld;
  txs: EmulatedTx[];
  incomplete: boolean;
  randSeed: Buffer;
  /** each touched account's state in the world (null: it did not exist), by raw address */
  initial: Map<string, ShardAccount | null>;
  /** each touched account's state after the run */
  final: Map<string, ShardAccount | null>;
}

export interface RunOptions {
  ignoreChksig: boolean;
  /** epoch ms: the whole emulation's end (emulation.ts `EmulationBudget`), the run's work here included */
  deadline: number;
  /** what the answer's messages may hold at most */
  maxAnswer: AnswerSize;
  randSeed?: Buffer;
  /** `root` as the base64 BoC it was read from, when the caller holds it (saves serialising it again) */
  rootBoc?: string;
  /**
   * Told each transaction, in order, as soon as it is known: while the executor still runs the next one when
   * it tells its steps as it goes (the answer is built from them meanwhile). A transaction of a run that then
   * fails (a rejected root, the deadline) may have been told.
   */
  onTx?: (e: EmulatedTx, index: number) => void;
}

/** the BoC of each world state already sent to an executor: a world hands out the same object for an unchanged state */
const sentBocs = new WeakMap<ShardAccount, string>();

function shardAccountBoc(sa: ShardAccount): string {
  let boc = sentBocs.get(sa);
  if (boc === undefined) {
    boc = beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
    sentBocs.set(sa, boc);
  }
  return boc;
}

interface ParsedStep {
  /** hex */
  hash: string;
  tx: Transaction;
  after: ShardAccount;
  inCell: Cell | undefined;
}

/**
 * A step read back: the state after through the shared cells (cell-cache.ts: a contract's code and unchanged
 * data come back emulation after emulation), the transaction as it is (its cells are new each time, and keeping
 * them in that table only made every one of them outlive a young-generation collection).
 */
function parseStep(step: CascadeStep): ParsedStep {
  const txCell = Cell.fromBase64(step.tx);
  const tx = loadTransaction(txCell.beginParse());
  return { hash: txCell.hash().toString('hex'), tx, after: loadShardAccount(cellFromBase64(step.shardAccount).beginParse()), inCell: messageCells(tx).inMsg };
}

/** The account a message goes to (external-in or internal). */
function destinationOf(info: CommonMessageInfo): Address {
  if (info.type === 'external-out') throw new EmulateError(500, "Can't deserialize message boc: an external-out message cannot be emulated");
  return info.dest;
}

const undeserializable = (e: unknown): EmulateError => new EmulateError(500, `Can't deserialize message boc: ${(e as Error).message}`);

/** Emulates `root` and its cascade on a copy of `world`'s state: inside the executor when it can run a whole cascade, else here. */
export async function runTrace(world: EmulationWorld, executor: IExecutor & Partial<CascadeExecutor>, root: Cell, opts: RunOptions): Promise<TraceRun> {
  const deadline = opts.deadline;
  const slices = new Slices(deadline);
  const randSeed = opts.randSeed ?? randomBytes(32);
  // the header is enough to start; the whole message is read while the executor runs (below)
  let rootInfo: CommonMessageInfo;
  try {
    rootInfo = loadCommonMessageInfo(root.beginParse());
  } catch (e) {
    throw undeserializable(e);
  }
  const rootKey = destinationOf(rootInfo).toRawString();
  let rootMsg: Message | undefined;
  /** every state read from the world, by raw address */
  const initial = new Map<string, ShardAccount | null>();
  const read = async (addresses: string[]): Promise<(ShardAccount | null)[]> => {
    const states = await withinDeadline(Promise.all(addresses.map((a) => world.account(Address.parseRaw(a)))), deadline);
    addresses.forEach((a, n) => initial.set(a, states[n]!));
    return states;
  };
  const need = async (addresses: string[]): Promise<Record<string, string | null>> => {
    const states = await read(addresses);
    return Object.fromEntries(addresses.map((a, n) => [a, states[n] ? shardAccountBoc(states[n]) : null]));
  };
  const input: CascadeInput = {
    root: opts.rootBoc ?? root.toBoc().toString('base64'),
    accounts: await need([rootKey]),
    ...(world.key !== undefined ? { world: world.key } : {}),
    now: world.utime,
    lt: (((world.lt + LT_STEP - 1n) / LT_STEP) * LT_STEP).toString(),
    ltStep: LT_STEP.toString(),
    randomSeed: randSeed.toString('hex'),
    ignoreChksig: opts.ignoreChksig,
    maxTransactions: EMULATE_LIMITS.maxTransactions,
    maxDepth: EMULATE_LIMITS.maxDepth,
    maxAnswerBytes: opts.maxAnswer.bytes,
    maxAnswerCells: opts.maxAnswer.cells,
    deadline,
  };
  // each step is read as it comes, while the executor runs the next transaction, and becomes an EmulatedTx as
  // soon as the state it started from is known (the world's, read here, or an earlier step's)
  const parsed: (ParsedStep | undefined)[] = [];
  const steps: CascadeStep[] = [];
  const txs: EmulatedTx[] = [];
  /** each account's state after the last transaction built so far */
  const current = new Map<string, ShardAccount>();
  /** accounts being read from the world for a step */
  const reading = new Map<string, Promise<unknown>>();
  /** Starts reading an account's state for a step; the steps waiting for it are built when it comes. */
  const readFor = (a: string): void => {
    if (initial.has(a) || current.has(a) || reading.has(a)) return;
    const r = read([a]);
    reading.set(a, r);
    // a failure is the emulation's, where the result waits for this read below
    r.then(tryBuild, () => undefined);
  };
  /** Builds the next transaction when the state it started from is known; false when it is not (yet). */
  const buildNext = (): boolean => {
    const n = txs.length;
    const step = steps[n];
    if (!step) return false;
    if (!current.has(step.account) && !initial.has(step.account)) {
      // the executor held this state itself: read here too (the world has it at hand or cached), then go on
      readFor(step.account);
      return false;
    }
    const { hash, tx, after, inCell } = (parsed[n] ??= parseStep(step));
    const e: EmulatedTx = {
      hash,
      ...(step.parent >= 0 ? { parentHash: txs[step.parent]!.hash } : {}),
      depth: step.depth,
      tx,
      account: Address.parseRaw(step.account),
      inMsg: { msg: tx.inMessage ?? rootMsg ?? loadMessage(root.beginParse()), cell: inCell ?? root },
      before: current.get(step.account) ?? initial.get(step.account) ?? null,
      beforeEmulated: current.has(step.account),
      after,
    };
    txs.push(e);
    current.set(step.account, after);
    opts.onTx?.(e, n);
    return true;
  };
  /** set once the run has failed or its deadline passed: the steps still coming are not read */
  let abandoned = false;
  let resumeQueued = false;
  /** Builds what it can while the run goes on, a slice at a time; a failure is met again when the run ends. */
  const tryBuild = (): void => {
    if (abandoned || slices.over) return;
    const start = performance.now();
    try {
      while (buildNext()) {
        if (performance.now() - start < RUNNING_SLICE_MS || resumeQueued) continue;
        resumeQueued = true;
        setImmediate(() => {
          resumeQueued = false;
          tryBuild();
        });
        return;
      }
    } catch {
      // built again when the run ends, where its error is the emulation's
    }
  };
  const onStep = (s: CascadeStep, n: number): void => {
    if (abandoned || slices.over) return;
    steps[n] = s;
    try {
      const p = (parsed[n] = parseStep(s));
      // the states its messages go to are read now, so that their transactions are built as soon as they come
      // (not those of messages the run drops for their depth)
      if (s.depth < EMULATE_LIMITS.maxDepth) for (const m of p.tx.outMessages.values()) if (m.info.type === 'internal') readFor(m.info.dest.toRawString());
    } catch {
      // read again below, where its error is the emulation's
    }
    tryBuild();
  };
  const here: CascadeHost = {
    need,
    step: onStep,
    run: (shardAccount, message, lt) =>
      executor.runTransaction({
        config: world.config,
        libs: world.libs,
        verbosity: 'short',
        shardAccount,
        message: Cell.fromBoc(message)[0]!,
        now: world.utime,
        lt,
        randomSeed: randSeed,
        ignoreChksig: opts.ignoreChksig,
        debugEnabled: false,
        prevBlocksInfo: world.prevBlocks,
      }),
  };
  const running = withinDeadline(executor.runCascade ? executor.runCascade(input, world, need, onStep) : runCascade(input, here), deadline);
  // a message that does not parse is refused as before the emulation, whatever the emulator made of it
  let rootError: unknown;
  try {
    rootMsg = loadMessage(root.beginParse());
  } catch (e) {
    rootError = e;
  }
  let result: Awaited<typeof running>;
  try {
    result = await running;
  } catch (e) {
    abandoned = true;
    throw rootError !== undefined ? undeserializable(rootError) : e;
  }
  if (rootError !== undefined) throw undeserializable(rootError);
  if (result.timedOut) throw timedOut();
  if (result.rejected !== undefined) throw new EmulateError(500, `EmulationExternalNotAccepted: ${result.rejected}`);
  if (result.tooLarge) throw answerTooLarge(result.tooLarge, opts.maxAnswer);
  try {
    // the states the executor already held for this world, read here too (the world has them at hand or cached)
    const unread = [...new Set(result.steps.map((s) => s.account))].filter((a) => !initial.has(a) && !reading.has(a));
    if (unread.length > 0) await read(unread);
    result.steps.forEach((s, n) => (steps[n] ??= s));
    // every state is known now: the steps not built yet (the last comes only with the result) are built here
    await Promise.all(reading.values());
    while (txs.length < steps.length) {
      await slices.tick();
      buildNext();
    }
  } catch (e) {
    abandoned = true;
    throw e;
  }
  const final = new Map<string, ShardAccount | null>();
  for (const [k, v] of current) final.set(k, v);
  return { world, txs, incomplete: result.incomplete, randSeed, initial, final };
}

/** The first transaction's messages alone hold more than an answer may. */
function answerTooLarge(size: AnswerSize, max: AnswerSize): EmulateError {
  const what = size.cells > max.cells ? `${size.cells} cells, the bound is ${max.cells}` : `${size.bytes} bytes, the bound is ${max.bytes}`;
  return new EmulateError(413, `emulation answer too large: the messages of the trace's first transaction hold ${what}`);
}

/** Get-methods on the run's states (the state after the run, else the world's), for the classifier and balance changes. */
export class RunReader {
  private readonly memo = new Map<string, Promise<TupleItem[] | null>>();

  constructor(
    private readonly run: TraceRun,
    private readonly executor: IExecutor,
    /** epoch ms: past it no get-method is started (the emulation's deadline) */
    private readonly deadline = Infinity,
  ) {}

  /** The account's state after the run (`when` after) or before it. */
  async state(address: Address, when: 'before' | 'after'): Promise<ShardAccount | null> {
    const key = address.toRawString();
    if (when === 'after' && this.run.final.has(key)) return this.run.final.get(key)!;
    if (this.run.initial.has(key)) return this.run.initial.get(key)!;
    return this.run.world.account(address);
  }

  /** The method's stack on that state, or null when it has no code or the method failed. */
  getMethod(address: Address, method: string, when: 'before' | 'after'): Promise<TupleItem[] | null> {
    const key = `${address.toRawString()}|${method}|${when}`;
    let hit = this.memo.get(key);
    if (!hit) {
      hit = this.call(address, method, when).catch(() => null);
      this.memo.set(key, hit);
    }
    return hit;
  }

  /** The method's stack on that state called with `args` (not kept: its arguments vary), or null as above. */
  getMethodWith(address: Address, method: string, when: 'before' | 'after', args: TupleItem[]): Promise<TupleItem[] | null> {
    return this.call(address, method, when, args).catch(() => null);
  }

  private async call(address: Address, method: string, when: 'before' | 'after', stack: TupleItem[] = []): Promise<TupleItem[] | null> {
    const sa = await this.state(address, when);
    if (Date.now() > this.deadline) throw timedOut();
    const st = sa?.account?.storage.state;
    if (st?.type !== 'active' || !st.state.code || !st.state.data) return null;
    const w = this.run.world;
    const res = await this.executor.runGetMethod({
      code: st.state.code,
      data: st.state.data,
      methodId: getMethodId(method),
      stack,
      config: w.config,
      verbosity: 'short',
      libs: w.libs ?? undefined,
      address,
      unixTime: w.utime,
      balance: sa!.account!.storage.balance.coins,
      randomSeed: this.run.randSeed,
      gasLimit: GET_METHOD_GAS,
      debugEnabled: false,
      prevBlocksInfo: w.prevBlocks,
    });
    if (!res.output.success || (res.output.vm_exit_code !== 0 && res.output.vm_exit_code !== 1)) return null;
    return parseTuple(Cell.fromBase64(res.output.stack));
  }

  /** `get_wallet_data`: balance, owner and master (raw uppercase), or null when the account is no jetton wallet then. */
  async jettonWallet(address: Address, when: 'before' | 'after'): Promise<{ balance: bigint; owner: string; jetton: string } | null> {
    const st = await this.getMethod(address, 'get_wallet_data', when);
    return walletData(st && tupleGetStack(st));
  }

  /** The classifier's account questions, by get-methods on the states after the run. */
  contractInfo(): ContractInfo {
    return getMethodContractInfo({
      run: async (a, method) => {
        const st = await this.getMethod(Address.parseRaw(a), method, 'after');
        return st && tupleGetStack(st);
      },
      data: async (a) => {
        const st = (await this.state(Address.parseRaw(a), 'after'))?.account?.storage.state;
        return st?.type === 'active' ? (st.state.data ?? null) : null;
      },
    });
  }
}
