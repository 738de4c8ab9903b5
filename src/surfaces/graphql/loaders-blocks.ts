/**
 * Transaction.block for every transaction of a level in one /blocks call. v3 /blocks takes one
 * (workchain, shard, seqno) per call, but it also filters by window: the collator gives a transaction its
 * block's `gen_utime` as `now`, and its lt is not below the block's `start_lt`, so the blocks of a level are
 * among those with gen_utime in [min now, max now] and start_lt <= max lt (narrowed to one workchain or shard
 * when the level shares it). A window answer shorter than a page therefore holds every block of the level the
 * source has; only when it fills the page are the blocks it lacks loaded one by one.
 */
import DataLoader from 'dataloader';
import { isApiError } from '../../api/errors.js';
import { createContextCache } from '@pothos/core';
import type { Block } from './wire.js';
import { V3_MAX_LIMIT } from '../../api/v3/common.js';
import type { Transaction } from './wire.js';
import type { GraphQLContext } from './builder.js';
import type { GraphQLResolveInfo } from 'graphql';
import { fieldsUnder } from './selection.js';
import { blockKey, parseBlockKey } from './ids.js';
import { parseShard, shardHex } from './shard.js';
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

/**
 * The block a transaction is in, batched with the other transactions' blocks of its level; only its key when
 * nothing else of it is asked.
 */
export const blockOfTransaction = (ctx: GraphQLContext, tx: Transaction, info: GraphQLResolveInfo): Promise<Block | null> | Block => {
  const key = blockKey(tx.block_ref);
  const stub = blockOrStub(key, info);
  return typeof stub === 'string' ? blockOfTransactionLoader(ctx).load({ key, tx }) : stub;
};

/**
 * How long before the oldest masterchain block of a level its shard blocks may have been made. A shard block is
 * committed by one of the next masterchain blocks after it is made (seconds on mainnet); a level's window reaches
 * this far back, and a masterchain block the window finds nothing for is asked on its own.
 */
const SHARD_LAG_S = 60;

/** Every block of a (window) /blocks query, page by page. */
async function allBlocks(ctx: GraphQLContext, p: Parameters<GraphQLContext['v3']['blocks']>[0]): Promise<Block[]> {
  const out: Block[] = [];
  for (let offset = 0; ; offset += V3_MAX_LIMIT) {
    const { blocks } = await ctx.v3.blocks({ ...p, limit: V3_MAX_LIMIT, offset });
    out.push(...blocks);
    if (blocks.length < V3_MAX_LIMIT) return out;
  }
}

/** Every block one masterchain block commits, itself included, as /masterchainBlockShards lists them; [] when none. */
async function committedBy(ctx: GraphQLContext, seqno: number): Promise<Block[]> {
  try {
    return [...(await ctx.v3.masterchainBlockShards({ seqno, limit: V3_MAX_LIMIT })).blocks];
  } catch (e) {
    if (isApiError(e) && e.status === 404) return [];
    throw e;
  }
}

/** The shard blocks one masterchain block commits (its own row left out). */
async function shardsOfOne(ctx: GraphQLContext, mc: Block): Promise<Block[]> {
  return (await committedBy(ctx, mc.seqno)).filter((s) => s.workchain !== mc.workchain);
}

/**
 * A masterchain block by seqno from the one call that also lists the shard blocks it commits, which are kept as
 * its `shards`; null when the source has no such block.
 */
export async function masterchainBlockWithShards(ctx: GraphQLContext, seqno: number): Promise<Block | null> {
  const blocks = await committedBy(ctx, seqno);
  const mc = blocks.find((b) => b.workchain === -1 && b.seqno === seqno);
  if (!mc) return null;
  shardsLoader(ctx).prime(mc, blocks.filter((b) => b.workchain !== -1));
  return mc;
}

/**
 * Block.shards for every masterchain block of a level: one /blocks call over the basechain blocks made in the
 * level's gen_utime window (from SHARD_LAG_S before the oldest), grouped by the masterchain block that commits
 * them (`masterchain_block_ref`). One masterchain block alone is asked with /masterchainBlockShards.
 */
async function loadShards(ctx: GraphQLContext, mcs: readonly Block[]): Promise<Block[][]> {
  if (mcs.length === 1) return [await shardsOfOne(ctx, mcs[0]!)];
  const utimes = mcs.map((b) => Number(b.gen_utime));
  const found = await allBlocks(ctx, {
    workchain: 0,
    startUtime: Math.min(...utimes) - SHARD_LAG_S,
    endUtime: Math.max(...utimes),
    sort: 'asc',
  });
  const bySeqno = new Map<number, Block[]>();
  for (const b of found) {
    const seqno = b.masterchain_block_ref.seqno;
    let group = bySeqno.get(seqno);
    if (!group) bySeqno.set(seqno, (group = []));
    group.push(b);
  }
  const byKey = BlockRef.getDataloader(ctx);
  for (const b of found) byKey.prime(blockKey(b), b);
  return Promise.all(
    mcs.map(async (mc) => {
      const group = bySeqno.get(mc.seqno);
      if (!group) return shardsOfOne(ctx, mc);
      return group.sort((a, b) => (a.shard === b.shard ? a.seqno - b.seqno : a.shard < b.shard ? -1 : 1));
    }),
  );
}

const shardsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<Block, Block[], number>((mcs) => loadShards(ctx, mcs), { cacheKeyFn: (b) => b.seqno, maxBatchSize: V3_MAX_LIMIT }),
);

/** The shard blocks a masterchain block commits, batched with the other masterchain blocks of its level. */
export const shardsOfMasterchainBlock = (ctx: GraphQLContext, mc: Block): Promise<Block[]> => shardsLoader(ctx).load(mc);

/** The Block fields a block's key alone answers. */
const KEY_FIELDS = new Set(['workchain', 'shard', 'seqno', 'id', '__typename']);

/** Whether every field selected under this one (through fragments) is one of KEY_FIELDS. */
export function selectsKeyOnly(info: GraphQLResolveInfo): boolean {
  const fields = fieldsUnder(info);
  return fields.length > 0 && fields.every((f) => KEY_FIELDS.has(f.name.value) && !f.selectionSet);
}

/** Blocks that stand for their key only (selectsKeyOnly): never loaded, never cached as the block. */
const stubs = new WeakSet<Block>();

/** A block reference whose selection its key answers is the key itself, not a /blocks call (a block page's links). */
export function blockOrStub(key: string, info: GraphQLResolveInfo): string | Block {
  if (!selectsKeyOnly(info)) return key;
  const id = parseBlockKey(key)!;
  const stub = { workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno } as Block;
  stubs.add(stub);
  return stub;
}

/** BlockRef's cache key: a stub is kept apart from the loaded block of its key. */
export const blockCacheKey = (b: Block): string => (stubs.has(b) ? `stub ${blockKey(b)}` : blockKey(b));
