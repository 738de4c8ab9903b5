/**
 * The only schema builder. Plugins are listed once here, the chain scalars are declared in its generics and
 * registered right after; every type file under ./types adds itself to this builder.
 */
import type { Served } from '../../api/source.js';
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type { Address } from '@ton/core';
import { isListType, isNonNullType, type GraphQLOutputType } from 'graphql';
import type { V2Api } from '../../api/v2.js';
import type { V3Caller } from '../../api/v3/paging.js';
import { decodeGlobalId, encodeGlobalId } from './ids.js';
import type { SubscriptionContext } from './subscriptions/registry.js';
import { LIMITS, checkListArg, pageSizeOf } from './limits.js';
import {
  literal,
  parseAddressInput,
  parseBigIntInput,
  parseBocInput,
  parseHashInput,
  serializeAddress,
  serializeBigInt,
  serializeBoc,
  serializeHash,
} from './scalars.js';

/** Per request: the data sources (already wrapped in the call counter). Loaders hang off this object. */
export interface GraphQLContext {
  v2: V2Api;
  /** paging resolved from the descriptors on every call (context.ts) */
  v3: V3Caller;
  /** what the sources can do, whole (api/source.ts); its reads are taken through v2 and v3 above, which count them */
  capabilities: Omit<Served, 'v2' | 'v3'>;
  /** absent where the server has no chain event source */
  subscriptions?: SubscriptionContext;
  /** the server's expansion limit, when it is not LIMITS.maxFields (published by serviceConfig) */
  maxFields?: number;
  /** the API key the request carries (header, `api_key`, or a WebSocket's connectionParams), as the key stage accepted it */
  apiKey?: string;
  /** who the request counts against where limits are per client (an API key's digest, else the IP) */
  client?: () => string;
}

const isList = (type: GraphQLOutputType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    Address: { Input: Address; Output: Address | string };
    Hash: { Input: Buffer; Output: Buffer | string };
    BigInt: { Input: bigint; Output: bigint | number | string };
    Boc: { Input: Buffer; Output: Buffer | string };
  };
}>({
  plugins: [RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  // non-null by default; fields that read a data source opt into null so a failure costs only that field
  defaultFieldNullability: false,
  relay: {
    cursorType: 'String',
    nodesOnConnection: true,
    encodeGlobalID: encodeGlobalId,
    decodeGlobalID: decodeGlobalId,
    // a connection's page size is already its field's multiplier; edges must not multiply again
    edgesFieldOptions: { complexity: { field: 0, multiplier: 1 } },
    nodesQueryOptions: {
      complexity: (args: { ids?: unknown[] }) => ({ field: 1, multiplier: args.ids?.length ?? 1 }),
      resolve: (_root, args, _ctx, _info, resolveNodes) => {
        checkListArg('ids', args.ids);
        return resolveNodes(args.ids);
      },
    },
  },
  complexity: {
    // connections cost their page size (first/last, default 20); other lists a fixed guess of 10
    fieldComplexity: (args, _ctx, field) => {
      if (field.args.some((a) => a.name === 'first')) return { field: 1, multiplier: pageSizeOf(args) };
      // a connection's `nodes` (the relay plugin passes no options to it): counted like `edges`
      if (field.name === 'nodes' && field.args.length === 0) return { field: 0, multiplier: 1 };
      return isList(field.type) ? { field: 1, multiplier: LIMITS.listMultiplier } : 1;
    },
  },
});

builder.scalarType('Address', {
  description: 'An account address. Accepts raw `wc:hex` or user-friendly base64/base64url; always returns raw `wc:HEX` (upper-case, as toncenter v3).',
  serialize: serializeAddress,
  parseValue: parseAddressInput,
  parseLiteral: literal(parseAddressInput),
});

builder.scalarType('Hash', {
  description: 'A 256-bit hash. Accepts hex (optionally 0x), base64 or base64url; always returns standard base64 (44 chars).',
  serialize: serializeHash,
  parseValue: parseHashInput,
  parseLiteral: literal(parseHashInput),
});

builder.scalarType('BigInt', {
  description: 'An integer beyond 2^53 (lt, nanotons, fees). Returned as a decimal string; accepts a decimal or 0x-hex string, or a safe integer.',
  serialize: serializeBigInt,
  parseValue: parseBigIntInput,
  parseLiteral: literal(parseBigIntInput),
});

builder.scalarType('Boc', {
  description: 'A bag of cells, base64.',
  serialize: serializeBoc,
  parseValue: parseBocInput,
  parseLiteral: literal(parseBocInput),
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
