/**
 * Follows the transactions of some accounts, each delivered once as the masterchain block that commits it is
 * sealed, in lt order: from the polled blocks, or (upstream mode, while its stream is up) from the stream's
 * finalized `transactions` events of those accounts. Either may repeat what the other gave: a delivered
 * transaction's hash is remembered (the last few thousand) and not delivered again.
 */
import type { McBlockEvent } from '../../../live/blocks.js';
import type { LiveEvent } from '../../../live/feed.js';
import { emptySubscription } from '../../../live/subscription.js';
import { addressKey } from '../loaders.js';
import type { Transaction } from '../wire.js';
import type { Follower, LiveFollowing, Sink } from './follower.js';
import { byLt } from './trace.js';

/** hashes remembered to drop repeats; a stream repeats a trace's transactions within a few of its snapshots */
const REMEMBERED = 4096;

export class AccountsFollower implements Follower<Transaction> {
  private readonly seen = new Set<string>();
  readonly live: LiveFollowing<Transaction>;

  /** `accounts` raw upper-case */
  constructor(private readonly accounts: ReadonlySet<string>) {
    const sub = { ...emptySubscription(undefined), types: new Set(['transactions'] as const), addresses: new Set(accounts) };
    this.live = { sub, onEvent: (e, out) => this.onEvent(e, out) };
  }

  onBlock(event: McBlockEvent, out: Sink<Transaction>): void {
    for (const tx of event.transactions) if (this.accounts.has(addressKey(tx.account))) this.give(tx, out);
  }

  /** A finalized `transactions` event (the hub kept only these accounts' transactions, lt descending). */
  private onEvent(e: LiveEvent, out: Sink<Transaction>): void {
    if (e.type !== 'transactions' || e.finality !== 'finalized' || !Array.isArray(e.transactions)) return;
    for (const tx of (e.transactions as Transaction[]).slice().sort(byLt)) if (this.accounts.has(addressKey(tx.account))) this.give(tx, out);
  }

  private give(tx: Transaction, out: Sink<Transaction>): void {
    if (this.seen.has(tx.hash)) return;
    this.seen.add(tx.hash);
    if (this.seen.size > REMEMBERED) this.seen.delete(this.seen.values().next().value!);
    out.push(tx);
  }
}
