/**
 * v3 actions (v3.md §2.6, §4): classified operations of traces, and those of pending traces (`main.go`
 * GetActions, GetPendingActions at eb9fbfa3). Not cached: classification follows the trace until it completes.
 */
import { NO_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import { address, bool, hash, int32, list, ltParams, pageParams, sortParam, supportedActionTypes, text, utimeParams, v3Route } from './params.js';
import { accountOrExtMsg } from './traces.js';

/** `validateActionTypeFilter`: names of action types are letters, digits, `_` and `.` only. */
const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

const actionTypes = (param: string) =>
  list(
    text({
      check: (values?: string[]) => {
        for (const v of values ?? []) if (!ACTION_TYPE.test(v)) throw new ApiError(422, `${param} contains invalid characters`);
        return values;
      },
    }),
  );

export const ACTION_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/actions',
    summary: 'Actions (classified operations of traces) by filter',
    params: {
      account: address(),
      tx_hash: list(hash()),
      msg_hash: list(hash()),
      trace_id: list(hash()),
      action_id: list(hash()),
      mc_seqno: int32(),
      action_type: actionTypes('action_type'),
      exclude_action_type: actionTypes('exclude_action_type'),
      supported_action_types: supportedActionTypes(),
      include_accounts: bool(),
      include_transactions: bool(),
      ...utimeParams,
      ...ltParams,
      ...pageParams,
      ...sortParam,
    },
    response: 'ActionsResponse',
    top: 'actions',
    cache: NO_CACHE,
    api: 'actions',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: '/pendingActions',
    summary: 'Actions of traces with transactions not yet in a block',
    params: {
      account: address(),
      ext_msg_hash: list(hash()),
      supported_action_types: supportedActionTypes(),
      include_transactions: bool(),
    },
    response: 'ActionsResponse',
    top: 'actions',
    cache: NO_CACHE,
    api: 'pendingActions',
    options: true,
    check: accountOrExtMsg,
  }),
];
