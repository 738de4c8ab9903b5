/** What a block-driven subscription is to the registry: a follower of new blocks, and of live events where it can be. */
import type { GraphQLError } from 'graphql';
import type { McBlockEvent } from '../../../live/blocks.js';
import type { LiveEvent } from '../../../live/feed.js';
import type { Subscription } from '../../../live/subscription.js';

/** Where a subscription's events go. */
export interface Sink<T> {
  push(value: T): void;
  end(): void;
  /** Ends after what is queued, the error as the last event. */
  fail(error: GraphQLError): void;
}

/**
 * How a follower is fed from the live hub instead of polled blocks: in upstream mode,
 * while the upstream stream is up, no block is polled for it.
 */
export interface LiveFollowing<T> {
  /** what it asks of the live hub; a new object when that changes (read after start and after each event) */
  readonly sub: Subscription;
  /** One event the hub routed to `sub`, in wire form. */
  onEvent(event: LiveEvent, out: Sink<T>): void;
  /** true while it also needs polled blocks though the stream is up (e.g. a trace whose root it has not seen) */
  needsBlocks?(): boolean;
}

export interface Follower<T> {
  /** Each new masterchain block, in seqno order. */
  onBlock(event: McBlockEvent, out: Sink<T>): void;
  /** Runs after the feed is attached and before any block reaches onBlock (those arriving meanwhile wait). */
  start?(out: Sink<T>): Promise<void>;
  /** false: onBlock reads only the block, so the feed need not fetch its transactions */
  readonly transactions?: boolean;
  /** present when it can be fed from the live hub; used only where blocks are otherwise polled */
  readonly live?: LiveFollowing<T>;
}
