/**
 * Traces as v3 prints them (v3.md §2.6, §3.3): the tree of a cascade's transactions, its order and counts, and
 * actions in their v3 form. Rules from ton-index-go at eb9fbfa3:
 * - the tree is assembled like `parse/utils.go` `AssembleTraceTxsFromMap`: transactions in lt order, each
 *   attached under the transaction whose out-message it received (the local chain says which one directly:
 *   an out-message carrying a StateInit is re-serialised on delivery there, so hashes alone do not link
 *   sender and receiver); a node with no out-messages has
 *   `children: []`, one whose out-messages nobody received keeps `children: null`; a second parentless
 *   transaction sets the warning "missing node in trace found";
 * - `messages` counts the external-in message and every out-message, `pending_messages` those sent by
 *   transactions not yet in a block (`crud/pending.go`);
 * - `mc_seqno_start`/`mc_seqno_end` are decimal strings; the end lt/utime are the largest of the transactions'.
 */
import type { Action } from '../../api/v3/actions.js';
import type { ClassificationState, Trace, TraceNode, TraceState } from '../../api/v3/traces.js';
import type { Finality } from '../../api/v3/common.js';
import type { Transaction } from '../../api/v3/transactions.js';
import type { ClassifiedAction } from './actions/index.js';

/**
 * The tree of `txs` (lt order) and the reference's warning when it is not one tree. `parentOf` names the
 * transaction (base64 hash) whose out-message caused each one; without it, parents are found by message hash
 * as the reference does (an out-message hash equal to the child's in-message hash).
 */
export function traceTree(txs: readonly Transaction[], parentOf?: (txHash: string) => string | undefined): { root?: TraceNode; warning?: string } {
  const byTx = new Map<string, TraceNode>();
  const awaiting = new Map<string, TraceNode>();
  let root: TraceNode | undefined;
  let warning: string | undefined;
  for (const tx of txs) {
    const inMsgHash = tx.in_msg?.hash ?? '';
    const node: TraceNode = { tx_hash: tx.hash, in_msg_hash: inMsgHash, children: tx.out_msgs.length === 0 ? [] : null };
    byTx.set(tx.hash, node);
    for (const m of tx.out_msgs) awaiting.set(m.hash, node);
    const parentHash = parentOf?.(tx.hash);
    const parent = parentOf ? (parentHash !== undefined ? byTx.get(parentHash) : undefined) : awaiting.get(inMsgHash);
    if (parent) {
      awaiting.delete(inMsgHash);
      (parent.children ??= []).push(node);
    } else if (!root) root = node;
    else warning = 'missing node in trace found';
  }
  return { root, warning };
}

export interface TraceParts {
  /** root transaction hash (base64); null while the root is pending */
  traceId: string | null;
  /** lt order (then account) */
  txs: readonly Transaction[];
  state: TraceState;
  classification: ClassificationState;
  /** transactions among `txs` that are not in a block yet */
  pendingTxHashes: ReadonlySet<string>;
  /** base64 hash of each transaction's parent; see traceTree */
  parentOf?: (txHash: string) => string | undefined;
  actions?: Action[];
  /** why the trace cannot complete (a fork's message that was never delivered); replaces the tree's warning */
  warning?: string;
  /** messages sent by sealed transactions that wait for their destination (a fork's loads) */
  extraPendingMessages?: number;
}

export function traceToV3(p: TraceParts): Trace {
  const root = p.txs[0]!;
  let endLt = root.lt;
  let endUtime = root.now;
  let mcEnd = root.mc_block_seqno;
  let messages = 0;
  let pendingMessages = 0;
  for (const tx of p.txs) {
    if (BigInt(tx.lt) > BigInt(endLt)) endLt = tx.lt;
    if (tx.now > endUtime) endUtime = tx.now;
    if (tx.mc_block_seqno > mcEnd) mcEnd = tx.mc_block_seqno;
    const count = tx.out_msgs.length + (tx.in_msg && tx.in_msg.source === null ? 1 : 0);
    messages += count;
    if (p.pendingTxHashes.has(tx.hash)) pendingMessages += count;
  }
  pendingMessages += p.extraPendingMessages ?? 0;
  const { root: tree, warning: treeWarning } = traceTree(p.txs, p.parentOf);
  const warning = p.warning ?? treeWarning;
  return {
    trace_id: p.traceId,
    external_hash: root.in_msg?.hash ?? null,
    mc_seqno_start: String(root.mc_block_seqno),
    mc_seqno_end: String(mcEnd),
    start_lt: root.lt,
    start_utime: root.now,
    end_lt: endLt,
    end_utime: endUtime,
    trace_info: {
      trace_state: p.state,
      messages,
      transactions: p.txs.length,
      pending_messages: pendingMessages,
      classification_state: p.classification,
    },
    is_incomplete: false,
    ...(warning ? { warning } : {}),
    ...(p.actions ? { actions: p.actions } : {}),
    ...(tree ? { trace: tree } : {}),
    transactions_order: p.txs.map((t) => t.hash),
    transactions: Object.fromEntries(p.txs.map((t) => [t.hash, t])),
  };
}

/** What an action takes from its trace. */
export interface ActionTraceContext {
  traceId: string | null;
  traceEndLt: string;
  traceEndUtime: number;
  traceMcSeqnoEnd: number;
  /** the root's in-message hash and, for an external one, its normalised hash */
  externalHash?: string;
  externalHashNorm?: string;
  finality: Finality;
}

const hexToB64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');

/** An action in v3 form (key order of `models.Action`); accounts and transactions_full are added by the caller. */
export function actionToV3(a: ClassifiedAction, t: ActionTraceContext): Action {
  return {
    trace_id: t.traceId,
    action_id: a.actionId,
    start_lt: a.startLt.toString(),
    end_lt: a.endLt.toString(),
    start_utime: a.startUtime,
    end_utime: a.endUtime,
    trace_end_lt: t.traceEndLt,
    trace_end_utime: t.traceEndUtime,
    trace_mc_seqno_end: t.traceMcSeqnoEnd,
    transactions: a.txHashes.map(hexToB64),
    success: a.success,
    type: a.type,
    details: a.details,
    ...(t.externalHash ? { trace_external_hash: t.externalHash } : {}),
    ...(t.externalHashNorm ? { trace_external_hash_norm: t.externalHashNorm } : {}),
    finality: t.finality,
  };
}
