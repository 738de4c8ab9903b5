/**
 * Traces and actions (toncenter v3 /traces, /actions): a trace is one inbound message's whole cascade, with
 * its transaction tree; actions are what the classifier made of it, with details typed per action type
 * (./actions/). A trace is fetched with its actions and transactions embedded, and hands them to the loaders:
 * a trace with its actions, their transactions and those transactions' messages costs the one /traces call
 * of its level; only a non-default `supportedActionTypes` asks /actions.
 * Root fields: trace, traces, actions; Transaction.trace.
 */
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Action } from '../wire.js';
import type { Trace, TraceNode } from '../wire.js';
import type { Message } from '../wire.js';
import type { Transaction } from '../wire.js';
import { ACTIONS_PARAMS } from '../../../api/v3/actions.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import { TRACES_PARAMS } from '../../../api/v3/traces.js';
import { builder, type GraphQLContext } from '../builder.js';
import { keysetConnection, ltWindow, type ConnectionArgs } from '../connections.js';
import { badInput } from '../errors.js';
import { LIMITS } from '../limits.js';
import { addressKey, messageRecordLoader } from '../loaders.js';
import { routeArgs } from '../route-args.js';
import { AccountRef } from './account.js';
import { ActionDetailsUnion } from './actions/index.js';
import { inMessageOf, outMessagesOf, tracesReadWith, TransactionRef } from './transaction.js';

const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

function checkActionTypes(name: string, list: readonly string[] | null | undefined): string[] | undefined {
  if (!list) return undefined;
  if (list.length > LIMITS.maxListArgument) throw badInput(`${name} takes at most ${LIMITS.maxListArgument} items, got ${list.length}`);
  for (const t of list) if (!ACTION_TYPE.test(t)) throw badInput(`${name}: not an action type: ${JSON.stringify(t)}`);
  return [...list];
}

// ---- Trace ----

export const TraceRef = builder.loadableNodeRef('Trace', {
  id: { resolve: (t) => t.trace_id ?? '' },
  // one /traces?trace_id=…&trace_id=… call for every trace of a level
  load: async (keys: string[], ctx) =>
    (await ctx.v3.listTraces({ traceId: keys.map((k) => Buffer.from(k, 'base64')), limit: keys.length, includeActions: true })).traces,
  toKey: (t: Trace) => t.trace_id ?? '',
  sort: true,
  loaderOptions: { maxBatchSize: V3_MAX_LIMIT },
  cacheResolved: true,
});

const TraceStateEnum = builder.enumType('TraceState', { values: ['complete', 'pending', 'broken'] as const });
const ClassificationStateEnum = builder.enumType('TraceClassificationState', { values: ['unclassified', 'failed', 'ok', 'broken'] as const });

interface TreeNode {
  node: TraceNode;
  trace: Trace;
}

const txOf = (trace: Trace, hash: string): Transaction | string => trace.transactions?.[hash] ?? hash;

/**
 * Hands what a trace already holds to the loaders, once per trace and request: its transactions to the
 * Transaction loader (Action.transactions, Message links) and each message whose both ends are in the trace
 * (or whose missing end is external) to the message-record loader, so Message.sourceTransaction and
 * destinationTransaction need no /messages call.
 */
const primedTraces = createContextCache(() => new WeakSet<Trace>());

function primeTrace(ctx: GraphQLContext, trace: Trace): void {
  const seen = primedTraces(ctx);
  if (seen.has(trace) || !trace.transactions) return;
  seen.add(trace);
  const txs = Object.values(trace.transactions);
  const txLoader = TransactionRef.getDataloader(ctx);
  const records = new Map<string, Message>();
  for (const tx of txs) {
    txLoader.prime(tx.hash, tx);
    const inMsg = inMessageOf(tx);
    if (inMsg) records.set(inMsg.hash, Object.assign({}, records.get(inMsg.hash), inMsg));
    for (const m of outMessagesOf(tx)) records.set(m.hash, Object.assign({}, m, records.get(m.hash), { out_msg_tx_hash: tx.hash }));
  }
  const recordLoader = messageRecordLoader(ctx);
  for (const m of records.values()) {
    const sourceKnown = m.source === null || m.out_msg_tx_hash != null;
    const destinationKnown = m.destination === null || m.in_msg_tx_hash != null;
    if (sourceKnown && destinationKnown) recordLoader.prime(m.hash, m);
  }
}

const TraceTreeNodeRef = builder.objectRef<TreeNode>('TraceTreeNode');

TraceTreeNodeRef.implement({
  description: 'One transaction of a trace and the transactions its out-messages caused.',
  fields: (t) => ({
    transaction: t.field({ type: TransactionRef, nullable: true, resolve: ({ node, trace }) => txOf(trace, node.tx_hash) }),
    transactionHash: t.field({ type: 'Hash', resolve: ({ node }) => node.tx_hash }),
    inMessageHash: t.field({ type: 'Hash', resolve: ({ node }) => node.in_msg_hash }),
    children: t.field({
      type: [TraceTreeNodeRef],
      resolve: ({ node, trace }) => (node.children ?? []).map((c) => ({ node: c, trace })),
    }),
  }),
});

/**
 * A trace's actions, for every trace of a level in one /actions call; one loader per set of supported
 * types, since the types are a parameter of the call.
 */
const actionLoaders = createContextCache(() => new Map<string, DataLoader<string, Action[]>>());

function actionsOfTrace(ctx: GraphQLContext, supported: string[] | undefined): DataLoader<string, Action[]> {
  const cacheKey = supported?.join(',') ?? '';
  const loaders = actionLoaders(ctx);
  let loader = loaders.get(cacheKey);
  if (!loader) {
    loader = new DataLoader<string, Action[]>(
      async (traceIds) => {
        const { actions } = await ctx.v3.actions({
          traceId: traceIds.map((k) => Buffer.from(k, 'base64')),
          includeAccounts: true,
          limit: V3_MAX_LIMIT,
          sort: 'asc',
          ...(supported ? { supportedActionTypes: supported } : {}),
        });
        return traceIds.map((id) => actions.filter((a) => a.trace_id === id));
      },
      { maxBatchSize: 100 },
    );
    loaders.set(cacheKey, loader);
  }
  return loader;
}

TraceRef.implement({
  description: 'One inbound message (normally external) and everything it caused.',
  fields: (t) => ({
    traceId: t.field({ type: 'Hash', nullable: true, description: 'Hash of the first transaction.', resolve: (tr) => tr.trace_id }),
    externalHash: t.field({ type: 'Hash', nullable: true, description: 'Hash of the inbound message that started it.', resolve: (tr) => tr.external_hash }),
    startLt: t.field({ type: 'BigInt', resolve: (tr) => tr.start_lt }),
    endLt: t.field({ type: 'BigInt', nullable: true, resolve: (tr) => tr.end_lt }),
    startUtime: t.int({ resolve: (tr) => tr.start_utime }),
    endUtime: t.int({ nullable: true, resolve: (tr) => tr.end_utime }),
    mcSeqnoStart: t.int({ resolve: (tr) => Number(tr.mc_seqno_start) }),
    mcSeqnoEnd: t.int({ resolve: (tr) => Number(tr.mc_seqno_end) }),
    state: t.field({ type: TraceStateEnum, resolve: (tr) => tr.trace_info.trace_state }),
    classificationState: t.field({ type: ClassificationStateEnum, resolve: (tr) => tr.trace_info.classification_state }),
    messageCount: t.int({ resolve: (tr) => tr.trace_info.messages }),
    transactionCount: t.int({ resolve: (tr) => tr.trace_info.transactions }),
    pendingMessageCount: t.int({ resolve: (tr) => tr.trace_info.pending_messages }),
    isIncomplete: t.boolean({ resolve: (tr) => tr.is_incomplete }),
    warning: t.string({ nullable: true, resolve: (tr) => tr.warning ?? null }),
    root: t.field({
      type: TraceTreeNodeRef,
      nullable: true,
      description: 'The transaction tree, from the first transaction.',
      resolve: (tr, _args, ctx) => {
        primeTrace(ctx, tr);
        return tr.trace ? { node: tr.trace, trace: tr } : null;
      },
    }),
    transactions: t.field({
      type: [TransactionRef],
      description: 'Every transaction of the trace, by lt.',
      resolve: (tr, _args, ctx) => {
        primeTrace(ctx, tr);
        return (tr.transactions_order ?? []).map((h) => txOf(tr, h));
      },
    }),
    actions: t.field({
      type: [ActionRef],
      nullable: true,
      description: 'What the classifier made of the trace, in order.',
      args: { supportedActionTypes: t.arg.stringList({ description: 'Action types or shortcuts (v1…v5, latest, jettons, nft…); default latest.' }) },
      resolve: async (tr, args, ctx) => {
        primeTrace(ctx, tr);
        const supported = checkActionTypes('supportedActionTypes', args.supportedActionTypes);
        // the /traces answer embeds the actions of the default type set
        if (!supported && tr.actions) return tr.actions;
        if (!tr.trace_id) return [];
        return actionsOfTrace(ctx, supported).load(tr.trace_id);
      },
    }),
  }),
});

// ---- Action ----

/** An action's `accounts` when its source left them out (actions embedded in /traces): one /actions call per level. */
const actionAccountsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, readonly string[] | null>(
      async (ids) => {
        const { actions } = await ctx.v3.actions({
          actionId: ids.map((id) => Buffer.from(id, 'base64')),
          includeAccounts: true,
          limit: ids.length,
        });
        const byId = new Map(actions.map((x) => [x.action_id, x.accounts ?? null]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      { maxBatchSize: V3_MAX_LIMIT },
    ),
);

export const ActionRef = builder.objectRef<Action>('Action').implement({
  description: 'A classified piece of a trace (toncenter v3 action).',
  fields: (t) => ({
    actionId: t.field({ type: 'Hash', resolve: (a) => a.action_id }),
    type: t.exposeString('type', { description: 'e.g. ton_transfer, jetton_transfer, nft_mint (toncenter v3 names).' }),
    success: t.boolean({ nullable: true, resolve: (a) => a.success }),
    startLt: t.field({ type: 'BigInt', resolve: (a) => a.start_lt }),
    endLt: t.field({ type: 'BigInt', resolve: (a) => a.end_lt }),
    startUtime: t.int({ resolve: (a) => a.start_utime }),
    endUtime: t.int({ resolve: (a) => a.end_utime }),
    traceEndLt: t.field({ type: 'BigInt', resolve: (a) => a.trace_end_lt }),
    traceMcSeqnoEnd: t.int({ resolve: (a) => a.trace_mc_seqno_end }),
    finality: t.string({
      nullable: true,
      description: 'pending, confirmed or finalized; null where the indexer does not report it.',
      resolve: (a) => a.finality ?? null,
    }),
    details: t.field({ type: ActionDetailsUnion, description: 'The details, typed by `type`.', resolve: (a) => a }),
    detailsJson: t.string({ description: 'The details object exactly as toncenter v3 prints it, JSON-encoded.', resolve: (a) => JSON.stringify(a.details) }),
    trace: t.field({ type: TraceRef, nullable: true, resolve: (a) => a.trace_id }),
    traceExternalHash: t.field({ type: 'Hash', nullable: true, resolve: (a) => a.trace_external_hash ?? null }),
    transactions: t.field({ type: [TransactionRef], description: 'The transactions the action spans, by lt.', resolve: (a) => a.transactions }),
    accounts: t.field({
      type: [AccountRef],
      nullable: true,
      description: 'Every account the action involves.',
      resolve: async (a, _args, ctx) => {
        const accounts = a.accounts ?? (await actionAccountsLoader(ctx).load(a.action_id));
        return accounts ? accounts.map((x) => ({ address: addressKey(x) })) : null;
      },
    }),
  }),
});

const TraceConnection = builder.connectionObject({ type: TraceRef, name: 'TraceConnection' });
const ActionConnection = builder.connectionObject({ type: ActionRef, name: 'ActionConnection' });

// ---- Transaction.trace ----

builder.objectField(TransactionRef, 'trace', (t) =>
  t.field({
    type: TraceRef,
    nullable: true,
    description: 'The trace this transaction belongs to (null while it is pending).',
    resolve: (tx, _args, ctx) => (tx.trace_id ? (tracesReadWith(ctx).get(tx.trace_id) ?? tx.trace_id) : null),
  }),
);

// ---- root fields ----

type Window = ConnectionArgs & { startLt?: bigint | null; endLt?: bigint | null };

/** GraphQL names the tx_hash filter in full. */
const TRANSACTION_HASH = { tx_hash: { as: 'transactionHash' } } as const;

builder.queryFields((t) => ({
  trace: t.field({
    type: TraceRef,
    nullable: true,
    description: 'A trace by its id (the hash of its first transaction).',
    args: { id: t.arg({ type: 'Hash', required: true }) },
    resolve: (_r, args) => args.id.toString('base64'),
  }),
  traces: t.field({
    type: TraceConnection,
    nullable: true,
    description: 'Complete traces, newest first (keyset-paged by end lt); at most one of account, transactionHash, messageHash.',
    args: {
      ...t.arg.connectionArgs(),
      ...routeArgs(t.arg, TRACES_PARAMS, ['account', 'tx_hash', 'msg_hash', 'start_lt', 'end_lt'], {
        ...TRANSACTION_HASH,
        msg_hash: { as: 'messageHash', description: 'Raw or normalised hash of any message of the trace.' },
      }),
    },
    resolve: (_r, args, ctx) => {
      const given = [args.account, args.transactionHash, args.messageHash].filter((x) => x != null).length;
      if (given > 1) throw badInput('give at most one of account, transactionHash, messageHash');
      return keysetConnection({
        args: args as Window,
        order: 'desc',
        ltTies: true,
        position: (tr: Trace) => ({ lt: BigInt(tr.end_lt ?? tr.start_lt), hash: tr.trace_id ?? '' }),
        fetch: async (q) =>
          (
            await ctx.v3.listTraces({
              ...(args.account ? { account: args.account } : {}),
              ...(args.transactionHash ? { txHash: [args.transactionHash] } : {}),
              ...(args.messageHash ? { msgHash: [args.messageHash] } : {}),
              ...ltWindow(q, args),
              includeActions: true,
              sort: q.sort,
              limit: q.limit,
            })
          ).traces,
      });
    },
  }),
  actions: t.field({
    type: ActionConnection,
    nullable: true,
    description: 'Actions, newest trace first (keyset-paged by the trace end lt); filters as toncenter v3 /actions.',
    args: {
      ...t.arg.connectionArgs(),
      ...routeArgs(
        t.arg,
        ACTIONS_PARAMS,
        ['account', 'trace_id', 'tx_hash', 'action_type', 'exclude_action_type', 'supported_action_types', 'start_lt', 'end_lt'],
        {
          ...TRANSACTION_HASH,
          // the lists GraphQL takes whole (one account or hash is enough, but several types are the point)
          action_type: { as: 'types', type: ['String'], description: 'Only these action types.' },
          exclude_action_type: { as: 'excludeTypes', type: ['String'] },
          supported_action_types: { type: ['String'], description: 'Action types or shortcuts the client understands; default latest.' },
        },
      ),
    },
    resolve: (_r, args, ctx) => {
      const actionType = checkActionTypes('types', args.types);
      const excludeActionType = checkActionTypes('excludeTypes', args.excludeTypes);
      const supportedActionTypes = checkActionTypes('supportedActionTypes', args.supportedActionTypes);
      return keysetConnection({
        args: args as Window,
        order: 'desc',
        ltTies: true,
        position: (a: Action) => ({ lt: BigInt(a.trace_end_lt), hash: a.action_id }),
        fetch: async (q) =>
          (
            await ctx.v3.actions({
              ...(args.account ? { account: args.account } : {}),
              ...(args.traceId ? { traceId: [args.traceId] } : {}),
              ...(args.transactionHash ? { txHash: [args.transactionHash] } : {}),
              ...(actionType ? { actionType } : {}),
              ...(excludeActionType ? { excludeActionType } : {}),
              ...(supportedActionTypes ? { supportedActionTypes } : {}),
              includeAccounts: true,
              ...ltWindow(q, args),
              sort: q.sort,
              limit: q.limit,
            })
          ).actions,
      });
    },
  }),
}));
