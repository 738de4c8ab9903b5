/**
 * Cocoon (decentralised AI inference: root, proxy, worker and client contracts), the messages the reference
 * classifier reads (`indexer/events/blocks/messages/cocoon.py` of toncenter/ton-indexer).
 *
 * TL-B (Tolk structs of the Cocoon contracts):
 *   payout#c59a7cd3 query_id:uint64 = Msg;                                (proxy or client → owner: coins out)
 *   return_excesses_back#2565934c query_id:uint64 = Msg;
 *   worker_proxy_request#4d725d2c query_id:uint64 owner:MsgAddress state:uint2 tokens:uint64 payload:(Maybe ^Cell) = Msg;
 *   client_proxy_request#65448ff4 query_id:uint64 owner:MsgAddress state:^Cell payload:(Maybe ^Cell) = Msg;
 *   payout_payload#a040ad28 query_id:uint64 new_tokens:uint64 expected_my_address:MsgAddress = Msg;
 *   last_payout_payload#f5f26a36 (the same fields) = Msg;
 *   charge_payload#bb63ff93 query_id:uint64 new_tokens_used:uint64 expected_my_address:MsgAddress = Msg;
 *   grant_refund_payload#efd711e1 (the same fields) = Msg;
 *   ext_proxy_payout_request#7610e6eb query_id:uint64 send_excesses_to:MsgAddress = Msg;
 *   ext_client_top_up#f172e6c2 query_id:uint64 top_up_amount:Coins send_excesses_to:MsgAddress = Msg;
 *   register_proxy#927c7cb5 query_id:uint64 proxy_info:Cell = Msg;
 *   unregister_proxy#6d49eaf2 query_id:uint64 seqno:uint32 = Msg;
 *   owner_client_register#c45f9f3b query_id:uint64 nonce:uint64 send_excesses_to:MsgAddress = Msg;
 *   owner_client_change_secret_hash#a9357034 query_id:uint64 new_secret_hash:uint256 send_excesses_to:MsgAddress = Msg;
 *   owner_client_increase_stake#6a1f6a60 query_id:uint64 new_stake:Coins send_excesses_to:MsgAddress = Msg;
 *   owner_client_withdraw#da068e78 query_id:uint64 send_excesses_to:MsgAddress = Msg;
 *   owner_client_request_refund#fafa6cc1 query_id:uint64 send_excesses_to:MsgAddress = Msg;
 *   owner_wallet_send_message#9c69f376 query_id:uint64 mode:uint8 body:^Cell = Msg;
 */
import { Address, ExternalAddress, type Cell, type Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const COCOON_OP = {
  payout: 0xc59a7cd3,
  returnExcessesBack: 0x2565934c,
  workerProxyRequest: 0x4d725d2c,
  clientProxyRequest: 0x65448ff4,
  payoutPayload: 0xa040ad28,
  lastPayoutPayload: 0xf5f26a36,
  chargePayload: 0xbb63ff93,
  grantRefundPayload: 0xefd711e1,
  extProxyPayoutRequest: 0x7610e6eb,
  extClientTopUp: 0xf172e6c2,
  registerProxy: 0x927c7cb5,
  unregisterProxy: 0x6d49eaf2,
  ownerClientRegister: 0xc45f9f3b,
  ownerClientChangeSecretHash: 0xa9357034,
  ownerClientIncreaseStake: 0x6a1f6a60,
  ownerClientWithdraw: 0xda068e78,
  ownerClientRequestRefund: 0xfafa6cc1,
  ownerWalletSendMessage: 0x9c69f376,
} as const;

/** The body after its opcode and query id. */
function opened(body: Cell, op: number): { s: Slice; queryId: bigint } {
  const s = body.beginParse();
  if (s.loadUint(32) !== op) throw new Error(`not a Cocoon 0x${op.toString(16)} message`);
  return { s, queryId: s.loadUintBig(64) };
}

/** An address as the reference prints it: raw upper-case, or `<bits>;<hex>` for an external one. */
function anyAddress(s: Slice): string | null {
  const a = s.loadAddressAny();
  if (a instanceof ExternalAddress) return `${a.bits};${a.value.toString(16)}`;
  return Address.isAddress(a) ? rawUpper(a) : null;
}

/** payout_payload, last_payout_payload, charge_payload and grant_refund_payload */
export function loadTokensPayload(body: Cell, op: number): { queryId: bigint; tokens: bigint; expectedAddress: string | null } {
  const { s, queryId } = opened(body, op);
  return { queryId, tokens: s.loadUintBig(64), expectedAddress: anyAddress(s) };
}

export function loadWorkerProxyRequest(body: Cell): { queryId: bigint; owner: string; state: number; tokens: bigint } {
  const { s, queryId } = opened(body, COCOON_OP.workerProxyRequest);
  return { queryId, owner: rawUpper(s.loadAddress()), state: s.loadUint(2), tokens: s.loadUintBig(64) };
}

/** The query id, and the excesses address where the message ends with one (the owner's requests). */
export function loadOwnerRequest(body: Cell, op: number): { queryId: bigint; sendExcessesTo: string | null } {
  const { s, queryId } = opened(body, op);
  if (op === COCOON_OP.extClientTopUp || op === COCOON_OP.ownerClientIncreaseStake) s.loadCoins();
  else if (op === COCOON_OP.ownerClientRegister) s.skip(64);
  else if (op === COCOON_OP.ownerClientChangeSecretHash) s.skip(256);
  return { queryId, sendExcessesTo: anyAddress(s) };
}

export const loadQueryId = (body: Cell, op: number): bigint => opened(body, op).queryId;

/** ext_client_top_up's top_up_amount, owner_client_increase_stake's new_stake */
export const loadCoinsAfterQuery = (body: Cell, op: number): bigint => opened(body, op).s.loadCoins();

export const loadUnregisterSeqno = (body: Cell): number => opened(body, COCOON_OP.unregisterProxy).s.loadUint(32);
export const loadRegisterNonce = (body: Cell): bigint => opened(body, COCOON_OP.ownerClientRegister).s.loadUintBig(64);
export const loadNewSecretHash = (body: Cell): string =>
  opened(body, COCOON_OP.ownerClientChangeSecretHash).s.loadUintBig(256).toString(16).padStart(64, '0');
