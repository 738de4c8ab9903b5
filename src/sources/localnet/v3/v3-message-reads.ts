/** The message rows an account sent or was sent, read through its transactions (shared by /messages and /transactions). */
import type { Address } from '@ton/core';
import type { MessageRow } from '../indexer/messages.js';
import type { LocalV3Context } from './v3-context.js';

/** The out-messages of an account's transactions, in lt order. */
export function* sentBy(ctx: LocalV3Context, address: Address): Generator<MessageRow> {
  const index = ctx.indexer.messages;
  for (const t of ctx.store.accountTransactions(address)) {
    for (const h of t.outMsgHashes) {
      const row = index.get(h);
      if (row) yield row;
    }
  }
}

/** Messages to an account: the in-messages of its transactions and those not delivered (yet). */
export function* receivedBy(ctx: LocalV3Context, address: Address): Generator<MessageRow> {
  const index = ctx.indexer.messages;
  for (const t of ctx.store.accountTransactions(address)) {
    const row = t.inMsgHash ? index.get(t.inMsgHash) : undefined;
    if (row) yield row;
  }
  for (const row of index.undeliveredRows()) if (row.destination?.equals(address)) yield row;
}
