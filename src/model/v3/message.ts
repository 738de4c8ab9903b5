/**
 * Messages as v3 prints them (v3.md §3.0 "Message", `models/blockchain.go`), checked against the recorded
 * testnet response (../shared/fixtures/axelar-relayer-ton.v3_transactions.json):
 * - internal: every field set; `import_fee` null;
 * - external-in: `source`, value and fees, `created_lt`/`created_at`, flags null; `import_fee` and `hash_norm` set;
 * - external-out: `destination`, value and fees, flags null; `created_lt`/`created_at` set;
 * - `opcode` is the body's first 32 bits as "0x%08x", null when the root cell holds fewer;
 * - `message_content.hash` is the body cell hash, `body` its BoC; `init_state` the StateInit's hash and BoC.
 */
import { beginCell, storeStateInit, type Cell, type Message } from '@ton/core';
import type { Message as V3Message, MessageContent } from '../../api/v3/messages.js';
import { bocB64, normalizedHash } from '../message.js';
import { COMMENT_OP, loadWholeSnakeBytes } from '../tlb/comment.js';
import { addrOrNull, b64, extraCurrencyMap, opcodeHex, rawUpper } from './common.js';
import { bodyOp } from '../tlb/common.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** `{type:"text_comment", comment}` for an op-0 body holding valid UTF-8, as ton-marker decodes it; else null. */
export function decodeBody(body: Cell): Record<string, unknown> | null {
  if (bodyOp(body) !== COMMENT_OP.text) return null;
  try {
    const s = body.beginParse();
    s.skip(32);
    const bytes = loadWholeSnakeBytes(s);
    if (!bytes) return null;
    return { type: 'text_comment', comment: utf8.decode(bytes) };
  } catch {
    // not UTF-8 or a pruned cell: the marker leaves such bodies undecoded
    return null;
  }
}

function messageContent(body: Cell): MessageContent {
  return { hash: b64(body.hash()), body: bocB64(body), decoded: decodeBody(body) };
}

function initState(msg: Message): MessageContent | null {
  if (!msg.init) return null;
  const cell = beginCell().store(storeStateInit(msg.init)).endCell();
  return { hash: b64(cell.hash()), body: bocB64(cell), decoded: null };
}

export interface MessageExtras {
  /** /messages only: hash of the transaction that received the message */
  inMsgTxHash?: Buffer;
  /** /messages only: hash of the transaction that sent the message */
  outMsgTxHash?: Buffer;
}

/**
 * One message in v3 form. `cell` is the message cell exactly as the transaction holds it (its hash is the
 * message hash); key order follows `models.Message`.
 */
export function messageToV3(msg: Message, cell: Cell, extras: MessageExtras = {}): V3Message {
  const info = msg.info;
  const op = bodyOp(msg.body);
  const decoded = decodeBody(msg.body);
  const base = {
    hash: b64(cell.hash()),
    source: null as string | null,
    destination: null as string | null,
    value: null as string | null,
    value_extra_currencies: null as Record<string, string> | null,
    fwd_fee: null as string | null,
    ihr_fee: null as string | null,
    extra_flags: null as string | null,
    created_lt: null as string | null,
    created_at: null as string | null,
    opcode: op === null ? null : opcodeHex(op),
    decoded_opcode: decoded ? 'text_comment' : null,
    ihr_disabled: null as boolean | null,
    bounce: null as boolean | null,
    bounced: null as boolean | null,
    import_fee: null as string | null,
  };
  switch (info.type) {
    case 'internal':
      base.source = rawUpper(info.src);
      base.destination = rawUpper(info.dest);
      base.value = info.value.coins.toString();
      base.value_extra_currencies = extraCurrencyMap(info.value.other);
      base.fwd_fee = info.forwardFee.toString();
      base.ihr_fee = info.ihrFee.toString();
      // the field ihr_fee occupies is extra_flags in the current TL-B; both read the same bits
      base.extra_flags = info.ihrFee.toString();
      base.created_lt = info.createdLt.toString();
      base.created_at = String(info.createdAt);
      base.ihr_disabled = info.ihrDisabled;
      base.bounce = info.bounce;
      base.bounced = info.bounced;
      break;
    case 'external-in':
      base.destination = addrOrNull(info.dest);
      base.import_fee = info.importFee.toString();
      break;
    case 'external-out':
      base.source = addrOrNull(info.src);
      base.created_lt = info.createdLt.toString();
      base.created_at = String(info.createdAt);
      break;
  }
  // the keys appended to `base` in their printed order (assigned, not spread: V8 on Node 20 builds a spread copy
  // with more properties ~10x slower, each time with a new hidden class in the old generation)
  const out: V3Message = Object.assign(
    base,
    extras.inMsgTxHash ? { in_msg_tx_hash: b64(extras.inMsgTxHash) } : undefined,
    extras.outMsgTxHash ? { out_msg_tx_hash: b64(extras.outMsgTxHash) } : undefined,
    { message_content: messageContent(msg.body), init_state: initState(msg) },
  );
  if (info.type === 'external-in') out.hash_norm = b64(normalizedHash(msg, cell));
  return out;
}
