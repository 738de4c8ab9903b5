/**
 * Account: an address and what toncenter v3 knows about it (/accountStates, /walletStates), its
 * transactions and its get-methods. Every state field of every account on one level reads through one
 * accountStates call; an address never seen on chain is an account with status `nonexist` and balance 0.
 * Root fields: account, accounts.
 */
import type { AccountStateFull } from '../wire.js';
import type { WalletState } from '../wire.js';
import { friendly, parseAddressAny, rawUpper } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { checkListArg } from '../limits.js';
import { accountStateLoader, walletOf } from '../loaders.js';
import { GetMethodResultRef, StackEntryInput, runGetMethod } from './get-method.js';
import { TransactionConnection, TransactionRef, accountTransactions } from './transaction.js';

export interface AccountShape {
  /** raw upper-case, the loader key */
  address: string;
}

export const AccountStatusEnum = builder.enumType('AccountStatus', { values: ['uninit', 'frozen', 'active', 'nonexist'] as const });

export const AccountRef = builder.objectRef<AccountShape>('Account');

const state = (a: AccountShape, ctx: GraphQLContext): Promise<AccountStateFull | null> => accountStateLoader(ctx).load(a.address);

/** A resolver reading the account's state row (null when the source has none): a `then`, not an async function per call. */
const fromState =
  <T>(pick: (s: AccountStateFull | null) => T) =>
  (a: AccountShape, _args: unknown, ctx: GraphQLContext): Promise<T> =>
    state(a, ctx).then(pick);

export const ExtraCurrencyRef = builder.objectRef<{ id: number; amount: string }>('ExtraCurrency').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    amount: t.field({ type: 'BigInt', resolve: (c) => c.amount }),
  }),
});

/** v3's `{currency id: amount}` map as a list; null when the source prints none. */
export const extraCurrencyList = (m: Record<string, string> | null | undefined) =>
  m ? Object.entries(m).map(([id, amount]) => ({ id: Number(id), amount })) : null;

const WalletRef = builder.objectRef<WalletState>('Wallet').implement({
  description: 'A standard wallet contract recognised by its code (toncenter v3 /walletStates).',
  fields: (t) => ({
    walletType: t.string({ nullable: true, description: 'e.g. "wallet v4 r2", "wallet v5 r1".', resolve: (w) => w.wallet_type ?? null }),
    seqno: t.int({ nullable: true, resolve: (w) => w.seqno ?? null }),
    walletId: t.field({ type: 'BigInt', nullable: true, resolve: (w) => w.wallet_id ?? null }),
    isSignatureAllowed: t.boolean({ nullable: true, description: 'v5 only.', resolve: (w) => w.is_signature_allowed ?? null }),
  }),
});

builder.node(AccountRef, {
  description: 'An account: an address and its current state.',
  id: { resolve: (a) => a.address },
  loadOne: (id) => ({ address: id }),
  fields: (t) => ({
    address: t.field({ type: 'Address', resolve: (a) => a.address }),
    friendly: t.string({
      description: 'User-friendly form (TEP-2).',
      args: {
        bounceable: t.arg.boolean({ defaultValue: true }),
        testOnly: t.arg.boolean({ defaultValue: false }),
        urlSafe: t.arg.boolean({ defaultValue: true }),
      },
      resolve: (a, args) =>
        friendly(parseAddressAny(a.address)!.address, {
          bounceable: args.bounceable ?? true,
          testOnly: args.testOnly ?? false,
          urlSafe: args.urlSafe ?? true,
        }),
    }),
    // an address the source does not return has never been seen: nonexist, 0; a returned row's null stays null
    status: t.field({
      type: AccountStatusEnum,
      nullable: true,
      resolve: fromState((s) => (s ? s.status : 'nonexist')),
    }),
    balance: t.field({
      type: 'BigInt',
      nullable: true,
      description: 'Nanotons.',
      resolve: fromState((s) => (s ? s.balance : '0')),
    }),
    extraCurrencies: t.field({
      type: [ExtraCurrencyRef],
      nullable: true,
      resolve: fromState((s) => Object.entries(s?.extra_currencies ?? {}).map(([id, amount]) => ({ id: Number(id), amount }))),
    }),
    accountStateHash: t.field({ type: 'Hash', nullable: true, resolve: fromState((s) => s?.account_state_hash ?? null) }),
    codeHash: t.field({ type: 'Hash', nullable: true, resolve: fromState((s) => s?.code_hash ?? null) }),
    dataHash: t.field({ type: 'Hash', nullable: true, resolve: fromState((s) => s?.data_hash ?? null) }),
    frozenHash: t.field({ type: 'Hash', nullable: true, resolve: fromState((s) => s?.frozen_hash ?? null) }),
    code: t.field({ type: 'Boc', nullable: true, resolve: fromState((s) => s?.code_boc ?? null) }),
    data: t.field({ type: 'Boc', nullable: true, resolve: fromState((s) => s?.data_boc ?? null) }),
    interfaces: t.stringList({
      nullable: true,
      description: 'Contract interfaces detected from the code (toncenter v3 address book).',
      resolve: fromState((s) => s?.interfaces ?? null),
    }),
    lastTransactionLt: t.field({
      type: 'BigInt',
      nullable: true,
      resolve: fromState((s) => s?.last_transaction_lt ?? null),
    }),
    lastTransactionHash: t.field({
      type: 'Hash',
      nullable: true,
      resolve: fromState((s) => s?.last_transaction_hash ?? null),
    }),
    lastTransaction: t.field({
      type: TransactionRef,
      nullable: true,
      resolve: fromState((s) => s?.last_transaction_hash ?? null),
    }),
    wallet: t.field({
      type: WalletRef,
      nullable: true,
      description: 'Wallet details when the code is a standard wallet; null otherwise.',
      resolve: (a, _args, ctx) => walletOf(ctx, a.address),
    }),
    transactions: t.field({
      type: TransactionConnection,
      nullable: true,
      description: 'This account\'s transactions, newest first (keyset-paged by lt).',
      args: {
        ...t.arg.connectionArgs(),
        startUtime: t.arg.int(),
        endUtime: t.arg.int(),
        startLt: t.arg({ type: 'BigInt' }),
        endLt: t.arg({ type: 'BigInt' }),
      },
      resolve: (a, args, ctx) => accountTransactions(ctx, a.address, args),
    }),
    getMethod: t.field({
      type: GetMethodResultRef,
      nullable: true,
      description: 'Runs a get-method on the current state.',
      args: {
        name: t.arg.string({ required: true, description: 'Method name or numeric id.' }),
        stack: t.arg({ type: [StackEntryInput], defaultValue: [] }),
      },
      resolve: (a, args, ctx) => runGetMethod(ctx, parseAddressAny(a.address)!.address, args.name, args.stack),
    }),
  }),
});

builder.queryFields((t) => ({
  account: t.field({
    type: AccountRef,
    description: 'The account at an address (any form); never null for a valid address.',
    args: { address: t.arg({ type: 'Address', required: true }) },
    resolve: (_root, args) => ({ address: rawUpper(args.address) }),
  }),
  accounts: t.field({
    type: [AccountRef],
    args: { addresses: t.arg({ type: ['Address'], required: true }) },
    complexity: (args) => ({ field: 1, multiplier: Array.isArray(args.addresses) ? args.addresses.length : 1 }),
    resolve: (_root, args) => {
      checkListArg('addresses', args.addresses);
      return args.addresses.map((a) => ({ address: rawUpper(a) }));
    },
  }),
}));
