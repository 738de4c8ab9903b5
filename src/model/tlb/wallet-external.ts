/**
 * The internal messages a wallet's external message asks it to send, read without the wallet's code: what the
 * reference classifier does for a trace that stops at its external message (nothing was sent).
 *
 * TL-B (wallet v3/v4 from the wallets' FunC sources, v5r1 from `wallet_v5.tlb` of ton-blockchain/wallet-contract-v5):
 *   v3: signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 messages:^MessageRelaxed*
 *       (each message ref preceded by its mode byte in the data, which the reading skips)
 *   v4: signature:bits512 subwallet_id:uint32 valid_until:uint32 seqno:uint32 op:uint8 messages:^MessageRelaxed*
 *   v5r1: external_signed_request#7369676e wallet_id:uint32 valid_until:uint32 seqno:uint32
 *         actions:(Maybe ^OutList) has_other_actions:Bool ... signature:bits512
 *     out_list$_ {n:#} prev:^(OutList n) action:OutAction = OutList (n + 1);
 *     action_send_msg#0ec3c86d mode:(## 8) out_msg:^(MessageRelaxed Any) = OutAction;
 *   v5r1's other requests: internal_signed_request#73696e74 ... = InternalMsgBody;
 *     extension_action_request#6578746e query_id:uint64 ... = InternalMsgBody;
 *   v4 plugins (wallet-v4-code.fc), opcodes only: installation notification 0x6e6f7465 ("note"),
 *     destruct 0x64737472 ("dstr") and its response 0xe4737472.
 * The layouts are tried in the order v3, v4, v5r1; the first whose every message reads wins, as the reference
 * reads them (a v5r1 body is long enough to pass for v3, and its refs then fail to read as messages).
 */
import { loadMessageRelaxed, type Cell, type MessageRelaxed, type Slice } from '@ton/core';

export const W5_OP = { externalSignedRequest: 0x7369676e, internalSignedRequest: 0x73696e74, extensionActionRequest: 0x6578746e } as const;

export const WALLET_PLUGIN_OP = { installationNotification: 0x6e6f7465, destruct: 0x64737472, destructResponse: 0xe4737472 } as const;

export interface WalletPayload {
  /** the MessageRelaxed cell (its hash names the payload) */
  cell: Cell;
  /** null when the message is not internal */
  message: MessageRelaxed | null;
}

function payload(cell: Cell): WalletPayload {
  const s = cell.beginParse();
  if (s.preloadBit()) return { cell, message: null };
  return { cell, message: loadMessageRelaxed(s) };
}

function refsAsPayloads(s: Slice): WalletPayload[] {
  const out: WalletPayload[] = [];
  while (s.remainingRefs > 0) out.push(payload(s.loadRef()));
  return out;
}

const LAYOUTS: ((s: Slice) => WalletPayload[])[] = [
  (s) => {
    s.skip(512 + 32 + 32 + 32);
    return refsAsPayloads(s);
  },
  (s) => {
    s.skip(512 + 32 + 32 + 32 + 8);
    return refsAsPayloads(s);
  },
  (s) => {
    s.skip(32 + 32 + 32 + 32);
    const out: WalletPayload[] = [];
    let list = s.loadMaybeRef();
    while (list) {
      const l = list.beginParse();
      if (l.remainingBits === 0) break;
      list = l.loadRef();
      out.push(payload(l.loadRef()));
    }
    return out;
  },
];

/** The payloads of a wallet external message; empty when no layout reads. */
export function loadWalletExternalPayloads(body: Cell): WalletPayload[] {
  for (const layout of LAYOUTS) {
    try {
      return layout(body.beginParse());
    } catch {
      // not this wallet's layout: try the next one
    }
  }
  return [];
}
