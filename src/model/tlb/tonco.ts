/**
 * TONCO (concentrated-liquidity DEX): the router's pool creation and a position's burn through the pool, its NFT
 * and the router's payout, as the reference classifier reads them (`indexer/events/blocks/messages/liquidity.py`
 * and `swaps.py` of toncenter/ton-indexer; TONCO's router/pool/position TL-B).
 *
 * TL-B (the members read here):
 *   routerv3_create_pool#2e3034ef query_id:uint64 jetton_wallet0:MsgAddress jetton_wallet1:MsgAddress
 *     tick_spacing:int24 initial_price_x96:uint160 protocol_fee:uint16 lp_fee_base:uint16 lp_fee_current:uint16
 *     nftv3_content:^Cell nftv3item_content:^Cell
 *     minter_cell:^[ jetton0_minter:MsgAddress jetton1_minter:MsgAddress controller_addr:MsgAddress ]
 *   poolv3_init#441c39ed query_id:uint64 from_admin:Bool has_admin:Bool admin_addr:MsgAddress
 *     has_controller:Bool controller_addr:MsgAddress set_spacing:Bool tick_spacing:int24 set_price:Bool
 *     initial_price_x96:uint160 set_active:Bool pool_active:Bool ...
 *   poolv3_start_burn#530b5f2c query_id:uint64 burned_index:uint64 liquidity_to_burn:uint128 tick_lower:int24
 *     tick_upper:int24
 *   positionnftv3_position_burn#46ca335a query_id:uint64 nft_owner:MsgAddress ...
 *   poolv3_burn#d73ac09d query_id:uint64 recipient:MsgAddress burned_index:uint64 ...
 *   poolv3_swap#a7fb58f8 query_id:uint64 owner_address:MsgAddress source_wallet:MsgAddress ...   (router → pool)
 *   (as a transfer's forward payload) poolv3_swap#a7fb58f8 target_router_wallet:MsgAddress price_limit:uint160
 *     min_out:Coins recipient:MsgAddress payload:(Maybe ^Cell)   (the payload another hop's request)
 *   (as a transfer's forward payload) poolv3_fund_account#4468de77 other_jetton_wallet:MsgAddress ...
 *   accountv3_add_liquidity#3ebe5431 query_id:uint64 new_amount0:Coins new_amount1:Coins new_enough0:Coins
 *     new_enough1:Coins liquidity:uint128 tick_lower:int24 tick_upper:int24   (pool → the owner's account)
 *   poolv3_mint_and_refund#81702ef8 ...   (account → pool, both sides funded)
 *   positionnftv3_position_init#d5ecca2a query_id:uint64 user_address:MsgAddress liquidity:uint128
 *     tick_lower:int24 tick_upper:int24 ^[ fee_growth_inside_0:uint256 fee_growth_inside_1:uint256
 *     nft_index:uint64 ... ]
 *   routerv3_pay_to#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress exit_code:uint32
 *     seqno:uint64 coinsinfo_cell:(Maybe ^[ amount0:Coins jetton0_address:MsgAddress amount1:Coins
 *     jetton1_address:MsgAddress ]) ...
 */
import type { Cell, Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const TONCO_OP = {
  createPool: 0x2e3034ef,
  poolInit: 0x441c39ed,
  startBurn: 0x530b5f2c,
  positionBurn: 0x46ca335a,
  poolBurn: 0xd73ac09d,
  payTo: 0xa1daa96d,
  swap: 0xa7fb58f8,
  fundAccount: 0x4468de77,
  addLiquidity: 0x3ebe5431,
  mintAndRefund: 0x81702ef8,
  positionInit: 0xd5ecca2a,
} as const;

/** Pay-to exit codes of a swap that went through (a burn's payout says 201). */
export const TONCO_SWAP_OK: readonly number[] = [0, 200];

/** The router's own wallet of TONCO's wrapped TON (pTON): a payout from it is TON. */
export const TONCO_ROUTER_PTON_WALLET = '0:871DA9215B14902166F0EA2A16DB56278D528108377F8158C5F4CCFDFDD22E17';

const maybeAddr = (s: Slice): string | null => {
  const a = s.loadMaybeAddress();
  return a ? rawUpper(a) : null;
};

const opened = (body: Cell, bits: number): Slice => {
  const s = body.beginParse();
  s.skip(32 + bits);
  return s;
};

export interface ToncoCreatePool {
  routerWallet0: string | null;
  routerWallet1: string | null;
  tickSpacing: number;
  initialPriceX96: bigint;
  protocolFee: number;
  lpFeeBase: number;
  lpFeeCurrent: number;
  minter0: string | null;
  minter1: string | null;
}

export function loadToncoCreatePool(body: Cell): ToncoCreatePool {
  const s = opened(body, 64);
  const routerWallet0 = maybeAddr(s);
  const routerWallet1 = maybeAddr(s);
  const tickSpacing = s.loadInt(24);
  const initialPriceX96 = s.loadUintBig(160);
  const protocolFee = s.loadUint(16);
  const lpFeeBase = s.loadUint(16);
  const lpFeeCurrent = s.loadUint(16);
  s.loadRef();
  s.loadRef();
  const minters = s.loadRef().beginParse();
  return { routerWallet0, routerWallet1, tickSpacing, initialPriceX96, protocolFee, lpFeeBase, lpFeeCurrent, minter0: maybeAddr(minters), minter1: maybeAddr(minters) };
}

/** poolv3_init: whether it leaves the pool active. */
export function loadToncoPoolInitActive(body: Cell): boolean {
  const s = opened(body, 64 + 2);
  s.loadMaybeAddress();
  s.skip(1);
  s.loadMaybeAddress();
  s.skip(1 + 24 + 1 + 160 + 1);
  return s.loadBit();
}

export function loadToncoStartBurn(body: Cell): { burnedIndex: bigint; liquidity: bigint; tickLower: number; tickUpper: number } {
  const s = opened(body, 64);
  const burnedIndex = s.loadUintBig(64);
  const liquidity = s.loadUintBig(128);
  return { burnedIndex, liquidity, tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
}

/** positionnftv3_position_burn: the position's owner. */
export const loadToncoPositionBurnOwner = (body: Cell): string | null => maybeAddr(opened(body, 64));

/** poolv3_burn: the burned position's index. */
export function loadToncoPoolBurnIndex(body: Cell): bigint {
  const s = opened(body, 64);
  s.loadMaybeAddress();
  return s.loadUintBig(64);
}

export interface ToncoPayTo {
  receiver0: string | null;
  receiver1: string | null;
  exitCode: number;
  amount0: bigint | null;
  wallet0: string | null;
  amount1: bigint | null;
  wallet1: string | null;
}

export function loadToncoPayTo(body: Cell): ToncoPayTo {
  const s = opened(body, 64);
  const receiver0 = maybeAddr(s);
  const receiver1 = maybeAddr(s);
  const exitCode = s.loadUint(32);
  s.skip(64);
  const coins = s.loadMaybeRef()?.beginParse();
  if (!coins) return { receiver0, receiver1, exitCode, amount0: null, wallet0: null, amount1: null, wallet1: null };
  const amount0 = coins.loadCoins();
  const wallet0 = maybeAddr(coins);
  const amount1 = coins.loadCoins();
  return { receiver0, receiver1, exitCode, amount0, wallet0, amount1, wallet1: maybeAddr(coins) };
}

/** poolv3_swap from the router: the router's wallet of the asset the pool takes in. */
export function loadToncoSwapSourceWallet(body: Cell): string | null {
  const s = opened(body, 64);
  s.loadMaybeAddress();
  return maybeAddr(s);
}

/**
 * A swap request in a transfer's forward payload: each hop's target router wallet with its minimum out, the
 * nested hops after it (a nested payload that does not parse ends the list).
 */
export function loadToncoSwapTargets(payload: Cell): { wallet: string; minOut: bigint }[] {
  const s = payload.beginParse();
  s.skip(32);
  const wallet = maybeAddr(s);
  s.skip(160);
  const minOut = s.loadCoins();
  s.loadMaybeAddress();
  const next = s.loadMaybeRef();
  const out = wallet ? [{ wallet, minOut }] : [];
  if (next) {
    try {
      if (next.beginParse().preloadUint(32) === TONCO_OP.swap) out.push(...loadToncoSwapTargets(next));
    } catch {
      // the reference keeps the hops read so far
    }
  }
  return out;
}

/** A transfer's forward payload funding a position: the router's wallet of the other asset; null when it is another payload. */
export function loadToncoFundPayloadOtherWallet(payload: Cell): { otherWallet: string | null } | null {
  const s = payload.beginParse();
  if (s.remainingBits < 32 || s.loadUint(32) !== TONCO_OP.fundAccount) return null;
  return { otherWallet: maybeAddr(s) };
}

export interface ToncoAddLiquidity {
  newAmount0: bigint;
  newEnough0: bigint;
  newEnough1: bigint;
  tickLower: number;
  tickUpper: number;
}

export function loadToncoAddLiquidity(body: Cell): ToncoAddLiquidity {
  const s = opened(body, 64);
  const newAmount0 = s.loadCoins();
  s.loadCoins();
  const newEnough0 = s.loadCoins();
  const newEnough1 = s.loadCoins();
  s.skip(128);
  return { newAmount0, newEnough0, newEnough1, tickLower: s.loadInt(24), tickUpper: s.loadInt(24) };
}

/** positionnftv3_position_init: the liquidity minted and the position's index. */
export function loadToncoPositionInit(body: Cell): { liquidity: bigint; nftIndex: bigint } {
  const s = opened(body, 64);
  s.loadMaybeAddress();
  const liquidity = s.loadUintBig(128);
  const fees = s.loadRef().beginParse();
  fees.skip(512);
  return { liquidity, nftIndex: fees.loadUintBig(64) };
}
