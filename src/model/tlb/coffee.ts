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
 * Vaults and MEV protection:
 *   native$00 = Asset;  jetton$01 chain:uint8 hash:uint256 = Asset;  extra$10 id:uint32 = Asset;
 *   create_vault#c0ffee06 query_id:uint64 asset:Asset = CreateVault;
 *   deploy#c0ffee22 code:^Cell data:^Cell action:(Maybe ^Cell) = Deploy;
 *   mev_protect_hold_funds#6bc79e7e query_id:uint64 = MevProtectHoldFunds;   service_fee#c0ffeea0 = ServiceFee;
 *   mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt = MevProtectFailedSwap;
 * Liquidity withdrawal (an LP jetton burn):
 *   payout_internal#c0ffee21 query_id:uint64 recipient:MsgAddressInt amount:Coins ... (pool → vault),
 *   payout#c0ffee32 query_id:uint64 (TON vault → user), notification#c0ffee36 query_id:uint64 body:^Cell,
 *   liquidity_withdrawal_event#c0ffee35 query_id:uint64 amount1:Coins amount2:Coins ...
 * Swaps (a vault's swap_internal to the first pool, one more per hop, the last pool's payout_internal to the vault
 * of the asset bought; each pool logs its step):
 *   swap_native#c0ffee00 query_id:uint64 amount:Coins ... (user → TON vault);  swap_jetton#c0ffee10 (forward payload)
 *   swap_internal#c0ffee20 query_id:uint64 ...
 *   swap_successful_event#c0ffee30 query_id:uint64 input:Asset input_amount:Coins output_amount:Coins ...
 * Liquidity provision (a depository contract per user and pool, deployed by the first asset, completed by the second):
 *   deposit_liquidity_native#c0ffee04 ... (user → TON vault);  deposit_liquidity_jetton#c0ffee12 (forward payload)
 *   create_liquidity_depository_request#c0ffee27 query_id:uint64 amount:Coins params:^Cell pool_params:^PoolParams
 *     sender:MsgAddressInt proof:^Cell (vault → factory);  deposit_liquidity_internal#c0ffee29 (depository → pool)
 *   deposit_liquidity_successful_event#c0ffee33 query_id:uint64 amount1:Coins amount2:Coins lp_amount:Coins ...
 *   pool_params first:Asset second:Asset amm:uint3 amm_settings:(Maybe ^Cell) = PoolParams;
 * Pool creation (a pool creator per asset, like a depository; the second asks the factory for the pool):
 *   create_pool_native#c0ffee02 query_id:uint64 amount:Coins params:PoolParams creation_params:PoolCreationParams
 *   create_pool_jetton#c0ffee11 params:PoolParams creation_params:PoolCreationParams (forward payload)
 *   public_pool_creation_params recipient:MsgAddressInt ...  (the first member of PoolCreationParams)
 *   create_pool_creator_request#c0ffee23 query_id:uint64 amount:Coins params:PoolParams ... (vault → factory)
 *   create_pool_request#c0ffee25 query_id:uint64 amount1:Coins amount2:Coins tx_initiator:MsgAddressInt ...
 */
import type { Cell, Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const COFFEE_OP = {
  createVault: 0xc0ffee06,
  deploy: 0xc0ffee22,
  mevProtectHoldFunds: 0x6bc79e7e,
  mevProtectFailedSwap: 0xee51ce51,
  serviceFee: 0xc0ffeea0,
  payoutInternal: 0xc0ffee21,
  payout: 0xc0ffee32,
  notification: 0xc0ffee36,
  withdrawalEvent: 0xc0ffee35,
  swapNative: 0xc0ffee00,
  swapInternal: 0xc0ffee20,
  swapSuccessfulEvent: 0xc0ffee30,
  createPoolNative: 0xc0ffee02,
  createPoolJetton: 0xc0ffee11,
  depositLiquidityNative: 0xc0ffee04,
  createPoolCreatorRequest: 0xc0ffee23,
  createPoolRequest: 0xc0ffee25,
  createLiquidityDepositoryRequest: 0xc0ffee27,
  depositLiquidityInternal: 0xc0ffee29,
  depositLiquiditySuccessfulEvent: 0xc0ffee33,
} as const;

/** A swap.coffee asset: null for TON; an extra currency has no jetton address, and is refused. */
export function loadCoffeeAsset(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 1) throw new Error(`swap.coffee asset tag ${tag} has no jetton address`);
  const chain = s.loadUint(8);
  return `${chain === 255 ? -1 : chain}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** A body's slice past its opcode and query id. */
function afterQueryId(body: Cell): Slice {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s;
}

/** The first members of a message that starts with `amount:Coins` (swap_native, deposit_liquidity_native, …). */
export const loadCoffeeAmount = (body: Cell): bigint => afterQueryId(body).loadCoins();

/** swap_successful_event: what went into the pool and what came out. */
export function loadCoffeeSwapEvent(body: Cell): { input: string | null; inputAmount: bigint; outputAmount: bigint } {
  const s = afterQueryId(body);
  const input = loadCoffeeAsset(s);
  const inputAmount = s.loadCoins();
  return { input, inputAmount, outputAmount: s.loadCoins() };
}

/** payout_internal: who is paid, and how much. */
export function loadCoffeePayoutInternal(body: Cell): { recipient: string; amount: bigint } {
  const s = afterQueryId(body);
  const recipient = rawUpper(s.loadAddress());
  return { recipient, amount: s.loadCoins() };
}

/** A pool's two assets (PoolParams' first members), null standing for TON. */
function loadPoolAssets(s: Slice): { first: string | null; second: string | null } {
  const first = loadCoffeeAsset(s);
  return { first, second: loadCoffeeAsset(s) };
}

/** create_liquidity_depository_request: the amount deposited, the pool's assets and the depositor. */
export function loadCoffeeDepositoryRequest(body: Cell): { amount: bigint; first: string | null; second: string | null; sender: string } {
  const s = afterQueryId(body);
  const amount = s.loadCoins();
  s.loadRef();
  const pool = loadPoolAssets(s.loadRef().beginParse());
  return { amount, ...pool, sender: rawUpper(s.loadAddress()) };
}

/** deposit_liquidity_successful_event: the LP tokens minted. */
export function loadCoffeeDepositEventLp(body: Cell): bigint {
  const s = afterQueryId(body);
  s.loadCoins();
  s.loadCoins();
  return s.loadCoins();
}

/** PoolParams then PoolCreationParams: the pool's assets and who gets its LP tokens. */
function loadPoolCreation(s: Slice): { first: string | null; second: string | null; recipient: string } {
  const pool = loadPoolAssets(s);
  s.loadUint(3);
  s.loadMaybeRef();
  return { ...pool, recipient: rawUpper(s.loadAddress()) };
}

/** create_pool_native: the TON provided, the pool's assets and the LP tokens' recipient. */
export function loadCoffeeCreatePoolNative(body: Cell): { amount: bigint; first: string | null; second: string | null; recipient: string } {
  const s = afterQueryId(body);
  const amount = s.loadCoins();
  return { amount, ...loadPoolCreation(s) };
}

/** create_pool_jetton (a jetton transfer's forward payload): the pool's assets and the LP tokens' recipient. */
export function loadCoffeeCreatePoolJetton(payload: Cell): { first: string | null; second: string | null; recipient: string } {
  const s = payload.beginParse();
  if (s.loadUint(32) !== COFFEE_OP.createPoolJetton) throw new Error('not a swap.coffee create_pool_jetton payload');
  return loadPoolCreation(s);
}

/** create_pool_creator_request: the pool's assets. */
export function loadCoffeeCreatorRequestAssets(body: Cell): { first: string | null; second: string | null } {
  const s = afterQueryId(body);
  s.loadCoins();
  return loadPoolAssets(s);
}

/** create_pool_request: both amounts and the initiator of the second creator. */
export function loadCoffeeCreatePoolRequest(body: Cell): { amount1: bigint; amount2: bigint; txInitiator: string } {
  const s = afterQueryId(body);
  const amount1 = s.loadCoins();
  const amount2 = s.loadCoins();
  return { amount1, amount2, txInitiator: rawUpper(s.loadAddress()) };
}

/** liquidity_withdrawal_event: the two amounts paid out. */
export function loadCoffeeWithdrawalEvent(body: Cell): { amount1: bigint; amount2: bigint } {
  const s = afterQueryId(body);
  const amount1 = s.loadCoins();
  return { amount1, amount2: s.loadCoins() };
}

/** create_vault: the vault's asset (null for TON); an extra currency has no jetton address, and is refused. */
export const loadCoffeeCreateVaultAsset = (body: Cell): string | null => loadCoffeeAsset(afterQueryId(body));

export const COFFEE_STAKING_OP = {
  deposit: 0xf9471134,
  claimRewards: 0xb30c7310,
  positionWithdraw: 0xcb03bfaf,
} as const;

export function loadCoffeeClaimRewards(body: Cell): { jettonWallet: string; amount: bigint; receiver: string } {
  const s = afterQueryId(body);
  const jettonWallet = rawUpper(s.loadAddress());
  const amount = s.loadCoins();
  return { jettonWallet, amount, receiver: rawUpper(s.loadAddress()) };
}

export function loadCoffeePositionWithdraw2(body: Cell): { nftId: bigint; owner: string; points: bigint } {
  const s = afterQueryId(body);
  const nftId = s.loadUintBig(64);
  const owner = rawUpper(s.loadAddress());
  return { nftId, owner, points: s.loadCoins() };
}

export function loadCoffeePositionWithdraw3(body: Cell): { jettonWallet: string; amount: bigint } {
  const s = afterQueryId(body);
  const jettonWallet = rawUpper(s.loadAddress());
  return { jettonWallet, amount: s.loadCoins() };
}
