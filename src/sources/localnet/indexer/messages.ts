/**
 * The message index of one chain: every message of a sealed transaction, grouped by hash, with the transactions
 * that sent and received it; it catches up with the sealed transactions when a block is sealed and before a read.
 */
import type { Cell, Message } from '@ton/core';
import { messageCells, normalizedHash } from '../../../model/message.js';
import { b64 } from '../../../model/v3/index.js';
import { bodyOp } from '../../../model/tlb/common.js';
import type { ChainStore, TxRecord } from '../chain/store.js';

/** Every sealed transaction: lts are below 2^64. */
export const LT_END = 1n << 64n;

/** One message as the indexer keeps it: grouped by hash, with the transactions that sent and received it. */
export interface MessageRow {
  hash: Buffer;
  hashB64: string;
  norm?: Buffer;
  msg: Message;
  cell: Cell;
  bodyHash: Buffer;
  opcode: number | null;
  /** null for external-in, as the reference stores it */
  createdLt: bigint | null;
  createdAt: number | null;
  /** the transaction that sent it (out direction) */
  outTx?: TxRecord;
  /** the transaction that received it (in direction) */
  inTx?: TxRecord;
}

/** msg_hash filters match the hash or the TEP-467 normalised hash. */
export function matchesHash(row: MessageRow, hashes: Buffer[]): boolean {
  return hashes.some((h) => h.equals(row.hash) || (row.norm !== undefined && h.equals(row.norm)));
}

export class MessageIndex {
  /** by cell hash, hex */
  private readonly rows = new Map<string, MessageRow>();
  private indexed = 0;

  constructor(private readonly store: ChainStore) {
    store.onSeal(() => this.catchUp());
  }

  /** Every indexed message by cell hash (hex), up to the last sealed block. */
  all(): ReadonlyMap<string, MessageRow> {
    this.catchUp();
    return this.rows;
  }

  private catchUp(): void {
    const txs = this.store.transactionsByLt(0n, LT_END);
    for (let i = this.indexed; i < txs.length; i++) {
      const rec = txs[i]!;
      const cells = messageCells(rec.tx);
      if (rec.tx.inMessage && cells.inMsg) this.row(rec.tx.inMessage, cells.inMsg).inTx = rec;
      const keys = rec.tx.outMessages.keys().sort((a, b) => a - b);
      cells.outMsgs.forEach((cell, k) => {
        this.row(rec.tx.outMessages.get(keys[k]!)!, cell).outTx = rec;
      });
    }
    this.indexed = txs.length;
  }

  private row(msg: Message, cell: Cell): MessageRow {
    const key = cell.hash().toString('hex');
    let row = this.rows.get(key);
    if (!row) {
      const info = msg.info;
      row = {
        hash: cell.hash(),
        hashB64: b64(cell.hash()),
        ...(info.type === 'external-in' ? { norm: normalizedHash(msg, cell) } : {}),
        msg,
        cell,
        bodyHash: msg.body.hash(),
        opcode: bodyOp(msg.body),
        createdLt: info.type === 'external-in' ? null : info.createdLt,
        createdAt: info.type === 'external-in' ? null : info.createdAt,
      };
      this.rows.set(key, row);
    }
    return row;
  }
}

