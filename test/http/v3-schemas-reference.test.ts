/**
 * The served v3 response schemas are the project's own (src/surfaces/rest/v3-response-schemas.json, generated
 * from the wire types of src/api/v3 by scripts/v3-response-schemas.ts). Here: the committed file is what the
 * generator makes of today's types, and, where ../shared is beside the clone, the schemas agree with toncenter's
 * published ones (../shared/reference/v3-openapi.json with the corrections listed in test/helpers/openapi.ts),
 * route by route and member by member, except for the differences documented below.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { V3_DESCRIPTORS, V3_PREFIX } from '../../src/api/v3/index.js';
import { responseShape, v3Definitions } from '../../src/surfaces/rest/v3-schemas.js';
import { V3_SCHEMAS_FILE, v3SchemasText } from '../../scripts/v3-response-schemas.js';
import { correctedReferenceDefinitions, referenceSpec } from '../helpers/openapi.js';
import { withoutShared } from '../helpers/shared.js';

type Json = Record<string, any>;

const noShared = withoutShared('the v3 response schemas against the reference openapi');

/** Our definitions the reference spells otherwise (beyond case and its `index.` prefix). */
const OUR_NAME_IN_REFERENCE: Record<string, string> = { MultisigOrderAction: 'index.OrderAction', V3StackEntry: 'V2StackEntity' };

/**
 * Where the project's schemas and the corrected reference differ on purpose, `Definition.member: why`; the
 * comparison must find exactly these.
 */
const DOCUMENTED: Record<string, string> = {
  'TokenInfo.is_nsfw': 'added by the indexer in 1.2.10 (v3.md §2.5 metadata, address_metadata_flags); the reference is 1.2.4',
  'TokenInfo.is_scam': 'the same',
  'TraceNode.in_msg': 'declared by the reference, never printed: a trace node is {tx_hash, in_msg_hash, children} (v3.md §2.6), the transactions are under `transactions`',
  'TraceNode.transaction': 'the same',
  'ActionsResponse.next_cursor': 'a feature branch\'s member (toncenter-newer.md §7), answered only with V3_BRANCH_FEATURES=actions-cursor',
};

const canonical = (name: string): string => (OUR_NAME_IN_REFERENCE[name] ?? name).replace(/^index\./, '').toLowerCase();

/** What a member is, comparable across the two: a named object by canonical name, maps and bare objects alike. */
function kind(s: Json | undefined, defs: Record<string, Json>): string {
  if (!s) return 'absent';
  if (s.$ref) {
    const name = String(s.$ref).replace('#/definitions/', '');
    const target = defs[name];
    // a definition that is only a map (ExtraCurrencies, AddressBook) compares by what it is
    return target && !target.properties && !target.anyOf ? kind(target, defs) : `ref:${canonical(name)}`;
  }
  if (s.allOf) return kind(s.allOf[0], defs);
  if (s.anyOf) return 'union';
  if (s.type === 'array') return `array<${kind(s.items, defs)}>`;
  if (s.type === 'object' && !s.properties) return 'object';
  return s.type ?? 'any';
}

/** Each member of a definition with the kinds it has (a union's branches may each have it). */
function members(def: Json, defs: Record<string, Json>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const branch of def.anyOf ?? [def]) {
    const b = branch.$ref ? defs[String(branch.$ref).replace('#/definitions/', '')]! : branch;
    for (const [k, v] of Object.entries((b.properties ?? {}) as Record<string, Json>)) {
      if (!out.has(k)) out.set(k, new Set());
      out.get(k)!.add(kind(v, defs));
    }
  }
  return out;
}

/** `Definition.member: ours X, reference Y` for every member where they differ. */
function differences(own: Record<string, Json>, ref: Record<string, Json>): Map<string, string> {
  const refByName = new Map(Object.keys(ref).map((n) => [canonical(n), n]));
  const out = new Map<string, string>();
  for (const [name, def] of Object.entries(own)) {
    const refName = refByName.get(canonical(name));
    if (!refName) continue; // action details and other types the reference leaves untyped
    const ours = members(def, own);
    const theirs = members(ref[refName]!, ref);
    for (const m of new Set([...ours.keys(), ...theirs.keys()])) {
      const a = [...(ours.get(m) ?? ['absent'])].sort().join(' | ');
      const b = [...(theirs.get(m) ?? ['absent'])].sort().join(' | ');
      if (b === 'any' && a !== 'absent') continue; // the reference says nothing of its type
      if (a !== b) out.set(`${name}.${m}`, `ours ${a}, reference ${b}`);
    }
  }
  return out;
}

describe('the v3 response schemas', () => {
  it('are what the generator makes of the types in src/api/v3 today (run `npm run v3-schemas` after changing them)', () => {
    expect(readFileSync(V3_SCHEMAS_FILE, 'utf8') === v3SchemasText(), 'src/surfaces/rest/v3-response-schemas.json is stale').toBe(true);
  }, 180_000);

  it('define every route answer, named as its descriptor names it', () => {
    const own = v3Definitions();
    for (const r of V3_DESCRIPTORS) expect(own[responseShape(r.response).name], r.path).toBeDefined();
  });

  it('a member the types do not have is caught by the comparison (it can fail)', () => {
    const own = v3Definitions();
    (own.Transaction!.properties as Json).misspelt_lt = { type: 'string' };
    (own.Block!.properties as Json).seqno = { type: 'string' };
    const found = differences(own, v3Definitions());
    expect([...found.keys()].sort()).toEqual(['Block.seqno', 'Transaction.misspelt_lt']);
  });
});

describe.skipIf(noShared)('the v3 response schemas against the reference openapi', () => {
  it('every route answers the definition the reference gives its path (after the path corrections)', () => {
    const corrections: Record<string, string> = {
      '/masterchainBlockShards': 'BlocksResponse',
      '/masterchainBlockShardState': 'BlocksResponse',
      '/runGetMethod': 'V2RunGetMethodResult',
      '/events': 'DeprecatedEventsResponse',
    };
    const paths = referenceSpec().paths;
    let compared = 0;
    for (const r of V3_DESCRIPTORS) {
      const op = paths[`${V3_PREFIX}${r.path}`]?.[r.methods[0].toLowerCase()];
      const schema = op?.responses?.['200']?.schema as Json | undefined;
      if (!schema) continue; // a route the reference does not list (v3.md names it)
      const referenced = schema.$ref ?? (schema.type === 'array' ? `${schema.items.$ref}[]` : undefined);
      const theirs = corrections[r.path] ?? String(referenced).replace('#/definitions/', '');
      expect(canonical(responseShape(r.response).name), r.path).toBe(canonical(responseShape(theirs).name));
      expect(responseShape(r.response).array, r.path).toBe(responseShape(theirs).array);
      compared += 1;
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('every definition the reference has agrees with ours member by member, except the documented differences', () => {
    const found = differences(v3Definitions(), correctedReferenceDefinitions());
    expect(Object.fromEntries(found)).toEqual(
      Object.fromEntries(Object.keys(DOCUMENTED).map((k) => [k, found.get(k) ?? 'documented but not found'])),
    );
  });

  it('every definition the reference gives a route answer has its counterpart among ours', () => {
    const own = new Set(Object.keys(v3Definitions()).map(canonical));
    const missing = Object.keys(correctedReferenceDefinitions())
      .filter((n) => !/Request$|^RequestError$/.test(n)) // request bodies are in the operations; errors are V3Error
      .filter((n) => !own.has(canonical(n)));
    expect(missing).toEqual([]);
  });
});
