/** Tonstakers liquid staking: deposits (tsTON minted) and withdrawals (now, or later through a payout NFT). */
import { JETTON_OP } from '../../tlb/jetton.js';
import { loadBillBurnNotification, TONSTAKERS_DEPOSIT_FEE, TONSTAKERS_OP } from '../../tlb/tonstakers.js';
import { parseJettonBurn, parseJettonInternalTransfer } from '../decode.js';
import { defineMatcher, detailsOf, found, isCall, replies, type Block } from './block.js';
import { internalTransferTree } from './jetton.js';

/**
 * The provider the reference names for Tonstakers' liquid staking: `liquid_staking` since its May 2026 rules
 * ("Use liquid staking provider instead of tonstakers"); answers recorded before then print `tonstakers`.
 */
export const TONSTAKERS_PROVIDER = 'liquid_staking';

export const tonstakersDeposit = defineMatcher({
  name: 'tonstakers_deposit',
  addressKeys: { stake_deposit: ['stake_holder', 'pool', 'asset'] },
  async match(b) {
    if (!isCall(b, TONSTAKERS_OP.deposit)) return null;
    const covered: Block[] = [];
    let transfer: Block | undefined;
    for (const mint of b.next.filter((n) => isCall(n, TONSTAKERS_OP.payoutMintJettons))) {
      const internals = mint.next.filter((n) => isCall(n, JETTON_OP.internalTransfer));
      if (internals.length === 0) continue;
      covered.push(mint);
      transfer ??= internals[0];
      covered.push(...internals.flatMap(internalTransferTree), ...replies(mint));
    }
    if (!transfer) return null;
    const node = b.nodes[0]!;
    const internal = parseJettonInternalTransfer(transfer.nodes[0]!.body);
    return found({
      type: 'stake_deposit',
      blockType: 'tonstakers_deposit',
      include: [b, ...covered],
      failed: b.failed,
      details: {
        provider: TONSTAKERS_PROVIDER,
        stake_holder: node.source,
        pool: node.destination,
        amount: ((node.value ?? 0n) - TONSTAKERS_DEPOSIT_FEE).toString(),
        tokens_minted: internal.amount.toString(),
        asset: transfer.nodes[0]!.source,
      },
    });
  },
});

const WITHDRAW_KEYS = ['stake_holder', 'pool', 'asset', 'payout_nft'] as const;

export const tonstakersWithdraw = defineMatcher({
  name: 'tonstakers_withdraw',
  addressKeys: { stake_withdrawal: WITHDRAW_KEYS, stake_withdrawal_request: WITHDRAW_KEYS },
  async match(b) {
    if (!isCall(b, JETTON_OP.burn)) return null;
    const covered: Block[] = [];
    let request: Block | undefined;
    let immediate: Block | undefined;
    let delayed: Block | undefined;
    for (const notification of b.next.filter((n) => isCall(n, JETTON_OP.burnNotification))) {
      const matched: Block[] = [];
      for (const req of notification.next.filter((n) => isCall(n, TONSTAKERS_OP.withdraw))) {
        const outcome = req.next.filter((n) => isCall(n, TONSTAKERS_OP.withdrawal) || isCall(n, TONSTAKERS_OP.payoutMintJettons));
        if (outcome.length === 0) continue;
        request ??= req;
        matched.push(req, ...outcome.flatMap((o) => [o, ...replies(o)]), ...replies(req));
        immediate ??= outcome.find((o) => isCall(o, TONSTAKERS_OP.withdrawal));
        delayed ??= outcome.find((o) => isCall(o, TONSTAKERS_OP.payoutMintJettons));
      }
      if (matched.length) covered.push(notification, ...matched, ...replies(notification));
    }
    if (!request) return null;
    const node = b.nodes[0]!;
    const burn = parseJettonBurn(node.body);
    const requestNode = request.nodes[0]!;
    const include = [b, ...covered];
    if (immediate) {
      return found({
        type: 'stake_withdrawal',
        blockType: 'tonstakers_withdraw',
        include,
        failed: b.failed,
        details: {
          provider: TONSTAKERS_PROVIDER,
          stake_holder: node.source,
          pool: requestNode.destination,
          amount: ((immediate.nodes[0]!.value ?? 0n) - (requestNode.value ?? 0n)).toString(),
          payout_nft: null,
          tokens_burnt: burn.amount.toString(),
          asset: requestNode.source,
        },
      });
    }
    const mint = delayed!.next.find((n) => n.action === 'nft_mint') ?? delayed!.next.find((n) => isCall(n, TONSTAKERS_OP.initNft));
    return found({
      type: 'stake_withdrawal_request',
      blockType: 'tonstakers_withdraw_request',
      include,
      failed: b.failed || !mint,
      details: {
        provider: TONSTAKERS_PROVIDER,
        stake_holder: node.source,
        pool: requestNode.destination,
        payout_nft: mint ? mint.nodes[0]!.destination : null,
        asset: requestNode.source,
        tokens_burnt: burn.amount.toString(),
      },
    });
  },
});

/** The pool paying a bill: the start of the distribution before the chain of burns, or the bill paid before. */
function billPool(notification: Block): string | null {
  const chainOps: readonly number[] = [TONSTAKERS_OP.nftBurnNotification, TONSTAKERS_OP.nftBurn, TONSTAKERS_OP.distributedAsset];
  for (let b = notification.prev; b; b = b.prev) {
    if (isCall(b, TONSTAKERS_OP.startDistribution)) return b.nodes[0]!.source;
    const paid = detailsOf(b, 'stake_withdrawal');
    if (paid) return paid.pool ?? null;
    if (!(b.type === 'call_contract' && b.opcode !== null && chainOps.includes(b.opcode))) return null;
  }
  return null;
}

/**
 * A delayed withdrawal paid out: the payout collection burns the bill NFT, the bill notifies it, and the collection
 * sends the owner their TON (distributed_asset).
 */
export const tonstakersDelayedWithdrawal = defineMatcher({
  name: 'tonstakers_delayed_withdrawal',
  addressKeys: { stake_withdrawal: WITHDRAW_KEYS },
  async match(b) {
    if (!isCall(b, TONSTAKERS_OP.distributedAsset)) return null;
    const notification = b.prev;
    const burn = notification?.prev;
    if (!notification || !isCall(notification, TONSTAKERS_OP.nftBurnNotification) || !burn || !isCall(burn, TONSTAKERS_OP.nftBurn)) return null;
    const bill = loadBillBurnNotification(notification.nodes[0]!.body);
    const pool = billPool(notification);
    return found({
      type: 'stake_withdrawal',
      blockType: 'tonstakers_withdraw',
      include: [b, notification, ...replies(notification), burn, ...replies(burn), ...replies(b)],
      failed: b.failed,
      // the pool is one of the action's accounts though none of its transactions is here
      ...(pool ? { extraAccounts: [pool] } : {}),
      details: {
        provider: TONSTAKERS_PROVIDER,
        stake_holder: bill.owner,
        pool,
        amount: (b.nodes[0]!.value ?? 0n).toString(),
        payout_nft: notification.nodes[0]!.source,
        tokens_burnt: bill.amount.toString(),
        asset: null,
      },
    });
  },
});
