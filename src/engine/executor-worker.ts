/**
 * An emulator worker: hosts one LocalExecutor (sandbox's emulator with the PREVBLOCKS cache) and runs the
 * calls executor-pool.ts sends it, one at a time. It holds nothing of the chain but the last config,
 * libraries and PREVBLOCKS it was given, so the pool may end it at any moment and start another.
 *
 * A failure inside the emulator (a WebAssembly trap, a stack overflow unwinding through it, anything it
 * throws) is reported as fatal: the instance's memory and stack pointer may be left inconsistent, so the
 * pool replaces the worker instead of running anything else on it. A failure decoding the arguments is not.
 * After each call the reply carries the size of the emulator's memory, which only grows, so the pool can
 * recycle a worker whose wasm memory a large input inflated (V8's resourceLimits do not cover it).
 *
 * A cascade (an emulation's every transaction) is one call: the worker runs it (model/emulate/cascade.ts) and
 * posts `need` for the account states it lacks, then waits for the pool's `accounts`; it posts each `step` as
 * the next transaction starts, so that the caller reads one transaction while the next runs here (the last step
 * comes only with the result: a message between threads costs the sender about as much as reading a
 * transaction, and nothing runs after the last one to overlap with). A `need` the pool could
 * not answer (an upstream failure, the emulation's deadline) ends the cascade as a plain, non-fatal failure.
 * The states given for a world (`CascadeInput.world`: a sealed block's, which never change) are kept for the
 * next cascade on that same world, at most 16 MiB of BoCs, dropped when another world is named; an account
 * that did not exist is asked for again.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Cell } from '@ton/core';
import { runCascade, type CascadeInput, type CascadeResult, type CascadeStep } from '../model/emulate/cascade.js';
import { LocalExecutor } from './executor.js';
import {
  getMethodFromWire,
  prevBlocksFromWire,
  tickTockFromWire,
  transactionFromWire,
  type HeldContext,
  type RestartReason,
  type WireAccounts,
  type WireReply,
  type WireRequest,
} from './executor-wire.js';

const port = parentPort;
if (!port) throw new Error('executor-worker: must run in a worker thread');

/**
 * The emulator's WebAssembly memory, caught as sandbox instantiates it (its emscripten module does not expose
 * it), so its size can be read after each call.
 */
const memories: WebAssembly.Memory[] = [];
const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (...args: unknown[]) => Promise<unknown>;
(WebAssembly as { instantiate: unknown }).instantiate = async (...args: unknown[]): Promise<unknown> => {
  const result = await instantiate(...args);
  const instance = result instanceof WebAssembly.Instance ? result : (result as { instance: WebAssembly.Instance }).instance;
  for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) memories.push(v);
  return result;
};

const given = workerData as { emulator?: WebAssembly.Module; nice?: number } | null;
if (given?.nice) lowerPriority(given.nice);
// the pool's compiled emulator (emulator-wasm.ts), when it sent one
const executor = await LocalExecutor.create(given?.emulator);
const held: HeldContext = { config: '', libs: null, prevBlocks: undefined };

/**
 * Makes this thread, and only it, yield the CPU to the process's other threads: Linux keeps a niceness per thread
 * (setpriority on a thread id), and /proc/thread-self names this one. Elsewhere the thread keeps the process's.
 */
function lowerPriority(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // not Linux, or no /proc: the worker runs at the process's priority
  }
}

const wasmBytes = (): number => memories.reduce((sum, m) => sum + m.buffer.byteLength, 0);

function reasonOf(e: unknown): RestartReason {
  // a RangeError here is the JS stack overflowing through wasm frames: a trap as far as the instance goes
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError ? 'trap' : 'crash';
}

const reply = (m: WireReply): void => port.postMessage(m);

/** The pool could not give a cascade the states it asked for: the cascade ends, the worker is sound. */
class NeedFailed extends Error {}

/** the cascade waiting for its `accounts`, by call id (at most one: a worker runs one call at a time) */
const waiting = new Map<number, (m: WireAccounts) => void>();

/** what the states kept between cascades may hold at most, in characters of their BoCs; past it they are dropped */
const KEPT_STATES_CHARS = 16 * 2 ** 20;

/** the account states of the last world a cascade named, for the next cascade on the same world */
let kept: { world: string; states: Map<string, string>; chars: number } | undefined;

function keep(world: string | undefined, states: Record<string, string | null>): void {
  if (world === undefined) return;
  if (kept?.world !== world) kept = { world, states: new Map(), chars: 0 };
  for (const [k, v] of Object.entries(states)) {
    // an account absent from a block may still appear in it (a fork adopting it from its network): asked again
    if (v === null || kept.states.has(k)) continue;
    kept.chars += k.length + v.length;
    kept.states.set(k, v);
  }
  if (kept.chars > KEPT_STATES_CHARS) kept = undefined;
}

/**
 * A message the emulator is given as the BoC it already is: sandbox's `runTransaction` reads its message only
 * through `toBoc()` (to hand the emulator base64), so a cascade's messages, cut out of their transactions' BoCs
 * as bytes (raw-boc.ts), need not become @ton/core cells (each hashed) only to be serialised again.
 */
const bocMessage = (boc: Buffer): Cell => ({ toBoc: () => boc }) as unknown as Cell;

function cascade(id: number, input: CascadeInput): Promise<CascadeResult> {
  const { config, prevBlocks } = held;
  let libs = held.libs;
  const randomSeed = Buffer.from(input.randomSeed, 'hex');
  keep(input.world, input.accounts);
  /** the step made last, posted when the cascade goes on (the result carries them all) */
  let made: { step: CascadeStep; index: number } | undefined;
  const post = (): void => {
    if (made) reply({ type: 'step', id, index: made.index, step: made.step });
    made = undefined;
  };
  const ask = (addresses: string[]): Promise<Record<string, string | null>> =>
    new Promise((resolve, reject) => {
      post();
      waiting.set(id, (m) => {
        if (m.error !== undefined) return reject(new NeedFailed(m.error));
        if (m.libs !== undefined) libs = m.libs === null ? null : Cell.fromBase64(m.libs);
        keep(input.world, m.accounts ?? {});
        resolve(m.accounts ?? {});
      });
      reply({ type: 'need', id, addresses });
    });
  return runCascade(input, {
    run: (shardAccount, message, lt) => {
      post();
      return executor.runTransaction({ config, libs, verbosity: 'short', shardAccount, message: bocMessage(message), now: input.now, lt, randomSeed, ignoreChksig: input.ignoreChksig, debugEnabled: false, prevBlocksInfo: prevBlocks });
    },
    // the states kept for this world first (looked up as needed, not copied for every cascade), the rest asked for
    need: async (addresses) => {
      const have = kept !== undefined && kept.world === input.world ? kept.states : undefined;
      const found: Record<string, string | null> = {};
      const missing: string[] = [];
      for (const a of addresses) {
        const s = have?.get(a);
        if (s !== undefined) found[a] = s;
        else missing.push(a);
      }
      return missing.length === 0 ? found : { ...found, ...(await ask(missing)) };
    },
    step: (step, index) => (made = { step, index }),
  });
}

port.on('message', (req: WireRequest | WireAccounts) => {
  if ('type' in req) {
    const answer = waiting.get(req.id);
    waiting.delete(req.id);
    answer?.(req);
    return;
  }
  let run: () => Promise<Extract<WireReply, { type: 'done' }>['result']>;
  try {
    const { context, call } = req;
    if (context.config !== undefined) held.config = context.config;
    if (context.libs !== undefined) held.libs = context.libs === null ? null : Cell.fromBase64(context.libs);
    if (context.prevBlocks !== undefined) held.prevBlocks = context.prevBlocks === null ? undefined : prevBlocksFromWire(context.prevBlocks);
    if (call.kind === 'cascade') {
      const input = call.input;
      run = () => cascade(req.id, input);
    } else if (call.kind === 'transaction') {
      const args = transactionFromWire(call, held);
      run = () => executor.runTransaction(args);
    } else if (call.kind === 'tickTock') {
      const args = tickTockFromWire(call, held);
      run = () => executor.runTickTock(args);
    } else {
      const args = getMethodFromWire(call, held);
      run = () => executor.runGetMethod(args);
    }
  } catch (e) {
    reply({ type: 'failed', id: req.id, message: `cannot decode the call: ${(e as Error).message}` });
    return;
  }
  run().then(
    (result) => reply({ type: 'done', id: req.id, result, wasmBytes: wasmBytes() }),
    (e: unknown) => reply({ type: 'failed', id: req.id, message: e instanceof Error ? e.message : String(e), ...(e instanceof NeedFailed ? {} : { fatal: reasonOf(e) }) }),
  );
});

reply({ type: 'ready' });
