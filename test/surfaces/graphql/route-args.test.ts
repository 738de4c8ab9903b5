/**
 * GraphQL list arguments follow their v3 route's params: every argument of a list field other than the
 * connection's paging comes from one of the route's params (route-args.ts tags it with the wire name), with
 * that param's GraphQL type and default, or a richer form of the same value (an enum whose values the route
 * accepts, a shard or opcode as text, a repeatable param taken whole). Read from the built schema, so an
 * argument restated by hand, one with another type, or a descriptor changed without its field, fails here.
 */
import { getNamedType, GraphQLEnumType, GraphQLList, getNullableType, type GraphQLArgument } from 'graphql';
import { describe, expect, it } from 'vitest';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { GRAPHQL_TYPE } from '../../../src/surfaces/graphql/route-args.js';
import { schema } from '../../../src/surfaces/graphql/schema.js';

/** List fields (type.field) and the route whose filters they take. */
const FIELDS: [field: string, path: string][] = [
  ['Query.transactions', '/transactions'],
  ['Query.blocks', '/blocks'],
  ['Query.messages', '/messages'],
  ['Query.traces', '/traces'],
  ['Query.actions', '/actions'],
  ['Query.jettonMasters', '/jetton/masters'],
  ['Query.jettonWallets', '/jetton/wallets'],
  ['Query.jettonTransfers', '/jetton/transfers'],
  ['Query.jettonBurns', '/jetton/burns'],
  ['Query.nftCollections', '/nft/collections'],
  ['Query.nftItems', '/nft/items'],
  ['Query.nftTransfers', '/nft/transfers'],
  ['Account.transactions', '/transactions'],
  ['Account.jettonWallets', '/jetton/wallets'],
  ['Account.jettonTransfers', '/jetton/transfers'],
  ['Account.nftTransfers', '/nft/transfers'],
  ['JettonMaster.wallets', '/jetton/wallets'],
];

const PAGING = new Set(['first', 'after', 'last', 'before']);
/** Kinds GraphQL takes as text in any of their forms, parsed by the field's resolver. */
const AS_TEXT = new Set(['ShardId', 'OpcodeType']);

function argsOf(field: string): readonly GraphQLArgument[] {
  const [type, name] = field.split('.') as [string, string];
  const fields = (schema.getType(type) as { getFields?: () => Record<string, { args: readonly GraphQLArgument[] }> }).getFields?.();
  const f = fields?.[name];
  if (!f) throw new Error(`no field ${field}`);
  return f.args;
}

describe('GraphQL list arguments follow the descriptors', () => {
  it.each(FIELDS)('%s against %s', (field, path) => {
    const d = V3_DESCRIPTORS.find((r) => r.path === path)!;
    const filters = argsOf(field).filter((a) => !PAGING.has(a.name));
    expect(filters.length, `${field} takes filters`).toBeGreaterThanOrEqual(1);
    for (const arg of filters) {
      const what = `${field}(${arg.name})`;
      const wire = arg.extensions['wire'];
      expect(typeof wire, `${what} is generated from a param of ${path}`).toBe('string');
      const spec = d.params[wire as string];
      expect(spec, `${what}: ${path} has a param ${String(wire)}`).toBeDefined();
      const named = getNamedType(arg.type);
      if (getNullableType(arg.type) instanceof GraphQLList) {
        // a repeatable param taken whole
        expect(spec!.list, `${what} is a list only for a repeatable param`).toBe(true);
        expect(named.name).toBe(GRAPHQL_TYPE[spec!.kind]);
      } else if (named instanceof GraphQLEnumType) {
        // free text the route checks (direction): each of the enum's values passes the route's check
        expect(spec!.kind).toBe('string');
        for (const v of named.getValues()) expect(() => spec!.check?.(v.value), `${what} ${v.name}`).not.toThrow();
      } else if (AS_TEXT.has(spec!.kind)) {
        expect(named.name, what).toBe('String');
      } else {
        expect(named.name, `${what} vs ${path} ${String(wire)}`).toBe(GRAPHQL_TYPE[spec!.kind]);
      }
      if (spec!.default !== undefined && !spec!.list) expect(arg.defaultValue, `${what} default`).toEqual(spec!.default);
      else expect(arg.defaultValue, `${what} has no default of its own`).toBeUndefined();
    }
  });

  // one change from the hand-written schema: excludeZeroBalance had `= false`, a default /jetton/wallets does
  // not declare (absent is no filter there and in the resolvers alike)
  it('the generated filters are those of the schema before generation: names, types and defaults', () => {
    // sorted: the schema is printed in lexicographic order
    const names = (field: string) =>
      argsOf(field)
        .map((a) => `${a.name}: ${a.type.toString()}${a.defaultValue === undefined ? '' : ` = ${String(a.defaultValue)}`}`)
        .sort();
    expect(names('Query.transactions')).toEqual(
      expect.arrayContaining(['account: Address', 'workchain: Int', 'shard: String', 'seqno: Int', 'mcSeqno: Int', 'startUtime: Int', 'endUtime: Int', 'startLt: BigInt', 'endLt: BigInt']),
    );
    expect(names('Query.blocks')).toEqual(expect.arrayContaining(['workchain: Int', 'shard: String', 'seqno: Int', 'mcSeqno: Int', 'startLt: BigInt', 'endLt: BigInt']));
    expect(argsOf('Query.blocks').find((a) => a.name === 'mcSeqno')!.description).toBe('Only blocks committed by this masterchain block.');
    expect(names('Query.messages')).toEqual(
      expect.arrayContaining(['source: Address', 'destination: Address', 'bodyHash: Hash', 'opcode: String', 'direction: MessageDirection', 'excludeExternals: Boolean', 'onlyExternals: Boolean']),
    );
    expect(names('Query.traces')).toEqual(['first: Int', 'after: String', 'last: Int', 'before: String', 'account: Address', 'transactionHash: Hash', 'messageHash: Hash', 'startLt: BigInt', 'endLt: BigInt'].sort());
    expect(names('Query.actions')).toEqual(expect.arrayContaining(['traceId: Hash', 'transactionHash: Hash', 'types: [String!]', 'excludeTypes: [String!]', 'supportedActionTypes: [String!]']));
    expect(names('Query.jettonMasters')).toEqual(['first: Int', 'after: String', 'admin: Address'].sort());
    expect(names('Query.jettonWallets')).toEqual(['first: Int', 'after: String', 'owner: Address', 'jetton: Address', 'excludeZeroBalance: Boolean'].sort());
    expect(names('JettonMaster.wallets')).toEqual(['first: Int', 'after: String', 'excludeZeroBalance: Boolean'].sort());
    expect(names('Query.jettonTransfers')).toEqual(expect.arrayContaining(['startLt: BigInt', 'endLt: BigInt', 'owner: Address', 'jetton: Address', 'direction: TransferDirection']));
    expect(names('Query.jettonBurns')).toEqual(expect.arrayContaining(['owner: Address', 'jetton: Address']));
    expect(names('Query.nftCollections')).toEqual(['first: Int', 'after: String', 'owner: Address'].sort());
    expect(names('Query.nftItems')).toEqual(['first: Int', 'after: String', 'owner: Address', 'collection: Address'].sort());
    expect(names('Query.nftTransfers')).toEqual(expect.arrayContaining(['owner: Address', 'item: Address', 'collection: Address', 'direction: TransferDirection']));
  });
});
