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
} as const;

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
