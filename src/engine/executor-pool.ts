/**
 * The local chain's emulators, each in its own worker thread (executor-worker.ts), so that no input can
 * disable execution: a trap, a crash, an out-of-memory or a call running past its wall-clock bound ends that
 * worker, the call fails, and a fresh worker takes over. The chain's state lives on this side (sandbox's
 * Blockchain keeps the accounts); a worker is given everything a call needs and keeps nothing that matters.
 *
 * Two lanes: `execution` (the chain's messages, handed to sandbox as its IExecutor) and `reads` (get-methods
 * and fee estimates), each with its own workers and queue, so a read never waits behind a long execution; and,
 * when asked for, `emulations` (the Emulate API's cascades), so that neither waits behind an emulation.
 * A lane runs one call per worker at a time; the wall clock of a call starts when a worker takes it. An
 * emulated cascade is one call (`runCascade`): its bound covers every transaction of it, and the states the
 * worker asks for while it runs are answered from the caller's `need` on this side.
 *
 * Health: a lane whose workers cannot be started (its last start failed and none is up) reports why in
 * `problem()`, and calls to it fail at once; it retries the start with a doubling delay (up to 30 s).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Cell } from '@ton/core';
import type { CascadeContext, CascadeExecutor, CascadeHost, CascadeInput, CascadeResult } from '../model/emulate/cascade.js';
import type {
  ExecutorEmulationResult,
  ExecutorGetMethodArgs,
  ExecutorGetMethodResult,
  ExecutorRunTickTockArgs,
  ExecutorRunTransactionArgs,
  IExecutor,
  PrevBlocksInfo,
} from '@ton/sandbox';
import { executorRestarts } from '../observe/metrics.js';
import {
  getMethodToWire,
  prevBlocksToWire,
  tickTockToWire,
  transactionToWire,
  type RestartReason,
  type WireAccounts,
  type WireCall,
  type WireContext,
  type WireReply,
} from './executor-wire.js';
import { emulatorWasm } from './emulator-wasm.js';

export type { RestartReason } from './executor-wire.js';

export interface ExecutorPoolOptions {
  /** wall-clock bound of one emulator call, ms; default 10 000 */
  callTimeoutMs?: number;
  /** workers for get-methods and fee estimates; default 1 */
  readWorkers?: number;
  /** workers of a lane of their own for emulated cascades; default 0, no such lane */
  emulationWorkers?: number;
  /**
   * the niceness (0-19) of a lane's worker threads, where the OS lets a thread set its own (Linux): a lane that
   * serves what any client may ask for at length yields the CPU to the rest of the server; default 0
   */
  nice?: Partial<Record<LaneName, number>>;
  /** a worker whose emulator memory is above this after a call is replaced, MiB; default 512 */
  wasmMemoryLimitMb?: number;
  /** V8 old-generation heap of a worker (its `resourceLimits`), MiB; default 256 */
  heapLimitMb?: number;
  /** the worker's entry module; default executor-worker.js beside this file (its .ts under tsx/vitest) */
  workerScript?: URL;
  /** delay before the first retry of a worker that could not start, ms; doubles up to 30 s; default 500 */
  restartDelayMs?: number;
}

type LaneName = 'execution' | 'reads' | 'emulations';
type Resolved = Required<ExecutorPoolOptions>;

const MAX_RESTART_DELAY_MS = 30_000;

/** An emulator call that did not complete because of the executor, not because of what the contract did. */
export class ExecutorFailure extends Error {
  constructor(
    /** `unavailable`: no worker could be started; `input`: the worker could not decode the call (it stays up) */
    readonly reason: RestartReason | 'unavailable' | 'input',
    message: string,
  ) {
    super(message);
    this.name = 'ExecutorFailure';
  }
}

export function defaultWorkerScript(): URL {
  const compiled = new URL('./executor-worker.js', import.meta.url);
  return existsSync(fileURLToPath(compiled)) ? compiled : new URL('./executor-worker.ts', import.meta.url);
}

/** A worker running `script`; TypeScript sources (tests, tsx) are loaded through tsx, registered in the worker. */
function spawn(script: URL, opts: Resolved, emulator: WebAssembly.Module, nice: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: opts.heapLimitMb };
  // the emulator compiled once in this process (emulator-wasm.ts): a worker instantiates it rather than compiling its own
  const workerData = { emulator, nice };
  if (!/\.[cm]?ts$/.test(script.pathname)) return new Worker(script, { resourceLimits, workerData });
  // `--import tsx` in execArgv does not reach a worker's entry module on Node 20, so the entry registers it first
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(boot, { eval: true, resourceLimits, workerData });
}

type Result = ExecutorEmulationResult | ExecutorGetMethodResult | CascadeResult;

interface Context {
  config: string;
  libs: Cell | null;
  prevBlocks: PrevBlocksInfo | undefined;
}

/** What a cascade call keeps on this side: where its states come from, and the libraries its worker has. */
interface CascadeCall {
  need: CascadeHost['need'];
  step?: CascadeHost['step'];
  context: CascadeContext;
  libsSent: Cell | null;
  /** why `need` failed: the call fails with it */
  needError?: Error;
}

interface Pending {
  call: WireCall;
  context: Context;
  cascade?: CascadeCall;
  resolve(r: Result): void;
  reject(e: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** removed from the lane: its events no longer matter */
  gone: boolean;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout };
  /** what this worker already holds; undefined until sent */
  sent?: Context;
}

let nextId = 1;

class Lane implements IExecutor, CascadeExecutor {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly retries = new Set<NodeJS.Timeout>();
  private failedStarts = 0;
  /** why the last start failed; cleared when a worker is up */
  private startFailure?: string;
  private closed = false;
  private readyWaiters: { resolve(): void; reject(e: Error): void }[] = [];

  constructor(
    readonly name: LaneName,
    private readonly size: number,
    private readonly opts: Resolved,
    private readonly emulator: WebAssembly.Module,
  ) {}

  /** Starts the lane's workers; resolves when one is ready, rejects when none could start. */
  start(): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
    for (let i = 0; i < this.size; i++) this.startWorker();
    return ready;
  }

  problem(): string | null {
    if (this.closed) return `${this.name}: closed`;
    if (this.startFailure === undefined || this.slots.some((s) => s.ready)) return null;
    return `${this.name}: no emulator worker could be started (${this.failedStarts} attempt(s)): ${this.startFailure}`;
  }

  runTransaction(args: ExecutorRunTransactionArgs): Promise<ExecutorEmulationResult> {
    return this.call(() => transactionToWire(args), args) as Promise<ExecutorEmulationResult>;
  }

  runTickTock(args: ExecutorRunTickTockArgs): Promise<ExecutorEmulationResult> {
    return this.call(() => tickTockToWire(args), args) as Promise<ExecutorEmulationResult>;
  }

  runGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
    return this.call(() => getMethodToWire(args), { config: args.config, libs: args.libs ?? null, prevBlocksInfo: args.prevBlocksInfo }) as Promise<ExecutorGetMethodResult>;
  }

  runCascade(input: CascadeInput, context: CascadeContext, need: CascadeHost['need'], step?: CascadeHost['step']): Promise<CascadeResult> {
    const libs = context.libs;
    const cascade: CascadeCall = { need, context, libsSent: libs, ...(step ? { step } : {}) };
    return this.call(() => ({ kind: 'cascade', input }), { config: context.config, libs, prevBlocksInfo: context.prevBlocks }, cascade) as Promise<CascadeResult>;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.retries) clearTimeout(t);
    this.retries.clear();
    for (const p of this.queue.splice(0)) p.reject(new ExecutorFailure('unavailable', 'the local chain is closing'));
    await Promise.all([...this.slots].map((s) => this.remove(s, new ExecutorFailure('unavailable', 'the local chain is closing'))));
  }

  private call(toWire: () => WireCall, a: { config: string; libs: Cell | null; prevBlocksInfo?: PrevBlocksInfo }, cascade?: CascadeCall): Promise<Result> {
    let call: WireCall;
    try {
      call = toWire();
    } catch (e) {
      return Promise.reject(new ExecutorFailure('input', `cannot encode the call: ${(e as Error).message}`));
    }
    if (this.closed) return Promise.reject(new ExecutorFailure('unavailable', 'the local chain is closed'));
    if (this.slots.length === 0) return Promise.reject(new ExecutorFailure('unavailable', this.problem() ?? `${this.name}: no emulator worker`));
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ call, context: { config: a.config, libs: a.libs, prevBlocks: a.prevBlocksInfo }, ...(cascade ? { cascade } : {}), resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.busy) continue;
      const pending = this.queue.shift()!;
      const id = nextId++;
      const timer = setTimeout(() => this.fail(slot, 'timeout', `the emulator ran longer than ${this.opts.callTimeoutMs} ms`), this.opts.callTimeoutMs);
      slot.busy = { id, pending, timer };
      slot.worker.ref();
      slot.worker.postMessage({ id, context: this.contextFor(slot, pending.context), call: pending.call });
    }
  }

  /** The part of `c` the worker does not hold yet. */
  private contextFor(slot: Slot, c: Context): WireContext {
    const held = slot.sent;
    slot.sent = c;
    const out: WireContext = {};
    if (held?.config !== c.config) out.config = c.config;
    if (!held || held.libs !== c.libs) out.libs = c.libs === null ? null : c.libs.toBoc().toString('base64');
    if (!held || held.prevBlocks !== c.prevBlocks) out.prevBlocks = c.prevBlocks === undefined ? null : prevBlocksToWire(c.prevBlocks);
    return out;
  }

  private startWorker(): void {
    if (this.closed) return;
    let worker: Worker;
    try {
      worker = spawn(this.opts.workerScript, this.opts, this.emulator, this.opts.nice[this.name] ?? 0);
    } catch (e) {
      this.startFailed(undefined, (e as Error).message);
      return;
    }
    const slot: Slot = { worker, ready: false, gone: false };
    this.slots.push(slot);
    worker.on('message', (m: WireReply) => this.onReply(slot, m));
    worker.on('error', (e: Error & { code?: string }) => {
      if (!slot.ready) this.startFailed(slot, e.message);
      else this.fail(slot, e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'oom' : 'crash', e.message);
    });
    worker.on('exit', (code) => {
      if (slot.gone) return;
      if (!slot.ready) this.startFailed(slot, `the worker exited with code ${code} before it was ready`);
      else this.fail(slot, 'crash', `the worker exited with code ${code}`);
    });
  }

  private onReply(slot: Slot, m: WireReply): void {
    if (slot.gone) return;
    if (m.type === 'ready') {
      slot.ready = true;
      slot.worker.unref();
      this.failedStarts = 0;
      this.startFailure = undefined;
      for (const w of this.readyWaiters.splice(0)) w.resolve();
      this.dispatch();
      return;
    }
    const busy = slot.busy;
    if (!busy || busy.id !== m.id) return;
    if (m.type === 'need') {
      this.answerNeed(slot, m.id, m.addresses);
      return;
    }
    if (m.type === 'step') {
      busy.pending.cascade?.step?.(m.step, m.index);
      return;
    }
    if (m.type === 'failed' && m.fatal) {
      this.fail(slot, m.fatal, m.message);
      return;
    }
    clearTimeout(busy.timer);
    slot.busy = undefined;
    slot.worker.unref();
    if (m.type === 'done') busy.pending.resolve(m.result);
    else busy.pending.reject(busy.pending.cascade?.needError ?? new ExecutorFailure('input', m.message));
    if (m.type === 'done' && m.wasmBytes > this.opts.wasmMemoryLimitMb * 2 ** 20) {
      // the answer stands; the memory a large input made the emulator grow to is given back
      this.fail(slot, 'oom', `emulator memory grew to ${Math.round(m.wasmBytes / 2 ** 20)} MiB`);
      return;
    }
    this.dispatch();
  }

  /** Answers a running cascade's request for states, with the libraries when they grew since the worker's last. */
  private answerNeed(slot: Slot, id: number, addresses: string[]): void {
    const cascade = slot.busy?.pending.cascade;
    const post = (m: WireAccounts): void => {
      if (slot.busy?.id === id && !slot.gone) slot.worker.postMessage(m);
    };
    if (!cascade) return post({ type: 'accounts', id, error: 'this call asks for no states' });
    cascade.need(addresses).then(
      (accounts) => {
        const libs = cascade.context.libs;
        const grown = libs !== cascade.libsSent;
        cascade.libsSent = libs;
        post({ type: 'accounts', id, accounts, ...(grown ? { libs: libs === null ? null : libs.toBoc().toString('base64') } : {}) });
      },
      (e: unknown) => {
        cascade.needError = e instanceof Error ? e : new Error(String(e));
        post({ type: 'accounts', id, error: cascade.needError.message });
      },
    );
  }

  /** Ends a worker that failed while up, fails its call, and starts its replacement. */
  private fail(slot: Slot, reason: RestartReason, detail: string): void {
    if (slot.gone) return;
    executorRestarts.inc({ reason });
    void this.remove(slot, new ExecutorFailure(reason, `emulator ${reason}: ${detail}`));
    this.startWorker();
    this.dispatch();
  }

  private startFailed(slot: Slot | undefined, detail: string): void {
    if (slot?.gone) return;
    if (slot) void this.remove(slot, new ExecutorFailure('unavailable', detail));
    this.failedStarts++;
    this.startFailure = detail;
    if (!this.slots.some((s) => s.ready)) {
      const e = new ExecutorFailure('unavailable', this.problem() ?? detail);
      if (this.slots.length === 0) for (const p of this.queue.splice(0)) p.reject(e);
      if (this.slots.length === 0) for (const w of this.readyWaiters.splice(0)) w.reject(e);
    }
    if (this.closed) return;
    const delay = Math.min(this.opts.restartDelayMs * 2 ** (this.failedStarts - 1), MAX_RESTART_DELAY_MS);
    const t = setTimeout(() => {
      this.retries.delete(t);
      this.startWorker();
    }, delay);
    t.unref();
    this.retries.add(t);
  }

  private async remove(slot: Slot, error: Error): Promise<void> {
    slot.gone = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (slot.busy) {
      clearTimeout(slot.busy.timer);
      slot.busy.pending.reject(error);
      slot.busy = undefined;
    }
    await slot.worker.terminate();
  }
}

export class ExecutorPool {
  /** the chain's message execution: give this to sandbox as its executor */
  readonly execution: IExecutor & CascadeExecutor;
  /** get-methods and fee estimates, and emulations when there is no lane for them */
  readonly reads: IExecutor & CascadeExecutor;
  /** emulated cascades, when asked for (`emulationWorkers`) */
  readonly emulations: (IExecutor & CascadeExecutor) | undefined;

  private constructor(private readonly lanes: Lane[]) {
    this.execution = lanes[0]!;
    this.reads = lanes[1]!;
    this.emulations = lanes[2];
  }

  /** Starts the workers; rejects (with nothing left running) when a lane cannot start any. */
  static async create(options: ExecutorPoolOptions = {}): Promise<ExecutorPool> {
    const opts: Resolved = {
      callTimeoutMs: options.callTimeoutMs ?? 10_000,
      readWorkers: options.readWorkers ?? 1,
      emulationWorkers: options.emulationWorkers ?? 0,
      nice: options.nice ?? {},
      wasmMemoryLimitMb: options.wasmMemoryLimitMb ?? 512,
      heapLimitMb: options.heapLimitMb ?? 256,
      workerScript: options.workerScript ?? defaultWorkerScript(),
      restartDelayMs: options.restartDelayMs ?? 500,
    };
    const emulator = await emulatorWasm();
    const lanes = [new Lane('execution', 1, opts, emulator), new Lane('reads', Math.max(1, opts.readWorkers), opts, emulator)];
    if (opts.emulationWorkers > 0) lanes.push(new Lane('emulations', opts.emulationWorkers, opts, emulator));
    const pool = new ExecutorPool(lanes);
    try {
      await Promise.all(pool.lanes.map((l) => l.start()));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Why the chain cannot execute now, or null when every lane has a worker up. */
  problem(): string | null {
    const problems = this.lanes.map((l) => l.problem()).filter((p): p is string => p !== null);
    return problems.length ? problems.join('; ') : null;
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((l) => l.close()));
  }
}
