/**
 * The engine of the local chain: sandbox executes messages, this records every resulting transaction with
 * the account state right after it, and the block producer seals pending transactions into one masterchain
 * block plus one basechain shard block. All mutations run one at a time through `enqueue`.
 *
 * Time and lt: a block's gen_utime is fixed when its first message executes (max of the previous block's
 * utime and the wall clock, so it never decreases) and sandbox `now` is set to it, so transaction utimes lie
 * in their block. Sandbox gives every transaction its own lt (steps of 1,000,000); a block's start_lt/end_lt
 * are the smallest lt and the largest end lt (lt + 1 + out-messages) of its transactions, and an empty block
 * takes start_lt = end_lt = the end lt of everything before it.
 */
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  external,
  internal,
  SendMode,
  storeMessage,
  storeShardAccount,
  type Message,
  type Transaction,
} from '@ton/core';
import { Blockchain, createShardAccount, TreasuryContract, type BlockchainTransaction, type SmartContract } from '@ton/sandbox';
import { sha256_sync } from '@ton/crypto';
import { ApiError } from '../api/errors.js';
import { messageCells } from '../model/message.js';
import { makeBlock, zerostateSalt } from './blocks.js';
import { ChainStore, compareAccountLt, SHARD_ALL, type BlockRecord, type TxRecord } from './store.js';

/** Fixed genesis time (2025-01-01T00:00:00Z), so genesis hashes do not depend on the day of the start. */
export const GENESIS_TIME = 1735689600;
/** nanotons the faucet starts with: a billion TON */
const FAUCET_BALANCE = 1_000_000_000n * 1_000_000_000n;
/** mainnet's global id, used when the config has no param 19 */
const DEFAULT_GLOBAL_ID = -239;

export const EXT_NOT_ACCEPTED =
  'LITE_SERVER_UNKNOWN: cannot apply external message to current state : External message was not accepted';

export class Chain {
  readonly store = new ChainStore();
  readonly globalId: number;
  readonly faucetAddress: Address;
  private queue: Promise<unknown> = Promise.resolve();
  private openUtime?: number;
  private ltCursor = 0n;
  private faucetTransfers = 0;
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly faucetContract: TreasuryContract;
  private readonly configDict: Dictionary<number, Cell>;

  private constructor(
    readonly bc: Blockchain,
    readonly seed: string,
    readonly blockInterval: number,
  ) {
    this.configDict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), bc.config);
    const p19 = this.configDict.get(19);
    this.globalId = p19 ? p19.beginParse().loadInt(32) : DEFAULT_GLOBAL_ID;
    this.faucetContract = TreasuryContract.create(0, BigInt('0x' + sha256_sync(`ton-localnet/faucet/${seed}`).toString('hex')));
    this.faucetAddress = this.faucetContract.address;
  }

  /** A chain holding only its zerostate: the faucet exists, no transaction has run yet. */
  static async create(seed: string, blockInterval: number): Promise<Chain> {
    const bc = await Blockchain.create();
    const chain = new Chain(bc, seed, blockInterval);
    await chain.zerostate();
    return chain;
  }

  get config(): Cell {
    return this.bc.config;
  }

  configParam(id: number): Cell | undefined {
    return this.configDict.get(id);
  }

  /** Runs `fn` after every mutation queued before it; a failure does not stop the queue. */
  enqueue<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Seals a block every `blockInterval` ms; with 0 the callers seal after each message. */
  startProducer(): void {
    if (this.blockInterval > 0 && !this.timer && !this.closed) {
      this.timer = setInterval(() => {
        this.enqueue(() => this.seal()).catch((e: unknown) => console.error('local chain: sealing a block failed:', e));
      }, this.blockInterval);
      this.timer.unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.enqueue(() => undefined);
  }

  /** Fixes the open block's utime (genesis uses fixed times; later blocks follow the wall clock). */
  setOpenUtime(utime: number): void {
    this.openUtime = Math.max(utime, this.store.lastMc?.genUtime ?? 0);
  }

  private nextUtime(): number {
    return Math.max(this.store.lastMc.genUtime, Math.floor(Date.now() / 1000));
  }

  private async zerostate(): Promise<void> {
    const account = createShardAccount({
      address: this.faucetAddress,
      code: TreasuryContract.code,
      data: this.faucetContract.init.data!,
      balance: FAUCET_BALANCE,
    });
    await this.bc.setShardAccount(this.faucetAddress, account);
    this.store.putGenesisState(this.faucetAddress, beginCell().store(storeShardAccount(account)).endCell().toBoc().toString('base64'));

    const salt = zerostateSalt(this.seed, this.bc.config);
    const draft = { seqno: 0, mcSeqno: 0, genUtime: GENESIS_TIME, startLt: 0n, endLt: 0n, globalId: this.globalId, txs: [] };
    const shard = makeBlock({ ...draft, workchain: 0, prev: salt, shards: [] });
    const mc = makeBlock({ ...draft, workchain: -1, prev: salt, shards: [shard] });
    this.store.seal(mc, shard, []);
    this.updatePrevBlocks();
  }

  /**
   * Executes an inbound message and its whole cascade, recording each transaction as pending.
   * Call only from inside `enqueue`. Throws ApiError when the first transaction is rejected.
   */
  async execute(message: Cell): Promise<TxRecord[]> {
    this.openUtime ??= this.nextUtime();
    this.bc.now = this.openUtime;
    const iter = await this.bc.sendMessageIter(message);
    const recorded: TxRecord[] = [];
    const bySandboxTx = new Map<BlockchainTransaction, TxRecord>();
    try {
      for (;;) {
        const step = await iter.next();
        if (step.done) break;
        const rec = await this.record(step.value, bySandboxTx);
        recorded.push(rec);
        bySandboxTx.set(step.value, rec);
      }
    } catch (e) {
      this.dropSandboxQueue();
      if (recorded.length === 0) {
        const detail = e instanceof Error ? ((e as { error?: string }).error ?? e.message) : String(e);
        throw new ApiError(500, `${EXT_NOT_ACCEPTED}\n${detail}`);
      }
      // the external message was accepted and its transactions stand; only the rest of the cascade is lost
      console.error('local chain: a message of the cascade failed to execute:', e);
    } finally {
      this.dropSandboxLog();
    }
    return recorded;
  }

  private async record(tx: BlockchainTransaction, parents: Map<BlockchainTransaction, TxRecord>): Promise<TxRecord> {
    const dest = tx.inMessage && tx.inMessage.info.type !== 'external-out' ? tx.inMessage.info.dest : undefined;
    if (!dest) throw new Error('local chain: a transaction without an inbound message');
    const contract = await this.bc.getContract(dest);
    const hash = tx.hash().toString('hex');
    const cells = messageCells(tx);
    const keys = tx.outMessages.keys().sort((a, b) => a - b);
    const outMsgs = cells.outMsgs.map((cell, i) => ({ msg: tx.outMessages.get(keys[i]!)! as Message, cell }));
    const parent = tx.parent ? parents.get(tx.parent) : undefined;
    const rec: TxRecord = {
      hash,
      account: dest,
      lt: tx.lt,
      endLt: tx.lt + 1n + BigInt(outMsgs.length),
      now: tx.now,
      tx: stripSandboxFields(tx),
      stateAfter: shardAccountBoc(contract),
      inMsgHash: cells.inMsg?.hash().toString('hex'),
      outMsgHashes: outMsgs.map((o) => o.cell.hash().toString('hex')),
      parentHash: parent?.hash,
      traceRootHash: parent?.traceRootHash ?? hash,
    };
    this.store.addPending(rec, tx.inMessage && cells.inMsg ? { msg: tx.inMessage, cell: cells.inMsg } : undefined, outMsgs);
    return rec;
  }

  /** Seals every pending transaction into the next masterchain block and its shard block. Call inside `enqueue`. */
  seal(): BlockRecord {
    const last = this.store.lastMc;
    const lastShard = this.store.shardBlocks[this.store.shardBlocks.length - 1]!;
    const pending = this.store.pending.slice();
    const genUtime = this.openUtime ?? this.nextUtime();
    this.openUtime = undefined;
    const seqno = last.seqno + 1;

    const range = (txs: TxRecord[]): { startLt: bigint; endLt: bigint } =>
      txs.length === 0
        ? { startLt: this.ltCursor, endLt: this.ltCursor }
        : { startLt: txs.reduce((m, t) => (t.lt < m ? t.lt : m), txs[0]!.lt), endLt: txs.reduce((m, t) => (t.endLt > m ? t.endLt : m), 0n) };

    const mcTxs = pending.filter((t) => t.account.workChain === -1).sort(compareAccountLt);
    const wcTxs = pending.filter((t) => t.account.workChain !== -1).sort(compareAccountLt);
    const common = { seqno, mcSeqno: seqno, genUtime, globalId: this.globalId };
    const shard = makeBlock({ ...common, ...range(wcTxs), workchain: 0, prev: lastShard, shards: [], txs: wcTxs });
    // the masterchain block comes after the shard block it references, so an empty one starts at its end
    if (shard.endLt > this.ltCursor) this.ltCursor = shard.endLt;
    const mc = makeBlock({ ...common, ...range(mcTxs), workchain: -1, prev: last, shards: [shard], txs: mcTxs });
    for (const t of wcTxs) t.block = { workchain: 0, shard: SHARD_ALL, seqno: shard.seqno };
    for (const t of mcTxs) t.block = { workchain: -1, shard: SHARD_ALL, seqno: mc.seqno };
    for (const t of pending) t.mcSeqno = seqno;
    if (mc.endLt > this.ltCursor) this.ltCursor = mc.endLt;
    this.store.seal(mc, shard, pending);
    this.updatePrevBlocks();
    return mc;
  }

  /** Credits `address` with a real internal transfer from the faucet; returns the crediting transaction. */
  async faucet(address: Address, amount: bigint, opts: { seal?: boolean } = {}): Promise<TxRecord> {
    if (address.workChain !== 0 && address.workChain !== -1) {
      throw new ApiError(422, `workchain ${address.workChain} does not exist on the local chain (use 0 or -1)`);
    }
    if (amount <= 0n) throw new ApiError(422, 'amount must be positive');
    return this.enqueue(async () => {
      const balance = (await this.bc.getContract(this.faucetAddress)).balance;
      if (amount > balance - 1_000_000_000n) {
        throw new ApiError(422, `the faucet holds ${balance} nanotons, not enough for ${amount}`);
      }
      const n = ++this.faucetTransfers;
      const body = this.faucetContract.createTransfer({
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: address, value: amount, bounce: false, body: `faucet #${n}` })],
      });
      const msg = beginCell().store(storeMessage(external({ to: this.faucetAddress, body }))).endCell();
      const recs = await this.execute(msg);
      const credited = recs.find((r) => r.parentHash === recs[0]!.hash && r.account.equals(address)) ?? recs[recs.length - 1]!;
      if (opts.seal ?? this.blockInterval === 0) this.seal();
      return credited;
    });
  }

  /** Executes a client's external message; seals at once when the interval is 0. */
  async send(message: Cell): Promise<TxRecord[]> {
    return this.enqueue(async () => {
      const recs = await this.execute(message);
      if (this.blockInterval === 0) this.seal();
      return recs;
    });
  }

  /** Feeds the last masterchain block ids to the PREVBLOCKS opcode, as validators do. */
  private updatePrevBlocks(): void {
    const ids = this.store.mcBlocks.slice(-16).reverse().map((b) => ({
      workchain: b.workchain,
      shard: b.shard,
      seqno: b.seqno,
      rootHash: b.rootHash,
      fileHash: b.fileHash,
    }));
    this.bc.prevBlocks = { lastMcBlocks: ids, prevKeyBlock: ids[ids.length - 1]! };
  }

  /** Sandbox keeps its own copy of every transaction; we have ours, so its log is emptied to bound memory. */
  private dropSandboxLog(): void {
    const log = (this.bc as unknown as { transactions?: unknown[] }).transactions;
    if (Array.isArray(log)) log.length = 0;
  }

  /** After a failure mid-cascade, messages left in sandbox's queue would leak into the next send. */
  private dropSandboxQueue(): void {
    const q = (this.bc as unknown as { defaultQueueManager?: { messageQueue?: unknown[] } }).defaultQueueManager?.messageQueue;
    if (Array.isArray(q)) q.length = 0;
  }
}

/**
 * The ShardAccount BoC after the contract's last transaction. Sandbox keeps the emulator's exact base64 in a
 * private field; reading it avoids a re-serialisation per transaction (falls back to one if the field moves).
 */
function shardAccountBoc(contract: SmartContract): string {
  const raw = (contract as unknown as { _account?: unknown })._account;
  if (typeof raw === 'string') return raw;
  return beginCell().store(storeShardAccount(contract.account)).endCell().toBoc().toString('base64');
}

/** Keeps the @ton/core Transaction and drops sandbox's logs, parent/children links and events. */
function stripSandboxFields(tx: BlockchainTransaction): Transaction {
  return {
    address: tx.address,
    lt: tx.lt,
    prevTransactionHash: tx.prevTransactionHash,
    prevTransactionLt: tx.prevTransactionLt,
    now: tx.now,
    outMessagesCount: tx.outMessagesCount,
    oldStatus: tx.oldStatus,
    endStatus: tx.endStatus,
    inMessage: tx.inMessage,
    outMessages: tx.outMessages,
    totalFees: tx.totalFees,
    stateUpdate: tx.stateUpdate,
    description: tx.description,
    raw: tx.raw,
    hash: tx.hash,
  };
}
