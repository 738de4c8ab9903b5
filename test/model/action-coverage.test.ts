/**
 * Every action type of `latest` has a matcher, or docs/api-v3.md lists it (its "Types of `latest` without a
 * matcher") with why not: the list is derived from the registry's declared types, so the two cannot drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandActionTypes } from '../../src/model/v3/action-types.js';
import { ADDRESS_KEYS } from '../../src/model/v3/actions/registry.js';

/** The types named at the start of each item of the docs' list. */
function documented(): string[] {
  const doc = readFileSync(new URL('../../docs/api-v3.md', import.meta.url), 'utf8');
  const start = doc.indexOf('**Types of `latest` without a matcher.**');
  expect(start).toBeGreaterThanOrEqual(0);
  const items = doc.slice(start).split('\n\n')[0]!.split('\n').filter((l) => l.startsWith('- '));
  return items.flatMap((l) => [...l.slice(2, l.indexOf(':')).matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]!));
}

describe('action types of latest', () => {
  it('each has a matcher or is listed in docs/api-v3.md with why not', () => {
    const classified = new Set(ADDRESS_KEYS.keys());
    const latest = [...expandActionTypes(['latest'])];
    const missing = latest.filter((t) => !classified.has(t)).sort();
    expect(documented().sort()).toEqual(missing);
    console.log(`latest: ${latest.length} types, ${latest.length - missing.length} with a matcher, ${missing.length} without`);
  });
});
