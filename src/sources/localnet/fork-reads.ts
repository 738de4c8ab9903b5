/**
 * A fork's read routes: before a call runs, every account its parameters name (an Address, or a list of them)
 * is adopted by the chain (Chain.adopt), so a read of an account the fork has not touched yet answers the
 * network's state at the fork block rather than "no such account". The local routes themselves stay
 * synchronous over the store.
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

export function adoptingReads<T extends object>(api: T, chain: Adopter): T {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await Promise.all(namedAccounts(args[0]).map((a) => chain.adopt(a)));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
