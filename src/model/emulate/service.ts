/**
 * The Emulate API over any world source and executor: the request read as the reference reads it (strict
 * base64, one message, cell trees within the network's message limits), the emulation admitted (a bounded
 * queue with a share per client), the world at the requested block, the run (engine.ts) and the answer
 * (response.ts), all under one deadline that starts when the request comes (emulate-v1.md §5: enqueueing
 * included). The local chain gives its store and its emulator workers; an upstream account loader gives another
 * `EmulationWorlds` and the same executor.
 */
import type { Cell } from '@ton/core';
import type { IExecutor } from '@ton/sandbox';
import {
  EmulateError,
  type EmulateApi,
  type EmulateOptions,
  type EmulateTonConnectRequest,
  type EmulateTraceRequest,
  type EmulationResult,
  type EmulationWorld,
  type EmulationWorlds,
} from '../../api/emulate.js';
import { checkBoc, MESSAGE_LIMITS } from '../limits.js';
import type { AnswerSize, CascadeExecutor } from './cascade.js';
import { RunReader, runTrace } from './engine.js';
import { emulationResult, V3Transactions, type Enricher } from './response.js';
import { Slices, withinDeadline } from './slices.js';
import { checkTonConnect, composeTonConnect, parseDestination } from './tonconnect.js';

export interface EmulateServiceOptions {
  worlds: EmulationWorlds;
  executor: IExecutor & Partial<CascadeExecutor>;
  enricher: Enricher;
  /** wall-clock budget of one emulation, ms (toncenter's is 3 s), from its request to its answer */
  timeoutMs: number;
  /** what the messages an answer prints may hold (cascade.ts) */
  maxAnswer: AnswerSize;
  /** lets each emulation run in its turn; absent: every one at once */
  admission?: EmulationAdmission;
  /** what an executor failure (not the contract's) is answered with; default a 500 with its message */
  failure?: (e: unknown) => EmulateError | undefined;
}

/** Emulations in turn: engine/emulation-queue.ts. */
export interface EmulationAdmission {
  /** Resolves to the turn's release once `client` may run, or rejects with an EmulateError (no room, past `deadline`). */
  admit(client: string, deadline: number): Promise<() => void>;
}

/** the client of a call that names none (in-process callers) */
const NO_CLIENT = 'local';

/** Go's strict standard base64, with its error text. */
export function strictBase64(s: string): Buffer {
  const bad = s.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) throw new EmulateError(400, `invalid request: invalid boc: illegal base64 data at input byte ${bad}`);
  const pad = s.indexOf('=');
  if (s.length % 4 !== 0 || (pad >= 0 && (pad < s.length - 2 || /[^=]/.test(s.slice(pad))))) {
    throw new EmulateError(400, `invalid request: invalid boc: illegal base64 data at input byte ${pad >= 0 ? pad : s.length - (s.length % 4)}`);
  }
  return Buffer.from(s, 'base64');
}

/** One message cell from a BoC, within the network's message limits. */
function messageCell(buf: Buffer): Cell {
  try {
    const { roots } = checkBoc(buf, 'message', MESSAGE_LIMITS);
    if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
    return roots[0]!;
  } catch (e) {
    throw new EmulateError(500, `Can't deserialize message boc: ${(e as Error).message}`);
  }
}

/**
 * What an emulation runs, made once its turn has come (the costly part of reading a request: its cells, the
 * sender's wallet): the root message for the world it runs in.
 */
type Prepare = () => Promise<(w: EmulationWorld) => Cell>;

export function emulateService(o: EmulateServiceOptions): EmulateApi {
  /** `rootBoc`: the message's BoC as the request gave it, when it is one */
  async function run(prepare: Prepare, ignoreChksig: boolean, opts: EmulateOptions, defaultActions: string, deadline: number, rootBoc?: string): Promise<EmulationResult> {
    const release = await o.admission?.admit(opts.client ?? NO_CLIENT, deadline);
    try {
      const message = await withinDeadline(prepare(), deadline);
      const world = await withinDeadline(o.worlds.at(opts.mc_block_seqno ?? undefined), deadline);
      const root = message(world);
      // each transaction is put in v3 form as soon as it is known, while the executor runs the next
      const made = new V3Transactions(world.mcSeqno);
      const traceRun = await runTrace(world, o.executor, root, {
        ignoreChksig,
        deadline,
        maxAnswer: o.maxAnswer,
        ...(rootBoc !== undefined ? { rootBoc } : {}),
        onTx: (e, n) => made.add(e, n),
      });
      return await emulationResult(traceRun, new RunReader(traceRun, o.executor, deadline), { ...opts, defaultActions }, o.enricher, new Slices(deadline), made);
    } catch (e) {
      if (e instanceof EmulateError) throw e;
      throw o.failure?.(e) ?? new EmulateError(500, `failed to emulate: ${(e as Error).message}`);
    } finally {
      release?.();
    }
  }

  return {
    async emulateTrace(p: EmulateTraceRequest): Promise<EmulationResult> {
      const deadline = Date.now() + o.timeoutMs;
      if (typeof p.boc !== 'string' || p.boc === '') throw new EmulateError(400, 'invalid request: boc is required');
      const bytes = strictBase64(p.boc);
      const prepare: Prepare = async () => {
        const cell = messageCell(bytes);
        return () => cell;
      };
      return run(prepare, p.ignore_chksig ?? false, p, 'latest', deadline, p.boc);
    },

    async emulateTonConnect(p: EmulateTonConnectRequest): Promise<EmulationResult> {
      const deadline = Date.now() + o.timeoutMs;
      const checked = checkTonConnect(p.from, p.messages);
      const from = parseDestination(checked.from);
      if (!from) throw new EmulateError(500, `Invalid address format: ${checked.from}`);
      const prepare: Prepare = async () => {
        // the wallet is read at the latest block even when another is asked for (the reference does the same)
        const account = await (await o.worlds.at()).account(from.address);
        // the messages are created at the time they run: the asked block's own (so a pinned block gives the same message every time)
        return (w) => composeTonConnect(from.address, account, checked.messages, w.utime, p.valid_until);
      };
      // without X-Actions-Version, TON Connect keeps to the v1 action set (the reference has no `latest` fallback there)
      return run(prepare, true, p, 'v1', deadline);
    },
  };
}
