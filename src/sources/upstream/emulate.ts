/**
 * The Emulate API in upstream mode. By default the gateway emulates itself against the upstream network's
 * state: worlds read through the upstream account loader (emulate-worlds.ts), run on the same emulator worker
 * pool the local chain uses (engine/executor-pool.ts: every call bounded in time and memory, a trap or crash ends only
 * that worker), started on the first emulation and closed with the source, emulations taking turns
 * (engine/emulation-queue.ts); address_book and metadata come from the upstream's v3. With --emulate-via-upstream, both routes go to the upstream's own Emulate API (on the
 * v3 base address, /api/emulate/v1/...) through the upstream client, so its pace, per-attempt timeout, answer
 * size and nesting bounds hold; the answer, error or not, is passed on as it came.
 */
import type { ExecutorGetMethodArgs, ExecutorRunTickTockArgs, ExecutorRunTransactionArgs, IExecutor } from '@ton/sandbox';
import { ApiError, isApiError } from '../../api/errors.js';
import { EmulateError, type EmulateApi, type EmulateBounds } from '../../api/emulate.js';
import type { V2Api } from '../../api/v2.js';
import type { V3Api } from '../../api/v3/index.js';
import type { CascadeContext, CascadeExecutor, CascadeHost, CascadeInput } from '../../model/emulate/cascade.js';
import { emulateService } from '../../model/emulate/service.js';
import { ExecutorFailure, ExecutorPool, type ExecutorPoolOptions } from '../../engine/executor-pool.js';
import { DEFAULT_EMULATE_TIMEOUT_MS, EMULATION_BOUNDS, EMULATION_NICE, executorFailureError } from '../../engine/emulation.js';
import { EmulationQueue } from '../../engine/emulation-queue.js';
import type { UpstreamClient } from '../../remote/client.js';
import { upstreamWorlds, type UpstreamWorlds, type UpstreamWorldsOptions } from './emulate-worlds.js';

/**
 * An executor whose worker pool starts on its first call (a gateway that never emulates runs no emulator) and
 * stops on close: transactions and cascades on the pool's execution lane, get-methods on its read lane.
 */
export class LazyExecutor implements IExecutor, CascadeExecutor {
  private pool?: Promise<ExecutorPool>;
  private closed = false;

  constructor(private readonly options: ExecutorPoolOptions = {}) {}

  /** Starts the workers (if not yet) and waits for them: an emulation's budget does not pay for their boot. */
  async warm(): Promise<void> {
    await this.ready();
  }

  runTransaction(args: ExecutorRunTransactionArgs) {
    return this.ready().then((p) => p.execution.runTransaction(args));
  }

  runTickTock(args: ExecutorRunTickTockArgs) {
    return this.ready().then((p) => p.execution.runTickTock(args));
  }

  runGetMethod(args: ExecutorGetMethodArgs) {
    return this.ready().then((p) => p.reads.runGetMethod(args));
  }

  runCascade(input: CascadeInput, context: CascadeContext, need: CascadeHost['need']) {
    return this.ready().then((p) => p.execution.runCascade(input, context, need));
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.pool?.catch(() => undefined);
    await pool?.close();
  }

  private ready(): Promise<ExecutorPool> {
    if (this.closed) return Promise.reject(new ExecutorFailure('unavailable', 'the gateway is closing'));
    if (!this.pool) {
      // its execution lane runs nothing but emulations: it yields the CPU to the rest of the server
      const starting = ExecutorPool.create({ nice: { execution: EMULATION_NICE }, ...this.options }).catch((e: Error) => {
        // the next emulation tries again
        if (this.pool === starting) this.pool = undefined;
        throw new ExecutorFailure('unavailable', e.message);
      });
      this.pool = starting;
    }
    return this.pool;
  }
}

export interface UpstreamEmulation {
  api: EmulateApi;
  /** the worlds, when the gateway emulates itself (their upstream call counts) */
  worlds?: UpstreamWorlds;
  close(): Promise<void>;
}

export interface UpstreamEmulationOptions extends UpstreamWorldsOptions {
  viaUpstream: boolean;
  /** wall-clock budget of one emulation, ms; default 3000 */
  timeoutMs?: number;
  /** bounds on answers and turns; default EMULATION_BOUNDS */
  bounds?: EmulateBounds;
  executor?: ExecutorPoolOptions;
}

/** `executor`: the source's worker pool, which the source closes; without it the emulation starts its own. */
export function upstreamEmulation(client: UpstreamClient, v2: V2Api, v3: V3Api, opts: UpstreamEmulationOptions, shared?: LazyExecutor): UpstreamEmulation {
  if (opts.viaUpstream) return { api: passthroughApi(client), close: async () => {} };
  const worlds = upstreamWorlds(v2, opts);
  const executor = shared ?? new LazyExecutor(opts.executor);
  const bounds = opts.bounds ?? EMULATION_BOUNDS;
  const api = emulateService({
    // the workers boot (first emulation only) while the block's header and config load
    worlds: { at: async (seqno) => (await Promise.all([worlds.at(seqno), executor.warm()]))[0] },
    executor,
    enricher: {
      book: (address) => (address.length ? v3.addressBook({ address }) : {}),
      metadata: async (address) => (address.length ? v3.addressMetadata({ address }) : {}),
    },
    timeoutMs: opts.timeoutMs ?? DEFAULT_EMULATE_TIMEOUT_MS,
    maxAnswer: { bytes: bounds.maxAnswerBytes, cells: bounds.maxAnswerCells },
    admission: new EmulationQueue(bounds),
    failure: (e) => executorFailureError(e) ?? (isApiError(e) ? new EmulateError(e.status, `failed to load the state from the upstream: ${e.message}`) : undefined),
  });
  return { api, worlds, close: () => (shared ? Promise.resolve() : executor.close()) };
}

function passthroughApi(client: UpstreamClient): EmulateApi {
  const forward = async (route: 'emulateTrace' | 'emulateTonConnect', body: unknown, actionsVersion: string | undefined) =>
    (await client.call({
      api: 'v3',
      method: 'POST',
      path: `/emulate/v1/${route}`,
      body: body as Record<string, unknown>,
      ...(actionsVersion ? { headers: { 'x-actions-version': actionsVersion } } : {}),
      idempotent: false,
      raw: true,
    })) as { status: number; text: string };
  const unused = () => Promise.reject(new ApiError(501, 'with --emulate-via-upstream only /api/emulate/v1 is forwarded to the upstream; the graph cannot emulate'));
  return {
    emulateTrace: unused,
    emulateTonConnect: unused,
    async passthrough(route, body, actionsVersion) {
      const a = await forward(route, body, actionsVersion);
      return { status: a.status, body: a.text };
    },
  };
}
