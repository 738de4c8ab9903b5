/**
 * TONCO (concentrated-liquidity DEX): swaps (one pool or several, the router paying itself between hops), pool
 * creation through the router, and a position's withdrawal (the burn request, the position NFT's burn, the pool's
 * burn and the router's payout of the two assets). The reference's rules: `indexer/events/blocks/swaps.py` and
 * `liquidity.py` of toncenter/ton-indexer.
 */
import type { JettonSwapPeerSwap, JettonSwapTransfer, VaultExcess } from '../../../api/v3/action-details.js';
import { Address } from '@ton/core';
import { rawUpper } from '../../address.js';
import { JETTON_OP, loadJettonTransferNotification } from '../../tlb/jetton.js';
import { PTON_MASTERS, PTON_OP, loadPtonTonAmount } from '../../tlb/stonfi.js';
import {
  TONCO_OP,
  TONCO_ROUTER_PTON_WALLET,
  TONCO_SWAP_OK,
  loadToncoSwapSourceWallet,
  loadToncoSwapTargets,
  loadToncoAddLiquidity,
  loadToncoCreatePool,
  loadToncoFundPayloadOtherWallet,
  loadToncoPositionInit,
  loadToncoPayTo,
  loadToncoPoolBurnIndex,
  loadToncoPoolInitActive,
  loadToncoPositionBurnOwner,
  loadToncoStartBurn,
} from '../../tlb/tonco.js';
import { COMMON_OP } from '../../tlb/common.js';
import { defineMatcher, detailsOf, found, isCall, type Block, type ContractInfo } from './block.js';
import { routerSwapIn, transferLeg } from './stonfi.js';

/** A jetton wallet's asset as a swap prints it: null for TON (a pTON wallet), undefined when it is not known. */
async function walletAsset(wallet: string, info: ContractInfo): Promise<string | null | undefined> {
  const w = await info.jettonWallet(wallet);
  if (!w) return undefined;
  return PTON_MASTERS.includes(w.jetton) ? null : w.jetton;
}

interface Hop {
  swap: Block;
  payTo: Block;
}

/**
 * What follows a hop's pay_to: the router paying itself into the next hop's swap (a jetton transfer, or pTON
 * then the notification), or the final transfer out.
 */
function afterPayout(payTo: Block): { next: Block; via: Block[] } | { out: Block } | null {
  const transfers = payTo.next.filter((n) => n.action === 'jetton_transfer');
  for (const t of transfers) {
    const pton = t.next.find((n) => isCall(n, PTON_OP.tonTransfer));
    const notification = pton?.next.find((n) => isCall(n, JETTON_OP.transferNotification));
    const swap = notification?.next.find((n) => isCall(n, TONCO_OP.swap));
    if (swap) return { next: swap, via: [t, pton!, notification!] };
  }
  for (const t of transfers) {
    const swap = t.next.find((n) => isCall(n, TONCO_OP.swap));
    if (swap) return { next: swap, via: [t] };
  }
  return transfers[0] ? { out: transfers[0] } : null;
}

/** A hop's payout as the reference reads it for peer swaps: the larger of the two amounts and its router wallet. */
function hopOut(payTo: Block): { amount: bigint; wallet: string } | null {
  const p = loadToncoPayTo(payTo.nodes[0]!.body);
  const sides = [
    { amount: p.amount0, wallet: p.wallet0 },
    { amount: p.amount1, wallet: p.wallet1 },
  ].filter((x): x is { amount: bigint; wallet: string } => x.amount !== null && x.wallet !== null);
  sides.sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
  return sides[0] ?? null;
}

/** The hops' peer swaps (only for more than one hop; none when the first hop's asset out is not known). */
function peerSwaps(hops: Hop[], incoming: JettonSwapTransfer, assets: Map<string, string | null>): JettonSwapPeerSwap[] {
  if (hops.length < 2) return [];
  const first = hopOut(hops[0]!.payTo);
  if (!first || !assets.has(first.wallet)) return [];
  const out: JettonSwapPeerSwap[] = [];
  let prev: { amount: string; asset: string | null } = { amount: first.amount.toString(), asset: assets.get(first.wallet)! };
  out.push({ amount_in: incoming.amount ?? null, asset_in: incoming.asset ?? null, amount_out: prev.amount, asset_out: prev.asset });
  for (const hop of hops.slice(1)) {
    if (!TONCO_SWAP_OK.includes(loadToncoPayTo(hop.payTo.nodes[0]!.body).exitCode)) continue;
    const o = hopOut(hop.payTo);
    if (!o) continue;
    const next = { amount: o.amount.toString(), asset: assets.get(o.wallet) ?? null };
    out.push({ amount_in: prev.amount, asset_in: prev.asset, amount_out: next.amount, asset_out: next.asset });
    prev = next;
  }
  return out;
}

export const toncoSwap = defineMatcher({
  name: 'tonco_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b, info) {
    if (!isCall(b, TONCO_OP.swap)) return null;
    const swapIn = routerSwapIn(b);
    if (!swapIn) return null;
    const hops: Hop[] = [];
    const via: Block[] = [];
    let swap = b;
    let outTransfer: Block | null = null;
    for (;;) {
      const payTo = swap.next.find((n) => isCall(n, TONCO_OP.payTo));
      if (!payTo) return null;
      hops.push({ swap, payTo });
      const after = afterPayout(payTo);
      if (!after) return null;
      if ('out' in after) {
        outTransfer = after.out;
        break;
      }
      via.push(...after.via);
      swap = after.next;
    }
    const ok = hops.every((h) => TONCO_SWAP_OK.includes(loadToncoPayTo(h.payTo.nodes[0]!.body).exitCode));

    // each hop's router wallet in, and the final transfer's wallets, by asset
    const assets = new Map<string, string | null>();
    for (const h of hops) {
      const wallet = loadToncoSwapSourceWallet(h.swap.nodes[0]!.body);
      if (!wallet || assets.has(wallet)) continue;
      const asset = await walletAsset(wallet, info);
      if (asset !== undefined) assets.set(wallet, asset);
    }
    const outgoing = transferLeg(outTransfer)!;
    for (const w of [outgoing.destination_jetton_wallet, outgoing.source_jetton_wallet]) if (w) assets.set(w, outgoing.asset ?? null);
    const outPton = outTransfer.next.find((n) => isCall(n, PTON_OP.tonTransfer));

    let assetOut = outgoing.asset ?? null;
    let minOut: string | null = outgoing.amount ?? null;
    // a failed swap: what was asked for, from the request's last hop
    if (!ok && swapIn.payload) {
      try {
        const target = loadToncoSwapTargets(swapIn.payload).at(-1);
        minOut = target ? target.minOut.toString() : null;
        if (target) {
          const asset = assets.has(target.wallet) ? assets.get(target.wallet) : await walletAsset(target.wallet, info);
          if (asset !== undefined) assetOut = asset ?? null;
        }
      } catch {
        // a request that does not parse leaves what was paid out
      }
    }
    return found({
      type: 'jetton_swap',
      include: [b, swapIn.inTransfer, ...(swapIn.notification ? [swapIn.notification] : []), ...hops.flatMap((h) => [h.swap, h.payTo]), ...via, outTransfer, ...(outPton ? [outPton] : [])],
      failed: !ok,
      details: {
        dex: 'tonco',
        sender: swapIn.leg.source ?? null,
        asset_in: swapIn.leg.asset ?? null,
        asset_out: assetOut,
        dex_incoming_transfer: swapIn.leg,
        dex_outgoing_transfer: outgoing,
        peer_swaps: peerSwaps(hops, swapIn.leg, assets),
        min_out_amount: minOut,
      },
    });
  },
});

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

/**
 * One side of a position funded: the transfer to the router (a jetton, or TON through pTON), the router funding the
 * owner's account at the pool, the pool telling the account. When both sides are in, the account asks the pool to
 * mint: the position NFT, and the router refunding what the position did not take. The reference prints each side
 * as a deposit (the one completing the position with the minted liquidity and the NFT).
 */
export const toncoDepositLiquidity = defineMatcher({
  name: 'tonco_deposit_liquidity',
  addressKeys: { dex_deposit_liquidity: ['source', 'pool', 'destination_liquidity', 'asset_1', 'asset_2', 'user_jetton_wallet_1', 'user_jetton_wallet_2', 'nft_address'] },
  async match(b, info) {
    if (!isCall(b, TONCO_OP.addLiquidity)) return null;
    const fund = b.prev;
    if (!fund || !isCall(fund, TONCO_OP.fundAccount) || !fund.prev) return null;
    const input = fund.prev;
    const include: Block[] = [b, fund, input];
    let notifyNode;
    let senderWallet: string | null = null;
    if (input.action === 'jetton_transfer') {
      notifyNode = input.nodes.find((n) => n.opcode === JETTON_OP.transferNotification);
      senderWallet = detailsOf(input, 'jetton_transfer')!.sender_jetton_wallet ?? null;
    } else if (isCall(input, JETTON_OP.transferNotification) && input.prev && isCall(input.prev, PTON_OP.tonTransfer)) {
      notifyNode = input.nodes[0];
      include.push(input.prev);
    }
    if (!notifyNode) return null;
    const notify = loadJettonTransferNotification(notifyNode.body.beginParse());
    const fundPayload = notify.forwardPayload && loadToncoFundPayloadOtherWallet(notify.forwardPayload);
    if (!fundPayload?.otherWallet) return null;
    const sender = notify.sender instanceof Address ? rawUpper(notify.sender) : null;
    // the router's wallet that was paid: TON when the reference cannot tell
    const firstAsset = notifyNode.source ? await walletAsset(notifyNode.source, info) : undefined;
    const first = firstAsset === undefined ? null : firstAsset;
    const second = (await walletAsset(fundPayload.otherWallet, info)) ?? null;

    const add = loadToncoAddLiquidity(b.nodes[0]!.body);
    const sent = notify.amount.toString();
    const isFirst = add.newAmount0 > 0n;

    // complete: the pool minted the position (and the router refunded the rest)
    const mintAndRefund = b.next.find((n) => isCall(n, TONCO_OP.mintAndRefund));
    const mint = mintAndRefund?.next.find((n) => n.action === 'nft_mint');
    const initNode = mint?.nodes.find((n) => n.opcode === TONCO_OP.positionInit);
    let position: { liquidity: bigint; nftIndex: bigint; nft: string | null } | null = null;
    const excesses: VaultExcess[] = [];
    if (mintAndRefund && mint && initNode) {
      const init = loadToncoPositionInit(initNode.body);
      position = { ...init, nft: initNode.destination };
      include.push(mintAndRefund, mint, ...mintAndRefund.next.filter((n) => isCall(n, COMMON_OP.excesses)));
      const refund = mintAndRefund.next.find((n) => isCall(n, TONCO_OP.payTo));
      if (refund) {
        include.push(refund);
        for (const t of refund.next.filter((n) => n.action === 'jetton_transfer').slice(0, 2)) {
          const d = detailsOf(t, 'jetton_transfer')!;
          const pton = t.next.find((n) => isCall(n, PTON_OP.tonTransfer));
          include.push(t, ...(pton ? [pton] : []));
          excesses.push(pton ? { asset: null, amount: loadPtonTonAmount(pton.nodes[0]!.body).toString() } : { asset: d.asset ?? null, amount: d.amount ?? null });
        }
      }
    }
    const [targetAsset1, targetAsset2] = isFirst ? [first, second] : [second, first];
    return found({
      type: 'dex_deposit_liquidity',
      blockType: 'tonco_deposit_liquidity',
      include,
      failed: false,
      details: {
        dex: 'tonco',
        // the side deposited is printed first
        amount_1: sent,
        amount_2: null,
        asset_1: first,
        asset_2: null,
        user_jetton_wallet_1: isFirst ? senderWallet : null,
        user_jetton_wallet_2: isFirst ? null : senderWallet,
        source: sender,
        pool: b.nodes[0]!.source,
        destination_liquidity: b.nodes[0]!.destination,
        lp_tokens_minted: position ? position.liquidity.toString() : null,
        target_asset_1: targetAsset1,
        target_asset_2: targetAsset2,
        target_amount_1: add.newEnough0.toString(),
        target_amount_2: add.newEnough1.toString(),
        vault_excesses: excesses,
        tick_lower: add.tickLower.toString(),
        tick_upper: add.tickUpper.toString(),
        nft_index: position ? position.nftIndex.toString() : null,
        nft_address: position?.nft ?? null,
      },
    });
  },
});

/** Deposits, pool creation and withdrawals, in the reference's order (the swap runs with the other DEXes' swaps, see ./registry.ts). */
export const TONCO_MATCHERS = [toncoDepositLiquidity, toncoDeployPool, toncoWithdrawLiquidity];
