/**
 * /api/v3 traces over the local chain (v3.md §2.6, §4): sealed traces from the trace index (indexer/traces.ts),
 * in the reference's order and with its filters, and the pending ones (/pendingTraces).
 */
import { ApiError } from '../../../api/errors.js';
import type { Sort } from '../../../api/v3/common.js';
import type { Action } from '../../../api/v3/actions.js';
import type { PendingTracesParams, Trace, TracesApi, TracesParams, TracesResponse } from '../../../api/v3/traces.js';
import { expandActionTypes } from '../../../model/v3/index.js';
import type { TraceRecords, TraceSummary } from '../indexer/traces.js';
import type { LocalV3Context } from './v3-context.js';
import { cmp, dir, TraceReads } from './v3-trace-reads.js';
import { pageOfWalk } from './v3-order.js';

export function localTraces(ctx: LocalV3Context): TracesApi {
  const reads = new TraceReads(ctx);

  async function tracesResponse(list: TraceRecords[], includeActions: boolean, supported: ReadonlySet<string>, opts: TracesParams | PendingTracesParams): Promise<TracesResponse> {
    const traces: Trace[] = [];
    const addrs: string[] = [];
    for (const t of list) {
      const root = t.txs[0]!;
      const txs = t.txs.map((r) => reads.txV3(r, root));
      addrs.push(...reads.txAddresses(txs));
      let actions: Action[] | undefined;
      if (includeActions) {
        const rows = await reads.actionRows(t, () => txs, supported);
        actions = rows.map((r) => r.v3);
        for (const r of rows) addrs.push(...r.action.addresses);
      }
      traces.push(reads.traceV3(t, txs, actions));
    }
    return { traces, address_book: ctx.book(addrs, opts), metadata: await ctx.metadata(addrs, opts) };
  }

  return {
    async listTraces(p: TracesParams): Promise<TracesResponse> {
      const s = p.sort;
      if (p.mcSeqno !== undefined && (p.mcSeqno < 0 || !ctx.store.mcBlock(p.mcSeqno))) {
        throw new ApiError(404, `masterchain block ${p.mcSeqno} not found`);
      }
      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
      const traceIds = p.traceId?.length ? new Set(p.traceId.map((h) => h.toString('hex'))) : undefined;
      const txHashes = p.txHash?.length ? new Set(p.txHash.map((h) => h.toString('hex'))) : undefined;
      const candidates = reads.candidateTraces({ traceIds, txHashes, ...(p.msgHash ? { msgHash: p.msgHash } : {}), ...(p.account ? { account: p.account } : {}), ...(p.mcSeqno !== undefined ? { mcSeqno: p.mcSeqno } : {}) });
      const keep = (t: TraceSummary): boolean => {
        if (p.account && !t.txs.some((r) => r.account.equals(p.account!))) return false;
        if (traceIds && !traceIds.has(t.root)) return false;
        if (txHashes && !t.txs.some((r) => txHashes.has(r.hash))) return false;
        if (p.msgHash?.length && reads.messageTxs(t, p.msgHash).size === 0) return false;
        return (
          (p.mcSeqno === undefined || t.mcEnd === p.mcSeqno) &&
          (p.startUtime === undefined || t.endUtime >= p.startUtime) &&
          (p.endUtime === undefined || t.endUtime <= p.endUtime) &&
          (p.startLt === undefined || t.endLt >= p.startLt) &&
          (p.endLt === undefined || t.endLt <= p.endLt)
        );
      };
      const rows = pageOfWalk(
        reads.orderedTraces(candidates, s, p),
        keep,
        (a, b) => (hasUtime ? a.endUtime === b.endUtime : a.endLt === b.endLt),
        (a, b) => dir(s, hasUtime ? cmp(a.endUtime, b.endUtime) || cmp(a.id, b.id) : cmp(a.endLt, b.endLt) || cmp(a.id, b.id)),
        p,
      );
      const supported = expandActionTypes(p.supportedActionTypes);
      return tracesResponse(rows, p.includeActions ?? false, supported, p);
    },

    async pendingTraces(p: PendingTracesParams): Promise<TracesResponse> {
      return tracesResponse(reads.selectPending(p), true, expandActionTypes(p.supportedActionTypes), p);
    },
  };
}
