/**
 * What every v3 resource shares (../shared/reference/v3.md §1.3 output formats, §1.4 paging, §3): the
 * enumerations, the address book and metadata every list answer carries, the request options and the paging
 * rules used alike by surface and source. Shapes come from the Go server `toncenter/ton-indexer` ton-index-go,
 * checked against ../shared/reference/v3-openapi.json (1.2.4) and recorded responses; where they differ v3.md
 * wins. Parameters arrive parsed by the surface: addresses as @ton/core Address, hashes as 32-byte Buffers, lt
 * as bigint, sort as 'asc' | 'desc'.
 */

export type AccountStatus = 'uninit' | 'frozen' | 'active' | 'nonexist';

export type DescrType = 'ord' | 'storage' | 'tick_tock' | 'split_prepare' | 'split_install' | 'merge_prepare' | 'merge_install';

export type StatusChange = 'unchanged' | 'frozen' | 'deleted';

export type SkipReason = 'no_state' | 'bad_state' | 'no_gas' | 'suspended';

export type BounceType = 'negfunds' | 'nofunds' | 'ok';

export type Finality = 'pending' | 'confirmed' | 'finalized';

export type Sort = 'asc' | 'desc';

export type Direction = 'in' | 'out';

/** Extra currencies as v3 prints them: `{ "<currency id>": "<amount>" }`. */
export type ExtraCurrencies = Record<string, string>;

export interface AddressBookRow {
  user_friendly: string | null;
  domain: string | null;
  interfaces: string[] | null;
}

/** Keyed by raw uppercase address (by the caller's input strings on /addressBook). */
export type AddressBook = Record<string, AddressBookRow>;

export interface TokenInfo {
  valid?: boolean;
  type?: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

export type Metadata = Record<string, AddressMetadata>;

/** Per-request switches (X-No-Address-Book / X-No-Metadata, v3.md §1.1): the key is then `{}`. */
export interface V3Options {
  noAddressBook?: boolean;
  noMetadata?: boolean;
}

/**
 * Paging as the seam receives it: resolved by the surface from the route's descriptor (default, bounds, the
 * reference's 422), so a source never re-applies a default.
 */
export interface PageParams {
  limit: number;
  offset: number;
}

export interface SortParams {
  /** the route's default (desc) when not asked */
  sort: Sort;
}

export interface UtimeWindow {
  startUtime?: number;
  endUtime?: number;
}

export interface LtWindow {
  startLt?: bigint;
  endLt?: bigint;
}

export const V3_DEFAULT_LIMIT = 100;

export const V3_MAX_LIMIT = 1000;
