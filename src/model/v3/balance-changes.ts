/**
 * TON and jetton balance changes of a trace, and of one action's slice of it, summed from the trace's v3
 * transactions the way toncenter's /api/v3/balanceChanges sums them (toncenter-newer.md §4; the algorithm of
 * ton-index-go `crud/balances.go`, read at v1.3 and after, rewritten here):
 *
 * - each transaction with an in-message books, for that message: `total_fees` of the transaction as a fee of its
 *   account; the message's value taken from its source and given to its destination (also when the receiver
 *   aborted: a bounce is a message of its own); the message's `fwd_fee` as a fee of its source when the
 *   transaction that sent it is in the trace and had an in-message itself; the `fwd_fee` of each external-out
 *   message the transaction emitted as a fee of its account;
 * - a jetton `transfer` (0x0f8a7ea5) in-message books its amount off the sender's owner and onto the owner its
 *   body names, under the jetton of the wallet it was sent to; an owner is named only when its wallet for that
 *   jetton is among the wallets the trace's transfers and internal transfers touched (else under `""`, as is a
 *   jetton whose wallet is unknown), whether the transfer succeeded or not;
 * - `changes` = value - fees per address; keys are raw uppercase addresses, in order (Go prints maps so).
 *
 * An action's slice is its transactions without the first one when that one's in-message is internal (the
 * sender's part of the action belongs to whoever sent it); a contract_deploy has none. No I/O: the caller says
 * which addresses are jetton wallets (the reference reads its non-destroyed jetton_wallets rows).
 */
import { Address, Cell } from '@ton/core';
import type { BalanceChangesResponse } from '../../api/v3/balance-changes.js';
import type { Transaction } from '../../api/v3/transactions.js';
import { rawUpper } from '../address.js';
import { JETTON_OP } from '../tlb/jetton.js';
import { loadMsgAddress, loadOp } from '../tlb/common.js';
import { opcodeHex } from './common.js';

/** A jetton wallet's owner and jetton master (raw uppercase), or undefined for an address that is none. */
export type JettonWalletOf = (raw: string) => { owner: string; jetton: string } | undefined;

/** What one transaction books. */
interface Booked {
  value: Map<string, bigint>;
  fees: Map<string, bigint>;
  jettons: Map<string, Map<string, bigint>>;
}

const TRANSFER = opcodeHex(JETTON_OP.transfer);
const INTERNAL_TRANSFER = opcodeHex(JETTON_OP.internalTransfer);

/** All three null: an action without a slice. */
export const NO_BALANCE_CHANGES: BalanceChangesResponse = { changes: null, fees: null, jettons: null };

const add = (m: Map<string, bigint>, key: string, v: bigint): void => void m.set(key, (m.get(key) ?? 0n) + v);

/**
 * The sums over the trace's transactions, or over `only` (hashes as the transactions print them) when given.
 * `txs` is the whole trace: jetton owners are resolved against every wallet it touches.
 */
export function balanceChangesOf(txs: readonly Transaction[], walletOf: JettonWalletOf, only?: ReadonlySet<string>): BalanceChangesResponse {
  const wallets = touchedWallets(txs, walletOf);
  const sentBy = new Map<string, Transaction>();
  for (const t of txs) for (const m of t.out_msgs) if (m.destination !== null) sentBy.set(m.hash, t);
  const total: Booked = { value: new Map(), fees: new Map(), jettons: new Map() };
  for (const t of txs) if (!only || only.has(t.hash)) book(t, sentBy, wallets, total);
  return answer(total);
}

/** The transactions (hashes) whose sums make an action's balance changes; null for an action that has none. */
export function actionSlice(action: { type: string; transactions: readonly string[] }, txs: readonly Transaction[]): ReadonlySet<string> | null {
  if (action.type === 'contract_deploy') return null;
  const byHash = new Map(txs.map((t) => [t.hash, t]));
  const own = action.transactions.map((h) => byHash.get(h)).filter((t): t is Transaction => t !== undefined);
  if (own.length === 0) return new Set();
  const first = own.reduce((a, b) => (BigInt(b.lt) < BigInt(a.lt) ? b : a));
  const out = new Set(own.map((t) => t.hash));
  if (first.in_msg?.source != null) out.delete(first.hash);
  return out;
}

/** The jetton wallets the trace's transfers and internal transfers touch, by address, as the index knows them. */
interface TouchedWallets {
  /** wallet -> its jetton master */
  jettonOf: Map<string, string>;
  /** jetton master -> the owners of its touched wallets */
  owners: Map<string, Set<string>>;
}

function touchedWallets(txs: readonly Transaction[], walletOf: JettonWalletOf): TouchedWallets {
  const candidates = new Set<string>();
  for (const t of txs) {
    const m = t.in_msg;
    if (!m) continue;
    if (m.opcode === TRANSFER && m.destination) candidates.add(m.destination);
    if (m.opcode === INTERNAL_TRANSFER) for (const a of [m.source, m.destination]) if (a) candidates.add(a);
  }
  const touched: TouchedWallets = { jettonOf: new Map(), owners: new Map() };
  for (const raw of candidates) {
    const w = walletOf(raw);
    if (!w) continue;
    touched.jettonOf.set(raw, w.jetton);
    let owners = touched.owners.get(w.jetton);
    if (!owners) touched.owners.set(w.jetton, (owners = new Set()));
    owners.add(w.owner);
  }
  return touched;
}

function book(t: Transaction, sentBy: Map<string, Transaction>, wallets: TouchedWallets, into: Booked): void {
  const m = t.in_msg;
  if (!m) return;
  add(into.fees, t.account, BigInt(t.total_fees));
  if (m.value !== null && m.source && m.destination) {
    add(into.value, m.source, -BigInt(m.value));
    add(into.value, m.destination, BigInt(m.value));
  }
  for (const out of t.out_msgs) if (out.destination === null && out.fwd_fee !== null) add(into.fees, t.account, BigInt(out.fwd_fee));
  const sender = m.source ? sentBy.get(m.hash) : undefined;
  const sent = sender?.in_msg ? sender.out_msgs.find((o) => o.hash === m.hash) : undefined;
  if (sent?.fwd_fee != null) add(into.fees, m.source!, BigInt(sent.fwd_fee));
  if (m.opcode === TRANSFER && m.source && m.destination && m.message_content?.body) bookTransfer(m.source, m.destination, m.message_content.body, wallets, into);
}

/** A `transfer` its owner sent to its wallet: off the sender's owner, onto the owner the body names. */
function bookTransfer(owner: string, wallet: string, body: string, wallets: TouchedWallets, into: Booked): void {
  let amount: bigint;
  let destination: string;
  try {
    const s = Cell.fromBase64(body).beginParse();
    loadOp(s, JETTON_OP.transfer, 'transfer');
    s.skip(64);
    amount = s.loadCoins();
    const to = loadMsgAddress(s);
    destination = to instanceof Address ? rawUpper(to) : '';
  } catch {
    return;
  }
  const jetton = wallets.jettonOf.get(wallet) ?? '';
  const owners = wallets.owners.get(jetton);
  addJetton(into, owners?.has(owner) ? owner : '', jetton, -amount);
  addJetton(into, owners?.has(destination) ? destination : '', jetton, amount);
}

function addJetton(into: Booked, owner: string, jetton: string, v: bigint): void {
  let m = into.jettons.get(owner);
  if (!m) into.jettons.set(owner, (m = new Map()));
  add(m, jetton, v);
}

const sorted = <V>(m: Map<string, V>): [string, V][] => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

function answer(b: Booked): BalanceChangesResponse {
  const net = new Map(b.value);
  for (const [k, fee] of b.fees) add(net, k, -fee);
  return {
    changes: Object.fromEntries(sorted(net).map(([k, v]) => [k, Number(v)])),
    fees: Object.fromEntries(sorted(b.fees).map(([k, v]) => [k, Number(v)])),
    jettons: Object.fromEntries(sorted(b.jettons).map(([owner, m]) => [owner, Object.fromEntries(sorted(m).map(([j, v]) => [j, v.toString()]))])),
  };
}
