/** v3 accounts (v3.md §2.2): latest states, the address book, token metadata, the richest accounts. */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import type { AccountStatus, AddressBook, ExtraCurrencies, Metadata, PageParams, V3Options } from './common.js';
import { address, bool, hash, list, pageParams, required, text, v3Route } from './params.js';

/** v3.md §2.2 AccountStateFull. */
export interface AccountStateFull {
  address: string;
  account_state_hash: string;
  balance: string | null;
  extra_currencies: ExtraCurrencies | null;
  status: AccountStatus | null;
  frozen_hash?: string;
  last_transaction_hash: string | null;
  last_transaction_lt: string | null;
  data_hash?: string;
  code_hash?: string;
  data_boc?: string;
  code_boc?: string;
  /** get-method ids found in the code, or null */
  contract_methods: number[] | null;
  interfaces: string[] | null;
  /** listed in config param 44 (suspended accounts) until its expiry: `true` or absent, never `false` (omit-empty) */
  suspended?: boolean;
}

export interface AccountStatesResponse {
  accounts: AccountStateFull[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface AccountBalance {
  account: string;
  balance: string;
}

export interface AccountStatesParams extends V3Options {
  address: Address[];
  /** default true */
  includeBoc?: boolean;
  codeHash?: Buffer[];
}

export interface AddressBookParams {
  /** the caller's strings, unparsed: the answer is keyed by them and unparseable ones get user_friendly null */
  address: string[];
}

export interface MetadataParams {
  /** the caller's strings; unparseable ones are skipped, as the reference skips them */
  address: string[];
}

/** What a source answers for these routes. */
export interface AccountsApi {
  accountStates(p: AccountStatesParams): Promise<AccountStatesResponse>;
  addressBook(p: AddressBookParams): Promise<AddressBook>;
  /** GET /metadata (named so it does not clash with LocalV3Context.metadata) */
  addressMetadata(p: MetadataParams): Promise<Metadata>;
  topAccountsByBalance(p: PageParams): Promise<AccountBalance[]>;
}

/** /addressBook and /metadata answer keyed by the caller's own strings, so those are passed on as given. */
const givenAddresses = () => required(list(text()), 'at least 1 address required');

export const ACCOUNT_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/accountStates',
    summary: 'Latest states of accounts',
    params: {
      address: required(list(address()), 'address of account is required'),
      include_boc: bool({ default: true }),
      code_hash: list(hash()),
    },
    response: 'AccountStatesResponse',
    top: 'accounts',
    // account states change with every block: reused for the TTL only
    cache: TTL_CACHE,
    api: 'accountStates',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/addressBook',
    summary: 'Friendly forms, domains and interfaces of addresses, keyed by the given strings',
    params: { address: givenAddresses() },
    response: 'AddressBook',
    cache: TTL_CACHE,
    api: 'addressBook',
  }),

  v3Route({
    methods: ['GET'],
    path: '/metadata',
    summary: 'Token metadata of addresses, keyed by raw address',
    params: { address: givenAddresses() },
    response: 'Metadata',
    cache: TTL_CACHE,
    api: 'addressMetadata',
  }),

  v3Route({
    methods: ['GET'],
    path: '/topAccountsByBalance',
    summary: 'Accounts by balance, descending',
    params: { ...pageParams },
    response: 'AccountBalance[]',
    top: '[]',
    cache: NO_CACHE,
    api: 'topAccountsByBalance',
  }),
];
