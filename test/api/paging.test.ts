/**
 * Paging is resolved once, from the descriptors: for every v3 route, what REST's query reader gives the seam
 * and what a GraphQL call gets through its context (resolvePaging) are the same values, and the same error
 * (status and text) for a limit over the route's bound. A drift between the surfaces fails here.
 */
import { describe, expect, it } from 'vitest';
import { fieldOf } from '../../src/api/descriptor.js';
import { isApiError } from '../../src/api/errors.js';
import { V3_DESCRIPTORS, type V3Api } from '../../src/api/v3/index.js';
import { resolvePaging, withResolvedPaging } from '../../src/api/v3/paging.js';
import type { V3Descriptor } from '../../src/api/v3/params.js';
import { countedSources } from '../../src/surfaces/graphql/context.js';
import { rawQuery, seamParams } from '../../src/surfaces/rest/v3-params.js';

const PAGING = ['limit', 'offset', 'sort'];
const paged = V3_DESCRIPTORS.filter((d) => Object.entries(d.params).some(([wire, spec]) => PAGING.includes(fieldOf(wire, spec))));

/** What a route's paging resolves to, or the error it answers: the params' own checks are left out. */
function outcome(run: () => Record<string, unknown>): unknown {
  try {
    const p = run();
    return Object.fromEntries(PAGING.filter((f) => p[f] !== undefined).map((f) => [f, p[f]]));
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { status: e.status, error: e.message };
  }
}

/** REST: the route's paging from a query string, read by REST's reader with the route's other params and rules left out. */
function viaRest(d: V3Descriptor, query: string): unknown {
  const params = Object.fromEntries(Object.entries(d.params).filter(([wire, spec]) => PAGING.includes(fieldOf(wire, spec))));
  const pagingOnly: V3Descriptor = { ...d, params, check: undefined, lateCheck: undefined, fixed: undefined, options: false };
  return outcome(() => seamParams(pagingOnly, { query: rawQuery(`/x?${query}`), body: {}, header: () => undefined, options: {} }));
}

const viaGraph = (d: V3Descriptor, p: Record<string, unknown>): unknown => outcome(() => resolvePaging(d, p));

describe('paging resolved once, from the descriptors', () => {
  it('covers the list routes', () => {
    expect(paged.map((d) => d.path)).toEqual(expect.arrayContaining(['/transactions', '/messages', '/blocks', '/jetton/wallets', '/nft/items', '/actions', '/traces']));
  });

  it.each(paged.map((d) => [d.path, d] as const))('%s: REST and GraphQL resolve the same paging', (_path, d) => {
    const sorted = 'sort' in d.params;
    // a GraphQL caller passes only what the route declares (the staking routes have no offset)
    const declared = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([k]) => k in d.params));
    const cases: [string, Record<string, unknown>][] = [
      ['', {}],
      ['limit=0', { limit: 0 }],
      ['limit=7&offset=-3', { limit: 7, offset: -3 }],
      ['limit=1000', { limit: 1000 }],
      ['limit=1001', { limit: 1001 }],
      ...(sorted ? ([['sort=asc', { sort: 'asc' }]] as [string, Record<string, unknown>][]) : []),
    ];
    for (const [query, args] of cases) expect(viaGraph(d, declared(args)), `${d.path}?${query}`).toEqual(viaRest(d, query));
  });

  it('the defaults land in the seam: limit 100, offset 0, sort desc; /blocks and /jetton/wallets keep no sort', () => {
    const byPath = (path: string) => V3_DESCRIPTORS.find((d) => d.path === path)!;
    expect(resolvePaging(byPath('/transactions'), {})).toEqual({ limit: 100, offset: 0, sort: 'desc' });
    expect(resolvePaging(byPath('/blocks'), {})).toEqual({ limit: 100, offset: 0 });
    expect(resolvePaging(byPath('/jetton/wallets'), { address: [] })).toEqual({ address: [], limit: 100, offset: 0 });
  });

  it('a GraphQL call over the bound is REST’s 422, and never reaches the source', async () => {
    const seen: unknown[] = [];
    const source = { transactions: async (p: unknown) => (seen.push(p), { transactions: [] }) } as unknown as V3Api;
    const { v3 } = countedSources({ v2: {} as never, v3: source });
    await expect(v3.transactions({ limit: 1001 })).rejects.toMatchObject({ status: 422, message: 'limit is not allowed: 1001 > 1000' });
    expect(seen).toEqual([]);
    await v3.transactions({ limit: 0 });
    expect(seen).toEqual([{ limit: 1, offset: 0, sort: 'desc', noAddressBook: true, noMetadata: true }]);
    // the same wrapper serves the feeds and tests that call a source directly
    await withResolvedPaging(source).transactions({ sort: 'asc' });
    expect(seen[1]).toEqual({ limit: 100, offset: 0, sort: 'asc' });
  });
});
