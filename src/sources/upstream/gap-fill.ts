/**
 * Finalized `transactions` events built from v3 answers, the shape Streaming API v2 gives them
 * (`../shared/reference/streaming-v2.md` §5.1): for the polling fallback (a masterchain block's transactions) and
 * for a gap in the upstream stream (the transactions of the addresses it carried, by account and time window,
 * asked after the connection is back).
 */
import { Address } from '@ton/core';
import type { Finality, LiveEvent, LiveEventType } from '../../live/feed.js';
import type { V3Api } from '../../api/v3/index.js';
import type { AddressBook } from '../../api/v3/common.js';
import type { Transaction } from '../../api/v3/transactions.js';
import type { DeepReadonly } from '../../api/shared-answers.js';

type Tx = DeepReadonly<Transaction>;

/** Accounts per /transactions request: 64 raw addresses keep its query string under 6 KB. */
const ACCOUNTS_PER_REQUEST = 64;
/** Transactions per page, within the reference's limit of 1000. */
const PAGE = 256;

/**
 * The watched accounts' transactions as one `transactions` event per trace at `finalized`, transactions by lt
 * descending, the trace's normalized external hash when its root is among them; the address book kept when given.
 */
export function transactionEvents(transactions: readonly Tx[], watched: ReadonlySet<string>, addressBook?: DeepReadonly<AddressBook>): LiveEvent[] {
  const traces = new Map<string, Tx[]>();
  for (const tx of transactions) {
    if (!watched.has(tx.account.toUpperCase())) continue;
    const key = tx.trace_id ?? tx.hash;
    const group = traces.get(key) ?? [];
    group.push(tx);
    traces.set(key, group);
  }
  const finality: Finality = 'finalized';
  return [...traces.values()].map((txs) => {
    const root = txs.find((t) => t.in_msg && t.in_msg.source === null);
    const norm = root?.in_msg?.hash_norm ?? root?.in_msg?.hash;
    const ordered = [...txs].sort((a, b) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : BigInt(b.lt) < BigInt(a.lt) ? -1 : 0));
    return {
      type: 'transactions' satisfies LiveEventType,
      finality,
      ...(norm ? { trace_external_hash_norm: norm } : {}),
      transactions: ordered.map((t) => ({ ...t, finality })),
      ...(addressBook ? { address_book: addressBook } : {}),
    };
  });
}

/**
 * Every transaction of these accounts whose time is in [fromUtime, toUtime], oldest first, as `transactions`
 * events; undefined when there are more than `max` (the gap is then reported, not filled).
 */
export async function gapEvents(v3: V3Api, addresses: readonly string[], fromUtime: number, toUtime: number, max: number): Promise<LiveEvent[] | undefined> {
  const found: Tx[] = [];
  const book: AddressBook = {};
  for (let i = 0; i < addresses.length; i += ACCOUNTS_PER_REQUEST) {
    const account = addresses.slice(i, i + ACCOUNTS_PER_REQUEST).map((a) => Address.parse(a));
    for (let offset = 0; ; offset += PAGE) {
      const page = await v3.transactions({ account, startUtime: fromUtime, endUtime: toUtime, limit: PAGE, offset, sort: 'asc' });
      found.push(...page.transactions);
      Object.assign(book, page.address_book);
      if (found.length > max) return undefined;
      if (page.transactions.length < PAGE) break;
    }
  }
  return transactionEvents(found, new Set(addresses), book);
}
