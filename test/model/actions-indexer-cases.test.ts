/**
 * The reference classifier's own test cases (toncenter/ton-indexer `indexer/tests`, in the shared fixtures'
 * `ton-indexer-cases`, origin in its ORIGINS.md) replayed against the local classifier: each case's recorded
 * trace is classified with what its `interfaces` say about the accounts, and checked as the reference's runner
 * checks it (./indexer-cases/expect.ts): its `expected-blocks` against the blocks the matchers leave
 * (./indexer-cases/blocks.ts), its `expected-actions` against the actions (./indexer-cases/columns.ts).
 *
 * Two ratchets: ./indexer-cases/passing.json lists the cases that pass (one failing is a regression; a newly
 * passing one is printed, to be added), ./indexer-cases/uncompared.json every expected value the local side has no
 * counterpart of, by case (`action <type>: <column>`, `block <type>: <member>`). That list may only shrink: a
 * value newly left uncompared fails, and so does a listed one that is compared now (take it off).
 * `INDEXER_CASES_RATCHET=write` rewrites both, the first with the passing cases and the second with what is still
 * uncompared of what it lists, and refuses while a listed case fails.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { classifyTrace, storeOrder, traceBlocks, type Block, type ClassifiedAction } from '../../src/model/v3/actions/index.js';
import { blockComposite, blockValue } from './indexer-cases/blocks.js';
import { actionComposite, columnValue, compareColumns, selects } from './indexer-cases/expect.js';
import { classifierInput, contractInfo, loadTrace } from './indexer-cases/trace.js';
import { fixturePath, withoutShared } from '../helpers/shared.js';

const DIR = pathToFileURL(`${fixturePath('ton-indexer-cases')}/`);
const skip = withoutShared('the reference classifier cases (ton-indexer-cases)');
const PASSING_FILE = new URL('./indexer-cases/passing.json', import.meta.url);
const UNCOMPARED_FILE = new URL('./indexer-cases/uncompared.json', import.meta.url);
const WRITE = process.env.INDEXER_CASES_RATCHET === 'write';

interface Expected {
  type: string;
  selector?: string;
  values?: Record<string, unknown>;
  /** one case spells its block's values so (the reference's runner then checks only that the block is there) */
  'values.data'?: unknown;
}

interface Case {
  'trace-id': string;
  'expected-blocks'?: Expected[];
  'expected-actions'?: Expected[];
}

type Kind = 'action' | 'block';

interface Check {
  kind: Kind;
  type: string;
  /** the first mismatch, or null */
  failure: string | null;
  /** the expected values with no local counterpart; null when no single candidate was found to compare with */
  uncompared: string[] | null;
}

interface Outcome {
  file: string;
  name: string;
  checks: Check[];
}

const key = (o: Pick<Outcome, 'file' | 'name'>): string => `${o.file}: ${o.name}`;
const passed = (o: Outcome): boolean => o.checks.length > 0 && o.checks.every((c) => c.failure === null);
const pair = (kind: Kind, type: string, path: string): string => `${kind} ${type}: ${path}`;

/** One expected action or block among the local ones of its type (the one its selector picks, if it has one). */
function checkOne<T>(kind: Kind, x: Expected, all: readonly T[], typeOf: (t: T) => string, reader: (t: T) => (path: string) => unknown, composite: (column: string) => boolean): Check {
  let candidates = all.filter((t) => typeOf(t).toLowerCase() === x.type.toLowerCase());
  if (x.selector && candidates.length) {
    const picked = candidates.find((t) => selects(reader(t), x.selector!));
    if (!picked) return { kind, type: x.type, failure: `no ${x.type} ${kind} matched ${x.selector}`, uncompared: null };
    candidates = [picked];
  }
  if (candidates.length !== 1) {
    return { kind, type: x.type, failure: `${candidates.length} ${x.type} ${kind}s (got ${all.map(typeOf).join(', ') || 'none'})`, uncompared: null };
  }
  // the misspelt `values.data` is read as meant, so those values are compared where the reference checks none
  const values = x.values ?? (x['values.data'] !== undefined ? { data: x['values.data'] } : {});
  return { kind, type: x.type, ...compareColumns(reader(candidates[0]!), values, composite) };
}

async function run(file: string, name: string, c: Case): Promise<Outcome> {
  const blocksExpected = c['expected-blocks'] ?? [];
  const actionsExpected = c['expected-actions'] ?? [];
  let blocks: Block[];
  let actions: ClassifiedAction[];
  try {
    const trace = loadTrace(DIR, c['trace-id']);
    const info = contractInfo(trace);
    blocks = blocksExpected.length ? await traceBlocks(classifierInput(trace), info) : [];
    actions = await classifyTrace(classifierInput(trace), info);
  } catch (e) {
    const failure = `classification failed: ${(e as Error).message}`;
    const failed = (kind: Kind) => (x: Expected): Check => ({ kind, type: x.type, failure, uncompared: null });
    return { file, name, checks: [...blocksExpected.map(failed('block')), ...actionsExpected.map(failed('action'))] };
  }
  const checks = [
    ...blocksExpected.map((x) => checkOne('block', x, blocks, (b) => b.type, (b) => (p) => blockValue(b, p), blockComposite)),
    ...actionsExpected.map((x) => checkOne('action', x, actions, (a) => a.type, (a) => (p) => columnValue(a, p), actionComposite)),
  ];
  return { file, name, checks };
}

function table(rows: [string, number, number][], title: string): string {
  const width = Math.max(title.length, ...rows.map(([k]) => k.length));
  return [`${title.padEnd(width)}  pass / all`, ...rows.map(([k, p, n]) => `${k.padEnd(width)}  ${String(p).padStart(4)} / ${n}`)].join('\n');
}

const tally = (rows: Map<string, [number, number]>, k: string, ok: boolean): void => {
  const t = rows.get(k) ?? [0, 0];
  rows.set(k, [t[0] + (ok ? 1 : 0), t[1] + 1]);
};

/**
 * The uncompared ratchet against this run: what is newly uncompared, what the file lists that is compared now (or
 * whose case is gone), and the file as it may be rewritten (its entries still uncompared, plus those of an expected
 * item that found no candidate, which this run could not judge).
 */
function uncomparedRatchet(outcomes: readonly Outcome[], listed: Readonly<Record<string, string[]>>) {
  const fresh: string[] = [];
  const stale: string[] = [];
  const kept: Record<string, string[]> = {};
  const byCase = new Map(outcomes.map((o) => [key(o), o]));
  for (const k of Object.keys(listed)) if (!byCase.has(k)) stale.push(...listed[k]!.map((p) => `${k} | ${p}`));
  for (const [k, o] of byCase) {
    const now = new Set(o.checks.flatMap((c) => (c.uncompared ?? []).map((p) => pair(c.kind, c.type, p))));
    const unjudged = o.checks.filter((c) => c.uncompared === null).map((c) => pair(c.kind, c.type, ''));
    const before = listed[k] ?? [];
    for (const p of now) if (!before.includes(p)) fresh.push(`${k} | ${p}`);
    const still = before.filter((p) => now.has(p) || unjudged.some((prefix) => p.startsWith(prefix)));
    for (const p of before) if (!still.includes(p)) stale.push(`${k} | ${p}`);
    if (still.length) kept[k] = [...still].sort();
  }
  return { fresh, stale, kept };
}

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

describe.skipIf(skip)('the reference classifier cases', () => {
  it('replays every case; those listed as passing still pass, and what is not compared only shrinks', async () => {
    const outcomes: Outcome[] = [];
    for (const file of readdirSync(new URL('test_cases/', DIR)).filter((f) => f.endsWith('.yaml')).sort()) {
      const doc = YAML.parse(readFileSync(new URL(`test_cases/${file}`, DIR), 'utf8'), { intAsBigInt: true }) as { cases?: Record<string, Case> } | null;
      for (const [name, c] of Object.entries(doc?.cases ?? {})) outcomes.push(await run(file, name, c));
    }
    expect(outcomes.length).toBe(138);

    const passingListed = JSON.parse(readFileSync(PASSING_FILE, 'utf8')) as string[];
    const uncomparedListed = JSON.parse(readFileSync(UNCOMPARED_FILE, 'utf8')) as Record<string, string[]>;
    const passing = outcomes.filter(passed);
    const regressed = passingListed.filter((k) => !passing.some((o) => key(o) === k));
    const ratchet = uncomparedRatchet(outcomes, uncomparedListed);
    if (WRITE) {
      expect(regressed, 'INDEXER_CASES_RATCHET=write: not written while listed cases fail').toEqual([]);
      writeFileSync(PASSING_FILE, json(passing.map(key).sort()));
      writeFileSync(UNCOMPARED_FILE, json(ratchet.kept));
    }

    const perFile = new Map<string, [number, number]>();
    const perType = new Map<string, [number, number]>();
    for (const o of outcomes) {
      tally(perFile, o.file, passed(o));
      for (const c of o.checks) tally(perType, `${c.kind} ${c.type}`, c.failure === null);
    }
    const blockChecks = outcomes.flatMap((o) => o.checks.filter((c) => c.kind === 'block'));
    const uncomparedCount = Object.values(ratchet.kept).reduce((n, l) => n + l.length, 0);
    const fresh = passing.map(key).filter((k) => !passingListed.includes(k));
    console.log(
      [
        `reference cases: ${passing.length} of ${outcomes.length} pass`,
        `expected blocks: ${blockChecks.filter((c) => c.failure === null).length} of ${blockChecks.length} pass, in ${outcomes.filter((o) => o.checks.some((c) => c.kind === 'block')).length} cases`,
        `expected values not compared (no local counterpart): ${uncomparedCount}, in ${Object.keys(ratchet.kept).length} cases`,
        table([...perFile].map(([k, [p, n]]) => [k, p, n]), 'file (cases)'),
        table([...perType].sort(([a], [b]) => a.localeCompare(b)).map(([k, [p, n]]) => [k, p, n]), 'expected block or action'),
        'failing:',
        ...outcomes.filter((o) => !passed(o)).map((o) => `  ${key(o)}: ${o.checks.find((c) => c.failure)?.failure ?? 'nothing expected'}`),
        ...(fresh.length ? ['newly passing (INDEXER_CASES_RATCHET=write adds them to indexer-cases/passing.json):', ...fresh.map((k) => `  ${JSON.stringify(k)}`)] : []),
      ].join('\n'),
    );

    expect(regressed).toEqual([]);
    expect(passing.length).toBeGreaterThanOrEqual(passingListed.length);
    expect(ratchet.fresh, 'newly uncompared: compare them (indexer-cases/columns.ts, blocks.ts)').toEqual([]);
    if (!WRITE) expect(ratchet.stale, 'compared now: take them off indexer-cases/uncompared.json').toEqual([]);
  }, 120_000);

  it("lists every recorded transaction's messages in the order the classifier visits them (storeOrder)", () => {
    // the recorder dumped each transaction's messages as the reference's database returned them, which is the
    // order the reference's matchers see a transaction's children in
    let checked = 0;
    const unordered: string[] = [];
    for (const file of readdirSync(new URL('traces/', DIR)).filter((f) => f.endsWith('.lz4'))) {
      for (const tx of loadTrace(DIR, file.slice(0, -'.lz4'.length)).transactions) {
        if (tx.messages.length < 2) continue;
        checked++;
        const hashes = tx.messages.map((m) => m.msg_hash);
        if ([...hashes].sort(storeOrder).join() !== hashes.join()) unordered.push(`${file} ${tx.hash}`);
      }
    }
    expect(unordered).toEqual([]);
    expect(checked).toBe(962);
  });
});
