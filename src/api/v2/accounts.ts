/**
 * v2 accounts (v2.md §4.2, §6, §7): an account's state, balance, wallet and token data, as of the latest or a
 * given masterchain block.
 */
import type { Address } from '@ton/core';
import { TTL_CACHE } from '../descriptor.js';
import { atSeqnoOr, endpoint, object, READ, STRING, type V2Endpoint } from './endpoint.js';
import type { AccountAddress, AtSeqno, BlockIdExt, ExtraCurrency, TransactionId } from './objects.js';
import { DnsResolveError, prepareDomain } from '../../model/dns-resolve.js';
import { address, at, int32, invalid, required, string } from './params.js';

export type AccountStateName = 'uninitialized' | 'active' | 'frozen';

export interface FullAccountState {
  '@type': 'raw.fullAccountState';
  balance: string;
  extra_currencies: ExtraCurrency[];
  code: string;
  data: string;
  last_transaction_id: TransactionId;
  block_id: BlockIdExt;
  frozen_hash: string;
  sync_utime: number;
  state: AccountStateName;
  suspended?: boolean;
}

export type ExtendedAccountState =
  | { '@type': 'raw.accountState'; code: string; data: string; frozen_hash: string }
  | { '@type': 'wallet.v3.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'wallet.v4.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'wallet.v5.accountState'; wallet_id: string; seqno: number }
  | { '@type': 'uninited.accountState'; frozen_hash: string };

export interface ExtendedAddressInformation {
  '@type': 'fullAccountState';
  address: AccountAddress;
  balance: string;
  extra_currencies: ExtraCurrency[];
  last_transaction_id: TransactionId;
  block_id: BlockIdExt;
  sync_utime: number;
  account_state: ExtendedAccountState;
  revision: number;
}

export type WalletType =
  | 'wallet v1 r1'
  | 'wallet v1 r2'
  | 'wallet v1 r3'
  | 'wallet v2 r1'
  | 'wallet v2 r2'
  | 'wallet v3 r1'
  | 'wallet v3 r2'
  | 'wallet v4 r1'
  | 'wallet v4 r2'
  | 'wallet v5 beta'
  | 'wallet v5 r1';

export interface WalletInformation {
  '@type': 'ext.accounts.walletInformation';
  wallet: boolean;
  balance: string;
  account_state: AccountStateName;
  last_transaction_id: TransactionId;
  wallet_type?: WalletType;
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

export type TokenContent =
  | { type: 'onchain'; data: Record<string, string> }
  | { type: 'offchain'; data: string };

export type TokenData =
  | {
      '@type': 'ext.tokens.jettonMasterData';
      contract_type: 'jetton_master';
      address: string;
      total_supply: string;
      mintable: boolean;
      admin_address?: string;
      jetton_content: TokenContent;
      jetton_wallet_code: string;
    }
  | {
      '@type': 'ext.tokens.jettonWalletData';
      contract_type: 'jetton_wallet';
      address: string;
      balance: string;
      owner: string;
      jetton: string;
      jetton_wallet_code: string;
      mintless_is_claimed?: boolean;
    }
  | {
      '@type': 'ext.tokens.nftCollectionData';
      contract_type: 'nft_collection';
      address: string;
      next_item_index: string;
      owner_address?: string;
      collection_content: TokenContent;
    }
  | {
      '@type': 'ext.tokens.nftItemData';
      contract_type: 'nft_item';
      address: string;
      init: boolean;
      index: string;
      collection_address?: string;
      owner_address?: string;
      content: TokenContent | Record<string, unknown>;
    };

export interface AddressParams extends AtSeqno {
  address: Address;
}

/** A DNS record as tonlib prints it (dns.EntryData). */
export type DnsEntryData =
  | { '@type': 'dns.entryDataUnknown'; /** the record's BoC, base64 */ bytes: string }
  | { '@type': 'dns.entryDataText'; text: string }
  | { '@type': 'dns.entryDataNextResolver'; resolver: AccountAddress }
  | { '@type': 'dns.entryDataSmcAddress'; smc_address: AccountAddress }
  | { '@type': 'dns.entryDataAdnlAddress'; adnl_address: { '@type': 'adnlAddress'; adnl_address: string } }
  | { '@type': 'dns.entryDataStorageAddress'; /** base64 */ bag_id: string };

export interface DnsEntry {
  '@type': 'dns.entry';
  /** the normalised requested domain */
  name: string;
  /** the category (sha256 of its name), base64 */
  category: string;
  entry: DnsEntryData;
}

export interface DnsResolved {
  '@type': 'dns.resolved';
  entries: DnsEntry[];
}

export interface DnsResolveParams extends AtSeqno {
  /** absent: refused as an empty name */
  domain?: string;
  /** the resolver to start at (the name is then relative to it); absent: the root of config param 4 */
  resolverAddress?: Address;
}

export interface AccountsApi {
  getAddressInformation(p: AddressParams): Promise<FullAccountState>;
  getExtendedAddressInformation(p: AddressParams): Promise<ExtendedAddressInformation>;
  getWalletInformation(p: AddressParams): Promise<WalletInformation>;
  getAddressBalance(p: AddressParams): Promise<string>;
  getAddressState(p: AddressParams): Promise<AccountStateName>;
  getTokenData(p: AddressParams): Promise<TokenData>;
  /** 502 `DNS resolution: <reason>` for a resolver that answers out of the protocol */
  dnsResolve(p: DnsResolveParams): Promise<DnsResolved>;
}

/** Masterchain seqno to read the state at, as several groups take it. */
export const seqnoAt = () => at(int32(), { min: 1, description: 'masterchain seqno to read the state at; latest when absent' });

const accountEndpoint = (name: keyof AccountsApi, summary: string, result = object()): V2Endpoint =>
  endpoint({
    name,
    methods: READ,
    category: 'Accounts',
    summary,
    params: { address: required(address()), seqno: seqnoAt() },
    result,
    cache: atSeqnoOr(TTL_CACHE),
  });

export const ACCOUNTS: readonly V2Endpoint[] = [
  accountEndpoint('getAddressInformation', 'Account balance, code, data and last transaction (raw.fullAccountState)', object('raw.fullAccountState')),
  accountEndpoint('getExtendedAddressInformation', 'Account state parsed by tonlib (fullAccountState)', object('fullAccountState')),
  accountEndpoint('getWalletInformation', 'Wallet detection: type, seqno, wallet_id', object('ext.accounts.walletInformation')),
  accountEndpoint('getAddressBalance', 'Balance in nanotons, as a string', STRING),
  accountEndpoint('getAddressState', 'uninitialized, active or frozen', STRING),
  accountEndpoint('getTokenData', 'Jetton or NFT data of a contract'),
  endpoint({
    name: 'dnsResolve',
    methods: READ,
    category: 'Accounts',
    summary: 'Every DNS record of a domain, following resolver delegation from config param 4 or resolver_address',
    params: {
      domain: string('the domain, e.g. foundation.ton (lower-cased, one trailing dot dropped)'),
      resolver_address: address('the resolver to start at; the domain is then relative to it'),
      seqno: seqnoAt(),
      // the contract before ton-http-api-cpp 2.1.13, which existing clients send: the start resolver and the name
      // fill the new fields when those are absent; category and ttl are read and checked only, since every
      // resolution now follows delegation and answers every category (toncenter refuses all four)
      address: at(address('former resolver_address'), { field: 'legacyAddress', upstream: false }),
      name: at(string('former domain'), { field: 'legacyName', upstream: false }),
      category: at(string('former category filter; read, not applied'), { upstream: false }),
      ttl: at(int32('former delegation bound; read, not applied'), { min: 0, upstream: false }),
    },
    result: object('dns.resolved'),
    cache: atSeqnoOr(TTL_CACHE),
    bareErrors: true,
    check: (p: DnsResolveParams & { legacyAddress?: Address; legacyName?: string; category?: string; ttl?: number }) => {
      if (p.domain === undefined && p.legacyName !== undefined) p.domain = p.legacyName;
      if (p.resolverAddress === undefined && p.legacyAddress !== undefined) p.resolverAddress = p.legacyAddress;
      delete p.legacyName;
      delete p.legacyAddress;
      delete p.category;
      delete p.ttl;
      try {
        prepareDomain(p.domain, p.resolverAddress !== undefined);
      } catch (e) {
        if (e instanceof DnsResolveError) throw invalid(e.message, e.status);
        throw e;
      }
    },
  }),
];
