/**
 * /api/v3/nft/sales over the local chain (v3-more-routes.md §2): each asked address is read as the reference's
 * worker reads sale contracts, by the GetGems `get_sale_data` get-method, whose first value tells a fixed-price
 * sale ("FIXP") from an auction ("AUC"). Addresses that are neither are not answered. Telemint items are not read.
 */
import type { Address } from '@ton/core';
import type { GetgemsAuctionDetails, GetgemsSaleDetails, NftSale, NftSalesParams, NftSalesResponse } from '../../../api/v3/nfts.js';
import { rawUpper } from '../../../model/address.js';
import { b64, codeOf } from '../../../model/v3/index.js';
import type { Stack } from '../../../model/contract-data.js';
import { SALE_MAGIC } from '../indexer/contract-state.js';
import { runGet } from './v3-chain-reads.js';
import type { LocalV3Context } from './v3-context.js';
import { itemToV3, present } from './v3-tokens-json.js';

const FIXPRICE = SALE_MAGIC.getgems_sale;
const AUCTION = SALE_MAGIC.getgems_auction;

/** Drops the members that are null or undefined (the reference omits every null key of `details`). */
const compact = <T extends object>(o: T): { [K in keyof T]: Exclude<T[K], null> } => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]: Exclude<T[K], null> };

type Head = Pick<NftSale, 'nft_address' | 'nft_owner_address' | 'marketplace_address' | 'created_at'>;

/** GetGems fixed-price sale: (magic, is_complete, created_at, marketplace, nft, owner, full_price, fee address, fee, royalty address, royalty). */
function fixprice(s: Stack): { head: Head; details: GetgemsSaleDetails } {
  const isComplete = s.int() !== 0n;
  const createdAt = Number(s.int());
  const marketplace = s.address();
  const nft = s.address();
  const owner = s.address();
  const details = compact({
    is_complete: isComplete,
    full_price: s.int().toString(),
    marketplace_fee_address: s.address(),
    marketplace_fee: s.int().toString(),
    royalty_address: s.address(),
    royalty_amount: s.int().toString(),
  });
  return { head: compact({ nft_address: nft, nft_owner_address: owner, marketplace_address: marketplace, created_at: createdAt }) as Head, details };
}

/** GetGems auction: (magic, end?, end_time, marketplace, nft, owner, last_bid, last_member, min_step, fees…, max_bid, min_bid, created_at, last_bid_at, is_canceled). */
function auction(s: Stack): { head: Head; details: GetgemsAuctionDetails } {
  const endFlag = s.int() !== 0n;
  const endTime = Number(s.int());
  const marketplace = s.address();
  const nft = s.address();
  const owner = s.address();
  const details: GetgemsAuctionDetails = {
    end_flag: endFlag,
    end_time: endTime,
    last_bid: s.int().toString(),
    last_member: s.address() ?? undefined,
    min_step: s.int().toString(),
    mp_fee_address: s.address() ?? undefined,
    mp_fee_factor: s.int().toString(),
    mp_fee_base: s.int().toString(),
    royalty_fee_address: s.address() ?? undefined,
    royalty_fee_factor: s.int().toString(),
    royalty_fee_base: s.int().toString(),
    max_bid: s.int().toString(),
    min_bid: s.int().toString(),
  };
  const createdAt = Number(s.int());
  details.last_bid_at = Number(s.int());
  details.is_canceled = s.int() !== 0n;
  return { head: compact({ nft_address: nft, nft_owner_address: owner, marketplace_address: marketplace, created_at: createdAt }) as Head, details: compact(details) };
}

async function saleOf(ctx: LocalV3Context, address: Address): Promise<NftSale | null> {
  const s = await runGet(ctx, address, 'get_sale_data');
  if (!s) return null;
  let read: { type: NftSale['type']; head: Head; details: NftSale['details'] } | null = null;
  try {
    const magic = s.int();
    if (magic === FIXPRICE) read = { type: 'getgems_sale', ...fixprice(s) };
    else if (magic === AUCTION) read = { type: 'getgems_auction', ...auction(s) };
  } catch {
    return null;
  }
  if (!read) return null;
  const st = ctx.latestState(address)!;
  const code = codeOf(st.account);
  const data = st.account?.storage.state.type === 'active' ? st.account.storage.state.state.data : null;
  return {
    type: read.type,
    address: rawUpper(address),
    ...read.head,
    ...(st.lastTransLt !== null ? { last_transaction_lt: st.lastTransLt.toString() } : {}),
    ...(code ? { code_hash: b64(code.hash()) } : {}),
    ...(data ? { data_hash: b64(data.hash()) } : {}),
    details: read.details,
  };
}

/** The sales among the asked addresses, fixed-price sales first, then auctions, each joined with its item. */
export async function nftSales(ctx: LocalV3Context, p: NftSalesParams): Promise<NftSalesResponse> {
  await ctx.indexer.contracts.sync();
  const seen = new Set<string>();
  const found: NftSale[] = [];
  for (const a of p.address) {
    const raw = rawUpper(a);
    if (seen.has(raw)) continue;
    seen.add(raw);
    const sale = await saleOf(ctx, a);
    if (sale) found.push(sale);
  }
  const nft_sales = [...found.filter((x) => x.type === 'getgems_sale'), ...found.filter((x) => x.type === 'getgems_auction')].map((sale) => {
    const item = sale.nft_address ? ctx.indexer.contracts.get(sale.nft_address) : undefined;
    return item?.kind === 'nft_item' ? { ...sale, nft_item: itemToV3(ctx.indexer.contracts, item) } : sale;
  });
  const addrs = nft_sales.flatMap((x) => {
    const d = x.details as Record<string, unknown>;
    const inDetails = ['marketplace_fee_address', 'royalty_address', 'last_member', 'mp_fee_address', 'royalty_fee_address'].map((k) => d[k] as string | undefined);
    return present(x.address, x.nft_address, x.nft_owner_address, x.marketplace_address, x.nft_item?.collection_address, x.nft_item?.owner_address, ...inDetails);
  });
  return { nft_sales, ...(await ctx.enrich(addrs, p)) };
}
