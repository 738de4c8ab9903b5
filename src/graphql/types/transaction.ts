/**
 * Transaction: toncenter v3's transaction object (v3.md §3.0 "Transaction") with its description phases,
 * the account and block it belongs to, and its messages. The in/out messages come inline and are handed to
 * the Message loader as they are, so a later lookup of the same message costs nothing.
 * Root fields: transaction, transactions.
 */
import type {
  AccountState,
  ActionPhase,
  BouncePhase,
  ComputePhase,
  CreditPhase,
  Message,
  StoragePhase,
  Transaction,
  TransactionDescr,
} from '../../api/v3.js';
import { V3_MAX_LIMIT } from '../../api/v3.js';
import { parseAddressAny } from '../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { defined, keysetConnection, ltWindow, type ConnectionArgs } from '../connections.js';
import { badInput } from '../errors.js';
import { blockKey } from '../ids.js';
import { LIMITS } from '../limits.js';
import { addressKey } from '../loaders.js';
import { parseShard } from '../shard.js';
import { AccountRef, AccountStatusEnum } from './account.js';
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

/** Inline messages carry the transaction they were found in, as /messages would report it. */
export const inMessageOf = (tx: Transaction): Message | null => (tx.in_msg ? { ...tx.in_msg, in_msg_tx_hash: tx.hash } : null);
export const outMessagesOf = (tx: Transaction): Message[] => tx.out_msgs.map((m) => ({ ...m, out_msg_tx_hash: tx.hash }));

const StatusChangeEnum = builder.enumType('AccountStatusChange', { values: ['unchanged', 'frozen', 'deleted'] as const });
const SkipReasonEnum = builder.enumType('ComputeSkipReason', { values: ['no_state', 'bad_state', 'no_gas', 'suspended'] as const });
const BounceTypeEnum = builder.enumType('BounceType', { values: ['negfunds', 'nofunds', 'ok'] as const });
const DescrTypeEnum = builder.enumType('TransactionType', {
  values: ['ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install'] as const,
});
const FinalityEnum = builder.enumType('Finality', { values: ['pending', 'confirmed', 'finalized'] as const });

const MsgSizeRef = builder.objectRef<{ cells: string; bits: string }>('MsgSize').implement({
  fields: (t) => ({
    cells: t.field({ type: 'BigInt', resolve: (s) => s.cells }),
    bits: t.field({ type: 'BigInt', resolve: (s) => s.bits }),
  }),
});

const optBigInt = (v: string | undefined): string | null => v ?? null;

const StoragePhaseRef = builder.objectRef<StoragePhase>('StoragePhase').implement({
  fields: (t) => ({
    storageFeesCollected: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.storage_fees_collected) }),
    storageFeesDue: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.storage_fees_due) }),
    statusChange: t.field({ type: StatusChangeEnum, nullable: true, resolve: (p) => p.status_change ?? null }),
  }),
});

const CreditPhaseRef = builder.objectRef<CreditPhase>('CreditPhase').implement({
  fields: (t) => ({
    dueFeesCollected: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.due_fees_collected) }),
    credit: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.credit) }),
  }),
});

const ComputePhaseRef = builder.objectRef<ComputePhase>('ComputePhase').implement({
  fields: (t) => ({
    skipped: t.boolean({ resolve: (p) => p.skipped ?? false }),
    reason: t.field({ type: SkipReasonEnum, nullable: true, resolve: (p) => p.reason ?? null }),
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
    statusChange: t.field({ type: StatusChangeEnum, nullable: true, resolve: (p) => p.status_change ?? null }),
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
    type: t.field({ type: BounceTypeEnum, resolve: (p) => p.type }),
    msgSize: t.field({ type: MsgSizeRef, nullable: true, resolve: (p) => p.msg_size ?? null }),
    reqFwdFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.req_fwd_fees) }),
    msgFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.msg_fees) }),
    fwdFees: t.field({ type: 'BigInt', nullable: true, resolve: (p) => optBigInt(p.fwd_fees) }),
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
  }),
});

const AccountStateSnapshotRef = builder.objectRef<AccountState>('AccountStateSnapshot').implement({
  description: 'The account state a transaction started from or left.',
  fields: (t) => ({
    hash: t.field({ type: 'Hash', resolve: (s) => s.hash }),
    balance: t.field({ type: 'BigInt', nullable: true, resolve: (s) => s.balance }),
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
    description: t.field({ type: DescriptionRef, resolve: (tx) => tx.description }),
    emulated: t.exposeBoolean('emulated'),
    finality: t.field({ type: FinalityEnum, resolve: (tx) => tx.finality }),
    account: t.field({ type: AccountRef, resolve: (tx) => ({ address: addressKey(tx.account) }) }),
    block: t.field({ type: BlockRef, resolve: (tx) => blockKey(tx.block_ref) }),
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

builder.queryFields((t) => ({
  transaction: t.field({
    type: TransactionRef,
    nullable: true,
    args: { hash: t.arg({ type: 'Hash', required: true }) },
    resolve: (_root, args) => args.hash.toString('base64'),
  }),
  transactions: t.field({
    type: TransactionConnection,
    nullable: true,
    description: 'Transactions, newest first (keyset-paged by lt); filters are those of toncenter v3 /transactions.',
    args: {
      ...t.arg.connectionArgs(),
      account: t.arg({ type: 'Address' }),
      workchain: t.arg.int(),
      shard: t.arg.string(),
      seqno: t.arg.int(),
      mcSeqno: t.arg.int(),
      startUtime: t.arg.int(),
      endUtime: t.arg.int(),
      startLt: t.arg({ type: 'BigInt' }),
      endLt: t.arg({ type: 'BigInt' }),
    },
    resolve: (_root, args, ctx) => {
      const shard = args.shard == null ? undefined : parseShard(args.shard);
      if (shard === null) throw badInput(`not a shard id: ${JSON.stringify(args.shard)}`);
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
