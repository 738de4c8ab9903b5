/** DeDust: liquidity deposits (in two halves, one per asset) and withdrawals, and swaps, single or over peer pools. */
import { Cell, type Slice } from '@ton/core';
import type { DexDepositLiquidityDetails, JettonSwapPeerSwap, JettonTransferDetails } from '../../../api/v3/action-details.js';
import { JETTON_OP } from '../../tlb/jetton.js';
import {
  DEDUST_OP,
  loadDepositLiquidityAll,
  loadJettonDepositPayload,
  loadNativeDeposit,
  loadNativeSwap,
  loadPayoutFromPoolAmount,
  loadSwapEvent,
  loadSwapSteps,
  type DedustDepositTargets,
} from '../../tlb/dedust.js';
import { rawUpper } from '../common.js';
import { parseJettonBurn, parseJettonInternalTransfer } from '../decode.js';
import { jettonTransfer } from './jetton.js';
import { assetSlots, lpWithdrawalDetails, type LiquidityLeg } from './liquidity.js';
import { defineMatcher, found, detailsOf, isCall, replies, type Block, type ContractInfo } from './block.js';

/** One asset of a deposit, and the pool's targets, before the two halves are combined. */
interface DepositHalf {
  final: boolean;
  sender: string | null;
  depositContract: string | null;
  pool: string | null;
  lpTokensMinted: string | null;
  legs: { asset: string | null; amount: string | null; wallet: string | null }[];
  targets: DedustDepositTargets;
  excesses: { asset: string | null; amount: string }[];
}

/** The half each deposit block holds, for `combineDedustDeposits` (blocks live for one classification). */
const halves = new WeakMap<Block, DepositHalf>();

function depositDetails(d: DepositHalf): DexDepositLiquidityDetails {
  const [leg1, leg2] = d.legs;
  const combined = d.legs.length === 2;
  return {
    dex: 'dedust',
    ...assetSlots(d.legs),
    source: d.sender,
    pool: d.pool,
    destination_liquidity: d.depositContract,
    lp_tokens_minted: d.lpTokensMinted,
    target_asset_1: combined ? leg1!.asset : d.targets.asset0,
    target_asset_2: combined ? leg2!.asset : d.targets.asset1,
    target_amount_1: d.targets.asset0TargetBalance.toString(),
    target_amount_2: d.targets.asset1TargetBalance.toString(),
    vault_excesses: d.excesses,
    tick_lower: null,
    tick_upper: null,
    nft_index: null,
    nft_address: null,
  };
}

/**
 * What went into a vault before the factory: a TON deposit, or a jetton transfer reaching the vault
 * (transfer → internal transfer → notify). The blocks, newest first, or null.
 */
function vaultDeposit(ask: Block): Block[] | null {
  const deposit = ask.prev;
  if (!deposit) return null;
  if (isCall(deposit, DEDUST_OP.depositNative)) return [deposit];
  const internal = deposit.prev;
  const transfer = internal?.prev;
  if (!isCall(deposit, JETTON_OP.transferNotification) || !internal || !isCall(internal, JETTON_OP.internalTransfer) || !transfer || !isCall(transfer, JETTON_OP.transfer)) return null;
  return [deposit, internal, ...replies(internal), transfer];
}

/** The asset, amount and user wallet a vault deposit brought, with the targets it names. */
async function depositLeg(deposit: Block, info: ContractInfo): Promise<{ sender: string | null; leg: DepositHalf['legs'][number]; targets: DedustDepositTargets } | null> {
  const node = deposit.nodes[0]!;
  if (isCall(deposit, DEDUST_OP.depositNative)) {
    const d = loadNativeDeposit(node.body);
    return { sender: node.source, leg: { asset: null, amount: d.amount.toString(), wallet: null }, targets: d };
  }
  const s = node.body.beginParse();
  s.skip(32 + 64);
  const amount = s.loadCoins();
  const sender = rawUpper(s.loadAddress());
  if (!s.loadBit()) return null;
  const targets = loadJettonDepositPayload(s.loadRef().beginParse());
  const vaultWallet = await info.jettonWallet(node.source!);
  if (!vaultWallet) return null;
  return { sender, leg: { asset: vaultWallet.jetton, amount: amount.toString(), wallet: deposit.prev!.nodes[0]!.source }, targets };
}

const DEPOSIT_ADDRESS_KEYS = { dex_deposit_liquidity: ['source', 'pool'] } as const;

/** The half of a deposit that only tops up the deposit contract (the other asset comes later). */
export const dedustDepositFirstAsset = defineMatcher({
  name: 'dedust_deposit_first_asset',
  addressKeys: DEPOSIT_ADDRESS_KEYS,
  async match(b, info) {
    if (!isCall(b, DEDUST_OP.topUpDepositContract)) return null;
    const ask = b.prev;
    if (!ask || !isCall(ask, DEDUST_OP.askLiquidityFactory)) return null;
    const deploys = ask.next.filter((n) => isCall(n, DEDUST_OP.deployDepositContract));
    const vault = vaultDeposit(ask);
    if (deploys.length === 0 || !vault) return null;
    if (b.next.some((n) => isCall(n, DEDUST_OP.depositLiquidityAll) || isCall(n, DEDUST_OP.rejectDeposit))) return null;
    const leg = await depositLeg(vault[0]!, info);
    if (!leg) return null;
    const half: DepositHalf = {
      final: false,
      sender: leg.sender,
      depositContract: b.nodes[0]!.destination,
      pool: null,
      lpTokensMinted: null,
      legs: [leg.leg],
      targets: leg.targets,
      excesses: [],
    };
    const include = [b, ask, ...deploys.flatMap((d) => [d, ...replies(d)]), ...vault];
    halves.set(include[0]!, half);
    return found({ type: 'dex_deposit_liquidity', blockType: 'dedust_deposit_liquidity_partial', include, failed: false, details: depositDetails(half) });
  },
});

/** The half of a deposit that completes it: the deposit contract calls the pool, which mints LP tokens. */
export const dedustDeposit = defineMatcher({
  name: 'dedust_deposit',
  addressKeys: DEPOSIT_ADDRESS_KEYS,
  async match(b, info) {
    if (!isCall(b, DEDUST_OP.depositLiquidityAll)) return null;
    const topUp = b.prev;
    const ask = topUp?.prev;
    if (!topUp || !isCall(topUp, DEDUST_OP.topUpDepositContract) || !ask || !isCall(ask, DEDUST_OP.askLiquidityFactory)) return null;
    const vault = vaultDeposit(ask);
    if (!vault) return null;
    const covered: Block[] = [topUp, ...replies(topUp), ask, ...replies(ask), ...vault];
    for (const d of ask.next.filter((n) => isCall(n, DEDUST_OP.deployDepositContract))) covered.push(d, ...replies(d));
    const lp = b.next.find((n) => isCall(n, JETTON_OP.internalTransfer));
    const rejection = b.next.find((n) => isCall(n, DEDUST_OP.rejectDeposit));
    if (!lp && !rejection) return null;
    const tonExcesses: DepositHalf['excesses'] = [];
    const jettonExcesses: DepositHalf['excesses'] = [];
    const owner = loadDepositLiquidityAll(b.nodes[0]!.body);
    /** The deposit contract's leftovers: TON straight back, or through a vault's payout (TON) or jetton transfer. */
    const collectExcesses = async (parent: Block): Promise<boolean> => {
      for (const n of parent.next) {
        if (n.type === 'ton_transfer') covered.push(n);
        else if (isCall(n, DEDUST_OP.returnExcessFromVault)) {
          covered.push(n, ...replies(n));
          // the jetton payout is not matched yet (jetton transfers are matched after deposits): match it here
          const transfer = n.next.find((x) => isCall(x, JETTON_OP.transfer));
          if (transfer) {
            const t = await jettonTransfer.match(transfer, info);
            if (!t || t.type !== 'jetton_transfer') return false;
            covered.push(...t.include);
            const d = t.details as JettonTransferDetails;
            if (d.receiver === owner.owner) jettonExcesses.push({ asset: d.asset ?? null, amount: d.amount ?? '0' });
          }
          for (const payout of n.next.filter((x) => isCall(x, DEDUST_OP.payout))) {
            covered.push(payout, ...replies(payout));
            if (payout.nodes[0]!.destination === owner.owner) tonExcesses.push({ asset: null, amount: (payout.nodes[0]!.value ?? 0n).toString() });
          }
        }
      }
      return true;
    };
    if (lp) {
      covered.push(lp, ...replies(lp));
      for (const n of lp.next.filter((x) => isCall(x, JETTON_OP.transferNotification))) covered.push(n, ...replies(n));
    } else {
      covered.push(rejection!, ...replies(rejection!));
      if (!(await collectExcesses(rejection!))) return null;
    }
    for (const destroy of b.next.filter((n) => isCall(n, DEDUST_OP.destroyDepositContract))) {
      covered.push(destroy, ...replies(destroy));
      if (!(await collectExcesses(destroy))) return null;
    }
    const leg = await depositLeg(vault[0]!, info);
    if (!leg) return null;
    // the user's jetton wallet is known only when the user's own transfer is part of this half
    const transfer = vault.find((x) => isCall(x, JETTON_OP.transfer) && x.nodes[0]!.source === owner.owner);
    const half: DepositHalf = {
      final: true,
      sender: owner.owner,
      depositContract: b.nodes[0]!.source,
      pool: lp ? b.nodes[0]!.destination : rejection!.nodes[0]!.source,
      lpTokensMinted: lp ? parseJettonInternalTransfer(lp.nodes[0]!.body).amount.toString() : null,
      legs: [{ ...leg.leg, wallet: transfer ? transfer.nodes[0]!.destination : null }],
      targets: { asset0: owner.asset0, asset1: owner.asset1, asset0TargetBalance: owner.asset0Amount, asset1TargetBalance: owner.asset1Amount },
      excesses: [...tonExcesses, ...jettonExcesses],
    };
    halves.set(b, half);
    return found({ type: 'dex_deposit_liquidity', blockType: 'dedust_deposit_liquidity', include: [b, ...covered], failed: !lp, details: depositDetails(half) });
  },
});

/**
 * post_process_dedust_liquidity: each first-asset half joins the completing half of the same deposit contract
 * (the two may be in one trace), assets listed in the order they arrived.
 */
export function combineDedustDeposits(blocks: Block[]): Block[] {
  const found = blocks.flatMap((b) => {
    const h = halves.get(b.children[0]!);
    return h ? [{ block: b, half: h }] : [];
  });
  if (!atMostTwoPerContract(found.map((h) => h.half.depositContract))) return blocks;
  let out = blocks;
  for (const first of found.filter((h) => !h.half.final)) {
    const final = found.find((h) => h.half.final && h.half.depositContract === first.half.depositContract);
    if (!final) continue;
    const legs = [...first.half.legs];
    for (const leg of final.half.legs) {
      const same = legs.find((l) => l.asset === leg.asset);
      if (!same) {
        legs.push(leg);
        continue;
      }
      same.amount = (BigInt(same.amount ?? 0) + BigInt(leg.amount ?? 0)).toString();
      same.wallet = leg.wallet ?? same.wallet;
    }
    final.block.data = depositDetails({ ...final.half, legs });
    out = out.filter((b) => b !== first.block);
    absorbPartial(final.block, first.block);
  }
  return out;
}

/** Deposit halves pair up by deposit contract: with three or more on one contract the reference pairs none. */
export function atMostTwoPerContract(contracts: readonly (string | null)[]): boolean {
  const perContract = new Map<string | null, number>();
  for (const c of contracts) perContract.set(c, (perContract.get(c) ?? 0) + 1);
  return [...perContract.values()].every((n) => n <= 2);
}

/** Folds a deposit's partial block into its completing one: its transactions (and the one that started it), its blocks. */
export function absorbPartial(final: Block, partial: Block): void {
  for (const n of partial.nodes) if (!final.nodes.includes(n)) final.nodes.push(n);
  if (partial.initiating && partial.initiating !== final.initiating && !final.nodes.includes(partial.initiating)) final.nodes.push(partial.initiating);
  final.children.push(...partial.children.filter((c) => !final.children.includes(c)));
}

const byMinLt = (x: Block, y: Block): number => (x.minLt < y.minLt ? -1 : x.minLt > y.minLt ? 1 : 0);

/**
 * A liquidity withdrawal, anchored at the user's burn of LP jettons: the LP wallet's burn notification to the pool,
 * which asks a vault per asset to pay out (`pay_out_from_pool`); the native vault pays TON (`payout`), a jetton
 * vault sends a jetton transfer. Both payouts are required, in slots taken in the order the classifier visits the
 * pool's messages (../classify.ts `storeOrder`).
 */
export const dedustWithdraw = defineMatcher({
  name: 'dedust_withdraw',
  addressKeys: { dex_withdraw_liquidity: ['source', 'pool'] },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.burn)) return null;
    const notification = b.next.find((n) => isCall(n, JETTON_OP.burnNotification));
    if (!notification) return null;
    const payouts = notification.next
      .filter((n) => isCall(n, DEDUST_OP.payoutFromPool))
      .map((request) => ({ request, outs: request.next.filter((x) => x.action === 'jetton_transfer' || isCall(x, DEDUST_OP.payout)) }))
      .filter((p) => p.outs.length > 0)
      .slice(0, 2);
    if (payouts.length < 2) return null;
    // the burnt jetton must be one (its wallet answers get_wallet_data)
    if (!(await info.jettonWallet(b.nodes[0]!.destination!))) return null;
    const legs: LiquidityLeg[] = payouts.map(({ request, outs }) => {
      const amount = loadPayoutFromPoolAmount(request.nodes[0]!.body).toString();
      const transfer = detailsOf(outs[0]!, 'jetton_transfer');
      return { amount, asset: transfer?.asset ?? null, wallet: transfer?.receiver_jetton_wallet ?? null };
    });
    const pool = notification.nodes[0]!.destination;
    // the reference's answers print no false is_refund
    const details = lpWithdrawalDetails('dedust', legs, {
      lp_tokens_burnt: parseJettonBurn(b.nodes[0]!.body).amount.toString(),
      source: b.nodes[0]!.source,
      pool,
      destination_liquidity: pool,
    });
    const include = [b, ...replies(b), notification, ...replies(notification)];
    for (const { request, outs } of payouts) include.push(request, ...replies(request), ...outs.flatMap((o) => [o, ...(o.action ? [] : replies(o))]));
    return found({ type: 'dex_withdraw_liquidity', include, failed: false, details });
  },
});

interface SwapLeg {
  asset: string | null;
  amount: string;
}

/**
 * A swap, anchored at the vault's swap_external to the first pool: the request before it (a native-vault swap or
 * a jetton transfer to a jetton vault), the pools' payouts (directly or after swap_peer hops) and their swap
 * events. A hop without its event marks the swap failed.
 */
export const dedustSwap = defineMatcher({
  name: 'dedust_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b, info) {
    if (!isCall(b, DEDUST_OP.swapExternal)) return null;
    const prev = b.prev;
    const request = prev && detailsOf(prev, 'jetton_transfer');
    if (!prev || !(request || isCall(prev, DEDUST_OP.swapNative))) return null;
    const covered: Block[] = [prev];
    const events: Block[] = [];
    let payoutFromPool: Block | undefined;
    const hops: Block[] = [b];
    const walk = (swap: Block): boolean => {
      let matched = false;
      for (const n of swap.next) {
        if (isCall(n, DEDUST_OP.payoutFromPool)) {
          const outs = n.next.filter((x) => x.action === 'jetton_transfer' || isCall(x, DEDUST_OP.payout));
          if (outs.length === 0) continue;
          payoutFromPool ??= n;
          covered.push(n, ...outs, ...replies(n));
          matched = true;
        } else if (isCall(n, DEDUST_OP.swapPeer) && walk(n)) {
          covered.push(n);
          hops.push(n);
          matched = true;
        }
      }
      for (const n of swap.next.filter((x) => isCall(x, DEDUST_OP.swapEvent))) {
        covered.push(n);
        events.push(n);
      }
      return matched;
    };
    if (!walk(b) || !payoutFromPool) return null;

    let sender: string | null;
    let senderWallet: string | null = null;
    let dexIncomingWallet: string | null;
    let dexIncomingJettonWallet: string | null = null;
    let amountIn: string;
    let assetIn: string | null;
    let steps: Slice;
    if (request) {
      const payload = request.forward_payload ? Cell.fromBase64(request.forward_payload).beginParse() : null;
      if (!payload || payload.remainingBits < 32 || payload.loadUint(32) !== DEDUST_OP.swapJettonPayload) return null;
      sender = request.sender ?? null;
      senderWallet = request.sender_jetton_wallet ?? null;
      dexIncomingWallet = request.receiver ?? null;
      dexIncomingJettonWallet = request.receiver_jetton_wallet ?? null;
      amountIn = request.amount ?? '0';
      assetIn = request.asset ?? null;
      steps = payload;
    } else {
      const native = loadNativeSwap(prev.nodes[0]!.body);
      sender = prev.nodes[0]!.source;
      dexIncomingWallet = prev.nodes[0]!.destination;
      amountIn = native.amount.toString();
      assetIn = null;
      steps = native.steps;
    }

    let receiver = sender;
    let receiverWallet: string | null = null;
    let dexOutgoingWallet: string | null = null;
    let dexOutgoingJettonWallet: string | null = null;
    let amountOut = loadPayoutFromPoolAmount(payoutFromPool.nodes[0]!.body).toString();
    let actualAssetOut: string | null = null;
    for (const out of payoutFromPool.next.filter((x) => covered.includes(x))) {
      const t = detailsOf(out, 'jetton_transfer');
      if (t) {
        receiverWallet = t.receiver_jetton_wallet ?? null;
        receiver = t.receiver ?? null;
        dexOutgoingWallet = t.sender ?? null;
        dexOutgoingJettonWallet = t.sender_jetton_wallet ?? null;
        actualAssetOut = t.asset ?? null;
        amountOut = t.amount ?? amountOut;
      } else {
        dexOutgoingWallet = out.nodes[0]!.source;
        receiver = out.nodes[0]!.destination;
        actualAssetOut = null;
      }
    }

    // the asset the swap asked for: along the steps' pools (their get_assets); unknown pools leave what was paid
    let assetOut = actualAssetOut;
    const pools = loadSwapSteps(steps);
    let current = assetIn;
    let known = info.dexPool !== undefined;
    for (const pool of pools) {
      const assets = known ? await info.dexPool!(pool) : null;
      if (!assets) {
        known = false;
        break;
      }
      const next = assets.find((a) => a !== current);
      if (next !== undefined) current = next;
    }
    if (known && pools.length > 0) assetOut = current;

    const legs: { in: SwapLeg; out: SwapLeg }[] = events.sort(byMinLt).map((e) => {
      const ev = loadSwapEvent(e.nodes[0]!.body);
      return { in: { asset: ev.assetIn, amount: ev.amountIn.toString() }, out: { asset: ev.assetOut, amount: ev.amountOut.toString() } };
    });
    if (legs.length === 0) legs.push({ in: { asset: assetIn, amount: amountIn }, out: { asset: actualAssetOut, amount: amountOut } });
    const first = legs[0]!;
    const last = legs[legs.length - 1]!;
    const peerSwaps: JettonSwapPeerSwap[] =
      legs.length > 1 ? legs.map((l) => ({ asset_in: l.in.asset, amount_in: l.in.amount, asset_out: l.out.asset, amount_out: l.out.amount })) : [];

    return found({
      type: 'jetton_swap',
      include: [b, ...covered],
      failed: hops.some((h) => !h.next.some((n) => covered.includes(n) && isCall(n, DEDUST_OP.swapEvent))),
      details: {
        dex: 'dedust',
        sender,
        asset_in: assetIn,
        asset_out: assetOut,
        dex_incoming_transfer: {
          asset: first.in.asset,
          source: sender,
          destination: dexIncomingWallet,
          source_jetton_wallet: senderWallet,
          destination_jetton_wallet: dexIncomingJettonWallet,
          amount: first.in.amount,
        },
        dex_outgoing_transfer: {
          asset: last.out.asset,
          source: dexOutgoingWallet,
          destination: receiver,
          source_jetton_wallet: dexOutgoingJettonWallet,
          destination_jetton_wallet: receiverWallet,
          amount: last.out.amount,
        },
        peer_swaps: peerSwaps,
      },
    });
  },
});
