/**
 * Where a toncenter is and how the client calls it: the public networks' addresses, the client's settings and the
 * largest answer it reads. Upstream mode's options (sources/upstream/options.ts) and fork mode fill them in.
 */
import type { Network } from '../model/network.js';

/** Default upstream base addresses per network, when V2_URL / V3_URL are not given. */
export const TONCENTER_URLS: Record<Network, string> = {
  mainnet: 'https://toncenter.com',
  testnet: 'https://testnet.toncenter.com',
};

/**
 * The largest upstream answer read by default. toncenter's biggest legitimate answers are pages at limit 1000:
 * a recorded v3 transaction with its messages is 3-6 KB of JSON, so /api/v3/transactions?limit=1000 is a few
 * MB and tens of MB when the messages carry init states or large bodies; 64 MiB leaves room for those (and for
 * /api/v3/accountStates with code and data) while four such answers in flight stay within a few hundred MB.
 */
export const DEFAULT_UPSTREAM_MAX_BYTES = 64 * 1024 * 1024;

/** Where and how the client calls a toncenter (upstream mode, and a fork's upstream). */
export interface UpstreamConfig {
  /** base address; /api/v2/... is appended */
  v2Url: string;
  /** base address; /api/v3/... is appended */
  v3Url: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  /** outgoing requests per second over both APIs; 0 = unlimited */
  rps: number;
  /** per-attempt timeout in ms, covering the whole answer (headers and body) */
  timeoutMs: number;
  /** largest upstream answer body read, in bytes; a larger one is refused (502) */
  maxBytes: number;
  /** size bound of the cache of immutable objects, in MB; 0 = no cache */
  cacheMb: number;
  /** how long account states and masterchain info are reused, in ms; 0 = never */
  accountTtlMs: number;
}

/** One API's own upstream key and pace, for when v2 and v3 are different services (default: the shared ones). */
export type UpstreamApiConfig = Pick<UpstreamConfig, 'apiKey' | 'rps'>;
