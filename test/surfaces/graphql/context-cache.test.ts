/**
 * Pothos keeps per-request values (its dataloaders, each plugin's request data) with `createContextCache`. The
 * gateway installs it patched (patches/@pothos+core+*.patch, applied by patch-package on `npm install`) to keep
 * them on the context object rather than in a WeakMap keyed by it: V8 promoted a WeakMap's values to the old
 * generation even when their key died young, so every request's loaders were left to a full mark-compact
 * (`masterchainInfo { last { ... } }` promoted ~2.6 KB per request). This holds the patch in place.
 */
import { contextCacheSymbol, createContextCache } from '@pothos/core';
import { describe, expect, it } from 'vitest';

describe("Pothos' per-request cache (patched)", () => {
  it('keeps its entry on the context, out of enumeration and copies, and per context', () => {
    let made = 0;
    const cache = createContextCache(() => ({ n: made++ }));
    const a = { v: 1 };
    const b = { v: 1 };
    expect(cache(a)).toBe(cache(a));
    expect(cache(b)).not.toBe(cache(a));
    expect(made).toBe(2);
    expect(Object.getOwnPropertySymbols(a)).toHaveLength(1);
    expect(Object.keys(a)).toEqual(['v']);
    // a copy of a context is another context, as it was with the WeakMap
    expect(cache({ ...a })).not.toBe(cache(a));
  });

  it('follows a context cache slot when one is set (a subscription renews it per event)', () => {
    const cache = createContextCache(() => ({}));
    const ctx: Record<symbol, unknown> = { [contextCacheSymbol]: {} };
    const first = cache(ctx);
    expect(cache(ctx)).toBe(first);
    ctx[contextCacheSymbol] = {};
    expect(cache(ctx)).not.toBe(first);
  });
});
