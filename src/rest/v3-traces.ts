/** v3 routes, part 2: traces, actions, pending work and /decode (v3.md §2.1 pendingTransactions, §2.6, §2.7 decode, §4). */
import type { V3Route } from './v3-route.js';

export const V3_TRACE_ROUTES: readonly V3Route[] = [];
