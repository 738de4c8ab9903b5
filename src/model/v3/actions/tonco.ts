/**
 * TONCO (concentrated-liquidity DEX): pool creation through the router, and a position's withdrawal (the burn
 * request, the position NFT's burn, the pool's burn and the router's payout of the two assets). The reference's
 * rules: `indexer/events/blocks/liquidity.py` of toncenter/ton-indexer.
 */
import { PTON_MASTERS, PTON_OP, loadPtonTonAmount } from '../../tlb/stonfi.js';
import {
  TONCO_OP,
  TONCO_ROUTER_PTON_WALLET,
  loadToncoCreatePool,
  loadToncoPayTo,
  loadToncoPoolBurnIndex,
  loadToncoPoolInitActive,
  loadToncoPositionBurnOwner,
  loadToncoStartBurn,
} from '../../tlb/tonco.js';
import { COMMON_OP } from '../../tlb/common.js';
import { defineMatcher, detailsOf, found, isCall, type Block, type ContractInfo } from './block.js';

export const toncoDeployPool = defineMatcher({
  name: 'tonco_deploy_pool',
  addressKeys: { tonco_deploy_pool: ['source', 'pool', 'router', 'router_jetton_wallet_1', 'router_jetton_wallet_2', 'jetton_minter_1', 'jetton_minter_2'] },
  async match(b) {
    if (!isCall(b, TONCO_OP.createPool)) return null;
    const init = b.next.find((n) => isCall(n, TONCO_OP.poolInit));
    if (!init) return null;
    const excess = init.next.find((n) => isCall(n, COMMON_OP.excesses));
    const request = loadToncoCreatePool(b.nodes[0]!.body);
    return found({
      type: 'tonco_deploy_pool',
      include: [b, init, ...(excess ? [excess] : [])],
      // the reference counts a pool whose init message was sent as deployed
      failed: false,
      details: {
        source: b.nodes[0]!.source,
        pool: init.nodes[0]!.destination,
        router: b.nodes[0]!.destination,
        router_jetton_wallet_1: request.routerWallet0,
        router_jetton_wallet_2: request.routerWallet1,
        jetton_minter_1: request.minter0,
        jetton_minter_2: request.minter1,
        tick_spacing: request.tickSpacing.toString(),
        initial_price_x96: request.initialPriceX96.toString(),
        protocol_fee: request.protocolFee.toString(),
        lp_fee_base: request.lpFeeBase.toString(),
        lp_fee_current: request.lpFeeCurrent.toString(),
        pool_active: loadToncoPoolInitActive(init.nodes[0]!.body),
      },
    });
  },
});

interface Payout {
  amount: string | null;
  asset: string | null;
  dexJettonWallet: string | null;
  wallet: string | null;
}

/** A payout the router sent (a jetton transfer, TON when a pTON transfer follows it); `extra` collects that pTON call. */
function sentPayout(transfer: Block, extra: Block[]): Payout {
  const d = detailsOf(transfer, 'jetton_transfer')!;
  const pton = transfer.next.find((n) => isCall(n, PTON_OP.tonTransfer));
  if (pton) extra.push(pton);
  return {
    amount: pton ? loadPtonTonAmount(pton.nodes[0]!.body).toString() : (d.amount ?? null),
    asset: pton ? null : (d.asset ?? null),
    dexJettonWallet: d.sender_jetton_wallet ?? null,
    wallet: d.receiver_jetton_wallet ?? null,
  };
}

/** A payout the router did not send (nothing owed on that side): what its message says, the asset from its wallet. */
async function announcedPayout(amount: bigint | null, wallet: string | null, receiver: string | null, info: ContractInfo): Promise<Payout> {
  let asset: string | null = null;
  if (wallet) {
    const w = await info.jettonWallet(wallet);
    if (w && !PTON_MASTERS.includes(w.jetton)) asset = w.jetton;
  }
  return { amount: (amount ?? 0n).toString(), asset, dexJettonWallet: wallet, wallet: receiver };
}

export const toncoWithdrawLiquidity = defineMatcher({
  name: 'tonco_withdraw_liquidity',
  addressKeys: { dex_withdraw_liquidity: ['source', 'pool', 'asset_1', 'asset_2', 'user_jetton_wallet_1', 'user_jetton_wallet_2', 'burnt_nft_address'] },
  async match(b, info) {
    if (!isCall(b, TONCO_OP.startBurn)) return null;
    const positionBurn = b.next.find((n) => isCall(n, TONCO_OP.positionBurn));
    const poolBurn = positionBurn?.next.find((n) => isCall(n, TONCO_OP.poolBurn));
    const payTo = poolBurn?.next.find((n) => isCall(n, TONCO_OP.payTo));
    if (!positionBurn || !poolBurn || !payTo) return null;
    const request = loadToncoStartBurn(b.nodes[0]!.body);
    const burnedIndex = loadToncoPoolBurnIndex(poolBurn.nodes[0]!.body) || request.burnedIndex;
    const pay = loadToncoPayTo(payTo.nodes[0]!.body);
    // the router's wTTON wallet pays TON
    const routerWallet = (w: string | null): string | null => (w === TONCO_ROUTER_PTON_WALLET ? null : w);
    const announced = [
      { amount: pay.amount0, wallet: routerWallet(pay.wallet0), receiver: pay.receiver0 },
      { amount: pay.amount1, wallet: routerWallet(pay.wallet1), receiver: pay.receiver1 },
    ];
    const transfers = payTo.next.filter((n) => n.action === 'jetton_transfer').slice(0, 2);
    const extra: Block[] = [];
    const payouts: Payout[] = [];
    for (let i = 0; i < 2; i++) {
      const t = transfers[i];
      const a = announced[i]!;
      payouts.push(t ? sentPayout(t, extra) : await announcedPayout(a.amount, a.wallet, a.receiver, info));
    }
    // slot 1 is the pool's asset 0, as the router's message orders them
    if (payouts[0]!.dexJettonWallet !== announced[0]!.wallet) payouts.reverse();
    const [p1, p2] = payouts as [Payout, Payout];
    return found({
      type: 'dex_withdraw_liquidity',
      blockType: 'tonco_withdraw_liquidity',
      include: [b, positionBurn, poolBurn, payTo, ...transfers, ...extra],
      failed: pay.exitCode !== 0 && pay.exitCode !== 201,
      details: {
        dex: 'tonco',
        amount_1: p1.amount,
        amount_2: p2.amount,
        asset_1: p1.asset,
        asset_2: p2.asset,
        user_jetton_wallet_1: p1.wallet,
        user_jetton_wallet_2: p2.wallet,
        lp_tokens_burnt: request.liquidity.toString(),
        is_refund: null,
        source: loadToncoPositionBurnOwner(positionBurn.nodes[0]!.body),
        pool: b.nodes[0]!.destination,
        destination_liquidity: null,
        burnt_nft_index: burnedIndex.toString(),
        burnt_nft_address: positionBurn.nodes[0]!.destination,
        tick_lower: request.tickLower.toString(),
        tick_upper: request.tickUpper.toString(),
      },
    });
  },
});

export const TONCO_MATCHERS = [toncoDeployPool, toncoWithdrawLiquidity];
