/** STON.fi: v1 swaps; v2 pTON transfers, swaps (one pool or a route over pools and routers), liquidity deposits and withdrawals. */
import { Cell } from '@ton/core';
import type { JettonSwapPeerSwap, JettonSwapTransfer } from '../../../api/v3/action-details.js';
import { JETTON_OP, preloadInternalTransferAmount } from '../../tlb/jetton.js';
import {
  loadPtonForwardPayload,
  loadPtonTonAmount,
  loadStonfiV1PaymentRequest,
  loadStonfiV1Swap,
  loadStonfiV1SwapPayload,
  loadStonfiV2PayTo,
  loadStonfiV2SwapOutWallet,
  type StonfiV2PayTo,
  loadStonfiV2ProvideLp,
  PTON_MASTERS,
  PTON_OP,
  STONFI_V1_EXIT,
  STONFI_V1_OP,
  STONFI_V2_OP,
  STONFI_V2_SWAP_OK,
} from '../../tlb/stonfi.js';
import { parseJettonTransfer } from '../decode.js';
import { JETTON_TRANSFER_ADDRESS_KEYS, transferBodyDetails } from './jetton.js';
import { lpWithdrawalDetails, type LiquidityLeg } from './liquidity.js';
import { defineMatcher, found, detailsOf, isCall, reachable, replies, type Block, type ContractInfo } from './block.js';

/** Exit codes of a v1 payment request to the swap's sender (the swap done, or refunded). */
const V1_SENDER_EXITS: readonly number[] = [STONFI_V1_EXIT.reserveError, STONFI_V1_EXIT.noLiquidity, STONFI_V1_EXIT.swapOk];

/**
 * A STON.fi v1 swap, anchored at the jetton (or pTON) transfer to the router: the router's swap to the pool, the
 * pool's payment requests back to the router and the jetton transfers they pay out. The request to the sender
 * (exit code "ok", "no liquidity" or "reserve error") gives the outgoing leg, the larger one when there are two;
 * a referral's request stays out of the swap, so its payout is an action of its own.
 */
export const stonfiV1Swap = defineMatcher({
  name: 'stonfi_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b, info) {
    const inTransfer = detailsOf(b, 'jetton_transfer');
    if (!inTransfer) return null;
    const covered: Block[] = [];
    const requests: Block[] = [];
    let swapCall: Block | undefined;
    for (const swap of b.next.filter((n) => isCall(n, STONFI_V1_OP.swap))) {
      const matched: Block[] = [];
      for (const request of swap.next.filter((n) => isCall(n, STONFI_V1_OP.paymentRequest))) {
        const transfers = request.next.filter((n) => n.action === 'jetton_transfer');
        if (transfers.length === 0) continue;
        requests.push(request);
        matched.push(request, ...transfers.flatMap((t) => [t, ...replies(t)]), ...replies(request));
      }
      if (matched.length === 0) continue;
      swapCall ??= swap;
      covered.push(swap, ...matched, ...replies(swap));
    }
    if (!swapCall) return null;
    const swap = loadStonfiV1Swap(swapCall.nodes[0]!.body);

    let outAmount: bigint | null = null;
    let outToken: string | null = null;
    let outgoing: Block | undefined;
    let success = false;
    const left = new Set<Block>();
    for (const request of requests) {
      const r = loadStonfiV1PaymentRequest(request.nodes[0]!.body);
      const [amount, token] = r.amount0Out > 0n ? [r.amount0Out, r.token0Out] : [r.amount1Out, r.token1Out];
      if (V1_SENDER_EXITS.includes(r.exitCode)) {
        success = r.exitCode === STONFI_V1_EXIT.swapOk;
        if (outAmount === null || outAmount < amount) {
          outgoing = request.next.find((n) => n.action === 'jetton_transfer');
          outAmount = amount;
          outToken = token;
        }
      } else if (r.exitCode === STONFI_V1_EXIT.swapOkReferral) {
        for (const x of reachable(request)) left.add(x);
      }
    }
    const out = outgoing && detailsOf(outgoing, 'jetton_transfer');
    if (!out || outAmount === null) return null;

    // the asset asked for: the wallet the transfer's payload names, else the one paid out
    let askedWallet = outToken;
    let payloadReceiver: string | null = null;
    if (inTransfer.forward_payload) {
      try {
        const payload = loadStonfiV1SwapPayload(Cell.fromBase64(inTransfer.forward_payload));
        if (payload) {
          askedWallet = payload.tokenWallet;
          payloadReceiver = payload.toAddress;
        }
      } catch {
        // not a swap payload
      }
    }
    const walletOf = async (a: string | null) => (a ? info.jettonWallet(a) : null);
    const asked = await walletOf(askedWallet);
    const paid = await walletOf(outToken);
    const dexIn = await walletOf(swap.tokenWallet);
    if (!dexIn) return null;

    const outWallet = outgoing!.hasInternalTransfer ? (out.receiver_jetton_wallet ?? null) : null;
    const incoming: JettonSwapTransfer = {
      asset: dexIn.jetton,
      source: swap.fromRealUser,
      destination: dexIn.owner,
      source_jetton_wallet: b.hasInternalTransfer ? (inTransfer.sender_jetton_wallet ?? null) : null,
      destination_jetton_wallet: swap.tokenWallet,
      amount: swap.amount.toString(),
    };
    const outgoingLeg: JettonSwapTransfer = {
      asset: paid?.jetton ?? null,
      source: out.sender ?? null,
      destination: outWallet !== null ? (out.receiver ?? null) : (payloadReceiver ?? swap.fromUser),
      source_jetton_wallet: out.sender_jetton_wallet ?? null,
      destination_jetton_wallet: outWallet,
      amount: outAmount.toString(),
    };
    return found({
      type: 'jetton_swap',
      include: [b, ...covered.filter((x) => !left.has(x)), ...replies(b)],
      failed: !success,
      // the router's wallet of the asked asset is one of the action's accounts even when nothing reached it
      ...(askedWallet ? { extraAccounts: [askedWallet] } : {}),
      details: {
        dex: 'stonfi',
        sender: swap.fromRealUser,
        asset_in: incoming.asset,
        asset_out: asked?.jetton ?? outgoingLeg.asset,
        dex_incoming_transfer: incoming,
        dex_outgoing_transfer: outgoingLeg,
        peer_swaps: [],
      },
    });
  },
});

/** A jetton transfer to a pTON wallet: the wallet pays TON out instead of an internal transfer. */
export const ptonTransfer = defineMatcher({
  name: 'pton_transfer',
  addressKeys: { jetton_transfer: JETTON_TRANSFER_ADDRESS_KEYS },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.transfer)) return null;
    const node = b.nodes[0]!;
    const wallet = await info.jettonWallet(node.destination!);
    if (!wallet || !PTON_MASTERS.includes(wallet.jetton)) return null;
    const body = parseJettonTransfer(node.body);
    const covered = b.next.filter((n) => isCall(n, JETTON_OP.transferNotification)).flatMap((n) => [n, ...replies(n)]);
    return found({
      type: 'jetton_transfer',
      include: [b, ...covered],
      failed: b.failed,
      details: {
        asset: wallet.jetton,
        sender: node.source,
        receiver: body.destination,
        sender_jetton_wallet: null,
        receiver_jetton_wallet: null,
        amount: body.amount.toString(),
        ...transferBodyDetails(body),
        forward_amount: body.forwardTonAmount.toString(),
      },
    });
  },
});

/** TON for a pTON master, the jetton master otherwise. */
export const tonOrJetton = (jetton: string | null | undefined): string | null => (jetton != null && PTON_MASTERS.includes(jetton) ? null : (jetton ?? null));

/** A matched jetton transfer as one leg of a swap. */
export function transferLeg(t: Block): JettonSwapTransfer | null {
  const d = detailsOf(t, 'jetton_transfer');
  if (!d) return null;
  return {
    asset: tonOrJetton(d.asset),
    source: d.sender ?? null,
    destination: d.receiver ?? null,
    source_jetton_wallet: d.sender_jetton_wallet ?? null,
    destination_jetton_wallet: d.receiver_jetton_wallet ?? null,
    amount: d.amount ?? null,
  };
}

/**
 * What a router received for the swap it sends a pool (`b`): a jetton transfer, or TON through its pTON wallet
 * (pTON's ton_transfer, then the wallet's notification); the notification, the leg as a swap prints it and the
 * forward payload (the swap request) besides.
 */
export function routerSwapIn(b: Block): { inTransfer: Block; notification: Block | null; leg: JettonSwapTransfer; payload: Cell | null } | null {
  const prev = b.prev;
  if (prev?.action === 'jetton_transfer') {
    const d = detailsOf(prev, 'jetton_transfer')!;
    return { inTransfer: prev, notification: null, leg: transferLeg(prev)!, payload: d.forward_payload ? Cell.fromBase64(d.forward_payload) : null };
  }
  if (!prev || !isCall(prev, JETTON_OP.transferNotification) || !prev.prev || !isCall(prev.prev, PTON_OP.tonTransfer)) return null;
  const n = prev.prev.nodes[0]!;
  return {
    inTransfer: prev.prev,
    notification: prev,
    leg: {
      asset: null,
      source: n.source,
      destination: b.nodes[0]!.source,
      source_jetton_wallet: null,
      destination_jetton_wallet: n.destination,
      amount: loadPtonTonAmount(n.body).toString(),
    },
    payload: loadPtonForwardPayload(n.body),
  };
}

/** One pool of a route: the router's swap to it and the pool's pay_to back. */
interface V2Hop {
  swap: Block;
  payTo: Block;
}

const byMinLt = (x: Block, y: Block): number => (x.minLt < y.minLt ? -1 : x.minLt > y.minLt ? 1 : 0);

/**
 * pTON paid out by one router's pTON wallet straight to another router's (the route goes on in TON): the transfer
 * reached no jetton wallet, the pTON message goes where the transfer says and carries a swap request.
 */
function ptonHop(transfer: Block, pton: Block): boolean {
  if (!isCall(pton, PTON_OP.tonTransfer) || transfer.hasInternalTransfer) return false;
  if (detailsOf(transfer, 'jetton_transfer')?.receiver !== pton.nodes[0]!.destination) return false;
  try {
    const payload = loadPtonForwardPayload(pton.nodes[0]!.body);
    return payload !== null && payload.beginParse().loadUint(32) === STONFI_V2_OP.swap;
  } catch {
    return false;
  }
}

const hopOf = (swap: Block | undefined): V2Hop | null => {
  const payTo = swap?.next.find((n) => isCall(n, STONFI_V2_OP.payTo));
  return swap && payTo ? { swap, payTo } : null;
};

/**
 * The next pool after a pay_to: the same router's swap, or another router's after the payout reached it (a jetton
 * transfer whose notification is the request, or pTON sent on as TON); with the blocks that carried it there.
 */
function nextHop(payTo: Block): { hop: V2Hop; via: Block[] } | null {
  for (const n of payTo.next) {
    const same = isCall(n, STONFI_V2_OP.swap) ? hopOf(n) : null;
    if (same) return { hop: same, via: [] };
    if (!detailsOf(n, 'jetton_transfer')) continue;
    const direct = hopOf(n.next.find((x) => isCall(x, STONFI_V2_OP.swap)));
    if (direct) return { hop: direct, via: [n, ...replies(n)] };
    const pton = n.next.find((x) => ptonHop(n, x));
    const notification = pton?.next.find((x) => isCall(x, JETTON_OP.transferNotification));
    const viaPton = hopOf(notification?.next.find((x) => isCall(x, STONFI_V2_OP.swap)));
    if (viaPton) return { hop: viaPton, via: [n, ...replies(n), pton!, notification!] };
  }
  return null;
}

/** The larger of a pay_to's two payouts (the first on a tie): its amount and the router's wallet it comes from. */
const largerPayout = (p: StonfiV2PayTo): { amount: bigint; wallet: string | null } =>
  p.amount0Out >= p.amount1Out ? { amount: p.amount0Out, wallet: p.token0Address } : { amount: p.amount1Out, wallet: p.token1Address };

/**
 * A route's peer swaps: what each pool took and paid, the paid asset known from the router's wallet each swap
 * names (pTON as TON). A hop whose pay_to failed is left out; a route whose first hop failed lists only it.
 */
async function peerSwaps(hops: V2Hop[], payTos: StonfiV2PayTo[], incoming: JettonSwapTransfer, info: ContractInfo): Promise<JettonSwapPeerSwap[] | null> {
  const assets = new Map<string | null, string | null>();
  for (const h of hops) {
    const wallet = loadStonfiV2SwapOutWallet(h.swap.nodes[0]!.body);
    const w = wallet ? await info.jettonWallet(wallet) : null;
    if (!w) break;
    assets.set(wallet, tonOrJetton(w.jetton));
  }
  const out = (p: StonfiV2PayTo): { asset: string | null; amount: string } | null => {
    const larger = largerPayout(p);
    return assets.has(larger.wallet) ? { asset: assets.get(larger.wallet)!, amount: larger.amount.toString() } : null;
  };
  const first = out(payTos[0]!);
  if (!first) return null;
  const legs: JettonSwapPeerSwap[] = [{ asset_in: incoming.asset ?? null, amount_in: incoming.amount ?? null, asset_out: first.asset, amount_out: first.amount }];
  if (payTos[0]!.exitCode === STONFI_V2_SWAP_OK) {
    for (const p of payTos.slice(1)) {
      if (p.exitCode !== STONFI_V2_SWAP_OK) continue;
      const next = out(p);
      if (!next) return null;
      const prev = legs[legs.length - 1]!;
      legs.push({ asset_in: prev.asset_out ?? null, amount_in: prev.amount_out ?? null, asset_out: next.asset, amount_out: next.amount });
    }
  }
  return legs.length > 1 ? legs : [];
}

/**
 * A swap, anchored at the router's swap to the first pool: the incoming jetton (or pTON) transfer before it, each
 * pool's pay_to, the pools after it (the same router's swap, or another router's reached by the payout) and the
 * outgoing transfer, the last one paid.
 */
export const stonfiV2Swap = defineMatcher({
  name: 'stonfi_v2_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b, info) {
    if (!isCall(b, STONFI_V2_OP.swap)) return null;
    const swapIn = routerSwapIn(b);
    const firstHop = hopOf(b);
    if (!swapIn || !firstHop) return null;
    const { inTransfer, notification, leg: incoming } = swapIn;
    const hops = [firstHop];
    const via: Block[] = [];
    for (let next = nextHop(firstHop.payTo); next && !hops.some((h) => h.swap === next!.hop.swap); next = nextHop(next.hop.payTo)) {
      hops.push(next.hop);
      via.push(...next.via);
    }
    const outTransfer = hops
      .flatMap((h) => h.payTo.next.filter((n) => n.action === 'jetton_transfer' && !via.includes(n)))
      .sort(byMinLt)
      .pop();
    if (!outTransfer) return null;
    const payTos = [...hops].sort((x, y) => byMinLt(x.swap, y.swap)).map((h) => loadStonfiV2PayTo(h.payTo.nodes[0]!.body));
    const ok = payTos.every((p) => p.exitCode === STONFI_V2_SWAP_OK);

    const sender = incoming.source ?? null;

    const extra: Block[] = [];
    const pton = outTransfer.next.find((n) => isCall(n, PTON_OP.tonTransfer));
    const out = transferLeg(outTransfer)!;
    let outgoing: JettonSwapTransfer;
    if (!pton && outTransfer.hasInternalTransfer) outgoing = out;
    else if (pton) {
      extra.push(pton);
      outgoing = { ...out, asset: null, destination: pton.nodes[0]!.destination, destination_jetton_wallet: null, amount: loadPtonTonAmount(pton.nodes[0]!.body).toString() };
    } else return null;
    const peers = hops.length > 1 ? await peerSwaps(hops, payTos, incoming, info) : [];
    if (!peers) return null;

    return found({
      type: 'jetton_swap',
      include: [b, inTransfer, ...(notification ? [notification] : []), ...hops.flatMap((h) => [h.swap, h.payTo, ...replies(h.payTo)]), ...via, outTransfer, ...extra],
      failed: !ok,
      details: {
        dex: 'stonfi_v2',
        sender,
        asset_in: incoming.asset,
        asset_out: outgoing.asset,
        dex_incoming_transfer: incoming,
        dex_outgoing_transfer: outgoing,
        peer_swaps: peers,
      },
    });
  },
});

const DEPOSIT_ADDRESS_KEYS = { dex_deposit_liquidity: ['source', 'pool', 'destination_liquidity', 'asset_1', 'asset_2', 'user_jetton_wallet_1', 'user_jetton_wallet_2'] } as const;

/**
 * One side of a liquidity provision, anchored at the router's provide_lp to the pool: the transfer the router took
 * (a jetton, or TON through pTON), the pool's add_liquidity to the user's LP account and, once both sides are in,
 * the account's cb_add_liquidity with the LP tokens minted (or the provision refunded: failed). A side whose
 * transfer's parent already holds the same user's deposit of the other side into the same pool (with other minted
 * tokens) takes that deposit in: its side becomes the second, and the parent's transaction is no longer the action's.
 */
export const stonfiV2ProvideLiquidity = defineMatcher({
  name: 'stonfi_v2_provide_liquidity',
  addressKeys: DEPOSIT_ADDRESS_KEYS,
  async match(b) {
    if (!isCall(b, STONFI_V2_OP.provideLp)) return null;
    const swapIn = routerSwapIn(b);
    const add = b.next.find((n) => isCall(n, STONFI_V2_OP.addLiquidity));
    if (!swapIn || !add) return null;
    const { inTransfer, notification, leg } = swapIn;
    const include: Block[] = [b, inTransfer, ...(notification ? [notification] : []), add, ...replies(add)];
    let failed = false;
    let minted: string | null = null;
    const cb = add.next.find((n) => isCall(n, STONFI_V2_OP.cbAddLiquidity));
    if (cb) {
      include.push(cb);
      const lp = cb.next.find((n) => isCall(n, JETTON_OP.internalTransfer));
      const refund = cb.next.find((n) => isCall(n, STONFI_V2_OP.addLiquidity));
      if (lp) {
        include.push(lp, ...replies(lp));
        minted = preloadInternalTransferAmount(lp.nodes[0]!.body).toString();
      } else if (refund) {
        include.push(refund, ...replies(refund));
        failed = true;
      }
    }
    const provide = loadStonfiV2ProvideLp(b.nodes[0]!.body);
    const pool = b.nodes[0]!.destination;
    const side = {
      amount: (provide.amount1 > 0n ? provide.amount1 : provide.amount2).toString(),
      asset: leg.asset,
      wallet: inTransfer.action === 'jetton_transfer' ? leg.source_jetton_wallet : null,
    };
    const other = inTransfer.prev?.next.find((n) => {
      const d = detailsOf(n, 'dex_deposit_liquidity');
      return d?.dex === 'stonfi_v2' && d.source === provide.fromUser && d.pool === pool && d.lp_tokens_minted !== minted;
    });
    const otherSide = other ? detailsOf(other, 'dex_deposit_liquidity')! : null;
    return found({
      type: 'dex_deposit_liquidity',
      include: other ? [...include, other] : include,
      failed,
      detached: other !== undefined,
      details: {
        dex: 'stonfi_v2',
        amount_1: side.amount,
        amount_2: otherSide?.amount_1 ?? null,
        asset_1: side.asset,
        asset_2: otherSide?.asset_1 ?? null,
        user_jetton_wallet_1: side.wallet,
        user_jetton_wallet_2: otherSide?.user_jetton_wallet_1 ?? null,
        source: provide.fromUser,
        pool,
        destination_liquidity: pool,
        lp_tokens_minted: minted ?? otherSide?.lp_tokens_minted ?? null,
        target_asset_1: null,
        target_asset_2: null,
        target_amount_1: null,
        target_amount_2: null,
        vault_excesses: [],
        tick_lower: null,
        tick_upper: null,
        nft_index: null,
        nft_address: null,
      },
    });
  },
});

/**
 * Liquidity withdrawn (LP burnt, or a provision refunded), anchored at one of the pool's pay_to: the burn
 * notification (or refund) before it and the pool's pay_to siblings, each with its outgoing transfer.
 */
export const stonfiV2WithdrawLiquidity = defineMatcher({
  name: 'stonfi_v2_withdraw_liquidity',
  addressKeys: { dex_withdraw_liquidity: ['source', 'pool'] },
  async match(b) {
    if (!isCall(b, STONFI_V2_OP.payTo)) return null;
    const notification = b.prev;
    const origin = notification?.prev;
    if (!notification || !origin) return null;
    const refund = isCall(notification, STONFI_V2_OP.cbRefundMe) && isCall(origin, STONFI_V2_OP.refundMe);
    const burn = detailsOf(origin, 'jetton_burn');
    if (!refund && !(isCall(notification, STONFI_V2_OP.burnNotificationExt) && burn)) return null;
    const own = b.next.filter((x) => x.action === 'jetton_transfer');
    if (own.length === 0) return null;
    const other = [notification, origin, ...replies(notification), ...own];
    const payouts = [b];
    const additional: Block[] = [];
    for (const sibling of notification.next) {
      if (sibling === b || other.includes(sibling) || !isCall(sibling, STONFI_V2_OP.payTo)) continue;
      const transfers = sibling.next.filter((x) => x.action === 'jetton_transfer');
      if (transfers.length === 0) continue;
      payouts.push(sibling);
      additional.push(...transfers);
    }
    const legs: LiquidityLeg[] = [];
    for (const payout of payouts) {
      const transfer = payout.next.find((x) => x.action === 'jetton_transfer');
      const d = transfer && detailsOf(transfer, 'jetton_transfer');
      if (!transfer || !d) continue;
      const pton = transfer.next.find((x) => isCall(x, PTON_OP.tonTransfer));
      if (pton) additional.push(pton);
      legs.push({
        amount: pton ? loadPtonTonAmount(pton.nodes[0]!.body).toString() : (d.amount ?? null),
        asset: pton ? null : (d.asset ?? null),
        wallet: d.receiver_jetton_wallet ?? null,
      });
    }
    const pool = b.nodes[0]!.source;
    return found({
      type: 'dex_withdraw_liquidity',
      include: [...payouts, ...other, ...additional],
      failed: false,
      // the reference's answers print no false here
      details: lpWithdrawalDetails('stonfi_v2', legs, {
        lp_tokens_burnt: refund ? null : (burn?.amount ?? null),
        is_refund: refund ? true : null,
        source: refund ? origin.nodes[0]!.source : (burn?.owner ?? null),
        pool,
        destination_liquidity: pool,
      }),
    });
  },
});
