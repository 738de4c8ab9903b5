/**
 * Tonstakers liquid staking pool messages, as the reference classifier names them
 * (`indexer/events/blocks/messages/staking.py` of toncenter/ton-indexer).
 *
 * TL-B (the pool's `op-codes` from the Tonstakers contracts; only the opcodes are read here, the amounts come
 * from the jetton messages around them):
 *   deposit#47d54391 query_id:uint64 = PoolMsg;                 (user → pool, value = stake + 1 TON fee)
 *   payout_mint_jettons#1674b0a0 query_id:uint64 ... = Msg;       (pool → tsTON master, or → payout collection)
 *   withdraw#319b0cdc query_id:uint64 amount:Coins ... = PoolMsg; (tsTON master → pool, after a burn)
 *   withdrawal#0a77535c query_id:uint64 = Msg;                    (pool → user: an immediate withdrawal)
 *   init_nft#132f9a45 ... = Msg;                                  (payout collection → its new bill NFT)
 * A delayed withdrawal is paid when its bill NFT is burnt, one bill after another:
 *   start_distribution#1140a64f ... = Msg;                          (pool → payout collection)
 *   burn#f127fe4e ... = NftMsg;                                     (payout collection → bill)
 *   burn_notification#ed58b0b2 query_id:uint64 amount:Coins owner:MsgAddress = Msg;  (bill → collection)
 *   distributed_asset#db3b8abd ... = Msg;                           (collection → owner, value = the payout)
 */
import type { Address, Cell } from '@ton/core';
import { addrOrNull } from '../v3/common.js';

export const TONSTAKERS_OP = {
  deposit: 0x47d54391,
  payoutMintJettons: 0x1674b0a0,
  withdraw: 0x319b0cdc,
  withdrawal: 0x0a77535c,
  initNft: 0x132f9a45,
  startDistribution: 0x1140a64f,
  nftBurn: 0xf127fe4e,
  nftBurnNotification: 0xed58b0b2,
  distributedAsset: 0xdb3b8abd,
} as const;

/** burn_notification of a bill NFT: the tsTON it stood for and its owner. */
export function loadBillBurnNotification(body: Cell): { amount: bigint; owner: string | null } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const amount = s.loadCoins();
  return { amount, owner: addrOrNull(s.loadAddressAny() as Address | null) };
}

/** The deposit fee the pool keeps out of every deposit. */
export const TONSTAKERS_DEPOSIT_FEE = 1_000_000_000n;
