/** Ordering and paging shared by the v3 answers: the reference's ORDER BY and LIMIT/OFFSET over in-memory lists. */
import type { Address } from '@ton/core';
import { resolvePage, type Sort } from '../../api/v3/common.js';
import { rawUpper } from '../../model/address.js';

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
export const pageOf = <T>(list: T[], p: { limit?: number; offset?: number }): T[] => {
  const { limit, offset } = resolvePage(p);
  return list.slice(offset, offset + limit);
};

/** An address filter as raw uppercase forms; undefined when the client gave none. */
export const rawSet = (list: Address[] | undefined): Set<string> | undefined => (list?.length ? new Set(list.map(rawUpper)) : undefined);
