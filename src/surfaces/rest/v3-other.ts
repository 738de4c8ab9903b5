/**
 * v3 routes, part 2: DNS records, multisig wallets and orders, vesting (v3.md §2.5). The handler's own rules run
 * first, then the query builder's (limit, then sort); every one answers 422 here.
 */
import { ApiError } from '../../api/errors.js';
import { address, bool, list, text } from './v3-params.js';
import { defined, nonEmpty, page, pageParams, pageSort, route, sortParam, type V3Route } from './v3-route.js';

export const V3_OTHER_ROUTES: readonly V3Route[] = [
  route({
    method: 'GET',
    path: '/dns/records',
    summary: 'DNS records by wallet or domain',
    query: { wallet: address(), domain: text(), ...pageParams },
    response: 'DNSRecordsResponse',
    call: (api, q, { options }) => {
      if (q.wallet === undefined && q.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
      if (q.wallet !== undefined && q.domain !== undefined) {
        throw new ApiError(422, 'provide either wallet address or domain, not both');
      }
      return api.dnsRecords(defined({ wallet: q.wallet, domain: q.domain, ...page(q), ...options }));
    },
  }),

  route({
    method: 'GET',
    path: '/multisig/wallets',
    summary: 'Multisig contracts with their orders',
    query: { address: list(address()), wallet_address: list(address()), include_orders: bool(), ...pageParams, ...sortParam },
    response: 'MultisigResponse',
    call: (api, q, { options }) => {
      if (!q.address.length && !q.wallet_address.length) {
        throw new ApiError(422, 'At least one of address or wallet_address should be specified');
      }
      return api.multisigWallets(
        defined({
          address: nonEmpty(q.address),
          walletAddress: nonEmpty(q.wallet_address),
          includeOrders: q.include_orders ?? true,
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/multisig/orders',
    summary: 'Multisig orders',
    query: { address: list(address()), multisig_address: list(address()), parse_actions: bool(), ...pageParams, ...sortParam },
    response: 'MultisigOrderResponse',
    call: (api, q, { options }) => {
      if (!q.address.length && !q.multisig_address.length) {
        throw new ApiError(422, 'At least one of address or multisig_address should be specified');
      }
      return api.multisigOrders(
        defined({
          address: nonEmpty(q.address),
          multisigAddress: nonEmpty(q.multisig_address),
          parseActions: q.parse_actions ?? false,
          ...pageSort(q),
          ...options,
        }),
      );
    },
  }),

  route({
    method: 'GET',
    path: '/vesting',
    summary: 'Vesting contracts by contract or wallet',
    query: { contract_address: list(address()), wallet_address: list(address()), check_whitelist: bool(), ...pageParams },
    response: 'VestingContractsResponse',
    call: (api, q, { options }) => {
      if (!q.contract_address.length && !q.wallet_address.length) {
        throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
      }
      if (q.contract_address.length && q.wallet_address.length) {
        throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
      }
      return api.vestingContracts(
        defined({
          contractAddress: nonEmpty(q.contract_address),
          walletAddress: nonEmpty(q.wallet_address),
          checkWhitelist: q.check_whitelist ?? false,
          ...page(q),
          ...options,
        }),
      );
    },
  }),
];
