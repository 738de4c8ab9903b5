/**
 * The local chain's write-ahead journal (`--data-dir`): an append-only file of what the chain did, from which
 * a restart rebuilds the store and sandbox without re-executing anything.
 *
 * File `DIR/journal`: the 8-byte magic `TLNJRNL1`, then frames `length u32le ‖ crc32 u32le ‖ payload`, each
 * payload one JSON entry. A frame that is cut short or fails its CRC ends the journal: opening cuts it and
 * everything after it off, so a crash mid-write leaves the last complete entry as the chain's state.
 *
 * Entries, in the order the chain made them:
 *   head   once: seed, config hash and global id the chain was made with
 *   state  a state injected without a transaction (the faucet at zerostate)
 *   exec   one executed message: every transaction of its cascade (BoC, state after it, parent), sandbox's
 *          lt after it, the open block's utime and the faucet's transfer counter
 *   seal   one sealed masterchain block and its shard block, seals every exec since the previous seal
 *   ready  genesis is complete; a journal without it is discarded and genesis runs again
 *
 * Durability: `append` writes at once (the OS has the bytes, so a killed process loses nothing) and `durable()`
 * resolves once everything appended so far is on disk; concurrent callers share one fdatasync.
 * `DIR/lock` holds the owner's pid, so two processes never write one journal.
 */
import { closeSync, fdatasync, fdatasyncSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import type { BlockRecord, BlockRef } from './store.js';

const MAGIC = Buffer.from('TLNJRNL1');
const FRAME_HEADER = 8;
/** larger than any entry the chain writes; a bigger length can only be a torn or corrupt header */
const MAX_FRAME = 256 * 1024 * 1024;

/** A data directory that cannot be used (made with another seed, in use, not a journal); one line, for the CLI. */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

export interface BlockEntry {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
  mcSeqno: number;
  genUtime: number;
  startLt: string;
  endLt: string;
  prev?: { workchain: number; shard: string; seqno: number; rootHash: string; fileHash: string };
  txHashes: string[];
  shards: { workchain: number; shard: string; seqno: number }[];
}

export interface ExecTxEntry {
  /** transaction BoC, base64 */
  tx: string;
  /** ShardAccount BoC right after it, base64 */
  state: string;
  /** index in this entry's list of the transaction whose out-message caused this one */
  parent?: number;
}

export type JournalEntry =
  | { t: 'head'; v: 1; seed: string; configHash: string; globalId: number }
  | { t: 'state'; address: string; boc: string }
  | { t: 'exec'; txs: ExecTxEntry[]; lt: string; utime: number; faucetTransfers: number }
  | { t: 'seal'; mc: BlockEntry; shard: BlockEntry }
  | { t: 'ready' };

/** dirs this process holds, so a lock with our own pid left by a previous life (pid 1 in a container) is stale */
const held = new Set<string>();

export class Journal {
  private written: number;
  private synced: number;
  private syncing?: Promise<void>;
  private failed?: Error;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly fd: number,
    length: number,
    /** payloads of the complete frames found on open */
    private frames: Buffer[],
  ) {
    this.written = length;
    this.synced = length;
  }

  /** Opens (or creates) the journal in `dir`, cutting off a torn or corrupt tail. */
  static open(dir: string): Journal {
    dir = resolve(dir);
    try {
      mkdirSync(dir, { recursive: true });
      lock(dir);
    } catch (e) {
      if (e instanceof DataDirError) throw e;
      throw new DataDirError(`cannot use ${dir} as the data dir: ${(e as Error).message}`);
    }
    try {
      const path = join(dir, 'journal');
      let data: Buffer;
      try {
        data = readFileSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        data = Buffer.alloc(0);
      }
      // a file shorter than the magic is a first write cut short: it holds nothing yet
      const empty = data.length < MAGIC.length && MAGIC.subarray(0, data.length).equals(data);
      if (!empty && !data.subarray(0, MAGIC.length).equals(MAGIC)) throw new DataDirError(`${path} is not a local chain journal`);
      const { frames, end } = empty ? { frames: [], end: 0 } : readFrames(data);
      const fd = openSync(path, 'a');
      try {
        if (empty) {
          ftruncateSync(fd, 0);
          writeSync(fd, MAGIC);
          fsyncSync(fd);
          syncDir(dir);
        } else if (end < data.length) {
          console.error(`local chain: ${path}: cut ${data.length - end} bytes of an incomplete or corrupt entry at offset ${end}`);
          ftruncateSync(fd, end);
          fsyncSync(fd);
        }
      } catch (e) {
        closeSync(fd);
        throw e;
      }
      return new Journal(dir, fd, Math.max(end, MAGIC.length), frames);
    } catch (e) {
      unlock(dir);
      throw e;
    }
  }

  /** The entries found on open, decoded one at a time (the payloads are released afterwards). */
  *entries(): Generator<JournalEntry> {
    const frames = this.frames;
    this.frames = [];
    for (let i = 0; i < frames.length; i++) {
      try {
        yield JSON.parse(frames[i]!.toString('utf8')) as JournalEntry;
      } catch (e) {
        if (e instanceof SyntaxError) throw new DataDirError(`${this.dir}: journal entry ${i} passed its CRC but is not JSON`);
        throw e;
      }
    }
  }

  /** Whether the entries found on open include a completed genesis (only the small frames need decoding). */
  hasReady(): boolean {
    return this.frames.some((f) => f.length < 32 && (JSON.parse(f.toString('utf8')) as JournalEntry).t === 'ready');
  }

  /** Drops every entry: the journal starts over, empty. */
  reset(): void {
    ftruncateSync(this.fd, MAGIC.length);
    fsyncSync(this.fd);
    this.written = this.synced = MAGIC.length;
    this.frames = [];
  }

  /** Writes one entry; with `sync`, returns only once it (and all before it) is on disk. */
  append(entry: JournalEntry, sync = false): void {
    if (this.failed) throw this.failed;
    if (this.closed) throw new Error('local chain: the journal is closed');
    const payload = Buffer.from(JSON.stringify(entry), 'utf8');
    const frame = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
    frame.writeUInt32LE(payload.length, 0);
    frame.writeUInt32LE(crc32(payload), 4);
    payload.copy(frame, FRAME_HEADER);
    try {
      let off = 0;
      while (off < frame.length) off += writeSync(this.fd, frame, off);
      this.written += frame.length;
      if (sync) {
        fdatasyncSync(this.fd);
        this.synced = this.written;
      }
    } catch (e) {
      // a half-written frame is cut on the next open; nothing may follow it
      this.failed = new Error(`local chain: writing the journal failed: ${(e as Error).message}`);
      throw this.failed;
    }
  }

  /** Resolves once everything appended before the call is on disk. */
  async durable(): Promise<void> {
    const target = this.written;
    while (this.synced < target) {
      if (this.failed) throw this.failed;
      this.syncing ??= this.syncOnce();
      await this.syncing;
    }
  }

  private syncOnce(): Promise<void> {
    const upTo = this.written;
    return new Promise<void>((resolve, reject) => {
      fdatasync(this.fd, (err) => {
        this.syncing = undefined;
        if (err) {
          this.failed ??= new Error(`local chain: syncing the journal failed: ${err.message}`);
          reject(this.failed);
          return;
        }
        if (upTo > this.synced) this.synced = upTo;
        resolve();
      });
    });
  }

  /** Syncs what is left, closes the file and releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.failed) await this.durable();
    } finally {
      this.closed = true;
      closeSync(this.fd);
      unlock(this.dir);
    }
  }
}

/** A block as journaled: hashes hex, lts and shard ids decimal. */
export function blockEntry(b: BlockRecord): BlockEntry {
  const ref = (r: BlockRef) => ({ workchain: r.workchain, shard: r.shard.toString(), seqno: r.seqno });
  return {
    ...ref(b),
    rootHash: b.rootHash.toString('hex'),
    fileHash: b.fileHash.toString('hex'),
    mcSeqno: b.mcSeqno,
    genUtime: b.genUtime,
    startLt: b.startLt.toString(),
    endLt: b.endLt.toString(),
    ...(b.prev ? { prev: { ...ref(b.prev), rootHash: b.prev.rootHash.toString('hex'), fileHash: b.prev.fileHash.toString('hex') } } : {}),
    txHashes: b.txHashes,
    shards: b.shards.map(ref),
  };
}

export function blockRecord(e: BlockEntry): BlockRecord {
  const ref = (r: { workchain: number; shard: string; seqno: number }): BlockRef => ({ workchain: r.workchain, shard: BigInt(r.shard), seqno: r.seqno });
  return {
    ...ref(e),
    rootHash: Buffer.from(e.rootHash, 'hex'),
    fileHash: Buffer.from(e.fileHash, 'hex'),
    mcSeqno: e.mcSeqno,
    genUtime: e.genUtime,
    startLt: BigInt(e.startLt),
    endLt: BigInt(e.endLt),
    prev: e.prev ? { ...ref(e.prev), rootHash: Buffer.from(e.prev.rootHash, 'hex'), fileHash: Buffer.from(e.prev.fileHash, 'hex') } : undefined,
    txHashes: e.txHashes,
    shards: e.shards.map(ref),
  };
}

/** Complete, CRC-valid frames after the magic, and the offset where they end. */
function readFrames(data: Buffer): { frames: Buffer[]; end: number } {
  const frames: Buffer[] = [];
  let off = MAGIC.length;
  while (off + FRAME_HEADER <= data.length) {
    const len = data.readUInt32LE(off);
    if (len > MAX_FRAME || off + FRAME_HEADER + len > data.length) break;
    const payload = data.subarray(off + FRAME_HEADER, off + FRAME_HEADER + len);
    if (crc32(payload) !== data.readUInt32LE(off + 4)) break;
    frames.push(payload);
    off += FRAME_HEADER + len;
  }
  return { frames, end: off };
}

/** Makes a newly created file's directory entry durable. */
function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Takes `dir/lock` (created exclusively, holding our pid); a lock whose process is gone is taken over. */
function lock(dir: string): void {
  const path = join(dir, 'lock');
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      held.add(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isSafeInteger(owner) && owner > 0 && (owner === process.pid ? held.has(dir) : alive(owner))) {
      throw new DataDirError(`${dir} is in use by process ${owner}`);
    }
    rmSync(path, { force: true });
  }
}

function unlock(dir: string): void {
  held.delete(dir);
  rmSync(join(dir, 'lock'), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
