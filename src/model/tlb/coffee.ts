/**
 * swap.coffee staking (a pool minting a position NFT per deposit), as the reference classifier reads it
 * (`indexer/events/blocks/messages/coffee.py` of toncenter/ton-indexer).
 *
 * TL-B (the members read here):
 *   staking_deposit#f9471134 query_id:uint64 sender:MsgAddressInt jetton_amount:Coins from_user:MsgAddressInt
 *     period_id:uint32 = InMsgBody;
 *   staking_claim_rewards#b30c7310 query_id:uint64 jetton_wallet:MsgAddressInt jetton_amount:Coins
 *     receiver:MsgAddressInt payload:(Maybe ^CoffeeStakingForwardData) = InMsgBody;
 *   the three legs of a withdrawal share one opcode, cb03bfaf:
 *   staking_position_withdraw_1 query_id:uint64                                              (owner → position NFT)
 *   staking_position_withdraw_2 query_id:uint64 nft_id:uint64 owner:MsgAddressInt points:Coins
 *     jetton_data:^[wallet:MsgAddressInt amount:Coins]                                       (position NFT → pool)
 *   staking_position_withdraw_3 query_id:uint64 jetton_wallet:MsgAddressInt jetton_amount:Coins
 *     owner:MsgAddressInt                                                                    (pool → pool, and its log)
 */
import type { Cell } from '@ton/core';
import { rawUpper } from '../address.js';

export const COFFEE_STAKING_OP = {
  deposit: 0xf9471134,
  claimRewards: 0xb30c7310,
  positionWithdraw: 0xcb03bfaf,
} as const;

export function loadCoffeeClaimRewards(body: Cell): { jettonWallet: string; amount: bigint; receiver: string } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const jettonWallet = rawUpper(s.loadAddress());
  const amount = s.loadCoins();
  return { jettonWallet, amount, receiver: rawUpper(s.loadAddress()) };
}

export function loadCoffeePositionWithdraw2(body: Cell): { nftId: bigint; owner: string; points: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const nftId = s.loadUintBig(64);
  const owner = rawUpper(s.loadAddress());
  return { nftId, owner, points: s.loadCoins() };
}

export function loadCoffeePositionWithdraw3(body: Cell): { jettonWallet: string; amount: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const jettonWallet = rawUpper(s.loadAddress());
  return { jettonWallet, amount: s.loadCoins() };
}
