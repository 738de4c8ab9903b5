/** v3 multisig (v3.md §2.5): wallets with their orders, and orders; the handler's rules first, then limit and sort. */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, PageParams, SortParams, V3Options } from './common.js';
import { address, bool, list, pageParams, sortParam, v3Route } from './params.js';

/** One action of an order's cell (`parse_actions=true`). */
export interface MultisigOrderAction {
  destination: string | null;
  value: string | null;
  /** the message body BoC, base64 */
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  /** ton_transfer, jetton_transfer, nft_transfer, jetton_burn, multisig_update_params or unknown */
  parsed_body_type: string;
  send_mode: number;
}

export interface MultisigOrder {
  address: string;
  multisig_address: string;
  order_seqno: string | null;
  threshold: number | null;
  sent_for_execution: boolean | null;
  approvals_mask: string | null;
  approvals_num: number | null;
  expiration_date: number | null;
  order_boc: string | null;
  signers: string[];
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  actions: MultisigOrderAction[];
}

export interface Multisig {
  address: string;
  next_order_seqno: string | null;
  threshold: number | null;
  signers: string[];
  proposers: string[];
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  orders: MultisigOrder[];
}

export interface MultisigResponse {
  multisigs: Multisig[];
  address_book: AddressBook;
}

export interface MultisigOrderResponse {
  orders: MultisigOrder[];
  address_book: AddressBook;
}

/** At least one of address and walletAddress (checked by the surface). */
export interface MultisigWalletsParams extends PageParams, SortParams, V3Options {
  address?: Address[];
  /** matches signers or proposers */
  walletAddress?: Address[];
  /** default true */
  includeOrders?: boolean;
}

/** At least one of address and multisigAddress (checked by the surface). */
export interface MultisigOrdersParams extends PageParams, SortParams, V3Options {
  address?: Address[];
  multisigAddress?: Address[];
  /** default false */
  parseActions?: boolean;
}

/** What a source answers for these routes. */
export interface MultisigApi {
  multisigWallets(p: MultisigWalletsParams): Promise<MultisigResponse>;
  multisigOrders(p: MultisigOrdersParams): Promise<MultisigOrderResponse>;
}

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
