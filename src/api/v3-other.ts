/**
 * The v3 seam, part 2: DNS records, multisig wallets and orders, vesting (v3.md §2.5). Shapes and params as the
 * reference answers them (`models/dns.go`, `models/multisig.go`, `models/vesting.go` of ton-index-go).
 */
import type { Address } from '@ton/core';
import type { AddressBook, PageParams, SortParams, V3Options } from './v3.js';

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

/** One action of an order's cell (`parse_actions=true`). */
export interface MultisigOrderAction {
  destination: string | null;
  value: string | null;
  /** the message body BoC, base64 */
  body_raw: string | null;
  parsed: boolean;
  error: string | null;
  parsed_body: Record<string, unknown> | null;
  /** ton_transfer, jetton_transfer, nft_transfer, jetton_burn, multisig_update_params or unknown */
  parsed_body_type: string;
  send_mode: number;
}

export interface MultisigOrder {
  address: string;
  multisig_address: string;
  order_seqno: string | null;
  threshold: number | null;
  sent_for_execution: boolean | null;
  approvals_mask: string | null;
  approvals_num: number | null;
  expiration_date: number | null;
  order_boc: string | null;
  signers: string[];
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  actions: MultisigOrderAction[];
}

export interface Multisig {
  address: string;
  next_order_seqno: string | null;
  threshold: number | null;
  signers: string[];
  proposers: string[];
  last_transaction_lt: string;
  code_hash: string | null;
  data_hash: string | null;
  orders: MultisigOrder[];
}

export interface MultisigResponse {
  multisigs: Multisig[];
  address_book: AddressBook;
}

export interface MultisigOrderResponse {
  orders: MultisigOrder[];
  address_book: AddressBook;
}

export interface VestingInfo {
  address: string;
  start_time: number | null;
  total_duration: number | null;
  unlock_period: number | null;
  cliff_duration: number | null;
  sender_address: string | null;
  owner_address: string | null;
  total_amount: string | null;
  whitelist: string[];
}

export interface VestingContractsResponse {
  vesting_contracts: VestingInfo[];
  address_book: AddressBook;
}

// ---- parameters ----

/** Exactly one of wallet and domain (checked by the surface). */
export interface DnsRecordsParams extends PageParams, V3Options {
  wallet?: Address;
  domain?: string;
}

/** At least one of address and walletAddress (checked by the surface). */
export interface MultisigWalletsParams extends PageParams, SortParams, V3Options {
  address?: Address[];
  /** matches signers or proposers */
  walletAddress?: Address[];
  /** default true */
  includeOrders?: boolean;
}

/** At least one of address and multisigAddress (checked by the surface). */
export interface MultisigOrdersParams extends PageParams, SortParams, V3Options {
  address?: Address[];
  multisigAddress?: Address[];
  /** default false */
  parseActions?: boolean;
}

/** Exactly one of contractAddress and walletAddress (checked by the surface). */
export interface VestingParams extends PageParams, V3Options {
  contractAddress?: Address[];
  /** matches the owner or the sender, and the whitelist with checkWhitelist */
  walletAddress?: Address[];
  /** default false */
  checkWhitelist?: boolean;
}

export interface V3OtherApi {
  dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse>;
  multisigWallets(p: MultisigWalletsParams): Promise<MultisigResponse>;
  multisigOrders(p: MultisigOrdersParams): Promise<MultisigOrderResponse>;
  vestingContracts(p: VestingParams): Promise<VestingContractsResponse>;
}
