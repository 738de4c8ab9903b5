/** v3 DNS (v3.md §2.5 /dns/records): the handler's rules first, then the query builder's (limit). */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, PageParams, V3Options } from './common.js';
import { address, pageParams, text, v3Route } from './params.js';

export interface DnsRecord {
  nft_item_address: string;
  nft_item_owner: string | null;
  domain: string;
  dns_next_resolver: string | null;
  dns_wallet: string | null;
  dns_site_adnl: string | null;
  dns_storage_bag_id: string | null;
}

export interface DnsRecordsResponse {
  records: DnsRecord[];
  address_book: AddressBook;
}

/** Exactly one of wallet and domain (checked by the surface). */
export interface DnsRecordsParams extends PageParams, V3Options {
  wallet?: Address;
  domain?: string;
}

/** What a source answers for these routes. */
export interface DnsApi {
  dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse>;
}

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
