/** v3 accounts (v3.md §2.2): latest states, the address book, token metadata, the richest accounts. */
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { address, bool, hash, list, pageParams, required, text, v3Route } from './params.js';

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
