/**
 * Transactions as toncenter v2 prints them (v2.md §4.4; tonlib `ToRawTransactions::to_raw_transaction`,
 * ton-http-api-cpp `converters/transactions.hpp`): getTransactions items (`ext.transaction`), the std item
 * (`raw.transaction`) and the block item (`raw.transactionExt`).
 */
import { Address, type Cell, type Message, type Transaction } from '@ton/core';
import type { AccountAddress, ExtMessage, ExtTransaction, RawMessage, RawTransaction, RawTransactionExt, TransactionId } from '../api/v2.js';
import { friendly, rawUpper } from './address.js';
import { hashB64 } from './hash.js';
import { bocB64, messageCells, msgToExt, msgToRaw } from './message.js';

/** tonlib's fee: total_fees plus every out-message's fwd_fee and ihr_fee; reproduces the recorded testnet sample. */
export function txFees(tx: Transaction): { fee: bigint; storageFee: bigint; otherFee: bigint } {
  let fee = tx.totalFees.coins;
  for (const msg of tx.outMessages.values()) {
    if (msg.info.type === 'internal') fee += msg.info.forwardFee + msg.info.ihrFee;
  }
  const d = tx.description;
  // block::tlb::TransactionDescr::get_storage_fees: the storage phase's collected fees, 0 when there is none
  const storageFee = 'storagePhase' in d && d.storagePhase ? d.storagePhase.storageFeesCollected : 0n;
  return { fee, storageFee, otherFee: fee - storageFee };
}

/** The account a transaction belongs to; the cell keeps only the 256-bit id, the workchain comes from the block. */
export const txAccount = (tx: Transaction, workchain: number): Address =>
  new Address(workchain, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));

const txId = (tx: Transaction): TransactionId => ({
  '@type': 'internal.transactionId',
  lt: tx.lt.toString(),
  hash: hashB64(tx.hash()),
});

/** Each message paired with its on-chain cell, out-messages by index. */
function messages(tx: Transaction): { inMsg?: [Message, Cell]; outMsgs: [Message, Cell][] } {
  const cells = messageCells(tx);
  const keys = tx.outMessages.keys().sort((a, b) => a - b);
  if (keys.length !== cells.outMsgs.length) throw new Error('out-message dictionary does not match the transaction cell');
  const outMsgs = cells.outMsgs.map((cell, i): [Message, Cell] => [tx.outMessages.get(keys[i]!)!, cell]);
  if (tx.inMessage && cells.inMsg) return { inMsg: [tx.inMessage, cells.inMsg], outMsgs };
  return { outMsgs };
}

/** Fields common to the three shapes, in toncenter's member order. */
function common(tx: Transaction, workchain: number) {
  const { fee, storageFee, otherFee } = txFees(tx);
  const account = txAccount(tx, workchain);
  return {
    address: { '@type': 'accountAddress', account_address: friendly(account) } as AccountAddress,
    account,
    utime: tx.now,
    data: bocB64(tx.raw),
    transaction_id: txId(tx),
    fee: fee.toString(),
    storage_fee: storageFee.toString(),
    other_fee: otherFee.toString(),
  };
}

/** getTransactions / tryLocate* item; `in_msg` is left out when absent because @ton/ton rejects null. */
export function txToExt(tx: Transaction, workchain: number): ExtTransaction {
  const c = common(tx, workchain);
  const m = messages(tx);
  return {
    '@type': 'ext.transaction',
    address: c.address,
    account: rawUpper(c.account),
    utime: c.utime,
    data: c.data,
    transaction_id: c.transaction_id,
    fee: c.fee,
    storage_fee: c.storage_fee,
    other_fee: c.other_fee,
    ...(m.inMsg ? { in_msg: msgToExt(...m.inMsg) } : {}),
    out_msgs: m.outMsgs.map(([msg, cell]): ExtMessage => msgToExt(msg, cell)),
  };
}

function rawBody(tx: Transaction, workchain: number) {
  const c = common(tx, workchain);
  const m = messages(tx);
  const inMsg = m.inMsg ? { in_msg: msgToRaw(...m.inMsg) } : {};
  return {
    c,
    rest: {
      address: c.address,
      utime: c.utime,
      data: c.data,
      transaction_id: c.transaction_id,
      fee: c.fee,
      storage_fee: c.storage_fee,
      other_fee: c.other_fee,
      ...inMsg,
      out_msgs: m.outMsgs.map(([msg, cell]): RawMessage => msgToRaw(msg, cell)),
    },
  };
}

/** getTransactionsStd item. */
export function txToRaw(tx: Transaction, workchain: number): RawTransaction {
  const { rest } = rawBody(tx, workchain);
  return { '@type': 'raw.transaction', ...rest };
}

/** getBlockTransactionsExt item: the std item plus `account` ("wc:HEX", as the C++ variant prints it). */
export function txToRawExt(tx: Transaction, workchain: number): RawTransactionExt {
  const { c, rest } = rawBody(tx, workchain);
  const { address, ...tail } = rest;
  return { '@type': 'raw.transactionExt', address, account: rawUpper(c.account), ...tail };
}
