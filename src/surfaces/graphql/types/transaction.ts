/**
 * Transaction: toncenter v3's transaction object (v3.md §3.0 "Transaction") with its description phases,
 * the account and block it belongs to, and its messages. The in/out messages come inline and are handed to
 * the Message loader as they are, so a later lookup of the same message costs nothing.
 * Root fields: transaction, transactions.
 */
import { createContextCache } from '@pothos/core';
import type { Message, Trace, Transaction } from '../wire.js';
import type {
  AccountState,
  ActionPhase,
  BouncePhase,
  ComputePhase,
  CreditPhase,
  SplitInfo,
  StoragePhase,
  TransactionDescr,
} from '../../../api/v3/transactions.js';
import { TRANSACTIONS_PARAMS } from '../../../api/v3/transactions.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import { parseAddressAny } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { defined, keysetConnection, ltWindow, type ConnectionArgs } from '../connections.js';
import { badInput } from '../errors.js';
import { LIMITS } from '../limits.js';
import { blockOfTransaction } from '../loaders-blocks.js';
import { addressKey } from '../loaders.js';
import { AS_TEXT, routeArgs } from '../route-args.js';
import { selectsField } from '../selection.js';
import { parseShard } from '../shard.js';
import { AccountRef, AccountStatusEnum, ExtraCurrencyRef, extraCurrencyList } from './account.js';
import { BlockRef } from './block.js';
import { MessageRef } from './message.js';

export const TransactionRef = builder.loadableNodeRef('Transaction', {
  id: { resolve: (tx) => tx.hash },
  // one /transactions?hash=…&hash=… call for every transaction of a level
  load: async (keys: string[], ctx) => {
    const { transactions } = await ctx.v3.transactions({ hash: keys.map((k) => Buffer.from(k, 'base64')), limit: keys.length });
    return transactions;
  },
  loaderOptions: { maxBatchSize: V3_MAX_LIMIT },
  toKey: (tx: Transaction) => tx.hash,
  cacheResolved: true,
  sort: true,
});

export const TransactionConnection = builder.connectionObject({ type: TransactionRef, name: 'TransactionConnection' });

/**
 * Inline messages carry the transaction they were found in, as /messages would report it. Copied with
 * Object.assign: on Node 20's V8, adding a property to a spread copy (`{ ...m, x }`) costs ~0.8 µs, ten times
 * as much (the same holds wherever this layer copies a record per request).
 */
export const inMessageOf = (tx: Transaction): Message | null => (tx.in_msg ? Object.assign({}, tx.in_msg, { in_msg_tx_hash: tx.hash }) : null);
/** Go prints an empty list as null: no out-messages. */
export const outMessagesOf = (tx: Transaction): Message[] => (tx.out_msgs ?? []).map((m) => Object.assign({}, m, { out_msg_tx_hash: tx.hash }));

const STATUS_CHANGES = ['unchanged', 'frozen', 'deleted'] as const;
const SKIP_REASONS = ['no_state', 'bad_state', 'no_gas', 'suspended'] as const;
const BOUNCE_TYPES = ['negfunds', 'nofunds', 'ok'] as const;
/** ton-index-go prints `unknown_<n>` for a state it has no name for */
const FINALITIES = ['pending', 'confirmed', 'finalized'] as const;

/** The value when the enum lists it, else null: a string this schema does not know is not an error. */
function known<T extends string>(values: readonly T[], v: string | null | undefined): T | null {
  return v != null && (values as readonly string[]).includes(v) ? (v as T) : null;
}

const StatusChangeEnum = builder.enumType('AccountStatusChange', { values: STATUS_CHANGES });
const SkipReasonEnum = builder.enumType('ComputeSkipReason', { values: SKIP_REASONS });
const BounceTypeEnum = builder.enumType('BounceType', { values: BOUNCE_TYPES });
const DescrTypeEnum = builder.enumType('TransactionType', {
  values: ['ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install'] as const,
});
export const FinalityEnum = builder.enumType('Finality', { values: FINALITIES });

const MsgSizeRef = builder.objectRef<{ cells?: string | null; bits?: string | null }>('MsgSize').implement({
  fields: (t) => ({
    cells: t.field({ type: 'BigInt', nullable: true, resolve: (s) => s.cells ?? null }),
    bits: t.field({ type: 'BigInt', nullable: true, resolve: (s) => s.bits ?? null }),
  }),
});

const optBigInt = (v: string | undefined): string | null => v ?? null;

/** A transaction as older indexers print it: without `emulated` and `finality` (ton-index-go before pending traces). */
type WireTransaction = Omit<Transaction, 'emulated' | 'finality'> & { emulated?: boolean; finality?: Transaction['finality'] };

/** v3 prints finality only since pending traces exist; an indexed (non-emulated) transaction is finalized. */
const finalityOf = (tx: Transaction): Transaction['finality'] | null => {
  const wire = tx as WireTransaction;
  if (wire.finality == null) return wire.emulated ? 'pending' : 'finalized';
  return known(FINALITIES, wire.finality);
};

const StoragePhaseRef = builder.objectRef<StoragePhase>('StoragePhase').implement({
  fields: (t) => ({
    storageFeesCollected: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.storage_fees_collected) }),
    storageFeesDue: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.storage_fees_due) }),
    statusChange: t.field({ type: StatusChangeEnum, nullable: true, resolve: (p) => known(STATUS_CHANGES, p.status_change) }),
  }),
});

const CreditPhaseRef = builder.objectRef<CreditPhase>('CreditPhase').implement({
  fields: (t) => ({
    dueFeesCollected: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.due_fees_collected) }),
    credit: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.credit) }),
    creditExtraCurrencies: t.field({ type: [ExtraCurrencyRef], nullable: true, resolve: (p) => extraCurrencyList(p.credit_extra_currencies) }),
  }),
});

const ComputePhaseRef = builder.objectRef<ComputePhase>('ComputePhase').implement({
  fields: (t) => ({
    skipped: t.boolean({
      description: 'Recorded, or derived: a compute phase with a skip reason was skipped, one without ran.',
      resolve: (p) => p.skipped ?? p.reason != null,
    }),
    reason: t.field({ type: SkipReasonEnum, nullable: true, resolve: (p) => known(SKIP_REASONS, p.reason) }),
    success: t.boolean({ nullable: true, resolve: (p) => p.success ?? null }),
    msgStateUsed: t.boolean({ nullable: true, resolve: (p) => p.msg_state_used ?? null }),
    accountActivated: t.boolean({ nullable: true, resolve: (p) => p.account_activated ?? null }),
    gasFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.gas_fees) }),
    gasUsed: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.gas_used) }),
    gasLimit: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.gas_limit) }),
    gasCredit: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.gas_credit) }),
    mode: t.int({ nullable: true, resolve: (p) => p.mode ?? null }),
    exitCode: t.int({ nullable: true, resolve: (p) => p.exit_code ?? null }),
    exitArg: t.int({ nullable: true, resolve: (p) => p.exit_arg ?? null }),
    vmSteps: t.int({ nullable: true, resolve: (p) => p.vm_steps ?? null }),
    vmInitStateHash: t.field({ type: 'Hash', nullable: true, resolve: (p) => p.vm_init_state_hash ?? null }),
    vmFinalStateHash: t.field({ type: 'Hash', nullable: true, resolve: (p) => p.vm_final_state_hash ?? null }),
  }),
});

const ActionPhaseRef = builder.objectRef<ActionPhase>('ActionPhase').implement({
  fields: (t) => ({
    success: t.boolean({ nullable: true, resolve: (p) => p.success ?? null }),
    valid: t.boolean({ nullable: true, resolve: (p) => p.valid ?? null }),
    noFunds: t.boolean({ nullable: true, resolve: (p) => p.no_funds ?? null }),
    statusChange: t.field({ type: StatusChangeEnum, nullable: true, resolve: (p) => known(STATUS_CHANGES, p.status_change) }),
    totalFwdFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.total_fwd_fees) }),
    totalActionFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.total_action_fees) }),
    resultCode: t.int({ nullable: true, resolve: (p) => p.result_code ?? null }),
    resultArg: t.int({ nullable: true, resolve: (p) => p.result_arg ?? null }),
    totActions: t.int({ nullable: true, resolve: (p) => p.tot_actions ?? null }),
    specActions: t.int({ nullable: true, resolve: (p) => p.spec_actions ?? null }),
    skippedActions: t.int({ nullable: true, resolve: (p) => p.skipped_actions ?? null }),
    msgsCreated: t.int({ nullable: true, resolve: (p) => p.msgs_created ?? null }),
    actionListHash: t.field({ type: 'Hash', nullable: true, resolve: (p) => p.action_list_hash ?? null }),
    totMsgSize: t.field({ type: MsgSizeRef, nullable: true, resolve: (p) => p.tot_msg_size ?? null }),
  }),
});

const BouncePhaseRef = builder.objectRef<BouncePhase>('BouncePhase').implement({
  fields: (t) => ({
    type: t.field({ type: BounceTypeEnum, nullable: true, resolve: (p) => known(BOUNCE_TYPES, p.type) }),
    msgSize: t.field({ type: MsgSizeRef, nullable: true, resolve: (p) => p.msg_size ?? null }),
    reqFwdFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.req_fwd_fees) }),
    msgFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.msg_fees) }),
    fwdFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.fwd_fees) }),
  }),
});

const SplitInfoRef = builder.objectRef<SplitInfo>('SplitInfo').implement({
  description: 'Shard split/merge data of split and merge transactions.',
  fields: (t) => ({
    curShardPfxLen: t.int({ nullable: true, resolve: (s) => s.cur_shard_pfx_len ?? null }),
    accSplitDepth: t.int({ nullable: true, resolve: (s) => s.acc_split_depth ?? null }),
    thisAddress: t.field({ type: 'Address', nullable: true, resolve: (s) => s.this_addr ?? null }),
    siblingAddress: t.field({ type: 'Address', nullable: true, resolve: (s) => s.sibling_addr ?? null }),
  }),
});

const DescriptionRef = builder.objectRef<TransactionDescr>('TransactionDescription').implement({
  description: 'The transaction description (TL-B TransactionDescr) with the phases that ran.',
  fields: (t) => ({
    type: t.field({ type: DescrTypeEnum, resolve: (d) => d.type }),
    aborted: t.boolean({ nullable: true, resolve: (d) => d.aborted ?? null }),
    destroyed: t.boolean({ nullable: true, resolve: (d) => d.destroyed ?? null }),
    creditFirst: t.boolean({ nullable: true, resolve: (d) => d.credit_first ?? null }),
    isTock: t.boolean({ nullable: true, resolve: (d) => d.is_tock ?? null }),
    installed: t.boolean({ nullable: true, resolve: (d) => d.installed ?? null }),
    storagePhase: t.field({ type: StoragePhaseRef, nullable: true, resolve: (d) => d.storage_ph ?? null }),
    creditPhase: t.field({ type: CreditPhaseRef, nullable: true, resolve: (d) => d.credit_ph ?? null }),
    computePhase: t.field({ type: ComputePhaseRef, nullable: true, resolve: (d) => d.compute_ph ?? null }),
    actionPhase: t.field({ type: ActionPhaseRef, nullable: true, resolve: (d) => d.action ?? null }),
    bouncePhase: t.field({ type: BouncePhaseRef, nullable: true, resolve: (d) => d.bounce ?? null }),
    splitInfo: t.field({ type: SplitInfoRef, nullable: true, resolve: (d) => d.split_info ?? null }),
  }),
});

const AccountStateSnapshotRef = builder.objectRef<AccountState>('AccountStateSnapshot').implement({
  description: 'The account state a transaction started from or left.',
  fields: (t) => ({
    hash: t.field({ type: 'Hash', resolve: (s) => s.hash }),
    balance: t.field({ type: 'BigInt', nullable: true, resolve: (s) => s.balance }),
    extraCurrencies: t.field({ type: [ExtraCurrencyRef], nullable: true, resolve: (s) => extraCurrencyList(s.extra_currencies) }),
    status: t.field({ type: AccountStatusEnum, nullable: true, resolve: (s) => s.account_status }),
    frozenHash: t.field({ type: 'Hash', nullable: true, resolve: (s) => s.frozen_hash }),
    dataHash: t.field({ type: 'Hash', nullable: true, resolve: (s) => s.data_hash }),
    codeHash: t.field({ type: 'Hash', nullable: true, resolve: (s) => s.code_hash }),
  }),
});

TransactionRef.implement({
  description: 'A transaction as toncenter v3 returns it.',
  fields: (t) => ({
    hash: t.field({ type: 'Hash', resolve: (tx) => tx.hash }),
    lt: t.field({ type: 'BigInt', resolve: (tx) => tx.lt }),
    now: t.exposeInt('now'),
    mcBlockSeqno: t.exposeInt('mc_block_seqno'),
    traceId: t.field({ type: 'Hash', nullable: true, resolve: (tx) => tx.trace_id ?? null }),
    prevTransactionHash: t.field({ type: 'Hash', resolve: (tx) => tx.prev_trans_hash }),
    prevTransactionLt: t.field({ type: 'BigInt', resolve: (tx) => tx.prev_trans_lt }),
    origStatus: t.field({ type: AccountStatusEnum, resolve: (tx) => tx.orig_status }),
    endStatus: t.field({ type: AccountStatusEnum, resolve: (tx) => tx.end_status }),
    totalFees: t.field({ type: 'BigInt', resolve: (tx) => tx.total_fees }),
    totalFeesExtraCurrencies: t.field({
      type: [ExtraCurrencyRef],
      nullable: true,
      resolve: (tx) => extraCurrencyList(tx.total_fees_extra_currencies),
    }),
    description: t.field({ type: DescriptionRef, resolve: (tx) => tx.description }),
    emulated: t.boolean({
      description: 'Recorded, or derived: an indexer that does not print it read the transaction from a block, so false.',
      resolve: (tx) => (tx as WireTransaction).emulated ?? false,
    }),
    finality: t.field({
      type: FinalityEnum,
      nullable: true,
      description:
        'Recorded, or derived when absent: pending if emulated, else finalized (indexed transactions are in ' +
        'masterchain-committed blocks); null for a state this schema does not name.',
      resolve: finalityOf,
    }),
    account: t.field({ type: AccountRef, resolve: (tx) => ({ address: addressKey(tx.account) }) }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The block, as the source indexes it; null when the source does not return it.',
      // the blocks of every transaction of a level in one /blocks call
      resolve: (tx, _args, ctx, info) => blockOfTransaction(ctx, tx, info),
    }),
    inMessage: t.field({ type: MessageRef, nullable: true, resolve: inMessageOf }),
    outMessages: t.field({
      type: [MessageRef],
      complexity: { field: 1, multiplier: LIMITS.outMessagesMultiplier },
      resolve: outMessagesOf,
    }),
    accountStateBefore: t.field({ type: AccountStateSnapshotRef, nullable: true, resolve: (tx) => tx.account_state_before }),
    accountStateAfter: t.field({ type: AccountStateSnapshotRef, nullable: true, resolve: (tx) => tx.account_state_after }),
  }),
});

/**
 * Traces read together with a transaction asked for by hash (Transaction.trace takes them by id): a /traces
 * answer holds its transactions exactly as /transactions prints them, so a transaction and its trace cost one call.
 */
export const tracesReadWith = createContextCache((_ctx: GraphQLContext) => new Map<string, Trace>());

builder.queryFields((t) => ({
  transaction: t.field({
    type: TransactionRef,
    nullable: true,
    args: { hash: t.arg({ type: 'Hash', required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const hash = args.hash.toString('base64');
      if (!selectsField(info, 'trace')) return hash;
      const { traces } = await ctx.v3.listTraces({ txHash: [args.hash], includeActions: true, limit: 1 });
      const trace = traces[0];
      const tx = trace?.transactions?.[hash];
      // not in a trace the source has (pending, say): asked for alone
      if (!trace?.trace_id || !tx) return hash;
      tracesReadWith(ctx).set(trace.trace_id, trace);
      return tx;
    },
  }),
  transactions: t.field({
    type: TransactionConnection,
    nullable: true,
    description: 'Transactions, newest first (keyset-paged by lt); filters are those of toncenter v3 /transactions.',
    args: {
      ...t.arg.connectionArgs(),
      ...routeArgs(t.arg, TRANSACTIONS_PARAMS, ['account', 'workchain', 'shard', 'seqno', 'mc_seqno', 'start_utime', 'end_utime', 'start_lt', 'end_lt'], {
        shard: AS_TEXT,
      }),
    },
    resolve: (_root, args, ctx) => {
      const shard = args.shard == null ? undefined : parseShard(args.shard);
      if (shard === null) throw badInput(`not a shard id: ${JSON.stringify(args.shard)}`);
      // a seqno below 0 names no block: the caller's mistake, not something to ask the source about
      if (args.mcSeqno != null && args.mcSeqno < 0) throw badInput(`mcSeqno must be a masterchain seqno, 0 or more: ${args.mcSeqno}`);
      return keysetConnection({
        args,
        order: 'desc',
        ltTies: !args.account,
        position: (tx: Transaction) => ({ lt: BigInt(tx.lt), hash: tx.hash }),
        fetch: async (q) => {
          const { transactions } = await ctx.v3.transactions({
            ...(args.account ? { account: [args.account] } : {}),
            ...defined({
              workchain: args.workchain,
              shard,
              seqno: args.seqno,
              mcSeqno: args.mcSeqno,
              startUtime: args.startUtime,
              endUtime: args.endUtime,
            }),
            ...ltWindow(q, args),
            sort: q.sort,
            limit: q.limit,
          });
          return transactions;
        },
      });
    },
  }),
}));

/** Shared by Account.transactions: one account's transactions, newest first. */
export function accountTransactions(
  ctx: GraphQLContext,
  address: string,
  args: ConnectionArgs & { startLt?: bigint | null; endLt?: bigint | null; startUtime?: number | null; endUtime?: number | null },
) {
  return keysetConnection({
    args,
    order: 'desc',
    position: (tx: Transaction) => ({ lt: BigInt(tx.lt), hash: tx.hash }),
    fetch: async (q) => {
      const { transactions } = await ctx.v3.transactions({
        account: [parseAddressAny(address)!.address],
        ...defined({ startUtime: args.startUtime, endUtime: args.endUtime }),
        ...ltWindow(q, args),
        sort: q.sort,
        limit: q.limit,
      });
      return transactions;
    },
  });
}
