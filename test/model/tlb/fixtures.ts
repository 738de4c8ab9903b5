/**
 * Message bodies of the recorded mainnet traces (../shared/fixtures/real/*TraceResponse.json and real/v3/*.json,
 * toncenter v3 answers; README.md there says where each was recorded), grouped by opcode.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, beginCell, Cell, ExternalAddress, type Builder, type Slice } from '@ton/core';
import { expect } from 'vitest';
import { fixturePath } from '../../helpers/shared.js';

const ROOT = fixturePath('real');

function collect(node: unknown, out: Map<number, Map<string, Cell>>): void {
  if (Array.isArray(node)) {
    for (const v of node) collect(v, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  const content = o.message_content as { body?: string } | undefined;
  if (typeof o.opcode === 'string' && content?.body) {
    const op = Number.parseInt(o.opcode, 16) >>> 0;
    const cell = Cell.fromBase64(content.body);
    if (!out.has(op)) out.set(op, new Map());
    out.get(op)!.set(cell.hash().toString('hex'), cell);
  }
  for (const v of Object.values(o)) collect(v, out);
}

let cache: Map<number, Map<string, Cell>> | null = null;

/** Distinct recorded bodies with this opcode. */
export function recordedBodies(op: number): Cell[] {
  if (!cache) {
    cache = new Map();
    for (const dir of [ROOT, join(ROOT, 'v3')]) {
      for (const f of readdirSync(dir)) if (f.endsWith('.json') && f !== 'index.json') collect(JSON.parse(readFileSync(join(dir, f), 'utf8')), cache);
    }
  }
  return [...(cache.get(op)?.values() ?? [])];
}

/** A loaded value with cells as hashes and addresses as strings, for deep comparison. */
export function plain(v: unknown): unknown {
  if (v instanceof Cell) return `cell:${v.hash().toString('hex')}`;
  if (Address.isAddress(v)) return `addr:${v.toRawString()}`;
  if (v instanceof ExternalAddress) return `ext:${v.toString()}`;
  if (Buffer.isBuffer(v)) return `buf:${v.toString('hex')}`;
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

export function roundTrip<T>(load: (s: Slice) => T, store: (x: T) => (b: Builder) => void, x: T): void {
  const cell = beginCell().store(store(x)).endCell();
  expect(plain(load(cell.beginParse()))).toEqual(plain(x));
}

/**
 * Every recorded body reads and writes back to a body that reads the same; some write back bit-exact (others
 * carried an inline payload, which a write puts in a ref, or trailing bits the scheme does not read).
 */
export function recorded<T>(op: number, load: (s: Slice) => T, store: (x: T) => (b: Builder) => void, min: number): void {
  const bodies = recordedBodies(op);
  expect(bodies.length).toBeGreaterThanOrEqual(min);
  let exact = 0;
  for (const body of bodies) {
    const x = load(body.beginParse());
    const again = beginCell().store(store(x)).endCell();
    expect(plain(load(again.beginParse()))).toEqual(plain(x));
    if (again.hash().equals(body.hash())) exact += 1;
  }
  expect(exact).toBeGreaterThan(0);
}
