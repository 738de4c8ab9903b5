/**
 * Account: an address and what toncenter v3 knows about it (/accountStates, /walletStates), its
 * transactions and its get-methods. Every state field of every account on one level reads through one
 * accountStates call; an address never seen on chain is an account with status `nonexist` and balance 0.
 * Root fields: account, accounts.
 */
import type { AccountStateFull } from '../wire.js';
import type { WalletState } from '../wire.js';
import type { LocalnetControl } from '../../../api/localnet.js';
import type { FullAccountState } from '../../../api/v2/accounts.js';
import type { DeepReadonly } from '../../../api/shared-answers.js';
import { TRANSACTIONS_PARAMS } from '../../../api/v3/transactions.js';
import { friendly, parseAddressAny, rawUpper } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { checkListArg } from '../limits.js';
import { accountStateLoader, walletOf } from '../loaders.js';
import { routeArgs } from '../route-args.js';
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

const AccountOriginEnum = builder.enumType('AccountOrigin', {
  description: 'Where a local chain\'s account state came from.',
  values: {
    FORK: { description: 'Read from the forked network at the fork block and not changed by a local transaction since.' },
    LOCAL: { description: 'Made on this chain: a local chain\'s genesis, or changed by a local transaction on a fork.' },
  },
});

const UpstreamAccountStateRef = builder.objectRef<DeepReadonly<FullAccountState>>('UpstreamAccountState').implement({
  description: 'An account as the network a local chain forked from holds it now (its v2 getAddressInformation).',
  fields: (t) => ({
    status: t.field({ type: AccountStatusEnum, resolve: (s) => (s.state === 'uninitialized' ? 'uninit' : s.state) }),
    balance: t.field({ type: 'BigInt', description: 'Nanotons.', resolve: (s) => s.balance }),
    code: t.field({ type: 'Boc', nullable: true, resolve: (s) => s.code || null }),
    data: t.field({ type: 'Boc', nullable: true, resolve: (s) => s.data || null }),
    lastTransactionLt: t.field({ type: 'BigInt', nullable: true, resolve: (s) => (s.last_transaction_id.lt === '0' ? null : s.last_transaction_id.lt) }),
    lastTransactionHash: t.field({ type: 'Hash', nullable: true, resolve: (s) => (s.last_transaction_id.lt === '0' ? null : s.last_transaction_id.hash) }),
    masterchainSeqno: t.int({ description: 'The upstream\'s masterchain block the answer was read at.', resolve: (s) => s.block_id.seqno }),
    syncUtime: t.int({ resolve: (s) => s.sync_utime }),
  }),
});

const localnetOf = (ctx: GraphQLContext): LocalnetControl | undefined => ctx.capabilities.control?.();

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
        ...routeArgs(t.arg, TRANSACTIONS_PARAMS, ['start_utime', 'end_utime', 'start_lt', 'end_lt']),
      },
      resolve: (a, args, ctx) => accountTransactions(ctx, a.address, args),
    }),
    origin: t.field({
      type: AccountOriginEnum,
      nullable: true,
      description: 'Where this state came from: FORK, read from the forked network and unchanged; LOCAL, made on this chain. Null when the server serves a real network.',
      resolve: (a, _args, ctx) => localnetOf(ctx)?.accountOrigin(parseAddressAny(a.address)!.address) ?? null,
    }),
    forkBlock: t.int({
      nullable: true,
      description: 'The masterchain seqno of the network block this local chain forked at; null off a fork.',
      resolve: (_a, _args, ctx) => localnetOf(ctx)?.forkBlock() ?? null,
    }),
    upstreamState: t.field({
      type: UpstreamAccountStateRef,
      nullable: true,
      description: 'This account on the network the local chain forked from, read from it now (to see what local transactions changed); null off a fork.',
      resolve: async (a, _args, ctx) => (await localnetOf(ctx)?.upstreamState(parseAddressAny(a.address)!.address)) ?? null,
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
