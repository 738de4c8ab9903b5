/**
 * swap.coffee staking: a deposit (a jetton transfer to the pool, which mints a position NFT), a withdrawal (the
 * position NFT asks the pool, which pays the jettons back) and a reward claim (the pool pays a staker). The
 * reference's rules: the coffee staking matchers of `indexer/events/blocks/staking.py` in toncenter/ton-indexer.
 */
import { COFFEE_STAKING_OP, loadCoffeeClaimRewards, loadCoffeePositionWithdraw2, loadCoffeePositionWithdraw3 } from '../../tlb/coffee.js';
import { defineMatcher, detailsOf, found, isCall, type Block } from './block.js';

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

export const COFFEE_MATCHERS = [coffeeStakingDeposit, coffeeStakingWithdraw, coffeeStakingClaimRewards];
