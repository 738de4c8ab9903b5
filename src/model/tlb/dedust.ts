/**
 * DeDust v2 messages (vaults, pools), as the reference classifier reads them.
 *
 * TL-B (DeDust's published schema, docs.dedust.io "TL-B schemes"):
 *   native$0000 = Asset;  jetton$0001 workchain_id:int8 address:uint256 = Asset;
 *   step#_ pool_addr:MsgAddressInt params:SwapStepParams = SwapStep;
 *   step_params#_ kind:SwapKind limit:Coins next:(Maybe ^SwapStep) = SwapStepParams;   (kind: one bit)
 *   swap#ea06185d query_id:uint64 amount:Coins _:SwapStep swap_params:^SwapParams = InMsgBody;  (to the native vault)
 *   swap#e3a0d482 _:SwapStep swap_params:^SwapParams = ForwardPayload;                      (to a jetton vault)
 *   swap_external#61ee542d ... = InMsgBody;      (vault → pool)
 *   swap_peer#72aca8aa ... = InMsgBody;          (pool → next pool of a multi-hop swap)
 *   pay_out_from_pool#ad4eb6f5 query_id:uint64 proof:^Cell amount:Coins ... = InMsgBody;  (pool → vault)
 *   payout#474f86cf query_id:uint64 ... = InMsgBody;                                    (native vault → user)
 *   swap#9c610de3 asset_in:Asset asset_out:Asset amount_in:Coins amount_out:Coins
 *     ^[ sender_addr:MsgAddressInt referral_addr:MsgAddress reserve0:Coins reserve1:Coins ] = ExtOutMsgBody;
 * Liquidity deposits (two assets, each through its vault, meeting in a deposit contract):
 *   deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params:PoolParams
 *     deposit_params:^[ min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins ]
 *     fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = InMsgBody;          (TON to the native vault)
 *   deposit_liquidity#40e108d6 pool_params:PoolParams min_lp_amount:Coins asset0_target_balance:Coins
 *     asset1_target_balance:Coins fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = ForwardPayload;
 *   pool_params$_ pool_type:PoolType asset0:Asset asset1:Asset = PoolParams;   (pool_type: one bit)
 *   create_liquidity_deposit#f04ec526 ... (vault → factory)   deploy#9b3aa3fa ... (factory → deposit contract)
 *   top_up#54240fe5 ... (factory → deposit contract)          destroy#aae79256 ... (pool → deposit contract)
 *   deposit_liquidity_all#b56b9598 query_id:uint64 proof:^Cell owner_addr:MsgAddressInt min_lp_amount:Coins
 *     ^[ asset0:Asset asset0_amount:Coins asset1:Asset asset1_amount:Coins ]
 *     fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) = InMsgBody;          (deposit contract → pool)
 *   cancel_deposit#e1a36cd4 ... (pool → deposit contract: rejected)
 *   pay_out_from_deposit#6b0b787f ... (deposit contract → vault: what the pool did not take)
 */
import { Address, type Cell, type Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const DEDUST_OP = {
  swapNative: 0xea06185d,
  swapJettonPayload: 0xe3a0d482,
  swapExternal: 0x61ee542d,
  swapPeer: 0x72aca8aa,
  payoutFromPool: 0xad4eb6f5,
  payout: 0x474f86cf,
  swapEvent: 0x9c610de3,
  depositNative: 0xd55e4686,
  depositJettonPayload: 0x40e108d6,
  askLiquidityFactory: 0xf04ec526,
  deployDepositContract: 0x9b3aa3fa,
  topUpDepositContract: 0x54240fe5,
  depositLiquidityAll: 0xb56b9598,
  rejectDeposit: 0xe1a36cd4,
  destroyDepositContract: 0xaae79256,
  returnExcessFromVault: 0x6b0b787f,
} as const;

/** An asset: null for TON, else the jetton master (raw uppercase). */
export type DedustAsset = string | null;

/** The reference reads the 4-bit kind as "native or jetton" (anything but native is read as a jetton). */
export function loadDedustAsset(s: Slice): DedustAsset {
  if (s.loadUint(4) === 0) return null;
  const wc = s.loadInt(8);
  return rawUpper(new Address(wc, s.loadBuffer(32)));
}

/** The pools of a swap's steps, in order. */
export function loadSwapSteps(s: Slice): string[] {
  const pools: string[] = [];
  let cur: Slice | null = s;
  while (cur) {
    pools.push(rawUpper(cur.loadAddress()));
    cur.loadBit();
    cur.loadCoins();
    const next: Cell | null = cur.loadMaybeRef();
    cur = next ? next.beginParse() : null;
  }
  return pools;
}

/** A native-vault swap request: the amount in and the slice at its first step. */
export function loadNativeSwap(body: Cell): { amount: bigint; steps: Slice } {
  const s = body.beginParse();
  s.skip(32 + 64);
  const amount = s.loadCoins();
  return { amount, steps: s };
}

export function loadPayoutFromPoolAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  s.loadRef();
  return s.loadCoins();
}

export interface DedustSwapEvent {
  assetIn: DedustAsset;
  assetOut: DedustAsset;
  amountIn: bigint;
  amountOut: bigint;
}

export function loadSwapEvent(body: Cell): DedustSwapEvent {
  const s = body.beginParse();
  s.skip(32);
  return { assetIn: loadDedustAsset(s), assetOut: loadDedustAsset(s), amountIn: s.loadCoins(), amountOut: s.loadCoins() };
}

export interface DedustDepositTargets {
  asset0: DedustAsset;
  asset1: DedustAsset;
  asset0TargetBalance: bigint;
  asset1TargetBalance: bigint;
}

/** A TON deposit to the native vault: its amount and the pool's targets. */
export function loadNativeDeposit(body: Cell): DedustDepositTargets & { amount: bigint } {
  const s = body.beginParse();
  if (s.loadUint(32) !== DEDUST_OP.depositNative) throw new Error('not a native deposit');
  s.skip(64);
  const amount = s.loadCoins();
  s.loadBit();
  const asset0 = loadDedustAsset(s);
  const asset1 = loadDedustAsset(s);
  const params = s.loadRef().beginParse();
  params.loadCoins();
  return { amount, asset0, asset1, asset0TargetBalance: params.loadCoins(), asset1TargetBalance: params.loadCoins() };
}

/** The forward payload of a jetton deposit to a jetton vault. */
export function loadJettonDepositPayload(payload: Slice): DedustDepositTargets {
  if (payload.loadUint(32) !== DEDUST_OP.depositJettonPayload) throw new Error('not a jetton deposit');
  payload.loadBit();
  const asset0 = loadDedustAsset(payload);
  const asset1 = loadDedustAsset(payload);
  payload.loadCoins();
  return { asset0, asset1, asset0TargetBalance: payload.loadCoins(), asset1TargetBalance: payload.loadCoins() };
}

/** The deposit contract's call to the pool: the owner and both assets with their amounts. */
export function loadDepositLiquidityAll(body: Cell): { owner: string; asset0: DedustAsset; asset0Amount: bigint; asset1: DedustAsset; asset1Amount: bigint } {
  const s = body.beginParse();
  s.skip(32 + 64);
  s.loadRef();
  const owner = rawUpper(s.loadAddress());
  s.loadCoins();
  const f = s.loadRef().beginParse();
  return { owner, asset0: loadDedustAsset(f), asset0Amount: f.loadCoins(), asset1: loadDedustAsset(f), asset1Amount: f.loadCoins() };
}
