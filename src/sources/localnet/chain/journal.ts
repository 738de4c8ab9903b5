/**
 * The local chain's old storage format (before the database, db.ts): an append-only journal of what the chain
 * did. It is read only to import a directory made by an older version into `DIR/chain.db` (chain.ts), and to
 * repair such a journal when it is damaged; nothing writes new entries.
 *
 * File `DIR/journal`: the 8-byte magic `TLNJRNL1`, then frames `length u32le ‖ crc32 u32le ‖ payload`, each
 * payload one JSON entry (never empty). Only a torn tail is cut on open: a last frame that runs past the end of
 * the file, or fails its CRC with nothing but zero bytes after it (what a write cut by a crash leaves), with no
 * valid frame anywhere after it. Any other bad frame is corruption in the middle: opening refuses it
 * and changes nothing, and `repairJournal` (`npm run journal -- repair DIR`) keeps the valid prefix.
 *
 * Entries, in the order the chain made them:
 *   head   once: seed, config hash and global id the chain was made with
 *   state  a state injected without a transaction (the faucet at zerostate)
 *   exec   one executed message: every transaction of its cascade (BoC, state after it, parent), sandbox's
 *          lt after it, the open block's utime and the faucet's transfer counter
 *   seal   one sealed masterchain block and its shard block, seals every exec since the previous seal
 *   ready  genesis is complete; a journal without it is discarded and genesis runs again
 *
 * Block entries (`blockEntry`/`blockRecord`) are also the form the database keeps its blocks in.
 */
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { DataDirError, fsyncPath, lockDir, syncDir, unlock } from './data-dir.js';
import type { BlockRecord, BlockRef } from './store.js';

export { DataDirError } from './data-dir.js';

const MAGIC = Buffer.from('TLNJRNL1');
const FRAME_HEADER = 8;
/** larger than any entry the chain writes; a bigger length can only be a torn or corrupt header */
const MAX_FRAME = 256 * 1024 * 1024;

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
  | { t: 'head'; v: 1; seed: string; configHash: string; globalId: number; fork?: { url: string; seqno: number } }
  | { t: 'state'; address: string; boc: string }
  | { t: 'exec'; txs: ExecTxEntry[]; lt: string; utime: number; faucetTransfers: number }
  | { t: 'seal'; mc: BlockEntry; shard: BlockEntry }
  | { t: 'ready' };

/** An old-format journal opened for import: its entries, read once. */
export class Journal {
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly fd: number,
    /** payloads of the complete frames found on open */
    private frames: Buffer[],
    private readonly locked: boolean,
  ) {}

  /** Opens (or creates) the journal in `dir`, cutting off a torn tail; a journal damaged anywhere else is refused untouched. */
  static open(dir: string, opts: { lock?: boolean } = {}): Journal {
    dir = resolve(dir);
    const locking = opts.lock ?? true;
    if (locking) lockDir(dir);
    try {
      const path = join(dir, 'journal');
      const data = readJournal(path);
      // a file shorter than the magic is a first write cut short: it holds nothing yet
      const empty = data.length < MAGIC.length;
      const { frames, end, damage } = empty ? { frames: [], end: 0 } : readFrames(data);
      if (damage && !damage.torn) {
        throw new DataDirError(
          `${path} is damaged at offset ${damage.offset} (${damage.reason}); refusing to start, nothing was changed. ` +
            `To keep the ${frames.length} entries before it (the damaged file is kept as journal.damaged-<time>), run: npm run journal -- repair ${dir}`,
        );
      }
      const fd = openSync(path, 'a');
      try {
        if (empty) {
          ftruncateSync(fd, 0);
          writeSync(fd, MAGIC);
          fsyncSync(fd);
          syncDir(dir);
        } else if (damage) {
          console.error(`local chain: ${path}: cut ${data.length - end} bytes of an incomplete last entry at offset ${end} (${damage.reason})`);
          ftruncateSync(fd, end);
          fsyncSync(fd);
        }
      } catch (e) {
        closeSync(fd);
        throw e;
      }
      return new Journal(dir, fd, frames, locking);
    } catch (e) {
      if (locking) unlock(dir);
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

  /** Closes the file and releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.locked) unlock(this.dir);
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

/**
 * Opens the journal in `dir` and closes it again, so that a directory in use or a damaged journal is refused
 * (DataDirError) before a server starts listening; a torn tail is cut as on every open.
 */
export async function checkDataDir(dir: string): Promise<void> {
  await Journal.open(dir).close();
}

/** What `repairJournal` did: entries kept, bytes cut, and where the original went (absent when nothing was cut). */
export interface Repair {
  path: string;
  kept: number;
  cut: number;
  backup?: string;
}

/**
 * Keeps the valid prefix of `dir`'s journal, up to its first bad frame (torn or corrupt), for a journal that
 * `Journal.open` refuses. The original is copied to `journal.damaged-<time>` and synced before the journal is
 * replaced (atomically, by rename), so a crash at any point leaves either the old file or the repaired one.
 */
export function repairJournal(dir: string): Repair {
  dir = resolve(dir);
  const path = join(dir, 'journal');
  if (!existsSync(path)) throw new DataDirError(`${dir} holds no local chain journal`);
  lockDir(dir);
  try {
    const data = readJournal(path);
    const { frames, end, damage } = data.length < MAGIC.length ? { frames: [], end: data.length } : readFrames(data);
    if (!damage) return { path, kept: frames.length, cut: 0 };
    const backup = join(dir, `journal.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    copyFileSync(path, backup, constants.COPYFILE_EXCL);
    fsyncPath(backup);
    const temp = join(dir, 'journal.repair');
    writeFileSync(temp, data.subarray(0, end));
    fsyncPath(temp);
    renameSync(temp, path);
    syncDir(dir);
    return { path, kept: frames.length, cut: data.length - end, backup };
  } finally {
    unlock(dir);
  }
}

/** The journal's bytes (none when it does not exist yet); anything not starting with the magic is refused. */
function readJournal(path: string): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw e;
  }
  const head = data.subarray(0, MAGIC.length);
  if (!MAGIC.subarray(0, head.length).equals(head)) throw new DataDirError(`${path} is not a local chain journal`);
  return data;
}

/** The first bad frame of a journal: where it starts, why it is bad, and whether it is a torn tail. */
interface Damage {
  offset: number;
  torn: boolean;
  reason: string;
}

/** The frame at `off`: its payload, or what is wrong with it (`cut`: it runs past the end of the file). */
function frameAt(data: Buffer, off: number): { payload: Buffer } | { problem: 'cut' | 'length' | 'crc'; len?: number } {
  if (off + FRAME_HEADER > data.length) return { problem: 'cut' };
  const len = data.readUInt32LE(off);
  if (len === 0 || len > MAX_FRAME) return { problem: 'length', len };
  if (off + FRAME_HEADER + len > data.length) return { problem: 'cut', len };
  const payload = data.subarray(off + FRAME_HEADER, off + FRAME_HEADER + len);
  return crc32(payload) === data.readUInt32LE(off + 4) ? { payload } : { problem: 'crc', len };
}

/** Complete, CRC-valid frames after the magic, the offset where they end, and the damage that ends them, if any. */
function readFrames(data: Buffer): { frames: Buffer[]; end: number; damage?: Damage } {
  const frames: Buffer[] = [];
  let off = MAGIC.length;
  while (off < data.length) {
    const frame = frameAt(data, off);
    if (!('payload' in frame)) return { frames, end: off, damage: classify(data, off, frame) };
    frames.push(frame.payload);
    off += FRAME_HEADER + frame.payload.length;
  }
  return { frames, end: off };
}

/**
 * Torn tail or corruption, for the bad frame at `off`: torn when it runs past the end of the file, or fails its
 * CRC with nothing but zeros after it; corrupt when any valid frame starts anywhere after it, or anything else follows.
 */
function classify(data: Buffer, off: number, bad: { problem: 'cut' | 'length' | 'crc'; len?: number }): Damage {
  const what =
    bad.problem === 'cut'
      ? bad.len === undefined
        ? 'its header is incomplete'
        : `its length ${bad.len} runs past the end of the file`
      : bad.problem === 'length'
        ? `its length ${bad.len} is impossible`
        : 'its checksum fails';
  for (let p = off + 1; p < data.length; p++) {
    if ('payload' in frameAt(data, p)) return { offset: off, torn: false, reason: `the entry there: ${what}, yet a valid entry follows at offset ${p}` };
  }
  // zeros are a file extended before its data reached the disk, not entries
  const after = bad.problem === 'crc' ? off + FRAME_HEADER + bad.len! : off;
  if (bad.problem === 'cut' || data.subarray(after).every((b) => b === 0)) return { offset: off, torn: true, reason: what };
  return { offset: off, torn: false, reason: `the entry there: ${what}, and it is not the end of the file` };
}

