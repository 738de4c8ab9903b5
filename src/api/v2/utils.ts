/** v2 utils (v2.md §4.7): an address or hash in all its forms. */
import { endpoint, IMMUTABLE, object, READ, STRING, type ResultShape, type V2Endpoint } from './endpoint.js';
import { addressText, hashText, required } from './params.js';

export interface DetectedAddressVariant {
  '@type': 'ext.utils.detectedAddressVariant';
  b64: string;
  b64url: string;
}

export interface DetectedAddress {
  '@type': 'ext.utils.detectedAddress';
  raw_form: string;
  bounceable: DetectedAddressVariant;
  non_bounceable: DetectedAddressVariant;
  given_type: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
  test_only: boolean;
}

export interface DetectedHash {
  '@type': 'ext.utils.detectedHash';
  b64: string;
  b64url: string;
  hex: string;
}

export interface UtilsApi {
  detectAddress(p: { address: string }): Promise<DetectedAddress>;
  detectHash(p: { hash: string }): Promise<DetectedHash>;
  packAddress(p: { address: string }): Promise<string>;
  unpackAddress(p: { address: string }): Promise<string>;
}

const util = (name: keyof UtilsApi, summary: string, params: V2Endpoint['params'], result: ResultShape): V2Endpoint =>
  endpoint({ name, methods: READ, category: 'Utils', summary, params, result, cache: IMMUTABLE });

const addressParams = { address: required(addressText()) };

export const UTILS: readonly V2Endpoint[] = [
  util('detectAddress', 'Every form of an address', addressParams, object('ext.utils.detectedAddress')),
  util('detectHash', 'A hash as base64, base64url and hex', { hash: required(hashText()) }, object('ext.utils.detectedHash')),
  util('packAddress', 'Raw address to user-friendly form', addressParams, STRING),
  util('unpackAddress', 'User-friendly address to raw form', addressParams, STRING),
];
