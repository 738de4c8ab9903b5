/**
 * Live subscription fields: clients of the one live hub (subscriptions/live.ts), so each sees what a Streaming
 * API v2 client with the same filter sees, at each stage (pending, confirmed, finalized) and in both transports
 * (SSE, graphql-ws). Every payload carries its `finality` and, once finalized, a `cursor`; `after: cursor`
 * replays the finalized events missed since, then continues live.
 */
import type { Action, Transaction } from '../wire.js';
import type { Finality, LiveEventType } from '../../../live/feed.js';
import { rawUpper } from '../../../model/address.js';
import { emptySubscription, type Subscription } from '../../../live/subscription.js';
import { builder, type GraphQLContext } from '../builder.js';
import { badInput } from '../errors.js';
import { openLive } from '../subscriptions/live.js';
import type { LiveEvent } from '../../../live/feed.js';
import { AccountStatusEnum } from './account.js';
import { accountSet, deliver, served } from './subscription.js';
import { ActionRef } from './trace.js';
import { FinalityEnum, TransactionRef } from './transaction.js';


const LiveEventRef = builder.interfaceRef<LiveEvent>('LiveEvent').implement({
  description: 'One event of a live subscription.',
  fields: (t) => ({
    finality: t.field({ type: FinalityEnum, nullable: true, description: 'null on an invalidation', resolve: (e) => e.finality ?? null }),
    cursor: t.string({
      nullable: true,
      description: 'Finalized events only: pass it as `after` to resume from this event.',
      resolve: (e) => e.cursor ?? null,
    }),
    traceExternalHashNorm: t.string({ nullable: true, resolve: (e) => e.trace_external_hash_norm ?? null }),
    invalidated: t.boolean({
      description: 'The trace this subscription was sent below finalized was dropped: forget what it was sent of it.',
      resolve: (e) => e.type === 'trace_invalidated',
    }),
  }),
});

const liveObject = (name: string, description: string) =>
  builder.objectRef<LiveEvent>(name).implement({ description, interfaces: [LiveEventRef], fields: () => ({}) });

const TransactionsEventRef = liveObject('TransactionsEvent', "Transactions of the watched accounts in one trace, at one stage (the trace's lowest).");
builder.objectField(TransactionsEventRef, 'transactions', (t) =>
  t.field({ type: [TransactionRef], resolve: (e) => (e.transactions as Transaction[] | undefined) ?? [] }),
);
const ActionsEventRef = liveObject('ActionsEvent', 'Actions involving the watched accounts in one trace, at one stage.');
builder.objectField(ActionsEventRef, 'actions', (t) => t.field({ type: [ActionRef], resolve: (e) => (e.actions as Action[] | undefined) ?? [] }));
const TraceEventRef = liveObject('TraceEvent', 'A whole trace at one stage: its transactions and actions.');
builder.objectFields(TraceEventRef, (t) => ({
  transactions: t.field({ type: [TransactionRef], resolve: (e) => Object.values((e.transactions as Record<string, Transaction> | undefined) ?? {}) }),
  actions: t.field({ type: [ActionRef], resolve: (e) => (e.actions as Action[] | undefined) ?? [] }),
}));

interface WireState {
  hash?: string;
  balance?: string | null;
  account_status?: 'uninit' | 'frozen' | 'active' | 'nonexist' | null;
  data_hash?: string | null;
  code_hash?: string | null;
}
const stateOf = (e: LiveEvent): WireState => (e.state as WireState | undefined) ?? {};
const AccountStateEventRef = liveObject('AccountStateEvent', "An account's state after a transaction of it, once sealed.");
builder.objectFields(AccountStateEventRef, (t) => ({
  account: t.field({ type: 'Address', resolve: (e) => e.account as string }),
  hash: t.string({ nullable: true, resolve: (e) => stateOf(e).hash ?? null }),
  balance: t.field({ type: 'BigInt', nullable: true, resolve: (e) => stateOf(e).balance ?? null }),
  status: t.field({ type: AccountStatusEnum, nullable: true, resolve: (e) => stateOf(e).account_status ?? null }),
  dataHash: t.string({ nullable: true, resolve: (e) => stateOf(e).data_hash ?? null }),
  codeHash: t.string({ nullable: true, resolve: (e) => stateOf(e).code_hash ?? null }),
}));

interface WireJetton {
  address: string;
  owner: string;
  jetton: string;
  balance: string;
  last_transaction_lt?: string;
}
const jettonOf = (e: LiveEvent): WireJetton => e.jetton as WireJetton;
const JettonBalanceEventRef = liveObject('JettonBalanceEvent', "A jetton wallet's balance after a transaction of it, once sealed.");
builder.objectFields(JettonBalanceEventRef, (t) => ({
  wallet: t.field({ type: 'Address', resolve: (e) => jettonOf(e).address }),
  owner: t.field({ type: 'Address', resolve: (e) => jettonOf(e).owner }),
  jetton: t.field({ type: 'Address', description: 'the jetton master', resolve: (e) => jettonOf(e).jetton }),
  balance: t.field({ type: 'BigInt', resolve: (e) => jettonOf(e).balance }),
  lastTransactionLt: t.field({ type: 'BigInt', nullable: true, resolve: (e) => jettonOf(e).last_transaction_lt ?? null }),
}));

interface LiveArgs {
  types: LiveEventType[];
  addresses?: Iterable<string>;
  traceHash?: string;
  minFinality?: Finality | null;
  actionTypes?: readonly string[] | null;
  after?: string | null;
}

function open(ctx: GraphQLContext, a: LiveArgs) {
  const s = served(ctx);
  const sub: Subscription = {
    ...emptySubscription(undefined),
    types: new Set(a.types),
    addresses: new Set(a.addresses ?? []),
    traceHashes: new Set(a.traceHash ? [a.traceHash] : []),
    minFinality: a.minFinality ?? 'finalized',
    actionTypes: new Set(a.actionTypes ?? []),
  };
  if (a.after === '') throw badInput('after must be a cursor a previous event carried');
  return openLive(s.registry, ctx.capabilities.live?.(), s.client(), sub, a.after ?? undefined, s.response);
}

const MIN_FINALITY = 'The lowest stage reported (default finalized).';
const AFTER = 'Resume: first every finalized event after this cursor, then live ones.';

builder.subscriptionFields((t) => ({
  transactionEvents: t.field({
    type: TransactionsEventRef,
    description: 'Transactions of the given accounts at each stage from `minFinality` on, with their finality and cursor.',
    args: {
      accounts: t.arg({ type: ['Address'], required: true }),
      minFinality: t.arg({ type: FinalityEnum, description: MIN_FINALITY }),
      after: t.arg.string({ description: AFTER }),
    },
    subscribe: (_root, args, ctx) => open(ctx, { types: ['transactions'], addresses: accountSet(ctx, args.accounts), minFinality: args.minFinality, after: args.after }),
    resolve: (e, _args, ctx) => deliver(e, ctx),
  }),
  actions: t.field({
    type: ActionsEventRef,
    description: 'Actions involving the given accounts (of the given types, when given) at each stage from `minFinality` on.',
    args: {
      accounts: t.arg({ type: ['Address'], required: true }),
      types: t.arg.stringList({ description: 'action types, e.g. ton_transfer, jetton_transfer' }),
      minFinality: t.arg({ type: FinalityEnum, description: MIN_FINALITY }),
      after: t.arg.string({ description: AFTER }),
    },
    subscribe: (_root, args, ctx) => open(ctx, { types: ['actions'], addresses: accountSet(ctx, args.accounts), actionTypes: args.types, minFinality: args.minFinality, after: args.after }),
    resolve: (e, _args, ctx) => deliver(e, ctx),
  }),
  trace: t.field({
    type: TraceEventRef,
    description: 'The trace started by an external message (normalised hash) at each stage: pending, confirmed, finalized.',
    args: { externalHash: t.arg({ type: 'Hash', required: true }), after: t.arg.string({ description: AFTER }) },
    subscribe: (_root, args, ctx) => open(ctx, { types: ['trace'], traceHash: args.externalHash.toString('base64'), minFinality: 'pending', after: args.after }),
    resolve: (e, _args, ctx) => deliver(e, ctx),
  }),
  accountState: t.field({
    type: AccountStateEventRef,
    description: "An account's state after each of its transactions, confirmed then finalized.",
    args: {
      address: t.arg({ type: 'Address', required: true }),
      minFinality: t.arg({ type: FinalityEnum, description: MIN_FINALITY }),
      after: t.arg.string({ description: AFTER }),
    },
    subscribe: (_root, args, ctx) => open(ctx, { types: ['account_state_change'], addresses: [rawUpper(args.address)], minFinality: args.minFinality, after: args.after }),
    resolve: (e, _args, ctx) => deliver(e, ctx),
  }),
  jettonBalances: t.field({
    type: JettonBalanceEventRef,
    description: "The balances of an owner's jetton wallets (or of a jetton wallet itself) after each of their transactions.",
    args: {
      owner: t.arg({ type: 'Address', required: true }),
      minFinality: t.arg({ type: FinalityEnum, description: MIN_FINALITY }),
      after: t.arg.string({ description: AFTER }),
    },
    subscribe: (_root, args, ctx) => open(ctx, { types: ['jettons_change'], addresses: [rawUpper(args.owner)], minFinality: args.minFinality, after: args.after }),
    resolve: (e, _args, ctx) => deliver(e, ctx),
  }),
}));
