/**
 * TON Connect `sendTransaction` payloads made into the wallet's external message, as the reference builds them
 * (emulate-v1.md §3): the wallet version from the `from` account's code hash (v3r1, v3r2, v4r1, v4r2, v5r1),
 * seqno and wallet id from its data, each message internal with mode 3 (bounce from the address as written: a
 * raw address is bounceable), init and body as references, and a zero signature (the emulation runs with
 * signature checks off). The request's checks, with the reference's texts, are here too, so REST and the graph
 * refuse the same input the same way.
 */
import { Address, beginCell, Cell, external, storeMessage, type ShardAccount } from '@ton/core';
import { EMULATE_LIMITS, EmulateError, type TonConnectMessage } from '../../api/emulate.js';
import { detectWallet } from '../wallet.js';

/** How long a built message stays valid when the request names no time (and always for v3 wallets). */
const DEFAULT_TTL_S = 300;
const SUPPORTED: Record<string, 'v3' | 'v4' | 'v5'> = {
  'wallet v3 r1': 'v3',
  'wallet v3 r2': 'v3',
  'wallet v4 r1': 'v4',
  'wallet v4 r2': 'v4',
  'wallet v5 r1': 'v5',
};
const UINT64_MAX = (1n << 64n) - 1n;

const bad = (msg: string): EmulateError => new EmulateError(400, `invalid request: ${msg}`);

/** A friendly (bounce flag as written) or raw (bounceable) address, or null. */
export function parseDestination(s: string): { address: Address; bounce: boolean } | null {
  try {
    if (Address.isFriendly(s)) {
      const f = Address.parseFriendly(s);
      return { address: f.address, bounce: f.isBounceable };
    }
    return { address: Address.parseRaw(s), bounce: true };
  } catch {
    return null;
  }
}

function bocOf(b64: string): Cell {
  const buf = Buffer.from(b64, 'base64');
  if (buf.length === 0 || buf.toString('base64').replace(/=+$/, '') !== b64.replace(/=+$/, '')) throw new Error('illegal base64 data');
  const roots = Cell.fromBoc(buf);
  if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
  return roots[0]!;
}

export interface CheckedMessage {
  to: { address: Address; bounce: boolean };
  amount: bigint;
  payload?: Cell;
  stateInit?: Cell;
}

/** The request's checks (400 `invalid request: …` as the reference words them). */
export function checkTonConnect(from: unknown, messages: unknown): { from: string; messages: CheckedMessage[] } {
  if (typeof from !== 'string' || from === '') throw bad('from address is required for emulation');
  if (!Array.isArray(messages) || messages.length === 0) throw bad('messages array cannot be empty');
  if (messages.length > EMULATE_LIMITS.maxTonConnectMessages) throw bad(`messages array cannot contain more than ${EMULATE_LIMITS.maxTonConnectMessages} messages`);
  const out = messages.map((m: Partial<TonConnectMessage> | null, i): CheckedMessage => {
    if (!m || typeof m !== 'object' || Object.keys(m).length === 0) throw bad(`message at index ${i} cannot be empty`);
    if (m.amount === undefined || m.amount === '') throw bad(`amount in message at index ${i} cannot be empty`);
    const amountText = String(m.amount);
    if (!/^\d+$/.test(amountText) || BigInt(amountText) > UINT64_MAX) throw bad(`invalid amount in message at index ${i}: strconv.ParseUint: parsing "${amountText}": invalid syntax`);
    const to = typeof m.address === 'string' ? parseDestination(m.address) : null;
    if (!to) throw new EmulateError(500, `Invalid address format: ${String(m.address ?? '')}`);
    let payload: Cell | undefined;
    let stateInit: Cell | undefined;
    try {
      if (m.payload) payload = bocOf(m.payload);
    } catch (e) {
      throw bad(`invalid message payload at index ${i}: ${(e as Error).message}`);
    }
    try {
      if (m.stateInit) stateInit = bocOf(m.stateInit);
    } catch (e) {
      throw bad(`invalid message stateInit at index ${i}: ${(e as Error).message}`);
    }
    return { to, amount: BigInt(amountText), ...(payload ? { payload } : {}), ...(stateInit ? { stateInit } : {}) };
  });
  return { from, messages: out };
}

/** A time given in s, ms, µs or ns, in seconds (by magnitude, as the reference reads it). */
export function normalizeValidUntil(v: number): number {
  let t = v;
  while (t > 1e11) t = Math.floor(t / 1000);
  return t;
}

/** The wallet's external message for these messages, signed with zeros. */
export function composeTonConnect(from: Address, account: ShardAccount | null, messages: CheckedMessage[], now: number, validUntil?: number | null): Cell {
  const st = account?.account?.storage.state;
  const code = st?.type === 'active' ? st.state.code : undefined;
  const data = st?.type === 'active' ? st.state.data : undefined;
  if (!code || !data) throw new EmulateError(500, 'Account state no code or no data');
  const wallet = detectWallet(code, data);
  if (!wallet) throw new EmulateError(500, 'Account is not a known wallet');
  const version = SUPPORTED[wallet.type];
  if (!version) throw new EmulateError(500, `Unsupported wallet type: ${wallet.type}`);
  const until = version !== 'v3' && validUntil ? normalizeValidUntil(validUntil) : now + DEFAULT_TTL_S;
  const internals = messages.map((m) => relaxed(m, now));
  const walletId = BigInt.asUintN(32, BigInt(wallet.walletId ?? 0));
  let body: Cell;
  if (version === 'v5') {
    let list = Cell.EMPTY;
    for (const m of internals) list = beginCell().storeRef(list).storeUint(0x0ec3c86d, 32).storeUint(3, 8).storeRef(m).endCell();
    body = beginCell()
      .storeUint(0x7369676e, 32)
      .storeUint(walletId, 32)
      .storeUint(until, 32)
      .storeUint(wallet.seqno, 32)
      .storeMaybeRef(list)
      .storeBit(false)
      .storeBuffer(Buffer.alloc(64))
      .endCell();
  } else {
    const b = beginCell().storeBuffer(Buffer.alloc(64)).storeUint(walletId, 32).storeUint(until, 32).storeUint(wallet.seqno, 32);
    if (version === 'v4') b.storeUint(0, 8);
    for (const m of internals) b.storeUint(3, 8).storeRef(m);
    body = b.endCell();
  }
  return beginCell().store(storeMessage(external({ to: from, body }))).endCell();
}

/** The internal message (MessageRelaxed): the client's StateInit cell and the body, each as a reference. */
function relaxed(m: CheckedMessage, now: number): Cell {
  const b = beginCell()
    .storeUint(0, 1) // int_msg_info$0
    .storeBit(true) // ihr_disabled
    .storeBit(m.to.bounce)
    .storeBit(false) // bounced
    .storeUint(0, 2) // src: addr_none
    .storeAddress(m.to.address)
    .storeCoins(m.amount)
    .storeBit(false) // no extra currencies
    .storeCoins(0n) // ihr_fee
    .storeCoins(0n) // fwd_fee
    .storeUint(0, 64)
    .storeUint(now, 32)
    .storeBit(m.stateInit !== undefined);
  if (m.stateInit) b.storeBit(true).storeRef(m.stateInit);
  return b.storeBit(true).storeRef(m.payload ?? Cell.EMPTY).endCell();
}
