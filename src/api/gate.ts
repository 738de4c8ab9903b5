/**
 * A stand-in for a data source that is still starting: the server listens (and answers /health 503)
 * while the local chain runs its genesis, and every call made before then gets a clear 503.
 */
import { ApiError } from './errors.js';

export interface Gate<T extends object> {
  readonly api: T;
  readonly ready: boolean;
  open(impl: T): void;
}

export function gate<T extends object>(notReadyMessage: string): Gate<T> {
  let impl: T | undefined;
  // each method is bound once, not on every call through the gate
  const bound = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  const api = new Proxy({} as T, {
    get(_target, prop) {
      if (impl) {
        const member = Reflect.get(impl, prop, impl) as unknown;
        if (typeof member !== 'function') return member;
        let b = bound.get(prop);
        if (b?.of !== member) bound.set(prop, (b = { of: member, fn: member.bind(impl) }));
        return b.fn;
      }
      return () => Promise.reject(new ApiError(503, notReadyMessage));
    },
  });
  return {
    api,
    get ready() {
      return impl !== undefined;
    },
    open(i: T) {
      impl = i;
      bound.clear();
    },
  };
}
