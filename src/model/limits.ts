/**
 * How big a client's cells may be before anything executes them: the network's own size limits (config param
 * 43), read from the BoC's header before any cell is built, then from the cells themselves.
 *
 * block.tlb:
 *   size_limits_config#01 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32 max_vm_data_depth:uint16
 *     max_ext_msg_size:uint32 max_ext_msg_depth:uint16 = SizeLimitsConfig;
 *   size_limits_config_v2#02 max_msg_bits:uint32 max_msg_cells:uint32 max_library_cells:uint32 max_vm_data_depth:uint16
 *     max_ext_msg_size:uint32 max_ext_msg_depth:uint16 max_acc_state_cells:uint32 max_acc_state_bits:uint32
 *     max_acc_public_libraries:uint32 defer_out_queue_size_limit:uint32 max_msg_extra_currencies:uint32
 *     max_acc_fixed_prefix_length:uint8 = SizeLimitsConfig;
 *   _ SizeLimitsConfig = ConfigParam 43;
 *
 *   serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1) has_cache_bits:(## 1) flags:(## 2) { flags = 0 }
 *     size:(## 3) { size <= 4 } off_bytes:(## 8) { off_bytes <= 8 } cells:(##(size * 8)) roots:(##(size * 8))
 *     { roots >= 1 } absent:(##(size * 8)) { roots + absent <= cells } tot_cells_size:(##(off_bytes * 8))
 *     root_list:(roots * ##(size * 8)) index:has_idx?(cells * ##(off_bytes * 8)) cell_data:(tot_cells_size * [ uint8 ])
 *     crc32c:has_crc32c?uint32 = BagOfCells;
 *   (and the older tags 0x68ff65f3 / 0xacc3a728: has_idx set, crc32c absent / present, no flag bits)
 *
 * No I/O: the config cell comes from the caller.
 */
import { Cell, Dictionary } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';

export interface SizeLimits {
  maxMsgBits: number;
  maxMsgCells: number;
  maxLibraryCells: number;
  maxVmDataDepth: number;
  maxExtMsgSize: number;
  maxExtMsgDepth: number;
}

/**
 * What a validator applies while param 43 is absent (ton `crypto/block/mc-config.h`, `SizeLimitsConfig` and
 * `ExtMsgLimits` member defaults). Mainnet's config, and so @ton/sandbox's default config, has no param 43.
 */
export const NODE_DEFAULT_SIZE_LIMITS: Readonly<SizeLimits> = Object.freeze({
  maxMsgBits: 1 << 21,
  maxMsgCells: 1 << 13,
  maxLibraryCells: 1000,
  maxVmDataDepth: 512,
  maxExtMsgSize: 65535,
  maxExtMsgDepth: 512,
});

/** Param 43 itself; undefined keeps the node's defaults. */
export function loadSizeLimits(param43: Cell | undefined): SizeLimits {
  if (!param43) return { ...NODE_DEFAULT_SIZE_LIMITS };
  const s = param43.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x01 && tag !== 0x02) throw new Error(`config param 43: unknown SizeLimitsConfig tag 0x${tag.toString(16)}`);
  return {
    maxMsgBits: s.loadUint(32),
    maxMsgCells: s.loadUint(32),
    maxLibraryCells: s.loadUint(32),
    maxVmDataDepth: s.loadUint(16),
    maxExtMsgSize: s.loadUint(32),
    maxExtMsgDepth: s.loadUint(16),
  };
}

/** The limits a whole blockchain config (the ConfigParams dictionary's root) sets. */
export function sizeLimitsOf(config: Cell): SizeLimits {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
  return loadSizeLimits(dict.get(43));
}

/**
 * The limits every surface applies: @ton/sandbox's default config is the local chain's config (the same cell) and
 * mainnet's, which upstream mode forwards to.
 */
export const CHAIN_SIZE_LIMITS: Readonly<SizeLimits> = Object.freeze(sizeLimitsOf(Cell.fromBase64(defaultConfig)));

/** A client's input over one of the limits; `limit` names it the way the network does. */
export class LimitError extends Error {
  constructor(
    message: string,
    readonly limit: string,
  ) {
    super(message);
    this.name = 'LimitError';
  }
}

const P43 = 'config param 43';

/** Bytes that base64 (or base64url) text decodes to, counted without decoding it. */
function base64Bytes(text: string): number {
  let len = text.length;
  while (len > 0 && text.charCodeAt(len - 1) === 61 /* = */) len--;
  return Math.floor((len * 3) / 4);
}

/** Refuses BoC text whose bytes would exceed max_ext_msg_size, before it is decoded. */
export function checkBocText(text: string, what: string, limits: SizeLimits): void {
  const bytes = base64Bytes(text);
  if (bytes > limits.maxExtMsgSize) {
    throw new LimitError(`${what} is ${bytes} bytes, the limit is ${limits.maxExtMsgSize} (${P43} max_ext_msg_size)`, 'max_ext_msg_size');
  }
}

export interface BocHeader {
  cells: number;
  roots: number;
  absent: number;
  totCellsSize: number;
}

const BOC_GENERIC = 0xb5ee9c72;
const BOC_INDEXED = 0x68ff65f3;
const BOC_INDEXED_CRC32C = 0xacc3a728;

function readUint(buf: Buffer, at: number, bytes: number): number {
  let v = 0;
  for (let i = 0; i < bytes; i++) v = v * 256 + buf[at + i]!;
  return v;
}

/**
 * The header of a bag of cells, checked against the buffer's real length: a header whose declared sizes do not
 * fit the bytes that follow is refused here, so nothing is sized from a lie. Returns a reason when unreadable.
 */
export function readBocHeader(buf: Buffer): BocHeader | string {
  if (buf.length < 6) return 'too short for a bag of cells';
  const magic = buf.readUInt32BE(0);
  if (magic !== BOC_GENERIC && magic !== BOC_INDEXED && magic !== BOC_INDEXED_CRC32C) return 'not a bag of cells';
  const flags = buf[4]!;
  const size = flags & 7;
  const hasIdx = magic === BOC_GENERIC ? (flags & 0x80) !== 0 : true;
  const hasCrc = magic === BOC_GENERIC ? (flags & 0x40) !== 0 : magic === BOC_INDEXED_CRC32C;
  if (size < 1 || size > 4) return 'bag of cells: reference size out of range';
  const offBytes = buf[5]!;
  if (offBytes < 1 || offBytes > 8) return 'bag of cells: offset size out of range';
  let at = 6;
  if (buf.length < at + 3 * size + offBytes) return 'bag of cells: header truncated';
  const cells = readUint(buf, at, size);
  const roots = readUint(buf, (at += size), size);
  const absent = readUint(buf, (at += size), size);
  const totCellsSize = readUint(buf, (at += size), offBytes);
  at += offBytes;
  if (roots < 1 || roots + absent > cells) return 'bag of cells: root count out of range';
  // a root list, the index when present, the cells (2 bytes at least each) and the checksum must all be there
  const rootList = magic === BOC_GENERIC ? roots * size : size;
  const declared = at + rootList + (hasIdx ? cells * offBytes : 0) + totCellsSize + (hasCrc ? 4 : 0);
  if (totCellsSize < 2 * cells || declared > buf.length) return 'bag of cells: declared sizes exceed its length';
  return { cells, roots, absent, totCellsSize };
}

export interface CheckedBoc {
  roots: Cell[];
  /** distinct cells in the bag, as its header counts them */
  cells: number;
}

/**
 * How deep a cell tree @ton/sandbox's emulator (WebAssembly) takes without trapping ("memory access out of
 * bounds", after which it fails every later call). Measured on the local chain: an external message 399 cells
 * deep is processed and one 510 deep traps; a get-method stack that serialises 300 deep runs and one 340 deep
 * traps. Both are under the network's 512 (max_ext_msg_depth, max_vm_data_depth), so this bound, with a margin,
 * is what every surface applies in both modes.
 */
export const EMULATOR_MAX_DEPTH = 256;

export interface BocLimits {
  /** bytes of the serialised bag */
  maxBytes: number;
  maxCells: number;
  maxBits: number;
  maxDepth: number;
  /** where the depth limit comes from, for the message */
  depthSource: string;
}

function depthBound(configDepth: number, field: string): { maxDepth: number; depthSource: string } {
  return configDepth <= EMULATOR_MAX_DEPTH
    ? { maxDepth: configDepth, depthSource: `${P43} ${field}` }
    : { maxDepth: EMULATOR_MAX_DEPTH, depthSource: `the emulator's bound, under ${P43} ${field} ${configDepth}` };
}

/** What an external message (or one part of it) may be. */
export const messageLimits = (l: SizeLimits): BocLimits => ({
  maxBytes: l.maxExtMsgSize,
  maxCells: l.maxMsgCells,
  maxBits: l.maxMsgBits,
  ...depthBound(l.maxExtMsgDepth, 'max_ext_msg_depth'),
});

/** An external message's limits on the chain this gateway models (config param 43 of the default config). */
export const MESSAGE_LIMITS: Readonly<BocLimits> = Object.freeze(messageLimits(CHAIN_SIZE_LIMITS));

/** What a cell handed to the VM as get-method data may be. */
export const vmDataLimits = (l: SizeLimits): BocLimits => ({
  maxBytes: l.maxExtMsgSize,
  maxCells: l.maxMsgCells,
  maxBits: l.maxMsgBits,
  ...depthBound(l.maxVmDataDepth, 'max_vm_data_depth'),
});

/**
 * Checks a serialised bag before and after building its cells: bytes, then the header's cell count, then (with
 * the cells built, which the two bounds keep small) total data bits and depth. `what` names the value in the
 * message ("message", "body", "stack entry 2").
 */
export function checkBoc(buf: Buffer, what: string, limits: BocLimits): CheckedBoc {
  if (buf.length > limits.maxBytes) {
    throw new LimitError(`${what} is ${buf.length} bytes, the limit is ${limits.maxBytes} (${P43} max_ext_msg_size)`, 'max_ext_msg_size');
  }
  const header = readBocHeader(buf);
  if (typeof header === 'string') throw new LimitError(`${what} is not a valid bag of cells: ${header}`, 'boc');
  if (header.cells > limits.maxCells) {
    throw new LimitError(`${what} has ${header.cells} cells, the limit is ${limits.maxCells} (${P43} max_msg_cells)`, 'max_msg_cells');
  }
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(buf);
  } catch (e) {
    throw new LimitError(`${what} is not a valid bag of cells: ${(e as Error).message}`, 'boc');
  }
  let bits = 0;
  let depth = 0;
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const c = todo.pop()!;
    const key = c.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    bits += c.bits.length;
    for (const r of c.refs) todo.push(r);
  }
  for (const r of roots) depth = Math.max(depth, r.depth());
  if (bits > limits.maxBits) {
    throw new LimitError(`${what} has ${bits} bits, the limit is ${limits.maxBits} (${P43} max_msg_bits)`, 'max_msg_bits');
  }
  if (depth > limits.maxDepth) {
    throw new LimitError(`${what} is ${depth} cells deep, the limit is ${limits.maxDepth} (${limits.depthSource})`, 'depth');
  }
  return { roots, cells: header.cells };
}

// ---- get-method arguments ----

/** Entries a get-method stack may hold, nested ones included; real get-methods take a handful. */
export const MAX_STACK_ENTRIES = 1024;
/** TVM's own bound on a tuple's length (TUPLE, UNTUPLE take 0..255). */
export const MAX_TUPLE_LENGTH = 255;

/**
 * A numeric method id as TVM's get-method entry takes it: the emulator's `method_id` is a signed 32-bit
 * integer (tonlib `smc.methodIdNumber number:int32`, @ton/core `getMethodId` gives 17-bit ids).
 */
function checkMethodId(id: string | number): number {
  const text = String(id);
  // past 20 characters the value is out of range whatever it is; BigInt of a huge text is not free
  const n = text.length > 20 ? undefined : BigInt(id);
  if (n === undefined || n < -(1n << 31n) || n > (1n << 31n) - 1n) {
    throw new LimitError(`method id ${text.length > 40 ? `${text.slice(0, 40)}…` : text} is out of range: a method id is a signed 32-bit integer`, 'method_id');
  }
  return Number(n);
}

/** A get-method name, or a numeric id (a number or decimal text, as the surfaces take it) checked to fit 32 bits; returned as given. */
export function checkMethodRef<T extends string | number>(method: T): T {
  if (typeof method === 'number' ? Number.isInteger(method) : /^-?\d+$/.test(method)) checkMethodId(method);
  return method;
}
