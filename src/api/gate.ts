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
  const api = new Proxy({} as T, {
    get(_target, prop) {
      if (impl) {
        const member = Reflect.get(impl, prop, impl) as unknown;
        return typeof member === 'function' ? member.bind(impl) : member;
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
    },
  };
}
