/**
 * Every action of the 14 recorded mainnet traces (../shared/fixtures/real, origin in its README) read through the
 * graph in upstream mode, in front of a loopback toncenter that serves the recorded /traces answers verbatim:
 * each one's details arrive as their typed union member (never OtherActionDetails), with no errors, and equal
 * to the recorded JSON key by key. The selection is generated from the schema: every field of every details
 * type names its v3 key in its description (`v3 \`key\``), which maps the answer back onto the recorded JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { graphql, loadRecordedTraces, RecordedTracesServer, type RecordedTrace } from '../../helpers/recorded-traces.js';
import { withoutShared } from '../../helpers/shared.js';
import { startUpstreamGateway } from '../../sources/upstream/helpers.js';

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  description: string | null;
  type: TypeRef;
}
interface SchemaType {
  name: string;
  kind: string;
  fields: Field[] | null;
  possibleTypes: Array<{ name: string }> | null;
}

const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);
const isList = (t: TypeRef): boolean => t.kind === 'LIST' || (t.kind === 'NON_NULL' && isList(t.ofType!));
const v3Key = (f: Field): string | undefined => /^v3 `([a-z0-9_]+)`/.exec(f.description ?? '')?.[1];
const linked = (f: Field): boolean => /linked\)?$/.test(f.description ?? '');

const noShared = withoutShared('recorded mainnet action details through the graph');
let recorded: RecordedTrace[];
let upstream: RecordedTracesServer;
let gateway: Gateway;
let url: string;
let types: Map<string, SchemaType>;

beforeAll(async () => {
  if (noShared) return;
  recorded = loadRecordedTraces();
  upstream = new RecordedTracesServer(recorded);
  gateway = await startUpstreamGateway(await upstream.start(), { UPSTREAM_RPS: '0' });
  url = gateway.url;
  const res = await graphql(
    url,
    `{ __schema { types { name kind possibleTypes { name }
        fields { name description type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`,
  );
  types = new Map((res.data!.__schema.types as SchemaType[]).map((t) => [t.name, t]));
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await upstream?.stop();
});

/** The selection of a details (or nested struct) type: scalars, `{ address }` of accounts, links by typename. */
function selection(typeName: string): string {
  const t = types.get(typeName)!;
  return t.fields!
    .map((f) => {
      const inner = named(f.type);
      const field = f.name;
      if (inner.kind === 'SCALAR' || inner.kind === 'ENUM') return field;
      if (inner.name === 'Account') return `${field} { address }`;
      if (linked(f)) return `${field} { __typename }`;
      return `${field} { ${selection(inner.name!)} }`;
    })
    .join(' ');
}

/** The answer of a details (or nested struct) object put back in v3 form: one member per v3 key. */
function asV3(typeName: string, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of types.get(typeName)!.fields!) {
    const key = v3Key(f);
    expect(key, `${typeName}.${f.name} names its v3 key`).toBeDefined();
    if (linked(f)) continue;
    const inner = named(f.type);
    const v = value[f.name];
    if (v === null || v === undefined || inner.kind === 'SCALAR') out[key!] = v ?? null;
    else if (inner.name === 'Account') out[key!] = isList(f.type) ? (v as Array<{ address: string }>).map((a) => a.address) : (v as { address: string }).address;
    else if (inner.name === 'ActionExtraCurrency') out[key!] = Object.fromEntries((v as Array<{ id: string; amount: string }>).map((c) => [c.id, c.amount]));
    else if (isList(f.type)) out[key!] = (v as Record<string, unknown>[]).map((x) => asV3(inner.name!, x));
    else out[key!] = asV3(inner.name!, v as Record<string, unknown>);
  }
  return out;
}

/** The recorded JSON in the scalars' output form: numbers the schema prints as BigInt strings stay comparable. */
const normalise = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(normalise) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x)])) : v;

/** The answer's members for the recorded keys, and every member the recording lacks null. */
function compare(where: string, got: Record<string, unknown>, want: Record<string, unknown>): void {
  for (const [k, w] of Object.entries(want)) {
    expect(k in got, `${where}: recorded key ${k} has a field`).toBe(true);
    const g = got[k];
    if (w && typeof w === 'object' && !Array.isArray(w) && g && typeof g === 'object' && !Array.isArray(g)) {
      compare(`${where}.${k}`, g as Record<string, unknown>, w as Record<string, unknown>);
    } else if (Array.isArray(w) && w.some((x) => x && typeof x === 'object')) {
      expect((g as unknown[]).length, `${where}.${k}`).toBe(w.length);
      w.forEach((x, i) => compare(`${where}.${k}[${i}]`, (g as Record<string, unknown>[])[i]!, x as Record<string, unknown>));
    } else {
      expect(g, `${where}.${k}`).toEqual(typeof w === 'number' && typeof g === 'string' ? String(w) : w);
    }
  }
  for (const [k, g] of Object.entries(got)) if (!(k in want)) expect(g, `${where}.${k} is not recorded, so null`).toBeNull();
}

describe.skipIf(noShared)('recorded mainnet action details through the graph', () => {
  it('the union has a typed member for every action type and the fallback', () => {
    const members = types.get('ActionDetails')!.possibleTypes!.map((p) => p.name);
    expect(members).toContain('OtherActionDetails');
    expect(members.length).toBeGreaterThan(60);
    for (const m of members.filter((x) => x !== 'OtherActionDetails')) for (const f of types.get(m)!.fields!) expect(v3Key(f), `${m}.${f.name}`).toBeDefined();
  });

  it('every recorded action arrives typed, without errors, equal to the recorded details', async () => {
    let compared = 0;
    const seenTypes = new Set<string>();
    for (const r of recorded) {
      const trace = r.answer.traces[0]!;
      // one union member per document: members share field names of other types, and the gateway caps aliases
      const first = await graphql(url, `query($id: Hash!) { trace(id: $id) { actions { details { __typename } } } }`, { id: trace.trace_id });
      expect(first.errors, r.file).toBeUndefined();
      const members = new Set<string>(first.data!.trace.actions.map((a: { details: { __typename: string } }) => a.details.__typename));
      const byMember = new Map<string, Array<{ actionId: string; type: string; detailsJson: string; details: Record<string, unknown> & { __typename: string } }>>();
      for (const m of members) {
        const res = await graphql(url, `query($id: Hash!) { trace(id: $id) { actions { actionId type detailsJson details { __typename ... on ${m} { ${selection(m)} } } } } }`, {
          id: trace.trace_id,
        });
        expect(res.errors, `${r.file} ${m}`).toBeUndefined();
        byMember.set(m, res.data!.trace.actions);
      }
      const listed = first.data!.trace.actions as Array<{ details: { __typename: string } }>;
      expect(listed.length, r.file).toBe(trace.actions.length);
      for (const [i, { details }] of listed.entries()) {
        const a = byMember.get(details.__typename)![i]!;
        const want = trace.actions[i]!;
        expect(a.actionId).toBe(want.action_id);
        expect(a.type).toBe(want.type);
        expect(a.details.__typename, `${r.file} ${want.type}`).not.toBe('OtherActionDetails');
        expect(JSON.parse(a.detailsJson)).toEqual(want.details);
        compare(`${r.file} ${want.type}`, asV3(a.details.__typename, a.details), normalise(want.details) as Record<string, unknown>);
        seenTypes.add(want.type);
        compared++;
      }
    }
    expect(compared).toBe(recorded.reduce((n, r) => n + r.answer.traces[0]!.actions.length, 0));
    expect([...seenTypes].sort()).toEqual(
      expect.arrayContaining(['change_dns', 'dex_deposit_liquidity', 'dex_withdraw_liquidity', 'jetton_swap', 'stake_deposit', 'stake_withdrawal_request']),
    );
  }, 60_000);
});
