/** v3 blocks (v3.md §2.1): /masterchainInfo, /blocks and the shards of a masterchain block. */
import { NO_CACHE, TTL_CACHE, type CachePolicy } from '../descriptor.js';
import type { BlocksParams } from '../v3.js';
import { hash, int32, listOf, ltParams, pageParams, required, shard, sortParam, utimeParams, v3Route } from './params.js';

/** Found blocks never change. */
const FOUND_BLOCKS: CachePolicy = { kind: 'immutable', keep: (v) => listOf(v, 'blocks').length > 0 };

/** The reference reads a missing seqno as 0; a 422 here, since a missing required param is bad input. */
const seqno = () => required(int32(), 'seqno is required');

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
    params: {
      workchain: int32(),
      shard: shard(),
      seqno: int32(),
      root_hash: hash(),
      file_hash: hash(),
      mc_seqno: int32(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'BlocksResponse',
    top: 'blocks',
    // a block named by hash, or by workchain+shard+seqno, never changes; open filters grow
    cache: (p: BlocksParams) =>
      p.rootHash || p.fileHash || (p.workchain !== undefined && p.shard !== undefined && p.seqno !== undefined) ? FOUND_BLOCKS : NO_CACHE,
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
