/**
 * Follows one trace, the cascade of transactions an external message sets off: the transaction that received
 * the external message, then every transaction that received a message sent by one already in the trace.
 * The trace is complete when every message its transactions sent to an address has been received.
 * A trace that began before the subscription is first read from what is already sealed, level by level.
 */
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import type { V3Api } from '../../../api/v3/index.js';
import type { Transaction } from '../wire.js';
import type { McBlockEvent } from '../../../live/blocks.js';
import type { LiveEvent } from '../../../live/feed.js';
import { emptySubscription, type Subscription } from '../../../live/subscription.js';
import type { Follower, LiveFollowing, Sink } from './follower.js';

/** message hashes per transactionsByMessage call while catching up (they travel in the URL upstream) */
const HASHES_PER_CALL = 50;
/** levels of the cascade read while catching up; a longer trace continues from the live blocks */
const MAX_CATCH_UP_LEVELS = 64;

export const byLt = (a: Transaction, b: Transaction): number => {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? -1 : x > y ? 1 : 0;
};

export class TraceFollower implements Follower<Transaction> {
  /** hashes (base64) of messages the trace sent to an address and that were not received yet */
  private readonly awaited = new Set<string>();
  /** transactions already delivered */
  private readonly seen = new Set<string>();
  private rootSeen = false;
  /**
   * From the stream: `trace` events of the hash as given (taken for a normalised hash), and of the root's
   * normalised hash once the root is seen. Until then blocks are polled too, as the given hash may not be the
   * normalised one the stream knows.
   */
  readonly live: LiveFollowing<Transaction>;

  constructor(
    /** base64; matches the message hash or its normalised hash */
    private readonly externalHash: string,
    private readonly v3: V3Api,
  ) {
    let sub: Subscription = { ...emptySubscription(undefined), types: new Set(['trace']), traceHashes: new Set([externalHash]) };
    this.live = {
      get sub() {
        return sub;
      },
      onEvent: (e, out) => this.onEvent(e, out),
      needsBlocks: () => !this.rootSeen,
    };
    this.withNorm = (norm) => {
      if (!sub.traceHashes.has(norm)) sub = { ...sub, traceHashes: new Set([...sub.traceHashes, norm]) };
    };
  }

  /** The root's normalised hash joins what the stream is asked for. */
  private readonly withNorm: (norm: string) => void;

  get complete(): boolean {
    return this.rootSeen && this.awaited.size === 0;
  }

  async start(out: Sink<Transaction>): Promise<void> {
    let wanted = [this.externalHash];
    for (let level = 0; level < MAX_CATCH_UP_LEVELS && wanted.length > 0; level++) {
      const found: Transaction[] = [];
      for (let i = 0; i < wanted.length; i += HASHES_PER_CALL) {
        const { transactions } = await this.v3.transactionsByMessage({
          msgHash: wanted.slice(i, i + HASHES_PER_CALL).map((h) => Buffer.from(h, 'base64')),
          direction: 'in',
          limit: V3_MAX_LIMIT,
          offset: 0,
          noAddressBook: true,
        });
        found.push(...transactions);
      }
      const taken = this.take(found.sort(byLt), out);
      wanted = taken.flatMap((tx) => tx.out_msgs.filter((m) => m.destination && this.awaited.has(m.hash)).map((m) => m.hash));
    }
    if (this.complete) out.end();
  }

  onBlock(event: McBlockEvent, out: Sink<Transaction>): void {
    this.take(event.transactions, out);
    if (this.complete) out.end();
  }

  /** A finalized `trace` event: a snapshot of the whole trace, its transactions by hash. */
  private onEvent(e: LiveEvent, out: Sink<Transaction>): void {
    if (e.type !== 'trace' || e.finality !== 'finalized' || typeof e.transactions !== 'object' || e.transactions === null) return;
    this.take(Object.values(e.transactions as Record<string, Transaction>).sort(byLt), out);
    if (this.complete) out.end();
  }

  /** Delivers the transactions (in lt order) that belong to the trace; returns them. */
  private take(txs: Transaction[], out: Sink<Transaction>): Transaction[] {
    const taken: Transaction[] = [];
    for (const tx of txs) {
      const msg = tx.in_msg;
      if (!msg || this.seen.has(tx.hash)) continue;
      const isRoot = !this.rootSeen && (msg.hash === this.externalHash || msg.hash_norm === this.externalHash);
      if (!isRoot && !this.awaited.delete(msg.hash)) continue;
      if (isRoot) {
        this.rootSeen = true;
        if (msg.hash_norm) this.withNorm(msg.hash_norm);
      }
      this.seen.add(tx.hash);
      for (const m of tx.out_msgs) if (m.destination) this.awaited.add(m.hash);
      out.push(tx);
      taken.push(tx);
    }
    return taken;
  }
}
