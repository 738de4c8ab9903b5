/** v3 Block objects (v3.md §3.0 "Block fields", `models.Block`) from a block header as the local chain records it. */
import type { Block, BlockId } from '../../api/v3/blocks.js';
import { b64, shardHex } from './common.js';

export interface BlockRefInput {
  workchain: number;
  shard: bigint;
  seqno: number;
}

export const blockIdToV3 = (b: BlockRefInput): BlockId => ({ workchain: b.workchain, shard: shardHex(b.shard), seqno: b.seqno });

/** Header fields of a block; optional ones take the values an ordinary, non-key, unsplit block has. */
export interface BlockInput extends BlockRefInput {
  rootHash: Buffer;
  fileHash: Buffer;
  globalId: number;
  version?: number;
  afterMerge?: boolean;
  beforeSplit?: boolean;
  afterSplit?: boolean;
  wantMerge?: boolean;
  wantSplit?: boolean;
  keyBlock?: boolean;
  vertSeqnoIncr?: boolean;
  flags?: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  validatorListHashShort?: number;
  genCatchainSeqno?: number;
  minRefMcSeqno?: number;
  prevKeyBlockSeqno?: number;
  vertSeqno?: number;
  /** seqno of the masterchain block this shard block refers to (its own seqno for masterchain blocks) */
  masterRefSeqno?: number;
  randSeed?: Buffer;
  createdBy?: Buffer;
  txCount: number;
  /** the masterchain block that committed this block */
  mcRef: BlockRefInput;
  prevBlocks: BlockRefInput[];
}

export function blockToV3(b: BlockInput): Block {
  return {
    workchain: b.workchain,
    shard: shardHex(b.shard),
    seqno: b.seqno,
    root_hash: b64(b.rootHash),
    file_hash: b64(b.fileHash),
    global_id: b.globalId,
    version: b.version ?? 0,
    after_merge: b.afterMerge ?? false,
    before_split: b.beforeSplit ?? false,
    after_split: b.afterSplit ?? false,
    want_merge: b.wantMerge ?? false,
    want_split: b.wantSplit ?? false,
    key_block: b.keyBlock ?? false,
    vert_seqno_incr: b.vertSeqnoIncr ?? false,
    flags: b.flags ?? 0,
    gen_utime: String(b.genUtime),
    start_lt: b.startLt.toString(),
    end_lt: b.endLt.toString(),
    validator_list_hash_short: b.validatorListHashShort ?? 0,
    gen_catchain_seqno: b.genCatchainSeqno ?? 0,
    min_ref_mc_seqno: b.minRefMcSeqno ?? 0,
    prev_key_block_seqno: b.prevKeyBlockSeqno ?? 0,
    vert_seqno: b.vertSeqno ?? 0,
    master_ref_seqno: b.masterRefSeqno ?? b.mcRef.seqno,
    rand_seed: b64(b.randSeed ?? Buffer.alloc(32)),
    created_by: b64(b.createdBy ?? Buffer.alloc(32)),
    tx_count: b.txCount,
    masterchain_block_ref: blockIdToV3(b.mcRef),
    prev_blocks: b.prevBlocks.map(blockIdToV3),
  };
}
