/**
 * Property-based cell trees and get-method stacks against every place a client's cells enter (v2 sendBoc*,
 * estimateFee, runGetMethod(Std); v3 /message, /estimateFee, /runGetMethod; GraphQL sendMessage, runGetMethod),
 * on one real local-chain gateway over loopback HTTP. Trees: deep chains, 4-ref fan-outs around the cell limit,
 * wide trees sharing cells, bodies around the 65,535-byte limit, exotic cells (pruned branches, library cells,
 * Merkle proofs), bags whose header lies about its sizes. Stacks: long, deep, mixed. Property: no answer is a
 * 5xx caused by the input (only the reference's own "cannot apply external message" refusal of a message the
 * wallet rejects), GraphQL never answers INTERNAL_SERVER_ERROR, and afterwards the chain still runs get-methods.
 * Fixed seed (FUZZ_SEED replays another), FUZZ_RUNS multiplies the case count.
 */
import { Address, Cell, beginCell, external, storeMessage, type Builder } from '@ton/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { fetchWallets, startTestGateway } from '../helpers/gateway.js';
import { BATCH, RUNS, SEED, Tally, describeCase, expectHealthy, makeAgent, printable, sendBatch, type Answer, type Case } from './harness.js';
import { rawBoc } from './values.js';

let gw: Gateway;
let wallet: string;
const agent = makeAgent();
const tally = new Tally();

beforeAll(async () => {
  gw = await startTestGateway({ blockInterval: 200 });
  wallet = (await fetchWallets(gw.url)).find((w) => w.version === 'v4r2')!.address;
}, 120_000);
afterAll(async () => {
  console.log(`cells fuzz: ${tally.summary()}`);
  await agent.close();
  await gw?.close();
});

// ---- cell trees, built once: building them per case would dominate the run ----

function chain(n: number): Cell {
  let c = beginCell().storeUint(n, 16).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(i, 16).storeRef(c).endCell();
  return c;
}

/** `n` distinct leaves under a tree of nodes with four references each. */
function fanOut(n: number, bits = 32): Cell {
  const level: Cell[] = Array.from({ length: n }, (_, i) => beginCell().storeUint(i, 32).storeUint(0, bits - 32).endCell());
  let made = n;
  while (level.length > 1) {
    const b: Builder = beginCell().storeUint(made++, 32);
    for (const r of level.splice(0, 4)) b.storeRef(r);
    level.push(b.endCell());
  }
  return level[0]!;
}

/** `levels` levels of four references to the same cell: few distinct cells, 4^levels paths. */
function shared(levels: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i <= levels; i++) c = beginCell().storeUint(i, 8).storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

const hash = (seed: number) => Buffer.alloc(32, seed);
/** pruned_branch#01 level mask, then the hash and depth of each level it hides (exotic) */
const pruned = (depth: number) => beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(hash(7)).storeUint(depth, 16).endCell({ exotic: true });
/** library cell #02: the hash of the library */
const library = () => beginCell().storeUint(2, 8).storeBuffer(hash(9)).endCell({ exotic: true });
/** merkle_proof#03 over a tree with a pruned branch */
function merkleProof(): Cell {
  const inner = beginCell().storeUint(5, 8).storeRef(pruned(3)).endCell();
  return beginCell().storeUint(3, 8).storeBuffer(inner.hash(0)).storeUint(inner.depth(0), 16).storeRef(inner).endCell({ exotic: true });
}

/** A valid bag whose header fields are rewritten: cell count, root count, total size, each larger or smaller. */
function lyingHeaders(boc: Buffer): Buffer[] {
  const size = boc[4]! & 7;
  const off = boc[5]!;
  const field = (at: number, bytes: number, f: (v: number) => number): Buffer => {
    const b = Buffer.from(boc);
    b.writeUIntBE(Math.max(0, Math.min(f(b.readUIntBE(at, bytes)), 2 ** (8 * bytes) - 1)), at, bytes);
    return b;
  };
  const cellsAt = 6;
  const rootsAt = 6 + size;
  const totAt = 6 + 3 * size;
  return [
    field(cellsAt, size, (v) => v + 1),
    field(cellsAt, size, (v) => v - 1),
    field(cellsAt, size, () => 2 ** (8 * size) - 1),
    field(rootsAt, size, (v) => v + 1),
    field(rootsAt, size, () => 0),
    field(totAt, off, (v) => v + 100),
    field(totAt, off, (v) => v - 1),
    field(totAt, off, () => 2 ** (8 * Math.min(off, 6)) - 1),
  ];
}

/** Trees by what they test; each is a root cell (messages get it as their body) or raw bag bytes. */
const TREES: [string, Cell | Buffer][] = [
  ...[1, 50, 200, 255, 256, 257, 300, 450, 511, 513, 1000].map((n): [string, Cell] => [`chain ${n}`, chain(n)]),
  ...[100, 2000, 8000, 8193, 12_000].map((n): [string, Cell] => [`fan-out ${n}`, fanOut(n)]),
  // 1023-bit leaves: their bag is near the 65,535-byte limit, just under it and just over
  ...[480, 505, 520].map((n): [string, Cell] => [`max-size ${n}x1023 bits`, fanOut(n, 1023)]),
  ...[4, 8, 12].map((l): [string, Cell] => [`shared 4-ref x${l}`, shared(l)]),
  ['pruned branch', beginCell().storeUint(1, 8).storeRef(pruned(1)).endCell()],
  ['library cell', beginCell().storeUint(1, 8).storeRef(library()).endCell()],
  ['merkle proof', beginCell().storeUint(1, 8).storeRef(merkleProof()).endCell()],
  ...lyingHeaders(fanOut(300).toBoc()).map((b, i): [string, Buffer] => [`lying header ${i}`, b]),
  ...lyingHeaders(chain(40).toBoc({ idx: true, crc32: true })).map((b, i): [string, Buffer] => [`lying indexed header ${i}`, b]),
  ['cycle', rawBoc([{ data: Buffer.alloc(1), bits: 8, refs: [0] }], [0])],
];

const bocOf = (t: Cell | Buffer): string => (Buffer.isBuffer(t) ? t : t.toBoc()).toString('base64');
const messageOf = (t: Cell | Buffer): string =>
  Buffer.isBuffer(t) ? t.toString('base64') : beginCell().store(storeMessage(external({ to: Address.parse(wallet), body: t }))).endCell().toBoc().toString('base64');

const tree = fc.constantFrom(...TREES);

// ---- stacks ----

type Entry = { kind: 'num'; value: string } | { kind: 'cell'; tree: Cell | Buffer } | { kind: 'tuple'; items: Entry[] };

const num = fc.oneof(
  fc.bigInt({ min: -(1n << 256n), max: (1n << 256n) - 1n }).map((v) => v.toString()),
  fc.constantFrom(String(1n << 256n), String(-(1n << 256n) - 1n), '0x' + 'f'.repeat(70), '1'.repeat(300)),
);
const leafEntry: fc.Arbitrary<Entry> = fc.oneof(
  { weight: 3, arbitrary: num.map((value): Entry => ({ kind: 'num', value })) },
  { weight: 1, arbitrary: tree.map(([, t]): Entry => ({ kind: 'cell', tree: t })) },
);
const nested = (depth: number, inner: Entry): Entry => {
  let e = inner;
  for (let i = 0; i < depth; i++) e = { kind: 'tuple', items: [e] };
  return e;
};
const stack: fc.Arbitrary<Entry[]> = fc.oneof(
  fc.array(leafEntry, { maxLength: 6 }),
  // long: around the serialised-depth bound and the entry count
  fc.tuple(fc.constantFrom(10, 200, 255, 256, 400, 700, 1023, 1024, 3000), num).map(([n, value]) => Array.from({ length: n }, (): Entry => ({ kind: 'num', value: '1' })).concat({ kind: 'num', value })),
  // deep: tuples nested around the 128 bound
  fc.tuple(fc.constantFrom(1, 60, 127, 128, 129, 400), leafEntry).map(([d, e]) => [nested(d, e)]),
  // wide tuples around TVM's 255
  fc.tuple(fc.constantFrom(15, 255, 256), leafEntry).map(([n, e]) => [{ kind: 'tuple', items: Array.from({ length: n }, () => e) } as Entry]),
);

const legacy = (e: Entry): unknown =>
  e.kind === 'num' ? ['num', e.value] : e.kind === 'cell' ? ['tvm.Cell', bocOf(e.tree)] : ['tuple', { elements: e.items.map(std) }];
const std = (e: Entry): unknown =>
  e.kind === 'num'
    ? { '@type': 'tvm.stackEntryNumber', number: { number: e.value } }
    : e.kind === 'cell'
      ? { '@type': 'tvm.stackEntryCell', cell: { bytes: bocOf(e.tree) } }
      : { '@type': 'tvm.stackEntryTuple', tuple: { elements: e.items.map(std) } };
const v3Entry = (e: Entry): unknown => (e.kind === 'num' ? { type: 'num', value: e.value } : e.kind === 'cell' ? { type: 'cell', value: bocOf(e.tree) } : { type: 'tuple', value: [] });
const gqlEntry = (e: Entry): unknown =>
  e.kind === 'num' ? { type: 'NUM', value: e.value } : e.kind === 'cell' ? { type: 'CELL', value: bocOf(e.tree) } : { type: 'TUPLE', items: e.items.map(gqlEntry) };

// ---- cases ----

const json = (label: string, path: string, body: unknown): Case => ({
  label,
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const bocCase: fc.Arbitrary<Case> = fc
  .tuple(tree, fc.constantFrom('sendBoc', 'sendBocReturnHash', 'sendBocReturnHashNoError', 'v2 estimateFee', 'v3 message', 'v3 estimateFee', 'gql sendMessage', 'gql estimateFee'))
  .map(([[name, t], where]) => {
    const label = `${where}: ${name}`;
    switch (where) {
      case 'v2 estimateFee':
        return json(label, '/api/v2/estimateFee', { address: wallet, body: bocOf(t) });
      case 'v3 message':
        return json(label, '/api/v3/message', { boc: messageOf(t) });
      case 'v3 estimateFee':
        return json(label, '/api/v3/estimateFee', { address: wallet, body: bocOf(t) });
      case 'gql sendMessage':
        return json(label, '/graphql', { query: 'mutation($b: Boc!) { sendMessage(boc: $b) { hash } }', variables: { b: messageOf(t) } });
      case 'gql estimateFee':
        return json(label, '/graphql', { query: `query($b: Boc!) { estimateFee(address: "${wallet}", body: $b) { __typename } }`, variables: { b: bocOf(t) } });
      default:
        return json(label, `/api/v2/${where}`, { boc: messageOf(t) });
    }
  });

const stackCase: fc.Arbitrary<Case> = fc
  .tuple(stack, fc.constantFrom('runGetMethod', 'runGetMethodStd', 'v3 runGetMethod', 'gql runGetMethod'), fc.constantFrom('seqno', '85143', '-1', '2147483648', '9223372036854775808'))
  .map(([s, where, method]) => {
    const label = `${where} ${method}: ${s.length} entries`;
    switch (where) {
      case 'runGetMethod':
        return json(label, '/api/v2/runGetMethod', { address: wallet, method, stack: s.map(legacy) });
      case 'runGetMethodStd':
        return json(label, '/api/v2/runGetMethodStd', { address: wallet, method, stack: s.map(std) });
      case 'v3 runGetMethod':
        return json(label, '/api/v3/runGetMethod', { address: wallet, method, stack: s.map(v3Entry) });
      default:
        return json(label, '/graphql', {
          query: 'query($a: Address!, $m: String!, $s: [StackEntryInput!]) { runGetMethod(address: $a, method: $m, stack: $s) { exitCode } }',
          variables: { a: wallet, m: method, s: s.map(gqlEntry) },
        });
    }
  });

/** The reference's own answer for a message the account does not accept (v2.md §3.3); not a trap of the emulator. */
const NOT_ACCEPTED = /^LITE_SERVER_UNKNOWN: cannot apply external message to current state/;

function check(c: Case, a: Answer): void {
  const where = `${describeCase(c)}\n→ ${a.status} ${a.text.slice(0, 400)}`;
  expect(a.text, where).not.toMatch(/memory access out of bounds|internal error|Maximum call stack/i);
  if (c.path === '/graphql') {
    // 400: a variable that does not coerce, 413: a body over GraphQL's 128 KiB
    expect([200, 400, 413], where).toContain(a.status);
    const errors = (a.json as { errors?: { extensions?: { code?: string } }[] }).errors ?? [];
    for (const e of errors) expect(e.extensions?.code, where).not.toBe('INTERNAL_SERVER_ERROR');
    return;
  }
  if (a.status >= 500) expect(String((a.json as { error?: unknown }).error), where).toMatch(NOT_ACCEPTED);
  else expect(a.status === 200 || (a.status >= 400 && a.status < 500), where).toBe(true);
}

describe('generated cell trees and stacks', () => {
  async function run(arb: fc.Arbitrary<Case>, count: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(fc.array(arb.map(printable), { minLength: BATCH, maxLength: BATCH }), async (cases) => {
        for (const [c, a] of await sendBatch(agent, gw.url, cases, tally)) {
          check(c, a);
          tally.add(a.status);
        }
      }),
      { seed: SEED, numRuns: Math.ceil((count * RUNS) / BATCH), endOnFailure: false },
    );
  }

  it('cell trees as messages, bodies and GraphQL Boc arguments: no 5xx from input', async () => {
    await run(bocCase, 240);
  }, 120_000);

  it('stacks, long, deep and mixed, with method ids in and out of range: no 5xx from input', async () => {
    await run(stackCase, 240);
  }, 120_000);

  it('the chain still executes: a get-method answers and /health is 200', async () => {
    await expectHealthy(agent, gw.url);
    const res = await fetch(`${gw.url}/api/v2/runGetMethod`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet, method: 'seqno', stack: [] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { exit_code: number } }).result.exit_code).toBe(0);
  });
});
