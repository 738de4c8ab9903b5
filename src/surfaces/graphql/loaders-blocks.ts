/**
 * Transaction.block for every transaction of a level in one /blocks call. v3 /blocks takes one
 * (workchain, shard, seqno) per call, but it also filters by window: the collator gives a transaction its
 * block's `gen_utime` as `now`, and its lt is not below the block's `start_lt`, so the blocks of a level are
 * among those with gen_utime in [min now, max now] and start_lt <= max lt (narrowed to one workchain or shard
 * when the level shares it). A window answer shorter than a page therefore holds every block of the level the
 * source has; only when it fills the page are the blocks it lacks loaded one by one.
 */
import DataLoader from 'dataloader';
import { createContextCache } from '@pothos/core';
import type { Block } from './wire.js';
import { V3_MAX_LIMIT } from '../../api/v3/common.js';
import type { Transaction } from './wire.js';
import type { GraphQLContext } from './builder.js';
import { blockKey } from './ids.js';
import { parseShard } from './shard.js';
import { BlockRef } from './types/block.js';

interface BlockOfTransaction {
  key: string;
  tx: Transaction;
}

const single = <T>(values: T[]): T | undefined => (new Set(values).size === 1 ? values[0] : undefined);

async function loadWindow(ctx: GraphQLContext, wanted: readonly BlockOfTransaction[]): Promise<(Block | null)[]> {
  const byKey = BlockRef.getDataloader(ctx);
  if (new Set(wanted.map((w) => w.key)).size === 1) {
    const block = await byKey.load(wanted[0]!.key);
    return wanted.map(() => block);
  }
  const txs = wanted.map((w) => w.tx);
  const shard = single(txs.map((tx) => tx.block_ref.shard));
  const { blocks } = await ctx.v3.blocks({
    workchain: single(txs.map((tx) => tx.block_ref.workchain)),
    ...(shard !== undefined ? { shard: parseShard(shard) ?? undefined } : {}),
    startUtime: Math.min(...txs.map((tx) => tx.now)),
    endUtime: Math.max(...txs.map((tx) => tx.now)),
    endLt: txs.map((tx) => BigInt(tx.lt)).reduce((a, b) => (a > b ? a : b)),
    sort: 'asc',
    limit: V3_MAX_LIMIT,
  });
  const found = new Map(blocks.map((b) => [blockKey(b), b]));
  for (const [key, block] of found) byKey.prime(key, block);
  const complete = blocks.length < V3_MAX_LIMIT;
  return Promise.all(wanted.map(async (w) => found.get(w.key) ?? (complete ? null : await byKey.load(w.key))));
}

const blockOfTransactionLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<BlockOfTransaction, Block | null, string>((wanted) => loadWindow(ctx, wanted), {
      cacheKeyFn: (w) => w.key,
      maxBatchSize: V3_MAX_LIMIT,
    }),
);

/** The block a transaction is in, batched with the other transactions' blocks of its level. */
export const blockOfTransaction = (ctx: GraphQLContext, tx: Transaction): Promise<Block | null> =>
  blockOfTransactionLoader(ctx).load({ key: blockKey(tx.block_ref), tx });
