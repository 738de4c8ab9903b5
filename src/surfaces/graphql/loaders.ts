/**
 * Per-request loaders that are not tied to one GraphQL type: account and wallet states (read by many
 * Account fields, one accountStates / walletStates call per level) and message records with their
 * transaction links. Type loaders (Transaction, Message, Block) live with their types.
 */
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { AccountStateFull } from '../../api/v3/accounts.js';
import { V3_MAX_LIMIT } from '../../api/v3/common.js';
import type { Message } from '../../api/v3/messages.js';
import type { WalletState } from '../../api/v3/wallets.js';
import { parseAddressAny, rawUpper } from '../../model/address.js';
import type { GraphQLContext } from './builder.js';

/** The loader key of an address: raw upper-case, as v3 prints it. */
export const addressKey = (s: string): string => {
  const a = parseAddressAny(s);
  if (!a) throw new Error(`data source returned an unparsable address ${s}`);
  return rawUpper(a.address);
};

const keyAddress = (key: string) => parseAddressAny(key)!.address;

const options = { maxBatchSize: V3_MAX_LIMIT };

export const accountStateLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, AccountStateFull | null>(async (keys) => {
      const { accounts } = await ctx.v3.accountStates({ address: keys.map(keyAddress), includeBoc: true });
      const byKey = new Map(accounts.map((a) => [addressKey(a.address), a]));
      return keys.map((k) => byKey.get(k) ?? null);
    }, options),
);

export const walletStateLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, WalletState | null>(async (keys) => {
      const { wallets } = await ctx.v3.walletStates({ address: keys.map(keyAddress) });
      const byKey = new Map(wallets.map((w) => [addressKey(w.address), w]));
      return keys.map((k) => byKey.get(k) ?? null);
    }, options),
);

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
