/** v3 routes, part 2: jettons, NFTs and /metadata (v3.md §2.2 metadata, §2.3, §2.4). */
import type { V3Route } from './v3-route.js';

export const V3_TOKEN_ROUTES: readonly V3Route[] = [];
