/**
 * The message index of one chain: every message of a sealed transaction, grouped by hash, with the transactions
 * that sent and received it; it catches up with the sealed transactions when a block is sealed and before a read.
 * Rows hold the store's message facts (addresses, lts, body hash, opcode), not cells: a row's message and cell
 * are read from the transaction holding it when an answer prints it.
 */
import type { Address, Cell, Message } from '@ton/core';
import { keptHex } from '../../../model/kept-bytes.js';
import { b64 } from '../../../model/v3/index.js';
import { addToList, type ChainStore, type MessageRecord, type Rewind, type TxRecord } from '../chain/store.js';

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
    this.hash = keptHex(rec.hash);
    this.hashB64 = b64(this.hash);
    if (rec.norm !== undefined) this.norm = keptHex(rec.norm);
    this.bodyHash = keptHex(rec.bodyHash);
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

  /**
   * toncenter v1.3's effective lt, the key /messages sorts by: created_lt, or for an external-in message (no
   * created_lt) the lt of the transaction that received it. Every indexed external-in has one: it is indexed
   * from that transaction.
   */
  get orderLt(): bigint {
    return this.createdLt ?? this.inTx!.lt;
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
  /** external-in rows by TEP-467 normalised hash (hex); distinct messages can share one */
  private readonly byNorm = new Map<string, MessageRow[]>();
  /** rows by body hash (hex) */
  private readonly byBody = new Map<string, MessageRow[]>();
  /** rows by opcode, in the order they were first indexed */
  private readonly byOpcode = new Map<number, MessageRow[]>();
  /** external-in rows (created_lt NULL), ascending by the lt of the transaction that received them */
  private readonly externalIns: MessageRow[] = [];
  /** rows with a destination whose receiving transaction is not sealed (yet) */
  private readonly undelivered = new Map<string, MessageRow>();
  private indexed = 0;

  constructor(private readonly store: ChainStore) {
    store.onSeal(() => this.catchUp());
    store.onRewind((r) => this.rewound(r));
  }

  /** Unlinks the transactions a rewind unsealed from their messages; a message no indexed transaction holds goes. */
  private rewound(r: Rewind): void {
    for (const rec of [...r.removed, ...r.repended]) {
      if (rec.inMsgHash) {
        const row = this.rows.get(rec.inMsgHash);
        if (row?.inTx === rec) {
          row.inTx = undefined;
          if (row.destination !== undefined) this.undelivered.set(rec.inMsgHash, row);
          this.dropIfUnheld(rec.inMsgHash, row);
        }
      }
      for (const h of rec.outMsgHashes) {
        const row = this.rows.get(h);
        if (row?.outTx !== rec) continue;
        row.outTx = undefined;
        this.dropIfUnheld(h, row);
      }
    }
    this.indexed = Math.min(this.indexed, this.store.sealedTransactions().length);
  }

  private dropIfUnheld(hash: string, row: MessageRow): void {
    if (row.inTx || row.outTx) return;
    this.rows.delete(hash);
    this.undelivered.delete(hash);
    const unlist = <K>(map: Map<K, MessageRow[]>, key: K) => {
      const list = map.get(key);
      const i = list ? list.lastIndexOf(row) : -1;
      if (i < 0) return;
      list!.splice(i, 1);
      if (list!.length === 0) map.delete(key);
    };
    if (row.norm !== undefined) unlist(this.byNorm, row.norm.toString('hex'));
    unlist(this.byBody, row.bodyHash.toString('hex'));
    if (row.opcode !== null) unlist(this.byOpcode, row.opcode);
    const e = this.externalIns.lastIndexOf(row);
    if (e >= 0) this.externalIns.splice(e, 1);
  }

  /** Every indexed message by cell hash (hex), up to the last sealed block. */
  all(): ReadonlyMap<string, MessageRow> {
    this.catchUp();
    return this.rows;
  }

  /** One indexed message by cell hash (hex). */
  get(hash: string): MessageRow | undefined {
    this.catchUp();
    return this.rows.get(hash);
  }

  /** Rows whose hash or normalised hash is one of `hashes`, each once. */
  byHashes(hashes: Buffer[]): MessageRow[] {
    this.catchUp();
    const out = new Set<MessageRow>();
    for (const h of hashes) {
      const hx = h.toString('hex');
      const row = this.rows.get(hx);
      if (row) out.add(row);
      for (const r of this.byNorm.get(hx) ?? []) out.add(r);
    }
    return [...out];
  }

  /** Rows with this body hash. */
  withBody(bodyHash: Buffer): readonly MessageRow[] {
    this.catchUp();
    return this.byBody.get(bodyHash.toString('hex')) ?? [];
  }

  /** Rows with this opcode (unsigned 32-bit). */
  withOpcode(opcode: number): readonly MessageRow[] {
    this.catchUp();
    return this.byOpcode.get(opcode) ?? [];
  }

  /** External-in rows, ascending by the lt of their receiving transaction (their effective lt). */
  externals(): readonly MessageRow[] {
    this.catchUp();
    return this.externalIns;
  }

  /** Rows with a destination and no sealed receiving transaction. */
  undeliveredRows(): Iterable<MessageRow> {
    this.catchUp();
    return this.undelivered.values();
  }

  private catchUp(): void {
    const txs = this.store.sealedTransactions();
    for (let i = this.indexed; i < txs.length; i++) {
      const rec = txs[i]!;
      if (rec.inMsgHash) {
        const row = this.row(rec.inMsgHash);
        row.inTx = rec;
        this.undelivered.delete(rec.inMsgHash);
      }
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
      if (rec.norm !== undefined) addToList(this.byNorm, rec.norm, row);
      addToList(this.byBody, rec.bodyHash, row);
      if (rec.opcode !== null) addToList(this.byOpcode, rec.opcode, row);
      if (rec.destination !== undefined) this.undelivered.set(hash, row);
      // an external-in is first met as the in-message of the (sealed, lt-ordered) transaction that received it
      if (row.createdLt === null) this.externalIns.push(row);
    }
    return row;
  }
}
