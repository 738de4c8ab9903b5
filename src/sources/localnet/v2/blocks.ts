/**
 * v2 block endpoints over the local chain (v2.md §3.3). Local-chain-only answers (no real validator set or Merkle
 * blocks exist here): getMasterchainBlockSignatures gives one signature of one local validator whose ed25519 key is
 * derived from the seed, over root_hash ‖ file_hash of the block (node_id_short = sha256 of its public key);
 * getShardBlockProof gives the real ids of the blocks involved, with empty proof fields.
 */
import { createHash } from 'node:crypto';
import { sign } from '@ton/crypto';
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { blockIdExt } from '../chain/blocks.js';
import { SHARD_ALL, type BlockRecord } from '../chain/store.js';
import { type LocalV2Context, BLOCK_NOT_FOUND, EXT_MSG_QUEUE_LIMIT } from './v2-context.js';

export function localBlocks(ctx: LocalV2Context): v2.BlocksApi {
  return {
    async getMasterchainInfo(): Promise<v2.MasterchainInfo> {
      const last = ctx.store.lastMc;
      return {
        '@type': 'blocks.masterchainInfo',
        last: blockIdExt(last),
        state_root_hash: createHash('sha256').update('ton-localnet/state/v1').update(last.rootHash).digest('base64'),
        init: blockIdExt(ctx.store.mcBlocks[0]!),
      };
    },

    async getMasterchainBlockSignatures(p: { seqno: number }): Promise<v2.BlockSignatures> {
      const b = ctx.mcAt(p.seqno);
      return {
        '@type': 'blocks.blockSignatures',
        id: blockIdExt(b),
        signatures: [
          {
            '@type': 'blocks.signature',
            node_id_short: createHash('sha256').update(ctx.validator.publicKey).digest('base64'),
            signature: sign(Buffer.concat([b.rootHash, b.fileHash]), ctx.validator.secretKey).toString('base64'),
          },
        ],
      };
    },

    async getShardBlockProof(p: v2.ShardBlockProofParams): Promise<v2.ShardBlockProof> {
      const target = ctx.blockByRef({ workchain: p.workchain, shard: p.shard, seqno: p.seqno });
      const mcId = ctx.mcAt(target.mcSeqno);
      const from = p.fromSeqno === undefined ? ctx.store.lastMc : ctx.mcAt(p.fromSeqno);
      if (from.seqno < mcId.seqno) {
        throw new ApiError(500, `LITE_SERVER_UNKNOWN: masterchain block ${from.seqno} is older than block ${mcId.seqno} it should prove`);
      }
      return {
        '@type': 'blocks.shardBlockProof',
        from: blockIdExt(from),
        mc_id: blockIdExt(mcId),
        links: target.workchain === -1 ? [] : [{ '@type': 'blocks.shardBlockLink', id: blockIdExt(target), proof: '' }],
        mc_proof:
          from.seqno === mcId.seqno
            ? []
            : [
                {
                  '@type': 'blocks.blockLinkBack',
                  to_key_block: false,
                  from: blockIdExt(from),
                  to: blockIdExt(mcId),
                  dest_proof: '',
                  proof: '',
                  state_proof: '',
                },
              ],
      };
    },

    async getConsensusBlock(): Promise<v2.ConsensusBlock> {
      return { '@type': 'ext.blocks.consensusBlock', consensus_block: ctx.store.lastMc.seqno, timestamp: Math.floor(Date.now() / 1000) };
    },

    async lookupBlock(p: v2.LookupBlockParams): Promise<v2.BlockIdExt> {
      if (p.shard !== SHARD_ALL) throw new ApiError(500, BLOCK_NOT_FOUND);
      const chain = ctx.store.chain(p.workchain);
      let found: BlockRecord | undefined;
      if (p.seqno !== undefined) {
        found = ctx.store.block({ workchain: p.workchain, shard: p.shard, seqno: p.seqno });
      } else if (p.lt !== undefined) {
        const lt = p.lt;
        found = chain.find((b) => b.endLt > lt);
      } else if (p.unixtime !== undefined) {
        const last = chain[chain.length - 1];
        if (last && p.unixtime <= last.genUtime) {
          for (let i = chain.length - 1; i >= 0; i--) {
            if (chain[i]!.genUtime <= p.unixtime) {
              found = chain[i];
              break;
            }
          }
        }
      }
      if (!found) throw new ApiError(500, BLOCK_NOT_FOUND);
      return blockIdExt(found);
    },

    async getShards(p: { seqno: number }): Promise<v2.Shards> {
      const mc = ctx.mcAt(p.seqno);
      return { '@type': 'blocks.shards', shards: mc.shards.map((s) => blockIdExt(ctx.store.block(s)!)) };
    },

    async getBlockHeader(p: v2.BlockRefParams): Promise<v2.BlockHeader> {
      const b = ctx.blockByRef(p);
      const isMc = b.workchain === -1;
      return {
        '@type': 'blocks.header',
        id: blockIdExt(b),
        global_id: ctx.chain.globalId,
        version: 0,
        flags: 0,
        after_merge: false,
        after_split: false,
        before_split: false,
        want_merge: false,
        want_split: false,
        validator_list_hash_short: createHash('sha256').update(ctx.validator.publicKey).digest().readInt32BE(0),
        catchain_seqno: 0,
        min_ref_mc_seqno: Math.max(0, b.mcSeqno - (isMc ? 0 : 1)),
        is_key_block: isMc && b.seqno === 0,
        prev_key_block_seqno: 0,
        start_lt: b.startLt.toString(),
        end_lt: b.endLt.toString(),
        gen_utime: b.genUtime,
        vert_seqno: 0,
        prev_blocks: b.prev ? [blockIdExt(b.prev)] : [],
      };
    },

    async getOutMsgQueueSize(): Promise<v2.OutMsgQueueSizes> {
      const mc = ctx.store.lastMc;
      return {
        '@type': 'blocks.outMsgQueueSizes',
        shards: [mc, ...mc.shards.map((s) => ctx.store.block(s)!)].map((b) => ({ '@type': 'blocks.outMsgQueueSize' as const, id: blockIdExt(b), size: 0 })),
        ext_msg_queue_size_limit: EXT_MSG_QUEUE_LIMIT,
      };
    },
  };
}
