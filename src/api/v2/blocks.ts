/** v2 blocks (v2.md §4.3, §4.4): masterchain info, block ids, headers, shards, proofs and signatures. */
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { endpoint, IMMUTABLE, object, READ, type V2Endpoint } from './endpoint.js';
import type { BlockIdExt } from './objects.js';
import { at, hash, int32, int64, invalid, required } from './params.js';

export interface MasterchainInfo {
  '@type': 'blocks.masterchainInfo';
  last: BlockIdExt;
  state_root_hash: string;
  init: BlockIdExt;
}

export interface BlockSignatures {
  '@type': 'blocks.blockSignatures';
  id: BlockIdExt;
  signatures: { '@type': 'blocks.signature'; node_id_short: string; signature: string }[];
}

export interface ShardBlockProof {
  '@type': 'blocks.shardBlockProof';
  from: BlockIdExt;
  mc_id: BlockIdExt;
  links: { '@type': 'blocks.shardBlockLink'; id: BlockIdExt; proof: string }[];
  mc_proof: {
    '@type': 'blocks.blockLinkBack';
    to_key_block: boolean;
    from: BlockIdExt;
    to: BlockIdExt;
    dest_proof: string;
    proof: string;
    state_proof: string;
  }[];
}

export interface ConsensusBlock {
  '@type': 'ext.blocks.consensusBlock';
  consensus_block: number;
  timestamp: number;
}

export interface Shards {
  '@type': 'blocks.shards';
  shards: BlockIdExt[];
}

export interface BlockHeader {
  '@type': 'blocks.header';
  id: BlockIdExt;
  global_id: number;
  version: number;
  flags: number;
  after_merge: boolean;
  after_split: boolean;
  before_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  validator_list_hash_short: number;
  catchain_seqno: number;
  min_ref_mc_seqno: number;
  is_key_block: boolean;
  prev_key_block_seqno: number;
  start_lt: string;
  end_lt: string;
  gen_utime: number;
  vert_seqno: number;
  prev_blocks: BlockIdExt[];
}

export interface OutMsgQueueSizes {
  '@type': 'blocks.outMsgQueueSizes';
  shards: { '@type': 'blocks.outMsgQueueSize'; id: BlockIdExt; size: number }[];
  ext_msg_queue_size_limit: number;
}

export interface BlockRefParams {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
}

export interface LookupBlockParams {
  workchain: number;
  shard: bigint;
  /** exactly one of seqno, lt, unixtime */
  seqno?: number;
  lt?: bigint;
  unixtime?: number;
}

export interface ShardBlockProofParams {
  workchain: number;
  shard: bigint;
  seqno: number;
  fromSeqno?: number;
}

export interface BlocksApi {
  getMasterchainInfo(): Promise<MasterchainInfo>;
  getMasterchainBlockSignatures(p: { seqno: number }): Promise<BlockSignatures>;
  getShardBlockProof(p: ShardBlockProofParams): Promise<ShardBlockProof>;
  getConsensusBlock(): Promise<ConsensusBlock>;
  lookupBlock(p: LookupBlockParams): Promise<BlockIdExt>;
  getShards(p: { seqno: number }): Promise<Shards>;
  getBlockHeader(p: BlockRefParams): Promise<BlockHeader>;
  getOutMsgQueueSize(): Promise<OutMsgQueueSizes>;
}

const positiveSeqno = () => required(at(int32(), { min: 1 }));

/** A block by workchain, shard and seqno, its hashes optional; also the start of getBlockTransactions' params. */
export const blockParams = {
  workchain: required(int32()),
  shard: required(int64()),
  seqno: positiveSeqno(),
  root_hash: hash(),
  file_hash: hash(),
};

export const BLOCKS: readonly V2Endpoint[] = [
  endpoint({
    name: 'getMasterchainInfo',
    methods: READ,
    category: 'Blocks',
    summary: 'Last and init masterchain blocks',
    params: {},
    result: object('blocks.masterchainInfo'),
    cache: TTL_CACHE,
  }),
  endpoint({
    name: 'getMasterchainBlockSignatures',
    methods: READ,
    category: 'Blocks',
    summary: 'Validator signatures of a masterchain block',
    params: { seqno: positiveSeqno() },
    result: object('blocks.blockSignatures'),
    cache: IMMUTABLE,
  }),
  endpoint({
    name: 'getShardBlockProof',
    methods: READ,
    category: 'Blocks',
    summary: 'Proof chain from a masterchain block to a shard block',
    params: {
      workchain: required(int32()),
      shard: required(int64()),
      seqno: positiveSeqno(),
      from_seqno: at(int32(), { min: 0 }),
    },
    result: object('blocks.shardBlockProof'),
    cache: IMMUTABLE,
  }),
  endpoint({
    name: 'getConsensusBlock',
    methods: READ,
    category: 'Blocks',
    summary: 'Latest masterchain seqno the service agrees on',
    params: {},
    result: object('ext.blocks.consensusBlock'),
    cache: TTL_CACHE,
  }),
  endpoint({
    name: 'lookupBlock',
    methods: READ,
    category: 'Blocks',
    summary: 'Block id by seqno, lt or unixtime (exactly one)',
    params: {
      workchain: required(int32()),
      shard: required(int64()),
      seqno: at(int32(), { min: 1 }),
      lt: at(int64(), { min: 0 }),
      unixtime: at(int32(), { min: 0 }),
    },
    check: (p) => {
      if ([p.seqno, p.lt, p.unixtime].filter((v) => v !== undefined).length !== 1) {
        throw invalid('exactly one of seqno, lt, unixtime should be specified');
      }
    },
    result: object('ton.blockIdExt'),
    // by seqno the answer is fixed once the block exists; by lt or time a later block may match better
    cache: (p) => (p.seqno !== undefined ? IMMUTABLE : NO_CACHE),
  }),
  endpoint({
    name: 'getShards',
    aliases: ['shards'],
    methods: READ,
    category: 'Blocks',
    summary: 'Shard blocks referenced by a masterchain block',
    params: { seqno: positiveSeqno() },
    result: object('blocks.shards'),
    cache: IMMUTABLE,
  }),
  endpoint({
    name: 'getBlockHeader',
    methods: READ,
    category: 'Blocks',
    summary: 'Block header',
    params: blockParams,
    result: object('blocks.header'),
    cache: IMMUTABLE,
  }),
  endpoint({
    name: 'getOutMsgQueueSize',
    aliases: ['getOutMsgQueueSizes'],
    methods: READ,
    category: 'Blocks',
    summary: 'Outbound message queue sizes per shard',
    params: {},
    result: object('blocks.outMsgQueueSizes'),
    cache: NO_CACHE,
  }),
];
