/**
 * Transactions as v3 prints them (v3.md §3.0 "Transaction", `models/blockchain.go`): the description with
 * every phase the TL-B record carries (a phase, or a Maybe field inside one, is omitted when absent, as Go's
 * `omitempty` on nil pointers does), plus the indexer's context (block, masterchain seqno, trace, states).
 */
import type {
  Transaction,
  TransactionActionPhase,
  TransactionBouncePhase,
  TransactionComputePhase,
  TransactionCreditPhase,
  TransactionDescription,
  TransactionStoragePhase,
  SplitMergeInfo,
  StorageUsed,
} from '@ton/core';
import type { BlockId } from '../../api/v3/blocks.js';
import type { DescrType, Finality, SkipReason } from '../../api/v3/common.js';
import type {
  AccountState,
  ActionPhase,
  BouncePhase,
  ComputePhase,
  CreditPhase,
  MsgSize,
  SplitInfo,
  StoragePhase,
  Transaction as V3Transaction,
  TransactionDescr,
} from '../../api/v3/transactions.js';
import { messageCells } from '../message.js';
import { accountStatus, b64, extraCurrencyMap, rawUpper } from './common.js';
import { messageToV3 } from './message.js';
import { txAccount } from '../transaction.js';

const DESCR_TYPE: Record<TransactionDescription['type'], DescrType> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};

const msgSize = (s: StorageUsed): MsgSize => ({ cells: s.cells.toString(), bits: s.bits.toString() });

function storagePhaseToV3(p: TransactionStoragePhase): StoragePhase {
  return {
    storage_fees_collected: p.storageFeesCollected.toString(),
    ...(p.storageFeesDue != null ? { storage_fees_due: p.storageFeesDue.toString() } : {}),
    status_change: p.statusChange,
  };
}

function creditPhaseToV3(p: TransactionCreditPhase): CreditPhase {
  const extra = extraCurrencyMap(p.credit.other);
  return {
    ...(p.dueFeesColelcted != null ? { due_fees_collected: p.dueFeesColelcted.toString() } : {}),
    credit: p.credit.coins.toString(),
    ...(Object.keys(extra).length > 0 ? { credit_extra_currencies: extra } : {}),
  };
}

function computePhaseToV3(p: TransactionComputePhase): ComputePhase {
  // @ton/core spells reasons with dashes (no-state); v3's enum uses underscores
  if (p.type === 'skipped') return { skipped: true, reason: p.reason.replace('-', '_') as SkipReason };
  return {
    skipped: false,
    success: p.success,
    msg_state_used: p.messageStateUsed,
    account_activated: p.accountActivated,
    gas_fees: p.gasFees.toString(),
    gas_used: p.gasUsed.toString(),
    gas_limit: p.gasLimit.toString(),
    ...(p.gasCredit != null ? { gas_credit: p.gasCredit.toString() } : {}),
    mode: p.mode,
    exit_code: p.exitCode,
    ...(p.exitArg != null ? { exit_arg: p.exitArg } : {}),
    vm_steps: p.vmSteps,
    vm_init_state_hash: b64(p.vmInitStateHash),
    vm_final_state_hash: b64(p.vmFinalStateHash),
  };
}

function actionPhaseToV3(p: TransactionActionPhase): ActionPhase {
  return {
    success: p.success,
    valid: p.valid,
    no_funds: p.noFunds,
    status_change: p.statusChange,
    ...(p.totalFwdFees != null ? { total_fwd_fees: p.totalFwdFees.toString() } : {}),
    ...(p.totalActionFees != null ? { total_action_fees: p.totalActionFees.toString() } : {}),
    result_code: p.resultCode,
    ...(p.resultArg != null ? { result_arg: p.resultArg } : {}),
    tot_actions: p.totalActions,
    spec_actions: p.specActions,
    skipped_actions: p.skippedActions,
    msgs_created: p.messagesCreated,
    action_list_hash: b64(p.actionListHash),
    tot_msg_size: msgSize(p.totalMessageSize),
  };
}

function bouncePhaseToV3(p: TransactionBouncePhase): BouncePhase {
  switch (p.type) {
    case 'negative-funds':
      return { type: 'negfunds' };
    case 'no-funds':
      return { type: 'nofunds', msg_size: msgSize(p.messageSize), req_fwd_fees: p.requiredForwardFees.toString() };
    case 'ok':
      return { type: 'ok', msg_size: msgSize(p.messageSize), msg_fees: p.messageFees.toString(), fwd_fees: p.forwardFees.toString() };
  }
}

/** split_info addresses are 256-bit account ids; v3 prints them in the account's workchain. */
function splitInfoToV3(s: SplitMergeInfo, workchain: number): SplitInfo {
  const hex = (v: bigint) => `${workchain}:${v.toString(16).toUpperCase().padStart(64, '0')}`;
  return {
    cur_shard_pfx_len: s.currentShardPrefixLength,
    acc_split_depth: s.accountSplitDepth,
    this_addr: hex(s.thisAddress),
    sibling_addr: hex(s.siblingAddress),
  };
}

/** The `description` object for every TransactionDescr variant. */
export function descriptionToV3(d: TransactionDescription, workchain = 0): TransactionDescr {
  const type = DESCR_TYPE[d.type];
  switch (d.type) {
    case 'generic':
      return {
        type,
        aborted: d.aborted,
        destroyed: d.destroyed,
        credit_first: d.creditFirst,
        ...(d.storagePhase ? { storage_ph: storagePhaseToV3(d.storagePhase) } : {}),
        ...(d.creditPhase ? { credit_ph: creditPhaseToV3(d.creditPhase) } : {}),
        compute_ph: computePhaseToV3(d.computePhase),
        ...(d.actionPhase ? { action: actionPhaseToV3(d.actionPhase) } : {}),
        ...(d.bouncePhase ? { bounce: bouncePhaseToV3(d.bouncePhase) } : {}),
      };
    case 'storage':
      return { type, storage_ph: storagePhaseToV3(d.storagePhase) };
    case 'tick-tock':
      return {
        type,
        aborted: d.aborted,
        destroyed: d.destroyed,
        is_tock: d.isTock,
        storage_ph: storagePhaseToV3(d.storagePhase),
        compute_ph: computePhaseToV3(d.computePhase),
        ...(d.actionPhase ? { action: actionPhaseToV3(d.actionPhase) } : {}),
      };
    case 'split-prepare':
      return {
        type,
        aborted: d.aborted,
        destroyed: d.destroyed,
        ...(d.storagePhase ? { storage_ph: storagePhaseToV3(d.storagePhase) } : {}),
        compute_ph: computePhaseToV3(d.computePhase),
        ...(d.actionPhase ? { action: actionPhaseToV3(d.actionPhase) } : {}),
        split_info: splitInfoToV3(d.splitInfo, workchain),
      };
    case 'split-install':
      return { type, installed: d.installed, split_info: splitInfoToV3(d.splitInfo, workchain) };
    case 'merge-prepare':
      return { type, aborted: d.aborted, storage_ph: storagePhaseToV3(d.storagePhase), split_info: splitInfoToV3(d.splitInfo, workchain) };
    case 'merge-install':
      return {
        type,
        aborted: d.aborted,
        destroyed: d.destroyed,
        ...(d.storagePhase ? { storage_ph: storagePhaseToV3(d.storagePhase) } : {}),
        ...(d.creditPhase ? { credit_ph: creditPhaseToV3(d.creditPhase) } : {}),
        compute_ph: computePhaseToV3(d.computePhase),
        ...(d.actionPhase ? { action: actionPhaseToV3(d.actionPhase) } : {}),
        split_info: splitInfoToV3(d.splitInfo, workchain),
      };
  }
}

/** What the indexer knows about a transaction beyond its cell. */
export interface TxContext {
  workchain: number;
  block: BlockId;
  mcSeqno: number;
  /** hash of the root transaction of the trace; omitted when unknown */
  traceId?: Buffer;
  /** states from the account history; when absent only the state hash from the cell is printed */
  stateBefore?: AccountState | null;
  stateAfter?: AccountState | null;
  finality?: Finality;
  /** pending transactions: executed but not yet in a block */
  emulated?: boolean;
  /** pending transactions only: the hash of the trace's external message */
  traceExternalHash?: Buffer;
}

/** A state with only its hash known, as the reference prints states it has not stored (fixture tx 2). */
const hashOnlyState = (hash: Buffer | bigint): AccountState => ({
  hash: b64(hash),
  balance: null,
  extra_currencies: null,
  account_status: null,
  frozen_hash: null,
  data_hash: null,
  code_hash: null,
});

/** One transaction in v3 form; out_msgs ordered by created_lt. */
export function transactionToV3(tx: Transaction, ctx: TxContext): V3Transaction {
  const cells = messageCells(tx);
  const outKeys = tx.outMessages.keys().sort((a, b) => a - b);
  const outs = cells.outMsgs.map((cell, i) => ({ msg: tx.outMessages.get(outKeys[i]!)!, cell }));
  const createdLt = (m: (typeof outs)[number]['msg']) => (m.info.type === 'external-in' ? 0n : m.info.createdLt);
  outs.sort((a, b) => (createdLt(a.msg) < createdLt(b.msg) ? -1 : createdLt(a.msg) > createdLt(b.msg) ? 1 : 0));
  return {
    account: rawUpper(txAccount(tx, ctx.workchain)),
    hash: b64(tx.hash()),
    lt: tx.lt.toString(),
    now: tx.now,
    mc_block_seqno: ctx.mcSeqno,
    ...(ctx.traceId ? { trace_id: b64(ctx.traceId) } : {}),
    ...(ctx.traceExternalHash ? { trace_external_hash: b64(ctx.traceExternalHash) } : {}),
    prev_trans_hash: b64(tx.prevTransactionHash),
    prev_trans_lt: tx.prevTransactionLt.toString(),
    orig_status: accountStatus(tx.oldStatus),
    end_status: accountStatus(tx.endStatus),
    total_fees: tx.totalFees.coins.toString(),
    total_fees_extra_currencies: extraCurrencyMap(tx.totalFees.other),
    description: descriptionToV3(tx.description, ctx.workchain),
    block_ref: ctx.block,
    in_msg: tx.inMessage && cells.inMsg ? messageToV3(tx.inMessage, cells.inMsg) : null,
    out_msgs: outs.map(({ msg, cell }) => messageToV3(msg, cell)),
    account_state_before: ctx.stateBefore ?? hashOnlyState(tx.stateUpdate.oldHash),
    account_state_after: ctx.stateAfter ?? hashOnlyState(tx.stateUpdate.newHash),
    emulated: ctx.emulated ?? false,
    finality: ctx.finality ?? 'finalized',
  };
}
