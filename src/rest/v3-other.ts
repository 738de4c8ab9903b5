/** v3 routes, part 2: DNS records, multisig wallets and orders, vesting (v3.md §2.5). */
import type { V3Route } from './v3-route.js';

export const V3_OTHER_ROUTES: readonly V3Route[] = [];
