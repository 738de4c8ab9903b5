/**
 * A fork's read routes: before a call runs, every account its parameters name (an Address, or a list of them)
 * is adopted by the chain (Chain.adopt), so a read of an account the fork has not touched yet answers the
 * network's state at the fork block rather than "no such account". The local routes themselves stay
 * synchronous over the store.
 *
 * A v2 call pinned to a masterchain block at or before the fork block (`seqno`, on the masterchain when a
 * workchain is named), or a `lookupBlock` by an lt or a time before the fork block's end, is the upstream's
 * history: it is answered by the upstream's same method.
 */
import { Address } from '@ton/core';

export interface Adopter {
  adopt(address: Address): Promise<void>;
}

function namedAccounts(params: unknown): Address[] {
  if (typeof params !== 'object' || params === null) return [];
  const out: Address[] = [];
  for (const v of Object.values(params)) {
    if (v instanceof Address) out.push(v);
    else if (Array.isArray(v)) for (const item of v) if (item instanceof Address) out.push(item);
  }
  return out;
}

/** The fork block as the pinned-call test needs it. */
export interface ForkBlock {
  seqno: number;
  endLt: bigint;
  genUtime: number;
}

/**
 * Whether a call's parameters pin it to masterchain block `fork.seqno` or an older one; for `lookupBlock`, also
 * an lt or a time before the fork block's end (the blocks there are the upstream's, in every workchain).
 */
function beforeFork(method: string | symbol, params: unknown, fork: ForkBlock): boolean {
  if (typeof params !== 'object' || params === null) return false;
  const { seqno, workchain, lt, unixtime } = params as { seqno?: unknown; workchain?: unknown; lt?: unknown; unixtime?: unknown };
  if (method === 'lookupBlock' && ((typeof lt === 'bigint' && lt < fork.endLt) || (typeof unixtime === 'number' && unixtime < fork.genUtime))) return true;
  return typeof seqno === 'number' && seqno <= fork.seqno && (workchain === undefined || workchain === -1);
}

export function adoptingReads<T extends object>(api: T, chain: Adopter, history?: { upstream: T; fork: ForkBlock }): T {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const upstream: unknown = history && Reflect.get(history.upstream, key);
      return async (...args: unknown[]) => {
        if (typeof upstream === 'function' && beforeFork(key, args[0], history!.fork)) return (upstream as (...a: unknown[]) => unknown).apply(history!.upstream, args);
        await Promise.all(namedAccounts(args[0]).map((a) => chain.adopt(a)));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
