/**
 * tgBTC (the TON Teleport bitcoin bridge): the logs its contracts emit (external-out messages), as the reference
 * classifier reads them (`indexer/events/blocks/messages/tgbtc.py` of toncenter/ton-indexer).
 *
 * TL-B:
 *   mint#77a80ef3 amount:Coins recipient:MsgAddress bitcoin_txid:uint256 = LogBody;
 *   burn#ca444ce6 amount:Coins sender:MsgAddress pegout:MsgAddress = LogBody;
 *   new_key#27756729 amount:Coins new_internal_pubkey:uint256 pegout:MsgAddress = LogBody;
 *   dkg_completed#453443a6 timestamp:uint64 internal_pubkey:uint256 = LogBody;
 * and the internal messages the matchers anchor at: 0x3f781d24 (a mint request, the head of the mint chain),
 * 0xe42a879b (the tail of the mint chain), 0x690f357a (a new key), 0xbe44e7a6 (a pegout deployed).
 */
import { Address, type Cell, type Slice } from '@ton/core';
import { rawUpper } from '../address.js';

export const TGBTC_OP = {
  mintLog: 0x77a80ef3,
  burnLog: 0xca444ce6,
  newKeyLog: 0x27756729,
  dkgCompletedLog: 0x453443a6,
  mintRequest: 0x3f781d24,
  mintTail: 0xe42a879b,
  newKey: 0x690f357a,
  pegoutDeploy: 0xbe44e7a6,
  pegoutNotify: 0x1a84c0e0,
  burnNotificationAlt: 0x587643a2,
} as const;

const addressOrNull = (a: Address | null): string | null => (Address.isAddress(a) ? rawUpper(a) : null);

/**
 * A MsgAddress as the reference reads it: an internal address with an anycast prefix keeps its account id as
 * written (the reference's reader ignores the rewrite, which @ton/core applies), so the pegout printed matches.
 */
function loadAddressAsWritten(s: Slice): string | null {
  if (s.remainingBits < 2 || s.preloadUint(2) !== 2) return addressOrNull(s.loadAddressAny() as Address | null);
  s.skip(2);
  if (s.loadBit()) s.skip(s.loadUint(5));
  const workchain = s.loadInt(8);
  return rawUpper(new Address(workchain, s.loadBuffer(32)));
}
const hex256 = (v: bigint): string => v.toString(16).padStart(64, '0');

export function loadMintLog(body: Cell): { amount: bigint; recipient: string | null; bitcoinTxId: string } {
  const s = body.beginParse();
  s.skip(32);
  const amount = s.loadCoins();
  const recipient = addressOrNull(s.loadAddressAny() as Address | null);
  // the bridge stores the txid little-endian; bitcoin prints it reversed
  const txid = Buffer.from(hex256(s.loadUintBig(256)), 'hex').reverse().toString('hex');
  return { amount, recipient, bitcoinTxId: txid };
}

export function loadBurnLog(body: Cell): { amount: bigint; sender: string | null; pegout: string | null } {
  const s = body.beginParse();
  s.skip(32);
  const amount = s.loadCoins();
  // an older schema's log has no (readable) addresses after the amount: the reference keeps the amount alone
  let sender: string | null = null;
  let pegout: string | null = null;
  try {
    sender = loadAddressAsWritten(s);
    pegout = loadAddressAsWritten(s);
  } catch {
    // what was read stays
  }
  return { amount, sender, pegout };
}

/** dkg_completed: when the key generation completed, and its internal public key as the reference prints it (hex, no leading zeros). */
export function loadDkgCompletedLog(body: Cell): { timestamp: bigint; pubkey: string } {
  const s = body.beginParse();
  s.skip(32);
  const timestamp = s.loadUintBig(64);
  return { timestamp, pubkey: s.loadUintBig(256).toString(16) };
}

export function loadNewKeyLog(body: Cell): { amount: bigint; pubkey: string; pegout: string | null } {
  const s = body.beginParse();
  s.skip(32);
  const amount = s.loadCoins();
  const pubkey = hex256(s.loadUintBig(256));
  return { amount, pubkey, pegout: addressOrNull(s.loadAddressAny() as Address | null) };
}
