/**
 * /api/v3 actions over the local chain (v3.md §2.6, §4): the classified actions of sealed traces, with the
 * reference's filter precedence and order, and those of pending traces (/pendingActions).
 */
import { ApiError } from '../../../api/errors.js';
import {
  encodeActionsCursor,
  type Action,
  type ActionsApi,
  type ActionsCursor,
  type ActionsParams,
  type ActionsResponse,
  type PendingActionsParams,
} from '../../../api/v3/actions.js';
import type { Sort } from '../../../api/v3/common.js';
import { rawUpper } from '../../../model/address.js';
import { expandActionTypes } from '../../../model/v3/index.js';
import type { TxRecord } from '../chain/store.js';
import type { TraceSummary } from '../indexer/traces.js';
import type { LocalV3Context } from './v3-context.js';
import { cmp, dir, TraceReads, type ActionRow, type Candidates } from './v3-trace-reads.js';

/** An action's place in /actions' order: trace end, trace id, end, action id (utimes or lts for the ends). */
type Keys = [bigint, string, bigint, string];

const keysOf = (a: Action, utime: boolean): Keys => [
  utime ? BigInt(a.trace_end_utime) : BigInt(a.trace_end_lt),
  a.trace_id ?? '',
  utime ? BigInt(a.end_utime) : BigInt(a.end_lt),
  a.action_id,
];

const cmpKeys = (x: Keys, y: Keys): number => cmp(x[0], y[0]) || cmp(x[1], y[1]) || cmp(x[2], y[2]) || cmp(x[3], y[3]);

const cursorOf = (a: Action, utime: boolean, s: Sort): ActionsCursor => {
  const [traceEnd, traceId, end, actionId] = keysOf(a, utime);
  return { utimeMode: utime, desc: s === 'desc', traceEnd, traceId: Buffer.from(traceId, 'base64'), end, actionId: Buffer.from(actionId, 'base64') };
};

/** Strictly after the cursor in its order. */
const pastCursor = (a: Action, c: ActionsCursor, utime: boolean): boolean =>
  dir(c.desc ? 'desc' : 'asc', cmpKeys(keysOf(a, utime), [c.traceEnd, c.traceId.toString('base64'), c.end, c.actionId.toString('base64')])) > 0;

/** The trace window a cursor leaves: no trace past its trace end in the walk's direction is read. */
function narrowedTo(w: Partial<ActionsParams>, c: ActionsCursor | undefined, utime: boolean, s: Sort): Partial<ActionsParams> {
  if (!c) return w;
  if (utime) {
    const end = Number(c.traceEnd);
    return s === 'desc' ? { ...w, endUtime: Math.min(w.endUtime ?? end, end) } : { ...w, startUtime: Math.max(w.startUtime ?? end, end) };
  }
  const max = (a: bigint | undefined, b: bigint) => (a === undefined || b > a ? b : a);
  const min = (a: bigint | undefined, b: bigint) => (a === undefined || b < a ? b : a);
  return s === 'desc' ? { ...w, endLt: min(w.endLt, c.traceEnd) } : { ...w, startLt: max(w.startLt, c.traceEnd) };
}

export function localActions(ctx: LocalV3Context): ActionsApi {
  const reads = new TraceReads(ctx);

  /**
   * The traces holding actions with these ids, from the index of action ids (TraceIndex.rootsOfAction); an id no
   * action has names no trace.
   */
  async function tracesOfActionIds(ids: Set<string>): Promise<TraceSummary[]> {
    const roots: string[] = [];
    for (const id of ids) roots.push(...(await reads.traces.rootsOfAction(id)));
    return reads.tracesOf(roots);
  }

  async function actionsResponse(rows: ActionRow[], includeAccounts: boolean, includeTransactions: boolean, opts: ActionsParams | PendingActionsParams): Promise<ActionsResponse> {
    const addrs: string[] = [];
    const actions = rows.map((r) => {
      addrs.push(...r.action.addresses);
      const root = r.trace.txs[0]!;
      const extra: Partial<Action> = {};
      if (includeAccounts && r.action.accounts.length) extra.accounts = [...r.action.accounts];
      if (includeTransactions) {
        extra.transactions_full = r.action.txHashes
          .map((h) => r.trace.txs.find((x) => x.hash === h))
          .filter((x): x is TxRecord => x !== undefined)
          .map((x) => reads.txV3(x, root));
      }
      // finality is the last key of models.Action. Assigned, not spread: V8 (Node 20) adds properties to a
      // spread copy ~10x slower, each time with a new hidden class in the old generation
      const { finality, ...rest } = r.v3;
      return Object.assign(rest, extra, { finality }) as Action;
    });
    return { actions, address_book: ctx.book(addrs, opts), metadata: await ctx.metadata(addrs, opts) };
  }

  return {
    async actions(p: ActionsParams): Promise<ActionsResponse> {
      const s = p.sort;
      const { limit, offset } = p;
      if (p.mcSeqno !== undefined && (p.mcSeqno < 0 || !ctx.store.mcBlock(p.mcSeqno))) {
        throw new ApiError(404, `masterchain block ${p.mcSeqno} not found`);
      }
      const supported = expandActionTypes(p.supportedActionTypes);
      const include = p.actionType?.length ? new Set(p.actionType) : undefined;
      const exclude = p.excludeActionType?.length ? new Set(p.excludeActionType) : undefined;
      const accountRaw = p.account ? rawUpper(p.account) : undefined;
      const actionIds = p.actionId?.length ? new Set(p.actionId.map((h) => h.toString('base64'))) : undefined;
      const traceIds = p.traceId?.length ? new Set(p.traceId.map((h) => h.toString('hex'))) : undefined;
      const txHashes = p.txHash?.length ? new Set(p.txHash.map((h) => h.toString('hex'))) : undefined;
      // precedence (buildActionsQueryV2): action_id drops the filters before it; trace_id without account does too
      const onlyIds = actionIds !== undefined && !(traceIds && !accountRaw);
      const onlyTraces = traceIds !== undefined && !accountRaw;
      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;

      // the traces the filters can name; action_id alone names them through the ids of classified actions
      let candidates: Candidates;
      if (traceIds) candidates = reads.candidateTraces({ traceIds });
      else if (onlyIds) candidates = await tracesOfActionIds(actionIds);
      else {
        candidates = reads.candidateTraces({
          ...(txHashes ? { txHashes } : {}),
          ...(p.msgHash ? { msgHash: p.msgHash } : {}),
          ...(p.account ? { account: p.account } : {}),
          ...(p.mcSeqno !== undefined ? { mcSeqno: p.mcSeqno } : {}),
        });
      }
      const cursor = p.cursor;
      const window = narrowedTo(onlyTraces || onlyIds ? {} : p, cursor, hasUtime, s);
      const need = offset + limit;
      const traceKey = (t: TraceSummary): bigint | number => (hasUtime ? t.endUtime : t.endLt);

      const rows: ActionRow[] = [];
      let boundary: bigint | number | undefined;
      for (const t of reads.orderedTraces(candidates, s, window)) {
        // every action of a trace shares its trace keys: once the page is full, only traces tied on the leading one can still belong
        if (boundary !== undefined && traceKey(t) !== boundary) break;
        if (onlyTraces && !traceIds.has(t.root)) continue;
        if (!onlyTraces && traceIds && !traceIds.has(t.root)) continue;
        const root = t.txs[0]!;
        const msgTxs = p.msgHash?.length ? reads.messageTxs(t, p.msgHash) : undefined;
        for (const row of await reads.actionRows(t, () => t.txs.map((r) => reads.txV3(r, root)), supported, include)) {
          const a = row.action;
          const v = row.v3;
          if (!onlyTraces) {
            if (onlyIds) {
              if (!actionIds.has(v.action_id)) continue;
            } else {
              if (actionIds && !actionIds.has(v.action_id)) continue;
              if (accountRaw && !a.accounts.includes(accountRaw)) continue;
              if (txHashes && !a.txHashes.some((h) => txHashes.has(h))) continue;
              if (msgTxs && !a.txHashes.some((h) => msgTxs.has(h))) continue;
              if (exclude?.has(a.type)) continue;
              if (p.mcSeqno !== undefined && v.trace_mc_seqno_end !== p.mcSeqno) continue;
              if (p.startUtime !== undefined && v.trace_end_utime < p.startUtime) continue;
              if (p.endUtime !== undefined && v.trace_end_utime > p.endUtime) continue;
              if (p.startLt !== undefined && BigInt(v.trace_end_lt) < p.startLt) continue;
              if (p.endLt !== undefined && BigInt(v.trace_end_lt) > p.endLt) continue;
            }
          } else if (accountRaw && !a.accounts.includes(accountRaw)) continue;
          if (cursor && !pastCursor(row.v3, cursor, hasUtime)) continue;
          rows.push(row);
        }
        if (boundary === undefined && rows.length >= need) boundary = traceKey(t);
      }
      rows.sort((x, y) => dir(s, cmpKeys(keysOf(x.v3, hasUtime), keysOf(y.v3, hasUtime))));
      const page = rows.slice(offset, offset + limit);
      const answer = await actionsResponse(page, p.includeAccounts ?? false, p.includeTransactions ?? false, p);
      if (!p.cursorPaging) return answer;
      const last = page.length === limit ? page[page.length - 1]!.v3 : undefined;
      return { ...answer, next_cursor: last ? encodeActionsCursor(cursorOf(last, hasUtime, s)) : null };
    },

    async pendingActions(p: PendingActionsParams): Promise<ActionsResponse> {
      const supported = expandActionTypes(p.supportedActionTypes);
      const rows: ActionRow[] = [];
      for (const t of reads.selectPending(p)) {
        const root = t.txs[0]!;
        const list = await reads.actionRows(t, () => t.txs.map((r) => reads.txV3(r, root)), supported);
        list.sort((x, y) => cmp(y.action.endLt, x.action.endLt) || cmp(y.action.startLt, x.action.startLt));
        rows.push(...list);
      }
      return actionsResponse(rows, false, p.includeTransactions ?? false, p);
    },
  };
}
