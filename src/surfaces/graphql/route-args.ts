/**
 * GraphQL arguments generated from a v3 route's params, so a list field says "these filters of /transactions"
 * instead of restating them: the wire name in camelCase, the GraphQL type of the param's kind, its description
 * and default as declared. A repeatable param is one value here (the field asks for one account, say); the
 * resolver wraps it. Paging stays the connection's (first/after/last/before); the seam call is then resolved
 * from the same descriptor (api/v3/paging.ts).
 */
import type { ArgBuilder, ArgumentRef } from '@pothos/core';
import type { V3ParamSpec, V3Params } from '../../api/v3/params.js';
import type { builder } from './builder.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** `mc_seqno` -> `mcSeqno`, as the descriptors name seam fields (api/descriptor.ts fieldOf). */
type Camel<S extends string> = S extends `${infer Head}_${infer Rest}` ? `${Head}${Capitalize<Camel<Rest>>}` : S;
const camel = (wire: string): string => wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The GraphQL input type of each param kind whose value the resolver can take as it comes. ShardId and
 * OpcodeType are not here: GraphQL takes them as text in any of their forms, which the field parses itself.
 */
export const GRAPHQL_TYPE: Readonly<Record<string, string>> = {
  int32: 'Int',
  UtimeType: 'Int',
  uint64: 'BigInt',
  bool: 'Boolean',
  string: 'String',
  HashType: 'Hash',
  AccountAddress: 'Address',
  AccountAddressNullable: 'Address',
};

type ValueOf<S> = S extends V3ParamSpec<infer T> ? Exclude<T, null> : never;

export type RouteArgs<P extends V3Params, N extends keyof P & string> = {
  [K in N as Camel<K>]: ArgumentRef<Types, ValueOf<P[K]> | null | undefined>;
};

/**
 * The args for `names` of a route's params. `descriptions` adds what the GraphQL field means where the param
 * declares none.
 */
export function routeArgs<P extends V3Params, N extends keyof P & string>(
  arg: ArgBuilder<Types>,
  params: P,
  names: readonly N[],
  descriptions: Partial<Record<N, string>> = {},
): RouteArgs<P, N> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const spec = params[name]!;
    const type = GRAPHQL_TYPE[spec.kind];
    if (!type) throw new Error(`no GraphQL type for the ${spec.kind} param ${name}`);
    const description = spec.description ?? descriptions[name];
    out[camel(name)] = arg({
      type: type as 'String',
      ...(description ? { description } : {}),
      ...(spec.default !== undefined && !spec.list ? { defaultValue: spec.default as string } : {}),
    });
  }
  return out as RouteArgs<P, N>;
}
