/**
 * /api/v3/balanceChanges over the local chain (toncenter-newer.md §4): a sealed trace's sums, or one of its
 * actions' (as the default `latest` set shows them), from the trace index and the contract index's jetton wallets.
 */
import { ApiError } from '../../../api/errors.js';
import type { BalanceChangesApi, BalanceChangesParams, BalanceChangesResponse } from '../../../api/v3/balance-changes.js';
import { actionSlice, balanceChangesOf, expandActionTypes, NO_BALANCE_CHANGES, type JettonWalletOf } from '../../../model/v3/index.js';
import type { LocalV3Context } from './v3-context.js';
import { TraceReads } from './v3-trace-reads.js';

const NOT_FOUND = 'trace or action not found';

export function localBalanceChanges(ctx: LocalV3Context): BalanceChangesApi {
  const reads = new TraceReads(ctx);

  return {
    async balanceChanges(p: BalanceChangesParams): Promise<BalanceChangesResponse> {
      const actionId = p.actionId?.toString('base64');
      const root = p.traceId ? p.traceId.toString('hex') : (await reads.traces.rootsOfAction(actionId!))[0];
      const trace = root === undefined ? undefined : reads.traces.trace(root);
      if (!trace) throw new ApiError(404, NOT_FOUND);
      const first = trace.txs[0]!;
      const txs = trace.txs.map((r) => reads.txV3(r, first));
      await ctx.indexer.contracts.sync();
      const walletOf: JettonWalletOf = (raw) => {
        const c = ctx.indexer.contracts.get(raw);
        return c?.kind === 'jetton_wallet' ? { owner: c.owner, jetton: c.jetton } : undefined;
      };
      if (actionId === undefined) return balanceChangesOf(txs, walletOf);
      const rows = await reads.actionRows(trace, () => txs, expandActionTypes(undefined));
      const action = rows.find((r) => r.v3.action_id === actionId)?.v3;
      const slice = action ? actionSlice(action, txs) : null;
      return slice ? balanceChangesOf(txs, walletOf, slice) : NO_BALANCE_CHANGES;
    },
  };
}
