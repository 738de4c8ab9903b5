/**
 * Block: toncenter v3's block object (v3.md §3.0 "Block fields"), its links to the masterchain block, the
 * previous blocks and (on a masterchain block) the shard blocks it commits, and its transactions.
 * Root fields: masterchainInfo, block, blocks.
 */
import type { Block } from '../wire.js';
import type { Transaction } from '../wire.js';
import { BLOCKS_PARAMS } from '../../../api/v3/blocks.js';
import { builder } from '../builder.js';
import { defined, keysetConnection, ltWindow } from '../connections.js';
import { badInput } from '../errors.js';
import { blockKey, parseBlockKey } from '../ids.js';
import { LIMITS } from '../limits.js';
import { blockCacheKey, blockOrStub, masterchainBlockWithShards, shardsOfMasterchainBlock } from '../loaders-blocks.js';
import { AS_TEXT, routeArgs } from '../route-args.js';
import { parseShard, shardHex } from '../shard.js';
import { TransactionConnection } from './transaction.js';

const MASTERCHAIN = -1;

export const BlockRef = builder.loadableNodeRef('Block', {
  id: { resolve: (b) => blockKey(b) },
  // v3 /blocks takes one (workchain, shard, seqno) per call; distinct blocks of one level load in parallel. A
  // masterchain block comes with the shard blocks it commits, in one call, for its `shards`
  load: (keys: string[], ctx) =>
    Promise.all(
      keys.map(async (key) => {
        const id = parseBlockKey(key)!;
        if (id.workchain === MASTERCHAIN) return masterchainBlockWithShards(ctx, id.seqno);
        const { blocks } = await ctx.v3.blocks({ ...id, limit: 1 });
        return blocks[0] ?? null;
      }),
    ),
  // a lambda: loaders-blocks.ts imports this module, so its exports are not there yet while this one loads
  toKey: (b: Block) => blockCacheKey(b),
  cacheResolved: true,
});

export const BlockConnection = builder.connectionObject({ type: BlockRef, name: 'BlockConnection' });

BlockRef.implement({
  description: 'A block as toncenter v3 indexes it.',
  fields: (t) => ({
    workchain: t.exposeInt('workchain'),
    shard: t.exposeString('shard', { description: 'Shard id, upper-case hex of the uint64 (v3 form), e.g. 8000000000000000.' }),
    seqno: t.exposeInt('seqno'),
    rootHash: t.field({ type: 'Hash', resolve: (b) => b.root_hash }),
    fileHash: t.field({ type: 'Hash', resolve: (b) => b.file_hash }),
    globalId: t.exposeInt('global_id'),
    version: t.exposeInt('version'),
    afterMerge: t.exposeBoolean('after_merge'),
    beforeSplit: t.exposeBoolean('before_split'),
    afterSplit: t.exposeBoolean('after_split'),
    wantMerge: t.exposeBoolean('want_merge'),
    wantSplit: t.exposeBoolean('want_split'),
    keyBlock: t.exposeBoolean('key_block'),
    vertSeqnoIncr: t.exposeBoolean('vert_seqno_incr'),
    flags: t.exposeInt('flags'),
    genUtime: t.int({ resolve: (b) => Number(b.gen_utime) }),
    startLt: t.field({ type: 'BigInt', resolve: (b) => b.start_lt }),
    endLt: t.field({ type: 'BigInt', resolve: (b) => b.end_lt }),
    validatorListHashShort: t.exposeInt('validator_list_hash_short'),
    genCatchainSeqno: t.exposeInt('gen_catchain_seqno'),
    minRefMcSeqno: t.exposeInt('min_ref_mc_seqno'),
    prevKeyBlockSeqno: t.exposeInt('prev_key_block_seqno'),
    vertSeqno: t.exposeInt('vert_seqno'),
    masterRefSeqno: t.exposeInt('master_ref_seqno'),
    randSeed: t.exposeString('rand_seed'),
    createdBy: t.exposeString('created_by'),
    txCount: t.exposeInt('tx_count'),
    masterchainBlock: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The masterchain block that committed this block (itself for a masterchain block).',
      resolve: (b, _args, _ctx, info) => (b.workchain === MASTERCHAIN ? b : blockOrStub(blockKey(b.masterchain_block_ref), info)),
    }),
    prevBlocks: t.field({
      type: [BlockRef],
      nullable: { list: false, items: true },
      complexity: { field: 1, multiplier: 2 },
      resolve: (b, _args, _ctx, info) => (b.prev_blocks ?? []).map((p) => blockOrStub(blockKey(p), info)),
    }),
    shards: t.field({
      type: [BlockRef],
      nullable: true,
      complexity: { field: 1, multiplier: LIMITS.shardsMultiplier },
      description: 'On a masterchain block: the shard blocks it commits (v3 /masterchainBlockShards); null on a shard block.',
      resolve: (b, _args, ctx) => (b.workchain === MASTERCHAIN ? shardsOfMasterchainBlock(ctx, b) : null),
    }),
    transactions: t.field({
      type: TransactionConnection,
      nullable: true,
      description: 'The transactions of this block in lt order.',
      args: { ...t.arg.connectionArgs() },
      resolve: (b, args, ctx) =>
        keysetConnection({
          args,
          order: 'asc',
          ltTies: true,
          position: (tx: Transaction) => ({ lt: BigInt(tx.lt), hash: tx.hash }),
          fetch: async (q) => {
            // a block the indexer counted no transactions in has none to ask for
            if (b.tx_count === 0) return [];
            const shard = parseShard(b.shard)!;
            const { transactions } = await ctx.v3.transactions({
              workchain: b.workchain,
              shard,
              seqno: b.seqno,
              sort: q.sort,
              limit: q.limit,
              ...ltWindow(q, {}),
            });
            return transactions;
          },
        }),
    }),
  }),
});

const MasterchainInfoRef = builder.objectRef<{ first: Block; last: Block }>('MasterchainInfo').implement({
  description: 'The first and last indexed masterchain blocks.',
  fields: (t) => ({
    first: t.field({ type: BlockRef, resolve: (m) => m.first }),
    last: t.field({ type: BlockRef, resolve: (m) => m.last }),
  }),
});

function shardArg(shard: string | null | undefined): bigint | undefined {
  if (shard == null) return undefined;
  const v = parseShard(shard);
  if (v === null) throw badInput(`not a shard id: ${JSON.stringify(shard)} (hex as v3 prints it, or a signed decimal)`);
  return v;
}

builder.queryFields((t) => ({
  masterchainInfo: t.field({
    type: MasterchainInfoRef,
    nullable: true,
    resolve: (_root, _args, ctx) => ctx.v3.masterchainInfo(),
  }),
  block: t.field({
    type: BlockRef,
    nullable: true,
    args: {
      workchain: t.arg.int({ required: true }),
      shard: t.arg.string({ required: false, description: 'Defaults to the whole-workchain shard 8000000000000000.' }),
      seqno: t.arg.int({ required: true }),
    },
    resolve: (_root, args) => {
      const shard = shardArg(args.shard) ?? -(1n << 63n);
      return blockKey({ workchain: args.workchain, shard: shardHex(shard), seqno: args.seqno });
    },
  }),
  blocks: t.field({
    type: BlockConnection,
    nullable: true,
    description: 'Blocks, newest first (keyset-paged by start lt).',
    args: {
      ...t.arg.connectionArgs(),
      ...routeArgs(t.arg, BLOCKS_PARAMS, ['workchain', 'shard', 'seqno', 'mc_seqno', 'start_utime', 'end_utime', 'start_lt', 'end_lt'], {
        shard: AS_TEXT,
        mc_seqno: { description: 'Only blocks committed by this masterchain block.' },
      }),
    },
    resolve: (_root, args, ctx) => {
      const shard = shardArg(args.shard);
      return keysetConnection({
        args,
        order: 'desc',
        ltTies: true,
        position: (b: Block) => ({ lt: BigInt(b.start_lt), hash: b.root_hash }),
        // v3 /blocks orders by gen_utime: a page cut inside one second drops that second whole
        sortKey: (b: Block) => b.gen_utime,
        fetch: async (q) => {
          const { blocks } = await ctx.v3.blocks({
            ...defined({
              workchain: args.workchain,
              shard,
              seqno: args.seqno,
              mcSeqno: args.mcSeqno,
              startUtime: args.startUtime,
              endUtime: args.endUtime,
            }),
            ...ltWindow(q, args),
            sort: q.sort,
            limit: q.limit,
          });
          return blocks;
        },
      });
    },
  }),
}));
