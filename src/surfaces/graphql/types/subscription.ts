/**
 * Subscription root fields, served over SSE (yoga's transport: `Accept: text/event-stream`, also graphql-sse's
 * distinct connections mode). Each is driven by the server's chain feed (the local block producer, or one shared
 * masterchainInfo poll upstream; in upstream mode `transactions` and `traceTransactions` are fed from the
 * upstream stream instead while it is up) and delivers the graph's own Block and Transaction objects, so nested
 * selections resolve through the same batched loaders as queries.
 */
import { contextCacheSymbol } from '@pothos/core';
import type { Address } from '@ton/core';
import { GraphQLError } from 'graphql';
import { ApiError } from '../../../api/errors.js';
import type { Block } from '../wire.js';
import type { Transaction } from '../wire.js';
import { rawUpper } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { ErrorCode, badInput } from '../errors.js';
import type { Follower } from '../subscriptions/follower.js';
import type { SubscriptionContext } from '../subscriptions/registry.js';
import { AccountsFollower } from '../subscriptions/accounts.js';
import { TraceFollower } from '../subscriptions/trace.js';
import { BlockRef } from './block.js';
import { TransactionRef } from './transaction.js';

/** The accounts a subscription names, raw upper-case: at least one, at most the server's limit. */
export function accountSet(ctx: GraphQLContext, given: readonly Address[]): Set<string> {
  const { registry } = served(ctx);
  const accounts = new Set(given.map(rawUpper));
  if (accounts.size === 0) throw badInput('accounts must name at least one account');
  if (accounts.size > registry.limits.maxAccounts) {
    throw new GraphQLError(`Too many accounts: ${accounts.size}, at most ${registry.limits.maxAccounts} per subscription`, {
      extensions: { code: ErrorCode.TOO_MANY_ACCOUNTS, actual: accounts.size, limit: registry.limits.maxAccounts },
    });
  }
  return accounts;
}

export function served(ctx: GraphQLContext): SubscriptionContext {
  if (!ctx.subscriptions) throw new ApiError(503, 'subscriptions are not served by this server');
  return ctx.subscriptions;
}

const open = <T>(ctx: GraphQLContext, follower: Follower<T>) => {
  const s = served(ctx);
  return s.registry.open(s.client(), follower, s.response);
};

/**
 * Runs before each event's selection. A subscription keeps one context for its whole life; Pothos keys the
 * loaders on the context's cache slot, so a fresh slot per event keeps batching and drops stale balances.
 */
export function deliver<T>(value: T | GraphQLError, ctx: GraphQLContext): T {
  (ctx as unknown as Record<symbol, unknown>)[contextCacheSymbol] = {};
  if (value instanceof GraphQLError) throw value;
  return value;
}

builder.subscriptionFields((t) => ({
  blocks: t.field({
    type: BlockRef,
    description: 'Each masterchain block sealed after the subscription opened.',
    // the stream carries no block headers (it is filtered by address): blocks are polled, masterchainInfo and
    // only the block itself, never its transactions
    subscribe: (_root, _args, ctx) => open<Block>(ctx, { transactions: false, onBlock: (e, out) => out.push(e.block) }),
    resolve: (block, _args, ctx) => deliver(block, ctx),
  }),
  transactions: t.field({
    type: TransactionRef,
    description:
      'Each new transaction of the given accounts, as the masterchain block that commits it is sealed, in lt order. At most `serviceConfig.maxAccountsPerSubscription` accounts.',
    args: { accounts: t.arg({ type: ['Address'], required: true }) },
    subscribe: (_root, args, ctx) => {
      return open<Transaction>(ctx, new AccountsFollower(accountSet(ctx, args.accounts)));
    },
    resolve: (tx, _args, ctx) => deliver(tx, ctx),
  }),
  traceTransactions: t.field({
    type: TransactionRef,
    description:
      'The transactions of the trace started by an external message (hash or normalised hash), as they are sealed, including those sealed before the subscription opened; completes when every message the trace sent to an address has been received.',
    args: { externalHash: t.arg({ type: 'Hash', required: true }) },
    subscribe: (_root, args, ctx) => open(ctx, new TraceFollower(args.externalHash.toString('base64'), ctx.v3)),
    resolve: (tx, _args, ctx) => deliver(tx, ctx),
  }),
}));
