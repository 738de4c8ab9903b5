/** v3 wallets (v3.md §2.2 /walletStates). */
import { TTL_CACHE } from '../descriptor.js';
import { address, list, required, v3Route } from './params.js';

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
