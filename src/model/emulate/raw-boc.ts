/**
 * A BoC's cells as bytes, without building @ton/core cells (which hash every cell as it is made). An emulator
 * worker reads each transaction it made only to find the internal messages to run next: their destinations and
 * their own BoCs, which go straight back into the emulator. Here both come from the transaction's BoC as it
 * is: the out-message dictionary walked by its references (`out_msgs:(HashmapE 15 ^(Message Any))`: a fork has
 * two references, a leaf one, the message), each message's cells copied verbatim into a BoC of its own, and
 * the destination read from the message's first cell. The caller parses the whole transaction once, for the
 * answer.
 */
import { Address, BitString, Cell, crc32c, type Slice } from '@ton/core';
// not exported by @ton/core: test/model/package-internals.test.ts holds its answer's shape at the pinned version
import { parseBoc } from '@ton/core/dist/boc/cell/serialization.js';

export interface RawCell {
  /** descriptor bytes */
  d1: number;
  d2: number;
  /** the cell's stored hashes and depths, when its descriptor says it carries them (copied as they are) */
  hashes: Buffer;
  /** the data bytes, padded as serialised */
  body: Buffer;
  /** indices of the referenced cells */
  refs: number[];
}

/** The number of hashes a serialised cell with this level mask may carry (a representation hash and one per level). */
function hashesCount(levelMask: number): number {
  return 1 + (levelMask & 1) + ((levelMask >> 1) & 1) + ((levelMask >> 2) & 1);
}

/** The cells of a BoC in its order (a cell's references come after it) and its roots. */
export function rawCells(src: Buffer): { cells: RawCell[]; roots: number[] } {
  const boc = parseBoc(src);
  const data = boc.cellData;
  const cells: RawCell[] = [];
  let at = 0;
  for (let i = 0; i < boc.cells; i++) {
    if (at + 2 > data.length) throw new Error('Invalid BOC file: cell data ends early');
    const d1 = data[at]!;
    const d2 = data[at + 1]!;
    at += 2;
    const hashesEnd = at + ((d1 & 16) !== 0 ? hashesCount(d1 >> 5) * 34 : 0);
    const hashes = data.subarray(at, hashesEnd);
    at = hashesEnd;
    const n = Math.ceil(d2 / 2);
    const body = data.subarray(at, at + n);
    at += n;
    const refs: number[] = [];
    for (let r = 0; r < (d1 & 7); r++) {
      const ref = data.readUIntBE(at, boc.size);
      if (ref <= i || ref >= boc.cells) throw new Error('Invalid BOC file');
      refs.push(ref);
      at += boc.size;
    }
    if (body.length !== n || at > data.length) throw new Error('Invalid BOC file: cell data ends early');
    cells.push({ d1, d2, hashes, body, refs });
  }
  for (const r of boc.root) if (r >= cells.length) throw new Error('Invalid BOC file: a root outside the cells');
  return { cells, roots: boc.root };
}

/** The bits of a cell's data bytes, without the completion tag when the descriptor says there is one. */
export function bitsOf(data: Buffer, d2: number): BitString {
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

const bitAt = (c: RawCell, i: number): number => (c.body[i >> 3]! >> (7 - (i & 7))) & 1;

/** Bytes needed to write `n`. */
function bytesFor(n: number): number {
  let b = 1;
  while (n >= 2 ** (8 * b)) b++;
  return b;
}

/** The cells reachable from `root` as a BoC of their own (one root, no index, CRC32-C), bytes copied as they are, and how many they are. */
export function subBoc(cells: RawCell[], root: number): { boc: Buffer; cells: number } {
  const seen = new Set<number>([root]);
  const stack = [root];
  while (stack.length > 0) for (const r of cells[stack.pop()!]!.refs) if (!seen.has(r)) (seen.add(r), stack.push(r));
  // ascending indices keep every reference after its cell
  const order = [...seen].sort((a, b) => a - b);
  const at = new Map(order.map((c, n) => [c, n]));
  const size = bytesFor(order.length);
  let total = 0;
  for (const i of order) {
    const c = cells[i]!;
    total += 2 + c.hashes.length + c.body.length + c.refs.length * size;
  }
  const off = bytesFor(total);
  const out = Buffer.alloc(4 + 1 + 1 + 3 * size + off + size + total + 4);
  let p = out.writeUInt32BE(0xb5ee9c72, 0);
  p = out.writeUInt8(0x40 | size, p); // has_crc32c, the size of a cell index
  p = out.writeUInt8(off, p);
  p = out.writeUIntBE(order.length, p, size);
  p = out.writeUIntBE(1, p, size); // roots
  p = out.writeUIntBE(0, p, size); // absent
  p = out.writeUIntBE(total, p, off);
  p = out.writeUIntBE(0, p, size); // the root is the first cell
  for (const i of order) {
    const c = cells[i]!;
    p = out.writeUInt8(c.d1, p);
    p = out.writeUInt8(c.d2, p);
    p += c.hashes.copy(out, p);
    p += c.body.copy(out, p);
    for (const r of c.refs) p = out.writeUIntBE(at.get(r)!, p, size);
  }
  crc32c(out.subarray(0, p)).copy(out, p);
  return { boc: out, cells: order.length };
}

export interface RawMessage {
  /** the message's own BoC */
  boc: Buffer;
  /** the cells in it */
  cells: number;
  /** where it goes: undefined for an external-out message */
  dest?: Address;
}

/** The leaves of a `HashmapE n ^X` below `node`, in key order (left, bit 0, first). */
function refLeaves(cells: RawCell[], node: number, out: number[]): void {
  const c = cells[node]!;
  if (c.refs.length === 2) {
    refLeaves(cells, c.refs[0]!, out);
    refLeaves(cells, c.refs[1]!, out);
  } else if (c.refs.length === 1) out.push(c.refs[0]!);
  else throw new Error('transaction out_msgs: a dictionary node with neither one nor two references');
}

/** `n` bytes of the cell's bits from bit `pos` on (the caller knows they are there). */
function bytesAt(c: RawCell, pos: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  const shift = pos & 7;
  let at = pos >> 3;
  for (let i = 0; i < n; i++, at++) out[i] = shift === 0 ? c.body[at]! : ((c.body[at]! << shift) | (c.body[at + 1]! >> (8 - shift))) & 0xff;
  return out;
}

/** The cell's data length in bits (d2 holds ceil and floor of bits/8; a partly filled last byte ends in a 1 then 0s). */
function bitLength(c: RawCell): number {
  if ((c.d2 & 1) === 0) return (c.d2 >> 1) * 8;
  const last = c.body[c.body.length - 1]!;
  // no end mark (not a valid cell): no bits counted in that byte, so nothing is read from it here
  if (last === 0) return (c.body.length - 1) * 8;
  return (c.body.length - 1) * 8 + 7 - Math.log2(last & -last);
}

/**
 * A plain `addr_std$10 anycast:nothing$0 workchain_id:int8 address:bits256` at bit `pos`: the address and where
 * it ends; undefined for anything else (addr_none, anycast, addr_var), which the caller reads the long way.
 */
function stdAddressAt(c: RawCell, pos: number): { address: Address; end: number } | undefined {
  if (pos + 267 > bitLength(c) || bitAt(c, pos) !== 1 || bitAt(c, pos + 1) !== 0 || bitAt(c, pos + 2) !== 0) return undefined;
  const wc = bytesAt(c, pos + 3, 1).readInt8(0);
  return { address: new Address(wc, bytesAt(c, pos + 11, 32)), end: pos + 267 };
}

/** A message's first cell as a slice of its bits alone (a header needs none of the references the value may have). */
const headerSlice = (cell: RawCell): Slice => new Cell({ bits: bitsOf(cell.body, cell.d2) }).beginParse();

/** The destination of the message whose first cell this is, from its header (`int_msg_info$0 ... src dest`). */
function destinationOf(cell: RawCell): Address | undefined {
  if (bitAt(cell, 0) === 1) return undefined; // ext_out_msg_info$11 (ext_in$10 is never an out-message)
  // the common case straight from the bytes: src a plain addr_std (or addr_none$00), then dest one too
  const srcNone = bitAt(cell, 4) === 0 && bitAt(cell, 5) === 0;
  const src = srcNone ? { end: 6 } : stdAddressAt(cell, 4);
  const dest = src && stdAddressAt(cell, src.end);
  if (dest) return dest.address;
  // anything else through @ton/core
  const s = headerSlice(cell);
  s.skip(4);
  s.loadMaybeAddress();
  return s.loadAddress();
}

/**
 * Where the message in this BoC goes, from its header: an internal message's or an external-in message's
 * destination (`ext_in_msg_info$10 src:MsgAddressExt dest:MsgAddressInt`); undefined for an external-out one.
 */
export function messageDestination(boc: Buffer): Address | undefined {
  const { cells, roots } = rawCells(boc);
  if (roots.length !== 1) throw new Error('Deserialized more than one cell');
  const cell = cells[roots[0]!]!;
  if (bitAt(cell, 0) === 0 || bitAt(cell, 1) === 1) return destinationOf(cell);
  const s = headerSlice(cell);
  s.skip(2);
  s.loadMaybeExternalAddress();
  return s.loadAddress();
}

/** The cells a BoC holds, from its header. */
export const bocCellCount = (boc: Buffer): number => parseBoc(boc).cells;

/** A transaction's out-messages (in their order), each as its own BoC with its destination. */
export function transactionOutMessages(txBoc: Buffer): RawMessage[] {
  const { cells, roots } = rawCells(txBoc);
  if (roots.length !== 1) throw new Error('Deserialized more than one cell');
  const io = cells[roots[0]!]!.refs[0];
  if (io === undefined) throw new Error('transaction cell has no message reference');
  const ioCell = cells[io]!;
  const hasIn = bitAt(ioCell, 0) === 1;
  if (ioCell.body.length === 0) throw new Error('transaction cell: its message cell is empty');
  if (bitAt(ioCell, 1) === 0) return [];
  const dict = ioCell.refs[hasIn ? 1 : 0];
  if (dict === undefined) throw new Error('transaction out_msgs: the dictionary reference is missing');
  const leaves: number[] = [];
  refLeaves(cells, dict, leaves);
  return leaves.map((m) => {
    const dest = destinationOf(cells[m]!);
    return { ...subBoc(cells, m), ...(dest ? { dest } : {}) };
  });
}
