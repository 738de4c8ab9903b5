/** v3 vesting (v3.md §2.5 /vesting): by contract or by wallet, never both. */
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { VestingParams } from '../v3-other.js';
import { address, bool, list, pageParams, v3Route } from './params.js';

export const VESTING_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/vesting',
    summary: 'Vesting contracts by contract or wallet',
    params: { contract_address: list(address()), wallet_address: list(address()), check_whitelist: bool({ default: false }), ...pageParams },
    response: 'VestingContractsResponse',
    top: 'vesting_contracts',
    cache: TTL_CACHE,
    api: 'vestingContracts',
    options: true,
    check: (p: VestingParams) => {
      if (!p.contractAddress && !p.walletAddress) throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
      if (p.contractAddress && p.walletAddress) throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
    },
  }),
];
