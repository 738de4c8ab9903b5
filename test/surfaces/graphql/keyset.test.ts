/**
 * keysetConnection over a source that sorts by another key than the lt (v3 /blocks sorts by gen_utime) and
 * whose lts can repeat across that key's groups, as the local chain's blocks do when an empty block starts at
 * the lt its predecessor ended at and is sealed a second later. Walking such a list in pages of every small size,
 * in both directions, must give every item exactly once.
 */
import { describe, expect, it } from 'vitest';
import { keysetConnection, type Connection, type KeysetQuery } from '../../../src/surfaces/graphql/connections.js';

interface Item {
  id: string;
  lt: bigint;
  utime: number;
}

/** 60 items in threes sharing an lt, as a seal's shard block starts at the lt two blocks before it ended at; every `period`-th three straddles a second boundary. */
function chain(period: number): Item[] {
  const out: Item[] = [];
  let utime = 1_000;
  for (let i = 0; i < 20; i++) {
    const lt = BigInt(1_000 + i * 10);
    // the earliest of three has the largest hash: it comes first among its lt although its group is the older
    out.push({ id: `c${i}`, lt, utime });
    if (i % period === 0) utime++;
    out.push({ id: `b${i}`, lt, utime }, { id: `a${i}`, lt, utime });
  }
  return out;
}

/** The source: filter by the inclusive lt bound, order by utime (ties in insertion order), cut at the limit. */
function source(items: Item[]) {
  return async (q: KeysetQuery): Promise<Item[]> => {
    const dir = q.sort === 'asc' ? 1 : -1;
    return items
      .map((item, i) => ({ item, i }))
      .filter(({ item }) => q.fromLt === undefined || (q.sort === 'asc' ? item.lt >= q.fromLt : item.lt <= q.fromLt))
      .sort((x, y) => dir * (x.item.utime - y.item.utime || x.i - y.i))
      .slice(0, q.limit)
      .map(({ item }) => item);
  };
}

async function walk(items: Item[], size: number, backward: boolean): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const args: Record<string, unknown> = backward ? { last: size, before: cursor } : { first: size, after: cursor };
    const c: Connection<Item> = await keysetConnection({
      args,
      order: 'desc',
      ltTies: true,
      position: (x: Item) => ({ lt: x.lt, hash: x.id }),
      sortKey: (x: Item) => x.utime,
      fetch: source(items),
    });
    const ids = c.edges.map((e) => e.node.id);
    if (backward) seen.unshift(...ids);
    else seen.push(...ids);
    const more = backward ? c.pageInfo.hasPreviousPage : c.pageInfo.hasNextPage;
    if (!more) return seen;
    cursor = backward ? c.pageInfo.startCursor : c.pageInfo.endCursor;
  }
  throw new Error('no end');
}

describe('keyset paging over a source sorted by another key', () => {
  it('walks every item exactly once when lts repeat across sort-key groups', async () => {
    for (let period = 1; period <= 6; period++) {
      const items = chain(period);
      const expected = [...items].sort((x, y) => (x.lt === y.lt ? (x.id < y.id ? 1 : -1) : x.lt < y.lt ? 1 : -1)).map((x) => x.id);
      for (let size = 1; size <= 12; size++) {
        expect(await walk(items, size, false), `forwards, period ${period}, pages of ${size}`).toEqual(expected);
        expect(await walk(items, size, true), `backwards, period ${period}, pages of ${size}`).toEqual(expected);
      }
    }
  });
});
