/**
 * Vesting wallets (TON's vesting-contract): the owner's send request and the creator's whitelist additions, as
 * the reference classifier reads them (`indexer/events/blocks/messages/vesting.py` of toncenter/ton-indexer).
 *
 * TL-B:
 *   send_message#a7733acd query_id:uint64 mode:uint8 message:^(MessageRelaxed Any) = InternalMsgBody;
 *   send_message_response#f7733acd query_id:uint64 = InternalMsgBody;
 *   add_whitelist#7258a69b query_id:uint64 addresses:AddressChain = InternalMsgBody;
 *   add_whitelist_response#f258a69b query_id:uint64 = InternalMsgBody;
 *   AddressChain: an address, then (while a reference follows) the next cell holding the rest.
 */
import { Address, loadMessageRelaxed, type Cell } from '@ton/core';
import { rawUpper } from '../address.js';

export const VESTING_OP = {
  sendMessage: 0xa7733acd,
  sendMessageResponse: 0xf7733acd,
  addWhitelist: 0x7258a69b,
  addWhitelistResponse: 0xf258a69b,
} as const;

export function loadVestingSendMessage(body: Cell): { queryId: bigint; mode: number; message: Cell; destination: string | null; value: bigint } {
  const s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const mode = s.loadUint(8);
  const message = s.loadRef();
  const info = loadMessageRelaxed(message.beginParse()).info;
  const internal = info.type === 'internal';
  return { queryId, mode, message, destination: internal && Address.isAddress(info.dest) ? rawUpper(info.dest) : null, value: internal ? info.value.coins : 0n };
}

export function loadVestingAddWhitelist(body: Cell): { queryId: bigint; addresses: string[] } {
  let s = body.beginParse();
  s.skip(32);
  const queryId = s.loadUintBig(64);
  const addresses: string[] = [];
  const push = (a: Address | null): void => {
    if (a) addresses.push(rawUpper(a));
  };
  while (s.remainingRefs > 0) {
    push(s.loadMaybeAddress());
    s = s.loadRef().beginParse();
  }
  push(s.loadMaybeAddress());
  return { queryId, addresses };
}
