/**
 * The contract index of one chain, fed by sealed blocks: after every sealed block (and before every token answer)
 * it reads the latest state of each account the new transactions touched, finds out once per code hash which
 * standard the code speaks by running its get-methods, reads the contract's data with the same get-method once
 * per state, and hands the new transactions to the token events (indexer/tokens.ts).
 */
import { Address, beginCell, type Cell, getMethodId, type ShardAccount } from '@ton/core';
import type { StackArg, V2Api } from '../../../api/v2.js';
import { rawUpper } from '../../../model/address.js';
import { b64, codeOf, contractMethods, dataOf } from '../../../model/v3/index.js';
import type { ChainStore, Rewind } from '../chain/store.js';
import { addressKeys, addressList, contentOf, dnsRecordsOf, fromStd, jettonMasterData, Stack, type DnsEntry } from '../../../model/contract-data.js';
import { SALE_MAGIC, type ContractBase, type ContractKind, type ContractState, type StateOf } from './contract-state.js';
import { tokenOpcode, TokenEvents } from './tokens.js';

const hex = (b: Buffer): string => b.toString('hex');
const methodId = (name: string): number => getMethodId(name) >>> 0;

/** Which get-method tells each kind apart, tried in this order. */
const DETECT: [ContractKind, string][] = [
  ['jetton_master', 'get_jetton_data'],
  ['jetton_wallet', 'get_wallet_data'],
  ['nft_collection', 'get_collection_data'],
  ['nft_item', 'get_nft_data'],
  ['nft_sale', 'get_sale_data'],
  ['multisig', 'get_multisig_data'],
  ['multisig_order', 'get_order_data'],
  ['vesting', 'get_vesting_data'],
];

/** Token, DNS, multisig and vesting contracts and the token events of one chain, read from its sealed blocks. */
export class ContractIndex {
  /** live contracts by raw address */
  private readonly contracts = new Map<string, ContractState>();
  private readonly ids = new Map<string, number>();
  /** the state each contract was last read at: `lt:txHash` */
  private readonly readAt = new Map<string, string>();
  /** per code hash (hex): the kind, or null when the code has none of the get-methods */
  private readonly kinds = new Map<string, ContractKind | null>();
  /** the token messages of the indexed jetton wallets and NFT items */
  readonly tokens = new TokenEvents();
  private cursor = 0;
  private started = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: ChainStore,
    private readonly v2: V2Api,
  ) {
    store.onSeal(() => void this.sync());
    store.onRewind((r) => this.rewound(r));
    store.onEdit((address) => this.reread([rawUpper(address)]));
    void this.sync();
  }

  /**
   * Undoes what a rewind took back: the token events of transactions no longer sealed (the newest ones), the
   * cursor, and every account whose state changed is read again at the new head (queued; `sync` waits for it).
   */
  private rewound(r: Rewind): void {
    const kept = (e: { rec: { hash: string; mcSeqno?: number } }) => e.rec.mcSeqno !== undefined && e.rec.mcSeqno <= r.to.mcSeqno && this.store.tx(e.rec.hash) === e.rec;
    for (const list of [this.tokens.jettonTransfers, this.tokens.jettonBurns, this.tokens.nftTransfers] as { rec: { hash: string; mcSeqno?: number } }[][]) {
      while (list.length > 0 && !kept(list[list.length - 1]!)) list.pop();
    }
    this.cursor = Math.min(this.cursor, this.store.sealedTransactions().length);
    this.reread([...r.accounts].map((key) => rawUpper(Address.parseRaw(key))));
  }

  /** Reads these accounts again at the newest block, after what is queued. */
  private reread(raws: string[]): void {
    for (const raw of raws) this.readAt.delete(raw);
    this.queue = this.queue
      .then(async () => {
        if (this.store.mcBlocks.length === 0) return;
        const seqno = this.store.lastMc.seqno;
        for (const raw of raws) await this.refresh(raw, seqno);
      })
      .catch((e: unknown) => {
        console.error('v3 token index: reading accounts again failed:', e);
      });
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
    const store = this.store;
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
    // only transactions whose in-message carries a token opcode are parsed
    for (const rec of fresh) if (rec.inMsgHash && tokenOpcode(store.message(rec.inMsgHash)?.opcode)) this.tokens.add(rec);
  }

  /** Re-reads an account whose state changed; memoised per state. */
  private async refresh(raw: string, seqno: number): Promise<void> {
    const address = Address.parseRaw(raw);
    const st = this.store.accountState(address, seqno);
    if (!st) {
      // gone with a rewind: it never existed at this block
      this.contracts.delete(raw);
      this.readAt.delete(raw);
      return;
    }
    const at = `${st.record.lt}:${st.record.txHash ?? ''}:${st.record.edit ?? ''}`;
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
    this.tokens.learn(raw, state);
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
    const r = await this.v2.runGetMethodStd({ address, method, stack, seqno });
    if (r.exit_code !== 0 && r.exit_code !== 1) return null;
    return new Stack(r.stack.map(fromStd));
  }

  private async decode(kind: ContractKind, s: Stack, base: ContractBase, methods: number[] | null, seqno: number): Promise<ContractState | null> {
    switch (kind) {
      // TEP-74: (total_supply, mintable, admin_address, jetton_content, jetton_wallet_code)
      case 'jetton_master':
        return { ...base, kind, ...jettonMasterData(s) };
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
      // GetGems: ("FIXP", is_complete, created_at, marketplace, nft, owner, full_price, …) or
      // ("AUC", end?, end_time, marketplace, nft, owner, last_bid, …, is_canceled last)
      case 'nft_sale': {
        const magic = s.int();
        if (magic !== SALE_MAGIC.getgems_sale && magic !== SALE_MAGIC.getgems_auction) return null;
        const saleType = magic === SALE_MAGIC.getgems_sale ? 'getgems_sale' : 'getgems_auction';
        const done = s.int() !== 0n;
        s.int();
        const marketplace = s.address();
        const nft = s.address();
        const owner = s.address();
        const price = s.int();
        let canceled = false;
        if (saleType === 'getgems_auction') {
          // last_member, min_step, the two fee triples, max_bid, min_bid, created_at, last_bid_at, then is_canceled
          for (let i = 0; i < 12; i++) s.item();
          canceled = s.int() !== 0n;
        }
        const complete = done || canceled;
        return { ...base, kind, saleType, nft, owner, marketplace, price, complete };
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
}
