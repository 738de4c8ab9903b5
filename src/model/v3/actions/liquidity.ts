/** What the liquidity deposits and withdrawals of several DEXes print alike. */
import type { DexWithdrawLiquidityDetails } from '../../../api/v3/action-details.js';

/** One asset deposited or paid out: the amount, the asset (null: TON) and the user's jetton wallet it left or reached. */
export interface LiquidityLeg {
  amount: string | null;
  asset: string | null;
  wallet: string | null;
}

/** The two asset slots of a deposit or withdrawal (`amount_1` … `user_jetton_wallet_2`), in the reference's key order. */
export function assetSlots(legs: readonly (LiquidityLeg | undefined)[]) {
  const [leg1, leg2] = legs;
  return {
    amount_1: leg1?.amount ?? null,
    amount_2: leg2?.amount ?? null,
    asset_1: leg1?.asset ?? null,
    asset_2: leg2?.asset ?? null,
    user_jetton_wallet_1: leg1?.wallet ?? null,
    user_jetton_wallet_2: leg2?.wallet ?? null,
  };
}

/** The withdrawal's own fields besides its two assets. */
type WithdrawalFields = Pick<DexWithdrawLiquidityDetails, 'lp_tokens_burnt' | 'is_refund' | 'source' | 'pool' | 'destination_liquidity'>;

/**
 * The details of a withdrawal that burnt LP jettons (no position NFT, no ticks), its assets in slot order, keyed in
 * the reference's order.
 */
export function lpWithdrawalDetails(dex: string, legs: readonly (LiquidityLeg | undefined)[], f: WithdrawalFields): DexWithdrawLiquidityDetails {
  return {
    dex,
    ...assetSlots(legs),
    lp_tokens_burnt: f.lp_tokens_burnt ?? null,
    is_refund: f.is_refund ?? null,
    source: f.source ?? null,
    pool: f.pool ?? null,
    destination_liquidity: f.destination_liquidity ?? null,
    burnt_nft_index: null,
    burnt_nft_address: null,
    tick_lower: null,
    tick_upper: null,
  };
}
