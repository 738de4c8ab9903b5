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
 */
import { parentPort } from 'node:worker_threads';
import { Cell } from '@ton/core';
import { LocalExecutor } from './executor.js';
import {
  getMethodFromWire,
  prevBlocksFromWire,
  tickTockFromWire,
  transactionFromWire,
  type HeldContext,
  type RestartReason,
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

const executor = await LocalExecutor.create();
const held: HeldContext = { config: '', libs: null, prevBlocks: undefined };

const wasmBytes = (): number => memories.reduce((sum, m) => sum + m.buffer.byteLength, 0);

function reasonOf(e: unknown): RestartReason {
  // a RangeError here is the JS stack overflowing through wasm frames: a trap as far as the instance goes
  return e instanceof WebAssembly.RuntimeError || e instanceof RangeError ? 'trap' : 'crash';
}

const reply = (m: WireReply): void => port.postMessage(m);

port.on('message', (req: WireRequest) => {
  let run: () => Promise<Extract<WireReply, { type: 'done' }>['result']>;
  try {
    const { context, call } = req;
    if (context.config !== undefined) held.config = context.config;
    if (context.libs !== undefined) held.libs = context.libs === null ? null : Cell.fromBase64(context.libs);
    if (context.prevBlocks !== undefined) held.prevBlocks = context.prevBlocks === null ? undefined : prevBlocksFromWire(context.prevBlocks);
    if (call.kind === 'transaction') {
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
    (e: unknown) => reply({ type: 'failed', id: req.id, message: e instanceof Error ? e.message : String(e), fatal: reasonOf(e) }),
  );
});

reply({ type: 'ready' });
