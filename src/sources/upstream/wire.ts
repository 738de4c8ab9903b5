/** What the v2 and v3 upstream clients send alike: cache policies, base64, the estimateFee body. */
import type { EstimateFeeParams } from '../../api/v2.js';
import type { CachePolicy } from './client.js';

export const TTL: CachePolicy = { kind: 'ttl' };
export const NONE: CachePolicy = { kind: 'none' };

export const b64 = (b: Buffer): string => b.toString('base64');

/** Both APIs take the same estimateFee body; only the address form differs (v2 lower-case raw, v3 upper-case). */
export const estimateFeeBody = (p: EstimateFeeParams, address: string): Record<string, unknown> => ({
  address,
  body: b64(p.body),
  ...(p.initCode ? { init_code: b64(p.initCode) } : {}),
  ...(p.initData ? { init_data: b64(p.initData) } : {}),
  ignore_chksig: p.ignoreChksig,
});
