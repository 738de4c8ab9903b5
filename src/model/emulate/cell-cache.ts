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
import { Cell } from '@ton/core';
import { LRUCache } from 'lru-cache';
import { bitsOf, rawCells } from './raw-boc.js';

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

/** The root cells of a BoC, as `Cell.fromBoc` gives them (same bits, refs and hashes), sharing the cells seen before. */
export function cellsFromBoc(src: Buffer): Cell[] {
  const { cells: raw, roots } = rawCells(src);
  const built: Cell[] = new Array(raw.length);
  for (let i = raw.length - 1; i >= 0; i--) {
    const { d1, d2, body, refs: refIdx } = raw[i]!;
    const refs = refIdx.map((r) => built[r]!);
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
  return roots.map((r) => built[r]!);
}

/** The one root cell of a base64 BoC. */
export function cellFromBase64(src: string): Cell {
  const roots = cellsFromBoc(Buffer.from(src, 'base64'));
  if (roots.length !== 1) throw new Error('Deserialized more than one cell');
  return roots[0]!;
}
