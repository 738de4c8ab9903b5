/**
 * What every v2 answer over the local chain reads (the group files beside this one, one per ../../../api/v2/<group>.ts):
 * the chain and its store, the v2 JSON of sealed transactions (kept for the most recently read), account views as of
 * a masterchain block, get-method runs on a stored state in the emulator without touching the live chain, and the
 * checks of an external message. Shapes and errors follow ../shared/reference/v2.md (C++ variant 2.1.x).
 */
import {
  Address,
  beginCell,
  Cell,
  getMethodId,
  loadMessage,
  loadShardAccount,
  parseTuple,
  storeShardAccount,
  type Message,
  type ShardAccount,
  type TupleItem,
} from '@ton/core';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { hashB64 } from '../../../model/hash.js';
import { LimitError, MESSAGE_LIMITS, checkBoc } from '../../../model/limits.js';
import { txToExt, txToRaw, txToRawExt } from '../../../model/transaction.js';
import type { Chain } from '../chain/chain.js';
import { ExecutorFailure } from '../../../engine/executor-pool.js';
import { validatorKeys } from '../chain/genesis-elector.js';
import { type BlockRecord, type TxRecord } from '../chain/store.js';
import { reusableJson } from '../../../api/json-fragments.js';

export const BLOCK_NOT_FOUND = 'LITE_SERVER_UNKNOWN: block is not applied';
export const TX_NOT_FOUND = 'transaction was not found';
export const LT_NOT_IN_DB = 'LITE_SERVER_UNKNOWN: cannot compute block with specified transaction: lt not in db';
export const TX_HASH_MISMATCH = 'LITE_SERVER_UNKNOWN: transaction hash mismatch';
export const ZERO_HASH = Buffer.alloc(32).toString('base64');
/** tonlib's exit code for a get-method on an account without code */
export const EXIT_NO_CODE = -13;
export const GET_METHOD_GAS_LIMIT = 10_000_000n;
/** the C++ variant's default for ext_msg_queue_size_limit */
export const EXT_MSG_QUEUE_LIMIT = 8000;

export interface AccountView {
  mc: BlockRecord;
  sa: ShardAccount | undefined;
  balance: bigint;
  code?: Cell;
  data?: Cell;
  frozenHash: string;
  state: v2.AccountStateName;
  lastTx: v2.TransactionId;
}

export class LocalV2Context {
  readonly validator;
  /** a sealed transaction never changes, so its v2 JSON (BoCs included) is kept per shape, for the most recently read */
  readonly txJson = new LRUCache<string, { ext?: v2.ExtTransaction; raw?: v2.RawTransaction; rawExt?: v2.RawTransactionExt }>({ max: 4096 });

  constructor(readonly chain: Chain) {
    this.validator = validatorKeys(chain.seed);
    // a transaction undone and made again has the same hash in another block
    chain.store.onRewind(() => this.txJson.clear());
  }

  get store() {
    return this.chain.store;
  }

  // ---- helpers ----

  json(t: TxRecord) {
    let j = this.txJson.get(t.hash);
    if (!j) this.txJson.set(t.hash, (j = {}));
    return j;
  }

  ext(t: TxRecord): v2.ExtTransaction {
    const j = this.json(t);
    return (j.ext ??= reusableJson(txToExt(t.tx, t.account.workChain)));
  }

  raw(t: TxRecord): v2.RawTransaction {
    const j = this.json(t);
    return (j.raw ??= reusableJson(txToRaw(t.tx, t.account.workChain)));
  }

  rawExt(t: TxRecord): v2.RawTransactionExt {
    const j = this.json(t);
    return (j.rawExt ??= reusableJson(txToRawExt(t.tx, t.account.workChain)));
  }

  mcAt(seqno?: number): BlockRecord {
    if (seqno === undefined) return this.store.lastMc;
    const b = this.store.mcBlock(seqno);
    if (!b) throw new ApiError(500, BLOCK_NOT_FOUND);
    return b;
  }

  account(address: Address, seqno?: number): AccountView {
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

  blockByRef(p: v2.BlockRefParams): BlockRecord {
    const b = this.store.block({ workchain: p.workchain, shard: p.shard, seqno: p.seqno });
    if (!b) throw new ApiError(500, BLOCK_NOT_FOUND);
    if ((p.rootHash && !p.rootHash.equals(b.rootHash)) || (p.fileHash && !p.fileHash.equals(b.fileHash))) {
      throw new ApiError(500, 'LITE_SERVER_UNKNOWN: block root hash mismatch');
    }
    return b;
  }

  sealedTx(hash: string | undefined): TxRecord | undefined {
    return hash ? this.store.tx(hash) : undefined;
  }

  async runGet(
    address: Address,
    method: string | number,
    stack: TupleItem[],
    seqno?: number,
  ): Promise<{ view: AccountView; exitCode: number; gasUsed: number; stack: TupleItem[] }> {
    // a route may run a get-method on an account its parameters do not name (a jetton wallet's master)
    await this.chain.adopt(address);
    const view = this.account(address, seqno);
    if (!view.code || !view.data) return { view, exitCode: EXIT_NO_CODE, gasUsed: 0, stack: [] };
    const res = await runGetOnCode(this.chain, {
      address,
      code: view.code,
      data: view.data,
      balance: view.balance,
      method,
      stack,
      unixTime: seqno === undefined ? Math.max(view.mc.genUtime, Math.floor(Date.now() / 1000)) : view.mc.genUtime,
    });
    if (!res.output.success) throw new ApiError(500, `LITE_SERVER_UNKNOWN: ${res.output.error}`);
    const out = res.output;
    return { view, exitCode: out.vm_exit_code, gasUsed: Number(out.gas_used), stack: parseTuple(Cell.fromBase64(out.stack)) };
  }

  parseExternal(boc: Buffer): { cell: Cell; msg: Message } {
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
}

/** A get-method on code and data as the v2 reads run one: the chain's config, libraries and PREVBLOCKS, the read lane. */
export function runGetOnCode(
  chain: Chain,
  a: { address: Address; code: Cell; data: Cell; balance: bigint; method: string | number; stack: TupleItem[]; unixTime: number },
) {
  const bc = chain.bc;
  return emulated(chain.reads.runGetMethod({
    code: a.code,
    data: a.data,
    methodId: typeof a.method === 'number' ? a.method : /^-?\d+$/.test(a.method) ? Number(a.method) : getMethodId(a.method),
    stack: a.stack,
    config: bc.configBase64,
    verbosity: 'short',
    libs: bc.libs,
    address: a.address,
    unixTime: a.unixTime,
    balance: a.balance,
    randomSeed: Buffer.alloc(32),
    gasLimit: GET_METHOD_GAS_LIMIT,
    debugEnabled: false,
    prevBlocksInfo: bc.prevBlocks,
  }), 'get-method');
}

/** 1,000 TON: enough for any gas limit the config allows. */
export const FEE_PROBE_BALANCE = 1_000n * 1_000_000_000n;

/** A deep copy by round trip through the cell, so the probe never mutates a stored state. */
export const cloneShardAccount = (sa: ShardAccount): ShardAccount =>
  loadShardAccount(beginCell().store(storeShardAccount(sa)).endCell().beginParse());

/**
 * An emulator run for a read. The executor's own failures become the answers a lite server gives: past the
 * wall-clock bound 504 `Liteserver timeout` (as toncenter answers a request past its timeout); no emulator
 * up 503; the emulator trapped, crashed or ran out of memory on this input 500 with what happened.
 */
export async function emulated<T>(run: Promise<T>, what: string): Promise<T> {
  try {
    return await run;
  } catch (e) {
    if (!(e instanceof ExecutorFailure)) throw e;
    if (e.reason === 'timeout') throw new ApiError(504, 'Liteserver timeout');
    if (e.reason === 'unavailable') throw new ApiError(503, `LITE_SERVER_NOTREADY: ${e.message}`);
    throw new ApiError(500, `LITE_SERVER_UNKNOWN: cannot run the ${what}: ${e.message}`);
  }
}
