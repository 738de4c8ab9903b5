/** v3 wallets (v3.md §2.2 /walletStates). */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import type { WalletType } from '../v2.js';
import type { AccountStatus, AddressBook, ExtraCurrencies, Metadata, V3Options } from './common.js';
import { address, list, required, v3Route } from './params.js';

/** Exact strings of v3.md §2.2 (`parse/wallet_parse.go`): the same names v2 uses. */
export type V3WalletType = WalletType;

export interface WalletState {
  address: string;
  is_wallet: boolean;
  wallet_type?: V3WalletType;
  seqno?: number;
  wallet_id?: number;
  balance?: string;
  extra_currencies?: ExtraCurrencies;
  /** v5 only */
  is_signature_allowed?: boolean;
  status?: AccountStatus;
  code_hash?: string;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
  /** listed in config param 44 (suspended accounts) until its expiry: `true` or absent, never `false` (omit-empty) */
  suspended?: boolean;
}

export interface WalletStatesResponse {
  wallets: WalletState[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface WalletStatesParams extends V3Options {
  address: Address[];
}

/** What a source answers for these routes. */
export interface WalletsApi {
  walletStates(p: WalletStatesParams): Promise<WalletStatesResponse>;
}

export const WALLET_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/walletStates',
    summary: 'Wallet states of accounts',
    params: { address: required(list(address()), 'address of account is required') },
    response: 'WalletStatesResponse',
    top: 'wallets',
    cache: TTL_CACHE,
    api: 'walletStates',
    options: true,
  }),
];
