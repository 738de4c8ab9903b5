/**
 * The one input form of the action classifier: a transaction as v3 describes it, with message bodies as cells.
 * Both sources produce it: the local chain from its @ton/core `Transaction`s (`fromCoreTransaction`), an upstream
 * or a recorded answer from v3 JSON (`fromV3Transaction`).
 */
import { beginCell, Cell, storeMessage, type Message, type Transaction } from '@ton/core';
import type { AccountStatus, ExtraCurrencies } from '../../api/v3/common.js';
import type { Message as V3Message } from '../../api/v3/messages.js';
import type { Transaction as V3Transaction } from '../../api/v3/transactions.js';
import { accountStatus, b64, extraCurrencyMap, rawUpper } from './common.js';
import { bodyOp } from '../tlb/common.js';

export interface ClassifierMessage {
  /** base64 message cell hash */
  hash: string;
  /** raw uppercase; null for external-in */
  source: string | null;
  /** raw uppercase; null for external-out */
  destination: string | null;
  /** null on external messages */
  value: bigint | null;
  extraCurrencies: ExtraCurrencies;
  opcode: number | null;
  bounce: boolean;
  bounced: boolean;
  body: Cell;
  /** null on external-in */
  createdLt: bigint | null;
  createdAt: number | null;
}

export interface ClassifierTransaction {
  /** hex */
  hash: string;
  /** hex hash of the transaction whose out-message caused this one */
  parentHash?: string;
  account: string;
  lt: bigint;
  now: number;
  aborted: boolean;
  /** compute phase skipped for lack of gas */
  noGas: boolean;
  /** the compute phase's exit code; absent when it was skipped or the source does not say */
  exitCode?: number;
  origStatus: AccountStatus;
  endStatus: AccountStatus;
  inMsg: ClassifierMessage | null;
  /** messages to nowhere (external-out: logs and events), which the reference makes leaves of the trace */
  extOutMsgs: ClassifierMessage[];
}

/** A local-chain transaction of a trace: the @ton/core record, its hash, its parent and its in-message cell. */
export interface ClassifierTx {
  /** hex */
  hash: string;
  /** hex hash of the transaction whose out-message caused this one */
  parentHash?: string;
  tx: Transaction;
  /** the inbound message and its cell (its hash is the message hash) */
  inMsg: { msg: Message; cell: Cell } | null;
}

function coreMessage(msg: Message, cell: Cell): ClassifierMessage {
  const info = msg.info;
  const internal = info.type === 'internal';
  return {
    hash: b64(cell.hash()),
    source: info.type === 'external-in' ? null : rawUpper(info.src),
    destination: info.type === 'external-out' ? null : rawUpper(info.dest),
    value: internal ? info.value.coins : null,
    extraCurrencies: internal ? extraCurrencyMap(info.value.other) : {},
    opcode: bodyOp(msg.body),
    bounce: internal && info.bounce,
    bounced: internal && info.bounced,
    body: msg.body,
    createdLt: info.type === 'external-in' ? null : info.createdLt,
    createdAt: info.type === 'external-in' ? null : info.createdAt,
  };
}

/** The local chain's adapter. */
export function fromCoreTransaction(t: ClassifierTx): ClassifierTransaction {
  const d = t.tx.description;
  return {
    hash: t.hash,
    ...(t.parentHash ? { parentHash: t.parentHash } : {}),
    account: t.inMsg && t.inMsg.msg.info.type !== 'external-out' ? rawUpper(t.inMsg.msg.info.dest) : '',
    lt: t.tx.lt,
    now: t.tx.now,
    aborted: 'aborted' in d ? d.aborted : false,
    noGas: d.type === 'generic' && d.computePhase.type === 'skipped' && d.computePhase.reason === 'no-gas',
    ...(d.type === 'generic' && d.computePhase.type === 'vm' ? { exitCode: d.computePhase.exitCode } : {}),
    origStatus: accountStatus(t.tx.oldStatus),
    endStatus: accountStatus(t.tx.endStatus),
    inMsg: t.inMsg ? coreMessage(t.inMsg.msg, t.inMsg.cell) : null,
    extOutMsgs: (t.tx.outMessages?.values() ?? [])
      .filter((m) => m.info.type === 'external-out')
      .map((m) => coreMessage(m, beginCell().store(storeMessage(m)).endCell())),
  };
}

const hex = (b64Hash: string): string => Buffer.from(b64Hash, 'base64').toString('hex');

function v3Message(m: V3Message): ClassifierMessage {
  const body = m.message_content?.body ? Cell.fromBase64(m.message_content.body) : Cell.EMPTY;
  return {
    hash: m.hash,
    source: m.source,
    destination: m.destination,
    value: m.value === null ? null : BigInt(m.value),
    extraCurrencies: m.value_extra_currencies ?? {},
    opcode: m.opcode === null ? null : Number.parseInt(m.opcode, 16) >>> 0,
    bounce: m.bounce === true,
    bounced: m.bounced === true,
    body,
    createdLt: m.created_lt === null ? null : BigInt(m.created_lt),
    createdAt: m.created_at === null ? null : Number(m.created_at),
  };
}

/**
 * A v3 transaction (JSON, as `/transactions` or `/traces` print it). `parentHash` (base64, as v3 prints hashes)
 * names the transaction that sent its in-message; a trace's `trace` tree gives it.
 */
export function fromV3Transaction(t: V3Transaction, parentHash?: string): ClassifierTransaction {
  const compute = t.description.compute_ph;
  return {
    hash: hex(t.hash),
    ...(parentHash ? { parentHash: hex(parentHash) } : {}),
    account: t.account,
    lt: BigInt(t.lt),
    now: t.now,
    aborted: t.description.aborted === true,
    noGas: compute?.skipped === true && compute.reason === 'no_gas',
    ...(compute?.exit_code !== undefined ? { exitCode: compute.exit_code } : {}),
    origStatus: t.orig_status,
    endStatus: t.end_status,
    inMsg: t.in_msg ? v3Message(t.in_msg) : null,
    extOutMsgs: t.out_msgs.filter((m) => m.destination === null).map(v3Message),
  };
}
