/** v3 jettons (v3.md §2.3): masters, wallets, transfers and burns. */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, LtWindow, Metadata, PageParams, Sort, SortParams, UtimeWindow, V3Options } from './common.js';
import { address, bool, list, ltParams, pageParams, sortParam, unorderedSortParam, utimeParams, v3Route } from './params.js';
import { legacyOwner, transferDirection } from './tokens-common.js';

export interface JettonMaster {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  /** TEP-64 content: on-chain keys as an object, off-chain as `{"uri": …}` */
  jetton_content: Record<string, unknown> | null;
  jetton_wallet_code_hash: string;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
}

export interface JettonWalletMintlessInfo {
  amount: string | null;
  start_from: number | null;
  expire_at: number | null;
  custom_payload_api_uri: string[] | null;
}

export interface JettonWallet {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  /** only for unclaimed mintless wallets (none on the local chain) */
  mintless_info?: JettonWalletMintlessInfo;
}

export interface JettonTransfer {
  query_id: string;
  /** owner of the sending wallet (the in-message's sender) */
  source: string;
  /** owner the jettons go to (the body's destination) */
  destination: string;
  amount: string;
  source_wallet: string;
  jetton_master: string;
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  response_destination: string | null;
  custom_payload: string | null;
  decoded_custom_payload: Record<string, unknown> | null;
  forward_ton_amount: string | null;
  forward_payload: string | null;
  decoded_forward_payload: Record<string, unknown> | null;
  trace_id: string | null;
}

export interface JettonBurn {
  query_id: string;
  owner: string;
  jetton_wallet: string;
  jetton_master: string;
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  amount: string;
  response_destination: string | null;
  custom_payload: string | null;
  decoded_custom_payload: Record<string, unknown> | null;
  trace_id: string | null;
}

export interface JettonMastersResponse {
  jetton_masters: JettonMaster[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonWalletsResponse {
  jetton_wallets: JettonWallet[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonTransfersResponse {
  jetton_transfers: JettonTransfer[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonBurnsResponse {
  jetton_burns: JettonBurn[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface JettonMastersParams extends PageParams, V3Options {
  address?: Address[];
  adminAddress?: Address[];
}

export interface JettonWalletsParams extends PageParams, V3Options {
  /** asked: ordered by balance; absent: by id (v3.md §2.4) */
  sort?: Sort;
  address?: Address[];
  ownerAddress?: Address[];
  /** more than one needs exactly one ownerAddress (checked by the surface) */
  jettonAddress?: Address[];
  excludeZeroBalance?: boolean;
}

export interface JettonTransfersParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  ownerAddress?: Address[];
  jettonWallet?: Address[];
  jettonMaster?: Address;
  /** with ownerAddress only: 'in' matches the destination, 'out' the source, absent either */
  direction?: 'in' | 'out';
}

export interface JettonBurnsParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  ownerAddress?: Address[];
  jettonWallet?: Address[];
  jettonMaster?: Address;
}

/** What a source answers for these routes. */
export interface JettonsApi {
  jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse>;
  jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse>;
  jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse>;
  jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse>;
}

/** Transfer and burn lists: the owner filters, the legacy owner, the time windows, paging and sort. */
const transferFilters = () => ({
  owner_address: list(address()),
  address: legacyOwner(),
  jetton_wallet: list(address()),
  jetton_master: address(),
});

/** The params of the jetton lists, also the filters of GraphQL's jetton lists. */
export const JETTON_MASTERS_PARAMS = { address: list(address()), admin_address: list(address()), ...pageParams };
export const JETTON_WALLETS_PARAMS = {
  address: list(address()),
  owner_address: list(address()),
  jetton_address: list(address()),
  exclude_zero_balance: bool(),
  ...pageParams,
  ...unorderedSortParam,
};
export const JETTON_TRANSFERS_PARAMS = { ...transferFilters(), direction: transferDirection(), ...utimeParams, ...ltParams, ...pageParams, ...sortParam };
export const JETTON_BURNS_PARAMS = { ...transferFilters(), ...utimeParams, ...ltParams, ...pageParams, ...sortParam };

export const JETTON_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/jetton/masters',
    summary: 'Jetton masters by filter',
    params: JETTON_MASTERS_PARAMS,
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
    params: JETTON_WALLETS_PARAMS,
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
    params: JETTON_TRANSFERS_PARAMS,
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
    params: JETTON_BURNS_PARAMS,
    response: 'JettonBurnsResponse',
    top: 'jetton_burns',
    cache: NO_CACHE,
    api: 'jettonBurns',
    options: true,
  }),
];
