/**
 * /api/v3 blocks over the local chain (v3.md §2.1): masterchain info, blocks by filter, a masterchain block's
 * shards and shard state, answered from sealed blocks only (what an indexer has seen).
 */
import { ApiError } from '../../../api/errors.js';
import type { Block, BlocksApi, BlocksParams, BlocksResponse, MasterchainInfo } from '../../../api/v3/blocks.js';
import type { PageParams, Sort } from '../../../api/v3/common.js';
import { blockToV3 } from '../../../model/v3/index.js';
import { reusableJson } from '../../../api/json-fragments.js';
import { addToList, lowerBound, SHARD_ALL, type BlockRecord } from '../chain/store.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf, pageOfWalk } from './v3-order.js';

const hex = (b: Buffer): string => b.toString('hex');

/** The blocks' natural order: by masterchain seqno, the masterchain block before the shard blocks it commits. */
const naturalOrder = orderBy<BlockRecord>([(b) => b.mcSeqno, 'asc'], [(b) => b.workchain, 'asc'], [(b) => b.seqno, 'asc']);

export function localBlocks(ctx: LocalV3Context): BlocksApi {
  const blockRows = new WeakMap<BlockRecord, Block>();
  const blocksByRootHash = new Map<string, BlockRecord[]>();
  const blocksByFileHash = new Map<string, BlockRecord[]>();
  let blockHashesIndexed = 0;
  let globalId: number | undefined;

  async function blockGlobalId(): Promise<number> {
    // on a fork, block 0 is the upstream's (a v2 call pinned before the fork block): the chain knows its id
    globalId ??= ctx.globalId ?? (await ctx.v2.getBlockHeader({ workchain: -1, shard: SHARD_ALL, seqno: 0 })).global_id;
    return globalId;
  }

  /** A sealed block's v3 row never changes: built once per block (and its JSON text reused by the reply serializer). */
  function rowOf(b: BlockRecord, id: number): Block {
    let row = blockRows.get(b);
    if (!row) blockRows.set(b, (row = reusableJson(buildBlock(b, id))));
    return row;
  }

  /** The blocks a query names by seqno, masterchain seqno or hash (a superset of its matches), if it names any. */
  function namedBlocks(p: BlocksParams): BlockRecord[] | undefined {
    const chains = p.workchain === undefined ? [-1, 0] : [p.workchain];
    if (p.seqno !== undefined) {
      return chains.map((workchain) => ctx.store.block({ workchain, shard: SHARD_ALL, seqno: p.seqno! })).filter((b): b is BlockRecord => b !== undefined);
    }
    if (p.mcSeqno !== undefined) {
      const mc = ctx.store.mcBlock(p.mcSeqno);
      return [...(mc && p.mcSeqno >= 0 ? [mc] : []), ...shardBlocksOf(p.mcSeqno)];
    }
    if (p.rootHash !== undefined || p.fileHash !== undefined) {
      catchUpBlockHashes();
      const b = p.rootHash !== undefined ? blocksByRootHash.get(hex(p.rootHash)) : blocksByFileHash.get(hex(p.fileHash!));
      return b ?? [];
    }
    return undefined;
  }

  /** Adds the blocks sealed since the last call to the hash maps (blocks come in masterchain/shard pairs). */
  function catchUpBlockHashes(): void {
    const mc = ctx.store.mcBlocks;
    const shard = ctx.store.shardBlocks;
    for (; blockHashesIndexed < mc.length; blockHashesIndexed++) {
      for (const b of [mc[blockHashesIndexed], shard[blockHashesIndexed]]) {
        if (!b) continue;
        addToList(blocksByRootHash, hex(b.rootHash), b);
        addToList(blocksByFileHash, hex(b.fileHash), b);
      }
    }
  }

  // blocks a rewind cut off leave the hash maps
  ctx.store.onRewind((r) => {
    for (const { mc, shard } of r.blocks) {
      for (const b of [mc, shard]) {
        for (const [map, key] of [[blocksByRootHash, hex(b.rootHash)], [blocksByFileHash, hex(b.fileHash)]] as const) {
          const list = map.get(key)?.filter((x) => x !== b);
          if (list?.length) map.set(key, list);
          else map.delete(key);
        }
      }
    }
    blockHashesIndexed = Math.min(blockHashesIndexed, ctx.store.mcBlocks.length);
  });

  /** Basechain blocks committed by masterchain block `mcSeqno` (shard blocks ascend by masterchain seqno). */
  function shardBlocksOf(mcSeqno: number): BlockRecord[] {
    const shard = ctx.store.shardBlocks;
    const from = lowerBound(shard, (b) => b.mcSeqno >= mcSeqno);
    const to = lowerBound(shard, (b) => b.mcSeqno > mcSeqno);
    return shard.slice(from, to);
  }

  /** Every block in natural order (masterchain seqno, workchain, seqno), ascending or descending. */
  function* naturalBlocks(s: Sort): Generator<BlockRecord> {
    const mc = ctx.store.mcBlocks;
    const shard = ctx.store.shardBlocks;
    if (s === 'asc') {
      let i = 0;
      let j = 0;
      while (i < mc.length || j < shard.length) {
        if (j >= shard.length || (i < mc.length && naturalOrder(mc[i]!, shard[j]!) <= 0)) yield mc[i++]!;
        else yield shard[j++]!;
      }
    } else {
      let i = mc.length - 1;
      let j = shard.length - 1;
      while (i >= 0 || j >= 0) {
        if (j < 0 || (i >= 0 && naturalOrder(mc[i]!, shard[j]!) > 0)) yield mc[i--]!;
        else yield shard[j--]!;
      }
    }
  }

  return {
    async masterchainInfo(): Promise<MasterchainInfo> {
      const id = await blockGlobalId();
      const mc = ctx.store.mcBlocks;
      return { last: rowOf(mc[mc.length - 1]!, id), first: rowOf(mc[0]!, id) };
    },

    async blocks(p: BlocksParams): Promise<BlocksResponse> {
      const id = await blockGlobalId();
      const keep = (b: BlockRecord): boolean =>
        (p.workchain === undefined || b.workchain === p.workchain) &&
        (p.shard === undefined || BigInt.asUintN(64, b.shard) === BigInt.asUintN(64, p.shard)) &&
        (p.seqno === undefined || b.seqno === p.seqno) &&
        (p.rootHash === undefined || b.rootHash.equals(p.rootHash)) &&
        (p.fileHash === undefined || b.fileHash.equals(p.fileHash)) &&
        (p.mcSeqno === undefined || b.mcSeqno === p.mcSeqno) &&
        (p.startUtime === undefined || b.genUtime >= p.startUtime) &&
        (p.endUtime === undefined || b.genUtime <= p.endUtime) &&
        // both lt bounds apply to the block's start_lt (v3.md §2.1)
        (p.startLt === undefined || b.startLt >= p.startLt) &&
        (p.endLt === undefined || b.startLt <= p.endLt);
      // the reference orders by gen_utime only when sort is given; ties keep the natural order
      const dir = p.sort;
      const compare = dir
        ? (a: BlockRecord, b: BlockRecord) => {
            const c = a.genUtime === b.genUtime ? naturalOrder(a, b) : a.genUtime < b.genUtime ? -1 : 1;
            return dir === 'asc' ? c : -c;
          }
        : naturalOrder;
      // candidates from what names blocks directly; otherwise the natural order is walked from the end the sort
      // starts at (gen_utime never decreases along it: the chain's clock only moves forward)
      const named = namedBlocks(p);
      const list = named
        ? pageOf(named.filter(keep).sort(compare), p)
        : pageOfWalk(naturalBlocks(dir ?? 'asc'), keep, (a, b) => dir !== undefined && a.genUtime === b.genUtime, compare, p);
      return { blocks: list.map((b) => rowOf(b, id)) };
    },

    async masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse> {
      const id = await blockGlobalId();
      const mc = ctx.store.mcBlock(p.seqno);
      const all = mc ? [mc, ...shardBlocksOf(p.seqno)] : [];
      const list = pageOf(all, p);
      if (list.length === 0) throw new ApiError(404, 'blocks not found');
      return { blocks: list.map((b) => rowOf(b, id)) };
    },

    async masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse> {
      const id = await blockGlobalId();
      const mc = ctx.store.mcBlock(p.seqno);
      const list = (mc?.shards ?? [])
        .map((ref) => ctx.store.block(ref))
        .filter((b): b is BlockRecord => b !== undefined)
        .sort(orderBy<BlockRecord>(
          [(b) => b.workchain, 'asc'],
          [(b) => BigInt.asUintN(64, b.shard), 'asc'],
          [(b) => b.seqno, 'asc'],
        ));
      if (list.length === 0) throw new ApiError(404, 'blocks not found');
      return { blocks: list.map((b) => rowOf(b, id)) };
    },
  };
}

function buildBlock(b: BlockRecord, globalId: number): Block {
  const isMc = b.workchain === -1;
  // a shard block refers to the masterchain block before the one that commits it
  const ref = isMc ? 0 : Math.max(0, b.mcSeqno - 1);
  return blockToV3({
    workchain: b.workchain,
    shard: b.shard,
    seqno: b.seqno,
    rootHash: b.rootHash,
    fileHash: b.fileHash,
    globalId,
    genUtime: b.genUtime,
    startLt: b.startLt,
    endLt: b.endLt,
    minRefMcSeqno: ref,
    masterRefSeqno: ref,
    txCount: b.txHashes.length,
    mcRef: { workchain: -1, shard: SHARD_ALL, seqno: b.mcSeqno },
    prevBlocks: b.prev ? [b.prev] : [],
  });
}
