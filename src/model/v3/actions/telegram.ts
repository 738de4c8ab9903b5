/** Telegram items (Fragment usernames and numbers): an item sold at auction, or given on mint. */
import type { NftTransferDetails } from '../../../api/v3/action-details.js';
import { NFT_OP } from '../../tlb/nft.js';
import { loadTeleitemBidInfo, TELEITEM_OP, TELEMINT_DEPLOY_OP } from '../../tlb/teleitem.js';
import { parseNftOwnershipAssigned } from '../decode.js';
import { cellB64, defineMatcher, found, isCall, storedIndex, type Block } from './block.js';
import { NFT_TRANSFER_ADDRESS_KEYS, NO_SALE } from './nft.js';

/** An ownership_assigned with no nft_transfer before it. */
export const telegramNftPurchase = defineMatcher({
  name: 'telegram_nft_purchase',
  addressKeys: { nft_transfer: NFT_TRANSFER_ADDRESS_KEYS },
  async match(b, info) {
    if (!isCall(b, NFT_OP.ownershipAssigned)) return null;
    const node = b.nodes[0]!;
    if (!node.source) return null;
    const item = await info.nftItem(node.source);
    if (!item) return null;
    const msg = parseNftOwnershipAssigned(node.body);
    const include: Block[] = [b];
    let sale: Pick<NftTransferDetails, 'payout_amount' | 'payout_address' | 'royalty_amount' | 'royalty_address'> = {};
    const bid = loadTeleitemBidInfo(msg.forwardPayload);
    let isPurchase = false;
    if (bid) {
      const prev = b.prev;
      isPurchase = !(prev && (prev.type === 'nft_mint' || isCall(prev, TELEMINT_DEPLOY_OP)));
      if (prev && (prev.type === 'ton_transfer' || (prev.type === 'call_contract' && prev.nodes[0]!.source === null))) {
        // the first fill-up pays the royalty, the second the seller
        const payouts = prev.next.filter((n) => isCall(n, TELEITEM_OP.auctionFillUp)).sort((x, y) => (x.minLt < y.minLt ? -1 : x.minLt > y.minLt ? 1 : 0));
        const [first, second] = payouts.map((p) => p.nodes[0]!);
        if (first && second) {
          sale = { payout_amount: second.value?.toString() ?? null, payout_address: second.destination, royalty_amount: first.value?.toString() ?? null, royalty_address: first.destination };
        } else if (first) {
          sale = { payout_amount: first.value?.toString() ?? null, payout_address: first.destination };
        }
        include.push(...payouts, prev);
      }
    }
    return found({
      type: 'nft_transfer',
      include,
      failed: b.failed,
      details: {
        nft_collection: item.collection,
        nft_item: node.source,
        nft_item_index: storedIndex(item.index),
        ...(msg.prevOwner ? { old_owner: msg.prevOwner } : {}),
        new_owner: node.destination,
        is_purchase: isPurchase,
        ...(isPurchase ? { price: bid!.bid.toString() } : {}),
        query_id: msg.queryId.toString(),
        response_destination: null,
        custom_payload: null,
        forward_payload: cellB64(msg.forwardPayload),
        forward_amount: null,
        comment: null,
        is_encrypted_comment: false,
        ...NO_SALE,
        marketplace: bid ? 'fragment' : null,
        payout_amount: sale.payout_amount ?? null,
        payout_address: sale.payout_address ?? null,
        royalty_amount: sale.royalty_amount ?? null,
        royalty_address: sale.royalty_address ?? null,
      },
    });
  },
});
