/**
 * GraphQL list arguments follow their v3 route's params: every argument of a list field named like one of the
 * route's params (wire name in camelCase) has that param's GraphQL type and default, whether generated
 * (route-args.ts) or still written by hand. Read from the built schema, so an argument restated with another
 * type, or a descriptor changed without its field, fails here.
 */
import { getNamedType, GraphQLEnumType, type GraphQLArgument } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fieldOf } from '../../../src/api/descriptor.js';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { GRAPHQL_TYPE } from '../../../src/surfaces/graphql/route-args.js';
import { schema } from '../../../src/surfaces/graphql/schema.js';

/** Query list fields and the route whose filters they take. */
const FIELDS: [field: string, path: string][] = [
  ['transactions', '/transactions'],
  ['blocks', '/blocks'],
  ['messages', '/messages'],
  ['traces', '/traces'],
  ['actions', '/actions'],
];

describe('GraphQL list arguments follow the descriptors', () => {
  const query = schema.getQueryType()!.getFields();

  it.each(FIELDS)('Query.%s against %s', (name, path) => {
    const d = V3_DESCRIPTORS.find((r) => r.path === path)!;
    const args = new Map<string, GraphQLArgument>(query[name]!.args.map((a) => [a.name, a]));
    let compared = 0;
    for (const [wire, spec] of Object.entries(d.params)) {
      const arg = args.get(fieldOf(wire, spec));
      const type = GRAPHQL_TYPE[spec.kind];
      if (!arg || !type) continue;
      compared++;
      const named = getNamedType(arg.type);
      // free text the route checks (direction) may be an enum here: each of its values passes the route's check
      if (spec.kind === 'string' && named instanceof GraphQLEnumType) {
        for (const v of named.getValues()) expect(() => spec.check?.(v.value), `${name}(${arg.name}) ${v.name}`).not.toThrow();
        continue;
      }
      expect(named.name, `${name}(${arg.name}) vs ${path} ${wire}`).toBe(type);
      if (spec.default !== undefined && !spec.list) expect(arg.defaultValue, `${name}(${arg.name}) default`).toEqual(spec.default);
    }
    // the field shares filters with its route: at least the lt window
    expect(compared).toBeGreaterThanOrEqual(2);
  });

  it('the generated filters of transactions, blocks and messages are those of today’s schema', () => {
    const names = (field: string) => query[field]!.args.map((a) => `${a.name}: ${a.type.toString()}`);
    expect(names('transactions')).toEqual(
      expect.arrayContaining(['account: Address', 'workchain: Int', 'seqno: Int', 'mcSeqno: Int', 'startUtime: Int', 'endUtime: Int', 'startLt: BigInt', 'endLt: BigInt']),
    );
    expect(names('blocks')).toEqual(expect.arrayContaining(['workchain: Int', 'seqno: Int', 'mcSeqno: Int', 'startLt: BigInt', 'endLt: BigInt']));
    expect(query.blocks!.args.find((a) => a.name === 'mcSeqno')!.description).toBe('Only blocks committed by this masterchain block.');
    expect(names('messages')).toEqual(
      expect.arrayContaining(['source: Address', 'destination: Address', 'bodyHash: Hash', 'excludeExternals: Boolean', 'onlyExternals: Boolean']),
    );
  });
});
