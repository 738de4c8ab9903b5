/**
 * DeDust CPMM v2: an LP's trading-fee claim and liquidity-mining reward claim (user → pool → position → pool →
 * payouts). A side with nothing to pay has no payout. The reference's rules:
 * `indexer/events/blocks/dedust_v2/claims.py` of toncenter/ton-indexer.
 */
import { DEDUST_V2_OP, loadPayoutPositionFees, loadPayoutReward, loadV2PayoutAmount } from '../../tlb/dedust-v2.js';
import { COMMON_OP } from '../../tlb/common.js';
import type { DedustV2ClaimDetails } from '../../../api/v3/action-details.js';
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
  return { block: b, amount: loadV2PayoutAmount(b.nodes[0]!.body), asset: null, userWallet: null, dexWallet: b.nodes[0]!.source, dexJettonWallet: null };
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

export const DEDUST_V2_MATCHERS = [dedustV2ClaimFees, dedustV2ClaimReward];
