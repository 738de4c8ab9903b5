/**
 * Telegram items (Fragment usernames and numbers): the bid info an item puts in the payload of its
 * `ownership_assigned` when an auction or a direct sale ends.
 *
 * TL-B (from the Telemint contracts, `telemint.tlb`):
 *   teleitem_bid_info#38127de1 bid:Grams bid_ts:uint32 = TeleitemBidInfo;
 *   teleitem_msg_deploy#299a3e15 ... = InternalMsgBody;   (collection → new item: a mint, not a sale)
 *   auction_fill_up#370fec51 query_id:uint64 = InternalMsgBody;   (item → royalty and seller payouts)
 */
import type { Cell } from '@ton/core';

export const TELEITEM_OP = { bidInfo: 0x38127de1, auctionFillUp: 0x370fec51 } as const;

/** A Telemint collection deploying an item. */
export const TELEMINT_DEPLOY_OP = 0x299a3e15;

export interface TeleitemBidInfo {
  bid: bigint;
  bidTs: number;
}

/** The bid info in an ownership_assigned payload; null when the payload is something else. */
export function loadTeleitemBidInfo(payload: Cell | null): TeleitemBidInfo | null {
  if (!payload) return null;
  try {
    const s = payload.beginParse();
    if (s.loadUint(32) !== TELEITEM_OP.bidInfo) return null;
    return { bid: s.loadCoins(), bidTs: s.loadUint(32) };
  } catch {
    return null;
  }
}
