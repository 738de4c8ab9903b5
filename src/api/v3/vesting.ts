/** v3 vesting (v3.md §2.5 /vesting): by contract or by wallet, never both. */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, PageParams, V3Options } from './common.js';
import { address, bool, list, pageParams, v3Route } from './params.js';

export interface VestingInfo {
  address: string;
  start_time: number | null;
  total_duration: number | null;
  unlock_period: number | null;
  cliff_duration: number | null;
  sender_address: string | null;
  owner_address: string | null;
  total_amount: string | null;
  whitelist: string[];
}

export interface VestingContractsResponse {
  vesting_contracts: VestingInfo[];
  address_book: AddressBook;
}

/** Exactly one of contractAddress and walletAddress (checked by the surface). */
export interface VestingParams extends PageParams, V3Options {
  contractAddress?: Address[];
  /** matches the owner or the sender, and the whitelist with checkWhitelist */
  walletAddress?: Address[];
  /** default false */
  checkWhitelist?: boolean;
}

/** What a source answers for these routes. */
export interface VestingApi {
  vestingContracts(p: VestingParams): Promise<VestingContractsResponse>;
}

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
