/**
 * The reference classifier's own test cases (toncenter/ton-indexer `indexer/tests`, in the shared fixtures'
 * `ton-indexer-cases`, origin in its ORIGINS.md) replayed against the local classifier: each case's recorded
 * trace is classified with what its `interfaces` say about the accounts, and checked as the reference's runner
 * checks it (./indexer-cases/expect.ts). The cases passing now are listed in ./indexer-cases/passing.json: one
 * of them failing is a regression; a newly passing one is printed, to be added (INDEXER_CASES_RATCHET=write).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { classifyTrace, storeOrder, type ClassifiedAction } from '../../src/model/v3/actions/index.js';
import { compareColumns, selects } from './indexer-cases/expect.js';
import { classifierInput, contractInfo, loadTrace } from './indexer-cases/trace.js';
import { fixturePath, withoutShared } from '../helpers/shared.js';

const DIR = pathToFileURL(`${fixturePath('ton-indexer-cases')}/`);
const skip = withoutShared('the reference classifier cases (ton-indexer-cases)');
const PASSING_FILE = new URL('./indexer-cases/passing.json', import.meta.url);
const PASSING = JSON.parse(readFileSync(PASSING_FILE, 'utf8')) as string[];

interface ExpectedAction {
  type: string;
  selector?: string;
  values?: Record<string, unknown>;
}

interface Case {
  'trace-id': string;
  'expected-actions'?: ExpectedAction[];
}

interface Outcome {
  file: string;
  name: string;
  /** per expected action: its type and the first mismatch, or null */
  checks: { type: string; failure: string | null }[];
  notInV3: Set<string>;
}

async function run(file: string, name: string, c: Case): Promise<Outcome> {
  const notInV3 = new Set<string>();
  let actions: ClassifiedAction[];
  try {
    const trace = loadTrace(DIR, c['trace-id']);
    actions = await classifyTrace(classifierInput(trace), contractInfo(trace));
  } catch (e) {
    const failure = `classification failed: ${(e as Error).message}`;
    return { file, name, checks: (c['expected-actions'] ?? []).map((x) => ({ type: x.type, failure })), notInV3 };
  }
  const checks = (c['expected-actions'] ?? []).map((x) => {
    let candidates = actions.filter((a) => a.type.toLowerCase() === x.type.toLowerCase());
    if (x.selector && candidates.length) {
      const picked = candidates.find((a) => selects(a, x.selector!));
      if (!picked) return { type: x.type, failure: `no ${x.type} matched ${x.selector}` };
      candidates = [picked];
    }
    if (candidates.length !== 1) {
      return { type: x.type, failure: `${candidates.length} ${x.type} actions (got ${actions.map((a) => a.type).join(', ') || 'none'})` };
    }
    return { type: x.type, failure: compareColumns(candidates[0]!, x.values ?? {}, notInV3) };
  });
  return { file, name, checks, notInV3 };
}

const key = (o: Pick<Outcome, 'file' | 'name'>): string => `${o.file}: ${o.name}`;
const passed = (o: Outcome): boolean => o.checks.length > 0 && o.checks.every((c) => c.failure === null);

function table(rows: [string, number, number][], title: string): string {
  const width = Math.max(title.length, ...rows.map(([k]) => k.length));
  return [`${title.padEnd(width)}  pass / all`, ...rows.map(([k, p, n]) => `${k.padEnd(width)}  ${String(p).padStart(4)} / ${n}`)].join('\n');
}

describe.skipIf(skip)('the reference classifier cases', () => {
  it('replays every case; those listed as passing still pass', async () => {
    const outcomes: Outcome[] = [];
    for (const file of readdirSync(new URL('test_cases/', DIR)).filter((f) => f.endsWith('.yaml')).sort()) {
      const doc = YAML.parse(readFileSync(new URL(`test_cases/${file}`, DIR), 'utf8'), { intAsBigInt: true }) as { cases?: Record<string, Case> } | null;
      for (const [name, c] of Object.entries(doc?.cases ?? {})) outcomes.push(await run(file, name, c));
    }

    const perFile = new Map<string, [number, number]>();
    const perType = new Map<string, [number, number]>();
    for (const o of outcomes) {
      const f = perFile.get(o.file) ?? [0, 0];
      perFile.set(o.file, [f[0] + (passed(o) ? 1 : 0), f[1] + 1]);
      for (const c of o.checks) {
        const t = perType.get(c.type) ?? [0, 0];
        perType.set(c.type, [t[0] + (c.failure === null ? 1 : 0), t[1] + 1]);
      }
    }
    const passing = outcomes.filter(passed);
    const lines = [
      `reference cases: ${passing.length} of ${outcomes.length} pass`,
      table([...perFile].map(([k, [p, n]]) => [k, p, n]), 'file (cases)'),
      table([...perType].sort(([a], [b]) => a.localeCompare(b)).map(([k, [p, n]]) => [k, p, n]), 'type (expected actions)'),
      'failing:',
      ...outcomes.filter((o) => !passed(o)).map((o) => `  ${key(o)}: ${o.checks.find((c) => c.failure)?.failure ?? 'no expected actions'}`),
      'passing with columns v3 does not print (not compared):',
      ...passing.filter((o) => o.notInV3.size).map((o) => `  ${key(o)}: ${[...o.notInV3].join(', ')}`),
    ];
    // INDEXER_CASES_RATCHET=write records the passing cases as the new floor
    if (process.env.INDEXER_CASES_RATCHET === 'write') writeFileSync(PASSING_FILE, `${JSON.stringify(passing.map(key).sort(), null, 2)}\n`);
    const fresh = passing.map(key).filter((k) => !PASSING.includes(k));
    if (fresh.length) lines.push('newly passing (add to indexer-cases/passing.json):', ...fresh.map((k) => `  ${JSON.stringify(k)}`));
    console.log(lines.join('\n'));

    expect(outcomes.length).toBe(138);
    const regressed = PASSING.filter((k) => !passing.some((o) => key(o) === k));
    expect(regressed).toEqual([]);
    expect(passing.length).toBeGreaterThanOrEqual(PASSING.length);
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
