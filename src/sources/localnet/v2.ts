/**
 * V2Api over the local chain: every toncenter v2 method answered from our own store (blocks, transactions,
 * account history) and, for get-methods and fee estimates, by running the emulator on a stored state without
 * touching the live chain. Shapes and errors follow ../shared/reference/v2.md (C++ variant 2.1.x).
 *
 * Local-chain-only answers (documented, since no real validator set or Merkle blocks exist here):
 * - getMasterchainBlockSignatures: one signature of one local validator whose ed25519 key is derived from the
 *   seed, over root_hash ‖ file_hash of the block; node_id_short = sha256 of its public key.
 * - getShardBlockProof: the real ids of the blocks involved, with empty proof fields.
 */
import { createHash } from 'node:crypto';
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  external,
  getMethodId,
  loadMessage,
  loadShardAccount,
  loadTransaction,
  parseTuple,
  storeMessage,
  storeShardAccount,
  type Message,
  type ShardAccount,
  type StateInit,
  type TupleItem,
} from '@ton/core';
import { keyPairFromSeed, sign } from '@ton/crypto';
import { createEmptyShardAccount } from '@ton/sandbox';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../api/errors.js';
import type * as v2 from '../../api/v2.js';
import { friendly, parseAddressAny, rawLower, rawUpper } from '../../model/address.js';
import { hashB64, parseHash } from '../../model/hash.js';
import { LimitError, MESSAGE_LIMITS, checkBoc } from '../../model/limits.js';
import { bocB64, extraCurrencies, normalizedHash } from '../../model/message.js';
import { stackArgsToTuple, tupleToLegacy, tupleToStd } from '../../model/stack.js';
import { txToExt, txToRaw, txToRawExt } from '../../model/transaction.js';
import { detectWallet } from '../../model/wallet.js';
import { blockIdExt } from './chain/blocks.js';
import { EXT_NOT_ACCEPTED, type Chain } from './chain/chain.js';
import { ExecutorFailure } from './chain/executor-pool.js';
import { compareAccountLt, SHARD_ALL, type BlockRecord, type TxRecord } from './chain/store.js';
import { parseTokenContent, StackReader } from './tokens.js';
import { reusableJson } from '../../pipeline/json-fragments.js';

export const BLOCK_NOT_FOUND = 'LITE_SERVER_UNKNOWN: block is not applied';
export const TX_NOT_FOUND = 'transaction was not found';
const LT_NOT_IN_DB = 'LITE_SERVER_UNKNOWN: cannot compute block with specified transaction: lt not in db';
const TX_HASH_MISMATCH = 'LITE_SERVER_UNKNOWN: transaction hash mismatch';
const ZERO_HASH = Buffer.alloc(32).toString('base64');
/** tonlib's exit code for a get-method on an account without code */
const EXIT_NO_CODE = -13;
const GET_METHOD_GAS_LIMIT = 10_000_000n;
/** the C++ variant's default for ext_msg_queue_size_limit */
const EXT_MSG_QUEUE_LIMIT = 8000;

interface AccountView {
  mc: BlockRecord;
  sa: ShardAccount | undefined;
  balance: bigint;
  code?: Cell;
  data?: Cell;
  frozenHash: string;
  state: v2.AccountStateName;
  lastTx: v2.TransactionId;
}

export class LocalV2Api implements v2.V2Api {
  private readonly validator;
  /** a sealed transaction never changes, so its v2 JSON (BoCs included) is kept per shape, for the most recently read */
  private readonly txJson = new LRUCache<string, { ext?: v2.ExtTransaction; raw?: v2.RawTransaction; rawExt?: v2.RawTransactionExt }>({ max: 4096 });

  constructor(private readonly chain: Chain) {
    this.validator = keyPairFromSeed(createHash('sha256').update(`ton-localnet/validator/${chain.seed}`).digest());
  }

  private get store() {
    return this.chain.store;
  }

  // ---- helpers ----

  private json(t: TxRecord) {
    let j = this.txJson.get(t.hash);
    if (!j) this.txJson.set(t.hash, (j = {}));
    return j;
  }

  private ext(t: TxRecord): v2.ExtTransaction {
    const j = this.json(t);
    return (j.ext ??= reusableJson(txToExt(t.tx, t.account.workChain)));
  }

  private raw(t: TxRecord): v2.RawTransaction {
    const j = this.json(t);
    return (j.raw ??= reusableJson(txToRaw(t.tx, t.account.workChain)));
  }

  private rawExt(t: TxRecord): v2.RawTransactionExt {
    const j = this.json(t);
    return (j.rawExt ??= reusableJson(txToRawExt(t.tx, t.account.workChain)));
  }

  private mcAt(seqno?: number): BlockRecord {
    if (seqno === undefined) return this.store.lastMc;
    const b = this.store.mcBlock(seqno);
    if (!b) throw new ApiError(500, BLOCK_NOT_FOUND);
    return b;
  }

  private account(address: Address, seqno?: number): AccountView {
    const mc = this.mcAt(seqno);
    const sa = this.store.accountState(address, mc.seqno)?.shardAccount;
    const storage = sa?.account?.storage;
    const st = storage?.state;
    const code = st?.type === 'active' ? (st.state.code ?? undefined) : undefined;
    const data = st?.type === 'active' ? (st.state.data ?? undefined) : undefined;
    const frozenHash = st?.type === 'frozen' ? hashB64(st.stateHash) : '';
    const balance = storage?.balance.coins ?? 0n;
    return {
      mc,
      sa,
      balance: balance < 0n ? 0n : balance,
      code,
      data,
      frozenHash,
      state: code ? 'active' : frozenHash ? 'frozen' : 'uninitialized',
      lastTx: {
        '@type': 'internal.transactionId',
        lt: (sa?.lastTransactionLt ?? 0n).toString(),
        hash: sa ? hashB64(sa.lastTransactionHash) : ZERO_HASH,
      },
    };
  }

  private blockByRef(p: v2.BlockRefParams): BlockRecord {
    const b = this.store.block({ workchain: p.workchain, shard: p.shard, seqno: p.seqno });
    if (!b) throw new ApiError(500, BLOCK_NOT_FOUND);
    if ((p.rootHash && !p.rootHash.equals(b.rootHash)) || (p.fileHash && !p.fileHash.equals(b.fileHash))) {
      throw new ApiError(500, 'LITE_SERVER_UNKNOWN: block root hash mismatch');
    }
    return b;
  }

  private sealedTx(hash: string | undefined): TxRecord | undefined {
    return hash ? this.store.tx(hash) : undefined;
  }

  private async runGet(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    seqno?: number,
  ): Promise<{ view: AccountView; exitCode: number; gasUsed: number; stack: TupleItem[] }> {
    const view = this.account(address, seqno);
    if (!view.code || !view.data) return { view, exitCode: EXIT_NO_CODE, gasUsed: 0, stack: [] };
    const bc = this.chain.bc;
    const res = await emulated(this.chain.reads.runGetMethod({
      code: view.code,
      data: view.data,
      methodId: typeof method === 'number' ? method : /^-?\d+$/.test(method) ? Number(method) : getMethodId(method),
      stack,
      config: bc.configBase64,
      verbosity: 'short',
      libs: bc.libs,
      address,
      unixTime: seqno === undefined ? Math.max(view.mc.genUtime, Math.floor(Date.now() / 1000)) : view.mc.genUtime,
      balance: view.balance,
      randomSeed: Buffer.alloc(32),
      gasLimit: GET_METHOD_GAS_LIMIT,
      debugEnabled: false,
      prevBlocksInfo: bc.prevBlocks,
    }), 'get-method');
    if (!res.output.success) throw new ApiError(500, `LITE_SERVER_UNKNOWN: ${res.output.error}`);
    const out = res.output;
    return { view, exitCode: out.vm_exit_code, gasUsed: Number(out.gas_used), stack: parseTuple(Cell.fromBase64(out.stack)) };
  }

  private parseExternal(boc: Buffer): { cell: Cell; msg: Message } {
    let cell: Cell;
    try {
      // the surfaces checked the same limits; this keeps every caller of the chain inside them
      const { roots } = checkBoc(boc, 'message', MESSAGE_LIMITS);
      if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
      cell = roots[0]!;
    } catch (e) {
      if (e instanceof LimitError && e.limit !== 'boc') throw new ApiError(422, e.message);
      throw new ApiError(422, `failed to parse boc: ${(e as Error).message}`);
    }
    let msg: Message;
    try {
      msg = loadMessage(cell.beginParse());
    } catch (e) {
      throw new ApiError(422, `boc is not a message: ${(e as Error).message}`);
    }
    if (msg.info.type !== 'external-in') throw new ApiError(422, 'boc is not an inbound external message');
    const wc = msg.info.dest.workChain;
    if (wc !== 0 && wc !== -1) throw new ApiError(422, `workchain ${wc} does not exist on the local chain`);
    return { cell, msg };
  }

  // ---- accounts ----

  async getAddressInformation(p: v2.AddressParams): Promise<v2.FullAccountState> {
    const a = this.account(p.address, p.seqno);
    return {
      '@type': 'raw.fullAccountState',
      balance: a.balance.toString(),
      extra_currencies: extraCurrencies(a.sa?.account?.storage.balance.other),
      code: a.code ? bocB64(a.code) : '',
      data: a.data ? bocB64(a.data) : '',
      last_transaction_id: a.lastTx,
      block_id: blockIdExt(a.mc),
      frozen_hash: a.frozenHash,
      sync_utime: a.mc.genUtime,
      state: a.state,
      suspended: false,
    };
  }

  async getExtendedAddressInformation(p: v2.AddressParams): Promise<v2.ExtendedAddressInformation> {
    const a = this.account(p.address, p.seqno);
    const w = detectWallet(a.code, a.data);
    let account_state: v2.ExtendedAccountState;
    let revision = 0;
    if (!a.code) {
      account_state = { '@type': 'uninited.accountState', frozen_hash: a.frozenHash };
    } else if (w && w.walletId !== undefined && /^wallet v[34] r[12]$/.test(w.type)) {
      // tonlib has typed states for v3 and v4 only; everything else (v5 included) stays raw
      account_state = {
        '@type': w.type.startsWith('wallet v3') ? 'wallet.v3.accountState' : 'wallet.v4.accountState',
        wallet_id: String(w.walletId >>> 0),
        seqno: w.seqno,
      };
      revision = Number(w.type.slice(-1));
    } else {
      account_state = { '@type': 'raw.accountState', code: bocB64(a.code), data: a.data ? bocB64(a.data) : '', frozen_hash: '' };
    }
    return {
      '@type': 'fullAccountState',
      address: { '@type': 'accountAddress', account_address: friendly(p.address) },
      balance: a.balance.toString(),
      extra_currencies: extraCurrencies(a.sa?.account?.storage.balance.other),
      last_transaction_id: a.lastTx,
      block_id: blockIdExt(a.mc),
      sync_utime: a.mc.genUtime,
      account_state,
      revision,
    };
  }

  async getWalletInformation(p: v2.AddressParams): Promise<v2.WalletInformation> {
    const a = this.account(p.address, p.seqno);
    const w = a.state === 'active' ? detectWallet(a.code, a.data) : null;
    return {
      '@type': 'ext.accounts.walletInformation',
      wallet: w !== null,
      balance: a.balance.toString(),
      account_state: a.state,
      last_transaction_id: a.lastTx,
      ...(w
        ? {
            wallet_type: w.type,
            seqno: w.seqno,
            ...(w.walletId !== undefined ? { wallet_id: w.walletId } : {}),
            ...(w.isSignatureAllowed !== undefined ? { is_signature_allowed: w.isSignatureAllowed } : {}),
          }
        : {}),
    };
  }

  async getAddressBalance(p: v2.AddressParams): Promise<string> {
    // the balance alone, without the hashes and state the whole account view builds
    const balance = this.store.accountState(p.address, this.mcAt(p.seqno).seqno)?.shardAccount?.account?.storage.balance.coins ?? 0n;
    return (balance < 0n ? 0n : balance).toString();
  }

  async getAddressState(p: v2.AddressParams): Promise<v2.AccountStateName> {
    return this.account(p.address, p.seqno).state;
  }

  async getTokenData(p: v2.AddressParams): Promise<v2.TokenData> {
    const address = friendly(p.address);
    for (const method of ['get_jetton_data', 'get_wallet_data', 'get_collection_data', 'get_nft_data'] as const) {
      const r = await this.runGet(p.address, method, [], p.seqno);
      if (r.exitCode !== 0) continue;
      const s = new StackReader(r.stack);
      const opt = (a: Address | null) => (a ? friendly(a) : undefined);
      try {
        switch (method) {
          case 'get_jetton_data': {
            s.need(5);
            const total_supply = s.int().toString();
            const mintable = s.int() !== 0n;
            const admin = opt(s.address());
            const jetton_content = parseTokenContent(s.cell());
            return {
              '@type': 'ext.tokens.jettonMasterData',
              contract_type: 'jetton_master',
              address,
              total_supply,
              mintable,
              ...(admin ? { admin_address: admin } : {}),
              jetton_content,
              jetton_wallet_code: bocB64(s.cell()),
            };
          }
          case 'get_wallet_data': {
            s.need(4);
            const balance = s.int().toString();
            const ownerAddress = s.address();
            const master = s.address();
            const owner = opt(ownerAddress) ?? '';
            const jetton = opt(master) ?? '';
            if (master && ownerAddress) {
              const arg = beginCell().storeAddress(ownerAddress).endCell();
              await this.verifyToken(master, 'get_wallet_address', [{ type: 'slice', cell: arg }], p.address, 'master', p.seqno);
            }
            return {
              '@type': 'ext.tokens.jettonWalletData',
              contract_type: 'jetton_wallet',
              address,
              balance,
              owner,
              jetton,
              jetton_wallet_code: bocB64(s.cell()),
            };
          }
          case 'get_collection_data': {
            s.need(3);
            const next_item_index = s.int().toString();
            const collection_content = parseTokenContent(s.cell());
            const owner = opt(s.address());
            return {
              '@type': 'ext.tokens.nftCollectionData',
              contract_type: 'nft_collection',
              address,
              next_item_index,
              ...(owner ? { owner_address: owner } : {}),
              collection_content,
            };
          }
          case 'get_nft_data': {
            s.need(5);
            const init = s.int() !== 0n;
            const index = s.int();
            const collection = s.address();
            const owner = opt(s.address());
            const individual = s.cell();
            let content: v2.TokenContent | Record<string, unknown> = {};
            if (collection) {
              await this.verifyToken(collection, 'get_nft_address_by_index', [{ type: 'int', value: index }], p.address, 'collection', p.seqno);
              const c = await this.runGet(collection, 'get_nft_content', [{ type: 'int', value: index }, { type: 'cell', cell: individual }], p.seqno);
              if (c.exitCode === 0) content = parseTokenContent(new StackReader(c.stack).cell());
            } else {
              content = parseTokenContent(individual);
            }
            return {
              '@type': 'ext.tokens.nftItemData',
              contract_type: 'nft_item',
              address,
              init,
              index: index.toString(),
              ...(collection ? { collection_address: friendly(collection) } : {}),
              ...(owner ? { owner_address: owner } : {}),
              content,
            };
          }
        }
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new ApiError(500, (e as Error).message);
      }
    }
    throw new ApiError(409, `Smart contract ${address} is not Jetton or NFT`);
  }

  /** getTokenData's check that the master (collection) computes this address for the wallet (item); texts as in v2.md §3.2. */
  private async verifyToken(parent: Address, method: string, stack: TupleItem[], expected: Address, what: 'master' | 'collection', seqno?: number): Promise<void> {
    const r = await this.runGet(parent, method, stack, seqno);
    if (r.exitCode !== 0) throw new ApiError(409, `Verification exit code ${r.exitCode} != 0`);
    const computed = r.stack[0]?.type === 'slice' || r.stack[0]?.type === 'cell' ? new StackReader(r.stack).address() : null;
    if (!computed || !computed.equals(expected)) throw new ApiError(409, `Verification on ${what} failed`);
  }

  // ---- blocks ----

  async getMasterchainInfo(): Promise<v2.MasterchainInfo> {
    const last = this.store.lastMc;
    return {
      '@type': 'blocks.masterchainInfo',
      last: blockIdExt(last),
      state_root_hash: createHash('sha256').update('ton-localnet/state/v1').update(last.rootHash).digest('base64'),
      init: blockIdExt(this.store.mcBlocks[0]!),
    };
  }

  async getMasterchainBlockSignatures(p: { seqno: number }): Promise<v2.BlockSignatures> {
    const b = this.mcAt(p.seqno);
    return {
      '@type': 'blocks.blockSignatures',
      id: blockIdExt(b),
      signatures: [
        {
          '@type': 'blocks.signature',
          node_id_short: createHash('sha256').update(this.validator.publicKey).digest('base64'),
          signature: sign(Buffer.concat([b.rootHash, b.fileHash]), this.validator.secretKey).toString('base64'),
        },
      ],
    };
  }

  async getShardBlockProof(p: v2.ShardBlockProofParams): Promise<v2.ShardBlockProof> {
    const target = this.blockByRef({ workchain: p.workchain, shard: p.shard, seqno: p.seqno });
    const mcId = this.mcAt(target.mcSeqno);
    const from = p.fromSeqno === undefined ? this.store.lastMc : this.mcAt(p.fromSeqno);
    if (from.seqno < mcId.seqno) {
      throw new ApiError(500, `LITE_SERVER_UNKNOWN: masterchain block ${from.seqno} is older than block ${mcId.seqno} it should prove`);
    }
    return {
      '@type': 'blocks.shardBlockProof',
      from: blockIdExt(from),
      mc_id: blockIdExt(mcId),
      links: target.workchain === -1 ? [] : [{ '@type': 'blocks.shardBlockLink', id: blockIdExt(target), proof: '' }],
      mc_proof:
        from.seqno === mcId.seqno
          ? []
          : [
              {
                '@type': 'blocks.blockLinkBack',
                to_key_block: false,
                from: blockIdExt(from),
                to: blockIdExt(mcId),
                dest_proof: '',
                proof: '',
                state_proof: '',
              },
            ],
    };
  }

  async getConsensusBlock(): Promise<v2.ConsensusBlock> {
    return { '@type': 'ext.blocks.consensusBlock', consensus_block: this.store.lastMc.seqno, timestamp: Math.floor(Date.now() / 1000) };
  }

  async lookupBlock(p: v2.LookupBlockParams): Promise<v2.BlockIdExt> {
    if (p.shard !== SHARD_ALL) throw new ApiError(500, BLOCK_NOT_FOUND);
    const chain = this.store.chain(p.workchain);
    let found: BlockRecord | undefined;
    if (p.seqno !== undefined) {
      found = chain[p.seqno];
    } else if (p.lt !== undefined) {
      const lt = p.lt;
      found = chain.find((b) => b.endLt > lt);
    } else if (p.unixtime !== undefined) {
      const last = chain[chain.length - 1];
      if (last && p.unixtime <= last.genUtime) {
        for (let i = chain.length - 1; i >= 0; i--) {
          if (chain[i]!.genUtime <= p.unixtime) {
            found = chain[i];
            break;
          }
        }
      }
    }
    if (!found) throw new ApiError(500, BLOCK_NOT_FOUND);
    return blockIdExt(found);
  }

  async getShards(p: { seqno: number }): Promise<v2.Shards> {
    const mc = this.mcAt(p.seqno);
    return { '@type': 'blocks.shards', shards: mc.shards.map((s) => blockIdExt(this.store.block(s)!)) };
  }

  async getBlockHeader(p: v2.BlockRefParams): Promise<v2.BlockHeader> {
    const b = this.blockByRef(p);
    const isMc = b.workchain === -1;
    return {
      '@type': 'blocks.header',
      id: blockIdExt(b),
      global_id: this.chain.globalId,
      version: 0,
      flags: 0,
      after_merge: false,
      after_split: false,
      before_split: false,
      want_merge: false,
      want_split: false,
      validator_list_hash_short: createHash('sha256').update(this.validator.publicKey).digest().readInt32BE(0),
      catchain_seqno: 0,
      min_ref_mc_seqno: Math.max(0, b.mcSeqno - (isMc ? 0 : 1)),
      is_key_block: isMc && b.seqno === 0,
      prev_key_block_seqno: 0,
      start_lt: b.startLt.toString(),
      end_lt: b.endLt.toString(),
      gen_utime: b.genUtime,
      vert_seqno: 0,
      prev_blocks: b.prev ? [blockIdExt(b.prev)] : [],
    };
  }

  async getOutMsgQueueSize(): Promise<v2.OutMsgQueueSizes> {
    const mc = this.store.lastMc;
    return {
      '@type': 'blocks.outMsgQueueSizes',
      shards: [mc, ...mc.shards.map((s) => this.store.block(s)!)].map((b) => ({ '@type': 'blocks.outMsgQueueSize' as const, id: blockIdExt(b), size: 0 })),
      ext_msg_queue_size_limit: EXT_MSG_QUEUE_LIMIT,
    };
  }

  // ---- transactions ----

  private blockPage(p: v2.BlockTransactionsParams): { block: BlockRecord; page: TxRecord[]; incomplete: boolean } {
    const block = this.blockByRef(p);
    let txs = this.store.blockTxs(block);
    if (p.after) {
      const after = { account: new Address(block.workchain, p.after.accountHash), lt: p.after.lt };
      txs = txs.filter((t) => compareAccountLt(t, after) > 0);
    }
    return { block, page: txs.slice(0, p.count), incomplete: txs.length > p.count };
  }

  async getBlockTransactions(p: v2.BlockTransactionsParams): Promise<v2.BlockTransactions> {
    const { block, page, incomplete } = this.blockPage(p);
    return {
      '@type': 'blocks.transactions',
      id: blockIdExt(block),
      req_count: p.count,
      incomplete,
      transactions: page.map((t) => ({
        '@type': 'blocks.shortTxId',
        mode: 135,
        account: rawLower(t.account),
        lt: t.lt.toString(),
        hash: hashB64(Buffer.from(t.hash, 'hex')),
      })),
    };
  }

  async getBlockTransactionsExt(p: v2.BlockTransactionsParams): Promise<v2.BlockTransactionsExt> {
    const { block, page, incomplete } = this.blockPage(p);
    return {
      '@type': 'blocks.transactionsExt',
      id: blockIdExt(block),
      req_count: p.count,
      incomplete,
      transactions: page.map((t) => this.rawExt(t)),
    };
  }

  /** Newest first from `from` (inclusive) or the last transaction, stopping at lt <= toLt. */
  private accountPage(p: v2.TransactionsParams): { page: TxRecord[]; next?: TxRecord } {
    const list = this.store.accountTransactions(p.address);
    let start = list.length - 1;
    if (p.from) {
      const lt = p.from.lt;
      start = list.findIndex((t) => t.lt === lt);
      if (start < 0) throw new ApiError(500, LT_NOT_IN_DB);
      if (!Buffer.from(list[start]!.hash, 'hex').equals(p.from.hash)) throw new ApiError(500, TX_HASH_MISMATCH);
    }
    const page: TxRecord[] = [];
    for (let i = start; i >= 0 && page.length < p.limit; i--) {
      const t = list[i]!;
      if (p.toLt > 0n && t.lt <= p.toLt) break;
      page.push(t);
    }
    return { page };
  }

  async getTransactions(p: v2.TransactionsParams): Promise<v2.ExtTransaction[]> {
    return this.accountPage(p).page.map((t) => this.ext(t));
  }

  async getTransactionsStd(p: v2.TransactionsParams): Promise<v2.TransactionsStd> {
    const { page } = this.accountPage(p);
    const last = page[page.length - 1];
    return {
      '@type': 'raw.transactions',
      transactions: page.map((t) => this.raw(t)),
      previous_transaction_id: {
        '@type': 'internal.transactionId',
        lt: (last?.tx.prevTransactionLt ?? 0n).toString(),
        hash: last ? hashB64(last.tx.prevTransactionHash) : ZERO_HASH,
      },
    };
  }

  private locate(p: v2.LocateTxParams, side: 'dest' | 'source'): v2.ExtTransaction {
    const m = this.store.messageByRoute(p.source, p.destination, p.createdLt);
    const t = this.sealedTx(side === 'dest' ? m?.destTxHash : m?.sourceTxHash);
    if (!t) throw new ApiError(404, TX_NOT_FOUND);
    return this.ext(t);
  }

  async tryLocateTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
    return this.locate(p, 'dest');
  }

  async tryLocateResultTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
    return this.locate(p, 'dest');
  }

  async tryLocateSourceTx(p: v2.LocateTxParams): Promise<v2.ExtTransaction> {
    return this.locate(p, 'source');
  }

  // ---- send, fees, get-methods ----

  async sendBoc(p: { boc: Buffer }): Promise<v2.Ok> {
    const { cell } = this.parseExternal(p.boc);
    await this.chain.send(cell);
    return { '@type': 'ok' };
  }

  async sendBocReturnHash(p: { boc: Buffer }): Promise<v2.ExtMessageInfo> {
    const { cell, msg } = this.parseExternal(p.boc);
    await this.chain.send(cell);
    return { '@type': 'raw.extMessageInfo', hash: hashB64(cell.hash()), hash_norm: hashB64(normalizedHash(msg, cell)) };
  }

  async estimateFee(p: v2.EstimateFeeParams): Promise<v2.QueryFees> {
    const parse = (what: string, b: Buffer): Cell => {
      try {
        return Cell.fromBoc(b)[0]!;
      } catch (e) {
        throw new ApiError(422, `failed to parse ${what}: ${(e as Error).message}`);
      }
    };
    const body = parse('body', p.body);
    const init: StateInit | undefined =
      p.initCode?.length || p.initData?.length
        ? { code: p.initCode?.length ? parse('init_code', p.initCode) : undefined, data: p.initData?.length ? parse('init_data', p.initData) : undefined }
        : undefined;
    const message = beginCell().store(storeMessage(external({ to: p.address, init, body }))).endCell();

    const a = this.account(p.address);
    const sa = a.sa ?? createEmptyShardAccount(p.address);
    // fees do not depend on the balance, but an empty account could not pay for the gas it is asked to price
    const copy: ShardAccount = cloneShardAccount(sa);
    if (copy.account && copy.account.storage.balance.coins < FEE_PROBE_BALANCE) copy.account.storage.balance.coins = FEE_PROBE_BALANCE;
    const bc = this.chain.bc;
    const res = await emulated(this.chain.reads.runTransaction({
      message,
      shardAccount: beginCell().store(storeShardAccount(copy)).endCell().toBoc().toString('base64'),
      // tonlib's query.estimateFees prices storage up to the sync time of the state it read (the masterchain block's
      // gen_utime), not the wall clock: two estimates against one block agree to the nanoton
      now: a.mc.genUtime,
      lt: bc.lt + 1_000_000n,
      config: bc.configBase64,
      libs: bc.libs ?? null,
      verbosity: 'short',
      randomSeed: Buffer.alloc(32),
      ignoreChksig: p.ignoreChksig,
      debugEnabled: false,
      prevBlocksInfo: bc.prevBlocks,
    }), 'fee estimate');
    if (!res.result.success) throw new ApiError(500, `${EXT_NOT_ACCEPTED}\n${res.result.error}`);
    const tx = loadTransaction(Cell.fromBase64(res.result.transaction).beginParse());
    const d = tx.description;
    if (d.type !== 'generic') throw new ApiError(500, `LITE_SERVER_UNKNOWN: unexpected ${d.type} transaction`);
    const storage = d.storagePhase?.storageFeesCollected ?? 0n;
    const gas = d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n;
    const fwd = d.actionPhase?.totalFwdFees ?? 0n;
    const actionFees = d.actionPhase?.totalActionFees ?? 0n;
    const inFwd = tx.totalFees.coins - storage - gas - actionFees;
    return {
      '@type': 'query.fees',
      source_fees: {
        '@type': 'fees',
        in_fwd_fee: Number(inFwd > 0n ? inFwd : 0n),
        storage_fee: Number(storage),
        gas_fee: Number(gas),
        fwd_fee: Number(fwd),
      },
      destination_fees: [],
    };
  }

  async runGetMethod(p: v2.RunGetMethodParams & { stack: v2.StackArg[] }): Promise<v2.RunResult> {
    const r = await this.runGet(p.address, p.method, stackArgsToTuple(p.stack), p.seqno);
    return {
      '@type': 'smc.runResult',
      gas_used: r.gasUsed,
      stack: tupleToLegacy(r.stack),
      exit_code: r.exitCode,
      block_id: blockIdExt(r.view.mc),
      last_transaction_id: r.view.lastTx,
    };
  }

  async runGetMethodStd(p: v2.RunGetMethodParams & { stack: v2.StackArg[] }): Promise<v2.RunResultStd> {
    const r = await this.runGet(p.address, p.method, stackArgsToTuple(p.stack), p.seqno);
    return { '@type': 'smc.runResult', gas_used: r.gasUsed, stack: tupleToStd(r.stack), exit_code: r.exitCode };
  }

  // ---- utils ----

  private parseAddress(s: string) {
    const parsed = parseAddressAny(s);
    if (!parsed) throw new ApiError(422, `Failed to parse ton_addr: '${s}'`);
    return parsed;
  }

  async detectAddress(p: { address: string }): Promise<v2.DetectedAddress> {
    const a = this.parseAddress(p.address);
    const variant = (bounceable: boolean): v2.DetectedAddressVariant => ({
      '@type': 'ext.utils.detectedAddressVariant',
      b64: a.address.toString({ bounceable, urlSafe: false, testOnly: a.testOnly }),
      b64url: a.address.toString({ bounceable, urlSafe: true, testOnly: a.testOnly }),
    });
    return {
      '@type': 'ext.utils.detectedAddress',
      raw_form: rawLower(a.address),
      bounceable: variant(true),
      non_bounceable: variant(false),
      given_type: a.givenType,
      test_only: a.testOnly,
    };
  }

  async detectHash(p: { hash: string }): Promise<v2.DetectedHash> {
    const h = parseHash(p.hash);
    if (!h) throw new ApiError(422, `invalid hash: '${p.hash}'`);
    return { '@type': 'ext.utils.detectedHash', b64: h.toString('base64'), b64url: h.toString('base64url'), hex: h.toString('hex') };
  }

  async packAddress(p: { address: string }): Promise<string> {
    const a = this.parseAddress(p.address);
    return a.address.toString({ bounceable: a.bounceable, urlSafe: true, testOnly: a.testOnly });
  }

  async unpackAddress(p: { address: string }): Promise<string> {
    return rawUpper(this.parseAddress(p.address).address);
  }

  // ---- config ----

  async getConfigParam(p: v2.AtSeqno & { configId: number }): Promise<v2.ConfigInfo> {
    this.mcAt(p.seqno);
    const cell = this.chain.configParam(p.configId);
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: cell ? bocB64(cell) : '' } };
  }

  async getConfigAll(p: v2.AtSeqno): Promise<v2.ConfigInfo> {
    this.mcAt(p.seqno);
    return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocB64(this.chain.config) } };
  }

  async getLibraries(p: { libraries: Buffer[] }): Promise<v2.LibraryResult> {
    const libs = this.chain.bc.libs;
    const dict = libs ? Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), libs) : undefined;
    const result: v2.LibraryResult['result'] = [];
    for (const hash of p.libraries) {
      const lib = dict?.get(hash);
      if (lib) result.push({ '@type': 'smc.libraryEntry', hash: hashB64(hash), data: bocB64(lib) });
    }
    return { '@type': 'smc.libraryResult', result };
  }
}

/** 1,000 TON: enough for any gas limit the config allows. */
const FEE_PROBE_BALANCE = 1_000n * 1_000_000_000n;

/** A deep copy by round trip through the cell, so the probe never mutates a stored state. */
const cloneShardAccount = (sa: ShardAccount): ShardAccount =>
  loadShardAccount(beginCell().store(storeShardAccount(sa)).endCell().beginParse());

/**
 * An emulator run for a read. The executor's own failures become the answers a lite server gives: past the
 * wall-clock bound 504 `Liteserver timeout` (as toncenter answers a request past its timeout); no emulator
 * up 503; the emulator trapped, crashed or ran out of memory on this input 500 with what happened.
 */
async function emulated<T>(run: Promise<T>, what: string): Promise<T> {
  try {
    return await run;
  } catch (e) {
    if (!(e instanceof ExecutorFailure)) throw e;
    if (e.reason === 'timeout') throw new ApiError(504, 'Liteserver timeout');
    if (e.reason === 'unavailable') throw new ApiError(503, `LITE_SERVER_NOTREADY: ${e.message}`);
    throw new ApiError(500, `LITE_SERVER_UNKNOWN: cannot run the ${what}: ${e.message}`);
  }
}
