/** v3 blocks (v3.md §2.1): /masterchainInfo, /blocks and the shards of a masterchain block. */
import { type CachePolicy, NO_CACHE, TTL_CACHE } from '../descriptor.js';
import type { LtWindow, PageParams, Sort, UtimeWindow } from './common.js';
import { hash, int32, listOf, ltParams, pageParams, required, shard, unorderedSortParam, utimeParams, v3Route } from './params.js';

export interface BlockId {
  workchain: number;
  /** uppercase hex of the uint64 shard id, e.g. "8000000000000000" */
  shard: string;
  seqno: number;
}

export interface Block {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
  global_id: number;
  version: number;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  gen_utime: string;
  start_lt: string;
  end_lt: string;
  validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  vert_seqno: number;
  master_ref_seqno: number;
  rand_seed: string;
  created_by: string;
  tx_count: number;
  masterchain_block_ref: BlockId;
  prev_blocks: BlockId[];
}

export interface MasterchainInfo {
  last: Block;
  first: Block;
}

export interface BlocksResponse {
  blocks: Block[];
}

export interface BlocksParams extends PageParams, UtimeWindow, LtWindow {
  /** absent: no order, as the reference */
  sort?: Sort;
  workchain?: number;
  /** 64-bit shard id in any representation (signed or unsigned); compared modulo 2^64 */
  shard?: bigint;
  seqno?: number;
  rootHash?: Buffer;
  fileHash?: Buffer;
  /** filters the masterchain block that committed the block */
  mcSeqno?: number;
}

/** What a source answers for these routes. */
export interface BlocksApi {
  masterchainInfo(): Promise<MasterchainInfo>;
  blocks(p: BlocksParams): Promise<BlocksResponse>;
  /** every block committed by masterchain block `seqno`; 404 `blocks not found` */
  masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse>;
  /** the shard tops of masterchain block `seqno`; 404 `blocks not found` */
  masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse>;
}

/** Found blocks never change. */
const FOUND_BLOCKS: CachePolicy = { kind: 'immutable', keep: (v) => listOf(v, 'blocks').length > 0 };

/** The reference reads a missing seqno as 0; a 422 here, since a missing required param is bad input. */
const seqno = () => required(int32(), 'seqno is required');

/** The params of /blocks, also the filters of GraphQL's blocks. */
export const BLOCKS_PARAMS = {
  workchain: int32(),
  shard: shard(),
  seqno: int32(),
  root_hash: hash(),
  file_hash: hash(),
  mc_seqno: int32(),
  ...utimeParams,
  ...ltParams,
  ...pageParams,
  ...unorderedSortParam,
};

export const BLOCK_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/masterchainInfo',
    summary: 'First and last indexed masterchain blocks',
    params: {},
    response: 'MasterchainInfo',
    cache: TTL_CACHE,
    api: 'masterchainInfo',
  }),

  v3Route({
    methods: ['GET'],
    path: '/blocks',
    summary: 'Blocks by filter',
    params: BLOCKS_PARAMS,
    response: 'BlocksResponse',
    top: 'blocks',
    // a block named by hash, or by workchain+shard+seqno, never changes; open filters grow, and are reused for the TTL
    cache: (p: BlocksParams) =>
      p.rootHash || p.fileHash || (p.workchain !== undefined && p.shard !== undefined && p.seqno !== undefined) ? FOUND_BLOCKS : TTL_CACHE,
    api: 'blocks',
  }),

  v3Route({
    methods: ['GET'],
    path: '/masterchainBlockShardState',
    summary: 'Shard tops of a masterchain block',
    params: { seqno: seqno() },
    // v3.md §2.1: the answer is {"blocks"}; the openapi wrongly names TransactionsResponse
    response: 'BlocksResponse',
    top: 'blocks',
    cache: FOUND_BLOCKS,
    api: 'masterchainBlockShardState',
  }),

  v3Route({
    methods: ['GET'],
    path: '/masterchainBlockShards',
    summary: 'Every block committed by a masterchain block',
    params: { seqno: seqno(), ...pageParams },
    response: 'BlocksResponse',
    top: 'blocks',
    cache: FOUND_BLOCKS,
    api: 'masterchainBlockShards',
  }),
];
