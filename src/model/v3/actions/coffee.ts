/**
 * swap.coffee: swaps (one pool or several hops), liquidity provision (a depository per asset), pool creation (a
 * pool creator per asset, the second creating the pool), liquidity withdrawal, staking (a deposit, a jetton
 * transfer to the pool, which mints a position NFT; a withdrawal, the position NFT asking the pool, which pays the
 * jettons back; a reward claim, the pool paying a staker), vault creation and funds held by MEV protection. The
 * reference's rules: the coffee matchers of `indexer/events/blocks/swaps.py`, `liquidity.py` and `staking.py` in
 * toncenter/ton-indexer.
 */
import type { DexDepositLiquidityDetails, JettonSwapPeerSwap, JettonSwapTransfer } from '../../../api/v3/action-details.js';
import {
  COFFEE_OP,
  COFFEE_STAKING_OP,
  loadCoffeeAmount,
  loadCoffeeClaimRewards,
  loadCoffeeCreatePoolJetton,
  loadCoffeeCreatePoolNative,
  loadCoffeeCreatePoolRequest,
  loadCoffeeCreateVaultAsset,
  loadCoffeeCreatorRequestAssets,
  loadCoffeeDepositEventLp,
  loadCoffeeDepositoryRequest,
  loadCoffeePayoutInternal,
  loadCoffeePositionWithdraw2,
  loadCoffeePositionWithdraw3,
  loadCoffeeSwapEvent,
  loadCoffeeWithdrawalEvent,
} from '../../tlb/coffee.js';
import { bodyOp } from '../../tlb/common.js';
import { JETTON_OP } from '../../tlb/jetton.js';
import { Cell } from '@ton/core';
import { defineMatcher, detailsOf, found, isCall, replies, type Block } from './block.js';
import { lpWithdrawalDetails } from './liquidity.js';

const transferOf = (b: Block) => b.next.find((n) => n.action === 'jetton_transfer');

export const coffeeStakingDeposit = defineMatcher({
  name: 'coffee_staking_deposit',
  addressKeys: { coffee_staking_deposit: ['source', 'source_jetton_wallet', 'pool', 'pool_jetton_wallet', 'asset', 'minted_item_address'] },
  async match(b) {
    const transfer = detailsOf(b, 'jetton_transfer');
    const poolCall = transfer && b.next.find((n) => isCall(n, COFFEE_STAKING_OP.deposit));
    const mintBlock = poolCall?.next.find((n) => n.action === 'nft_mint');
    const mint = mintBlock && detailsOf(mintBlock, 'nft_mint');
    if (!transfer || !poolCall || !mintBlock || !mint) return null;
    // the pool logs the deposit with the same message
    const log = poolCall.next.find((n) => isCall(n, COFFEE_STAKING_OP.deposit));
    return found({
      type: 'coffee_staking_deposit',
      include: [b, poolCall, mintBlock, ...(log ? [log] : [])],
      failed: b.failed,
      details: {
        source: transfer.sender ?? null,
        source_jetton_wallet: transfer.sender_jetton_wallet ?? null,
        pool: poolCall.nodes[0]!.destination,
        pool_jetton_wallet: transfer.receiver_jetton_wallet ?? null,
        asset: transfer.asset ?? null,
        amount: transfer.amount ?? null,
        minted_item_address: mint.nft_item ?? null,
        minted_item_index: mint.nft_item_index ?? null,
      },
    });
  },
});

export const coffeeStakingWithdraw = defineMatcher({
  name: 'coffee_staking_withdraw',
  addressKeys: { coffee_staking_withdraw: ['source', 'source_jetton_wallet', 'pool', 'pool_jetton_wallet', 'asset', 'nft_address'] },
  async match(b) {
    const op = COFFEE_STAKING_OP.positionWithdraw;
    if (!isCall(b, op)) return null;
    const second = b.next.find((n) => isCall(n, op));
    // the third leg is the one that pays; the other message with the opcode is the pool's log
    const third = second?.next.find((n) => isCall(n, op) && transferOf(n));
    const payout = third && transferOf(third);
    const paid = payout && detailsOf(payout, 'jetton_transfer');
    if (!second || !third || !payout || !paid) return null;
    const log = second.next.find((n) => n !== third && isCall(n, op));
    const request = loadCoffeePositionWithdraw2(second.nodes[0]!.body);
    const pay = loadCoffeePositionWithdraw3(third.nodes[0]!.body);
    return found({
      type: 'coffee_staking_withdraw',
      include: [b, second, third, payout, ...(log ? [log] : [])],
      failed: b.failed,
      details: {
        source: request.owner,
        // the reference names the sender of the second leg (the position NFT) the pool
        pool: second.nodes[0]!.source,
        asset: paid.asset ?? null,
        amount: pay.amount.toString(),
        source_jetton_wallet: paid.receiver_jetton_wallet ?? null,
        pool_jetton_wallet: pay.jettonWallet,
        nft_address: b.nodes[0]!.destination,
        nft_index: request.nftId.toString(),
        points: request.points.toString(),
      },
    });
  },
});

export const coffeeStakingClaimRewards = defineMatcher({
  name: 'coffee_staking_claim_rewards',
  addressKeys: { coffee_staking_claim_rewards: ['pool', 'pool_jetton_wallet', 'recipient', 'recipient_jetton_wallet', 'asset'] },
  async match(b) {
    const op = COFFEE_STAKING_OP.claimRewards;
    if (!isCall(b, op) || b.next.length === 0) return null;
    const payout = transferOf(b);
    const paid = payout && detailsOf(payout, 'jetton_transfer');
    if (!payout || !paid) return null;
    const log = b.next.find((n) => isCall(n, op));
    const claim = loadCoffeeClaimRewards(b.nodes[0]!.body);
    return found({
      type: 'coffee_staking_claim_rewards',
      include: [b, payout, ...(log ? [log] : [])],
      failed: b.failed,
      details: {
        pool: b.nodes[0]!.destination,
        pool_jetton_wallet: claim.jettonWallet,
        recipient: claim.receiver,
        recipient_jetton_wallet: paid.receiver_jetton_wallet ?? null,
        asset: paid.asset ?? null,
        amount: claim.amount.toString(),
      },
    });
  },
});

export const coffeeCreateVault = defineMatcher({
  name: 'coffee_create_vault',
  addressKeys: { coffee_create_vault: ['source', 'vault', 'asset'] },
  async match(b) {
    if (!isCall(b, COFFEE_OP.createVault)) return null;
    const deploy = b.next.find((n) => isCall(n, COFFEE_OP.deploy));
    if (!deploy) return null;
    // the new vault's activation and its answer, when they follow
    const activate = deploy.next.find((n) => isCall(n, 0x2c76b973));
    const answer = activate?.next.find((n) => isCall(n, 0xd1735400));
    const chain = [deploy, activate, answer].filter((x): x is Block => x !== undefined);
    return found({
      type: 'coffee_create_vault',
      include: [b, ...chain.flatMap((x) => [x, ...replies(x)])],
      failed: b.failed,
      details: {
        source: b.nodes[0]!.source,
        vault: deploy.nodes[0]!.destination,
        asset: loadCoffeeCreateVaultAsset(b.nodes[0]!.body),
        value: b.nodes[0]!.value?.toString() ?? null,
      },
    });
  },
});

/** The forward payload's opcode of a jetton transfer block; null when it has none. */
function payloadOp(b: Block): number | null {
  const payload = detailsOf(b, 'jetton_transfer')?.forward_payload;
  return payload ? bodyOp(Cell.fromBase64(payload)) : null;
}

export const coffeeMevProtectHoldFunds = defineMatcher({
  name: 'coffee_mev_protect_hold_funds',
  addressKeys: { coffee_mev_protect_hold_funds: ['source', 'source_jetton_wallet', 'mev_contract', 'mev_contract_jetton_wallet', 'asset'] },
  async match(b) {
    const transfer = detailsOf(b, 'jetton_transfer');
    const isTon = isCall(b, COFFEE_OP.mevProtectHoldFunds);
    if (!isTon && !(transfer && payloadOp(b) === COFFEE_OP.mevProtectHoldFunds)) return null;
    // the message that sent the funds is the action's when it also paid swap.coffee's service fee
    const fee = b.prev?.next.find((n) => isCall(n, COFFEE_OP.serviceFee));
    const parent = fee && b.prev!.type !== 'root' ? [b.prev!, fee] : [];
    const node = b.nodes[0]!;
    return found({
      type: 'coffee_mev_protect_hold_funds',
      include: [b, ...parent],
      failed: b.failed,
      details: isTon
        ? { source: node.source, source_jetton_wallet: null, mev_contract: node.destination, mev_contract_jetton_wallet: null, asset: null, amount: node.value?.toString() ?? null }
        : {
            source: transfer!.sender ?? null,
            source_jetton_wallet: transfer!.sender_jetton_wallet ?? null,
            mev_contract: transfer!.receiver ?? null,
            mev_contract_jetton_wallet: null,
            asset: transfer!.asset ?? null,
            amount: transfer!.amount ?? null,
          },
    });
  },
});

/**
 * Funds MEV protection gives back after a failed swap (TON, or a jetton transfer with that payload). v3 has no
 * details for the type and prints the unsupported-type error instead; the action still takes the transfer's place.
 */
export const coffeeMevProtectFailedSwap = defineMatcher({
  name: 'coffee_mev_protect_failed_swap',
  addressKeys: { coffee_mev_protect_failed_swap: [] },
  async match(b) {
    const op = COFFEE_OP.mevProtectFailedSwap;
    if (!isCall(b, op) && !(b.action === 'jetton_transfer' && payloadOp(b) === op)) return null;
    return found({
      type: 'coffee_mev_protect_failed_swap',
      include: [b, ...replies(b)],
      failed: false,
      details: { error: "unsupported action type: 'coffee_mev_protect_failed_swap'" },
    });
  },
});

/** One payout of a withdrawal: what it pays and to which wallet. */
function payoutLeg(payout: Block) {
  for (const n of payout.next) {
    const transfer = detailsOf(n, 'jetton_transfer');
    if (transfer) return { block: n, asset: transfer.asset ?? null, wallet: transfer.receiver_jetton_wallet ?? null };
    if (isCall(n, COFFEE_OP.payout)) return { block: n, asset: null, wallet: n.nodes[0]!.destination };
  }
  // a notification instead of a transfer: TON, as far as the reference tells
  const notification = payout.next.find((n) => isCall(n, COFFEE_OP.notification));
  return notification ? { block: notification, asset: null, wallet: null } : null;
}

/** A liquidity withdrawal: the LP jetton burnt, the pool's event with both amounts, and a payout per asset. */
export const coffeeWithdrawLiquidity = defineMatcher({
  name: 'coffee_withdraw_liquidity',
  addressKeys: { dex_withdraw_liquidity: ['source', 'pool', 'asset_1', 'asset_2', 'user_jetton_wallet_1', 'user_jetton_wallet_2'] },
  async match(b) {
    const burn = detailsOf(b, 'jetton_burn');
    const event = burn && b.next.find((n) => isCall(n, COFFEE_OP.withdrawalEvent));
    const payouts = b.next.filter((n) => isCall(n, COFFEE_OP.payoutInternal)).slice(0, 2);
    if (!burn || !event || payouts.length < 2) return null;
    const [leg1, leg2] = payouts.map(payoutLeg);
    if (!leg1 || !leg2) return null;
    const amounts = loadCoffeeWithdrawalEvent(event.nodes[0]!.body);
    return found({
      type: 'dex_withdraw_liquidity',
      include: [b, event, ...payouts, leg1.block, leg2.block],
      failed: b.failed,
      details: lpWithdrawalDetails('coffee', [{ ...leg1, amount: amounts.amount1.toString() }, { ...leg2, amount: amounts.amount2.toString() }], {
        lp_tokens_burnt: burn.amount ?? null,
        is_refund: false,
        source: burn.owner ?? null,
        pool: event.nodes[0]!.source,
        destination_liquidity: null,
      }),
    });
  },
});

/** What a vault paid out at the end of a swap or a deposit: a jetton transfer, TON, or a notification instead. */
function vaultOut(payout: Block): Block | undefined {
  return payout.next.find((n) => n.action === 'jetton_transfer' || isCall(n, COFFEE_OP.payout) || isCall(n, COFFEE_OP.notification));
}

/** A vault's payout_internal with what it paid, among `b`'s next blocks. */
function payoutOf(b: Block): { payout: Block; out: Block } | null {
  for (const payout of b.next.filter((n) => isCall(n, COFFEE_OP.payoutInternal))) {
    const out = vaultOut(payout);
    if (out) return { payout, out };
  }
  return null;
}

/** A jetton transfer as one leg of a swap, its asset as it is (STON.fi's `transferLeg` reads pTON as TON; a swap.coffee vault holds pTON as a jetton). */
function jettonLeg(b: Block): JettonSwapTransfer | null {
  const t = detailsOf(b, 'jetton_transfer');
  if (!t) return null;
  return {
    asset: t.asset ?? null,
    amount: t.amount ?? null,
    source: t.sender ?? null,
    source_jetton_wallet: t.sender_jetton_wallet ?? null,
    destination: t.receiver ?? null,
    destination_jetton_wallet: t.receiver_jetton_wallet ?? null,
  };
}

/** A TON leg of a swap. */
const tonLeg = (amount: bigint | null, source: string | null, destination: string | null): JettonSwapTransfer => ({
  asset: null,
  amount: amount?.toString() ?? null,
  source,
  source_jetton_wallet: null,
  destination,
  destination_jetton_wallet: null,
});

/** What went into a swap: a jetton transfer to a vault, or TON with swap_native. */
function swapIncoming(b: Block): JettonSwapTransfer | null {
  if (isCall(b, COFFEE_OP.swapNative)) {
    const node = b.nodes[0]!;
    return tonLeg(loadCoffeeAmount(node.body), node.source, node.destination);
  }
  return jettonLeg(b);
}

/** What came out of a swap: the payout's jetton transfer, TON paid to the recipient, or a notification's value. */
function swapOutgoing(payout: Block, out: Block): JettonSwapTransfer | null {
  if (isCall(out, COFFEE_OP.payout)) {
    const paid = loadCoffeePayoutInternal(payout.nodes[0]!.body);
    return tonLeg(paid.amount, payout.nodes[0]!.source, paid.recipient);
  }
  if (isCall(out, COFFEE_OP.notification)) {
    const node = out.nodes[0]!;
    return tonLeg(node.value, node.source, node.destination);
  }
  return jettonLeg(out);
}

/**
 * A swap: what reached a vault, the vault's swap_internal to the first pool (the anchor), one swap_internal per
 * further hop (each pool logging its step), and the last pool's payout_internal to the vault that pays.
 */
export const coffeeSwap = defineMatcher({
  name: 'coffee_swap',
  addressKeys: { jetton_swap: ['sender'] },
  async match(b) {
    if (!isCall(b, COFFEE_OP.swapInternal) || !b.prev) return null;
    const inBlock = b.prev;
    const incoming = swapIncoming(inBlock);
    if (!incoming) return null;
    const hops: { swap: Block; event: Block }[] = [];
    let exit: { payout: Block; out: Block } | null = null;
    for (let at: Block | undefined = b; at && !exit; ) {
      const event = at.next.find((n) => isCall(n, COFFEE_OP.swapSuccessfulEvent));
      if (!event) return null;
      hops.push({ swap: at, event });
      exit = payoutOf(at);
      if (!exit) at = at.next.find((n) => isCall(n, COFFEE_OP.swapInternal));
    }
    if (!exit) return null;
    const outgoing = swapOutgoing(exit.payout, exit.out);
    if (!outgoing) return null;
    const steps = hops.map((h) => loadCoffeeSwapEvent(h.event.nodes[0]!.body));
    // a step's output is the next step's input; the last one's is what the vault paid
    const peerSwaps: JettonSwapPeerSwap[] = steps.map((step, i) => ({
      asset_in: step.input,
      amount_in: step.inputAmount.toString(),
      asset_out: i + 1 < steps.length ? steps[i + 1]!.input : (outgoing.asset ?? null),
      amount_out: step.outputAmount.toString(),
    }));
    const calls = [...hops.flatMap((h) => [h.swap, h.event]), exit.payout];
    return found({
      type: 'jetton_swap',
      include: [b, inBlock, ...replies(inBlock), ...calls.flatMap((c) => [c, ...replies(c)]), exit.out],
      failed: false,
      details: {
        dex: 'coffee',
        sender: incoming.source ?? null,
        asset_in: incoming.asset ?? null,
        asset_out: outgoing.asset ?? null,
        dex_incoming_transfer: incoming,
        dex_outgoing_transfer: outgoing,
        // the reference lists the steps only when there are several
        peer_swaps: peerSwaps.length > 1 ? peerSwaps : [],
      },
    });
  },
});

/** What reached a vault for a deposit or a pool creator: the asset (null for TON) and the sender's jetton wallet. */
function vaultIncoming(b: Block, nativeOp: number): { asset: string | null; wallet: string | null; sender: string | null } | null {
  if (isCall(b, nativeOp)) return { asset: null, wallet: null, sender: b.nodes[0]!.source };
  const t = detailsOf(b, 'jetton_transfer');
  return t ? { asset: t.asset ?? null, wallet: t.sender_jetton_wallet ?? null, sender: t.sender ?? null } : null;
}

/** The blocks and their excess and bounce replies. */
const withReplies = (blocks: (Block | undefined)[]): Block[] => blocks.flatMap((x) => (x ? [x, ...replies(x)] : []));

/**
 * One asset of a liquidity deposit: the vault asks the factory for the user's depository for the pool, which is
 * deployed; the second asset's depository also deposits both into the pool (LP tokens minted, an event logged,
 * what the pool did not take paid back through a vault).
 */
export const coffeeDepositLiquidity = defineMatcher({
  name: 'coffee_deposit_liquidity',
  addressKeys: { dex_deposit_liquidity: ['source', 'pool'] },
  async match(b) {
    if (!isCall(b, COFFEE_OP.createLiquidityDepositoryRequest) || !b.prev) return null;
    const incoming = vaultIncoming(b.prev, COFFEE_OP.depositLiquidityNative);
    const deploy = b.next.find((n) => isCall(n, COFFEE_OP.deploy));
    if (!incoming || !deploy) return null;
    const request = loadCoffeeDepositoryRequest(b.nodes[0]!.body);
    let side: 1 | 2;
    if (incoming.asset === request.first) side = 1;
    else if (incoming.asset === request.second) side = 2;
    else return null;
    const amount = request.amount.toString();
    // the deposit into the pool counts when the LP tokens and the event are both there
    const internal = deploy.next.find((n) => isCall(n, COFFEE_OP.depositLiquidityInternal));
    const lp = internal?.next.find((n) => isCall(n, JETTON_OP.internalTransfer));
    const event = internal?.next.find((n) => isCall(n, COFFEE_OP.depositLiquiditySuccessfulEvent));
    const complete = internal && lp && event ? { internal, lp, event, refund: payoutOf(internal) } : null;
    const refund = complete?.refund;
    const excess = refund ? detailsOf(refund.out, 'jetton_transfer') : null;
    const details: DexDepositLiquidityDetails = {
      dex: 'coffee',
      amount_1: side === 1 ? amount : null,
      amount_2: side === 2 ? amount : null,
      asset_1: side === 1 ? incoming.asset : null,
      asset_2: side === 2 ? incoming.asset : null,
      user_jetton_wallet_1: side === 1 ? incoming.wallet : null,
      user_jetton_wallet_2: side === 2 ? incoming.wallet : null,
      source: request.sender,
      pool: complete ? complete.event.nodes[0]!.source : null,
      destination_liquidity: deploy.nodes[0]!.destination,
      lp_tokens_minted: complete ? loadCoffeeDepositEventLp(complete.event.nodes[0]!.body).toString() : null,
      // the asset brought first, then the other; the amounts are whatever the user brings later
      target_asset_1: side === 1 ? request.first : request.second,
      target_asset_2: side === 1 ? request.second : request.first,
      target_amount_1: null,
      target_amount_2: null,
      vault_excesses: !refund
        ? []
        : excess
          ? [{ asset: excess.asset ?? null, amount: excess.amount ?? null }]
          : [{ asset: null, amount: refund.out.nodes[0]!.value?.toString() ?? null }],
      tick_lower: null,
      tick_upper: null,
      nft_index: null,
      nft_address: null,
    };
    return found({
      type: 'dex_deposit_liquidity',
      blockType: 'coffee_deposit_liquidity',
      include: [b, ...withReplies([b.prev, deploy, complete?.internal, complete?.lp, complete?.event, refund?.payout]), ...(refund ? [refund.out] : [])],
      failed: false,
      details,
    });
  },
});

/**
 * One asset of a pool's creation: the vault asks the factory for a pool creator, which is deployed. The second
 * creator asks the factory for the pool (coffeeCreatePool takes it then).
 */
export const coffeeCreatePoolCreator = defineMatcher({
  name: 'coffee_create_pool_creator',
  addressKeys: { coffee_create_pool_creator: ['source', 'source_jetton_wallet', 'deposit_recipient', 'pool_creator_contract', 'asset_1', 'asset_2'] },
  async match(b) {
    if (!isCall(b, COFFEE_OP.createPoolCreatorRequest) || !b.prev) return null;
    const incoming = vaultIncoming(b.prev, COFFEE_OP.createPoolNative);
    const deploy = b.next.find((n) => isCall(n, COFFEE_OP.deploy));
    if (!incoming || !deploy) return null;
    const transfer = detailsOf(b.prev, 'jetton_transfer');
    let amount: string | null;
    let pool: { first: string | null; recipient: string };
    if (transfer) {
      if (!transfer.forward_payload) return null;
      amount = transfer.amount ?? null;
      pool = loadCoffeeCreatePoolJetton(Cell.fromBase64(transfer.forward_payload));
    } else {
      const native = loadCoffeeCreatePoolNative(b.prev.nodes[0]!.body);
      amount = native.amount.toString();
      pool = native;
    }
    return found({
      type: 'coffee_create_pool_creator',
      include: [b, ...withReplies([b.prev, deploy])],
      failed: false,
      details: {
        source: incoming.sender,
        source_jetton_wallet: incoming.wallet,
        deposit_recipient: pool.recipient,
        pool_creator_contract: deploy.nodes[0]!.destination,
        // v3 prints the provided asset as asset_1 and the pool's first asset as asset_2 (its second is not
        // printed), and no provided_asset for a creator
        provided_asset: null,
        asset_1: incoming.asset,
        asset_2: pool.first,
        amount,
      },
    });
  },
});

/** The log a pool creation's notified contract writes (an opcode the reference names only by number). */
const COFFEE_NOTIFIED_LOG_OP = 0xb216d31f;

/**
 * A pool created: the second pool creator asks the factory for the pool, which is deployed with both assets,
 * mints the LP tokens and logs the deposit (and may notify someone).
 */
export const coffeeCreatePool = defineMatcher({
  name: 'coffee_create_pool',
  addressKeys: { coffee_create_pool: ['source', 'source_jetton_wallet', 'initiator_1', 'initiator_2', 'pool', 'pool_creator_contract', 'asset_1', 'asset_2'] },
  async match(b) {
    const creator = detailsOf(b, 'coffee_create_pool_creator');
    const request = creator && b.next.find((n) => isCall(n, COFFEE_OP.createPoolRequest));
    const deploy = request?.next.find((n) => isCall(n, COFFEE_OP.deploy));
    const lp = deploy?.next.find((n) => isCall(n, JETTON_OP.internalTransfer));
    const event = deploy?.next.find((n) => isCall(n, COFFEE_OP.depositLiquiditySuccessfulEvent));
    const creatorRequest = b.nodes.find((n) => n.opcode === COFFEE_OP.createPoolCreatorRequest);
    if (!creator || !request || !deploy || !lp || !event || !creatorRequest) return null;
    const notification = deploy.next.find((n) => isCall(n, COFFEE_OP.notification));
    // what the notified contract logs on it
    const notified = notification?.next.find((n) => isCall(n, COFFEE_NOTIFIED_LOG_OP));
    const pool = loadCoffeeCreatorRequestAssets(creatorRequest.body);
    const asked = loadCoffeeCreatePoolRequest(request.nodes[0]!.body);
    const provided = creator.asset_1 ?? null;
    let order: { asset_1: string | null; asset_2: string | null; amount_1: bigint; amount_2: bigint; initiator_1: string | null; initiator_2: string | null } = {
      asset_1: provided, asset_2: pool.second, amount_1: asked.amount1, amount_2: asked.amount2, initiator_1: creator.source ?? null, initiator_2: asked.txInitiator };
    if (provided === pool.second) {
      // the provided asset is the pool's second: the other creator's amount and initiator come first
      order = { asset_1: provided, asset_2: pool.first, amount_1: asked.amount2, amount_2: asked.amount1, initiator_1: asked.txInitiator, initiator_2: creator.source ?? null };
    } else if (provided !== pool.first) {
      order = { ...order, asset_1: pool.first, asset_2: pool.second };
    }
    return found({
      type: 'coffee_create_pool',
      include: [b, ...withReplies([request, deploy, lp, event, notification, notified])],
      failed: false,
      details: {
        source: creator.source ?? null,
        source_jetton_wallet: creator.source_jetton_wallet ?? null,
        initiator_1: order.initiator_1,
        initiator_2: order.initiator_2,
        pool: deploy.nodes[0]!.destination,
        pool_creator_contract: creator.pool_creator_contract ?? null,
        provided_asset: provided,
        amount: creator.amount ?? null,
        asset_1: order.asset_1,
        asset_2: order.asset_2,
        amount_1: order.amount_1.toString(),
        amount_2: order.amount_2.toString(),
        lp_tokens_minted: loadCoffeeDepositEventLp(event.nodes[0]!.body).toString(),
      },
    });
  },
});

/** In the reference's order. */
export const COFFEE_MATCHERS = [
  coffeeDepositLiquidity,
  coffeeSwap,
  coffeeWithdrawLiquidity,
  coffeeCreateVault,
  coffeeCreatePoolCreator,
  coffeeCreatePool,
  coffeeMevProtectHoldFunds,
  coffeeMevProtectFailedSwap,
  coffeeStakingDeposit,
  coffeeStakingWithdraw,
  coffeeStakingClaimRewards,
];
