/**
 * jVault staking: stakes (a jetton transfer to the pool, which credits the staker's stake wallet and updates its
 * rewards), unstakes, unstake requests and reward claims. What a stake wallet stakes is read from its data (its
 * pool and stake jetton) and the pool's lock wallet. The reference's rules: `indexer/events/blocks/jvault.py` of
 * toncenter/ton-indexer. The replies (excesses, bounces) of the calls under the request are the action's; those of
 * the request itself are not (the reference's outer matcher takes none).
 */
import { Cell } from '@ton/core';
import { JVAULT_OP, loadJvaultClaimJettons, loadJvaultStakePeriod, loadJvaultStakeWalletData, loadJvaultUnstakeAmount } from '../../tlb/jvault.js';
import { defineMatcher, detailsOf, found, isCall, replies, type Block, type ContractInfo } from './block.js';

const call = (b: Block, op: number): Block | undefined => b.next.find((n) => isCall(n, op));

/** Referral updates a pool may chain before answering: each request and the updates it causes, with excesses. */
function referralChain(b: Block): Block[] {
  const out: Block[] = [];
  const queue = b.next.filter((n) => isCall(n, JVAULT_OP.requestUpdateReferrer) || isCall(n, JVAULT_OP.updateReferrer));
  while (queue.length) {
    const x = queue.shift()!;
    out.push(x, ...replies(x));
    if (isCall(x, JVAULT_OP.requestUpdateReferrer)) queue.push(...x.next.filter((n) => isCall(n, JVAULT_OP.requestUpdateReferrer) || isCall(n, JVAULT_OP.updateReferrer)));
  }
  return out;
}

/** The pool's answer to a stake wallet's reward update request: the update and its excesses. */
function rewardsUpdate(request: Block): Block[] | null {
  const update = call(request, JVAULT_OP.updateRewards);
  return update ? [update, ...replies(update)] : null;
}

/** The pool, the locked jetton and the stake jetton of a stake wallet; null when the source cannot tell. */
async function stakeWalletAssets(wallet: string, info: ContractInfo): Promise<{ pool: string; asset: string | null; stakeJetton: string } | null> {
  const data = await info.contractData?.(wallet);
  if (!data) return null;
  const { pool, stakeJetton } = loadJvaultStakeWalletData(data);
  const lock = await info.jvaultLockWallet?.(pool);
  const lockWallet = lock ? await info.jettonWallet(lock) : null;
  return { pool, asset: lockWallet?.jetton ?? null, stakeJetton };
}

const exitCode = (b: Block): number | null => b.nodes[0]!.tx.exitCode ?? null;

export const jvaultStake = defineMatcher({
  name: 'jvault_stake',
  addressKeys: { jvault_stake: ['source', 'source_jetton_wallet', 'asset', 'pool', 'stake_wallet'] },
  async match(b) {
    const transfer = detailsOf(b, 'jetton_transfer');
    if (!transfer?.forward_payload) return null;
    const receive = call(b, JVAULT_OP.receiveJettons);
    if (!receive) return null;
    const request = call(receive, JVAULT_OP.requestUpdateRewards);
    const update = request && rewardsUpdate(request);
    const cancel = call(receive, JVAULT_OP.cancelStake);
    let include: Block[];
    let failed = receive.failed;
    if (request && update) {
      include = [request, ...replies(request), ...referralChain(request), ...update];
      failed ||= request.failed;
    } else if (cancel) {
      include = [cancel, ...replies(cancel), ...cancel.next.filter((n) => n.action === 'jetton_transfer').slice(0, 1)];
      failed = true;
    } else return null;
    const setData = call(b, JVAULT_OP.setData);
    return found({
      type: 'jvault_stake',
      include: [b, receive, ...replies(receive), ...include, ...(setData ? [setData, ...replies(setData)] : [])],
      failed,
      details: {
        period: loadJvaultStakePeriod(Cell.fromBase64(transfer.forward_payload)),
        minted_stake_jettons: null,
        stake_wallet: receive.nodes[0]!.destination,
        source: transfer.sender ?? null,
        source_jetton_wallet: transfer.sender_jetton_wallet ?? null,
        asset: transfer.asset ?? null,
        pool: receive.nodes[0]!.source,
        amount: transfer.amount ?? null,
      },
    });
  },
});

export const jvaultUnstake = defineMatcher({
  name: 'jvault_unstake',
  addressKeys: { jvault_unstake: ['source', 'stake_wallet', 'pool', 'asset', 'staking_asset'] },
  async match(b, info) {
    if (!isCall(b, JVAULT_OP.unstakeJettons)) return null;
    const node = b.nodes[0]!;
    const assets = await stakeWalletAssets(node.destination!, info);
    if (!assets?.asset) return null;
    const request = call(b, JVAULT_OP.requestUpdateRewards);
    const update = request && rewardsUpdate(request);
    const payout = request?.next.find((n) => n.action === 'jetton_transfer');
    const common = { source: node.source, stake_wallet: node.destination, amount: loadJvaultUnstakeAmount(node.body).toString(), staking_asset: assets.stakeJetton };
    if (!request || !update || !payout) {
      return found({
        type: 'jvault_unstake',
        include: [b],
        failed: b.failed,
        extraAccounts: [assets.pool],
        details: { ...common, pool: assets.pool, asset: assets.asset, exit_code: exitCode(b) },
      });
    }
    const paid = detailsOf(payout, 'jetton_transfer')!;
    if (paid.asset !== assets.asset) return null;
    const fee = request.next.find((n) => n.type === 'ton_transfer');
    return found({
      type: 'jvault_unstake',
      include: [b, request, ...replies(request), ...referralChain(request), ...update, payout, ...(fee ? [fee] : [])],
      failed: b.failed || request.failed,
      details: { ...common, pool: request.nodes[0]!.destination, asset: paid.asset ?? null, exit_code: null },
    });
  },
});

export const jvaultClaim = defineMatcher({
  name: 'jvault_claim',
  addressKeys: { jvault_claim: ['source', 'stake_wallet', 'pool'] },
  async match(b) {
    if (!isCall(b, JVAULT_OP.claim)) return null;
    const send = call(b, JVAULT_OP.sendClaimedRewards);
    const withdrawal = send?.next.find((n) => n.action === 'jetton_transfer');
    const update = send && rewardsUpdate(send);
    if (!send || !withdrawal || !update) return null;
    const node = b.nodes[0]!;
    const amount = detailsOf(withdrawal, 'jetton_transfer')!.amount ?? null;
    return found({
      type: 'jvault_claim',
      include: [b, send, ...replies(send), withdrawal, ...update],
      failed: b.failed || send.failed,
      details: {
        // the reference pairs the jettons asked for with the one amount paid
        claimed_rewards: loadJvaultClaimJettons(node.body).map((jetton, i) => ({ jetton, amount: i === 0 ? amount : null })),
        source: node.source,
        stake_wallet: node.destination,
        pool: send.nodes[0]!.destination,
      },
    });
  },
});

export const jvaultUnstakeRequest = defineMatcher({
  name: 'jvault_unstake_request',
  addressKeys: { jvault_unstake_request: ['source', 'stake_wallet', 'pool', 'asset', 'staking_asset'] },
  async match(b, info) {
    if (!isCall(b, JVAULT_OP.unstakeRequest)) return null;
    const node = b.nodes[0]!;
    const assets = await stakeWalletAssets(node.destination!, info);
    const request = call(b, JVAULT_OP.requestUpdateRewards);
    const update = request && rewardsUpdate(request);
    const common = { source: node.source, stake_wallet: node.destination, amount: loadJvaultUnstakeAmount(node.body).toString() };
    if (!request || !update) {
      // stopped before the pool: what it stakes is known from the wallet's data alone
      if (!assets?.asset) return null;
      return found({
        type: 'jvault_unstake_request',
        include: [b],
        failed: true,
        extraAccounts: [assets.pool],
        details: { ...common, pool: assets.pool, asset: assets.asset, staking_asset: assets.stakeJetton, exit_code: exitCode(b) },
      });
    }
    return found({
      type: 'jvault_unstake_request',
      include: [b, request, ...replies(request), ...referralChain(request), ...update],
      failed: b.failed || request.failed,
      details: { ...common, pool: request.nodes[0]!.destination, asset: assets?.asset ?? null, staking_asset: assets?.stakeJetton ?? null, exit_code: null },
    });
  },
});

export const JVAULT_MATCHERS = [jvaultStake, jvaultUnstake, jvaultClaim, jvaultUnstakeRequest];
