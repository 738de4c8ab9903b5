/**
 * v3 /balanceChanges (toncenter-newer.md §4; no swagger entry): what a trace, or one action's slice of it, moved
 * in TON and jettons per account. Params and texts of ton-index-go's handler (`QueryBalanceChanges`, a7fbd951).
 */
import { TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import { hash, v3Route } from './params.js';

/**
 * The answer; keys are raw uppercase addresses (`""` where a jetton wallet's owner or master could not be
 * resolved). All three are null for an action without a slice (a contract_deploy, or one the `latest` set hides).
 */
export interface BalanceChangesResponse {
  /** net TON change in nanotons: value received - value sent - fees (a JSON integer, int64) */
  changes: Record<string, number> | null;
  /** total_fees of each transaction the address ran, plus the fwd_fee of each internal and external-out message it sent (JSON integers) */
  fees: Record<string, number> | null;
  /** jetton owner -> jetton master -> signed decimal amount, from `transfer` bodies */
  jettons: Record<string, Record<string, string>> | null;
}

export interface BalanceChangesParams {
  /** the trace to sum; with action_id too, the trace the action is looked for in */
  traceId?: Buffer;
  /** the action whose transactions are summed; alone, its trace is looked up from it */
  actionId?: Buffer;
}

/** What a source answers for this route. */
export interface BalanceChangesApi {
  /** 404 `trace or action not found` when neither names anything the index holds */
  balanceChanges(p: BalanceChangesParams): Promise<BalanceChangesResponse>;
}

export const BALANCE_CHANGES_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/balanceChanges',
    summary: 'TON and jetton balance changes of a trace or of one action',
    params: { trace_id: hash(), action_id: hash() },
    response: 'BalanceChangesResponse',
    // reused for the TTL: a trace's sums follow it until it completes
    cache: TTL_CACHE,
    api: 'balanceChanges',
    check: (p: BalanceChangesParams) => {
      if (p.traceId === undefined && p.actionId === undefined) throw new ApiError(400, 'trace_id or action_id is required');
    },
  }),
];
