/**
 * What every v3 answer over the local chain reads: the chain (its store and v2 interface), the indexer over it,
 * and the serialisers shared across routes, so one transaction or address_book row is built the same way on
 * every route. The most recently serialised transactions are cached (records are immutable once sealed): treat every
 * returned object as read-only.
 */
import { Address, Cell, type ShardAccount } from '@ton/core';
import { LRUCache } from 'lru-cache';
import type { V2Api } from '../../../api/v2.js';
import type { AddressBook, AddressBookRow, Metadata, V3Options } from '../../../api/v3/common.js';
import type { Transaction as V3Transaction, TransactionsResponse } from '../../../api/v3/transactions.js';
import { ApiError } from '../../../api/errors.js';
import {
  accountStateToV3,
  addressBookRow,
  b64,
  blockIdToV3,
  codeOf,
  contractMethods,
  transactionToV3,
  type LatestState,
  type Network,
} from '../../../model/v3/index.js';
import type { Fork } from '../chain/fork.js';
import type { ChainStore, TxRecord } from '../chain/store.js';
import { indexerOf, type Indexer } from '../indexer/index.js';
import type { StateGetMethod } from '../indexer/traces.js';
import { reusableJson } from '../../../api/json-fragments.js';
import { metadataOf } from './v3-tokens-json.js';

/** What the v3 answers read: the chain's store and its v2 interface (LocalChain provides both). */
export interface V3ChainSource {
  readonly store: ChainStore;
  readonly v2: V2Api;
  /** the network this chain forked from, when it is a fork */
  readonly fork?: Fork;
  /** the chain's global id, when the source knows it without a call */
  readonly globalId?: number;
  /** config param `id` as the chain holds it parsed (no BoC round trip); absent: read through `v2.getConfigParam` */
  configParam?(id: number): Cell | undefined;
  /** a get-method on a state the store holds unsealed (a pending transaction's), for classifying pending traces */
  readonly getMethodOnState?: StateGetMethod;
}

export interface LocalV3Options {
  /** user-friendly forms in address_book: testnet ones (0Q…/kQ…) or mainnet ones (UQ…/EQ…); default mainnet */
  network?: Network;
}

/** address_book rows kept between answers within one masterchain block, at most */
const BOOK_ROWS = 10_000;

/** `/accountStates` and `/walletStates` read at most this many rows (hard-coded LIMIT in the reference). */
const ACCOUNT_STATES_LIMIT = 1000;

const addrKey = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

export class LocalV3Context {
  /** which user-friendly forms address_book prints */
  readonly network: Network;
  /** the most recently printed transactions */
  private readonly txCache = new LRUCache<string, V3Transaction>({ max: 4096 });
  private readonly methodsCache = new Map<string, number[] | null>();
  /** keyed by the store's parsed state, which lives exactly as long as its record */
  private readonly latestStates = new WeakMap<ShardAccount, LatestState>();
  /** address_book rows as of the last sealed masterchain block `rowsAt` (a row follows the account's code) */
  private readonly rows = new Map<string, AddressBookRow>();
  private rowsAt = -1;

  constructor(
    private readonly source: V3ChainSource,
    opts: LocalV3Options = {},
  ) {
    this.network = opts.network ?? 'mainnet';
    // after a rewind a seqno or a hash may name something else; an edit may change an account's code
    source.store.onRewind(() => {
      this.txCache.clear();
      this.rowsAt = -1;
    });
    source.store.onEdit(() => (this.rowsAt = -1));
  }

  get store(): ChainStore {
    return this.source.store;
  }

  get v2(): V2Api {
    return this.source.v2;
  }

  get fork(): Fork | undefined {
    return this.source.fork;
  }

  get globalId(): number | undefined {
    return this.source.globalId;
  }

  /** Config param `id` from the source's parsed config (undefined when unset); `null` when the source holds none. */
  heldConfigParam(id: number): Cell | undefined | null {
    return this.source.configParam ? this.source.configParam(id) : null;
  }

  /** The chain's indexer, shared with every other v3 answer over the same store. */
  get indexer(): Indexer {
    return indexerOf(this.source.store, this.source.v2, this.source.getMethodOnState);
  }

  /** An account's state as of the last sealed masterchain block, with its stored BoC. */
  latest(address: Address): { sa: ShardAccount; boc: string } | undefined {
    const s = this.store.accountState(address, this.store.lastMc.seqno);
    return s ? { sa: s.shardAccount, boc: s.record.boc } : undefined;
  }

  /** An account's state as of the last sealed masterchain block, as the account routes read it (built once per state). */
  latestState(address: Address): LatestState | undefined {
    const s = this.latest(address);
    if (!s) return undefined;
    let st = this.latestStates.get(s.sa);
    if (!st) {
      st = {
        address,
        account: s.sa.account ?? null,
        lastTransHash: s.sa.lastTransactionLt > 0n ? bigintHash(s.sa.lastTransactionHash) : null,
        lastTransLt: s.sa.lastTransactionLt > 0n ? s.sa.lastTransactionLt : null,
        stateHash: accountCellHash(s.boc),
      };
      this.latestStates.set(s.sa, st);
    }
    return st;
  }

  /** The latest states of these accounts (each once, known ones only, with one of these code hashes when given). */
  statesOf(addresses: Address[], codeHash?: Buffer[]): LatestState[] {
    if (addresses.length === 0) throw new ApiError(422, 'address of account is required');
    const seen = new Set<string>();
    const out: LatestState[] = [];
    for (const a of addresses) {
      const key = addrKey(a);
      if (seen.has(key)) continue;
      seen.add(key);
      const st = this.latestState(a);
      if (!st) continue;
      if (codeHash?.length) {
        const code = codeOf(st.account);
        if (!code || !codeHash.some((h) => h.equals(code.hash()))) continue;
      }
      out.push(st);
      if (out.length >= ACCOUNT_STATES_LIMIT) break;
    }
    return out;
  }

  private methodsOf(code: Cell | null): number[] | null {
    if (!code) return null;
    const key = code.hash().toString('hex');
    if (!this.methodsCache.has(key)) this.methodsCache.set(key, contractMethods(code));
    return this.methodsCache.get(key)!;
  }

  /** `address_book` for raw addresses ({} when the client asked for none). */
  book(addresses: Iterable<string>, opts: V3Options): AddressBook {
    if (opts.noAddressBook) return {};
    const book: AddressBook = {};
    const mc = this.store.lastMc.seqno;
    if (mc !== this.rowsAt || this.rows.size >= BOOK_ROWS) {
      this.rows.clear();
      this.rowsAt = mc;
    }
    for (const raw of addresses) {
      if (raw in book) continue;
      let row = this.rows.get(raw);
      if (!row) {
        const address = Address.parseRaw(raw);
        const code = codeOf(this.latest(address)?.sa.account);
        row = addressBookRow(address, code ? b64(code.hash()) : null, this.network, { methodIds: this.methodsOf(code) });
        this.rows.set(raw, row);
      }
      book[raw] = row;
    }
    return book;
  }

  /** `metadata` for raw addresses ({} when the client asked for none), once the contract index has caught up. */
  async metadata(addresses: Iterable<string>, opts: V3Options): Promise<Metadata> {
    return opts.noMetadata ? {} : this.tokenMetadata(addresses);
  }

  /** `address_book` and `metadata` of an answer's addresses. */
  async enrich(addrs: string[], opts: V3Options): Promise<{ address_book: AddressBook; metadata: Metadata }> {
    return { address_book: this.book(addrs, opts), metadata: await this.metadata(addrs, opts) };
  }

  /** Token contracts' metadata (v3.md §3.2); waits for the contract index to reach the last sealed block. */
  async tokenMetadata(addresses: Iterable<string>): Promise<Metadata> {
    const contracts = this.indexer.contracts;
    await contracts.sync();
    return metadataOf(contracts, addresses);
  }

  /** Transactions with the address_book of their accounts, senders and receivers. */
  txResponse(transactions: V3Transaction[], opts: V3Options): TransactionsResponse {
    const addrs: string[] = [];
    for (const t of transactions) {
      addrs.push(t.account);
      if (t.in_msg?.source) addrs.push(t.in_msg.source);
      for (const m of t.out_msgs) if (m.destination) addrs.push(m.destination);
    }
    return { transactions, address_book: this.book(addrs, opts) };
  }

  /** A sealed transaction as v3 prints it (memoised for the most recent: treat as read-only). */
  txToV3(rec: TxRecord): V3Transaction {
    let out = this.txCache.get(rec.hash);
    if (!out) {
      const states = this.store.statesAround(rec);
      out = transactionToV3(rec.tx, {
        workchain: rec.account.workChain,
        block: blockIdToV3(rec.block!),
        mcSeqno: rec.mcSeqno!,
        traceId: Buffer.from(rec.traceRootHash, 'hex'),
        stateBefore: accountStateToV3(rec.tx.stateUpdate.oldHash, states.before?.account ?? null),
        stateAfter: accountStateToV3(rec.tx.stateUpdate.newHash, states.after.account ?? null),
      });
      this.txCache.set(rec.hash, reusableJson(out));
    }
    return out;
  }
}

/** A 256-bit hash @ton/core keeps as bigint, as 32 bytes. */
const bigintHash = (h: bigint): Buffer => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

/** The account state hash of a stored state: the hash of the ShardAccount's `^Account` ref, exactly as stored. */
function accountCellHash(shardAccountBoc: string): Buffer {
  return Cell.fromBase64(shardAccountBoc).refs[0]!.hash();
}
