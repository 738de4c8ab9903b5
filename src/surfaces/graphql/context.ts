/**
 * The data sources as the GraphQL layer sees them: wrapped once in a proxy that counts every call into
 * `ton_graphql_source_calls_total{api,method}`, so the batching bound is measured where it is spent.
 * The graph never reads `address_book` or `metadata` (rows carry what it needs), so every v3 list call asks
 * for neither: the local chain skips building them, an upstream gets X-No-Address-Book / X-No-Metadata.
 * The v3 calls' paging (limit, offset, sort) is resolved from the route's descriptor on the way, so a bad limit
 * is REST's 422 (a BAD_USER_INPUT field error) and the sources always get resolved values.
 */
import type { V2Api } from '../../api/v2.js';
import { V3_OPTION_METHODS, V3_UPSTREAM_ROUTES } from '../../api/v3/index.js';
import type { V3Api } from '../../api/v3/index.js';
import { pagedCall, type V3Caller } from '../../api/v3/paging.js';
import { sourceCallTally } from '../../observe/metrics.js';
import type { GraphQLContext } from './builder.js';

const NO_EXTRAS = { noAddressBook: true, noMetadata: true } as const;

function counting<T extends object>(api: T, label: 'v2' | 'v3'): T {
  // one wrapper per method, made on first use and found before anything else on later reads
  const wrapped = new Map<string, (...args: any[]) => unknown>();
  const source = api as Record<string, (...args: unknown[]) => unknown>;
  return new Proxy(api, {
    get(target, prop) {
      const fn = typeof prop === 'string' ? wrapped.get(prop) : undefined;
      if (fn) return fn;
      const member = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== 'string' || typeof member !== 'function') return member;
      const tally = sourceCallTally(label, prop);
      // only v3 calls whose descriptor takes the request options get them; the others are kept as asked.
      // The method is looked up on every call: a source behind a gate (src/api/gate.ts) has its methods only once open.
      const route = label === 'v3' ? V3_UPSTREAM_ROUTES.get(prop) : undefined;
      const extras = route && V3_OPTION_METHODS.has(prop) ? NO_EXTRAS : undefined;
      const call = route
        ? // Object.assign, not `{ ...p, ...NO_EXTRAS }`: V8 (Node 20) takes ~0.8 µs to add properties to a spread copy, Object.assign 0.07
          pagedCall(route, (p) => {
            tally.pending++;
            return source[prop]!(extras ? Object.assign(p, extras) : p);
          })
        : (...args: unknown[]) => {
            tally.pending++;
            return source[prop]!(...args);
          };
      wrapped.set(prop, call);
      return call;
    },
  });
}

/** The sources every request's context carries; loaders are created per context object by Pothos. */
export function countedSources(deps: { v2: V2Api; v3: V3Api }): Pick<GraphQLContext, 'v2' | 'v3'> {
  return { v2: counting(deps.v2, 'v2'), v3: counting(deps.v3, 'v3') as V3Caller };
}
