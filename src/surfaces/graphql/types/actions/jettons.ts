/** Details of the jetton action types: transfers, burns, mints and swaps (v3.md §4.4 "Jettons"). */
import type { JettonSwapPeerSwap, JettonSwapTransfer } from '../../../../api/v3/action-details.js';
import { detailsType, structType } from './kit.js';

const SwapTransferRef = structType<JettonSwapTransfer>('JettonSwapTransfer', 'One leg of a swap, into or out of the DEX; `asset` null is TON.', (f) => ({
  ...f.jetton('asset', 'asset', (s) => s.asset),
  source: f.account('source', (s) => s.source),
  destination: f.account('destination', (s) => s.destination),
  ...f.jettonWallet('sourceJettonWallet', 'source_jetton_wallet', (s) => s.source_jetton_wallet),
  ...f.jettonWallet('destinationJettonWallet', 'destination_jetton_wallet', (s) => s.destination_jetton_wallet),
  amount: f.bigint('amount', (s) => s.amount),
}));

const PeerSwapRef = structType<JettonSwapPeerSwap>('JettonPeerSwap', 'A hop of a multi-pool swap.', (f) => ({
  ...f.jetton('assetIn', 'asset_in', (s) => s.asset_in),
  amountIn: f.bigint('amount_in', (s) => s.amount_in),
  ...f.jetton('assetOut', 'asset_out', (s) => s.asset_out),
  amountOut: f.bigint('amount_out', (s) => s.amount_out),
}));

export const JETTON_DETAILS = [
  detailsType('JettonTransferDetails', ['jetton_transfer'], 'Jettons sent from one owner to another (TEP-74)', (f) => ({
    ...f.jetton('jetton', 'asset', (a) => a.details.asset, 'the jetton master'),
    sender: f.account('sender', (a) => a.details.sender),
    receiver: f.account('receiver', (a) => a.details.receiver),
    ...f.jettonWallet('senderWallet', 'sender_jetton_wallet', (a) => a.details.sender_jetton_wallet),
    ...f.jettonWallet('receiverWallet', 'receiver_jetton_wallet', (a) => a.details.receiver_jetton_wallet),
    amount: f.bigint('amount', (a) => a.details.amount),
    comment: f.string('comment', (a) => a.details.comment),
    isEncryptedComment: f.boolean('is_encrypted_comment', (a) => a.details.is_encrypted_comment),
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    responseDestination: f.account('response_destination', (a) => a.details.response_destination),
    customPayload: f.string('custom_payload', (a) => a.details.custom_payload, 'BoC, base64'),
    forwardPayload: f.string('forward_payload', (a) => a.details.forward_payload, 'BoC, base64'),
    forwardAmount: f.bigint('forward_amount', (a) => a.details.forward_amount),
  })),
  detailsType('JettonBurnDetails', ['jetton_burn'], 'Jettons burnt by their owner', (f) => ({
    ...f.jetton('jetton', 'asset', (a) => a.details.asset, 'the jetton master'),
    owner: f.account('owner', (a) => a.details.owner),
    ...f.jettonWallet('ownerWallet', 'owner_jetton_wallet', (a) => a.details.owner_jetton_wallet),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('JettonMintDetails', ['jetton_mint'], 'Jettons minted to a receiver', (f) => ({
    ...f.jetton('jetton', 'asset', (a) => a.details.asset, 'the jetton master'),
    receiver: f.account('receiver', (a) => a.details.receiver),
    ...f.jettonWallet('receiverWallet', 'receiver_jetton_wallet', (a) => a.details.receiver_jetton_wallet),
    amount: f.bigint('amount', (a) => a.details.amount),
    tonAmount: f.bigint('ton_amount', (a) => a.details.ton_amount),
  })),
  detailsType('JettonSwapDetails', ['jetton_swap'], 'A swap on a DEX', (f) => ({
    dex: f.string('dex', (a) => a.details.dex, 'dedust, stonfi, stonfi_v2, tonco, coffee, …'),
    sender: f.account('sender', (a) => a.details.sender),
    ...f.jetton('assetIn', 'asset_in', (a) => a.details.asset_in),
    ...f.jetton('assetOut', 'asset_out', (a) => a.details.asset_out),
    dexIncomingTransfer: f.object('dex_incoming_transfer', SwapTransferRef, (a) => a.details.dex_incoming_transfer),
    dexOutgoingTransfer: f.object('dex_outgoing_transfer', SwapTransferRef, (a) => a.details.dex_outgoing_transfer),
    peerSwaps: f.objects('peer_swaps', PeerSwapRef, (a) => a.details.peer_swaps),
    minOutAmount: f.bigint('min_out_amount', (a) => a.details.min_out_amount, 'TONCO and DeDust v2 swaps'),
  })),
];
