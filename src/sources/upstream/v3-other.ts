/** The v3 part-2 routes over HTTP: DNS records, multisig, vesting, passed to the upstream with the same query. */
import type { V3OtherApi } from '../../api/v3-other.js';
import type { UpstreamClient } from './client.js';
import { addr, optionHeaders, q, v3Calls } from './v3.js';
import { TTL } from './wire.js';

/** Contract states change with every block: answers are reused for the account TTL only. */
export function upstreamV3Other(client: UpstreamClient): V3OtherApi {
  const { get } = v3Calls(client);

  return {
    dnsRecords: (p) =>
      get(
        '/dns/records',
        q([['wallet', p.wallet && addr(p.wallet)], ['domain', p.domain], ['limit', p.limit], ['offset', p.offset]]),
        TTL,
        'records',
        optionHeaders(p),
      ),
    multisigWallets: (p) =>
      get(
        '/multisig/wallets',
        q([
          ['address', p.address?.map(addr)],
          ['wallet_address', p.walletAddress?.map(addr)],
          ['include_orders', p.includeOrders],
          ['limit', p.limit],
          ['offset', p.offset],
          ['sort', p.sort],
        ]),
        TTL,
        'multisigs',
        optionHeaders(p),
      ),
    multisigOrders: (p) =>
      get(
        '/multisig/orders',
        q([
          ['address', p.address?.map(addr)],
          ['multisig_address', p.multisigAddress?.map(addr)],
          ['parse_actions', p.parseActions],
          ['limit', p.limit],
          ['offset', p.offset],
          ['sort', p.sort],
        ]),
        TTL,
        'orders',
        optionHeaders(p),
      ),
    vestingContracts: (p) =>
      get(
        '/vesting',
        q([
          ['contract_address', p.contractAddress?.map(addr)],
          ['wallet_address', p.walletAddress?.map(addr)],
          ['check_whitelist', p.checkWhitelist],
          ['limit', p.limit],
          ['offset', p.offset],
        ]),
        TTL,
        'vesting_contracts',
        optionHeaders(p),
      ),
  };
}
