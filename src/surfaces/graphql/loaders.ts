/**
 * Per-request loaders that are not tied to one GraphQL type: account and wallet states (read by many
 * Account fields, one accountStates / walletStates call per level) and message records with their
 * transaction links. Type loaders (Transaction, Message, Block) live with their types.
 */
import { createContextCache } from '@pothos/core';
import { Cell, type Address } from '@ton/core';
import DataLoader from 'dataloader';
import type { AccountStateFull } from './wire.js';
import { V3_MAX_LIMIT } from '../../api/v3/common.js';
import type { Message } from './wire.js';
import type { WalletState } from './wire.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import { detectWallet } from '../../model/wallet.js';
import type { GraphQLContext } from './builder.js';

/** Raw upper-case with a canonical workchain: what rawUpper prints, so such a string is its own key. */
const RAW_UPPER = /^(?:0|-?[1-9]\d{0,2}):[0-9A-F]{64}$/;

/** The loader key of an address: raw upper-case, as v3 prints it. */
export const addressKey = (s: string): string => {
  // v3 rows print addresses this way already: kept as printed rather than parsed and printed again
  if (RAW_UPPER.test(s)) {
    const wc = Number(s.slice(0, s.indexOf(':')));
    if (wc >= -128 && wc <= 127) return s;
  }
  const a = parseAddressAny(s);
  if (!a) throw new Error(`data source returned an unparsable address ${s}`);
  return rawUpper(a.address);
};

// keys are parsed back to addresses for every batch; the same few accounts are asked for again and again
const keyAddresses = new Map<string, Address>();
const KEY_ADDRESSES_MAX = 10_000;

const keyAddress = (key: string): Address => {
  let a = keyAddresses.get(key);
  if (!a) {
    if (keyAddresses.size >= KEY_ADDRESSES_MAX) keyAddresses.clear();
    keyAddresses.set(key, (a = parseAddressAny(key)!.address));
  }
  return a;
};

const options = { maxBatchSize: V3_MAX_LIMIT };

/**
 * Answers in flight whose rows lead to account states (an owner's jetton wallets lead to their masters, which
 * the graph reads from their states when the source offers StateAnswers). While one is in flight, the request's
 * account states wait for it, so the states it leads to go out in the same /accountStates call.
 */
export const foldedIntoStates = createContextCache(() => new Set<Promise<unknown>>());

const nextTurn = () => new Promise((r) => setImmediate(r));

/** `answer`, kept in `pending` while it is in flight. */
export async function inFlight<T>(pending: Set<Promise<unknown>>, answer: Promise<T>): Promise<T> {
  pending.add(answer);
  try {
    return await answer;
  } finally {
    pending.delete(answer);
  }
}

/**
 * Resolves once the answers in `pending` have come: the loaders of the level dispatch on this turn (their
 * answers join `pending` then), and what each answer leads to is asked within the turn it arrives in.
 */
export async function settled(pending: Set<Promise<unknown>>): Promise<void> {
  do {
    await nextTurn();
    await Promise.allSettled([...pending]);
  } while (pending.size > 0);
}

/** Whether the request's account states wait for the answers they fold in, not yet asked. */
const heldStates = createContextCache(() => ({ held: false }));

/** Whether an /accountStates call of this request is being held: a state asked now goes out in it at no extra call. */
export const statesHeld = (ctx: GraphQLContext): boolean => heldStates(ctx).held;

export const accountStateLoader = createContextCache((ctx: GraphQLContext) => {
  // with a source that answers from states, and no deadline to meet, fewer calls come before an earlier answer
  const answers = ctx.capabilities.stateAnswers?.();
  const fold = answers !== undefined && !answers.hurried();
  const held = heldStates(ctx);
  const hold = (dispatch: () => void) => {
    held.held = true;
    void settled(foldedIntoStates(ctx))
      .then(nextTurn)
      .then(() => {
        held.held = false;
        dispatch();
      });
  };
  return new DataLoader<string, AccountStateFull | null>(
    async (keys) => {
      const { accounts } = await ctx.v3.accountStates({ address: keys.map(keyAddress), includeBoc: true });
      const byKey = new Map(accounts.map((a) => [addressKey(a.address), a]));
      return keys.map((k) => byKey.get(k) ?? null);
    },
    fold ? { ...options, batchScheduleFn: hold } : options,
  );
});

export const walletStateLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, WalletState | null>(async (keys) => {
      const { wallets } = await ctx.v3.walletStates({ address: keys.map(keyAddress) });
      const byKey = new Map(wallets.map((w) => [addressKey(w.address), w]));
      return keys.map((k) => byKey.get(k) ?? null);
    }, options),
);

/**
 * Account.wallet: the wallet read from the account's own state row (its code and data, which the account state
 * loader asks for anyway), as /walletStates reads it, so an account page costs no call of its own for it. A row
 * without code is no wallet; only a row with code but no BoCs is asked of /walletStates.
 */
export async function walletOf(ctx: GraphQLContext, key: string): Promise<WalletState | null> {
  const s = await accountStateLoader(ctx).load(key);
  if (!s?.code_hash) return null;
  if (s.code_boc == null || s.data_boc == null) {
    const w = await walletStateLoader(ctx).load(key);
    return w?.is_wallet ? w : null;
  }
  const w = detectWallet(Cell.fromBase64(s.code_boc), Cell.fromBase64(s.data_boc));
  if (!w) return null;
  return {
    address: s.address,
    is_wallet: true,
    wallet_type: w.type as WalletState['wallet_type'],
    seqno: w.seqno,
    ...(w.walletId !== undefined ? { wallet_id: w.walletId } : {}),
    ...(w.isSignatureAllowed !== undefined ? { is_signature_allowed: w.isSignatureAllowed } : {}),
    ...(s.balance != null ? { balance: s.balance } : {}),
    ...(s.status != null ? { status: s.status } : {}),
    code_hash: s.code_hash,
    last_transaction_hash: s.last_transaction_hash ?? null,
    last_transaction_lt: s.last_transaction_lt ?? null,
  };
}

/** One /messages call for many hashes; a key matches the hash or the normalised hash, as toncenter's `msg_hash` does. */
export async function fetchMessages(ctx: GraphQLContext, keys: readonly string[]): Promise<(Message | null)[]> {
  const { messages } = await ctx.v3.messages({
    msgHash: keys.map((k) => Buffer.from(k, 'base64')),
    limit: Math.min(V3_MAX_LIMIT, keys.length * 2),
  });
  return keys.map((k) => messages.find((m) => m.hash === k) ?? messages.find((m) => m.hash_norm === k) ?? null);
}

/**
 * Messages as /messages returns them, with `in_msg_tx_hash`/`out_msg_tx_hash`. Kept apart from the Message
 * loader, which is primed with inline messages that know only the transaction they were found in.
 */
export const messageRecordLoader = createContextCache(
  (ctx: GraphQLContext) => new DataLoader<string, Message | null>((keys) => fetchMessages(ctx, keys), { maxBatchSize: V3_MAX_LIMIT / 2 }),
);
