/** v3 DNS (v3.md §2.5 /dns/records): the handler's rules first, then the query builder's (limit). */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, Metadata, PageParams, V3Options } from './common.js';
import type { NftItem } from './nfts.js';
import { address, bool, pageParams, required, text, v3Route } from './params.js';

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

/** A .ton auction where the asked bidder is the current leading bidder (v3-more-routes.md §1). */
export interface DnsAuction {
  nft_item_address: string;
  domain: string;
  max_bid_address: string;
  max_bid_amount: string;
  /** unix time, as a string */
  auction_end_time: string;
  /** unix time, as a string */
  last_fill_up_time: string;
  /** auction_end_time <= now at request time */
  finished: boolean;
  /** with include_nft_items only */
  nft_item?: NftItem;
}

export interface DnsAuctionsResponse {
  auctions: DnsAuction[];
  address_book: AddressBook;
  metadata: Metadata;
  /** set when the page came back full: pass it as `after` */
  next_cursor: string | null;
}

export type DnsAuctionState = 'all' | 'won' | 'bidding';

/** The position after which a page starts: (auction_end_time, nft_item_address raw). */
export interface DnsAuctionCursor {
  endTime: bigint;
  item: string;
}

export interface DnsAuctionsParams extends PageParams, V3Options {
  bidder: Address;
  /** default 'all' */
  state?: DnsAuctionState;
  includeNftItems?: boolean;
  after?: DnsAuctionCursor;
}

/** The cursor's wire form: url-safe base64 (no padding) of `<end time, 20 digits>:<raw item address>`. */
export function encodeDnsCursor(c: DnsAuctionCursor): string {
  return Buffer.from(`${c.endTime.toString().padStart(20, '0')}:${c.item}`).toString('base64url');
}

export function decodeDnsCursor(raw: string): DnsAuctionCursor {
  const m = /^(\d{20}):(-?\d+:[0-9A-Fa-f]{64})$/.exec(/^[A-Za-z0-9_-]*$/.test(raw) ? Buffer.from(raw, 'base64url').toString() : '');
  if (!m) throw new ApiError(422, 'invalid after cursor');
  return { endTime: BigInt(m[1]!), item: m[2]!.toUpperCase() };
}

function checkState(state: string): DnsAuctionState {
  if (state === 'all' || state === 'won' || state === 'bidding') return state;
  throw new ApiError(422, 'state must be one of: all, won, bidding');
}

/** What a source answers for these routes. */
export interface DnsApi {
  dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse>;
  dnsAuctions(p: DnsAuctionsParams): Promise<DnsAuctionsResponse>;
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

  v3Route({
    methods: ['GET'],
    path: '/dns/activeAuctions',
    summary: '.ton DNS auctions led by a bidder',
    params: {
      bidder: required(address(), 'bidder address is required'),
      state: text({ default: 'all', check: checkState }),
      include_nft_items: bool({ default: false }),
      after: text({ check: (raw?: string) => (raw === undefined ? undefined : decodeDnsCursor(raw)), encode: (c: unknown) => encodeDnsCursor(c as DnsAuctionCursor) }),
      ...pageParams,
    },
    response: 'DNSAuctionsResponse',
    top: 'auctions',
    cache: TTL_CACHE,
    api: 'dnsAuctions',
    options: true,
    check: (p: DnsAuctionsParams) => {
      if (p.after && (p.offset ?? 0) > 0) throw new ApiError(422, 'use either after or offset, not both');
    },
  }),
];
