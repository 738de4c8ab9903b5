/**
 * BoC deserialisation that reuses cells it has built before. @ton/core builds every cell of a BoC anew (its
 * hashes and depths computed, the object frozen), and an emulation's answers come back as BoCs that repeat most
 * of their cells from one emulation to the next: a contract's code in every state after, an unchanged data cell,
 * the library cells a message carries. Here an ordinary cell whose bits and children are the same as a cell
 * built before is that cell (cells are immutable values); anything else is built as @ton/core builds it.
 *
 * The key of an ordinary cell is its serialised bits (the length descriptor and the padded bytes, which give the
 * exact bit string) and the identities of its children, so two cells share a key only when they are equal. Exotic
 * cells (pruned branches, Merkle proofs and updates, library references) are never shared. The table holds at
 * most `MAX_CELLS` cells, least recently used first out.
 */
import { BitString, Cell } from '@ton/core';
import { parseBoc } from '@ton/core/dist/boc/cell/serialization.js';
import { LRUCache } from 'lru-cache';

const MAX_CELLS = 20_000;

const cells = new LRUCache<string, Cell>({ max: MAX_CELLS });
/** a number per cell this module handed out, for its parents' keys */
const ids = new WeakMap<Cell, number>();
let nextId = 1;

function idOf(c: Cell): number {
  let id = ids.get(c);
  if (id === undefined) ids.set(c, (id = nextId++));
  return id;
}

/** The number of hashes a serialised cell with this level mask may carry (a representation hash and one per level). */
function hashesCount(levelMask: number): number {
  return 1 + (levelMask & 1) + ((levelMask >> 1) & 1) + ((levelMask >> 2) & 1);
}

/** The bits of `n` data bytes, without the completion tag when the descriptor says there is one. */
function bitsOf(data: Buffer, d2: number): BitString {
  const n = Math.ceil(d2 / 2);
  if (n === 0) return BitString.EMPTY;
  const bytes = Buffer.from(data);
  if (d2 % 2 === 0) return new BitString(bytes, 0, n * 8);
  const last = bytes[n - 1]!;
  if (last === 0) throw new Error('Invalid BOC file: a padded cell without its completion tag');
  // the completion tag is the lowest set bit of the last byte
  let tag = 0;
  while (((last >> tag) & 1) === 0) tag++;
  return new BitString(bytes, 0, n * 8 - tag - 1);
}

/** The root cells of a BoC, as `Cell.fromBoc` gives them (same bits, refs and hashes), sharing the cells seen before. */
export function cellsFromBoc(src: Buffer): Cell[] {
  const boc = parseBoc(src);
  const data = boc.cellData;
  const raw: { d1: number; d2: number; body: Buffer; refs: number[] }[] = [];
  let at = 0;
  for (let i = 0; i < boc.cells; i++) {
    if (at + 2 > data.length) throw new Error('Invalid BOC file: cell data ends early');
    const d1 = data[at]!;
    const d2 = data[at + 1]!;
    at += 2;
    if ((d1 & 16) !== 0) at += hashesCount(d1 >> 5) * 34;
    const n = Math.ceil(d2 / 2);
    const body = data.subarray(at, at + n);
    at += n;
    const refs: number[] = [];
    for (let r = 0; r < (d1 & 7); r++) {
      refs.push(data.readUIntBE(at, boc.size));
      at += boc.size;
    }
    if (body.length !== n || at > data.length) throw new Error('Invalid BOC file: cell data ends early');
    raw.push({ d1, d2, body, refs });
  }
  const built: Cell[] = new Array(raw.length);
  for (let i = raw.length - 1; i >= 0; i--) {
    const { d1, d2, body, refs: refIdx } = raw[i]!;
    const refs = refIdx.map((r) => {
      if (r <= i || r >= raw.length) throw new Error('Invalid BOC file');
      return built[r]!;
    });
    if ((d1 & 8) !== 0) {
      built[i] = new Cell({ bits: bitsOf(body, d2), refs, exotic: true });
      continue;
    }
    const key = `${String.fromCharCode(d2)}${body.toString('latin1')}/${refs.map(idOf).join(',')}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = new Cell({ bits: bitsOf(body, d2), refs });
      cells.set(key, cell);
    }
    built[i] = cell;
  }
  return boc.root.map((r) => {
    const c = built[r];
    if (!c) throw new Error('Invalid BOC file: a root outside the cells');
    return c;
  });
}

/** The one root cell of a base64 BoC. */
export function cellFromBase64(src: string): Cell {
  const roots = cellsFromBoc(Buffer.from(src, 'base64'));
  if (roots.length !== 1) throw new Error('Deserialized more than one cell');
  return roots[0]!;
}
