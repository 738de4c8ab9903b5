/**
 * jVault staking (pools that lock a jetton and mint stake jettons, a stake wallet per staker), as the reference
 * classifier reads it (`indexer/events/blocks/messages/jvault.py` of toncenter/ton-indexer).
 *
 * TL-B (the members read here):
 *   stake payload (a jetton transfer's forward payload to the pool): op:uint32 lock_period:uint32 ...
 *   receive_jettons#d68a4ac1 ... (pool → stake wallet)
 *   unstake_jettons#499a9262 query_id:uint64 jettons_to_unstake:Coins force_unstake:Bool = InternalMsgBody;
 *   unstake_request#0168d4b7 query_id:uint64 jettons_to_unstake:Coins ... = InternalMsgBody;
 *   claim_rewards#78d9f109 query_id:uint64 jettons_to_claim:(HashmapE 267 Bit) = InternalMsgBody;
 *   send_claimed_rewards#44bc1fe3, request_update_rewards#f5c5baa3, update_rewards#ae9307ce,
 *   request_update_referrer#55c35b40, update_referrer#076ee4e0, set_data#383411ea, cancel_stake#9eada1d9
 *   stake wallet data: staking_pool:MsgAddressInt stake_jetton_minter:MsgAddressInt ...
 */
import { Dictionary, type Cell } from '@ton/core';
import { rawUpper } from '../address.js';

export const JVAULT_OP = {
  receiveJettons: 0xd68a4ac1,
  unstakeJettons: 0x499a9262,
  unstakeRequest: 0x0168d4b7,
  claim: 0x78d9f109,
  sendClaimedRewards: 0x44bc1fe3,
  requestUpdateRewards: 0xf5c5baa3,
  updateRewards: 0xae9307ce,
  requestUpdateReferrer: 0x55c35b40,
  updateReferrer: 0x076ee4e0,
  setData: 0x383411ea,
  cancelStake: 0x9eada1d9,
} as const;

/** A stake's lock period (seconds), from the transfer's forward payload. */
export function loadJvaultStakePeriod(payload: Cell): number {
  const s = payload.beginParse();
  s.skip(32);
  return s.loadUint(32);
}

/** unstake_jettons and unstake_request: the stake jettons asked back. */
export function loadJvaultUnstakeAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}

/** claim_rewards: the reward jettons asked for. */
export function loadJvaultClaimJettons(body: Cell): string[] {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadDict(Dictionary.Keys.Address(), Dictionary.Values.Bool()).keys().map(rawUpper);
}

/** A stake wallet's data: its pool and the stake jetton's minter. */
export function loadJvaultStakeWalletData(data: Cell): { pool: string; stakeJetton: string } {
  const s = data.beginParse();
  const pool = rawUpper(s.loadAddress());
  return { pool, stakeJetton: rawUpper(s.loadAddress()) };
}
