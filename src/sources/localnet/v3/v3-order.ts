/** Ordering and paging shared by the v3 answers: the reference's ORDER BY and LIMIT/OFFSET over in-memory lists. */
import type { Address } from '@ton/core';
import type { PageParams, Sort } from '../../../api/v3/common.js';
import type { JettonBurnsParams } from '../../../api/v3/jettons.js';
import type { NftTransfersParams } from '../../../api/v3/nfts.js';
import { rawUpper } from '../../../model/address.js';
import type { EventBase } from '../indexer/tokens.js';

export type Key<T> = (x: T) => bigint | number | string;
export type Order<T> = [Key<T>, Sort][];

/** A comparator from (key, direction) pairs, first key first. */
export function orderBy<T>(...order: Order<T>): (a: T, b: T) => number {
  return (a, b) => {
    for (const [key, dir] of order) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      const c = x < y ? -1 : 1;
      return dir === 'asc' ? c : -c;
    }
    return 0;
  };
}

/** One page of an ordered list, with v3's limit and offset rules. */
export const pageOf = <T>(list: T[], { limit, offset }: PageParams): T[] => list.slice(offset, offset + limit);

/** An address filter as raw uppercase forms; undefined when the client gave none. */
export const rawSet = (list: Address[] | undefined): Set<string> | undefined => (list?.length ? new Set(list.map(rawUpper)) : undefined);

/**
 * One page of a sequence that is already ordered by its leading sort key, read lazily: keeps the items `keep`
 * accepts until offset + limit are found, then also the rest of the last item's tie group (`tied`: same leading
 * key), so the final sort by the full comparator puts exactly the right items on the page. The walk stops
 * there: the items after it cannot come earlier in the order.
 */
export function pageOfWalk<T>(
  items: Iterable<T>,
  keep: (x: T) => boolean,
  tied: (a: T, b: T) => boolean,
  compare: (a: T, b: T) => number,
  { limit, offset }: PageParams,
): T[] {
  const need = offset + limit;
  const out: T[] = [];
  for (const x of items) {
    if (!keep(x)) continue;
    if (out.length >= need && !tied(out[out.length - 1]!, x)) break;
    out.push(x);
  }
  return out.sort(compare).slice(offset, offset + limit);
}

/** Items of an array from one end: ascending from the start, descending from the end, within [from, to). */
export function* walkArray<T>(arr: readonly T[], s: Sort, from = 0, to = arr.length): Generator<T> {
  if (s === 'asc') for (let i = from; i < to; i++) yield arr[i]!;
  else for (let i = to - 1; i >= from; i--) yield arr[i]!;
}

/** Walks ordered by `key` (ascending or descending alike, as `s` says) merged into one, in the same order. */
export function* mergeBy<T>(key: (x: T) => bigint, walks: Iterator<T>[], s: Sort): Generator<T> {
  const heads = walks.map((w) => w.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (h.done) continue;
      const b = best < 0 ? undefined : (heads[best]!.value as T);
      if (b === undefined || (s === 'asc' ? key(h.value) < key(b) : key(h.value) > key(b))) best = i;
    }
    if (best < 0) return;
    yield heads[best]!.value as T;
    heads[best] = walks[best]!.next();
  }
}

/** Transfer and burn filters shared by the three event routes: lt and utime windows, the order column. */
export function eventWindow<E extends EventBase>(list: E[], p: JettonBurnsParams | NftTransfersParams): E[] {
  const s = p.sort;
  const byNow = p.startUtime !== undefined || p.endUtime !== undefined;
  return list
    .filter(
      (e) =>
        (p.startUtime === undefined || e.rec.now >= p.startUtime) &&
        (p.endUtime === undefined || e.rec.now <= p.endUtime) &&
        (p.startLt === undefined || e.rec.lt >= p.startLt) &&
        (p.endLt === undefined || e.rec.lt <= p.endLt),
    )
    .sort(byNow ? orderBy<E>([(e) => e.rec.now, s], [(e) => e.rec.lt, s]) : orderBy<E>([(e) => e.rec.lt, s]));
}
