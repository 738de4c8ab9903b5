/**
 * /api/v3/dns/records over the local chain (v3.md §2.5): DNS items found in the contract index
 * (indexer/contracts.ts) by wallet or domain; none when the chain holds no DNS contracts. /dns/activeAuctions
 * (v3-more-routes.md §1): the DNS items whose `get_auction_info` names the bidder as the leading one.
 */
import { ApiError } from '../../../api/errors.js';
import {
  encodeDnsCursor,
  type DnsApi,
  type DnsAuction,
  type DnsAuctionsParams,
  type DnsAuctionsResponse,
  type DnsRecord,
  type DnsRecordsParams,
  type DnsRecordsResponse,
} from '../../../api/v3/dns.js';
import { rawUpper } from '../../../model/address.js';
import type { NftItemState } from '../indexer/contract-state.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf } from './v3-order.js';
import { itemToV3, present } from './v3-tokens-json.js';
import { runGet } from './v3-chain-reads.js';

export function localDns(ctx: LocalV3Context): DnsApi {
  return {
    async dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse> {
      if (p.wallet === undefined && p.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
      if (p.wallet !== undefined && p.domain !== undefined) throw new ApiError(422, 'provide either wallet address or domain, not both');
      await ctx.indexer.contracts.sync();
      const wallet = p.wallet && rawUpper(p.wallet);
      const list = ctx.indexer.contracts
        .list('nft_item')
        .filter((i) => i.dns !== null && (wallet ? i.dns.wallet === wallet : i.dns.domain === p.domain))
        // crud_dns.go: ORDER BY LENGTH(domain), domain
        .sort(orderBy<NftItemState>([(i) => i.dns!.domain.length, 'asc'], [(i) => i.dns!.domain, 'asc']));
      const records = pageOf(list, p).map(dnsToV3);
      const addrs = records.flatMap((r) => present(r.nft_item_address, r.nft_item_owner, r.dns_wallet, r.dns_next_resolver));
      return { records, address_book: ctx.book(addrs, p) };
    },

    async dnsAuctions(p: DnsAuctionsParams): Promise<DnsAuctionsResponse> {
      if (p.after && (p.offset ?? 0) > 0) throw new ApiError(422, 'use either after or offset, not both');
      const { limit, offset } = p;
      await ctx.indexer.contracts.sync();
      const bidder = rawUpper(p.bidder);
      const now = BigInt(Math.floor(Date.now() / 1000));
      const state = p.state ?? 'all';
      const rows: { item: NftItemState; auction: Auction }[] = [];
      for (const item of ctx.indexer.contracts.list('nft_item')) {
        if (item.dns === null) continue;
        const auction = await auctionOf(ctx, item);
        if (!auction || auction.maxBidAddress !== bidder) continue;
        if (state === 'won' ? auction.endTime > now : state === 'bidding' ? auction.endTime <= now : false) continue;
        rows.push({ item, auction });
      }
      rows.sort(orderBy<(typeof rows)[number]>([(r) => r.auction.endTime, 'asc'], [(r) => r.item.raw, 'asc']));
      const after = p.after;
      const start = after ? rows.filter((r) => r.auction.endTime > after.endTime || (r.auction.endTime === after.endTime && r.item.raw > after.item)) : rows;
      const pageRows = start.slice(offset, offset + limit);
      const auctions = pageRows.map(({ item, auction }): DnsAuction => {
        return {
          nft_item_address: item.raw,
          domain: item.dns!.domain,
          max_bid_address: auction.maxBidAddress,
          max_bid_amount: auction.maxBidAmount.toString(),
          auction_end_time: auction.endTime.toString(),
          last_fill_up_time: auction.lastFillUp.toString(),
          finished: auction.endTime <= now,
          ...(p.includeNftItems ? { nft_item: itemToV3(ctx.indexer.contracts, item) } : {}),
        };
      });
      const last = pageRows.at(-1);
      const next_cursor = last && pageRows.length === limit ? encodeDnsCursor({ endTime: last.auction.endTime, item: last.item.raw }) : null;
      const items = pageRows.flatMap((r) => present(r.item.raw, r.item.collection));
      return {
        auctions,
        address_book: ctx.book([...pageRows.map((r) => r.item.raw), bidder], p),
        metadata: await ctx.metadata(items, p),
        next_cursor,
      };
    },
  };
}

interface Auction {
  maxBidAddress: string;
  maxBidAmount: bigint;
  endTime: bigint;
  lastFillUp: bigint;
}

/** A .ton DNS item's running or unclaimed auction: `get_auction_info` and `get_last_fill_up_time` (Tokens.cpp). */
async function auctionOf(ctx: LocalV3Context, item: NftItemState): Promise<Auction | null> {
  const info = await runGet(ctx, item.address, 'get_auction_info');
  if (!info) return null;
  try {
    const maxBidAddress = info.address();
    const maxBidAmount = info.int();
    const endTime = info.int();
    if (!maxBidAddress || endTime === 0n) return null;
    const fill = await runGet(ctx, item.address, 'get_last_fill_up_time');
    return { maxBidAddress, maxBidAmount, endTime, lastFillUp: fill ? fill.int() : 0n };
  } catch {
    return null;
  }
}

function dnsToV3(i: NftItemState): DnsRecord {
  const d = i.dns!;
  return {
    nft_item_address: i.raw,
    nft_item_owner: i.owner,
    domain: d.domain,
    dns_next_resolver: d.nextResolver,
    dns_wallet: d.wallet,
    dns_site_adnl: d.siteAdnl,
    dns_storage_bag_id: d.storageBagId,
  };
}
