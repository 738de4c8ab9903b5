/**
 * Relay connections over toncenter lists with keyset cursors: a cursor is the opaque (lt, hash) of an item,
 * and the next page is asked for with an lt bound (start_lt/end_lt), never an offset, so pages stay stable
 * while the chain grows.
 */
import { type Sort, V3_MAX_LIMIT } from '../../api/v3/common.js';
import { badInput } from './errors.js';
import { LIMITS, checkPageArgs } from './limits.js';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface KeysetPosition {
  lt: bigint;
  /** base64 */
  hash: string;
}

const CURSOR_VERSION = 1;

export function encodeCursor(p: KeysetPosition): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, p.lt.toString(), p.hash])).toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v[0] === CURSOR_VERSION && typeof v[1] === 'string' && /^\d+$/.test(v[1]) && typeof v[2] === 'string') {
      return { lt: BigInt(v[1]), hash: v[2] };
    }
  } catch {
    // falls through to the error below
  }
  throw badInput(`not a cursor of this API: ${JSON.stringify(cursor)}`);
}

/** What a keyset source is asked for: items in `sort` order, bounded (inclusive) by `fromLt` on that side. */
export interface KeysetQuery {
  sort: Sort;
  fromLt?: bigint;
  limit: number;
}

export interface KeysetOptions<T> {
  args: ConnectionArgs;
  /** the order `first` pages in; `last` pages the other way and reverses */
  order: Sort;
  position: (item: T) => KeysetPosition;
  fetch: (q: KeysetQuery) => Promise<readonly T[]>;
  /** items of one list can share an lt (a block's transactions do; one account's do not) */
  ltTies?: boolean;
  /**
   * The key the source sorts by, when it is not the lt (blocks by gen_utime, messages under a utime filter by
   * created_at): a page the source's limit cut ends inside a group of equal keys, which is dropped whole.
   */
  sortKey?: (item: T) => unknown;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Extra items fetched past a cursor so a group of equal lts split by the upstream limit can be dropped whole. */
const TIE_SLACK = 16;

/** The keyset order: lt, then hash. */
export const comparePositions = (a: KeysetPosition, b: KeysetPosition): number =>
  a.lt === b.lt ? (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0) : a.lt < b.lt ? -1 : 1;

export async function keysetConnection<T>(o: KeysetOptions<T>): Promise<Connection<T>> {
  checkPageArgs(o.args);
  const backward = o.args.last != null;
  const size = (backward ? o.args.last : o.args.first) ?? LIMITS.defaultPageSize;
  const cursorArg = backward ? o.args.before : o.args.after;
  const cursor = cursorArg ? decodeCursor(cursorArg) : undefined;
  const sort: Sort = backward === (o.order === 'asc') ? 'desc' : 'asc';
  const sign = sort === 'asc' ? 1 : -1;

  // the lt bound is inclusive, so the cursor's own item (and with ties its whole lt group) comes back too
  let limit = size + 1 + (cursor ? 1 : 0) + (o.ltTies ? TIE_SLACK : 0);
  let items: T[] = [];
  /** the source holds more than was fetched, whatever the page shows */
  let truncated = false;
  // an empty page (first: 0) still fetches, to say whether items remain
  for (;;) {
    const fetched = await o.fetch({ sort, limit, ...(cursor ? { fromLt: cursor.lt } : {}) });
    const complete = fetched.length < limit;
    items = [...fetched].sort((a, b) => sign * comparePositions(o.position(a), o.position(b)));
    if (!complete && o.ltTies && fetched.length > 0) {
      // the source's last group of equal sort keys may be cut by its limit, and comes in the source's order, not ours
      const key = o.sortKey ?? ((i: T) => o.position(i).lt);
      const last = key(fetched[fetched.length - 1]!);
      items = items.filter((i) => key(i) !== last);
      // an lt can span two sort-key groups (an empty block starts at the lt its predecessor ended at, a second
      // later): the dropped group may share the last kept lt, so that lt waits for the next page too
      if (o.sortKey && items.length > 0) {
        const edge = o.position(items[items.length - 1]!).lt;
        items = items.filter((i) => o.position(i).lt !== edge);
      }
    }
    if (cursor) items = items.filter((i) => sign * comparePositions(o.position(i), cursor) > 0);
    // enough to fill the page and see one more, or the source has nothing further
    if (complete || items.length > size) break;
    if (limit >= V3_MAX_LIMIT) {
      // one lt group larger than the source's largest page: it can only be served as far as it came
      items = [...fetched]
        .sort((a, b) => sign * comparePositions(o.position(a), o.position(b)))
        .filter((i) => !cursor || sign * comparePositions(o.position(i), cursor) > 0);
      truncated = true;
      break;
    }
    limit = Math.min(limit * 2, V3_MAX_LIMIT);
  }

  const hasMore = items.length > size || truncated;
  const page = items.slice(0, size);
  if (backward) page.reverse();
  const edges = page.map((node) => ({ cursor: encodeCursor(o.position(node)), node }));
  return {
    edges,
    pageInfo: {
      // a cursor names an item of this list, so the side it was taken from is never empty
      hasNextPage: backward ? !!cursor : hasMore,
      hasPreviousPage: backward ? hasMore : !!cursor,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** The members that are set: GraphQL gives absent arguments as null, the seams expect them left out. */
export function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: NonNullable<T[K]> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]?: NonNullable<T[K]> };
}

/** A user lt window narrowed by the cursor's bound on the side the query walks towards. */
export function ltWindow(q: KeysetQuery, user: { startLt?: bigint | null; endLt?: bigint | null }): { startLt?: bigint; endLt?: bigint } {
  let startLt = user.startLt ?? undefined;
  let endLt = user.endLt ?? undefined;
  if (q.fromLt !== undefined) {
    if (q.sort === 'asc') startLt = startLt === undefined || q.fromLt > startLt ? q.fromLt : startLt;
    else endLt = endLt === undefined || q.fromLt < endLt ? q.fromLt : endLt;
  }
  return defined({ startLt, endLt });
}

const POSITION_CURSOR_VERSION = 2;

/** A position cursor, for lists toncenter v3 orders by index id and pages only by offset (token lists). */
export function encodePositionCursor(offset: number): string {
  return Buffer.from(JSON.stringify([POSITION_CURSOR_VERSION, offset])).toString('base64url');
}

export function decodePositionCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v[0] === POSITION_CURSOR_VERSION && Number.isSafeInteger(v[1]) && (v[1] as number) >= 0) return v[1] as number;
  } catch {
    // falls through to the error below
  }
  throw badInput(`not a cursor of this list: ${JSON.stringify(cursor)}`);
}

/**
 * A forward-only connection over a list the source can only page by offset (jetton wallets, NFT items):
 * the cursor is opaque and says where the next page starts. `fetch` gets offset and limit (one extra item
 * is asked for to learn whether a next page exists).
 */
export async function positionConnection<T>(
  args: { first?: number | null; after?: string | null },
  fetch: (q: { offset: number; limit: number }) => Promise<readonly T[]>,
): Promise<Connection<T>> {
  checkPageArgs(args);
  const size = args.first ?? LIMITS.defaultPageSize;
  const start = args.after ? decodePositionCursor(args.after) + 1 : 0;
  const items = await fetch({ offset: start, limit: size + 1 });
  const page = items.slice(0, size);
  const edges = page.map((node, i) => ({ cursor: encodePositionCursor(start + i), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: items.length > size,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
