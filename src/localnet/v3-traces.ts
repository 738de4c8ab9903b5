/**
 * The v3 trace routes over the local chain (v3.md §2.1 pendingTransactions, §2.6, §2.7 decode, §4): traces
 * assembled from the store's cascades, actions classified from them, and accepted-but-unsealed work.
 */
import type { V3TracesApi } from '../api/v3-traces.js';
import type { LocalV3Context } from './v3.js';

export class LocalV3Traces implements V3TracesApi {
  constructor(private readonly ctx: LocalV3Context) {}
}
