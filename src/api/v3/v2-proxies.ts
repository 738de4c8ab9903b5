/**
 * The api/v2 proxies under /api/v3 (v3.md §2.7): account and wallet state v2 style, sending a message, running
 * a get-method and estimating fees. The POST routes read JSON bodies the way fiber + encoding/json read them.
 */
import type { Address } from '@ton/core';
import { checkMethodRef, LimitError } from '../../model/limits.js';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { StackArg } from '../v2.js';
import { bodyBoc, bodyBool, bodyStack, bodyText, stackValue } from './body.js';
import { address, bool, parseAddressV3, required, v3Route } from './params.js';
import type { V3WalletType } from './wallets.js';

export interface V2AddressInformation {
  balance: string;
  code: string | null;
  data: string | null;
  last_transaction_lt: string | null;
  last_transaction_hash: string | null;
  frozen_hash: string | null;
  /** v3 path: uninit|active|frozen|nonexist; use_v2 path: v2's uninitialized|active|frozen */
  status: string;
  /** listed in config param 44 (suspended accounts) until its expiry: `true` or absent, never `false` (omit-empty) */
  suspended?: boolean;
}

export interface V2WalletInformation {
  balance: string;
  wallet_type?: V3WalletType;
  seqno?: number;
  wallet_id?: number;
  last_transaction_lt: string;
  last_transaction_hash: string;
  status: string;
  /** listed in config param 44 (suspended accounts) until its expiry: `true` or absent, never `false` (omit-empty) */
  suspended?: boolean;
}

export interface V2SendMessageResult {
  message_hash: string;
  message_hash_norm?: string;
}

/** A result stack entry: numbers as "0x…" hex (negative as "-0x…"), cells and slices as BoC base64. */
export type V3StackEntry =
  | { type: 'num'; value: string }
  | { type: 'cell'; value: string }
  | { type: 'slice'; value: string }
  | { type: 'tuple'; value: V3StackEntry[] }
  | { type: 'list'; value: V3StackEntry[] };

export interface V2RunGetMethodResult {
  gas_used: number;
  exit_code: number;
  stack: V3StackEntry[];
}

export interface V2EstimatedFee {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface V2EstimateFeeResult {
  source_fees: V2EstimatedFee;
  destination_fees: V2EstimatedFee[];
}

export interface LegacyAccountParams {
  address: Address;
  /** default false: read the indexed state; true: go through the v2 interface */
  useV2?: boolean;
}

export interface V3RunGetMethodParams {
  address: Address;
  /** method name or numeric id */
  method: string | number;
  stack: StackArg[];
}

export interface V3EstimateFeeParams {
  address: Address;
  body: Buffer;
  initCode?: Buffer;
  initData?: Buffer;
  ignoreChksig: boolean;
}

/** What a source answers for these routes. */
export interface V2ProxiesApi {
  addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation>;
  walletInformation(p: LegacyAccountParams): Promise<V2WalletInformation>;
  message(p: { boc: Buffer }): Promise<V2SendMessageResult>;
  runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult>;
  estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult>;
}

/** An address from a JSON body, or the reference's 422. */
function bodyAddress(raw: string) {
  const a = parseAddressV3(raw);
  if (!a) throw new ApiError(422, `invalid address: '${raw}'`);
  return a;
}

/** A numeric method id must fit TVM's 32 bits; a name is anything. */
function methodIdFits(method: string): void {
  try {
    checkMethodRef(method);
  } catch (e) {
    if (e instanceof LimitError) throw new ApiError(422, e.message);
    throw e;
  }
}

/** /addressInformation and /walletInformation: the reference answers a missing address with 401 (sic, v3.md §2.7). */
const legacyParams = () => ({
  address: required(address(), 'address of account is required', 401),
  use_v2: bool({ default: false }),
});

export const V2_PROXY_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/addressInformation',
    aliases: ['/account'],
    summary: 'Account state, v2 style',
    params: legacyParams(),
    response: 'V2AddressInformation',
    cache: TTL_CACHE,
    api: 'addressInformation',
  }),

  v3Route({
    methods: ['GET'],
    path: '/walletInformation',
    aliases: ['/wallet'],
    summary: 'Wallet state, v2 style',
    params: legacyParams(),
    response: 'V2WalletInformation',
    cache: TTL_CACHE,
    api: 'walletInformation',
  }),

  v3Route({
    methods: ['POST'],
    path: '/message',
    summary: 'Send an external message',
    bodyStruct: 'V2SendMessageRequest',
    params: { boc: required(bodyBoc({ description: 'base64 BoC' }), 'boc is required', 401) },
    response: 'V2SendMessageResult',
    cache: NO_CACHE,
    // never repeated blindly: a lost answer may hide an accepted message
    idempotent: false,
    api: 'message',
  }),

  v3Route({
    methods: ['POST'],
    path: '/runGetMethod',
    summary: 'Run a get-method',
    bodyStruct: 'V2RunGetMethodRequest',
    params: {
      address: bodyText({ required: true, late: true, check: (a?: string) => a && bodyAddress(a) }),
      method: bodyText({ required: true, encode: String }),
      stack: bodyStack({ late: true, check: stackValue, description: '[{type: num|cell|slice, value}]' }),
    },
    // v3.md §9: the openapi reuses the request schema for the answer
    response: 'V2RunGetMethodResult',
    cache: NO_CACHE,
    api: 'runGetMethod',
    // the address and method are required before either is judged (both 401 in the reference)
    check: (p: Partial<V3RunGetMethodParams>) => {
      if (p.address === undefined) throw new ApiError(401, 'address is required');
      if (p.method === undefined) throw new ApiError(401, 'method is required');
      methodIdFits(String(p.method));
    },
  }),

  v3Route({
    methods: ['POST'],
    path: '/estimateFee',
    summary: 'Estimate the fees of an external message',
    bodyStruct: 'V2EstimateFeeRequest',
    params: {
      address: required(bodyText({ check: bodyAddress }), 'address is required'),
      body: required(bodyBoc({ description: 'base64 BoC' }), 'body is required'),
      init_code: bodyBoc({ description: 'base64 BoC' }),
      init_data: bodyBoc({ description: 'base64 BoC' }),
      ignore_chksig: bodyBool(),
    },
    response: 'V2EstimateFeeResult',
    cache: NO_CACHE,
    api: 'estimateFee',
  }),
];
