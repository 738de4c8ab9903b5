/**
 * Answers are shared: a source may hand the same object to many requests (rows kept in its caches, answers held
 * with their serialised text), so nobody may change one after it left the source. The seam says so in its types:
 * every answer of `V2Api` and `V3Api` is deeply read-only, and a surface that edits one fails to compile; it
 * copies what it wants to change.
 */
import type { Address, Cell } from '@ton/core';

/** Values that are passed on as they are: primitives, and objects no code here mutates (addresses, cells, bytes). */
type Leaf = string | number | boolean | bigint | symbol | null | undefined | Address | Cell | Uint8Array | Date | ((...args: never[]) => unknown);

/** T with every member, element and nested member read-only. */
export type DeepReadonly<T> = unknown extends T
  ? T
  : T extends Leaf
    ? T
    : T extends ReadonlyMap<infer K, infer V>
      ? ReadonlyMap<K, DeepReadonly<V>>
      : T extends readonly (infer E)[]
        ? readonly DeepReadonly<E>[]
        : { readonly [K in keyof T]: DeepReadonly<T[K]> };

/** An API whose every method answers a shared, read-only value; arguments stay as declared. */
export type SharedAnswers<Api> = {
  readonly [K in keyof Api]: Api[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<DeepReadonly<R>> : Api[K];
};

/** What a source hands out: shared, so read-only all the way down. */
export type Shared<T> = DeepReadonly<T>;
