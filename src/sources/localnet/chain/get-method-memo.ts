/**
 * Get-method answers remembered for identical calls. A get-method is a pure function of what the emulator is
 * given (code, data, method, stack, unix time, balance, address, config, libraries, previous blocks, and a random
 * seed that the chain fixes), so a call identical to one already answered gets that answer without running the
 * emulator again, and identical calls in flight share one run. One run costs ~4 ms of emulator time (measured:
 * a wallet's `seqno` over /api/v2/runGetMethod, 4.3 ms of CPU per request), and the same few calls come again
 * and again: every client waiting for a transfer polls its wallet's seqno, every wallet page asks for
 * get_wallet_data. The unix time is part of the call, so an answer is reused within the second it was asked in.
 *
 * Bounded by the bytes of the answers kept (least recently used dropped first); only successful runs are kept
 * (an executor failure or an emulator error is returned to its callers and forgotten).
 */
import type { Cell, TupleItem } from '@ton/core';
import type { ExecutorGetMethodArgs, ExecutorGetMethodResult, IExecutor } from '@ton/sandbox';
import { LRUCache } from 'lru-cache';
import type { CascadeExecutor } from '../../../model/emulate/cascade.js';

/** bytes of answers kept (and of their keys), least recently used dropped first */
const BUDGET = 8 * 1024 * 1024;
/** a call whose key is longer than this (a stack of many items) is run, not remembered */
const MAX_KEY = 4096;

/** Ids for values compared by identity (the config string, the libraries cell, the previous-blocks info). */
class Identities {
  private readonly objects = new WeakMap<object, number>();
  private readonly strings = new Map<string, number>();
  private next = 0;

  of(value: object | string | undefined | null): number {
    if (value === undefined || value === null) return -1;
    if (typeof value === 'string') {
      let id = this.strings.get(value);
      if (id === undefined) {
        // the config is one string that changes with the chain's config: a handful over a chain's life
        if (this.strings.size >= 16) this.strings.clear();
        this.strings.set(value, (id = this.next++));
      }
      return id;
    }
    let id = this.objects.get(value);
    if (id === undefined) this.objects.set(value, (id = this.next++));
    return id;
  }
}

const hashOf = (c: Cell): string => c.hash().toString('hex');

function stackKey(items: TupleItem[]): string {
  let out = '';
  for (const t of items) {
    switch (t.type) {
      case 'null':
      case 'nan':
        out += `${t.type};`;
        break;
      case 'int':
        out += `i${t.value};`;
        break;
      case 'cell':
      case 'slice':
      case 'builder':
        out += `${t.type}${hashOf(t.cell)};`;
        break;
      case 'tuple':
        out += `(${stackKey(t.items)});`;
        break;
    }
  }
  return out;
}

const sizeOf = (r: ExecutorGetMethodResult): number =>
  r.logs.length + r.debugLogs.length + (r.output.success ? r.output.stack.length + r.output.vm_log.length : r.output.error.length) + 256;

/** `inner` with its get-methods remembered; everything else passed through. */
export function rememberGetMethods(inner: IExecutor & Partial<CascadeExecutor>): IExecutor & Partial<CascadeExecutor> {
  const ids = new Identities();
  const kept = new LRUCache<string, ExecutorGetMethodResult>({
    maxSize: BUDGET,
    // an answer over an eighth of the budget is not kept
    maxEntrySize: BUDGET / 8,
    sizeCalculation: (result, key) => key.length + sizeOf(result),
  });
  const running = new Map<string, Promise<ExecutorGetMethodResult>>();

  const keyOf = (a: ExecutorGetMethodArgs): string =>
    [
      ids.of(a.config),
      ids.of(a.libs),
      ids.of(a.prevBlocksInfo),
      hashOf(a.code),
      hashOf(a.data),
      a.methodId,
      a.address.toRawString(),
      a.unixTime,
      a.balance,
      a.randomSeed.toString('hex'),
      a.gasLimit,
      a.verbosity,
      a.debugEnabled,
      a.extraCurrency ? JSON.stringify(Object.entries(a.extraCurrency).map(([k, v]) => [k, v.toString()])) : '',
      stackKey(a.stack),
    ].join('|');

  return {
    runTransaction: (args) => inner.runTransaction(args),
    runTickTock: (args) => inner.runTickTock(args),
    ...(inner.runCascade ? { runCascade: inner.runCascade.bind(inner) } : {}),
    runGetMethod(args) {
      const key = keyOf(args);
      if (key.length > MAX_KEY) return inner.runGetMethod(args);
      const hit = kept.get(key);
      if (hit) return Promise.resolve(hit);
      let run = running.get(key);
      if (!run) {
        run = inner.runGetMethod(args);
        running.set(key, run);
        const forget = () => running.delete(key);
        run.then((result) => {
          forget();
          if (result.output.success) kept.set(key, result);
        }, forget);
      }
      return run;
    },
  };
}
