/**
 * NFT mints, transfers (TEP-62: an item deployed, an item's transfer with its ownership_assigned and excesses) and
 * Getgems purchases (the transfer a sale or auction sends, with the seller's payout).
 */
import type { TonTransferDetails } from '../../../api/v3/action-details.js';
import { COMMON_OP } from '../../tlb/common.js';
import { payloadComment } from '../../tlb/comment.js';
import { NFT_OP } from '../../tlb/nft.js';
import { parseNftOwnershipAssigned, parseNftReportStaticData, parseNftTransfer } from '../decode.js';
import { cellB64, commentText, defineMatcher, detailsOf, found, isCall, replies, storedIndex, type Block, type ContractInfo, type NftSaleInfo } from './block.js';

export const nftMint = defineMatcher({
  name: 'nft_mint',
  addressKeys: { nft_mint: ['owner', 'nft_item', 'nft_collection'] },
  async match(b, info) {
    const deployed = b.deployments;
    if (deployed.length !== 1 || b.type === 'root') return null;
    const item = await info.nftItem(deployed[0]!);
    if (!item) return null;
    const node = b.nodes[0]!;
    return found({
      type: 'nft_mint',
      include: [b],
      failed: false,
      details: {
        // the reference's `owner` is the deploying message's source (the collection, for a collection mint)
        ...(node.source ? { owner: node.source } : {}),
        nft_item: deployed[0],
        nft_collection: item.collection,
        nft_item_index: item.index,
      },
    });
  },
});

/** The marketplace members of an nft_transfer that is no sale. */
export const NO_SALE = {
  marketplace: null,
  real_old_owner: null,
  marketplace_address: null,
  payout_amount: null,
  payout_address: null,
  payout_comment: null,
  payout_comment_encrypted: null,
  payout_comment_encoded: null,
  royalty_amount: null,
  royalty_address: null,
} as const;

export const NFT_TRANSFER_ADDRESS_KEYS = ['nft_collection', 'nft_item', 'old_owner', 'new_owner', 'response_destination', 'payout_address', 'royalty_address'] as const;

/** Comments of the TON transfer that closes a sale rather than pays for it. */
const CLOSING_COMMENTS: readonly (string | null)[] = ['finish', 'stop'];

/**
 * The sale or auction an item transfer completes: the transfer's sender is a Getgems sale contract paid by the new
 * owner just before, or an auction contract; null when it is neither, sells another item, or the buyer is the
 * seller. With it, the block before the transfer that belongs to the purchase (the buyer's payment, or the
 * external that finished the auction).
 */
async function getgemsPurchase(b: Block, item: string, newOwner: string | null, info: ContractInfo): Promise<{ sale: NftSaleInfo; include: Block[] } | null> {
  const prev = b.prev;
  if (!prev) return null;
  const seller = prev.nodes[0]!;
  let sale: NftSaleInfo | null = null;
  if (prev.type === 'ton_transfer' && seller.source === newOwner && info.nftSale) sale = await info.nftSale(seller.account);
  if (!sale && info.nftAuction) sale = await info.nftAuction(seller.account);
  if (!sale || sale.nft !== item || sale.owner === newOwner) return null;
  const include: Block[] = [];
  if (prev.type === 'ton_transfer' ? !CLOSING_COMMENTS.includes((prev.data.comment as string | null) ?? null) : prev.type === 'call_contract' && seller.source === null) {
    include.push(prev);
  }
  return { sale, include };
}

export const nftTransfer = defineMatcher({
  name: 'nft_transfer',
  addressKeys: { nft_transfer: NFT_TRANSFER_ADDRESS_KEYS },
  async match(b, info) {
    if (!isCall(b, NFT_OP.transfer)) return null;
    const covered: Block[] = [];
    // excess and bounce replies merge only with the matched children, not with the transfer itself
    for (const n of b.next) if (isCall(n, NFT_OP.ownershipAssigned) || isCall(n, COMMON_OP.excesses)) covered.push(n, ...replies(n));
    const node = b.nodes[0]!;
    const item = await info.nftItem(node.account);
    if (!item) return null;
    const body = parseNftTransfer(node.body);
    const assigned = covered.find((x) => isCall(x, NFT_OP.ownershipAssigned));
    let oldOwner = node.source;
    if (assigned) oldOwner = parseNftOwnershipAssigned(assigned.nodes[0]!.body).prevOwner;
    const comment = payloadComment(body.forwardPayload);
    const purchase = await getgemsPurchase(b, node.account, body.newOwner, info);
    return found({
      type: 'nft_transfer',
      include: [b, ...(purchase?.include ?? []), ...covered],
      failed: b.failed,
      details: {
        nft_collection: item.collection,
        nft_item: node.account,
        nft_item_index: storedIndex(item.index),
        ...(oldOwner ? { old_owner: oldOwner } : {}),
        new_owner: body.newOwner,
        is_purchase: purchase !== null,
        ...(purchase ? { price: purchase.sale.price } : {}),
        query_id: body.queryId.toString(),
        response_destination: body.responseDestination,
        custom_payload: cellB64(body.customPayload),
        forward_payload: cellB64(body.forwardPayload),
        forward_amount: body.forwardAmount.toString(),
        comment: comment ? commentText(comment) : null,
        is_encrypted_comment: body.forwardPayload ? comment?.type === 'encrypted' : null,
        ...NO_SALE,
        ...(purchase ? { marketplace: 'getgems', marketplace_address: purchase.sale.marketplace, real_old_owner: purchase.sale.owner } : {}),
      },
    });
  },
});

/**
 * A Getgems sale or auction bought (`GetgemsNftPurchaseBlockMatcher`): the item's transfer matched above as a
 * purchase, with the seller's payout next to it, one `nft_purchase` that holds both (the transfer and the payout
 * stay actions of their own inside it). An auction finished by a "finish"/"stop" comment sends the transfer and
 * the payout side by side, so the payout is looked for among the transfer's siblings there.
 */
export const getgemsNftPurchase = defineMatcher({
  name: 'nft_purchase',
  addressKeys: { nft_purchase: NFT_TRANSFER_ADDRESS_KEYS },
  async match(b) {
    const transfer = detailsOf(b, 'nft_transfer');
    if (!transfer?.is_purchase || transfer.marketplace !== 'getgems' || !transfer.real_old_owner) return null;
    const closing = b.prev?.type === 'ton_transfer' && CLOSING_COMMENTS.includes((b.prev.data.comment as string | null) ?? null);
    const candidates = closing ? b.prev!.next : b.next;
    const payout = candidates.find((n) => n !== b && n.type === 'ton_transfer' && n.nodes[0]!.destination === transfer.real_old_owner);
    if (!payout) return null;
    const paid = payout.data as TonTransferDetails;
    return found({
      type: 'nft_purchase',
      include: [b, payout],
      failed: b.failed,
      details: {
        ...transfer,
        payout_amount: paid.value ?? null,
        payout_comment: paid.comment ?? null,
        payout_comment_encrypted: paid.encrypted ?? false,
        payout_comment_encoded: paid.encrypted === true && paid.comment !== null,
      },
    });
  },
});

/** An item asked for its static data (`get_static_data`) and its answer (`report_static_data`): index and collection. */
export const nftDiscovery = defineMatcher({
  name: 'nft_discovery',
  addressKeys: { nft_discovery: ['source', 'nft_item', 'nft_collection'] },
  async match(b) {
    if (!isCall(b, NFT_OP.getStaticData)) return null;
    const report = b.next.find((n) => isCall(n, NFT_OP.reportStaticData));
    if (!report) return null;
    const node = b.nodes[0]!;
    const data = parseNftReportStaticData(report.nodes[0]!.body);
    return found({
      type: 'nft_discovery',
      include: [b, report],
      failed: b.failed,
      details: { source: node.source, nft_item: node.destination, nft_collection: data.collection, nft_item_index: storedIndex(data.index.toString()) },
    });
  },
});
