/** v2 send (v2.md §4.5, §4.6): external messages to the network, and their fees by emulation. */
import type { Address } from '@ton/core';
import { NO_CACHE } from '../descriptor.js';
import { endpoint, object, POST_ONLY, type V2Endpoint } from './endpoint.js';
import { address, at, bool, boc, required } from './params.js';

export interface Ok {
  '@type': 'ok';
}

export interface ExtMessageInfo {
  '@type': 'raw.extMessageInfo';
  hash: string;
  hash_norm: string;
}

export interface Fees {
  '@type': 'fees';
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface QueryFees {
  '@type': 'query.fees';
  source_fees: Fees;
  destination_fees: Fees[];
}


export interface EstimateFeeParams {
  address: Address;
  body: Buffer;
  initCode?: Buffer;
  initData?: Buffer;
  ignoreChksig: boolean;
}

export interface SendApi {
  sendBoc(p: { boc: Buffer }): Promise<Ok>;
  sendBocReturnHash(p: { boc: Buffer }): Promise<ExtMessageInfo>;
  estimateFee(p: EstimateFeeParams): Promise<QueryFees>;
}

const bocParams = { boc: required(at(boc(), { description: 'base64 BoC of an external message' })) };

export const SEND: readonly V2Endpoint[] = [
  endpoint({
    name: 'sendBoc',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Send an external message',
    params: bocParams,
    idempotent: false,
    result: object('ok'),
    cache: NO_CACHE,
  }),
  endpoint({
    name: 'sendBocReturnHash',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Send an external message; answers its hash and normalized hash',
    params: bocParams,
    idempotent: false,
    result: object('raw.extMessageInfo'),
    cache: NO_CACHE,
  }),
  endpoint({
    name: 'sendBocReturnHashNoError',
    api: 'sendBocReturnHash',
    upstream: false,
    methods: POST_ONLY,
    category: 'Send',
    summary: 'As sendBocReturnHash, but a refused message is a 400',
    params: bocParams,
    // the C++ variant reports every send failure of this method as 400 with the source's text
    failureStatus: 400,
    idempotent: false,
    result: object('raw.extMessageInfo'),
    cache: NO_CACHE,
  }),
  endpoint({
    name: 'estimateFee',
    methods: POST_ONLY,
    category: 'Send',
    summary: 'Fees of an external message, by emulation',
    params: {
      address: required(address()),
      body: required(at(boc(), { description: 'base64 BoC of the message body' })),
      init_code: at(boc(), { description: 'base64 BoC of the code of the state to deploy; none when absent or empty' }),
      init_data: at(boc(), { description: 'base64 BoC of the data of the state to deploy; none when absent or empty' }),
      ignore_chksig: at(bool(), { default: true }),
    },
    result: object('query.fees'),
    cache: NO_CACHE,
  }),
];
