/** v3 multisig (v3.md §2.5): wallets with their orders, and orders; the handler's rules first, then limit and sort. */
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { MultisigOrdersParams, MultisigWalletsParams } from '../v3-other.js';
import { address, bool, list, pageParams, sortParam, v3Route } from './params.js';

export const MULTISIG_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/multisig/wallets',
    summary: 'Multisig contracts with their orders',
    params: { address: list(address()), wallet_address: list(address()), include_orders: bool({ default: true }), ...pageParams, ...sortParam },
    response: 'MultisigResponse',
    top: 'multisigs',
    cache: TTL_CACHE,
    api: 'multisigWallets',
    options: true,
    check: (p: MultisigWalletsParams) => {
      if (!p.address && !p.walletAddress) throw new ApiError(422, 'At least one of address or wallet_address should be specified');
    },
  }),

  v3Route({
    methods: ['GET'],
    path: '/multisig/orders',
    summary: 'Multisig orders',
    params: { address: list(address()), multisig_address: list(address()), parse_actions: bool({ default: false }), ...pageParams, ...sortParam },
    response: 'MultisigOrderResponse',
    top: 'orders',
    cache: TTL_CACHE,
    api: 'multisigOrders',
    options: true,
    check: (p: MultisigOrdersParams) => {
      if (!p.address && !p.multisigAddress) throw new ApiError(422, 'At least one of address or multisig_address should be specified');
    },
  }),
];
