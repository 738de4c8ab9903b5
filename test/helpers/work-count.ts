/**
 * Counts the expensive operations an in-process gateway performs, from the test side (no counter in production
 * code): BoC parses (@ton/core's `Cell.fromBoc`, which `Cell.fromBase64` and `fromHex` go through), BoC
 * serialisations (`Cell.prototype.toBoc`), config reads (the local chain's `Chain.configParam` and `config`),
 * get-method runs (each a message to an executor worker) and SQLite statements executed (better-sqlite3's
 * `run`, `get`, `all`, `iterate`, and `exec`). Upstream calls are the counting proxy's (scripts/lib/counting-proxy.ts).
 */
import { Worker } from 'node:worker_threads';
import { Cell } from '@ton/core';
import Database from 'better-sqlite3';
import { vi } from 'vitest';
import { Chain } from '../../src/sources/localnet/chain/chain.js';

export interface Work {
  bocParses: number;
  bocSerialisations: number;
  configReads: number;
  getMethodRuns: number;
  sqliteStatements: number;
}

const ZERO: Work = { bocParses: 0, bocSerialisations: 0, configReads: 0, getMethodRuns: 0, sqliteStatements: 0 };

export interface WorkCounter {
  /** the work done while `fn` ran (and the answer it awaited) */
  during(fn: () => Promise<unknown>): Promise<Work>;
  /**
   * Resolves once `windowMs` pass with nothing counted: what a sealed block sets going in the background (its
   * streaming events, the indexer's token reads) is over, so what is counted next is the request's own.
   */
  quiet(windowMs?: number, timeoutMs?: number): Promise<void>;
  restore(): void;
}

/** Wraps `obj[key]` so each call adds to `tally` (or only the calls `when` accepts), then calls the original. */
function count<T extends object>(obj: T, key: keyof T & string, tally: () => void, when: (args: unknown[]) => boolean = () => true) {
  const original = obj[key] as (...args: unknown[]) => unknown;
  return vi.spyOn(obj, key as never).mockImplementation(function (this: unknown, ...args: unknown[]) {
    if (when(args)) tally();
    return original.apply(this, args);
  } as never);
}

export function countWork(): WorkCounter {
  const work: Work = { ...ZERO };
  // better-sqlite3's Statement class is not exported: its prototype is that of any prepared statement
  const scratch = new Database(':memory:');
  const statement = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<string, unknown>;
  scratch.close();
  const configGetter = Object.getOwnPropertyDescriptor(Chain.prototype, 'config')!.get!;
  const spies = [
    count(Cell, 'fromBoc', () => work.bocParses++),
    count(Cell.prototype, 'toBoc', () => work.bocSerialisations++),
    count(Chain.prototype, 'configParam', () => work.configReads++),
    vi.spyOn(Chain.prototype, 'config', 'get').mockImplementation(function (this: Chain) {
      work.configReads++;
      return configGetter.call(this) as Cell;
    }),
    count(Worker.prototype, 'postMessage', () => work.getMethodRuns++, ([m]) => (m as { call?: { kind?: string } } | undefined)?.call?.kind === 'getMethod'),
    ...(['run', 'get', 'all', 'iterate'] as const).map((k) => count(statement, k, () => work.sqliteStatements++)),
    count(Database.prototype, 'exec', () => work.sqliteStatements++),
  ];
  return {
    async during(fn) {
      const before = { ...work };
      await fn();
      return Object.fromEntries(Object.entries(work).map(([k, v]) => [k, v - before[k as keyof Work]])) as unknown as Work;
    },
    async quiet(windowMs = 200, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const w = await this.during(() => new Promise((r) => setTimeout(r, windowMs)));
        if (Object.values(w).every((n) => n === 0)) return;
        if (Date.now() > deadline) throw new Error(`still working after ${timeoutMs} ms: ${JSON.stringify(w)}`);
      }
    },
    restore() {
      for (const s of spies) s.mockRestore();
    },
  };
}
