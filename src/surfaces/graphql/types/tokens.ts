/**
 * Tokens: jetton masters and wallets (TEP-74), NFT collections and items (TEP-62), their transfers and burns,
 * as toncenter v3 indexes them (/jetton/*, /nft/*). Every lookup of one level goes through one loader call
 * (masters, wallets, collections and items by address; an account's wallets and items by owner).
 * Token contents (TEP-64) come as typed common keys plus every key as a string pair.
 * Root fields: jettonMaster(s), jettonWallet(s), jettonTransfers, jettonBurns, nftCollection(s), nftItem(s), nftTransfers.
 */
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { JettonBurn, JettonMaster, JettonTransfer, JettonWallet } from '../wire.js';
import type { NftCollection, NftItem, NftTransfer } from '../wire.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import { JETTON_BURNS_PARAMS, JETTON_MASTERS_PARAMS, JETTON_TRANSFERS_PARAMS, JETTON_WALLETS_PARAMS } from '../../../api/v3/jettons.js';
import { NFT_COLLECTIONS_PARAMS, NFT_ITEMS_PARAMS, NFT_TRANSFERS_PARAMS } from '../../../api/v3/nfts.js';
import { parseAddressAny, rawUpper } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { defined, keysetConnection, ltWindow, positionConnection, type ConnectionArgs } from '../connections.js';
import { accountStateLoader, addressKey, foldedIntoStates, inFlight, settled, statesHeld } from '../loaders.js';
import { routeArgs } from '../route-args.js';
import { AccountRef } from './account.js';
import { TransactionRef } from './transaction.js';

const keyAddress = (key: string) => parseAddressAny(key)!.address;
const account = (a: string | null | undefined) => (a ? { address: addressKey(a) } : null);

// ---- content (TEP-64) ----

type Content = Record<string, unknown>;

const ContentEntryRef = builder.objectRef<{ key: string; value: string }>('TokenContentEntry').implement({
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value') }),
});

const TokenContentRef = builder.objectRef<Content>('TokenContent').implement({
  description: 'TEP-64 token content: the common keys typed, every key in `entries`. Off-chain content has only `uri`.',
  fields: (t) => {
    const key = (name: string) => t.string({ nullable: true, resolve: (c) => (typeof c[name] === 'string' ? (c[name] as string) : null) });
    return {
      uri: key('uri'),
      name: key('name'),
      symbol: key('symbol'),
      description: key('description'),
      image: key('image'),
      decimals: t.int({
        nullable: true,
        description: 'Jettons: decimal places (TEP-64 default 9 when absent).',
        resolve: (c) => (typeof c.decimals === 'string' && /^\d{1,3}$/.test(c.decimals) ? Number(c.decimals) : null),
      }),
      entries: t.field({
        type: [ContentEntryRef],
        resolve: (c) =>
          Object.entries(c).map(([k, v]) => ({ key: k, value: typeof v === 'string' ? v : JSON.stringify(v) })),
      }),
    };
  },
});

// ---- loaders ----

/** Loads token objects by address in one call per level; `sort` maps rows to keys, missing ones to null. */
function byAddress<T extends { address: string }>(fetch: (ctx: GraphQLContext, keys: readonly string[]) => Promise<readonly T[]>) {
  return {
    load: async (keys: string[], ctx: GraphQLContext): Promise<T[]> => [...(await fetch(ctx, keys))],
    toKey: (r: T) => addressKey(r.address),
    sort: true as const,
  };
}

/**
 * Masters by address. A source with StateAnswers (upstream mode) answers them from their account states, read
 * with the request's other states in one call, by get_jetton_data run here; a master it cannot answer that
 * way is asked of /jetton/masters, as every master is elsewhere.
 */
const masters = byAddress<JettonMaster>(async (ctx, keys) => {
  const answers = ctx.capabilities.stateAnswers?.();
  const indexed = async (ask: readonly string[]) =>
    ask.length ? (await ctx.v3.jettonMasters({ address: ask.map(keyAddress), limit: ask.length })).jetton_masters : [];
  if (!answers) return indexed(keys);
  answers.prepare();
  const found: JettonMaster[] = [];
  // a held /accountStates call takes the masters' states at no cost, and asks what it asked when it was cold
  const held = statesHeld(ctx);
  const read = keys.filter((k) => {
    const row = held ? undefined : answers.cachedJettonMaster(k);
    if (row) found.push(row);
    return !row;
  });
  const states = await accountStateLoader(ctx).loadMany(read);
  const rows = await Promise.all(states.map((s) => (s && !(s instanceof Error) ? answers.jettonMaster(s) : null)));
  found.push(...rows.filter((r): r is JettonMaster => r !== null));
  return [...found, ...(await indexed(read.filter((_, i) => rows[i] === null)))];
});
const wallets = byAddress<JettonWallet>(async (ctx, keys) =>
  (await ctx.v3.jettonWallets({ address: keys.map(keyAddress), limit: keys.length })).jetton_wallets,
);
/**
 * The collections the request's item answers embed (an /nft/items row carries its collection's /nft/collections
 * row), and those answers still in flight: a level that asks for items and their collections at once (an
 * action's item and collection) asks /nft/items only, not /nft/collections as well.
 */
const embeddedCollections = createContextCache(() => ({ rows: new Map<string, NftCollection>(), pending: new Set<Promise<unknown>>() }));

const collections = byAddress<NftCollection>(async (ctx, keys) => {
  const embedded = embeddedCollections(ctx);
  // the item loads of this level are dispatched on the same turn: wait for their answers
  await settled(embedded.pending);
  const found = keys.flatMap((k) => embedded.rows.get(k) ?? []);
  const ask = keys.filter((k) => !embedded.rows.has(k));
  if (ask.length === 0) return found;
  const { nft_collections } = await ctx.v3.nftCollections({ collectionAddress: ask.map(keyAddress), limit: ask.length });
  return [...found, ...nft_collections];
});
/**
 * Items by address: those an earlier answer brought (upstream mode) from what was kept, the rest asked. A row
 * kept past the account TTL still answers what never changes; its moving fields ask again (currentItem).
 */
const items = byAddress<NftItem>(async (ctx, keys) => {
  const embedded = embeddedCollections(ctx);
  const answers = ctx.capabilities.stateAnswers?.();
  const kept = keys.map((k) => answers?.cachedNftItem(k));
  const ask = keys.filter((_, i) => !kept[i]);
  const asked = ask.length ? await inFlight(embedded.pending, itemsByAddress(ctx, ask)) : [];
  const found = [...asked];
  for (const k of kept) {
    if (!k) continue;
    found.push(k.row);
    if (k.fresh) continue;
    staleItems(ctx).add(k.row);
    if (k.row.collection) staleItems(ctx).add(k.row.collection);
  }
  for (const i of found) if (i.collection) embedded.rows.set(addressKey(i.collection.address), i.collection);
  return found;
});

/** Item rows of this request kept past the TTL, and the collections they embed: their moving fields are read again. */
const staleItems = createContextCache((_ctx: GraphQLContext) => new WeakSet<NftItem | NftCollection>());

const freshItems = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, NftItem | null>(
      async (keys) => {
        const rows = new Map((await itemsByAddress(ctx, keys)).map((r) => [addressKey(r.address), r]));
        return keys.map((k) => rows.get(k) ?? null);
      },
      { maxBatchSize: V3_MAX_LIMIT },
    ),
);

const freshCollections = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, NftCollection | null>(
      async (keys) => {
        const { nft_collections } = await ctx.v3.nftCollections({ collectionAddress: keys.map(keyAddress), limit: keys.length });
        const rows = new Map(nft_collections.map((r) => [addressKey(r.address), r]));
        return keys.map((k) => rows.get(k) ?? null);
      },
      { maxBatchSize: V3_MAX_LIMIT },
    ),
);

/** The item as it is now: the row itself, unless it was kept past the TTL (then asked again, once per request). */
async function currentItem(ctx: GraphQLContext, i: NftItem): Promise<NftItem> {
  if (!staleItems(ctx).has(i)) return i;
  return (await freshItems(ctx).load(addressKey(i.address))) ?? i;
}

/** The collection as it is now, as currentItem. */
async function currentCollection(ctx: GraphQLContext, c: NftCollection): Promise<NftCollection> {
  if (!staleItems(ctx).has(c)) return c;
  return (await freshCollections(ctx).load(addressKey(c.address))) ?? c;
}

async function itemsByAddress(ctx: GraphQLContext, keys: readonly string[]): Promise<readonly NftItem[]> {
  const { nft_items } = await ctx.v3.nftItems({ address: keys.map(keyAddress), limit: keys.length });
  ctx.capabilities.stateAnswers?.().keepNftItems(nft_items);
  return nft_items;
}

const loaderOptions = { maxBatchSize: V3_MAX_LIMIT };

export const JettonMasterRef = builder.loadableNodeRef('JettonMaster', {
  id: { resolve: (m) => addressKey(m.address) },
  ...masters,
  loaderOptions,
  cacheResolved: true,
});
export const JettonWalletRef = builder.loadableNodeRef('JettonWallet', {
  id: { resolve: (w) => addressKey(w.address) },
  ...wallets,
  loaderOptions,
  cacheResolved: true,
});
export const NftCollectionRef = builder.loadableNodeRef('NftCollection', {
  id: { resolve: (c) => addressKey(c.address) },
  ...collections,
  loaderOptions,
  cacheResolved: true,
});
export const NftItemRef = builder.loadableNodeRef('NftItem', {
  id: { resolve: (i) => addressKey(i.address) },
  ...items,
  loaderOptions,
  cacheResolved: true,
});

/**
 * What one owner holds, for Account.jettonWallets / Account.nftItems: one call for every owner of a level
 * (the reference's limit, 1000 rows); only when that is not enough does each owner get its own call.
 */
function ownedBy<T extends { address: string }>(
  ownerOf: (row: T) => string | null,
  fetch: (ctx: GraphQLContext, owners: readonly string[], limit: number) => Promise<readonly T[]>,
) {
  return createContextCache(
    (ctx: GraphQLContext) =>
      new DataLoader<string, readonly T[]>(
        async (owners) => {
          const rows = await fetch(ctx, owners, V3_MAX_LIMIT);
          if (rows.length >= V3_MAX_LIMIT && owners.length > 1) {
            return Promise.all(owners.map((o) => fetch(ctx, [o], V3_MAX_LIMIT)));
          }
          const byOwner = new Map<string, T[]>(owners.map((o) => [o, []]));
          for (const r of rows) {
            const owner = ownerOf(r);
            if (owner) byOwner.get(addressKey(owner))?.push(r);
          }
          return owners.map((o) => byOwner.get(o)!);
        },
        { maxBatchSize: 100 },
      ),
  );
}

const walletsOfOwner = ownedBy<JettonWallet>(
  (w) => w.owner,
  // the wallets lead to their masters, read from their states (see accountStateLoader)
  async (ctx, owners, limit) => {
    ctx.capabilities.stateAnswers?.().prepare();
    return (await inFlight(foldedIntoStates(ctx), ctx.v3.jettonWallets({ ownerAddress: owners.map(keyAddress), limit }))).jetton_wallets;
  },
);
/** with include_on_sale: an item a sale or auction holds counts as its seller's (real_owner), as wallets show it */
const itemsOfOwner = ownedBy<NftItem>(
  (i) => i.real_owner ?? i.owner_address,
  async (ctx, owners, limit) => {
    const { nft_items } = await ctx.v3.nftItems({ ownerAddress: owners.map(keyAddress), includeOnSale: true, limit });
    ctx.capabilities.stateAnswers?.().keepNftItems(nft_items);
    return nft_items;
  },
);

/** A page of an in-memory list, with the same position cursors as source-paged lists. */
const slice = <T>(list: readonly T[], args: { first?: number | null; after?: string | null }) =>
  positionConnection(args, async ({ offset, limit }) => list.slice(offset, offset + limit));

// ---- objects ----

JettonMasterRef.implement({
  fields: (t) => ({
  address: t.field({ type: 'Address', resolve: (m) => m.address }),
  account: t.field({ type: AccountRef, resolve: (m) => account(m.address)! }),
  totalSupply: t.field({ type: 'BigInt', resolve: (m) => m.total_supply }),
  mintable: t.exposeBoolean('mintable'),
  admin: t.field({ type: AccountRef, nullable: true, resolve: (m) => account(m.admin_address) }),
  content: t.field({ type: TokenContentRef, nullable: true, resolve: (m) => m.jetton_content }),
  jettonWalletCodeHash: t.field({ type: 'Hash', resolve: (m) => m.jetton_wallet_code_hash }),
  codeHash: t.field({ type: 'Hash', resolve: (m) => m.code_hash }),
  dataHash: t.field({ type: 'Hash', resolve: (m) => m.data_hash }),
  lastTransactionLt: t.field({ type: 'BigInt', resolve: (m) => m.last_transaction_lt }),
  wallets: t.field({
    type: JettonWalletConnection,
    nullable: true,
    description: 'Wallets of this jetton, largest balance first.',
    args: { first: t.arg.int(), after: t.arg.string(), ...routeArgs(t.arg, JETTON_WALLETS_PARAMS, ['exclude_zero_balance']) },
    resolve: (m, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (
          await ctx.v3.jettonWallets({
            jettonAddress: [keyAddress(m.address)],
            excludeZeroBalance: args.excludeZeroBalance ?? false,
            sort: 'desc',
            offset,
            limit,
          })
        ).jetton_wallets,
      ),
  }),
  transfers: t.field({
    type: JettonTransferConnection,
    nullable: true,
    description: 'Transfers of this jetton, newest first.',
    args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
    resolve: (m, args, ctx) => jettonTransfers(ctx, args, { jettonMaster: keyAddress(m.address) }),
  }),
  burns: t.field({
    type: JettonBurnConnection,
    nullable: true,
    description: 'Burns of this jetton, newest first.',
    args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
    resolve: (m, args, ctx) => jettonBurns(ctx, args, { jettonMaster: keyAddress(m.address) }),
  }),
  }),
});

JettonWalletRef.implement({
  fields: (t) => ({
  address: t.field({ type: 'Address', resolve: (w) => w.address }),
  account: t.field({ type: AccountRef, resolve: (w) => account(w.address)! }),
  balance: t.field({ type: 'BigInt', description: 'In the jetton\'s smallest units.', resolve: (w) => w.balance }),
  owner: t.field({ type: AccountRef, resolve: (w) => account(w.owner)! }),
  jetton: t.field({ type: JettonMasterRef, nullable: true, resolve: (w) => addressKey(w.jetton) }),
  lastTransactionLt: t.field({ type: 'BigInt', resolve: (w) => w.last_transaction_lt }),
  codeHash: t.field({ type: 'Hash', nullable: true, resolve: (w) => w.code_hash }),
  dataHash: t.field({ type: 'Hash', nullable: true, resolve: (w) => w.data_hash }),
  transfers: t.field({
    type: JettonTransferConnection,
    nullable: true,
    description: 'Transfers sent from this wallet, newest first.',
    args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
    resolve: (w, args, ctx) => jettonTransfers(ctx, args, { jettonWallet: [keyAddress(w.address)] }),
  }),
  }),
});

NftCollectionRef.implement({
  fields: (t) => ({
  address: t.field({ type: 'Address', resolve: (c) => c.address }),
  account: t.field({ type: AccountRef, resolve: (c) => account(c.address)! }),
  owner: t.field({ type: AccountRef, nullable: true, resolve: async (c, _a, ctx) => account((await currentCollection(ctx, c)).owner_address) }),
  nextItemIndex: t.field({ type: 'BigInt', resolve: async (c, _a, ctx) => (await currentCollection(ctx, c)).next_item_index }),
  content: t.field({ type: TokenContentRef, nullable: true, resolve: (c) => c.collection_content }),
  codeHash: t.field({ type: 'Hash', resolve: async (c, _a, ctx) => (await currentCollection(ctx, c)).code_hash }),
  dataHash: t.field({ type: 'Hash', resolve: async (c, _a, ctx) => (await currentCollection(ctx, c)).data_hash }),
  lastTransactionLt: t.field({ type: 'BigInt', resolve: async (c, _a, ctx) => (await currentCollection(ctx, c)).last_transaction_lt }),
  items: t.field({
    type: NftItemConnection,
    nullable: true,
    description: 'Items of this collection, by index.',
    args: { first: t.arg.int(), after: t.arg.string() },
    resolve: (c, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (await ctx.v3.nftItems({ collectionAddress: [keyAddress(c.address)], offset, limit })).nft_items,
      ),
  }),
  }),
});

NftItemRef.implement({
  fields: (t) => ({
  address: t.field({ type: 'Address', resolve: (i) => i.address }),
  account: t.field({ type: AccountRef, resolve: (i) => account(i.address)! }),
  init: t.boolean({ resolve: async (i, _a, ctx) => (await currentItem(ctx, i)).init }),
  index: t.field({ type: 'BigInt', resolve: (i) => i.index }),
  // the item row embeds its collection: prime the loader instead of asking again
  collection: t.field({
    type: NftCollectionRef,
    nullable: true,
    resolve: (i) => i.collection ?? (i.collection_address ? addressKey(i.collection_address) : null),
  }),
  owner: t.field({ type: AccountRef, nullable: true, resolve: async (i, _a, ctx) => account((await currentItem(ctx, i)).owner_address) }),
  content: t.field({ type: TokenContentRef, nullable: true, resolve: (i) => i.content }),
  onSale: t.boolean({
    nullable: true,
    description: 'Null from indexers that predate sale tracking.',
    resolve: async (i, _a, ctx) => (await currentItem(ctx, i)).on_sale ?? null,
  }),
  codeHash: t.field({ type: 'Hash', resolve: async (i, _a, ctx) => (await currentItem(ctx, i)).code_hash }),
  dataHash: t.field({ type: 'Hash', resolve: async (i, _a, ctx) => (await currentItem(ctx, i)).data_hash }),
  lastTransactionLt: t.field({ type: 'BigInt', resolve: async (i, _a, ctx) => (await currentItem(ctx, i)).last_transaction_lt }),
  transfers: t.field({
    type: NftTransferConnection,
    nullable: true,
    description: 'Ownership changes of this item, newest first.',
    args: { first: t.arg.int(), after: t.arg.string(), last: t.arg.int(), before: t.arg.string() },
    resolve: (i, args, ctx) => nftTransfers(ctx, args, { itemAddress: [keyAddress(i.address)] }),
  }),
  }),
});

const JettonTransferRef = builder.objectRef<JettonTransfer>('JettonTransfer').implement({
  description: 'A TEP-74 transfer: `source` and `destination` are owners, not wallets.',
  fields: (t) => ({
    queryId: t.field({ type: 'BigInt', resolve: (x) => x.query_id }),
    source: t.field({ type: AccountRef, resolve: (x) => account(x.source)! }),
    destination: t.field({ type: AccountRef, resolve: (x) => account(x.destination)! }),
    amount: t.field({ type: 'BigInt', resolve: (x) => x.amount }),
    sourceWallet: t.field({ type: JettonWalletRef, nullable: true, resolve: (x) => addressKey(x.source_wallet) }),
    jetton: t.field({ type: JettonMasterRef, nullable: true, resolve: (x) => addressKey(x.jetton_master) }),
    transaction: t.field({ type: TransactionRef, nullable: true, resolve: (x) => x.transaction_hash }),
    transactionLt: t.field({ type: 'BigInt', resolve: (x) => x.transaction_lt }),
    transactionNow: t.int({ resolve: (x) => x.transaction_now }),
    aborted: t.boolean({ resolve: (x) => x.transaction_aborted }),
    responseDestination: t.field({ type: AccountRef, nullable: true, resolve: (x) => account(x.response_destination) }),
    customPayload: t.field({ type: 'Boc', nullable: true, resolve: (x) => x.custom_payload }),
    forwardTonAmount: t.field({ type: 'BigInt', nullable: true, resolve: (x) => x.forward_ton_amount }),
    forwardPayload: t.field({ type: 'Boc', nullable: true, resolve: (x) => x.forward_payload }),
    comment: t.string({
      nullable: true,
      description: 'The forward payload as a text comment, when it is one.',
      resolve: (x) => textComment(x.decoded_forward_payload),
    }),
    traceId: t.field({ type: 'Hash', nullable: true, resolve: (x) => x.trace_id }),
  }),
});

const JettonBurnRef = builder.objectRef<JettonBurn>('JettonBurn').implement({
  fields: (t) => ({
    queryId: t.field({ type: 'BigInt', resolve: (x) => x.query_id }),
    owner: t.field({ type: AccountRef, resolve: (x) => account(x.owner)! }),
    wallet: t.field({ type: JettonWalletRef, nullable: true, resolve: (x) => addressKey(x.jetton_wallet) }),
    jetton: t.field({ type: JettonMasterRef, nullable: true, resolve: (x) => addressKey(x.jetton_master) }),
    amount: t.field({ type: 'BigInt', resolve: (x) => x.amount }),
    transaction: t.field({ type: TransactionRef, nullable: true, resolve: (x) => x.transaction_hash }),
    transactionLt: t.field({ type: 'BigInt', resolve: (x) => x.transaction_lt }),
    transactionNow: t.int({ resolve: (x) => x.transaction_now }),
    aborted: t.boolean({ resolve: (x) => x.transaction_aborted }),
    responseDestination: t.field({ type: AccountRef, nullable: true, resolve: (x) => account(x.response_destination) }),
    customPayload: t.field({ type: 'Boc', nullable: true, resolve: (x) => x.custom_payload }),
    traceId: t.field({ type: 'Hash', nullable: true, resolve: (x) => x.trace_id }),
  }),
});

const NftTransferRef = builder.objectRef<NftTransfer>('NftTransfer').implement({
  fields: (t) => ({
    queryId: t.field({ type: 'BigInt', resolve: (x) => x.query_id }),
    item: t.field({ type: NftItemRef, nullable: true, resolve: (x) => addressKey(x.nft_address) }),
    collection: t.field({ type: NftCollectionRef, nullable: true, resolve: (x) => (x.nft_collection ? addressKey(x.nft_collection) : null) }),
    oldOwner: t.field({ type: AccountRef, resolve: (x) => account(x.old_owner)! }),
    newOwner: t.field({ type: AccountRef, resolve: (x) => account(x.new_owner)! }),
    transaction: t.field({ type: TransactionRef, nullable: true, resolve: (x) => x.transaction_hash }),
    transactionLt: t.field({ type: 'BigInt', resolve: (x) => x.transaction_lt }),
    transactionNow: t.int({ resolve: (x) => x.transaction_now }),
    aborted: t.boolean({ resolve: (x) => x.transaction_aborted }),
    responseDestination: t.field({ type: AccountRef, nullable: true, resolve: (x) => account(x.response_destination) }),
    customPayload: t.field({ type: 'Boc', nullable: true, resolve: (x) => x.custom_payload }),
    forwardAmount: t.field({ type: 'BigInt', nullable: true, resolve: (x) => x.forward_amount }),
    forwardPayload: t.field({ type: 'Boc', nullable: true, resolve: (x) => x.forward_payload }),
    comment: t.string({ nullable: true, resolve: (x) => textComment(x.decoded_forward_payload) }),
    traceId: t.field({ type: 'Hash', nullable: true, resolve: (x) => x.trace_id }),
  }),
});

/** A decoded forward payload that is a text comment (`{"type":"text_comment","comment":…}` or similar). */
function textComment(decoded: Record<string, unknown> | null): string | null {
  if (!decoded) return null;
  for (const k of ['comment', 'text']) if (typeof decoded[k] === 'string') return decoded[k] as string;
  return null;
}

export const JettonWalletConnection = builder.connectionObject({ type: JettonWalletRef, name: 'JettonWalletConnection' });
export const NftItemConnection = builder.connectionObject({ type: NftItemRef, name: 'NftItemConnection' });
const JettonMasterConnection = builder.connectionObject({ type: JettonMasterRef, name: 'JettonMasterConnection' });
const NftCollectionConnection = builder.connectionObject({ type: NftCollectionRef, name: 'NftCollectionConnection' });
const JettonTransferConnection = builder.connectionObject({ type: JettonTransferRef, name: 'JettonTransferConnection' });
const JettonBurnConnection = builder.connectionObject({ type: JettonBurnRef, name: 'JettonBurnConnection' });
const NftTransferConnection = builder.connectionObject({ type: NftTransferRef, name: 'NftTransferConnection' });

// ---- event lists: keyset-paged by (transaction lt, transaction hash), newest first ----

type EventArgs = ConnectionArgs & { startLt?: bigint | null; endLt?: bigint | null };

function jettonTransfers(ctx: GraphQLContext, args: EventArgs, filter: Parameters<GraphQLContext['v3']['jettonTransfers']>[0]) {
  return keysetConnection({
    args,
    order: 'desc',
    position: (x: JettonTransfer) => ({ lt: BigInt(x.transaction_lt), hash: x.transaction_hash }),
    fetch: async (q) => (await ctx.v3.jettonTransfers({ ...filter, ...ltWindow(q, args), sort: q.sort, limit: q.limit })).jetton_transfers,
  });
}

function jettonBurns(ctx: GraphQLContext, args: EventArgs, filter: Parameters<GraphQLContext['v3']['jettonBurns']>[0]) {
  return keysetConnection({
    args,
    order: 'desc',
    position: (x: JettonBurn) => ({ lt: BigInt(x.transaction_lt), hash: x.transaction_hash }),
    fetch: async (q) => (await ctx.v3.jettonBurns({ ...filter, ...ltWindow(q, args), sort: q.sort, limit: q.limit })).jetton_burns,
  });
}

function nftTransfers(ctx: GraphQLContext, args: EventArgs, filter: Parameters<GraphQLContext['v3']['nftTransfers']>[0]) {
  return keysetConnection({
    args,
    order: 'desc',
    position: (x: NftTransfer) => ({ lt: BigInt(x.transaction_lt), hash: x.transaction_hash }),
    fetch: async (q) => (await ctx.v3.nftTransfers({ ...filter, ...ltWindow(q, args), sort: q.sort, limit: q.limit })).nft_transfers,
  });
}

// ---- Account: what it holds ----

builder.objectFields(AccountRef, (t) => ({
  jettonWallets: t.field({
    type: JettonWalletConnection,
    nullable: true,
    description: 'Jetton wallets this account owns (one data call for every account of a level).',
    args: { first: t.arg.int(), after: t.arg.string(), ...routeArgs(t.arg, JETTON_WALLETS_PARAMS, ['exclude_zero_balance']) },
    resolve: async (a, args, ctx) => {
      const all = await walletsOfOwner(ctx).load(a.address);
      return slice(args.excludeZeroBalance ? all.filter((w) => w.balance !== '0') : all, args);
    },
  }),
  nftItems: t.field({
    type: NftItemConnection,
    nullable: true,
    description: 'NFT items this account owns, with those it listed on a sale or auction (onSale; one data call for every account of a level).',
    args: { first: t.arg.int(), after: t.arg.string() },
    resolve: async (a, args, ctx) => slice(await itemsOfOwner(ctx).load(a.address), args),
  }),
  jettonTransfers: t.field({
    type: JettonTransferConnection,
    nullable: true,
    description: 'Jetton transfers this account sent or received, newest first.',
    args: {
      first: t.arg.int(),
      after: t.arg.string(),
      last: t.arg.int(),
      before: t.arg.string(),
      ...routeArgs(t.arg, JETTON_TRANSFERS_PARAMS, ['direction'], TRANSFER_DIRECTION),
    },
    resolve: (a, args, ctx) =>
      jettonTransfers(ctx, args, { ownerAddress: [keyAddress(a.address)], ...defined({ direction: args.direction }) }),
  }),
  nftTransfers: t.field({
    type: NftTransferConnection,
    nullable: true,
    description: 'NFT ownership changes this account took part in, newest first.',
    args: {
      first: t.arg.int(),
      after: t.arg.string(),
      last: t.arg.int(),
      before: t.arg.string(),
      ...routeArgs(t.arg, NFT_TRANSFERS_PARAMS, ['direction'], TRANSFER_DIRECTION),
    },
    resolve: (a, args, ctx) => nftTransfers(ctx, args, { ownerAddress: [keyAddress(a.address)], ...defined({ direction: args.direction }) }),
  }),
}));

const TransferDirectionEnum = builder.enumType('TransferDirection', {
  values: { in: { description: 'received' }, out: { description: 'sent' } } as const,
});

// ---- root fields ----

const eventArgs = (t: Parameters<Parameters<typeof builder.queryFields>[0]>[0]) => ({
  first: t.arg.int(),
  after: t.arg.string(),
  last: t.arg.int(),
  before: t.arg.string(),
});

/** The transfer lists' filters as GraphQL names them: the owner, the jetton master, the NFT item and collection. */
const OWNER = { owner_address: { as: 'owner' } } as const;
const TRANSFER_DIRECTION = { direction: { type: TransferDirectionEnum } } as const;

builder.queryFields((t) => ({
  jettonMaster: t.field({
    type: JettonMasterRef,
    nullable: true,
    args: { address: t.arg({ type: 'Address', required: true }) },
    resolve: (_r, args) => rawUpper(args.address),
  }),
  jettonMasters: t.field({
    type: JettonMasterConnection,
    nullable: true,
    description: 'Jetton masters in index order.',
    args: { first: t.arg.int(), after: t.arg.string(), ...routeArgs(t.arg, JETTON_MASTERS_PARAMS, ['admin_address'], { admin_address: { as: 'admin' } }) },
    resolve: (_r, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (await ctx.v3.jettonMasters({ ...(args.admin ? { adminAddress: [args.admin] } : {}), offset, limit })).jetton_masters,
      ),
  }),
  jettonWallet: t.field({
    type: JettonWalletRef,
    nullable: true,
    args: { address: t.arg({ type: 'Address', required: true }) },
    resolve: (_r, args) => rawUpper(args.address),
  }),
  jettonWallets: t.field({
    type: JettonWalletConnection,
    nullable: true,
    description: 'Jetton wallets by owner and/or jetton, in index order.',
    args: {
      first: t.arg.int(),
      after: t.arg.string(),
      ...routeArgs(t.arg, JETTON_WALLETS_PARAMS, ['owner_address', 'jetton_address', 'exclude_zero_balance'], {
        ...OWNER,
        jetton_address: { as: 'jetton' },
      }),
    },
    resolve: (_r, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (
          await ctx.v3.jettonWallets({
            ...(args.owner ? { ownerAddress: [args.owner] } : {}),
            ...(args.jetton ? { jettonAddress: [args.jetton] } : {}),
            excludeZeroBalance: args.excludeZeroBalance ?? false,
            offset,
            limit,
          })
        ).jetton_wallets,
      ),
  }),
  jettonTransfers: t.field({
    type: JettonTransferConnection,
    nullable: true,
    description: 'Jetton transfers, newest first; filters as toncenter v3 /jetton/transfers.',
    args: {
      ...eventArgs(t),
      ...routeArgs(t.arg, JETTON_TRANSFERS_PARAMS, ['start_lt', 'end_lt', 'owner_address', 'jetton_master', 'direction'], {
        ...OWNER,
        ...TRANSFER_DIRECTION,
        jetton_master: { as: 'jetton' },
      }),
    },
    resolve: (_r, args, ctx) =>
      jettonTransfers(ctx, args, {
        ...(args.owner ? { ownerAddress: [args.owner] } : {}),
        ...defined({ jettonMaster: args.jetton, direction: args.direction }),
      }),
  }),
  jettonBurns: t.field({
    type: JettonBurnConnection,
    nullable: true,
    description: 'Jetton burns, newest first.',
    args: {
      ...eventArgs(t),
      ...routeArgs(t.arg, JETTON_BURNS_PARAMS, ['start_lt', 'end_lt', 'owner_address', 'jetton_master'], { ...OWNER, jetton_master: { as: 'jetton' } }),
    },
    resolve: (_r, args, ctx) =>
      jettonBurns(ctx, args, { ...(args.owner ? { ownerAddress: [args.owner] } : {}), ...defined({ jettonMaster: args.jetton }) }),
  }),
  nftCollection: t.field({
    type: NftCollectionRef,
    nullable: true,
    args: { address: t.arg({ type: 'Address', required: true }) },
    resolve: (_r, args) => rawUpper(args.address),
  }),
  nftCollections: t.field({
    type: NftCollectionConnection,
    nullable: true,
    description: 'NFT collections in index order.',
    args: { first: t.arg.int(), after: t.arg.string(), ...routeArgs(t.arg, NFT_COLLECTIONS_PARAMS, ['owner_address'], OWNER) },
    resolve: (_r, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (await ctx.v3.nftCollections({ ...(args.owner ? { ownerAddress: [args.owner] } : {}), offset, limit })).nft_collections,
      ),
  }),
  nftItem: t.field({
    type: NftItemRef,
    nullable: true,
    args: { address: t.arg({ type: 'Address', required: true }) },
    resolve: (_r, args) => rawUpper(args.address),
  }),
  nftItems: t.field({
    type: NftItemConnection,
    nullable: true,
    description: 'NFT items by owner and/or collection.',
    args: {
      first: t.arg.int(),
      after: t.arg.string(),
      ...routeArgs(t.arg, NFT_ITEMS_PARAMS, ['owner_address', 'collection_address'], { ...OWNER, collection_address: { as: 'collection' } }),
    },
    resolve: (_r, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) =>
        (
          await ctx.v3.nftItems({
            ...(args.owner ? { ownerAddress: [args.owner] } : {}),
            ...(args.collection ? { collectionAddress: [args.collection] } : {}),
            offset,
            limit,
          })
        ).nft_items,
      ),
  }),
  nftTransfers: t.field({
    type: NftTransferConnection,
    nullable: true,
    description: 'NFT transfers, newest first.',
    args: {
      ...eventArgs(t),
      ...routeArgs(t.arg, NFT_TRANSFERS_PARAMS, ['start_lt', 'end_lt', 'owner_address', 'item_address', 'collection_address', 'direction'], {
        ...OWNER,
        ...TRANSFER_DIRECTION,
        item_address: { as: 'item' },
        collection_address: { as: 'collection' },
      }),
    },
    resolve: (_r, args, ctx) =>
      nftTransfers(ctx, args, {
        ...(args.owner ? { ownerAddress: [args.owner] } : {}),
        ...(args.item ? { itemAddress: [args.item] } : {}),
        ...defined({ collectionAddress: args.collection, direction: args.direction }),
      }),
  }),
}));
