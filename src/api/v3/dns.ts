/** v3 DNS (v3.md §2.5 /dns/records): the handler's rules first, then the query builder's (limit). */
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { DnsRecordsParams } from '../v3-other.js';
import { address, pageParams, text, v3Route } from './params.js';

export const DNS_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/dns/records',
    summary: 'DNS records by wallet or domain',
    params: { wallet: address(), domain: text(), ...pageParams },
    response: 'DNSRecordsResponse',
    top: 'records',
    // contract states change with every block: reused for the TTL only
    cache: TTL_CACHE,
    api: 'dnsRecords',
    options: true,
    check: (p: DnsRecordsParams) => {
      if (p.wallet === undefined && p.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
      if (p.wallet !== undefined && p.domain !== undefined) throw new ApiError(422, 'provide either wallet address or domain, not both');
    },
  }),
];
