/**
 * GraphQL arguments generated from a v3 route's params, so a list field says "these filters of /transactions"
 * instead of restating them: the wire name in camelCase, the GraphQL type of the param's kind, its description
 * and default as declared. A repeatable param is one value here (the field asks for one account, say); the
 * resolver wraps it. Where GraphQL names a filter otherwise (`owner` for owner_address) or takes it in a richer
 * form (an enum direction, a shard as text in any of its forms, a list of action types), the field says so in
 * an override; the description and default stay the descriptor's. Each arg carries its wire name in
 * `extensions.wire`, so a test can check it against its route. Paging stays the connection's
 * (first/after/last/before); the seam call is then resolved from the same descriptor (api/v3/paging.ts).
 */
import type { ArgBuilder, ArgumentRef, InputShapeFromTypeParam, InputTypeParam } from '@pothos/core';
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

/** A param GraphQL takes as text in any of its forms (a shard, an opcode), parsed by the field's resolver. */
export const AS_TEXT = { type: 'String' } as const;

/** How a field takes one param where that is not the generated default. */
export interface ArgOverride {
  /** the GraphQL name, where it is not the wire name in camelCase */
  readonly as?: string;
  /** a richer input type than the param kind's: an enum, text the resolver parses, a list */
  readonly type?: InputTypeParam<Types>;
  /** what the GraphQL field means, where the param declares none */
  readonly description?: string;
}

export type ArgOverrides<N extends string> = { readonly [K in N]?: ArgOverride };

type NameOf<K extends string, O> = O extends { as: infer A extends string } ? A : Camel<K>;
type ShapeOf<S, O> = O extends { type: infer T extends InputTypeParam<Types> }
  ? InputShapeFromTypeParam<Types, T, false>
  : ValueOf<S> | null | undefined;

export type RouteArgs<P extends V3Params, N extends keyof P & string, O extends ArgOverrides<N>> = {
  [K in N as NameOf<K, O[K]>]: ArgumentRef<Types, ShapeOf<P[K], O[K]>>;
};

/** The GraphQL name of a param: the override's, or the wire name in camelCase. */
export const argName = (wire: string, override?: ArgOverride): string => override?.as ?? camel(wire);

/**
 * The args for `names` of a route's params, in that order; `overrides` renames a param, gives it a richer
 * input type or describes it where the param does not.
 */
export function routeArgs<P extends V3Params, N extends keyof P & string, const O extends ArgOverrides<N> = {}>(
  arg: ArgBuilder<Types>,
  params: P,
  names: readonly N[],
  overrides?: O,
): RouteArgs<P, N, O> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const spec = params[name]!;
    const override: ArgOverride = overrides?.[name] ?? {};
    const type = override.type ?? GRAPHQL_TYPE[spec.kind];
    if (!type) throw new Error(`no GraphQL type for the ${spec.kind} param ${name}`);
    const description = spec.description ?? override.description;
    out[argName(name, override)] = arg({
      type: type as 'String',
      ...(description ? { description } : {}),
      ...(spec.default !== undefined && !spec.list ? { defaultValue: spec.default as string } : {}),
      extensions: { wire: name },
    });
  }
  return out as RouteArgs<P, N, O>;
}
