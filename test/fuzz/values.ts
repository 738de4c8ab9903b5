/**
 * Hostile parameter values shared by the REST and GraphQL suites: integer edges, broken addresses and hashes,
 * hand-built bags of cells (deep, wide, cyclic, truncated, lying headers) and unicode junk.
 */
import { Address, beginCell, type Cell } from '@ton/core';
import fc from 'fast-check';

/** Real values of the running chain, so some generated requests are valid and reach the data source. */
export interface Known {
  addresses: string[];
  seqnos: number[];
  txHashes: string[];
  lts: string[];
}

// ---- integers ----

const INT_EDGES = [
  '0', '-0', '1', '-1', '+1', '01', ' 1', '1 ', '1.0', '1.5', '1e3', '1E400', '-1e400', '0x10', '0b1', 'NaN', 'Infinity', '-Infinity',
  '2147483647', '2147483648', '-2147483648', '-2147483649', '4294967295', '4294967296',
  '9007199254740991', '9007199254740993', '9223372036854775807', '9223372036854775808',
  '-9223372036854775808', '-9223372036854775809', '18446744073709551615', '18446744073709551616',
  '-18446744073709551616', '1'.repeat(41), '9'.repeat(400), `-${'9'.repeat(400)}`, '١٢٣',
];

export const intText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INT_EDGES),
  fc.integer().map(String),
  fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }).map(String),
  fc.integer({ min: 0, max: 20 }).map(String),
);

// ---- addresses and hashes ----

const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const b64chars = (n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: n, maxLength: n });

/** A string with one character replaced, to break a checksum or a form. */
const corrupt = (s: string) =>
  fc.tuple(fc.nat({ max: Math.max(0, s.length - 1) }), fc.constantFrom('A', 'z', '0', '-', '+', '/', '_', '=', 'é', ' ')).map(
    ([i, ch]) => s.slice(0, i) + ch + s.slice(i + 1),
  );

const friendlyOf = fc
  .tuple(fc.constantFrom(0, -1), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), fc.boolean(), fc.boolean())
  .map(([wc, h, bounceable, testOnly, urlSafe]) => new Address(wc, Buffer.from(h)).toString({ bounceable, testOnly, urlSafe }));

export function addressText(known: Known): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known.addresses),
    friendlyOf,
    friendlyOf.chain(corrupt),
    fc.tuple(fc.constantFrom('0', '-1', '1', '127', '-128', '128', '-129', '99999999999', '-0', '+0', '00', ''), hex(32)).map(
      ([wc, h]) => `${wc}:${h}`,
    ),
    hex(32),
    fc.oneof(hex(31), hex(33)).map((h) => `0:${h}`),
    b64chars(48),
    b64chars(47),
    fc.constantFrom('', ':', '0:', 'EQ', 'null', 'undefined', '0:ZZ', 'EQD__________________________________________0vo'),
  );
}

export function hashText(known: Known): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known.txHashes),
    hex(32),
    hex(32).map((h) => `0x${h}`),
    hex(32).map((h) => h.toUpperCase()),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64')),
    fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64url')),
    b64chars(44),
    b64chars(43),
    b64chars(43).map((s) => `${s}=`),
    fc.oneof(hex(31), hex(33)),
    fc.constantFrom('', 'not a hash', '0x', 'g'.repeat(64)),
  );
}

// ---- bags of cells ----

/** Serializes raw cells by hand (standard BoC, no index, no crc) so references may point anywhere, cycles included. */
export function rawBoc(cells: { data: Buffer; bits: number; refs: number[] }[], roots: number[], opts: { cellCount?: number } = {}): Buffer {
  const count = opts.cellCount ?? cells.length;
  const sizeBytes = 4;
  const body = Buffer.concat(
    cells.map((c) => {
      const d1 = c.refs.length;
      const d2 = Math.ceil(c.bits / 8) + Math.floor(c.bits / 8);
      const refs = Buffer.alloc(c.refs.length * sizeBytes);
      c.refs.forEach((r, i) => refs.writeUInt32BE(r >>> 0, i * sizeBytes));
      return Buffer.concat([Buffer.from([d1, d2]), c.data, refs]);
    }),
  );
  const header = Buffer.alloc(4 + 1 + 1 + sizeBytes * 3 + 4);
  header.writeUInt32BE(0xb5ee9c72, 0);
  header[4] = sizeBytes;
  header[5] = 4; // offset bytes
  header.writeUInt32BE(count >>> 0, 6);
  header.writeUInt32BE(roots.length, 10);
  header.writeUInt32BE(0, 14);
  header.writeUInt32BE(body.length, 18);
  const rootList = Buffer.alloc(roots.length * sizeBytes);
  roots.forEach((r, i) => rootList.writeUInt32BE(r >>> 0, i * sizeBytes));
  return Buffer.concat([header, rootList, body]);
}

const leaf = (bits = 0) => ({ data: Buffer.alloc(Math.ceil(bits / 8)), bits, refs: [] as number[] });

function chain(depth: number): Cell {
  let c = beginCell().storeUint(depth, 16).endCell();
  for (let i = 0; i < depth; i++) c = beginCell().storeUint(i, 16).storeRef(c).endCell();
  return c;
}

function wide(levels: number): Cell {
  if (levels === 0) return beginCell().storeUint(levels, 8).endCell();
  const sub = wide(levels - 1);
  return beginCell().storeUint(levels, 8).storeRef(sub).storeRef(sub).storeRef(sub).storeRef(sub).endCell();
}

/** Deep chains as a hostile client sends them; @ton/core refuses to build depth > 1023, so those are written raw. */
function chainBoc(d: number): Buffer {
  if (d <= 1023) return chain(d).toBoc();
  const cells = Array.from({ length: d + 1 }, (_, i) => ({ ...leaf(8), refs: i < d ? [i + 1] : [] }));
  return rawBoc(cells, [0]);
}

// built once: generating them per case would dominate the run time
const DEEP = [1, 10, 100, 500, 1023, 1024, 2000].map(chainBoc);
const WIDE = [3, 6, 10].map((l) => wide(l).toBoc());
const SMALL = [0, 1, 8, 255, 256].map((bits) => beginCell().storeUint(0, Math.min(bits, 256)).endCell().toBoc());
const CRAFTED = [
  // cycles: a cell referring to itself, two cells referring to each other, a reference backwards
  rawBoc([{ ...leaf(), refs: [0] }], [0]),
  rawBoc([{ ...leaf(), refs: [1] }, { ...leaf(), refs: [0] }], [0]),
  rawBoc([leaf(), { ...leaf(), refs: [0] }], [1]),
  // references and roots out of range, a header claiming 2^32-1 cells, no cells, five refs
  rawBoc([{ ...leaf(), refs: [7] }], [0]),
  rawBoc([leaf()], [5]),
  rawBoc([leaf()], [0], { cellCount: 0xffffffff }),
  rawBoc([], []),
  rawBoc([{ ...leaf(), refs: [1, 1, 1, 1, 1] }, leaf()], [0]),
];

/** Well-formed and malformed bags of cells. */
export const bocBytes: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(...SMALL),
  fc.constantFrom(...DEEP),
  fc.constantFrom(...WIDE),
  fc.constantFrom(...CRAFTED),
  // truncated well-formed ones
  fc.tuple(fc.constantFrom(WIDE[0]!, DEEP[1]!), fc.nat()).map(([b, n]) => b.subarray(0, n % b.length)),
  // the magic followed by noise, and plain noise
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.concat([Buffer.from('b5ee9c72', 'hex'), Buffer.from(b)])),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
);

export const bocText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: bocBytes.map((b) => b.toString('base64')) },
  { weight: 1, arbitrary: bocBytes.map((b) => b.toString('base64url')) },
  { weight: 1, arbitrary: bocBytes.map((b) => b.toString('hex')) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'AZaz09+/=-_ \n.%'), maxLength: 80 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '=', '====', 'te6cckEBAQEAAgAAAEysuc0=', 'te6cc', '!!!') },
);

// ---- free text ----

export const junkText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', 'null', 'true', '[]', '{}', '[["num","1"]]', '\u0000', '\ud800', '💥'.repeat(50), 'a'.repeat(5000), '%00', '../../etc/passwd'),
);

/** Query values of every kind above, for a parameter whose expected kind is ignored. */
export function anyText(known: Known): fc.Arbitrary<string> {
  return fc.oneof(intText, addressText(known), hashText(known), bocText, junkText, fc.constantFrom(...known.seqnos.map(String)));
}

/** A raw JSON fragment for a POST body: wrong JSON types, numbers JSON.parse cannot hold, nesting. */
export function jsonFragment(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: text.map((s) => JSON.stringify(s)) },
    { weight: 2, arbitrary: intText.filter((s) => /^-?\d+$/.test(s)) },
    { weight: 1, arbitrary: fc.constantFrom('1e400', '-1e400', '0.5', '-0', '1E2', '123456789012345678901234567890') },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '{}', '[]', '[[]]', '{"a":{"b":[1]}}') },
    { weight: 1, arbitrary: fc.array(text, { maxLength: 4 }).map((a) => JSON.stringify(a)) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  );
}
