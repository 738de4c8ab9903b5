/**
 * A fork's internal messages whose destination the upstream has not answered for yet (issue 41, attack 10).
 * Such a message leaves sandbox's queue and waits here, per destination in the order it was sent, while the
 * chain goes on sealing other messages and blocks; the account is loaded meanwhile (the loads of all waiting
 * destinations run together, at most `maxLoads` at once, spaced by the upstream's pace), and once it is in the
 * store the chain delivers its messages in its next turn. A destination the upstream does not give within the
 * deadline fails its messages: each is remembered as failed with a coded reason, and the trace of the
 * transaction that sent it says so.
 */
import type { Address } from '@ton/core';
import type { TxRecord } from './store.js';

/** Messages waiting for their destination, across all destinations, at most; one more fails at once. */
export const MAX_HELD_MESSAGES = 10_000;
/** Failed messages remembered for their traces, at most (the oldest are forgotten first). */
export const MAX_FAILED_REMEMBERED = 10_000;
/** How long a destination's load is tried again before its messages fail, by default. */
export const DEFAULT_DELIVERY_DEADLINE_MS = 120_000;
/** Destinations loaded at once for waiting messages, by default: the rest wait their turn, leaving the pace to reads. */
export const DEFAULT_DELIVERY_LOADS = 16;
/** The code a message's failure starts with when its destination never loaded (or its queue was full). */
export const UNLOADED_CODE = 'FORK_ACCOUNT_UNAVAILABLE';
/** The code a message's failure starts with when its delivery ran and failed. */
export const UNDELIVERED_CODE = 'FORK_DELIVERY_FAILED';
/** The first and the longest pause between two tries of one destination's load. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export interface HeldMessage<E> {
  /** sandbox's queue entry, given back to sandbox as it was */
  entry: E;
  /** the transaction that sent it */
  parent: TxRecord | undefined;
  /** the message cell's hash, hex */
  hash: string;
}

/** What a message's trace shows of it while it waits, or once it failed. */
export interface DeliveryStatus {
  destination: string;
  /** why it was never delivered; absent while it waits */
  failed?: string;
  /** UNLOADED_CODE or UNDELIVERED_CODE, with `failed` */
  code?: string;
}

export interface DeliveryHooks {
  /** brings the account into the chain's store (throws what the upstream answered) */
  load(address: Address): Promise<void>;
  /** the account is in the store: the chain delivers what waits for it in its next turn */
  ready(key: string): void;
}

interface Destination<E> {
  address: Address;
  messages: HeldMessage<E>[];
}

export class Deliveries<E> {
  private readonly waiting = new Map<string, Destination<E>>();
  private readonly statuses = new Map<string, DeliveryStatus>();
  private held = 0;
  private failedCount = 0;
  private hooks?: DeliveryHooks;
  private closed = false;
  private loading = 0;
  /** destinations whose load waits for one of the `maxLoads` slots */
  private readonly slotQueue: (() => void)[] = [];

  constructor(
    private readonly deadlineMs = DEFAULT_DELIVERY_DEADLINE_MS,
    private readonly maxLoads = DEFAULT_DELIVERY_LOADS,
  ) {}

  connect(hooks: DeliveryHooks): void {
    this.hooks = hooks;
  }

  /** Messages waiting now, across all destinations. */
  get waitingCount(): number {
    return this.held;
  }

  /** Whether messages to this destination (raw address) wait: a later one must wait behind them. */
  isWaiting(key: string): boolean {
    return this.waiting.has(key);
  }

  statusOf(hash: string): DeliveryStatus | undefined {
    return this.statuses.get(hash);
  }

  /** Holds a message for its destination; the destination's load starts with its first message. */
  hold(address: Address, message: HeldMessage<E>): void {
    const key = address.toRawString();
    if (this.held >= MAX_HELD_MESSAGES) {
      this.remember(message.hash, { destination: key, code: UNLOADED_CODE, failed: `${MAX_HELD_MESSAGES} messages already wait for the fork's upstream` });
      return;
    }
    let dest = this.waiting.get(key);
    const first = dest === undefined;
    if (!dest) this.waiting.set(key, (dest = { address, messages: [] }));
    dest.messages.push(message);
    this.held++;
    this.statuses.set(message.hash, { destination: key });
    if (first) void this.fetch(key, dest);
  }

  /** The messages waiting for a destination that is now loaded, in the order sent; they no longer wait. */
  take(key: string): HeldMessage<E>[] {
    const dest = this.waiting.get(key);
    if (!dest) return [];
    this.waiting.delete(key);
    this.held -= dest.messages.length;
    for (const m of dest.messages) this.statuses.delete(m.hash);
    return dest.messages;
  }

  /** Forgets the waiting messages `undone` picks (their sender's transaction was rewound away); their loads go on. */
  forget(undone: (m: HeldMessage<E>) => boolean): void {
    for (const [key, dest] of this.waiting) {
      const kept = dest.messages.filter((m) => !undone(m));
      if (kept.length === dest.messages.length) continue;
      for (const m of dest.messages) if (!kept.includes(m)) this.statuses.delete(m.hash);
      this.held -= dest.messages.length - kept.length;
      if (kept.length > 0) dest.messages = kept;
      else this.waiting.delete(key);
    }
  }

  /** A message that was given its turn and could not be executed. */
  failed(hash: string, destination: string, reason: string): void {
    this.remember(hash, { destination, code: UNDELIVERED_CODE, failed: reason });
  }

  close(): void {
    this.closed = true;
    for (const wake of this.slotQueue.splice(0)) wake();
  }

  /** Loads in flight now (at most `maxLoads`). */
  get loadsInFlight(): number {
    return this.loading;
  }

  /** Loads the destination, tried again with growing pauses until it loads or the deadline passes. */
  private async fetch(key: string, dest: Destination<E>): Promise<void> {
    const start = performance.now();
    let pause = RETRY_FIRST_MS;
    let failure: unknown = new Error('no load slot came free in time');
    for (;;) {
      await this.slot();
      if (this.closed) return;
      // a destination that waited past its deadline for a slot fails without spending the pace
      if (performance.now() - start > this.deadlineMs + RETRY_FIRST_MS) {
        this.release();
        return this.failUnloaded(key, dest, failure);
      }
      try {
        await this.hooks!.load(dest.address);
        failure = undefined;
      } catch (e) {
        failure = e;
      } finally {
        this.release();
      }
      if (this.closed) return;
      if (failure === undefined) return this.hooks!.ready(key);
      const left = this.deadlineMs - (performance.now() - start);
      if (left <= 0) return this.failUnloaded(key, dest, failure);
      // the last try comes at the deadline itself
      await new Promise((r) => setTimeout(r, Math.min(pause, left)).unref());
      pause = Math.min(pause * 2, RETRY_MAX_MS);
    }
  }

  private failUnloaded(key: string, dest: Destination<E>, e: unknown): void {
    // messages held for the destination after a rewind forgot these have a load (and deadline) of their own
    if (this.waiting.get(key) !== dest) return;
    const why = e instanceof Error ? e.message : String(e);
    this.fail(key, `the fork's upstream did not give account ${key} within ${Math.round(this.deadlineMs / 1000)} s: ${why}`);
  }

  private async slot(): Promise<void> {
    if (this.loading < this.maxLoads) {
      this.loading++;
      return;
    }
    await new Promise<void>((r) => this.slotQueue.push(r));
  }

  /** Hands the slot to the next destination waiting for one, or frees it. */
  private release(): void {
    const next = this.slotQueue.shift();
    if (next) next();
    else this.loading--;
  }

  private fail(key: string, reason: string): void {
    for (const m of this.take(key)) this.remember(m.hash, { destination: key, code: UNLOADED_CODE, failed: reason });
    console.error(`local chain: ${UNLOADED_CODE}: ${reason}`);
  }

  private remember(hash: string, status: DeliveryStatus): void {
    this.statuses.set(hash, status);
    if (++this.failedCount <= MAX_FAILED_REMEMBERED) return;
    for (const [h, s] of this.statuses) {
      if (s.failed === undefined) continue;
      this.statuses.delete(h);
      this.failedCount--;
      break;
    }
  }
}
