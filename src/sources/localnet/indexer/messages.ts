/**
 * The message index of one chain: every message of a sealed transaction, grouped by hash, with the transactions
 * that sent and received it; it catches up with the sealed transactions when a block is sealed and before a read.
 * Rows hold the store's message facts (addresses, lts, body hash, opcode), not cells: a row's message and cell
 * are read from the transaction holding it when an answer prints it.
 */
import type { Address, Cell, Message } from '@ton/core';
import { b64 } from '../../../model/v3/index.js';
import type { ChainStore, MessageRecord, TxRecord } from '../chain/store.js';

/** Every sealed transaction: lts are below 2^64. */
export const LT_END = 1n << 64n;

/** One message as the indexer keeps it: grouped by hash, with the transactions that sent and received it. */
export class MessageRow {
  readonly hash: Buffer;
  readonly hashB64: string;
  readonly norm?: Buffer;
  readonly bodyHash: Buffer;
  /** the transaction that sent it (out direction) */
  outTx?: TxRecord;
  /** the transaction that received it (in direction) */
  inTx?: TxRecord;

  constructor(private readonly rec: MessageRecord) {
    this.hash = Buffer.from(rec.hash, 'hex');
    this.hashB64 = b64(this.hash);
    if (rec.norm !== undefined) this.norm = Buffer.from(rec.norm, 'hex');
    this.bodyHash = Buffer.from(rec.bodyHash, 'hex');
  }

  get source(): Address | undefined {
    return this.rec.source;
  }

  get destination(): Address | undefined {
    return this.rec.destination;
  }

  get opcode(): number | null {
    return this.rec.opcode;
  }

  /** null for external-in, as the reference stores it */
  get createdLt(): bigint | null {
    return this.rec.source === undefined ? null : this.rec.createdLt;
  }

  get createdAt(): number | null {
    return this.rec.createdAt;
  }

  get msg(): Message {
    return this.rec.msg;
  }

  get cell(): Cell {
    return this.rec.cell;
  }
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
    const txs = this.store.sealedTransactions();
    for (let i = this.indexed; i < txs.length; i++) {
      const rec = txs[i]!;
      if (rec.inMsgHash) this.row(rec.inMsgHash).inTx = rec;
      for (const h of rec.outMsgHashes) this.row(h).outTx = rec;
    }
    this.indexed = txs.length;
  }

  private row(hash: string): MessageRow {
    let row = this.rows.get(hash);
    if (!row) {
      const rec = this.store.message(hash);
      if (!rec) throw new Error(`local chain: message ${hash} is not in the store`);
      this.rows.set(hash, (row = new MessageRow(rec)));
    }
    return row;
  }
}
