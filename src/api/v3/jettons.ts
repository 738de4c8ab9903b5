/** v3 jettons (v3.md §2.3): masters, wallets, transfers and burns. */
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { JettonWalletsParams } from '../v3-tokens.js';
import { address, bool, list, ltParams, pageParams, sortParam, utimeParams, v3Route } from './params.js';
import { legacyOwner, transferDirection } from './tokens-common.js';

/** Transfer and burn lists: the owner filters, the legacy owner, the time windows, paging and sort. */
const transferFilters = () => ({
  owner_address: list(address()),
  address: legacyOwner(),
  jetton_wallet: list(address()),
  jetton_master: address(),
});

export const JETTON_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/jetton/masters',
    summary: 'Jetton masters by filter',
    params: { address: list(address()), admin_address: list(address()), ...pageParams },
    response: 'JettonMastersResponse',
    top: 'jetton_masters',
    // token states change with every block: reused for the TTL only
    cache: TTL_CACHE,
    api: 'jettonMasters',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/jetton/wallets',
    summary: 'Jetton wallets by filter',
    params: {
      address: list(address()),
      owner_address: list(address()),
      jetton_address: list(address()),
      exclude_zero_balance: bool(),
      ...pageParams,
      ...sortParam,
    },
    response: 'JettonWalletsResponse',
    top: 'jetton_wallets',
    cache: TTL_CACHE,
    api: 'jettonWallets',
    options: true,
    check: (p: JettonWalletsParams) => {
      if ((p.jettonAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
      }
    },
  }),

  v3Route({
    methods: ['GET'],
    path: '/jetton/transfers',
    summary: 'Jetton transfers by filter (aborted ones left out)',
    params: { ...transferFilters(), direction: transferDirection(), ...utimeParams, ...ltParams, ...pageParams, ...sortParam },
    response: 'JettonTransfersResponse',
    top: 'jetton_transfers',
    // transfer lists grow with every block
    cache: NO_CACHE,
    api: 'jettonTransfers',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/jetton/burns',
    summary: 'Jetton burns by filter',
    params: { ...transferFilters(), ...utimeParams, ...ltParams, ...pageParams, ...sortParam },
    response: 'JettonBurnsResponse',
    top: 'jetton_burns',
    cache: NO_CACHE,
    api: 'jettonBurns',
    options: true,
  }),
];
