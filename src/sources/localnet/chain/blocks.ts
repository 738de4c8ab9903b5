/**
 * Block ids of the local chain. Sandbox has no blocks, so their hashes are derived, not computed from a
 * real Block cell:
 *
 *   root_hash = sha256( "ton-localnet/block/v1"
 *                       ‖ workchain int32 ‖ shard int64 ‖ seqno uint32 ‖ mc_seqno uint32 ‖ gen_utime uint32
 *                       ‖ start_lt uint64 ‖ end_lt uint64 ‖ global_id int32
 *                       ‖ prev root_hash (for a zerostate: sha256("ton-localnet/zerostate/v1" ‖ seed ‖ config cell hash;
 *                         the config before the local validator set, chain.ts))
 *                       ‖ root_hash of every shard block the masterchain block references
 *                       ‖ hash of every transaction, in block order )
 *   file_hash = sha256( "ton-localnet/file/v1" ‖ root_hash )
 *
 * All integers big-endian. The prev link chains every block to the seed's zerostate, and (workchain, seqno)
 * is inside the hash, so ids are stable across restarts with the same seed and unique within and across chains.
 */
import { createHash } from 'node:crypto';
import type { Cell } from '@ton/core';
import type { BlockIdExt } from '../../../api/v2.js';
import { SHARD_ALL, type BlockRecord, type BlockRef, type TxRecord } from './store.js';

export interface BlockDraft {
  workchain: number;
  seqno: number;
  mcSeqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  globalId: number;
  /** previous block of the same chain, or the zerostate salt */
  prev: BlockRecord | Buffer;
  shards: BlockRecord[];
  txs: TxRecord[];
}

/** The zerostate salt: what a chain's first block links back to. */
export function zerostateSalt(seed: string, config: Cell): Buffer {
  return createHash('sha256').update('ton-localnet/zerostate/v1').update(seed).update(config.hash()).digest();
}

export function makeBlock(d: BlockDraft): BlockRecord {
  const header = Buffer.alloc(4 + 8 + 4 + 4 + 4 + 8 + 8 + 4);
  let o = 0;
  o = header.writeInt32BE(d.workchain, o);
  o = header.writeBigInt64BE(SHARD_ALL, o);
  o = header.writeUInt32BE(d.seqno, o);
  o = header.writeUInt32BE(d.mcSeqno, o);
  o = header.writeUInt32BE(d.genUtime, o);
  o = header.writeBigUInt64BE(d.startLt, o);
  o = header.writeBigUInt64BE(d.endLt, o);
  header.writeInt32BE(d.globalId, o);

  const h = createHash('sha256').update('ton-localnet/block/v1').update(header);
  h.update(Buffer.isBuffer(d.prev) ? d.prev : d.prev.rootHash);
  for (const s of d.shards) h.update(s.rootHash);
  for (const t of d.txs) h.update(Buffer.from(t.hash, 'hex'));
  const rootHash = h.digest();
  const fileHash = createHash('sha256').update('ton-localnet/file/v1').update(rootHash).digest();

  return {
    workchain: d.workchain,
    shard: SHARD_ALL,
    seqno: d.seqno,
    rootHash,
    fileHash,
    mcSeqno: d.mcSeqno,
    genUtime: d.genUtime,
    startLt: d.startLt,
    endLt: d.endLt,
    prev: Buffer.isBuffer(d.prev)
      ? undefined
      : { workchain: d.prev.workchain, shard: d.prev.shard, seqno: d.prev.seqno, rootHash: d.prev.rootHash, fileHash: d.prev.fileHash },
    txHashes: d.txs.map((t) => t.hash),
    shards: d.shards.map((s) => ({ workchain: s.workchain, shard: s.shard, seqno: s.seqno })),
  };
}

export function blockIdExt(b: BlockRef & { rootHash: Buffer; fileHash: Buffer }): BlockIdExt {
  return {
    '@type': 'ton.blockIdExt',
    workchain: b.workchain,
    shard: b.shard.toString(),
    seqno: b.seqno,
    root_hash: b.rootHash.toString('base64'),
    file_hash: b.fileHash.toString('base64'),
  };
}
