/**
 * A fork's history in v3 (issue 33): everything at or before the fork block is the upstream's.
 *
 * - One account's transactions (/transactions?account=) are one list across the fork point: the local ones
 *   (all newer than the fork block), then the upstream's up to the account's last transaction at the fork block,
 *   with limit, offset, sort and the lt and utime windows applied to the joined list.
 * - Masterchain blocks at or before the fork block, and the transactions they committed, are the upstream's
 *   answers (through the upstream client's cache, as its routes' descriptors say); so is a transaction asked by
 *   hash that the chain lacks and the upstream has in a block at or before the fork block.
 */
import type { Shared } from '../../../api/shared-answers.js';
import type { Sort } from '../../../api/v3/common.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import type { V3Api } from '../../../api/v3/index.js';
import type { TransactionsParams, TransactionsResponse } from '../../../api/v3/transactions.js';
import type { TxRecord } from '../chain/store.js';

/** What the joined list needs of the fork: its upstream and where the account's local history starts. */
export interface ForkJoin {
  upstream: V3Api;
  /** the account's last transaction lt at the fork block: the upstream part ends there */
  lastLt: bigint;
}

type Answer = Shared<TransactionsResponse>;
/** A page of the upstream's part of the list. */
type Ask = (sort: Sort, offset: number, limit: number) => Promise<Answer>;

/**
 * One page of an account's transactions across the fork point. `local` is the account's local transactions the
 * query keeps, oldest first; `respond` prints local records as a v3 answer.
 */
export async function accountAcrossFork(
  p: TransactionsParams,
  join: ForkJoin,
  local: readonly TxRecord[],
  respond: (recs: TxRecord[]) => TransactionsResponse,
): Promise<Answer> {
  const s: Sort = p.sort;
  const { limit, offset } = p;
  const endLt = p.endLt === undefined || p.endLt > join.lastLt ? join.lastLt : p.endLt;
  const noUpstream = p.startLt !== undefined && p.startLt > endLt;
  const upstream: Ask = (sort, off, lim) =>
    join.upstream.transactions({ ...p, endLt, sort, offset: off, limit: lim });
  const empty: Answer = { transactions: [], address_book: {} };

  if (s === 'desc') {
    // newest first: the local ones, then the upstream's from where they end
    const page = local.slice(Math.max(0, local.length - offset - limit), Math.max(0, local.length - offset)).reverse();
    const rest = limit - page.length;
    const older = rest > 0 && !noUpstream ? await upstream('desc', Math.max(0, offset - local.length), rest) : empty;
    return joined(respond(page), older, 'after');
  }
  // oldest first: the upstream's, then the local ones after as many upstream ones as there are
  const older = noUpstream ? empty : await upstream('asc', offset, limit);
  const got = older.transactions.length;
  if (got === limit) return older;
  const before = noUpstream ? 0 : got > 0 || offset === 0 ? offset + got : await countUpstream(upstream, offset);
  const page = local.slice(Math.max(0, offset - before), Math.max(0, offset - before) + limit - got);
  return joined(respond(page), older, 'before');
}

/** How many upstream transactions the window holds, knowing there are at most `atMost`. */
async function countUpstream(upstream: Ask, atMost: number): Promise<number> {
  let n = 0;
  for (;;) {
    const lim = Math.min(V3_MAX_LIMIT, atMost - n + 1);
    const got = (await upstream('asc', n, lim)).transactions.length;
    n += got;
    if (got < lim) return n;
  }
}

function joined(local: Answer, upstream: Answer, where: 'before' | 'after'): Answer {
  if (upstream.transactions.length === 0) return local;
  return {
    transactions: where === 'after' ? [...local.transactions, ...upstream.transactions] : [...upstream.transactions, ...local.transactions],
    address_book: { ...upstream.address_book, ...local.address_book },
  };
}

/**
 * The local v3 answers, with the masterchain blocks at or before the fork block (and their transactions) the
 * upstream's, and transactions asked by hash found in the upstream's history when the chain lacks them.
 */
export function withForkHistory(api: V3Api, upstream: V3Api, forkSeqno: number): V3Api {
  const before = (seqno: number | undefined): boolean => seqno !== undefined && seqno >= 0 && seqno <= forkSeqno;

  /** By hash: the local ones, and those the chain lacks from the upstream when they were in a block at or before the fork block. */
  async function byHash(p: TransactionsParams & { hash: Buffer[] }): Promise<Answer> {
    const here = await api.transactions({ ...p, offset: 0, limit: V3_MAX_LIMIT });
    const found = new Set(here.transactions.map((t) => t.hash));
    const missing = p.hash.filter((h) => !found.has(h.toString('base64')));
    const there = missing.length ? await upstream.transactions({ ...p, hash: missing, offset: 0, limit: V3_MAX_LIMIT }) : undefined;
    const older = there?.transactions.filter((t) => t.mc_block_seqno <= forkSeqno) ?? [];
    if (older.length === 0) return api.transactions(p);
    // ordered by hash, as the reference orders a hash query
    const s: Sort = p.sort;
    const all = [...here.transactions, ...older].sort((a, b) => (a.hash === b.hash ? 0 : (a.hash < b.hash) === (s === 'asc') ? -1 : 1));
    const { limit, offset } = p;
    return { transactions: all.slice(offset, offset + limit), address_book: { ...there!.address_book, ...here.address_book } };
  }

  return {
    ...api,
    blocks: (p) => (before(p.mcSeqno) || (p.workchain === -1 && before(p.seqno)) ? upstream.blocks(p) : api.blocks(p)),
    masterchainBlockShards: (p) => (before(p.seqno) ? upstream.masterchainBlockShards(p) : api.masterchainBlockShards(p)),
    masterchainBlockShardState: (p) => (before(p.seqno) ? upstream.masterchainBlockShardState(p) : api.masterchainBlockShardState(p)),
    transactionsByMasterchainBlock: (p) => (before(p.seqno) ? upstream.transactionsByMasterchainBlock(p) : api.transactionsByMasterchainBlock(p)),
    transactions: (p) => {
      if (before(p.mcSeqno)) return upstream.transactions(p);
      // with an lt filter the reference orders by lt, and a hash names one transaction anyway: local only
      if (p.hash?.length && p.lt === undefined) return byHash({ ...p, hash: p.hash });
      return api.transactions(p);
    },
  };
}
