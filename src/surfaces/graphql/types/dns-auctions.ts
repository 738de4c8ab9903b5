/**
 * .ton DNS auctions in the graph: `NftItem.dnsAuction` (the item's own `get_auction_info` and
 * `get_last_fill_up_time`, every item of a level read at once) and `Query.dnsAuctions` (the auctions a bidder
 * leads, /dns/activeAuctions, v3-more-routes.md §1).
 */
import { createContextCache } from '@pothos/core';
import { Address, Cell } from '@ton/core';
import DataLoader from 'dataloader';
import type { V2RunGetMethodResult } from '../wire.js';
import type { DnsAuction } from '../../../api/v3/dns.js';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import { rawUpper } from '../../../model/address.js';
import { builder, type GraphQLContext } from '../builder.js';
import { positionConnection } from '../connections.js';
import { addressKey } from '../loaders.js';
import { AccountRef } from './account.js';
import { NftItemRef } from './tokens.js';

type Auction = Omit<DnsAuction, 'nft_item'>;
type Entry = NonNullable<V2RunGetMethodResult['stack']>[number] | undefined;

const num = (e: Entry): bigint | null => (e?.type === 'num' ? BigInt(e.value) : null);
const cellOf = (e: Entry): Cell | null => (e && (e.type === 'cell' || e.type === 'slice') ? Cell.fromBase64(e.value) : null);

/** One item's auction from its get-methods; null when it is no .ton DNS item or its auction was claimed. */
async function readAuction(ctx: GraphQLContext, key: string, now: bigint): Promise<Auction | null> {
  const address = Address.parseRaw(key);
  const info = await ctx.v3.runGetMethod({ address, method: 'get_auction_info', stack: [] });
  if (info.exit_code !== 0 && info.exit_code !== 1) return null;
  const [bidderEntry, amountEntry, endEntry] = info.stack ?? [];
  const bidder = cellOf(bidderEntry)?.beginParse().loadMaybeAddress() ?? null;
  const amount = num(amountEntry);
  const end = num(endEntry);
  if (!bidder || amount === null || !end) return null;
  const [fill, name] = await Promise.all([
    ctx.v3.runGetMethod({ address, method: 'get_last_fill_up_time', stack: [] }),
    ctx.v3.runGetMethod({ address, method: 'get_domain', stack: [] }),
  ]);
  const domain = cellOf(name.stack?.[0])?.beginParse().loadStringTail();
  return {
    nft_item_address: rawUpper(address),
    domain: domain === undefined ? '' : `${domain}.ton`,
    max_bid_address: rawUpper(bidder),
    max_bid_amount: amount.toString(),
    auction_end_time: end.toString(),
    last_fill_up_time: (num(fill.stack?.[0]) ?? 0n).toString(),
    finished: end <= now,
  };
}

/** The auctions of every item asked for on a level, their get-methods run side by side. */
const auctionLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, Auction | null>(
      (keys) => {
        const now = BigInt(Math.floor(Date.now() / 1000));
        return Promise.all(keys.map((k) => readAuction(ctx, k, now)));
      },
      { maxBatchSize: V3_MAX_LIMIT },
    ),
);

export const DnsAuctionRef = builder.objectRef<Auction>('DnsAuction').implement({
  description: 'The auction of a .ton DNS item: the leading bid and when it ends. A claimed item has none.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    item: t.field({ type: NftItemRef, resolve: (a) => addressKey(a.nft_item_address) }),
    maxBid: t.field({ type: 'BigInt', resolve: (a) => a.max_bid_amount }),
    bidder: t.field({ type: AccountRef, description: 'The leading bidder.', resolve: (a) => ({ address: addressKey(a.max_bid_address) }) }),
    endTime: t.int({ resolve: (a) => Number(a.auction_end_time) }),
    lastFillUpTime: t.int({ resolve: (a) => Number(a.last_fill_up_time) }),
    finished: t.exposeBoolean('finished', { description: 'The end time has passed (the winner has not claimed it yet).' }),
  }),
});

builder.objectField(NftItemRef, 'dnsAuction', (t) =>
  t.field({
    type: DnsAuctionRef,
    nullable: true,
    description: 'The auction of a .ton DNS item, while it runs or is unclaimed.',
    resolve: (i, _args, ctx) => auctionLoader(ctx).load(addressKey(i.address)),
  }),
);

const DnsAuctionStateEnum = builder.enumType('DnsAuctionState', { values: ['all', 'won', 'bidding'] as const });
const DnsAuctionConnection = builder.connectionObject({ type: DnsAuctionRef, name: 'DnsAuctionConnection' });

builder.queryField('dnsAuctions', (t) =>
  t.field({
    type: DnsAuctionConnection,
    nullable: true,
    description: '.ton DNS auctions the bidder leads, by end time: `won` ended, `bidding` still running.',
    args: { bidder: t.arg({ type: 'Address', required: true }), state: t.arg({ type: DnsAuctionStateEnum, defaultValue: 'all' }), first: t.arg.int(), after: t.arg.string() },
    resolve: (_r, args, ctx) =>
      positionConnection(args, async ({ offset, limit }) => (await ctx.v3.dnsAuctions({ bidder: args.bidder, state: args.state ?? 'all', offset, limit })).auctions),
  }),
);
