/**
 * What a trace, or one action of it, changed of each account's balances: net TON, the fees it paid and each
 * jetton. An executed trace or action reads toncenter's /api/v3/balanceChanges (toncenter-newer.md §4), one call
 * per trace or action and only when the field is asked; an emulated trace keeps what its emulation measured (each
 * balance after minus before) with the fees summed from its transactions as /balanceChanges sums them.
 * Trace.balanceChanges, Action.balanceChanges.
 */
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { isApiError } from '../../../api/errors.js';
import type { BalanceChangesResponse } from '../../../api/v3/balance-changes.js';
import { balanceChangesOf } from '../../../model/v3/balance-changes.js';
import { builder, type GraphQLContext } from '../builder.js';
import { LIMITS } from '../limits.js';
import { addressKey } from '../loaders.js';
import type { Trace } from '../wire.js';
import { AccountRef } from './account.js';
import { emulationOf } from './emulate.js';
import { ActionRef, TraceRef } from './trace.js';

/** One account's row; null account or jetton: toncenter could not resolve a jetton wallet's owner or jetton. */
interface BalanceChangeRow {
  account: string | null;
  ton: string;
  fees: string;
  jettons: { jetton: string | null; wallet: string | null; amount: string }[];
}

const JettonChangeRef = builder.objectRef<BalanceChangeRow['jettons'][number]>('JettonBalanceChange').implement({
  description: "A jetton balance's change under its owner.",
  fields: (t) => ({
    jetton: t.field({ type: 'Address', nullable: true, description: 'The jetton master; null where the sending wallet is not a known jetton wallet.', resolve: (j) => j.jetton }),
    wallet: t.field({ type: 'Address', nullable: true, description: 'The jetton wallet (emulated traces); null for executed ones, whose sums name owners only.', resolve: (j) => j.wallet }),
    amount: t.field({ type: 'BigInt', description: 'Signed, in the jetton’s smallest units.', resolve: (j) => j.amount }),
  }),
});

const BalanceChangeRef = builder.objectRef<BalanceChangeRow>('BalanceChange').implement({
  description: 'What a trace or action changes of one account: TON (signed, nanotons, fees included), the fees it paid, and each jetton.',
  fields: (t) => ({
    account: t.field({
      type: AccountRef,
      nullable: true,
      description: 'Null for the jetton owner an executed trace’s sums could not resolve (a wallet the index does not know).',
      resolve: (c) => (c.account === null ? null : { address: addressKey(c.account) }),
    }),
    ton: t.field({ type: 'BigInt', resolve: (c) => c.ton }),
    fees: t.field({ type: 'BigInt', description: 'Transaction fees plus the forwarding fees of the messages it sent, nanotons.', resolve: (c) => c.fees }),
    jettons: t.field({ type: [JettonChangeRef], resolve: (c) => c.jettons }),
  }),
});

/** /balanceChanges answers as rows, one per address it names, in its order; null when it names none. */
function rowsOf(r: BalanceChangesResponse): BalanceChangeRow[] | null {
  if (!r.changes && !r.fees && !r.jettons) return null;
  const keys = new Set([...Object.keys(r.changes ?? {}), ...Object.keys(r.fees ?? {}), ...Object.keys(r.jettons ?? {})]);
  return [...keys].sort().map((k) => ({
    account: k === '' ? null : k,
    ton: String(r.changes?.[k] ?? 0),
    fees: String(r.fees?.[k] ?? 0),
    jettons: Object.entries(r.jettons?.[k] ?? {}).map(([jetton, amount]) => ({ jetton: jetton === '' ? null : jetton, wallet: null, amount })),
  }));
}

/**
 * One /balanceChanges call per trace or action of a request, each asked once; what the index does not hold (a
 * pending trace's, an emulated one's actions) is null rather than an error.
 */
const balanceChangesLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, BalanceChangeRow[] | null>(
      (keys) =>
        Promise.all(
          keys.map(async (k) => {
            const [traceId, actionId] = k.split(' ');
            try {
              return rowsOf(
                await ctx.v3.balanceChanges({
                  ...(traceId ? { traceId: Buffer.from(traceId, 'base64') } : {}),
                  ...(actionId ? { actionId: Buffer.from(actionId, 'base64') } : {}),
                }),
              );
            } catch (e) {
              if (isApiError(e) && e.status === 404) return null;
              throw e;
            }
          }),
        ),
      { batch: false },
    ),
);

async function emulatedRows(tr: Trace): Promise<BalanceChangeRow[] | null> {
  const e = emulationOf(tr);
  if (!e) return null;
  const fees = balanceChangesOf(Object.values(e.response.transactions), () => undefined).fees ?? {};
  return (await e.balanceChanges()).map((c) => ({ ...c, fees: String(fees[c.account] ?? 0) }));
}

const COST = { field: 1, multiplier: LIMITS.listMultiplier };

builder.objectField(TraceRef, 'balanceChanges', (t) =>
  t.field({
    type: [BalanceChangeRef],
    nullable: true,
    complexity: COST,
    description: 'Each account whose TON or jetton balance the trace changes (for an emulated trace, as the emulation measured it); null while no transaction of it is in a block.',
    resolve: async (tr, _args, ctx) => {
      if (emulationOf(tr)) return emulatedRows(tr);
      return tr.trace_id ? balanceChangesLoader(ctx).load(tr.trace_id) : null;
    },
  }),
);

builder.objectField(ActionRef, 'balanceChanges', (t) =>
  t.field({
    type: [BalanceChangeRef],
    nullable: true,
    complexity: COST,
    description: 'What the action’s own transactions change (not the first one when an internal message started it); null for a contract deploy, or an action of a trace not yet in a block.',
    resolve: (a, _args, ctx) => balanceChangesLoader(ctx).load(`${a.trace_id ?? ''} ${a.action_id}`),
  }),
);
