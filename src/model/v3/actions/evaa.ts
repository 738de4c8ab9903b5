/**
 * EVAA lending: supplies (TON sent with supply_master, or a jetton transfer whose payload is one) and withdrawals,
 * each followed through the master and the owner's user contract to its outcome; a request still under way is no
 * action. The reference's rules: `indexer/events/blocks/evaa.py` of toncenter/ton-indexer.
 */
import type { TonTransferDetails } from '../../../api/v3/action-details.js';
import { Cell } from '@ton/core';
import {
  EVAA_OP,
  EVAA_TON_ASSET_ID,
  EVAA_WITHDRAW_FAIL_REASONS,
  evaaUserOp,
  loadEvaaReportedAmount,
  loadEvaaSupplyMaster,
  loadEvaaSupplyPayload,
  loadEvaaUserAssetId,
  loadEvaaWithdrawMaster,
} from '../../tlb/evaa.js';
import { defineMatcher, detailsOf, found, isCall, replies, type Block } from './block.js';

const COMMENTS = ['EVAA liquidation.', 'EVAA supply.', 'EVAA withdraw.'];

/** The TON transfer with EVAA's comment that may follow an outcome. */
const evaaComment = (b: Block): Block[] =>
  b.next.filter((n) => n.type === 'ton_transfer' && COMMENTS.includes((n.data as TonTransferDetails).comment ?? '')).slice(0, 1);

/** A call to a user contract: its opcode read after the header. */
const userCall = (b: Block, op: number): boolean => b.type === 'call_contract' && evaaUserOp(b.nodes[0]!.body)?.op === op;

/** A matched contract call with the excesses next to it. */
const withReplies = (b: Block): Block[] => [b, ...replies(b)];

const assetIdHex = (id: bigint): string => `0x${id.toString(16)}`;

export const evaaSupply = defineMatcher({
  name: 'evaa_supply',
  addressKeys: { evaa_supply: ['source', 'recipient', 'recipient_contract', 'asset', 'master', 'master_jetton_wallet', 'recipient_jetton_wallet'] },
  async match(b) {
    const transfer = detailsOf(b, 'jetton_transfer');
    let sender: string | null;
    let recipient: string;
    let amount: bigint;
    if (isCall(b, EVAA_OP.supplyMaster)) {
      const m = loadEvaaSupplyMaster(b.nodes[0]!.body);
      sender = b.nodes[0]!.source;
      recipient = m.recipient;
      amount = m.amount;
    } else if (transfer?.forward_payload) {
      const m = loadEvaaSupplyPayload(Cell.fromBase64(transfer.forward_payload));
      if (!m) return null;
      sender = transfer.sender ?? null;
      recipient = m.recipient;
      amount = BigInt(transfer.amount ?? 0);
    } else return null;
    const user = b.next.find((n) => userCall(n, EVAA_OP.supplyUser));
    if (!user) return null;
    const success = user.next.find((n) => isCall(n, EVAA_OP.supplySuccess));
    const fail = user.next.find((n) => isCall(n, EVAA_OP.supplyFail));
    const refund = user.next.find((n) => n.action === 'jetton_transfer');
    // neither outcome yet: the supply is still under way
    if (!success && !fail && !refund) return null;
    const include = [b, ...withReplies(user)];
    if (success) {
      include.push(...withReplies(success), ...evaaComment(success));
      amount = loadEvaaReportedAmount(success.nodes[0]!.body);
    }
    if (fail) include.push(...withReplies(fail));
    if (refund) include.push(refund);
    // supplied on someone else's behalf: their wallet is known only from a transfer back from the master's wallet
    const back = refund ? detailsOf(refund, 'jetton_transfer') : null;
    let recipientWallet: string | null = null;
    if (transfer && recipient === sender) recipientWallet = transfer.sender_jetton_wallet ?? null;
    else if (transfer && back && back.sender_jetton_wallet === transfer.receiver_jetton_wallet) recipientWallet = back.receiver_jetton_wallet ?? null;
    const userRest = evaaUserOp(user.nodes[0]!.body)!.rest;
    return found({
      type: 'evaa_supply',
      include,
      failed: b.failed || !success,
      details: {
        // printed from a column the reference leaves empty
        sender_jetton_wallet: null,
        recipient_jetton_wallet: recipientWallet,
        master_jetton_wallet: transfer ? (transfer.receiver_jetton_wallet ?? null) : null,
        master: transfer ? (transfer.receiver ?? null) : b.nodes[0]!.destination,
        asset_id: assetIdHex(loadEvaaUserAssetId(userRest)),
        is_ton: !transfer,
        source: sender,
        source_wallet: transfer ? (transfer.sender_jetton_wallet ?? null) : null,
        recipient,
        recipient_contract: user.nodes[0]!.destination,
        asset: transfer ? (transfer.asset ?? null) : null,
        amount: amount.toString(),
      },
    });
  },
});

/** What became of a withdrawal the user contract answered: paid out, refused by the master, or refused by the user contract. */
function withdrawOutcome(user: Block, isTon: boolean) {
  for (const c of user.next) {
    if (isCall(c, EVAA_OP.withdrawCollateralized)) {
      const update = c.next.find((n) => userCall(n, EVAA_OP.withdrawSuccess) && n.next.some((x) => x.type === 'ton_transfer'));
      const payout = isTon ? c.next.find((n) => isCall(n, EVAA_OP.withdrawSuccess)) : c.next.find((n) => n.action === 'jetton_transfer');
      if (update && payout) {
        const tonTransfer = update.next.find((x) => x.type === 'ton_transfer')!;
        return {
          kind: 'paid' as const,
          include: [...withReplies(c), ...withReplies(update), tonTransfer, ...(isTon ? [...withReplies(payout), ...evaaComment(payout)] : [payout])],
          amount: loadEvaaReportedAmount(c.nodes[0]!.body),
          payout: isTon ? null : detailsOf(payout, 'jetton_transfer'),
        };
      }
      const revert = c.next.find((n) => userCall(n, EVAA_OP.withdrawFail));
      const excess = revert?.next.find((n) => isCall(n, EVAA_OP.withdrawNoFundsExcess));
      if (revert && excess) return { kind: 'failed' as const, include: [...withReplies(c), ...withReplies(revert), ...withReplies(excess)], reason: 'withdraw_no_funds_excess' };
    }
    const reason = c.type === 'call_contract' && c.opcode !== null ? EVAA_WITHDRAW_FAIL_REASONS.get(c.opcode) : undefined;
    if (reason) return { kind: 'failed' as const, include: withReplies(c), reason };
  }
  return null;
}

export const evaaWithdraw = defineMatcher({
  name: 'evaa_withdraw',
  addressKeys: { evaa_withdraw: ['source', 'recipient', 'owner_contract', 'asset', 'master', 'master_jetton_wallet', 'recipient_jetton_wallet'] },
  async match(b) {
    if (!isCall(b, EVAA_OP.withdrawMaster)) return null;
    const request = loadEvaaWithdrawMaster(b.nodes[0]!.body);
    const user = b.next.find((n) => userCall(n, EVAA_OP.withdrawUser));
    if (!user) return null;
    const isTon = request.assetId === EVAA_TON_ASSET_ID;
    const outcome = withdrawOutcome(user, isTon);
    if (!outcome) return null;
    const paid = outcome.kind === 'paid' ? outcome : null;
    return found({
      type: 'evaa_withdraw',
      include: [b, ...withReplies(user), ...outcome.include],
      failed: b.failed || !paid,
      details: {
        recipient_jetton_wallet: paid?.payout?.receiver_jetton_wallet ?? null,
        master_jetton_wallet: paid?.payout?.sender_jetton_wallet ?? null,
        master: b.nodes[0]!.destination,
        fail_reason: outcome.kind === 'failed' ? outcome.reason : null,
        asset_id: assetIdHex(request.assetId),
        source: b.nodes[0]!.source,
        recipient: request.recipient,
        owner_contract: user.nodes[0]!.destination,
        asset: paid?.payout?.asset ?? null,
        amount: (paid ? paid.amount : request.amount).toString(),
      },
    });
  },
});

export const EVAA_MATCHERS = [evaaSupply, evaaWithdraw];
