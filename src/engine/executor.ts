/**
 * The emulator as the local chain drives it, inside each emulator worker (executor-worker.ts; the chain talks
 * to the workers through executor-pool.ts): sandbox's own `Executor`, except that PREVBLOCKS (c7 parameter 13,
 * the last masterchain block ids) is serialised once per change of those blocks instead of once per call.
 *
 * Sandbox turns `prevBlocksInfo` into a TVM stack value and then a BoC for every transaction and get-method
 * run: 17 block ids become ~170 cells, each hashed in JS, which cost more than a wallet transfer's emulation.
 * The ids only change when a block is sealed, so this executor keeps the BoC of the last info it saw (compared
 * by identity, else by value: sandbox's getter hands out a deep copy unless `sharePrevBlocks` is on), lets
 * sandbox build every other parameter as usual with `prevBlocksInfo` left out, and adds `prev_blocks_info` to
 * the parameter JSON on its way into the emulator (`Executor.invoke`, the one door every emulator call goes
 * through). When the ids do change, the BoC is written straight from them (`prevBlocksBoc`), without @ton/core
 * cells and their JS hashing.
 *
 * A transaction emulator keeps the PREVBLOCKS it was last given (ton's emulator-emscripten.cpp sets them only
 * when the call names them, and the TransactionEmulator holds them until told others), and parsing them costs
 * the emulator about as much as a wallet's own transaction. So a transaction or tick-tock names them only when
 * the emulator instance does not hold them already: the first call after sandbox creates an instance, and the
 * first after the ids change. A call without PREVBLOCKS on an instance holding some gets a fresh instance, so
 * nothing stale is ever seen. Get-methods make a new TVM every call and are always given them.
 *
 * If sandbox ever stops passing the parameters through `invoke` within the call, the value would be missing;
 * that is detected on the first call, which then runs again the plain way, and the cache is not used again.
 */
import {
  Blockchain,
  Executor,
  type BlockId,
  type ExecutorEmulationResult,
  type ExecutorGetMethodArgs,
  type ExecutorGetMethodResult,
  type ExecutorRunTickTockArgs,
  type ExecutorRunTransactionArgs,
  type IExecutor,
  type PrevBlocksInfo,
} from '@ton/sandbox';
import { executorOn } from './emulator-wasm.js';

const PARAM = 'prev_blocks_info';
/** the emulator call of a transaction or tick-tock on sandbox's kept instance */
const EMULATE = '_emulate_with_emulator';
/** held: PREVBLOCKS sandbox named by itself (never equal to a BoC of ours) */
const SANDBOX_OWN = '(sandbox)';

export class LocalExecutor implements IExecutor {
  /** the last info seen and its serialised stack value (base64 BoC) */
  private cache?: { info: PrevBlocksInfo; boc: string };
  /** set only while one call into sandbox runs synchronously: the value to add to its parameter JSON */
  private injecting?: string;
  private injected = false;
  /** false once the parameter could not be added; then sandbox serialises as it would by itself */
  private fastPath = true;
  /** the PREVBLOCKS BoC sandbox's current transaction emulator instance holds, if any */
  private held?: string;

  private constructor(readonly inner: Executor) {
    const invoke = inner.invoke.bind(inner);
    inner.invoke = (method: string, args: (number | string)[]): number => {
      if (method === EMULATE) return this.emulate(invoke, args);
      // a new instance holds no PREVBLOCKS
      if (method === '_create_emulator' || method === '_destroy_emulator') this.held = undefined;
      if (this.injecting !== undefined) this.inject(args, this.injecting);
      return invoke(method, args);
    };
  }

  /** A transaction on the kept emulator instance: PREVBLOCKS named only when it does not hold them yet. */
  private emulate(invoke: (method: string, args: (number | string)[]) => number, args: (number | string)[]): number {
    const want = this.injecting;
    if (want !== undefined && want === this.held) {
      this.injected = true;
      return invoke(EMULATE, args);
    }
    if (want !== undefined) this.inject(args, want);
    // set before the call: should the emulator refuse the value, it destroys the instance and sandbox fails the call.
    // Without a value of ours, sandbox may have named its own (the plain way): held then, though not known which
    this.held = want ?? (args.some((a) => typeof a === 'string' && a.includes(`"${PARAM}"`)) ? SANDBOX_OWN : undefined);
    return invoke(EMULATE, args);
  }

  /** On `wasm` when given (the process's compiled emulator, emulator-wasm.ts), else on sandbox's own. */
  static async create(wasm?: WebAssembly.Module): Promise<LocalExecutor> {
    return new LocalExecutor(wasm ? await executorOn(wasm) : await Executor.create());
  }

  runTransaction(args: ExecutorRunTransactionArgs): Promise<ExecutorEmulationResult> {
    return this.run(args, (a) => this.inner.runTransaction(a), true);
  }

  runTickTock(args: ExecutorRunTickTockArgs): Promise<ExecutorEmulationResult> {
    return this.run(args, (a) => this.inner.runTickTock(a), true);
  }

  runGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
    return this.run(args, (a) => this.inner.runGetMethod(a));
  }

  /** `onKeptInstance`: a transaction or tick-tock, run on sandbox's kept emulator instance (a get-method makes its own) */
  private run<A extends { prevBlocksInfo?: PrevBlocksInfo }, R>(args: A, call: (a: A) => Promise<R>, onKeptInstance = false): Promise<R> {
    const info = args.prevBlocksInfo;
    // an instance holding PREVBLOCKS would apply them to a transaction that names none
    if (info === undefined && onKeptInstance && this.held !== undefined) this.dropEmulator();
    if (info === undefined || !this.fastPath) return call(args);
    this.injecting = this.serialised(info);
    this.injected = false;
    let result: Promise<R>;
    try {
      // assigned, not spread: V8 (Node 20) adds a property to a spread copy ~10x slower
      result = call(Object.assign({}, args, { prevBlocksInfo: undefined }));
    } finally {
      this.injecting = undefined;
    }
    if (this.injected) return result;
    // the emulator ran (or will run) without PREVBLOCKS: discard that result and let sandbox do it its own way
    this.fastPath = false;
    return result.then(
      () => call(args),
      () => call(args),
    );
  }

  /** Ends sandbox's transaction emulator instance; its next transaction makes a new one. */
  private dropEmulator(): void {
    const inner = this.inner as unknown as { emulator?: { ptr: number } };
    if (inner.emulator !== undefined) this.inner.invoke('_destroy_emulator', [inner.emulator.ptr]);
    inner.emulator = undefined;
    this.held = undefined;
  }

  /** Adds the parameter to the one JSON-object argument of an emulator call. */
  private inject(args: (number | string)[], boc: string): void {
    const i = args.findIndex((a) => typeof a === 'string' && a.startsWith('{') && a.endsWith('}'));
    if (i < 0) return;
    const json = args[i] as string;
    if (json.includes(`"${PARAM}"`)) return;
    args[i] = `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}"${PARAM}":"${boc}"}`;
    this.injected = true;
  }

  private serialised(info: PrevBlocksInfo): string {
    if (this.cache && (this.cache.info === info || samePrevBlocks(this.cache.info, info))) return this.cache.boc;
    const boc = prevBlocksBoc(info).toString('base64');
    this.cache = { info, boc };
    return boc;
  }
}

/**
 * Sandbox's `prevBlocks` getter deep-copies the ids on every read, and it is read for every transaction and
 * get-method. The local chain sets a new value only when it seals a block, and what reads it only reads it,
 * so on this instance the getter hands out one frozen copy made when the value changes. Sandbox's own field
 * is still set through its setter (its snapshots keep working), and a change of that field by other means
 * (`loadFrom` a snapshot) is noticed on the next read.
 */
export function sharePrevBlocks(bc: Blockchain): void {
  const own = Object.getOwnPropertyDescriptor(Blockchain.prototype, 'prevBlocks');
  if (!own?.get || !own.set) return;
  const read = (): PrevBlocksInfo | undefined => {
    const info = own.get!.call(bc) as PrevBlocksInfo | undefined;
    if (info) {
      for (const list of [info.lastMcBlocks, info.lastMcBlocks100]) {
        for (const b of list ?? []) Object.freeze(b);
        if (list) Object.freeze(list);
      }
      Object.freeze(info.prevKeyBlock);
      Object.freeze(info);
    }
    return info;
  };
  const field = (): unknown => (bc as unknown as { prevBlocksInfo?: unknown }).prevBlocksInfo;
  let seen = field();
  let current = read();
  Object.defineProperty(bc, 'prevBlocks', {
    configurable: true,
    enumerable: false,
    get: () => {
      if (field() !== seen) {
        seen = field();
        current = read();
      }
      return current;
    },
    set: (value: PrevBlocksInfo | undefined) => {
      own.set!.call(bc, value);
      seen = field();
      current = read();
    },
  });
}

function sameBlockId(a: BlockId, b: BlockId): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);
}

function sameList(a: BlockId[] | undefined, b: BlockId[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => sameBlockId(x, b[i]!));
}

function samePrevBlocks(a: PrevBlocksInfo, b: PrevBlocksInfo): boolean {
  return sameBlockId(a.prevKeyBlock, b.prevKeyBlock) && sameList(a.lastMcBlocks, b.lastMcBlocks) && sameList(a.lastMcBlocks100, b.lastMcBlocks100);
}

/**
 * c7 parameter 13 as the emulator takes it, a BoC of one VmStackValue: the tuple
 * [last_mc_blocks, prev_key_block, last_mc_blocks_100?], each block id the tuple
 * [workchain, shard, seqno, root_hash, file_hash] with the hashes as 256-bit integers.
 *
 * The cells are laid out as @ton/core's `serializeTupleItem` lays them out (the test compares the hashes),
 * but written straight into a BoC: @ton/core would hash each of the ~170 cells in JS on construction and again
 * sort them by hash, while a BoC needs no hashes, only every reference pointing further down the list.
 */
export function prevBlocksBoc(info: PrevBlocksInfo): Buffer {
  const items = [tupleValue(info.lastMcBlocks.map(blockIdValue)), blockIdValue(info.prevKeyBlock)];
  if (info.lastMcBlocks100) items.push(tupleValue(info.lastMcBlocks100.map(blockIdValue)));
  return bocOf(tupleValue(items));
}

/** A cell to be written: byte-aligned data (every cell of this value is) and its references. */
interface RawCell {
  data: Buffer;
  refs: RawCell[];
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const INT257_MASK = (1n << 257n) - 1n;

/** vm_stk_tinyint#01 value:int64 when it fits (as @ton/core chooses), else vm_stk_int#0201_ value:int257. */
function intValue(v: bigint): RawCell {
  if (v >= INT64_MIN && v <= INT64_MAX) {
    const data = Buffer.alloc(9);
    data[0] = 0x01;
    data.writeBigInt64BE(v, 1);
    return { data, refs: [] };
  }
  if (v < -(1n << 256n) || v >= 1n << 256n) throw new RangeError(`prev blocks: ${v} does not fit in int257`);
  // the 15-bit tag 0x0100, then 257 bits of two's complement: 272 bits, 34 bytes
  const bits = (0x0100n << 257n) | (v & INT257_MASK);
  return { data: Buffer.from(bits.toString(16).padStart(68, '0'), 'hex'), refs: [] };
}

/** A 32-byte hash as an unsigned 256-bit integer; the bytes go in as they are unless it fits in int64. */
function uint256Value(hash: Buffer): RawCell {
  if (hash.length !== 32) throw new RangeError('prev blocks: a block hash must be 32 bytes');
  // below 2^63: 24 zero bytes, then a byte without its top bit
  if (hash.subarray(0, 24).every((x) => x === 0) && hash[24]! < 0x80) return intValue(hash.readBigUInt64BE(24));
  // tag 0x0100 in 15 bits and a zero sign bit make the two bytes 0x02 0x00
  return { data: Buffer.concat([Buffer.from([0x02, 0x00]), hash]), refs: [] };
}

function blockIdValue(b: BlockId): RawCell {
  return tupleValue([intValue(BigInt(b.workchain)), intValue(b.shard), intValue(BigInt(b.seqno)), uint256Value(b.rootHash), uint256Value(b.fileHash)]);
}

/**
 * vm_stk_tuple#07 len:(## 16) data:(VmTuple len). VmTuple n is `head:(VmTupleRef n-1) tail:^item[n-1]`;
 * VmTupleRef 0 is nothing, VmTupleRef 1 is ^item[0], and VmTupleRef k (k >= 2) is a reference to a cell
 * holding VmTuple k (no bits, two references).
 */
function tupleValue(items: RawCell[]): RawCell {
  const data = Buffer.from([0x07, items.length >> 8, items.length & 0xff]);
  if (items.length === 0) return { data, refs: [] };
  let head: RawCell | undefined;
  for (let k = 1; k < items.length; k++) head = k === 1 ? items[0]! : { data: Buffer.alloc(0), refs: [head!, items[k - 1]!] };
  return { data, refs: head ? [head, items[items.length - 1]!] : [items[items.length - 1]!] };
}

/** Bytes needed to write `n` as an unsigned integer (at least one). */
function bytesFor(n: number): number {
  let bytes = 1;
  while (n >= 2 ** (8 * bytes)) bytes++;
  return bytes;
}

/**
 * A BoC of one root, without index or CRC: serialized_boc#b5ee9c72 flags+size:(## 8) off_bytes:(## 8)
 * cells roots absent tot_cells_size root_list, then per cell d1 = number of references, d2 = 2 * data bytes,
 * the data and the references' indexes. Each cell here is referenced once, so the breadth-first order puts
 * every reference after its parent, as the format requires.
 */
function bocOf(root: RawCell): Buffer {
  const cells: RawCell[] = [root];
  for (let i = 0; i < cells.length; i++) cells.push(...cells[i]!.refs);
  const index = new Map<RawCell, number>(cells.map((c, i) => [c, i]));
  const size = bytesFor(cells.length);
  const cellBytes = cells.reduce((sum, c) => sum + 2 + c.data.length + c.refs.length * size, 0);
  const off = bytesFor(cellBytes);
  const out = Buffer.alloc(4 + 1 + 1 + 3 * size + off + size + cellBytes);
  let o = out.writeUInt32BE(0xb5ee9c72, 0);
  o = out.writeUInt8(size, o);
  o = out.writeUInt8(off, o);
  o = out.writeUIntBE(cells.length, o, size);
  o = out.writeUIntBE(1, o, size);
  o = out.writeUIntBE(0, o, size);
  o = out.writeUIntBE(cellBytes, o, off);
  o = out.writeUIntBE(0, o, size);
  for (const c of cells) {
    o = out.writeUInt8(c.refs.length, o);
    o = out.writeUInt8(c.data.length * 2, o);
    o += c.data.copy(out, o);
    for (const r of c.refs) o = out.writeUIntBE(index.get(r)!, o, size);
  }
  return out;
}
