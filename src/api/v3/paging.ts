/**
 * Paging resolved once, from the descriptors: the seam's methods take `limit`, `offset` and `sort` already
 * resolved. REST gets them from its query reader (surfaces/rest/v3-params.ts); every other caller (GraphQL,
 * the feeds) passes what it knows through `resolvePaging`, which applies the route's declared defaults and the
 * same checks, so an out-of-bounds limit is the same 422 with the same text whichever surface asked.
 */
import { fieldOf } from '../descriptor.js';
import { type V3Api, V3_UPSTREAM_ROUTES } from './index.js';
import type { V3Descriptor, V3ParamSpec } from './params.js';

type PageField = 'limit' | 'offset' | 'sort';
const PAGE_FIELDS: ReadonlySet<string> = new Set<PageField>(['limit', 'offset', 'sort']);

/** A seam params type with its paging optional: what a caller other than REST may pass. */
export type UnresolvedPaging<P> = P extends object ? Omit<P, PageField> & Partial<Pick<P, Extract<keyof P, PageField>>> : P;

type Unresolved<F> = F extends () => unknown ? F : F extends (p: infer P, ...rest: infer Rest) => infer R ? (p: UnresolvedPaging<P>, ...rest: Rest) => R : F;

/** The v3 seam as a caller that leaves paging to the descriptors sees it. */
export type V3Caller = { [K in keyof V3Api]: Unresolved<V3Api[K]> };

/** The descriptor's paging params (wire name, spec, seam field), listed once per descriptor. */
const pagingOf = new WeakMap<V3Descriptor, [V3ParamSpec, string][]>();
function pagingSpecs(d: V3Descriptor): [V3ParamSpec, string][] {
  let specs = pagingOf.get(d);
  if (!specs) {
    specs = Object.entries(d.params)
      .map(([wire, spec]): [V3ParamSpec, string] => [spec, fieldOf(wire, spec)])
      .filter(([, field]) => PAGE_FIELDS.has(field));
    pagingOf.set(d, specs);
  }
  return specs;
}

/**
 * `p` with the route's paging resolved in declaration order (limit, offset, then sort, as REST checks them):
 * absent values take the declared default, each value passes its param's check (the reference's 422 texts).
 * A param without a default that was not asked stays absent (/blocks' sort). Returns a new object.
 */
export function resolvePaging<P extends object>(d: V3Descriptor, p: P): P {
  const out = Object.assign({}, p) as Record<string, unknown>;
  for (const [spec, field] of pagingSpecs(d)) {
    const given = out[field] ?? spec.default;
    const value = spec.check ? spec.check(given) : given;
    if (value === undefined) delete out[field];
    else out[field] = value;
  }
  return out as P;
}

/**
 * A v3 method that resolves its route's paging before calling `fn` with the params object (none given: `{}`);
 * a check's 422 comes back as a rejection, like any failure of the call.
 */
export function pagedCall(d: V3Descriptor, fn: (p: object) => unknown): (p?: object) => unknown {
  return (p = {}) => {
    let resolved: object;
    try {
      resolved = resolvePaging(d, p);
    } catch (e) {
      return Promise.reject(e);
    }
    return fn(resolved);
  };
}

/**
 * The seam for callers that leave paging to the descriptors (the feeds, scripts, tests of a source): each
 * method of a route resolves its paging first; the others are passed through. Methods are looked up on each
 * call, since a source behind a gate (api/gate.ts) has its methods only once open.
 */
export function withResolvedPaging(api: V3Api): V3Caller {
  const source = api as unknown as Record<string, (p?: object) => unknown>;
  const methods = new Map<string, (p?: object) => unknown>();
  return new Proxy(api, {
    get(target, prop) {
      if (typeof prop !== 'string') return Reflect.get(target, prop, target);
      const route = V3_UPSTREAM_ROUTES.get(prop);
      if (!route) return Reflect.get(target, prop, target);
      let method = methods.get(prop);
      if (!method) methods.set(prop, (method = pagedCall(route, (p) => source[prop]!(p))));
      return method;
    },
  }) as unknown as V3Caller;
}
