/**
 * /api/v3 messages over the local chain (v3.md §2.1): by hash, body, opcode, source, destination and windows, in
 * toncenter v1.3's order: by effective lt (created_lt, or the receiving transaction's lt for external-in messages,
 * which have no created_lt), then msg_hash; by created_at, then msg_hash, under a utime window.
 */
import type { Address } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type { Sort } from '../../../api/v3/common.js';
import type { Message as V3Message, MessagesApi, MessagesParams, MessagesResponse } from '../../../api/v3/messages.js';
import { messageToV3 } from '../../../model/v3/index.js';
import { lowerBound, type TxRecord } from '../chain/store.js';
import { matchesHash, type MessageRow } from '../indexer/messages.js';
import type { LocalV3Context } from './v3-context.js';
import { receivedBy } from './v3-message-reads.js';
import { mergeBy, pageOf, pageOfWalk, walkArray } from './v3-order.js';

export function localMessages(ctx: LocalV3Context): MessagesApi {
  /**
   * Messages sent by these transactions (lt order), walked from the end the sort starts at: created lt and
   * created at grow with the sender's lt and, within one transaction, with the out-message index. Only the
   * transactions whose messages can fall inside the lt and utime windows are read.
   */
  function* sentMessages(txs: readonly TxRecord[], s: Sort, w: { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number }): Generator<MessageRow> {
    const index = ctx.indexer.messages;
    // an out-message's created_lt is in (lt, end lt] of its transaction, its created_at the transaction's utime
    let from = w.startLt === undefined ? 0 : lowerBound(txs as TxRecord[], (t) => t.endLt >= w.startLt!);
    let to = w.endLt === undefined ? txs.length : lowerBound(txs as TxRecord[], (t) => t.lt >= w.endLt!);
    if (w.startUtime !== undefined) from = Math.max(from, lowerBound(txs as TxRecord[], (t) => t.now >= w.startUtime!));
    if (w.endUtime !== undefined) to = Math.min(to, lowerBound(txs as TxRecord[], (t) => t.now > w.endUtime!));
    for (const t of walkArray(txs, s, from, to)) {
      const out = t.outMsgHashes;
      for (let k = 0; k < out.length; k++) {
        const row = index.get(out[s === 'asc' ? k : out.length - 1 - k]!);
        if (row) yield row;
      }
    }
  }

  return {
    async messages(p: MessagesParams): Promise<MessagesResponse> {
      const s = p.sort;
      if (p.direction !== undefined && p.direction !== 'in' && p.direction !== 'out') {
        throw new ApiError(422, 'direction should be one of: in, out');
      }
      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
      // the order column: created_at with a utime filter (which external-in messages, NULL there, never meet),
      // the effective lt otherwise
      const orderCol = (r: MessageRow): bigint | null => (hasUtime ? (r.createdAt === null ? null : BigInt(r.createdAt)) : r.orderLt);
      const src = (r: MessageRow): Address | undefined => r.source;
      const dst = (r: MessageRow): Address | undefined => r.destination;
      const sameAddr = (a: Address | undefined, want: Address | null | undefined) =>
        want === undefined ? true : want === null ? a === undefined : a !== undefined && a.equals(want);

      const keep = (r: MessageRow): boolean => {
        if (p.msgHash?.length && !matchesHash(r, p.msgHash)) return false;
        if (p.bodyHash && !r.bodyHash.equals(p.bodyHash)) return false;
        if (!sameAddr(src(r), p.source) || !sameAddr(dst(r), p.destination)) return false;
        if (p.opcode !== undefined && r.opcode !== p.opcode >>> 0) return false;
        if (p.startUtime !== undefined && (r.createdAt === null || r.createdAt < p.startUtime)) return false;
        if (p.endUtime !== undefined && (r.createdAt === null || r.createdAt > p.endUtime)) return false;
        // lt windows: v1.3 compares its effective lt but first drops external-in messages ("external-in messages
        // still do not belong to created_lt windows"), so a window bounds created_lt and never holds an
        // external-in; we do the same, so a window answers as the upstream does and a client's lt cursor over
        // this list skips the external-ins, as it does there
        if (p.startLt !== undefined && (r.createdLt === null || r.createdLt < p.startLt)) return false;
        if (p.endLt !== undefined && (r.createdLt === null || r.createdLt > p.endLt)) return false;
        if (p.direction === 'in' && !r.inTx) return false;
        if (p.direction === 'out' && !r.outTx) return false;
        if (p.excludeExternals && r.createdLt === null) return false;
        if (p.onlyExternals && r.createdLt !== null) return false;
        return true;
      };
      // ORDER BY <col> <s>, msg_hash <s>; a NULL (created_at of an external-in, filtered out before) would go last
      // ascending and first descending, as PostgreSQL puts it
      const compare = (a: MessageRow, b: MessageRow): number => {
        const x = orderCol(a);
        const y = orderCol(b);
        let c = 0;
        if (x === null || y === null) c = x === y ? 0 : x === null ? 1 : -1;
        else c = x < y ? -1 : x > y ? 1 : 0;
        if (c === 0) c = a.hashB64 < b.hashB64 ? -1 : a.hashB64 > b.hashB64 ? 1 : 0;
        return s === 'asc' ? c : -c;
      };
      const index = ctx.indexer.messages;
      let rows: MessageRow[];
      // candidates from the narrowest index the filters name: small sets are sorted whole, the rest walked in order
      const small = (list: Iterable<MessageRow>) => pageOf([...list].filter(keep).sort(compare), p);
      if (p.msgHash?.length) rows = small(index.byHashes(p.msgHash));
      else if (p.bodyHash) rows = small(index.withBody(p.bodyHash));
      else if (p.destination) rows = small(receivedBy(ctx, p.destination));
      else if (p.opcode !== undefined && !p.source) rows = small(index.withOpcode(p.opcode >>> 0));
      else {
        // created_lt and created_at follow the sending transaction's lt, an external-in's effective lt its receiving
        // transaction's: both walks are in order and merge into one; a walk's order within one value is fixed by the sort
        const externals = p.excludeExternals || p.source || (p.source !== null && hasWindow(p)) ? [] : index.externals();
        const sent = p.onlyExternals || p.source === null ? [] : sentMessages(p.source ? ctx.store.accountTransactions(p.source) : ctx.store.sealedTransactions(), s, p);
        const walk = mergeBy((r: MessageRow) => orderCol(r)!, [sent[Symbol.iterator](), walkArray(externals, s)], s);
        rows = pageOfWalk(walk, keep, (a, b) => orderCol(a) !== null && orderCol(a) === orderCol(b), compare, p);
      }
      const messages: V3Message[] = rows.map((r) =>
        messageToV3(r.msg, r.cell, {
          ...(r.inTx ? { inMsgTxHash: Buffer.from(r.inTx.hash, 'hex') } : {}),
          ...(r.outTx ? { outMsgTxHash: Buffer.from(r.outTx.hash, 'hex') } : {}),
        }),
      );
      const addrs = messages.flatMap((m) => [m.source, m.destination].filter((a): a is string => a !== null));
      return { messages, address_book: ctx.book(addrs, p), metadata: await ctx.metadata(addrs, p) };
    },
  };
}

/** Whether a messages query bounds created_lt or created_at (which external-in messages, NULL in both, never meet). */
const hasWindow = (p: MessagesParams): boolean =>
  p.startLt !== undefined || p.endLt !== undefined || p.startUtime !== undefined || p.endUtime !== undefined;
