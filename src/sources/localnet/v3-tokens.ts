/**
 * The v3 token routes over the local chain (v3.md §2.2 metadata, §2.3, §2.4): jetton masters and wallets,
 * NFT collections and items, their transfers and burns, indexed from real transactions and get-methods.
 *
 * ContractIndex follows the store: after every sealed block (and before every token route answers) it reads the
 * latest state of each account the new transactions touched, finds out once per code hash which standard the code
 * speaks by running its get-methods, reads the contract's data with the same get-method once per state, and parses
 * the token messages of the new transactions. The DNS, multisig and vesting routes (v3-other.ts) read the same index.
 */
import { Address, beginCell, Cell, Dictionary, getMethodId, type ShardAccount } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { ApiError } from '../../api/errors.js';
import type { StackArg, StdStackEntry } from '../../api/v2.js';
import {
  resolvePage,
  type AddressMetadata,
  type Metadata,
  type Sort,
  type TokenInfo,
  type V3Options,
} from '../../api/v3.js';
import type {
  JettonBurn,
  JettonBurnsParams,
  JettonBurnsResponse,
  JettonMaster,
  JettonMastersParams,
  JettonMastersResponse,
  JettonTransfer,
  JettonTransfersParams,
  JettonTransfersResponse,
  JettonWallet,
  JettonWalletsParams,
  JettonWalletsResponse,
  MetadataParams,
  NftCollection,
  NftCollectionsParams,
  NftCollectionsResponse,
  NftItem,
  NftItemsParams,
  NftItemsResponse,
  NftTransfer,
  NftTransfersParams,
  NftTransfersResponse,
  V3TokensApi,
} from '../../api/v3-tokens.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import {
  b64,
  codeOf,
  contractMethods,
  dataOf,
  loadJettonBurnBody,
  loadJettonTransferBody,
  loadNftTransferBody,
  payloadToV3,
  type JettonBurnFields,
  type JettonTransferFields,
  type NftTransferFields,
} from '../../model/v3/index.js';
import { bodyOp } from '../../model/tlb/common.js';
import { JETTON_OP } from '../../model/tlb/jetton.js';
import { NFT_OP } from '../../model/tlb/nft.js';
import type { ChainStore, TxRecord } from './chain/store.js';
import { parseTokenContent } from './tokens.js';
import type { LocalV3Context } from './v3.js';

// ---- what the index keeps ----

export type ContractKind = 'jetton_master' | 'jetton_wallet' | 'nft_collection' | 'nft_item' | 'multisig' | 'multisig_order' | 'vesting';

/** TEP-64 content as v3 prints it: on-chain keys as an object, off-chain as `{uri}`. */
export type Content = Record<string, string>;

interface ContractBase {
  /** discovery order: the reference's `id` column */
  id: number;
  /** raw uppercase */
  raw: string;
  address: Address;
  lastLt: bigint;
  codeHash: string;
  dataHash: string;
}

export interface JettonMasterState extends ContractBase {
  kind: 'jetton_master';
  totalSupply: bigint;
  mintable: boolean;
  admin: string | null;
  content: Content | null;
  /** whether the content is on-chain (its metadata is then known without a fetcher) */
  onchain: boolean;
  walletCodeHash: string;
}

export interface JettonWalletState extends ContractBase {
  kind: 'jetton_wallet';
  balance: bigint;
  owner: string;
  jetton: string;
}

export interface NftCollectionState extends ContractBase {
  kind: 'nft_collection';
  nextItemIndex: bigint;
  owner: string | null;
  content: Content | null;
  onchain: boolean;
}

/** TON DNS records of an item that answers `dnsresolve` (v3.md §2.5). */
export interface DnsEntry {
  domain: string;
  nextResolver: string | null;
  wallet: string | null;
  siteAdnl: string | null;
  storageBagId: string | null;
}

export interface NftItemState extends ContractBase {
  kind: 'nft_item';
  init: boolean;
  index: bigint;
  collection: string | null;
  owner: string | null;
  content: Content | null;
  onchain: boolean;
  dns: DnsEntry | null;
}

export interface MultisigState extends ContractBase {
  kind: 'multisig';
  nextOrderSeqno: bigint;
  threshold: number;
  signers: string[];
  proposers: string[];
}

export interface MultisigOrderState extends ContractBase {
  kind: 'multisig_order';
  multisig: string;
  orderSeqno: bigint;
  threshold: number | null;
  sentForExecution: boolean | null;
  signers: string[];
  approvalsMask: bigint | null;
  approvalsNum: number | null;
  expirationDate: number | null;
  order: Cell | null;
}

export interface VestingState extends ContractBase {
  kind: 'vesting';
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: string | null;
  owner: string | null;
  whitelist: string[];
}

export type ContractState =
  | JettonMasterState
  | JettonWalletState
  | NftCollectionState
  | NftItemState
  | MultisigState
  | MultisigOrderState
  | VestingState;

type StateOf<K extends ContractKind> = Extract<ContractState, { kind: K }>;

interface EventBase {
  rec: TxRecord;
  /** raw uppercase of the in-message's sender */
  sender: string;
  aborted: boolean;
}

export interface JettonTransferEvent extends EventBase {
  body: JettonTransferFields;
  wallet: string;
  master: string;
}

export interface JettonBurnEvent extends EventBase {
  body: JettonBurnFields;
  wallet: string;
  master: string;
}

export interface NftTransferEvent extends EventBase {
  body: NftTransferFields;
  item: string;
  collection: string | null;
}

// ---- get-method results ----

/** A get-method stack value: integers, cells (slices as their cell), null, tuples. */
type Item = bigint | Cell | null | Item[];

function fromStd(e: StdStackEntry): Item {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return BigInt(e.number.number);
    case 'tvm.stackEntryCell':
      return Cell.fromBase64(e.cell.bytes);
    case 'tvm.stackEntrySlice':
      return Cell.fromBase64(e.slice.bytes);
    case 'tvm.stackEntryTuple':
      return e.tuple.elements.map(fromStd);
    case 'tvm.stackEntryList':
      // an empty list is how the std stack prints a null
      return e.list.elements.length ? e.list.elements.map(fromStd) : null;
    case 'tvm.stackEntryUnsupported':
      throw new Error('unsupported stack entry');
  }
}

/** Reads a result stack in order; any mismatch throws, and the caller treats the contract as not matching. */
class Stack {
  private i = 0;
  constructor(private readonly items: Item[]) {}

  private next(): Item {
    if (this.i >= this.items.length) throw new Error('stack underflow');
    return this.items[this.i++]!;
  }

  int(): bigint {
    const v = this.next();
    if (typeof v !== 'bigint') throw new Error('integer expected');
    return v;
  }

  maybeInt(): bigint | null {
    const v = this.next();
    if (v !== null && typeof v !== 'bigint') throw new Error('integer expected');
    return v;
  }

  cell(): Cell {
    const v = this.next();
    if (!(v instanceof Cell)) throw new Error('cell expected');
    return v;
  }

  maybeCell(): Cell | null {
    const v = this.next();
    if (v !== null && !(v instanceof Cell)) throw new Error('cell expected');
    return v;
  }

  /** An address slice as raw uppercase; addr_none gives null. */
  address(): string | null {
    const a = this.cell().beginParse().loadMaybeAddress();
    return a ? rawUpper(a) : null;
  }

  maybeAddress(): string | null {
    const c = this.maybeCell();
    const a = c ? c.beginParse().loadMaybeAddress() : null;
    return a ? rawUpper(a) : null;
  }
}

function contentOf(cell: Cell): { content: Content | null; onchain: boolean } {
  try {
    const c = parseTokenContent(cell);
    return c.type === 'offchain' ? { content: { uri: c.data }, onchain: false } : { content: c.data, onchain: true };
  } catch {
    return { content: null, onchain: false };
  }
}

/** Values of a `Hashmap 8 MsgAddressInt` (multisig signers and proposers), by index. */
function addressList(cell: Cell | null): string[] {
  if (!cell) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
  return [...dict.keys()].sort((a, b) => a - b).map((k) => rawUpper(dict.get(k)!));
}

/** Keys of an address-keyed dictionary (the vesting whitelist). */
function addressKeys(cell: Cell | null): string[] {
  if (!cell) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Address(), Dictionary.Values.Cell(), cell);
  return dict.keys().map(rawUpper);
}

/** TON DNS record categories (sha256 of the category name) and their TL-B tags (TEP-81). */
const DNS_CATEGORY = {
  wallet: BigInt(`0x${sha256_sync('wallet').toString('hex')}`),
  site: BigInt(`0x${sha256_sync('site').toString('hex')}`),
  nextResolver: BigInt(`0x${sha256_sync('dns_next_resolver').toString('hex')}`),
  storage: BigInt(`0x${sha256_sync('storage').toString('hex')}`),
};

function dnsRecordsOf(records: Cell | null): Omit<DnsEntry, 'domain'> {
  const out: Omit<DnsEntry, 'domain'> = { nextResolver: null, wallet: null, siteAdnl: null, storageBagId: null };
  if (!records) return out;
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell(), records);
  const read = (key: bigint, tag: number): ReturnType<Cell['beginParse']> | null => {
    const v = dict.get(key);
    if (!v) return null;
    // values are stored as ^DNSRecord or inline
    const cell = v.bits.length === 0 && v.refs.length === 1 ? v.refs[0]! : v;
    const s = cell.beginParse();
    return s.remainingBits >= 16 && s.loadUint(16) === tag ? s : null;
  };
  const addr = (s: ReturnType<typeof read>): string | null => {
    const a = s?.loadMaybeAddress();
    return a ? rawUpper(a) : null;
  };
  // dns_smc_address#9fd3, dns_next_resolver#ba93, dns_adnl_address#ad01, dns_storage_address#7473
  out.wallet = addr(read(DNS_CATEGORY.wallet, 0x9fd3));
  out.nextResolver = addr(read(DNS_CATEGORY.nextResolver, 0xba93));
  const site = read(DNS_CATEGORY.site, 0xad01);
  out.siteAdnl = site ? site.loadBuffer(32).toString('hex') : null;
  const bag = read(DNS_CATEGORY.storage, 0x7473);
  out.storageBagId = bag ? bag.loadBuffer(32).toString('hex') : null;
  return out;
}

const hex = (b: Buffer): string => b.toString('hex');
const methodId = (name: string): number => getMethodId(name) >>> 0;

/** Which get-method tells each kind apart, tried in this order. */
const DETECT: [ContractKind, string][] = [
  ['jetton_master', 'get_jetton_data'],
  ['jetton_wallet', 'get_wallet_data'],
  ['nft_collection', 'get_collection_data'],
  ['nft_item', 'get_nft_data'],
  ['multisig', 'get_multisig_data'],
  ['multisig_order', 'get_order_data'],
  ['vesting', 'get_vesting_data'],
];

/** The shared index of one store (several LocalV3Api objects over one chain share it). */
const indexes = new WeakMap<ChainStore, ContractIndex>();

export function contractIndex(ctx: LocalV3Context): ContractIndex {
  let index = indexes.get(ctx.store);
  if (!index) indexes.set(ctx.store, (index = new ContractIndex(ctx)));
  return index;
}

export class ContractIndex {
  /** live contracts by raw address */
  private readonly contracts = new Map<string, ContractState>();
  /** static facts that outlive a contract's destruction, for parsing its old messages */
  private readonly wallets = new Map<string, { jetton: string }>();
  private readonly items = new Map<string, { collection: string | null }>();
  private readonly ids = new Map<string, number>();
  /** the state each contract was last read at: `lt:txHash` */
  private readonly readAt = new Map<string, string>();
  /** per code hash (hex): the kind, or null when the code has none of the get-methods */
  private readonly kinds = new Map<string, ContractKind | null>();
  readonly jettonTransfers: JettonTransferEvent[] = [];
  readonly jettonBurns: JettonBurnEvent[] = [];
  readonly nftTransfers: NftTransferEvent[] = [];
  private cursor = 0;
  private started = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: LocalV3Context) {
    ctx.store.onSeal(() => void this.sync());
    void this.sync();
  }

  /** Brings the index up to the last sealed block; concurrent callers share the queue. */
  sync(): Promise<void> {
    this.queue = this.queue.then(() => this.advance()).catch((e: unknown) => {
      console.error('v3 token index: advance failed:', e);
    });
    return this.queue;
  }

  /** Live contracts of one kind, in discovery order. */
  list<K extends ContractKind>(kind: K): StateOf<K>[] {
    const out: StateOf<K>[] = [];
    for (const c of this.contracts.values()) if (c.kind === kind) out.push(c as StateOf<K>);
    return out.sort((a, b) => a.id - b.id);
  }

  get(raw: string): ContractState | undefined {
    return this.contracts.get(raw);
  }

  private async advance(): Promise<void> {
    const store = this.ctx.store;
    if (store.mcBlocks.length === 0) return;
    const seqno = store.lastMc.seqno;
    const txs = store.sealedTransactions();
    const upto = txs.length;
    const touched = new Set<string>();
    if (!this.started) {
      // genesis states written without a transaction are only found this way
      for (const key of store.accounts()) touched.add(rawUpper(Address.parseRaw(key)));
      this.started = true;
    }
    const fresh = txs.slice(this.cursor, upto);
    for (const rec of fresh) touched.add(rawUpper(rec.account));
    this.cursor = upto;
    for (const raw of touched) await this.refresh(raw, seqno);
    for (const rec of fresh) this.parseMessage(rec);
  }

  /** Re-reads an account whose state changed; memoised per state. */
  private async refresh(raw: string, seqno: number): Promise<void> {
    const address = Address.parseRaw(raw);
    const st = this.ctx.store.accountState(address, seqno);
    if (!st) return;
    const at = `${st.record.lt}:${st.record.txHash ?? ''}`;
    if (this.readAt.get(raw) === at) return;
    const state = await this.read(address, raw, st.shardAccount, seqno).catch(() => undefined);
    // a failed run (chain closing, executor error) is retried with the next state or sync
    if (state === undefined) return;
    this.readAt.set(raw, at);
    if (state === null) {
      this.contracts.delete(raw);
      return;
    }
    this.contracts.set(raw, state);
    if (state.kind === 'jetton_wallet') this.wallets.set(raw, { jetton: state.jetton });
    if (state.kind === 'nft_item') this.items.set(raw, { collection: state.collection });
  }

  /** The contract's data, null when it is none of the indexed kinds, undefined when the runs failed. */
  private async read(address: Address, raw: string, sa: ShardAccount, seqno: number): Promise<ContractState | null | undefined> {
    const code = codeOf(sa.account);
    const data = dataOf(sa.account);
    if (!code || !data) return null;
    const codeKey = hex(code.hash());
    const known = this.kinds.get(codeKey);
    if (known === null) return null;
    const methods = contractMethods(code);
    const candidates = known
      ? DETECT.filter(([k]) => k === known)
      : DETECT.filter(([, m]) => methods === null || methods.includes(methodId(m)));
    if (candidates.length === 0) {
      this.kinds.set(codeKey, null);
      return null;
    }
    const base = {
      id: this.ids.get(raw) ?? this.ids.size,
      raw,
      address,
      lastLt: sa.lastTransactionLt,
      codeHash: b64(code.hash()),
      dataHash: b64(data.hash()),
    };
    for (const [kind, method] of candidates) {
      const stack = await this.run(address, method, [], seqno);
      if (!stack) continue;
      let state: ContractState | null;
      try {
        state = await this.decode(kind, stack, base, methods, seqno);
      } catch {
        state = null;
      }
      if (!state) continue;
      this.kinds.set(codeKey, kind);
      if (!this.ids.has(raw)) this.ids.set(raw, base.id);
      return state;
    }
    return null;
  }

  /** Runs a get-method on the state as of `seqno`; null unless it exits 0 or 1. */
  private async run(address: Address, method: string, stack: StackArg[], seqno: number): Promise<Stack | null> {
    const r = await this.ctx.v2.runGetMethodStd({ address, method, stack, seqno });
    if (r.exit_code !== 0 && r.exit_code !== 1) return null;
    return new Stack(r.stack.map(fromStd));
  }

  private async decode(kind: ContractKind, s: Stack, base: ContractBase, methods: number[] | null, seqno: number): Promise<ContractState | null> {
    switch (kind) {
      // TEP-74: (total_supply, mintable, admin_address, jetton_content, jetton_wallet_code)
      case 'jetton_master': {
        const totalSupply = s.int();
        const mintable = s.int() !== 0n;
        const admin = s.address();
        const { content, onchain } = contentOf(s.cell());
        const walletCode = s.cell();
        return { ...base, kind, totalSupply, mintable, admin, content, onchain, walletCodeHash: b64(walletCode.hash()) };
      }
      // TEP-74: (balance, owner_address, jetton_master_address, jetton_wallet_code)
      case 'jetton_wallet': {
        const balance = s.int();
        const owner = s.address();
        const jetton = s.address();
        s.cell();
        if (!owner || !jetton) return null;
        return { ...base, kind, balance, owner, jetton };
      }
      // TEP-62: (next_item_index, collection_content, owner_address)
      case 'nft_collection': {
        const nextItemIndex = s.int();
        const { content, onchain } = contentOf(s.cell());
        const owner = s.address();
        return { ...base, kind, nextItemIndex, owner, content, onchain };
      }
      // TEP-62: (init?, index, collection_address, owner_address, individual_content); full content from the collection
      case 'nft_item': {
        const init = s.int() !== 0n;
        const index = s.int();
        const collection = s.address();
        const owner = s.address();
        const individual = s.maybeCell();
        let full: Cell | null = individual;
        if (collection && individual) {
          const c = await this.run(Address.parseRaw(collection), 'get_nft_content', [
            { type: 'int', value: index },
            { type: 'cell', boc: individual.toBoc() },
          ], seqno);
          full = c ? c.cell() : null;
        }
        const { content, onchain } = full ? contentOf(full) : { content: null, onchain: false };
        const dns = methods?.includes(methodId('dnsresolve')) ? await this.dnsOf(base.address, seqno) : null;
        return { ...base, kind, init, index, collection, owner, content, onchain, dns };
      }
      // multisig v2: (next_order_seqno, threshold, signers, proposers)
      case 'multisig': {
        const nextOrderSeqno = s.int();
        const threshold = Number(s.int());
        const signers = addressList(s.maybeCell());
        const proposers = addressList(s.maybeCell());
        return { ...base, kind, nextOrderSeqno, threshold, signers, proposers };
      }
      // multisig v2 order: (multisig, order_seqno, threshold, executed?, signers, approvals_mask, approvals_num, expiration_date, order)
      case 'multisig_order': {
        const multisig = s.address();
        const orderSeqno = s.int();
        const threshold = s.maybeInt();
        const executed = s.maybeInt();
        const signers = addressList(s.maybeCell());
        const approvalsMask = s.maybeInt();
        const approvalsNum = s.maybeInt();
        const expiration = s.maybeInt();
        const order = s.maybeCell();
        if (!multisig) return null;
        return {
          ...base,
          kind,
          multisig,
          orderSeqno,
          threshold: threshold === null ? null : Number(threshold),
          sentForExecution: executed === null ? null : executed !== 0n,
          signers,
          approvalsMask,
          approvalsNum: approvalsNum === null ? null : Number(approvalsNum),
          expirationDate: expiration === null ? null : Number(expiration),
          order,
        };
      }
      // vesting: (start_time, total_duration, unlock_period, cliff_duration, total_amount, sender, owner, whitelist)
      case 'vesting': {
        const startTime = Number(s.int());
        const totalDuration = Number(s.int());
        const unlockPeriod = Number(s.int());
        const cliffDuration = Number(s.int());
        const totalAmount = s.int();
        const sender = s.address();
        const owner = s.address();
        const whitelist = addressKeys(s.maybeCell());
        return { ...base, kind, startTime, totalDuration, unlockPeriod, cliffDuration, totalAmount, sender, owner, whitelist };
      }
    }
  }

  /** A DNS item's domain (`get_domain`, TON DNS) and its records (`dnsresolve` of the item itself, every category). */
  private async dnsOf(address: Address, seqno: number): Promise<DnsEntry | null> {
    const name = await this.run(address, 'get_domain', [], seqno);
    if (!name) return null;
    const s = name.cell().beginParse();
    const domain = `${s.loadBuffer(Math.floor(s.remainingBits / 8)).toString('utf8')}.ton`;
    // the item's own records: subdomain "\0", category 0 (all of them)
    const self = beginCell().storeUint(0, 8).endCell();
    const resolved = await this.run(address, 'dnsresolve', [{ type: 'slice', boc: self.toBoc() }, { type: 'int', value: 0n }], seqno);
    let records: Cell | null = null;
    if (resolved) {
      resolved.int();
      records = resolved.maybeCell();
    }
    return { domain, ...dnsRecordsOf(records) };
  }

  /** Token messages of one sealed transaction (TEP-74 transfer and burn on a jetton wallet, TEP-62 transfer on an item). */
  private parseMessage(rec: TxRecord): void {
    const msg = rec.tx.inMessage;
    if (!msg || msg.info.type !== 'internal') return;
    const op = bodyOp(msg.body);
    if (op !== JETTON_OP.transfer && op !== JETTON_OP.burn && op !== NFT_OP.transfer) return;
    const raw = rawUpper(rec.account);
    const d = rec.tx.description;
    const base = { rec, sender: rawUpper(msg.info.src), aborted: d.type === 'generic' ? d.aborted : false };
    const wallet = this.wallets.get(raw);
    if (wallet && op === JETTON_OP.transfer) {
      const body = loadJettonTransferBody(msg.body);
      if (body) this.jettonTransfers.push({ ...base, body, wallet: raw, master: wallet.jetton });
    } else if (wallet && op === JETTON_OP.burn) {
      const body = loadJettonBurnBody(msg.body);
      if (body) this.jettonBurns.push({ ...base, body, wallet: raw, master: wallet.jetton });
    } else if (op === NFT_OP.transfer) {
      const item = this.items.get(raw);
      const body = item ? loadNftTransferBody(msg.body) : null;
      if (item && body) this.nftTransfers.push({ ...base, body, item: raw, collection: item.collection });
    }
  }

  // ---- metadata (v3.md §3.2) ----

  /** `metadata` for raw addresses: token contracts only; a jetton wallet brings its master along. */
  metadataOf(addresses: Iterable<string>): Metadata {
    const out: Metadata = {};
    const add = (raw: string, info: TokenInfo, indexed: boolean) => {
      const m: AddressMetadata = (out[raw] ??= { is_indexed: true, token_info: [] });
      m.token_info.push(info);
      m.is_indexed = m.is_indexed && indexed;
    };
    const wanted = new Set(addresses);
    for (const raw of [...wanted]) {
      const c = this.contracts.get(raw);
      if (c?.kind !== 'jetton_wallet') continue;
      add(raw, { valid: true, type: 'jetton_wallets', extra: { owner: c.owner, jetton: c.jetton, balance: c.balance.toString() } }, true);
      wanted.add(c.jetton);
    }
    for (const raw of wanted) {
      const c = this.contracts.get(raw);
      if (c?.kind === 'jetton_master') add(raw, ...tokenInfo('jetton_masters', c.content, c.onchain));
      else if (c?.kind === 'nft_collection') add(raw, ...tokenInfo('nft_collections', c.content, c.onchain));
      else if (c?.kind === 'nft_item') add(raw, ...tokenInfo('nft_items', c.content, c.onchain, c.index.toString()));
    }
    return out;
  }
}

const TOKEN_INFO_FIELDS = ['name', 'symbol', 'description', 'image'] as const;

/**
 * One token_info entry. On-chain content is what the reference's metadata fetcher would store (valid, the four
 * fields, the other keys in `extra`); off-chain content needs that fetcher, which the local chain does not run,
 * so it stays `{type, nft_index}` with is_indexed false, the reference's answer before a fetch.
 */
function tokenInfo(type: string, content: Content | null, onchain: boolean, nftIndex?: string): [TokenInfo, boolean] {
  const idx = nftIndex === undefined ? {} : { nft_index: nftIndex };
  if (!onchain || !content) return [{ type, ...idx }, false];
  const info: TokenInfo = { valid: true, type };
  for (const f of TOKEN_INFO_FIELDS) if (content[f] !== undefined) info[f] = content[f];
  const extra = Object.fromEntries(Object.entries(content).filter(([k]) => !(TOKEN_INFO_FIELDS as readonly string[]).includes(k)));
  if (Object.keys(extra).length) info.extra = extra;
  return [{ ...info, ...idx }, true];
}

// ---- ordering ----

type Key<T> = (x: T) => bigint | number | string;

/** A comparator from (key, direction) pairs, first key first. */
export function orderBy<T>(...order: [Key<T>, Sort][]): (a: T, b: T) => number {
  return (a, b) => {
    for (const [key, dir] of order) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      const c = x < y ? -1 : 1;
      return dir === 'asc' ? c : -c;
    }
    return 0;
  };
}

export const pageOf = <T>(list: T[], p: { limit?: number; offset?: number }): T[] => {
  const { limit, offset } = resolvePage(p);
  return list.slice(offset, offset + limit);
};

export const rawSet = (list: Address[] | undefined): Set<string> | undefined => (list?.length ? new Set(list.map(rawUpper)) : undefined);

const ltStr = (v: bigint): string => v.toString();

// ---- serialisers ----

function masterToV3(c: JettonMasterState): JettonMaster {
  return {
    address: c.raw,
    total_supply: c.totalSupply.toString(),
    mintable: c.mintable,
    admin_address: c.admin,
    jetton_content: c.content,
    jetton_wallet_code_hash: c.walletCodeHash,
    code_hash: c.codeHash,
    data_hash: c.dataHash,
    last_transaction_lt: ltStr(c.lastLt),
  };
}

function walletToV3(c: JettonWalletState): JettonWallet {
  return {
    address: c.raw,
    balance: c.balance.toString(),
    owner: c.owner,
    jetton: c.jetton,
    last_transaction_lt: ltStr(c.lastLt),
    code_hash: c.codeHash,
    data_hash: c.dataHash,
  };
}

function collectionToV3(c: NftCollectionState): NftCollection {
  return {
    address: c.raw,
    owner_address: c.owner,
    last_transaction_lt: ltStr(c.lastLt),
    next_item_index: c.nextItemIndex.toString(),
    collection_content: c.content,
    data_hash: c.dataHash,
    code_hash: c.codeHash,
  };
}

function itemToV3(c: NftItemState, collection: NftCollectionState | undefined): NftItem {
  return {
    address: c.raw,
    init: c.init,
    index: c.index.toString(),
    collection_address: c.collection,
    owner_address: c.owner,
    content: c.content,
    last_transaction_lt: ltStr(c.lastLt),
    code_hash: c.codeHash,
    data_hash: c.dataHash,
    collection: collection ? collectionToV3(collection) : null,
    // no sale or auction contracts are indexed on the local chain
    on_sale: false,
  };
}

const txFields = (e: EventBase) => ({
  transaction_hash: b64(Buffer.from(e.rec.hash, 'hex')),
  transaction_lt: ltStr(e.rec.lt),
  transaction_now: e.rec.now,
  transaction_aborted: e.aborted,
});

const traceId = (e: EventBase): string => b64(Buffer.from(e.rec.traceRootHash, 'hex'));
const addrRaw = (a: Address | null): string | null => (a ? rawUpper(a) : null);

function jettonTransferToV3(e: JettonTransferEvent): JettonTransfer {
  const custom = payloadToV3(e.body.customPayload);
  const fwd = payloadToV3(e.body.forwardPayload);
  return {
    query_id: e.body.queryId.toString(),
    source: e.sender,
    destination: addrRaw(e.body.destination) ?? 'addr_none',
    amount: e.body.amount.toString(),
    source_wallet: e.wallet,
    jetton_master: e.master,
    ...txFields(e),
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: custom.boc,
    decoded_custom_payload: null,
    forward_ton_amount: e.body.forwardTonAmount.toString(),
    forward_payload: fwd.boc,
    decoded_forward_payload: fwd.decoded,
    trace_id: traceId(e),
  };
}

function jettonBurnToV3(e: JettonBurnEvent): JettonBurn {
  return {
    query_id: e.body.queryId.toString(),
    owner: e.sender,
    jetton_wallet: e.wallet,
    jetton_master: e.master,
    ...txFields(e),
    amount: e.body.amount.toString(),
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: payloadToV3(e.body.customPayload).boc,
    decoded_custom_payload: null,
    trace_id: traceId(e),
  };
}

function nftTransferToV3(e: NftTransferEvent): NftTransfer {
  const fwd = payloadToV3(e.body.forwardPayload);
  return {
    query_id: e.body.queryId.toString(),
    nft_address: e.item,
    nft_collection: e.collection,
    ...txFields(e),
    old_owner: e.sender,
    new_owner: addrRaw(e.body.newOwner) ?? 'addr_none',
    response_destination: addrRaw(e.body.responseDestination),
    custom_payload: payloadToV3(e.body.customPayload).boc,
    decoded_custom_payload: null,
    forward_amount: e.body.forwardAmount.toString(),
    forward_payload: fwd.boc,
    decoded_forward_payload: fwd.decoded,
    trace_id: traceId(e),
  };
}

/** Transfer and burn filters shared by the three event routes: lt and utime windows, the order column. */
function eventWindow<E extends EventBase>(list: E[], p: JettonBurnsParams | NftTransfersParams): E[] {
  const s: Sort = p.sort ?? 'desc';
  const byNow = p.startUtime !== undefined || p.endUtime !== undefined;
  return list
    .filter(
      (e) =>
        (p.startUtime === undefined || e.rec.now >= p.startUtime) &&
        (p.endUtime === undefined || e.rec.now <= p.endUtime) &&
        (p.startLt === undefined || e.rec.lt >= p.startLt) &&
        (p.endLt === undefined || e.rec.lt <= p.endLt),
    )
    .sort(byNow ? orderBy<E>([(e) => e.rec.now, s], [(e) => e.rec.lt, s]) : orderBy<E>([(e) => e.rec.lt, s]));
}

const present = (...lists: (string | null | undefined)[]): string[] => lists.filter((a): a is string => typeof a === 'string' && a !== 'addr_none');

// ---- the routes ----

export class LocalV3Tokens implements V3TokensApi {
  constructor(private readonly ctx: LocalV3Context) {}

  private get index(): ContractIndex {
    return contractIndex(this.ctx);
  }

  /** `metadata` of raw addresses: only token contracts appear (v3.md §3.2); waits for the index to reach the last sealed block. */
  async metadataOf(addresses: Iterable<string>): Promise<Metadata> {
    await this.index.sync();
    return this.index.metadataOf(addresses);
  }

  async jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse> {
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.address);
    const admin = rawSet(p.adminAddress);
    const list = this.index
      .list('jetton_master')
      .filter((c) => (!address || address.has(c.raw)) && (!admin || (c.admin !== null && admin.has(c.admin))));
    const jetton_masters = pageOf(list, p).map(masterToV3);
    const addrs = jetton_masters.flatMap((m) => present(m.address, m.admin_address));
    return { jetton_masters, ...(await this.enrich(addrs, p)) };
  }

  async jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse> {
    if ((p.jettonAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
      throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
    }
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.address);
    const owner = rawSet(p.ownerAddress);
    const jetton = rawSet(p.jettonAddress);
    const list = this.index
      .list('jetton_wallet')
      .filter(
        (c) =>
          (!address || address.has(c.raw)) &&
          (!owner || owner.has(c.owner)) &&
          (!jetton || jetton.has(c.jetton)) &&
          (!p.excludeZeroBalance || c.balance > 0n),
      );
    // crud_jettons.go: sort switches the column to balance; later filters override the ORDER BY
    const s: Sort = p.sort ?? 'asc';
    const col: Key<JettonWalletState> = p.sort ? (c) => c.balance : (c) => c.id;
    let order = orderBy<JettonWalletState>([col, s]);
    if (address) order = orderBy<JettonWalletState>([(c) => c.raw, 'asc']);
    if (owner) order = orderBy<JettonWalletState>([(c) => c.owner, 'asc'], [col, s]);
    if (p.jettonAddress?.length === 1) order = orderBy<JettonWalletState>([(c) => c.jetton, 'asc'], [col, s]);
    const jetton_wallets = pageOf(list.sort(order), p).map(walletToV3);
    const addrs = jetton_wallets.flatMap((w) => [w.address, w.owner, w.jetton]);
    return { jetton_wallets, ...(await this.enrich(addrs, p)) };
  }

  async jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const wallet = rawSet(p.jettonWallet);
    const master = p.jettonMaster && rawUpper(p.jettonMaster);
    const filtered = this.index.jettonTransfers.filter((e) => {
      // crud_jettons.go: always `tx_aborted is false`
      if (e.aborted) return false;
      const dest = addrRaw(e.body.destination);
      if (owner) {
        const inbound = dest !== null && owner.has(dest);
        const outbound = owner.has(e.sender);
        if (p.direction === 'in' ? !inbound : p.direction === 'out' ? !outbound : !inbound && !outbound) return false;
      }
      return (!wallet || wallet.has(e.wallet)) && (!master || e.master === master);
    });
    const jetton_transfers = pageOf(eventWindow(filtered, p), p).map(jettonTransferToV3);
    const addrs = jetton_transfers.flatMap((t) => present(t.source, t.destination, t.source_wallet, t.jetton_master, t.response_destination));
    return { jetton_transfers, ...(await this.enrich(addrs, p)) };
  }

  async jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const wallet = rawSet(p.jettonWallet);
    const master = p.jettonMaster && rawUpper(p.jettonMaster);
    const filtered = this.index.jettonBurns.filter(
      (e) => (!owner || owner.has(e.sender)) && (!wallet || wallet.has(e.wallet)) && (!master || e.master === master),
    );
    const jetton_burns = pageOf(eventWindow(filtered, p), p).map(jettonBurnToV3);
    const addrs = jetton_burns.flatMap((b) => present(b.owner, b.jetton_wallet, b.jetton_master, b.response_destination));
    return { jetton_burns, ...(await this.enrich(addrs, p)) };
  }

  async nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse> {
    resolvePage(p);
    await this.index.sync();
    const address = rawSet(p.collectionAddress);
    const owner = rawSet(p.ownerAddress);
    const list = this.index
      .list('nft_collection')
      .filter((c) => (!address || address.has(c.raw)) && (!owner || (c.owner !== null && owner.has(c.owner))));
    const nft_collections = pageOf(list, p).map(collectionToV3);
    const addrs = nft_collections.flatMap((c) => present(c.address, c.owner_address));
    return { nft_collections, ...(await this.enrich(addrs, p)) };
  }

  async nftItems(p: NftItemsParams): Promise<NftItemsResponse> {
    if ((p.collectionAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
      throw new ApiError(422, 'exact one owner_address required for multiple collection_address');
    }
    if (p.index?.some((i) => !/^\d+$/.test(i))) throw new ApiError(422, 'index should contain digits only');
    resolvePage(p);
    if (p.index?.length && !p.collectionAddress?.length) {
      throw new ApiError(422, 'index parameter is not allowed without the collection_address');
    }
    await this.index.sync();
    const address = rawSet(p.address);
    // include_on_sale matches real_owner, which is the owner when no sale contract holds the item
    const owner = rawSet(p.ownerAddress);
    const collection = rawSet(p.collectionAddress);
    const indexes = p.index?.length ? new Set(p.index.map((i) => BigInt(i))) : undefined;
    const list = this.index
      .list('nft_item')
      .filter(
        (c) =>
          (!address || address.has(c.raw)) &&
          (!owner || (c.owner !== null && owner.has(c.owner))) &&
          (!collection || (c.collection !== null && collection.has(c.collection))) &&
          (!indexes || indexes.has(c.index)),
      );
    const str = (v: string | null) => v ?? '';
    // crud_nft.go: each filter below overrides the ORDER BY of the ones before it
    let order = orderBy<NftItemState>([(c) => c.id, 'asc']);
    if (owner) order = orderBy<NftItemState>([(c) => str(c.owner), 'asc'], [(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
    if (p.collectionAddress?.length === 1) order = orderBy<NftItemState>([(c) => str(c.collection), 'asc'], [(c) => c.index, 'asc']);
    if (p.sortByLastTransactionLt) order = orderBy<NftItemState>([(c) => c.lastLt, 'desc']);
    const nft_items = pageOf(list.sort(order), p).map((c) => {
      const coll = c.collection ? this.index.get(c.collection) : undefined;
      return itemToV3(c, coll?.kind === 'nft_collection' ? coll : undefined);
    });
    const addrs = nft_items.flatMap((i) => present(i.address, i.collection_address, i.owner_address));
    return { nft_items, ...(await this.enrich(addrs, p)) };
  }

  async nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse> {
    resolvePage(p);
    await this.index.sync();
    const owner = rawSet(p.ownerAddress);
    const item = rawSet(p.itemAddress);
    const collection = p.collectionAddress && rawUpper(p.collectionAddress);
    const filtered = this.index.nftTransfers.filter((e) => {
      if (owner) {
        const next = addrRaw(e.body.newOwner);
        const inbound = next !== null && owner.has(next);
        const outbound = owner.has(e.sender);
        if (p.direction === 'in' ? !inbound : p.direction === 'out' ? !outbound : !inbound && !outbound) return false;
      }
      return (!item || item.has(e.item)) && (!collection || e.collection === collection);
    });
    const nft_transfers = pageOf(eventWindow(filtered, p), p).map(nftTransferToV3);
    const addrs = nft_transfers.flatMap((t) => present(t.nft_address, t.nft_collection, t.old_owner, t.new_owner, t.response_destination));
    return { nft_transfers, ...(await this.enrich(addrs, p)) };
  }

  async addressMetadata(p: MetadataParams): Promise<Metadata> {
    if (p.address.length === 0) throw new ApiError(422, 'at least 1 address required');
    await this.index.sync();
    const raws = p.address.map((a) => parseAddressAny(a)?.address).filter((a): a is Address => a !== undefined);
    return this.index.metadataOf(raws.map(rawUpper));
  }

  private async enrich(addrs: string[], opts: V3Options) {
    return { address_book: this.ctx.book(addrs, opts), metadata: await this.ctx.metadata(addrs, opts) };
  }
}
