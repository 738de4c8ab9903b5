/**
 * Named checkpoints of the local chain (acton_createCheckpoint and the rest, ../shared/reference/acton-localnet.md
 * §7), cheap at any size. Blocks, transactions and edits are appended in order, so a checkpoint is a position in
 * that history plus the executor's cursor and the clock (chain.ts `ChainMoment`): nothing is copied when it is
 * made, and a restore cuts off what came after it (store.ts `rewind`), at a cost in what is cut.
 *
 * Every checkpoint stays restorable, as acton's do: when a rewind cuts off rows a checkpoint still needs (one made
 * later on the branch being cut), those rows are first copied onto that checkpoint's shelf in the database
 * (db.ts), and its `base` (how much of it the chain still holds) drops to the cut. Restoring it cuts the chain
 * back to its base and puts its shelf back. Checkpoints live as long as the process; the shelves are emptied on
 * the next open.
 */
import { ApiError } from '../../../api/errors.js';
import type { Chain, ChainMoment } from './chain.js';
import { ChainStore, type Rewind, type StorePosition } from './store.js';

/** A checkpoint as acton answers it. */
export interface CheckpointInfo {
  name: string;
  block_seqno: number;
}

interface Checkpoint {
  /** its shelf's number */
  readonly id: number;
  readonly name: string;
  readonly at: StorePosition;
  readonly moment: ChainMoment;
  /** the part of it the chain holds; its shelf holds the rows after this, up to `at` */
  base: StorePosition;
}

/** Whether `a` is further along the chain's history than `b` (positions of one history are ordered). */
const ahead = (a: StorePosition, b: StorePosition): boolean => a.txs > b.txs || a.mcSeqno > b.mcSeqno || a.edits > b.edits;

const failure = (message: string): ApiError => new ApiError(500, message);

/** acton trims a name and refuses an empty one. */
function nameOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw failure('Checkpoint name cannot be empty');
  return trimmed;
}

export class Checkpoints {
  private points: Checkpoint[] = [];
  private nextId = 1;

  constructor(private readonly chain: Chain) {}

  /** Marks where the chain is now under `name` (replacing one of that name only with `force`). Inside `enqueue`. */
  create(name: string, force: boolean): CheckpointInfo {
    const n = nameOf(name);
    const at = this.points.findIndex((p) => p.name === n);
    if (at >= 0 && !force) throw failure(`Checkpoint name ${n} already exists`);
    const moment = this.chain.moment();
    const position = this.chain.store.position();
    const point: Checkpoint = { id: this.nextId++, name: n, at: position, moment, base: position };
    if (at >= 0) {
      this.drop(this.points[at]!);
      this.points[at] = point;
    } else this.points.push(point);
    return info(point);
  }

  list(): CheckpointInfo[] {
    return this.points.map(info);
  }

  /** Puts the chain back where checkpoint `name` was made; every checkpoint stays restorable. Inside `enqueue`. */
  restore(name: string): { info: CheckpointInfo; rewinds: Rewind[] } {
    const point = this.find(name);
    const rewinds: Rewind[] = [];
    if (!ahead(point.at, point.base)) {
      rewinds.push(this.rewind(point.at, point.moment));
      return { info: info(point), rewinds };
    }
    rewinds.push(this.rewind(point.base, point.moment));
    const store = this.chain.store;
    store.db.write(() => store.db.unshelve(point.id));
    point.base = point.at;
    store.readTail();
    this.chain.settle(BigInt(point.moment.cursor.lt), point.moment.cursor.utime);
    this.chain.finalizeAll();
    return { info: info(point), rewinds };
  }

  delete(name: string): CheckpointInfo {
    const point = this.find(name);
    this.drop(point);
    this.points = this.points.filter((p) => p !== point);
    return info(point);
  }

  clear(): number {
    const n = this.points.length;
    for (const p of this.points) this.drop(p);
    this.points = [];
    return n;
  }

  /**
   * Cuts the chain back to `to` (with `moment`, the cursor and clock too), first shelving for every checkpoint
   * the rows after `to` that it still needs. Inside `enqueue`.
   */
  rewind(to: StorePosition, moment?: ChainMoment): Rewind {
    const db = this.chain.store.db;
    const beyond = this.points.filter((p) => ahead(p.base, to));
    const rewound = this.chain.rewind(to, moment, () => {
      for (const p of beyond) db.shelve(p.id, ChainStore.rows(to), ChainStore.rows(p.base));
    });
    for (const p of beyond) p.base = to;
    return rewound;
  }

  private find(name: string): Checkpoint {
    const n = nameOf(name);
    const point = this.points.find((p) => p.name === n);
    if (!point) throw failure(`Checkpoint name ${n} not found`);
    return point;
  }

  private drop(point: Checkpoint): void {
    if (!ahead(point.at, point.base)) return;
    const db = this.chain.store.db;
    db.write(() => db.dropShelf(point.id));
  }
}

const info = (p: Checkpoint): CheckpointInfo => ({ name: p.name, block_seqno: p.at.mcSeqno });
