/**
 * swap.coffee: staking (a deposit, a jetton transfer to the pool, which mints a position NFT; a withdrawal, the
 * position NFT asking the pool, which pays the jettons back; a reward claim, the pool paying a staker), vault
 * creation and funds held by MEV protection. The reference's rules: the coffee matchers of
 * `indexer/events/blocks/staking.py` and `liquidity.py` in toncenter/ton-indexer.
 */
import { COFFEE_OP, COFFEE_STAKING_OP, loadCoffeeCreateVaultAsset, loadCoffeeWithdrawalEvent, loadCoffeeClaimRewards, loadCoffeePositionWithdraw2, loadCoffeePositionWithdraw3 } from '../../tlb/coffee.js';
import { bodyOp } from '../../tlb/common.js';
import { Cell } from '@ton/core';
import { defineMatcher, detailsOf, found, isCall, replies, type Block } from './block.js';

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
            // the reference reports a jetton deposit's sender and sender wallet the other way round
            source: transfer!.sender_jetton_wallet ?? null,
            source_jetton_wallet: transfer!.sender ?? null,
            mev_contract: transfer!.receiver ?? null,
            mev_contract_jetton_wallet: null,
            asset: transfer!.asset ?? null,
            amount: transfer!.amount ?? null,
          },
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
      details: {
        dex: 'coffee',
        amount_1: amounts.amount1.toString(),
        amount_2: amounts.amount2.toString(),
        asset_1: leg1.asset,
        asset_2: leg2.asset,
        user_jetton_wallet_1: leg1.wallet,
        user_jetton_wallet_2: leg2.wallet,
        lp_tokens_burnt: burn.amount ?? null,
        is_refund: false,
        source: burn.owner ?? null,
        pool: event.nodes[0]!.source,
        destination_liquidity: null,
        burnt_nft_index: null,
        burnt_nft_address: null,
        tick_lower: null,
        tick_upper: null,
      },
    });
  },
});

export const COFFEE_MATCHERS = [coffeeWithdrawLiquidity, coffeeStakingDeposit, coffeeStakingWithdraw, coffeeStakingClaimRewards, coffeeCreateVault, coffeeMevProtectHoldFunds];
