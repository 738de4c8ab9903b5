/** Jetton transfers, burns and mints (TEP-74): the wallet's messages and the notifications and excesses they cause. */
import type { JettonMintDetails, JettonTransferDetails } from '../../../api/v3/action-details.js';
import { payloadComment } from '../../tlb/comment.js';
import { JETTON_OP } from '../../tlb/jetton.js';
import { type JettonTransferBody, parseJettonBurn, parseJettonInternalTransfer, parseJettonMint, parseJettonTransfer } from '../decode.js';
import { cellB64, commentText, defineMatcher, found, isCall, replies, type Block, type ContractInfo, type Match } from './block.js';

/** An internal transfer with the notification and replies it causes. */
export function internalTransferTree(it: Block): Block[] {
  const out = [it];
  for (const n of it.next.filter((x) => isCall(x, JETTON_OP.transferNotification))) out.push(n, ...replies(n));
  out.push(...replies(it));
  return out;
}

export const JETTON_TRANSFER_ADDRESS_KEYS = ['asset', 'sender', 'receiver', 'sender_jetton_wallet', 'receiver_jetton_wallet', 'response_destination'] as const;

/** The details a transfer's own body gives: its comment, query id, response destination and payloads. */
export function transferBodyDetails(body: JettonTransferBody) {
  const comment = payloadComment(body.forwardPayload);
  return {
    comment: comment ? commentText(comment) : null,
    is_encrypted_comment: comment?.type === 'encrypted',
    query_id: body.queryId.toString(),
    response_destination: body.responseDestination,
    custom_payload: cellB64(body.customPayload),
    forward_payload: cellB64(body.forwardPayload),
  } satisfies JettonTransferDetails;
}

/**
 * A transfer that never reached the receiver's wallet (the sender's wallet failed, or never got it): failed,
 * named by its own body, the asset known from the sender's wallet.
 */
async function failedTransfer(b: Block, info: ContractInfo): Promise<Match<'jetton_transfer'> | null> {
  const node = b.nodes[0]!;
  // a transfer that succeeded without an internal transfer is another wallet's (pTON pays TON out instead)
  if (!b.failed || !node.destination) return null;
  const wallet = await info.jettonWallet(node.destination);
  if (!wallet) return null;
  let body: JettonTransferBody;
  try {
    body = parseJettonTransfer(node.body);
  } catch {
    return null;
  }
  return found({
    type: 'jetton_transfer',
    include: [b, ...replies(b)],
    failed: true,
    // the sender's wallet, which may have no transaction here (a wallet external that sent nothing)
    extraAccounts: [node.destination],
    details: {
      asset: wallet.jetton,
      sender: node.source,
      receiver: body.destination,
      sender_jetton_wallet: node.destination,
      receiver_jetton_wallet: null,
      amount: body.amount.toString(),
      ...transferBodyDetails(body),
      forward_amount: body.forwardTonAmount.toString(),
    },
  });
}

export const jettonTransfer = defineMatcher({
  name: 'jetton_transfer',
  addressKeys: { jetton_transfer: JETTON_TRANSFER_ADDRESS_KEYS },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.transfer)) return null;
    const internals = b.next.filter((n) => isCall(n, JETTON_OP.internalTransfer));
    if (internals.length === 0) return failedTransfer(b, info);
    const covered = [...internals.flatMap(internalTransferTree), ...replies(b)];
    const internal = internals[0]!;
    const body = parseJettonTransfer(b.nodes[0]!.body);
    const receiverWallet = internal.nodes[0]!.destination!;
    const wallet = await info.jettonWallet(receiverWallet);
    if (!wallet) return null;
    let amount = body.amount;
    let forwardAmount = body.forwardTonAmount;
    try {
      const it = parseJettonInternalTransfer(internal.nodes[0]!.body);
      amount = it.amount;
      forwardAmount = it.forwardTonAmount;
    } catch {
      // the reference keeps the transfer's own figures when the internal transfer does not parse
    }
    return found({
      type: 'jetton_transfer',
      include: [b, ...covered],
      failed: b.failed || internal.failed,
      hasInternalTransfer: true,
      details: {
        asset: wallet.jetton,
        sender: b.nodes[0]!.source,
        // a receiver wallet owned by someone else than the transfer names wins (the reference marks it broken)
        receiver: body.destination === wallet.owner ? body.destination : wallet.owner,
        sender_jetton_wallet: b.nodes[0]!.destination,
        receiver_jetton_wallet: receiverWallet,
        amount: amount.toString(),
        ...transferBodyDetails(body),
        forward_amount: forwardAmount.toString(),
      },
    });
  },
});

export const jettonBurn = defineMatcher({
  name: 'jetton_burn',
  addressKeys: { jetton_burn: ['owner', 'owner_jetton_wallet', 'asset'] },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.burn)) return null;
    const covered: Block[] = [];
    for (const n of b.next.filter((x) => isCall(x, JETTON_OP.burnNotification))) covered.push(n, ...replies(n));
    covered.push(...replies(b));
    const walletAddr = b.nodes[0]!.destination!;
    const wallet = await info.jettonWallet(walletAddr);
    if (!wallet) return null;
    const body = parseJettonBurn(b.nodes[0]!.body);
    return found({
      type: 'jetton_burn',
      include: [b, ...covered],
      failed: b.failed,
      details: { owner: wallet.owner, owner_jetton_wallet: walletAddr, asset: wallet.jetton, amount: body.amount.toString() },
    });
  },
});

export const jettonMint = defineMatcher({
  name: 'jetton_mint',
  addressKeys: { jetton_mint: ['asset', 'receiver', 'receiver_jetton_wallet'] },
  async match(b, info) {
    if (!isCall(b, JETTON_OP.mint) && !isCall(b, JETTON_OP.minterMint)) return null;
    const covered: Block[] = [];
    for (const n of b.next) {
      if (isCall(n, JETTON_OP.transferNotification)) covered.push(n, ...replies(n));
      else if (isCall(n, JETTON_OP.internalTransfer)) covered.push(...internalTransferTree(n));
    }
    covered.push(...replies(b));
    const mint = parseJettonMint(b.nodes[0]!.body);
    const internal = covered.find((x) => isCall(x, JETTON_OP.internalTransfer));
    let details: JettonMintDetails;
    let failed: boolean;
    if (!b.failed && internal) {
      const receiverWallet = internal.nodes[0]!.destination!;
      const wallet = await info.jettonWallet(receiverWallet);
      if (!wallet) return null;
      const it = parseJettonInternalTransfer(internal.nodes[0]!.body);
      details = {
        asset: wallet.jetton,
        receiver: wallet.owner,
        receiver_jetton_wallet: receiverWallet,
        amount: it.amount.toString(),
        ton_amount: mint.tonAmount.toString(),
      };
      failed = b.failed || internal.failed;
    } else {
      details = {
        asset: b.nodes[0]!.destination,
        receiver: mint.toAddress,
        receiver_jetton_wallet: null,
        amount: mint.masterMsgAmount?.toString() ?? null,
        ton_amount: mint.tonAmount.toString(),
      };
      failed = true;
    }
    return found({ type: 'jetton_mint', include: [b, ...covered], failed, details });
  },
});
