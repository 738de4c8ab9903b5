/**
 * toncenter v3 features seen only on a commit whose branch is unknown or a feature branch
 * (toncenter-newer.md §7 `/actions` cursors, §8 `/api/v3/acton/*`): they may never ship, so the gateway serves them
 * only when V3_BRANCH_FEATURES names them. A descriptor or a param tagged with a feature is left out otherwise,
 * from the REST mount and the OpenAPI document alike, so an untagged gateway answers as toncenter's main line; a
 * descriptor's `branchFixed` tells its source which features are served.
 */
import type { V3Descriptor, V3ParamSpec } from './params.js';

export const V3_BRANCH_FEATURES = ['actions-cursor', 'acton'] as const;
export type V3BranchFeature = (typeof V3_BRANCH_FEATURES)[number];

const served = (feature: V3BranchFeature | undefined, on: ReadonlySet<V3BranchFeature>): boolean => feature === undefined || on.has(feature);

/** The routes served with these features on, each without the params of features that are off. */
export function servedRoutes(all: readonly V3Descriptor[], features: readonly V3BranchFeature[]): V3Descriptor[] {
  const on = new Set(features);
  return all
    .filter((d) => served(d.branch, on))
    .map((d) => {
      const params = Object.entries(d.params).filter(([, p]) => served((p as V3ParamSpec).branch, on));
      const fixed = Object.entries(d.branchFixed ?? {}).filter(([f]) => on.has(f as V3BranchFeature)).map(([, v]) => v);
      if (params.length === Object.keys(d.params).length && fixed.length === 0) return d;
      return { ...d, params: Object.fromEntries(params), ...(fixed.length ? { fixed: Object.assign({}, d.fixed, ...fixed) } : {}) };
    });
}
