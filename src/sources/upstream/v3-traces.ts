/**
 * The v3 part-2 routes over HTTP: traces, actions, pending work and /decode, passed to the upstream with the
 * same query. Nothing here is cached: traces and actions change until their trace completes, pending work
 * until it is sealed, and the upstream's classification may be revised.
 */
import type { V3TracesApi } from '../../api/v3-traces.js';
import type { UpstreamClient } from './client.js';
import { addr, optionHeaders, q, v3Calls } from './v3.js';
import { b64, NONE } from './wire.js';

const hashes = (list: Buffer[] | undefined): string[] | undefined => list?.map(b64);

export function upstreamV3Traces(client: UpstreamClient): V3TracesApi {
  const { get, post } = v3Calls(client);
  return {
    listTraces: (p) =>
      get(
        '/traces',
        q([
          ['account', p.account && addr(p.account)],
          ['trace_id', hashes(p.traceId)],
          ['tx_hash', hashes(p.txHash)],
          ['msg_hash', hashes(p.msgHash)],
          ['mc_seqno', p.mcSeqno],
          ['start_utime', p.startUtime],
          ['end_utime', p.endUtime],
          ['start_lt', p.startLt],
          ['end_lt', p.endLt],
          ['include_actions', p.includeActions],
          ['supported_action_types', p.supportedActionTypes],
          ['limit', p.limit],
          ['offset', p.offset],
          ['sort', p.sort],
        ]),
        NONE,
        'traces',
        optionHeaders(p),
      ),
    actions: (p) =>
      get(
        '/actions',
        q([
          ['account', p.account && addr(p.account)],
          ['tx_hash', hashes(p.txHash)],
          ['msg_hash', hashes(p.msgHash)],
          ['action_id', hashes(p.actionId)],
          ['trace_id', hashes(p.traceId)],
          ['mc_seqno', p.mcSeqno],
          ['start_utime', p.startUtime],
          ['end_utime', p.endUtime],
          ['start_lt', p.startLt],
          ['end_lt', p.endLt],
          ['action_type', p.actionType],
          ['exclude_action_type', p.excludeActionType],
          ['supported_action_types', p.supportedActionTypes],
          ['include_accounts', p.includeAccounts],
          ['include_transactions', p.includeTransactions],
          ['limit', p.limit],
          ['offset', p.offset],
          ['sort', p.sort],
        ]),
        NONE,
        'actions',
        optionHeaders(p),
      ),
    pendingTransactions: (p) =>
      get(
        '/pendingTransactions',
        q([['account', p.account.map(addr)], ['trace_id', hashes(p.traceId)]]),
        NONE,
        'transactions',
        optionHeaders(p),
      ),
    pendingTraces: (p) =>
      get(
        '/pendingTraces',
        q([['account', p.account && addr(p.account)], ['ext_msg_hash', hashes(p.extMsgHash)], ['supported_action_types', p.supportedActionTypes]]),
        NONE,
        'traces',
        optionHeaders(p),
      ),
    pendingActions: (p) =>
      get(
        '/pendingActions',
        q([
          ['account', p.account && addr(p.account)],
          ['ext_msg_hash', hashes(p.extMsgHash)],
          ['supported_action_types', p.supportedActionTypes],
          ['include_transactions', p.includeTransactions],
        ]),
        NONE,
        'actions',
        optionHeaders(p),
      ),
    // POST carries any number of items without URL limits; the answer is the same as GET's
    decode: (p) => post('/decode', { opcodes: p.opcodes, bodies: p.bodies }, true),
  };
}
