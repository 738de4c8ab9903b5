/**
 * The upstream account loader: an account's whole state as of one masterchain block of an upstream network,
 * as the ShardAccount an executor continues from, plus that block's header, its config and the library cells
 * code refers to. Built for a local chain forked from a network (issue 33) and for emulating on top of an
 * upstream; it knows only the V2Api seam, so any v2 upstream (toncenter, ton-http-api, another gateway) serves.
 *
 * block.tlb:
 *   account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount;
 *   account$1 addr:MsgAddressInt storage_stat:StorageInfo storage:AccountStorage = Account;
 *   storage_info$_ used:StorageUsed storage_extra:StorageExtraInfo last_paid:uint32 due_payment:(Maybe Grams) = StorageInfo;
 *   storage_used$_ cells:(VarUInteger 7) bits:(VarUInteger 7) = StorageUsed;
 *   account_storage$_ last_trans_lt:uint64 balance:CurrencyCollection state:AccountState = AccountStorage;
 *
 * Where each field comes from (v2 has no call that answers a ShardAccount whole):
 *   - `getAddressInformation?seqno=`: balance, extra currencies, code, data, frozen hash, last transaction id
 *     (last_trans_hash, last_trans_lt of the ShardAccount).
 *   - `getTransactions` for that one transaction (immutable, so cached upstream and here): its `now` is
 *     last_paid (every transaction's storage phase sets last_paid to its now), and its end lt (lt + 1 + out
 *     messages) is AccountStorage's last_trans_lt.
 *   - used: the distinct cells (by hash) of the AccountStorage cell, root included, and the sum of their
 *     bits: what the executor writes after each transaction (checked against the origin chain by the tests).
 *   - storage_extra (a hash the network keeps for accounts of 26 cells or more) and due_payment (storage debt)
 *     are not in any v2 answer: none. Fees do not depend on storage_extra, and the executor computes the
 *     storage stat again after the account's next transaction. An account in storage debt loses its debt.
 *   - StateInit libraries of an account and `split_depth`/`special` are not in the answer either: none.
 * An account with no transaction at the block (last transaction lt 0) does not exist there: `account` null.
 *
 * Each account costs at most two upstream calls, once: answers are kept in an LRU bounded in bytes (the
 * ShardAccount BoC's size), identical loads in flight share one call. Config and header: one call each per
 * loader. Libraries: one call per batch of hashes not seen before.
 */
import type { Shared } from '../api/shared-answers.js';
import {
  Address,
  beginCell,
  Cell,
  CellType,
  Dictionary,
  loadTransaction,
  storeAccountStorage,
  storeShardAccount,
  type AccountState,
  type AccountStorage,
  type CurrencyCollection,
  type ShardAccount,
} from '@ton/core';
import { ApiError } from '../api/errors.js';
import type { V2Api } from '../api/v2.js';
import type { FullAccountState } from '../api/v2/accounts.js';
import { SingleFlight } from '../remote/cache.js';

/** Shard id 0x8000000000000000 as a signed int64: the masterchain's one shard. */
const MASTERCHAIN_SHARD = -9223372036854775808n;
/** Estimated bytes of a cache entry besides its BoC (the parsed ShardAccount's objects, Map slots). */
const ENTRY_OVERHEAD = 512;

export const DEFAULT_ACCOUNT_LOADER_BYTES = 64 * 1024 * 1024;

/** The fork block's header fields the local chain continues from. */
export interface UpstreamBlock {
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  globalId: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
}

export type LoadedAccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

export interface LoadedAccount {
  address: Address;
  status: LoadedAccountStatus;
  shardAccount: ShardAccount;
  /** the ShardAccount cell's BoC, base64: what the local store and the executor take */
  boc: string;
}

export interface LoadedLibraries {
  /** hash (hex) -> library cell */
  found: Map<string, Cell>;
  /** hashes (hex) the upstream does not know */
  missing: string[];
}

export interface AccountLoaderStats {
  /** upstream calls this loader made, by v2 method */
  calls: Record<'getAddressInformation' | 'getTransactions' | 'getConfigAll' | 'getBlockHeader' | 'getLibraries', number>;
  /** account loads answered from the loader's own cache */
  hits: number;
}

export interface AccountLoaderOptions {
  /** bound of the cache of loaded accounts and libraries, in bytes */
  maxBytes?: number;
}

/** Distinct cells (by hash) reachable from `root`, root included, and the sum of their bits: StorageUsed. */
export function storageUsed(root: Cell): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let bits = 0;
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    bits += c.bits.length;
    stack.push(...c.refs);
  }
  return { cells: BigInt(seen.size), bits: BigInt(bits) };
}

/** Hashes (hex) of the library cells (exotic type 2) reachable from the roots. */
export function libraryRefs(roots: readonly Cell[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    if (c.type === CellType.Library) out.add(c.beginParse(true).skip(8).loadBuffer(32).toString('hex'));
    stack.push(...c.refs);
  }
  return [...out];
}

const badAnswer = (what: string): ApiError => new ApiError(502, `fork upstream: ${what}`);

function cellOf(b64: string, what: string): Cell {
  try {
    return Cell.fromBase64(b64);
  } catch {
    throw badAnswer(`${what} is not a BoC`);
  }
}

function uintOf(text: string, what: string): bigint {
  if (!/^\d{1,20}$/.test(text)) throw badAnswer(`${what} is not an unsigned integer: ${JSON.stringify(text.slice(0, 40))}`);
  return BigInt(text);
}

/** A size-bounded LRU (Map order is use order). */
class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.bytes;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V, size: number): void {
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    this.entries.set(key, { value, size });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.size;
    }
  }
}

/** The value of a `HashmapE 256 True`: no bits. */
const EMPTY_VALUE = {
  serialize: () => undefined,
  parse: () => true,
};

export class AccountLoader {
  readonly stats: AccountLoaderStats = {
    calls: { getAddressInformation: 0, getTransactions: 0, getConfigAll: 0, getBlockHeader: 0, getLibraries: 0 },
    hits: 0,
  };
  private readonly cache: ByteLru<LoadedAccount | Cell>;
  private readonly flights = new SingleFlight<LoadedAccount>();
  private headerOnce?: Promise<UpstreamBlock>;
  private configOnce?: Promise<Cell>;
  /** library hashes the upstream did not have, asked once */
  private readonly unknownLibraries = new Set<string>();

  constructor(
    private readonly v2: V2Api,
    /** the masterchain seqno every read is pinned to */
    readonly seqno: number,
    opts: AccountLoaderOptions = {},
  ) {
    if (!Number.isInteger(seqno) || seqno < 1) throw new RangeError(`fork block: a masterchain seqno of at least 1, not ${seqno}`);
    this.cache = new ByteLru(opts.maxBytes ?? DEFAULT_ACCOUNT_LOADER_BYTES);
  }

  /** A loader pinned to the upstream's newest masterchain block. */
  static async atLatest(v2: V2Api, opts: AccountLoaderOptions = {}): Promise<AccountLoader> {
    const info = await v2.getMasterchainInfo();
    return new AccountLoader(v2, info.last.seqno, opts);
  }

  /** bytes the cache holds */
  get cachedBytes(): number {
    return this.cache.size;
  }

  /** The fork block's header (one call per loader). */
  block(): Promise<UpstreamBlock> {
    this.headerOnce ??= this.once(async () => {
      this.stats.calls.getBlockHeader++;
      const h = await this.v2.getBlockHeader({ workchain: -1, shard: MASTERCHAIN_SHARD, seqno: this.seqno });
      if (h.id.seqno !== this.seqno) throw badAnswer(`getBlockHeader answered block ${h.id.seqno} for ${this.seqno}`);
      return {
        seqno: h.id.seqno,
        rootHash: Buffer.from(h.id.root_hash, 'base64'),
        fileHash: Buffer.from(h.id.file_hash, 'base64'),
        globalId: h.global_id,
        genUtime: h.gen_utime,
        startLt: uintOf(h.start_lt, 'the block header start_lt'),
        endLt: uintOf(h.end_lt, 'the block header end_lt'),
      };
    }, () => (this.headerOnce = undefined));
    return this.headerOnce;
  }

  /** The blockchain config at the fork block, as the dictionary root cell sandbox takes (one call per loader). */
  config(): Promise<Cell> {
    this.configOnce ??= this.once(async () => {
      this.stats.calls.getConfigAll++;
      const answer = await this.v2.getConfigAll({ seqno: this.seqno });
      const cell = cellOf(answer.config.bytes, 'the config (getConfigAll)');
      const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), cell);
      if (!params.has(19)) throw badAnswer('the config (getConfigAll) has no param 19 (global id)');
      return cell;
    }, () => (this.configOnce = undefined));
    return this.configOnce;
  }

  /** Whether the account's state is in the cache (read without a call). */
  has(address: Address): boolean {
    return this.cache.get(address.toRawString()) !== undefined;
  }

  /** The account's state at the fork block. */
  async account(address: Address): Promise<LoadedAccount> {
    const key = address.toRawString();
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.stats.hits++;
      return cached as LoadedAccount;
    }
    return this.flights.run(key, async () => {
      const loaded = await this.fetchAccount(address);
      this.cache.set(key, loaded, loaded.boc.length * 2 + ENTRY_OVERHEAD);
      return loaded;
    });
  }

  /**
   * The library cells that `roots` (an account's code, say) refer to, from the upstream: one call for the
   * hashes not seen before; a hash the upstream does not know is reported missing and not asked again.
   */
  async libraries(roots: readonly Cell[]): Promise<LoadedLibraries> {
    const found = new Map<string, Cell>();
    const ask: string[] = [];
    const refs = libraryRefs(roots);
    for (const h of refs) {
      const lib = this.cache.get(`lib:${h}`);
      if (lib !== undefined) found.set(h, lib as Cell);
      else if (!this.unknownLibraries.has(h)) ask.push(h);
    }
    if (ask.length > 0) {
      this.stats.calls.getLibraries++;
      const answer = await this.v2.getLibraries({ libraries: ask.map((h) => Buffer.from(h, 'hex')) });
      for (const entry of answer.result) {
        const lib = cellOf(entry.data, `library ${entry.hash}`);
        const h = lib.hash().toString('hex');
        // a library is named by its own hash: anything else is not the library asked for
        if (!ask.includes(h)) throw badAnswer(`getLibraries answered a cell of hash ${h}, which was not asked for`);
        found.set(h, lib);
        this.cache.set(`lib:${h}`, lib, lib.toBoc().length * 2 + ENTRY_OVERHEAD);
      }
      for (const h of ask) if (!found.has(h)) this.unknownLibraries.add(h);
    }
    return { found, missing: refs.filter((h) => !found.has(h)) };
  }

  /** A shared one-off whose failure lets the next caller try again. */
  private once<T>(fn: () => Promise<T>, reset: () => void): Promise<T> {
    const p = fn();
    p.catch(reset);
    return p;
  }

  /**
   * Whether a masterchain account is special (the config contract, or listed in config param 31): its storage
   * phase charges nothing and leaves last_paid as it was, which for the network's fundamental contracts is the
   * zerostate's 0. Asks the config only for masterchain accounts.
   */
  private async isSpecial(address: Address): Promise<boolean> {
    if (address.workChain !== -1) return false;
    const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), await this.config());
    const hash = BigInt('0x' + address.hash.toString('hex'));
    const configAddress = params.get(0)?.beginParse().loadUintBig(256);
    if (configAddress === hash) return true;
    const fundamental = params.get(31)?.beginParse().loadDict(Dictionary.Keys.BigUint(256), EMPTY_VALUE);
    return fundamental?.has(hash) ?? false;
  }

  private async fetchAccount(address: Address): Promise<LoadedAccount> {
    this.stats.calls.getAddressInformation++;
    const info = await this.v2.getAddressInformation({ address, seqno: this.seqno });
    const name = address.toRawString();
    const lastLt = uintOf(info.last_transaction_id.lt, `${name}: last_transaction_id.lt`);
    const lastHash = Buffer.from(info.last_transaction_id.hash, 'base64');
    if (lastLt === 0n) {
      // no transaction: nothing there, unless the account was placed in the zerostate with code (a local chain's
      // config contract, say), which is then rebuilt from the state alone
      if (info.code === '') {
        const shardAccount: ShardAccount = { account: null, lastTransactionHash: 0n, lastTransactionLt: 0n };
        return { address, status: 'nonexist', shardAccount, boc: shardAccountBoc(shardAccount) };
      }
      return this.built(address, info, name, { lt: 0n, hash: 0n, lastTransLt: 0n, lastPaid: 0 });
    }
    if (lastHash.length !== 32) throw badAnswer(`${name}: last_transaction_id.hash is not 32 bytes`);

    this.stats.calls.getTransactions++;
    const [tx] = await this.v2.getTransactions({ address, limit: 1, from: { lt: lastLt, hash: lastHash }, toLt: 0n, archival: true });
    if (!tx) throw badAnswer(`${name}: its last transaction ${lastLt} is not found`);
    const last = loadTransaction(cellOf(tx.data, `${name}: transaction ${lastLt}`).beginParse());
    if (last.lt !== lastLt) throw badAnswer(`${name}: getTransactions answered transaction ${last.lt} for ${lastLt}`);

    return this.built(address, info, name, {
      lt: lastLt,
      hash: BigInt('0x' + lastHash.toString('hex')),
      // the account's lt after its last transaction: one for the transaction, one per message it sent
      lastTransLt: last.lt + 1n + BigInt(last.outMessagesCount),
      lastPaid: (await this.isSpecial(address)) ? 0 : last.now,
    });
  }

  /** The account from its v2 state and what its last transaction (if any) says of lts and storage payment. */
  private built(
    address: Address,
    info: Shared<FullAccountState>,
    name: string,
    last: { lt: bigint; hash: bigint; lastTransLt: bigint; lastPaid: number },
  ): LoadedAccount {
    const state = accountStateOf(info, name);
    const storage: AccountStorage = { lastTransLt: last.lastTransLt, balance: balanceOf(info, name), state };
    const used = storageUsed(beginCell().store(storeAccountStorage(storage)).endCell());
    const shardAccount: ShardAccount = {
      account: { addr: address, storageStats: { used, storageExtra: null, lastPaid: last.lastPaid, duePayment: null }, storage },
      lastTransactionHash: last.hash,
      lastTransactionLt: last.lt,
    };
    const status: LoadedAccountStatus = state.type === 'active' ? 'active' : state.type === 'frozen' ? 'frozen' : 'uninit';
    return { address, status, shardAccount, boc: shardAccountBoc(shardAccount) };
  }
}

function shardAccountBoc(sa: ShardAccount): string {
  return beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
}

function balanceOf(info: Shared<FullAccountState>, name: string): CurrencyCollection {
  // tonlib answers -1 for an account it cannot find; one with a transaction has none below 0
  const coins = info.balance.startsWith('-') ? 0n : uintOf(info.balance, `${name}: balance`);
  const extra = info.extra_currencies ?? [];
  if (extra.length === 0) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const c of extra) other.set(c.id, uintOf(c.amount, `${name}: extra currency ${c.id}`));
  return { coins, other };
}

function accountStateOf(info: Shared<FullAccountState>, name: string): AccountState {
  if (info.code !== '') {
    const code = cellOf(info.code, `${name}: code`);
    const data = info.data === '' ? undefined : cellOf(info.data, `${name}: data`);
    return { type: 'active', state: { code, data } };
  }
  if (info.frozen_hash !== '') {
    const hash = Buffer.from(info.frozen_hash, 'base64');
    if (hash.length !== 32) throw badAnswer(`${name}: frozen_hash is not 32 bytes`);
    return { type: 'frozen', stateHash: BigInt('0x' + hash.toString('hex')) };
  }
  return { type: 'uninit' };
}
