/**
 * DeDust CPMM v2 (pools holding their assets, LP shares in per-owner Position contracts):
 * - swaps: a payment into a pool (pay_native, or a jetton transfer whose forward payload is pay_jetton) carrying a
 *   swap payload; each pool that swaps emits a swap event and pays the next pool (a hop) or the user; a swap that
 *   fails (slippage, deadline) emits no event and refunds;
 * - deposits: each asset is paid into the pool, which credits it to a Deposit contract; the second credit makes the
 *   Deposit contract join the pool, which emits a deposit event and credits the LP share to the position (or,
 *   rejected, refunds both). The completing half and the first asset's half are joined after matching;
 * - withdrawals: user → pool → position → pool, which emits a withdrawal event and pays both assets out;
 * - an LP's trading-fee claim and liquidity-mining reward claim (user → pool → position → pool → payouts); a side
 *   with nothing to pay has no payout.
 * The reference's rules: `indexer/events/blocks/dedust_v2/` (swaps.py, liquidity.py, claims.py) of
 * toncenter/ton-indexer.
 */
import { Cell, type Slice } from '@ton/core';
import {
  DEDUST_V2_OP,
  loadCreditAsset,
  loadDepositEvent,
  loadDepositPayload,
  loadJoinLiquidity,
  loadPayJetton,
  loadPayNative,
  loadPayoutPositionFees,
  loadPayoutReward,
  loadSwapFinalMinOut,
  loadV2Payout,
  loadV2SwapEvent,
  loadWithdraw,
  loadWithdrawalEvent,
  type PaymentPayload,
} from '../../tlb/dedust-v2.js';
import { COMMON_OP } from '../../tlb/common.js';
import type { DedustV2ClaimDetails, DexDepositLiquidityDetails, JettonSwapTransfer, VaultExcess } from '../../../api/v3/action-details.js';
import { absorbPartial, atMostTwoPerContract } from './dedust.js';
import { defineMatcher, detailsOf, found, isCall, type Block } from './block.js';

/** A payout to the user: a jetton transfer from the pool, or TON with payout#3216ca09. */
interface Leg {
  block: Block;
  amount: bigint;
  asset: string | null;
  userWallet: string | null;
  dexWallet: string | null;
  dexJettonWallet: string | null;
}

function leg(b: Block): Leg | null {
  const transfer = detailsOf(b, 'jetton_transfer');
  if (transfer) {
    return {
      block: b,
      amount: BigInt(transfer.amount ?? 0),
      asset: transfer.asset ?? null,
      userWallet: transfer.receiver_jetton_wallet ?? null,
      dexWallet: transfer.sender ?? null,
      dexJettonWallet: transfer.sender_jetton_wallet ?? null,
    };
  }
  if (!isCall(b, DEDUST_V2_OP.payout)) return null;
  return { block: b, amount: loadV2Payout(b.nodes[0]!.body).amount, asset: null, userWallet: null, dexWallet: b.nodes[0]!.source, dexJettonWallet: null };
}

/** The chain request → pool's call to the position → position's payout order, with the legs and excesses under it. */
interface Chain {
  chain: Block[];
  payout: Block;
  legs: Leg[];
}

function claimChain(b: Block, toPosition: number, payoutOp: number): Chain | null {
  const ask = b.next.find((n) => isCall(n, toPosition));
  const payout = ask?.next.find((n) => isCall(n, payoutOp));
  if (!ask || !payout) return null;
  const legs = payout.next
    .map(leg)
    .filter((l): l is Leg => l !== null)
    .sort((x, y) => (x.block.minLt < y.block.minLt ? -1 : x.block.minLt > y.block.minLt ? 1 : 0));
  const excesses = payout.next.filter((n) => isCall(n, COMMON_OP.excesses));
  return { chain: [b, ask, payout, ...legs.map((l) => l.block), ...excesses], payout, legs };
}

const ADDRESS_KEYS = [
  'source', 'pool', 'position', 'owner', 'asset_1', 'asset_2', 'user_jetton_wallet_1', 'user_jetton_wallet_2',
  'dex_wallet_1', 'dex_wallet_2', 'dex_jetton_wallet_1', 'dex_jetton_wallet_2',
] as const;

const NO_LEG = { asset: null, userWallet: null, dexWallet: null, dexJettonWallet: null };
type Slot = Pick<Leg, 'asset' | 'userWallet' | 'dexWallet' | 'dexJettonWallet'>;

/** The claim's details: who asked which pool, the position and its owner, and what each slot paid. */
function claimDetails(b: Block, c: Chain, owner: string, amounts: [bigint, bigint | null], x: Slot, y: Slot | null): DedustV2ClaimDetails {
  return {
    dex: 'dedust_v2',
    source: b.nodes[0]!.source,
    pool: b.nodes[0]!.destination,
    position: c.payout.nodes[0]!.source,
    owner,
    amount_1: amounts[0].toString(),
    amount_2: amounts[1]?.toString() ?? null,
    asset_1: x.asset,
    asset_2: y?.asset ?? null,
    user_jetton_wallet_1: x.userWallet,
    user_jetton_wallet_2: y?.userWallet ?? null,
    dex_wallet_1: x.dexWallet,
    dex_wallet_2: y?.dexWallet ?? null,
    dex_jetton_wallet_1: x.dexJettonWallet,
    dex_jetton_wallet_2: y?.dexJettonWallet ?? null,
    is_refund: false,
    lp_tokens_burnt: null,
  };
}

export const dedustV2ClaimFees = defineMatcher({
  name: 'dedust_v2_claim_fees',
  addressKeys: { dedust_v2_claim_fees: ADDRESS_KEYS },
  async match(b) {
    if (!isCall(b, DEDUST_V2_OP.claimPositionFees)) return null;
    const c = claimChain(b, DEDUST_V2_OP.claimAvailableFees, DEDUST_V2_OP.payoutPositionFees);
    if (!c) return null;
    const fees = loadPayoutPositionFees(c.payout.nodes[0]!.body);
    // each payout goes to the side whose fee it equals exactly, x first
    let x: Leg | null = null;
    let y: Leg | null = null;
    for (const l of c.legs) {
      if (l.amount === fees.xFees && !x) x = l;
      else if (l.amount === fees.yFees && !y) y = l;
    }
    return found({
      type: 'dedust_v2_claim_fees',
      include: c.chain,
      failed: false,
      details: claimDetails(b, c, fees.owner, [fees.xFees, fees.yFees], x ?? NO_LEG, y ?? NO_LEG),
    });
  },
});

export const dedustV2ClaimReward = defineMatcher({
  name: 'dedust_v2_claim_reward',
  addressKeys: { dedust_v2_claim_reward: ADDRESS_KEYS },
  async match(b) {
    if (!isCall(b, DEDUST_V2_OP.claimReward)) return null;
    const c = claimChain(b, DEDUST_V2_OP.claimPositionReward, DEDUST_V2_OP.payoutReward);
    if (!c) return null;
    const reward = loadPayoutReward(c.payout.nodes[0]!.body);
    // one payout: a second one under the same order is not the reward's
    const extra = c.legs.slice(1).map((l) => l.block);
    return found({
      type: 'dedust_v2_claim_reward',
      include: c.chain.filter((x) => !extra.includes(x)),
      failed: false,
      details: claimDetails(b, c, reward.owner, [reward.amount, null], c.legs[0] ?? NO_LEG, null),
    });
  },
});

const firstExcess = (b: Block): Block[] => b.next.filter((n) => isCall(n, COMMON_OP.excesses)).slice(0, 1);
const byMinLt = (x: Block, y: Block): number => (x.minLt < y.minLt ? -1 : x.minLt > y.minLt ? 1 : 0);
const isPayout = (b: Block): boolean => detailsOf(b, 'jetton_transfer') !== null || isCall(b, DEDUST_V2_OP.payout);

/** The operation a payment into a pool carries (pay_native, or a jetton transfer's pay_jetton); null when none parses. */
function payment(b: Block): PaymentPayload | null {
  try {
    const transfer = detailsOf(b, 'jetton_transfer');
    if (transfer) return transfer.forward_payload ? loadPayJetton(Cell.fromBase64(transfer.forward_payload)) : null;
    return isCall(b, DEDUST_V2_OP.payNative) ? loadPayNative(b.nodes[0]!.body) : null;
  } catch {
    return null;
  }
}

function swapPayload(b: Block): Slice | null {
  const p = payment(b);
  return p && p.op === DEDUST_V2_OP.swapPayload ? p.payload : null;
}

const hasSwapEvent = (b: Block): boolean => b.next.some((n) => isCall(n, DEDUST_V2_OP.swapEvent));
/** The asset a carrier brings: the jetton transferred, or TON (null). */
const carrierAsset = (b: Block): string | null => detailsOf(b, 'jetton_transfer')?.asset ?? null;

/** A hop's transfer leg as the swap details print it: a jetton transfer's parties and wallets, or a TON message's. */
function swapTransfer(b: Block, amount: bigint): JettonSwapTransfer {
  const t = detailsOf(b, 'jetton_transfer');
  if (t) {
    return {
      asset: t.asset ?? null,
      amount: amount.toString(),
      source: t.sender ?? null,
      source_jetton_wallet: t.sender_jetton_wallet ?? null,
      destination: t.receiver ?? null,
      destination_jetton_wallet: t.receiver_jetton_wallet ?? null,
    };
  }
  const node = b.nodes[0]!;
  return { asset: null, amount: amount.toString(), source: node.source, source_jetton_wallet: null, destination: node.destination, destination_jetton_wallet: null };
}

/** A swap's route from one carrier: each pool's swap event, the pool-to-pool hops and the last pool's payout. */
interface Route {
  events: Block[];
  hops: Block[];
  out: Block;
  covered: Block[];
}

/**
 * The route under a carrier: its pool's swap event, then the first of its next blocks that continues it (a
 * pay_native or jetton hop to another pool, itself routed) or pays out (a jetton transfer or a TON payout).
 */
function route(carrier: Block): Route | null {
  const event = carrier.next.find((n) => isCall(n, DEDUST_V2_OP.swapEvent));
  if (!event) return null;
  for (const n of carrier.next) {
    if (n === event) continue;
    const hop = isCall(n, DEDUST_V2_OP.payNative) || (detailsOf(n, 'jetton_transfer') !== null && hasSwapEvent(n)) ? route(n) : null;
    const rest: Omit<Route, 'covered'> | null = hop ? { events: hop.events, hops: [n, ...hop.hops], out: hop.out } : isPayout(n) ? { events: [], hops: [], out: n } : null;
    if (!rest) continue;
    const covered = [event, n, ...(hop?.covered ?? []), ...firstExcess(carrier)];
    return { ...rest, events: [event, ...rest.events], covered };
  }
  return null;
}

export const dedustV2Swap = defineMatcher({
  name: 'dedust_v2_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b) {
    const payload = swapPayload(b);
    if (!(isCall(b, DEDUST_V2_OP.payNative) && payload) && !(detailsOf(b, 'jetton_transfer') && hasSwapEvent(b))) return null;
    const r = route(b);
    if (!r) return null;
    // a payout still carrying a swap is a route that stopped halfway
    if (detailsOf(r.out, 'jetton_transfer') && swapPayload(r.out)) return null;
    const events = [...r.events].sort(byMinLt);
    const swaps = events.map((e) => loadV2SwapEvent(e.nodes[0]!.body));
    const assets = [...[b, ...[...r.hops].sort(byMinLt)].map(carrierAsset), carrierAsset(r.out)];
    const peerSwaps =
      swaps.length > 1 && assets.length === swaps.length + 1
        ? swaps.map((s, i) => ({ asset_in: assets[i]!, amount_in: s.amountIn.toString(), asset_out: assets[i + 1]!, amount_out: s.amountOut.toString() }))
        : [];
    const incoming = swapTransfer(b, swaps[0]!.amountIn);
    const outgoing = swapTransfer(r.out, swaps[swaps.length - 1]!.amountOut);
    return found({
      type: 'jetton_swap',
      include: [b, ...r.covered],
      failed: !events.every((e) => !e.nodes[0]!.failed && (e.nodes[0]!.tx.exitCode ?? 0) === 0),
      details: {
        dex: 'dedust_v2',
        sender: incoming.source ?? null,
        asset_in: incoming.asset ?? null,
        asset_out: outgoing.asset ?? null,
        dex_incoming_transfer: incoming,
        dex_outgoing_transfer: outgoing,
        peer_swaps: peerSwaps,
        min_out_amount: payload ? loadSwapFinalMinOut(payload).toString() : null,
      },
    });
  },
});

/**
 * A swap that did not happen (no swap event): the pool refunds the payment to its sender, a TON payout with a
 * non-zero exit code or the same jetton back. What it would have paid is the pool's other asset, amount 0.
 */
export const dedustV2FailedSwap = defineMatcher({
  name: 'dedust_v2_failed_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b, info) {
    const payload = swapPayload(b);
    if (!payload || hasSwapEvent(b)) return null;
    const refund = b.next.find(isPayout);
    if (!refund) return null;
    const transfer = detailsOf(b, 'jetton_transfer');
    const back = detailsOf(refund, 'jetton_transfer');
    let incoming: JettonSwapTransfer;
    if (transfer) {
      if (!back || back.asset !== transfer.asset || back.receiver !== transfer.sender) return null;
      incoming = swapTransfer(b, BigInt(transfer.amount ?? 0));
    } else {
      if (!isCall(refund, DEDUST_V2_OP.payout) || loadV2Payout(refund.nodes[0]!.body).exitCode === 0) return null;
      if (refund.nodes[0]!.destination !== b.nodes[0]!.source) return null;
      incoming = swapTransfer(b, loadPayNative(b.nodes[0]!.body).amount);
    }
    const pool = incoming.destination ?? null;
    const assets = pool && info.dexPool ? await info.dexPool(pool) : null;
    const assetOut = assets?.find((a) => a !== incoming.asset) ?? null;
    return found({
      type: 'jetton_swap',
      include: [b, refund, ...firstExcess(b)],
      failed: true,
      details: {
        dex: 'dedust_v2',
        sender: incoming.source ?? null,
        asset_in: incoming.asset ?? null,
        asset_out: assetOut,
        dex_incoming_transfer: incoming,
        dex_outgoing_transfer: { asset: assetOut, amount: '0', source: pool, source_jetton_wallet: null, destination: incoming.source ?? null, destination_jetton_wallet: null },
        peer_swaps: [],
        min_out_amount: loadSwapFinalMinOut(payload).toString(),
      },
    });
  },
});

/**
 * A withdrawal: withdraw → the position burns the share → exit_liquidity back to the pool, which emits the
 * withdrawal event and pays the two assets (slot order = payout order). No event: it failed (slippage) and the
 * share stays. A withdrawal that also claims fees is not classified (its payouts mix the two).
 */
export const dedustV2Withdraw = defineMatcher({
  name: 'dedust_v2_withdraw',
  addressKeys: { dex_withdraw_liquidity: ['source', 'pool'] },
  async match(b) {
    if (!isCall(b, DEDUST_V2_OP.withdraw)) return null;
    const withdraw = loadWithdraw(b.nodes[0]!.body);
    if (withdraw.autoClaimFees) return null;
    const burn = b.next.find((n) => isCall(n, DEDUST_V2_OP.withdrawLiquidity));
    const exit = burn?.next.find((n) => isCall(n, DEDUST_V2_OP.exitLiquidity));
    if (!burn || !exit) return null;
    const event = exit.next.find((n) => isCall(n, DEDUST_V2_OP.withdrawalEvent));
    const legs = exit.next.filter(isPayout).slice(0, 2).sort(byMinLt).map(leg);
    if (legs.some((l) => l === null)) return null;
    const [x, y] = legs as Leg[];
    return found({
      type: 'dex_withdraw_liquidity',
      include: [b, burn, exit, ...(event ? [event] : []), ...legs.map((l) => l!.block)],
      failed: !event,
      details: {
        dex: 'dedust_v2',
        source: b.nodes[0]!.source,
        pool: b.nodes[0]!.destination,
        destination_liquidity: null,
        amount_1: x?.amount.toString() ?? null,
        amount_2: y?.amount.toString() ?? null,
        asset_1: x?.asset ?? null,
        asset_2: y?.asset ?? null,
        user_jetton_wallet_1: x?.userWallet ?? null,
        user_jetton_wallet_2: y?.userWallet ?? null,
        lp_tokens_burnt: (event ? loadWithdrawalEvent(event.nodes[0]!.body).liquidity : withdraw.liquidity).toString(),
        is_refund: !event,
        burnt_nft_index: null,
        burnt_nft_address: null,
        tick_lower: null,
        tick_upper: null,
      },
    });
  },
});

/** One asset credited to a Deposit contract: which pool side it is, what it is, who paid and from which wallet. */
interface DepositLeg {
  slot: 1 | 2;
  asset: string | null;
  wallet: string | null;
  sender: string | null;
}

/** A deposit half's slots (filled or not, TON being null) and its Deposit contract, for the post-processing. */
interface V2Half {
  final: boolean;
  depositContract: string | null;
  filled: Set<1 | 2>;
  details: DexDepositLiquidityDetails;
}

const v2Halves = new WeakMap<Block, V2Half>();

/** The carrier above a credit_asset: a jetton transfer or a pay_native into the pool. */
function depositCarrier(credit: Block): Block | null {
  const carrier = credit.prev;
  return carrier && (detailsOf(carrier, 'jetton_transfer') || isCall(carrier, DEDUST_V2_OP.payNative)) ? carrier : null;
}

function depositLeg(carrier: Block, credit: Block): DepositLeg {
  const slot = loadCreditAsset(credit.nodes[0]!.body).isX ? 1 : 2;
  const t = detailsOf(carrier, 'jetton_transfer');
  if (t) return { slot, asset: t.asset ?? null, wallet: t.sender_jetton_wallet ?? null, sender: t.sender ?? null };
  return { slot, asset: null, wallet: null, sender: carrier.nodes[0]!.source };
}

/** The pool's refunds to the depositor: up to two jetton transfers and a TON payout, all to the initiator, else null. */
function depositRefunds(join: Block, initiator: string): { blocks: Block[]; excesses: VaultExcess[] } | null {
  const jettons = join.next.filter((n) => detailsOf(n, 'jetton_transfer')).slice(0, 2).sort(byMinLt);
  const ton = join.next.find((n) => isCall(n, DEDUST_V2_OP.payout));
  const excesses: VaultExcess[] = [];
  for (const j of jettons) {
    const t = detailsOf(j, 'jetton_transfer')!;
    if (t.receiver !== initiator) return null;
    excesses.push({ asset: t.asset ?? null, amount: t.amount ?? null });
  }
  if (ton) {
    if (ton.nodes[0]!.destination !== initiator) return null;
    excesses.push({ asset: null, amount: loadV2Payout(ton.nodes[0]!.body).amount.toString() });
  }
  return { blocks: [...jettons, ...(ton ? [ton] : [])], excesses };
}

function depositDetails(
  join: Block | null,
  credit: Block,
  leg: DepositLeg,
  amounts: [bigint | null, bigint | null],
  rest: Pick<DexDepositLiquidityDetails, 'source' | 'lp_tokens_minted' | 'target_amount_1' | 'target_amount_2' | 'vault_excesses'>,
): DexDepositLiquidityDetails {
  const pool = join ? join.nodes[0]!.destination : credit.nodes[0]!.source;
  const contract = join ? join.nodes[0]!.source : credit.nodes[0]!.destination;
  const slots = { asset_1: null as string | null, asset_2: null as string | null, user_jetton_wallet_1: null as string | null, user_jetton_wallet_2: null as string | null };
  slots[`asset_${leg.slot}`] = leg.asset;
  slots[`user_jetton_wallet_${leg.slot}`] = leg.wallet;
  return {
    dex: 'dedust_v2',
    pool,
    destination_liquidity: contract,
    amount_1: amounts[0]?.toString() ?? null,
    amount_2: amounts[1]?.toString() ?? null,
    ...slots,
    target_asset_1: slots.asset_1,
    target_asset_2: slots.asset_2,
    tick_lower: null,
    tick_upper: null,
    nft_index: null,
    nft_address: null,
    ...rest,
  };
}

/** The deposit payload's target amounts, from the carrier (null when it carries none). */
function targets(carrier: Block): [string | null, string | null] {
  const p = payment(carrier);
  if (!p || p.op !== DEDUST_V2_OP.depositPayload) return [null, null];
  const t = loadDepositPayload(p.payload);
  return [t.amountX.toString(), t.amountY.toString()];
}

/**
 * The completing half of a deposit, anchored at join_liquidity (the last credit and its carrier above it): the
 * pool's deposit event gives both amounts and the LP minted; without it the pool rejected the join and refunds.
 */
export const dedustV2Deposit = defineMatcher({
  name: 'dedust_v2_deposit',
  addressKeys: { dex_deposit_liquidity: ['source', 'pool'] },
  async match(b) {
    if (!isCall(b, DEDUST_V2_OP.joinLiquidity)) return null;
    const credit = b.prev;
    const carrier = credit && isCall(credit, DEDUST_V2_OP.creditAsset) ? depositCarrier(credit) : null;
    if (!credit || !carrier) return null;
    const join = loadJoinLiquidity(b.nodes[0]!.body);
    const refunds = depositRefunds(b, join.initiator);
    if (!refunds) return null;
    const event = b.next.find((n) => isCall(n, DEDUST_V2_OP.depositEvent));
    const leg = depositLeg(carrier, credit);
    const [target1, target2] = targets(carrier);
    let include: Block[];
    let details: DexDepositLiquidityDetails;
    if (event) {
      const e = loadDepositEvent(event.nodes[0]!.body);
      const lp = b.next.find((n) => isCall(n, DEDUST_V2_OP.creditLiquidity));
      include = [b, credit, carrier, event, ...(lp ? [lp, ...firstExcess(lp)] : []), ...refunds.blocks];
      details = depositDetails(b, credit, leg, [e.amountXIn, e.amountYIn], {
        source: join.initiator,
        lp_tokens_minted: e.liquidity.toString(),
        target_amount_1: target1,
        target_amount_2: target2,
        vault_excesses: refunds.excesses,
      });
    } else {
      if (refunds.excesses.length === 0) return null;
      include = [b, credit, carrier, ...refunds.blocks, ...firstExcess(b)];
      details = depositDetails(b, credit, leg, [join.amountX, join.amountY], {
        source: join.initiator,
        lp_tokens_minted: null,
        target_amount_1: target1,
        target_amount_2: target2,
        vault_excesses: refunds.excesses,
      });
    }
    v2Halves.set(b, { final: true, depositContract: b.nodes[0]!.source, filled: new Set([leg.slot]), details });
    return found({ type: 'dex_deposit_liquidity', blockType: 'dedust_v2_deposit_liquidity', include, failed: !event, details });
  },
});

/** The first asset's half: credit_asset to the Deposit contract under its carrier (the join comes with the other). */
export const dedustV2DepositPartial = defineMatcher({
  name: 'dedust_v2_deposit_partial',
  addressKeys: { dex_deposit_liquidity: ['source', 'pool'] },
  async match(b) {
    if (!isCall(b, DEDUST_V2_OP.creditAsset)) return null;
    const carrier = depositCarrier(b);
    if (!carrier) return null;
    const leg = depositLeg(carrier, b);
    const amount = loadCreditAsset(b.nodes[0]!.body).amount;
    const details = depositDetails(null, b, leg, leg.slot === 1 ? [amount, null] : [null, amount], {
      source: leg.sender,
      lp_tokens_minted: null,
      target_amount_1: null,
      target_amount_2: null,
      vault_excesses: [],
    });
    v2Halves.set(b, { final: false, depositContract: b.nodes[0]!.destination, filled: new Set([leg.slot]), details });
    return found({ type: 'dex_deposit_liquidity', blockType: 'dedust_v2_deposit_liquidity_partial', include: [b, carrier, ...firstExcess(b)], failed: false, details });
  },
});

/** post_process_dedust_v2_liquidity: each completing half takes the slot its partial (same Deposit contract) filled. */
export function combineDedustV2Deposits(blocks: Block[]): Block[] {
  const found = blocks.flatMap((b) => {
    const h = b.children[0] && v2Halves.get(b.children[0]);
    return h ? [{ block: b, half: h }] : [];
  });
  if (!found.some((h) => !h.half.final) || !atMostTwoPerContract(found.map((h) => h.half.depositContract))) return blocks;
  let out = blocks;
  for (const final of found.filter((h) => h.half.final)) {
    const partial = found.find((h) => !h.half.final && out.includes(h.block) && h.half.depositContract === final.half.depositContract);
    if (!partial) continue;
    const d = { ...final.half.details };
    for (const slot of [1, 2] as const) {
      if (final.half.filled.has(slot) || !partial.half.filled.has(slot)) continue;
      d[`asset_${slot}`] = partial.half.details[`asset_${slot}`];
      d[`target_asset_${slot}`] = partial.half.details[`asset_${slot}`];
      d[`user_jetton_wallet_${slot}`] = partial.half.details[`user_jetton_wallet_${slot}`];
      d[`amount_${slot}`] ??= partial.half.details[`amount_${slot}`];
    }
    final.block.data = d;
    out = out.filter((b) => b !== partial.block);
    absorbPartial(final.block, partial.block);
  }
  return out;
}

export const DEDUST_V2_MATCHERS = [
  dedustV2Swap,
  dedustV2FailedSwap,
  dedustV2Withdraw,
  dedustV2Deposit,
  dedustV2DepositPartial,
  dedustV2ClaimFees,
  dedustV2ClaimReward,
];
