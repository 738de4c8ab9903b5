/**
 * The subscriptions of one server: who holds how many (API key if given, else remote IP; limit per client),
 * the chain feed they listen to, their SSE responses, and the shutdown that completes every open stream so
 * the server can close.
 */
import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { ApiError } from '../../../api/errors.js';
import type { SubscriptionConfig } from '../../../config.js';
import type { ChainEvents, McBlockEvent } from '../../../live/blocks.js';
import { subscriptionsOpen, subscriptionsStarted } from '../../../observe/metrics.js';
import { ErrorCode } from '../errors.js';
import { upstreamFeedUp, type LiveHub } from '../../../live/hub.js';
import { EventQueue } from './queue.js';
import type { Follower, Sink } from './follower.js';
import { openLiveFed } from './live-fed.js';

/** The registry and the client as each request's context carries them. */
export interface SubscriptionContext {
  registry: SubscriptionRegistry;
  /** read only when a subscription opens */
  client: () => string;
  /** the HTTP response the subscription streams into; the subscription never outlives it */
  response?: ServerResponse;
}

export class SubscriptionRegistry {
  private readonly perClient = new Map<string, number>();
  private readonly live = new Set<{ end(): void }>();
  private readonly streams = new Set<ServerResponse>();
  private closing = false;
  /** what each streamed subscription runs to follow the stream's state (poll blocks while it is down) */
  private readonly watched = new Set<() => void>();
  private watchTimer?: NodeJS.Timeout;

  constructor(
    private readonly events: () => ChainEvents | undefined,
    readonly limits: Pick<SubscriptionConfig, 'maxPerClient' | 'maxAccounts'>,
    /** the one live hub; followers that can are fed from it where blocks would otherwise be polled */
    private readonly liveHub: () => LiveHub | undefined = () => undefined,
  ) {}

  /**
   * The live hub a follower is fed from instead of polled blocks: only where blocks are polled (upstream
   * mode), and only while its feed is an upstream stream that is up (a feed that itself fell back to polling
   * carries finalized transactions alone, so the blocks are polled as before).
   */
  private liveFor(source: ChainEvents | undefined): LiveHub | undefined {
    const hub = this.liveHub();
    if (!hub || source?.pollMs == null) return undefined;
    return upstreamFeedUp(hub) ? hub : undefined;
  }

  /** Runs `check` every poll interval until the returned function is called. */
  watch(check: () => void): () => void {
    this.watched.add(check);
    if (!this.watchTimer) {
      this.watchTimer = setInterval(() => {
        for (const f of [...this.watched]) f();
      }, this.pollMs ?? 1_000);
      this.watchTimer.unref();
    }
    return () => {
      this.watched.delete(check);
      if (this.watched.size > 0) return;
      clearInterval(this.watchTimer);
      this.watchTimer = undefined;
    };
  }

  /** upstream mode: the poll interval; null on the local chain or before the source is up */
  get pollMs(): number | null {
    return this.events()?.pollMs ?? null;
  }

  private openBy(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /** Opens a stream for `client` fed by the chain feed, or throws a coded error and opens nothing. */
  async open<T>(client: string, follower: Follower<T>, response?: ServerResponse): Promise<EventQueue<T>> {
    const source = this.events();
    if (!this.closing && !source) throw new ApiError(503, 'chain events are not available yet: the local chain is still running its genesis');
    const hub = follower.live && this.liveFor(source);
    if (hub) return this.admit<T>(client, response, (sink, queue) => openLiveFed((check) => this.watch(check), hub, source!, follower, sink, queue));
    const blockOpts = { transactions: follower.transactions ?? true };
    return this.admit<T>(client, response, async (sink, queue) => {
      let backlog: McBlockEvent[] | undefined = follower.start ? [] : undefined;
      const unsubscribe = await source!.subscribe((e) => {
        if (queue.done) return;
        if (backlog) backlog.push(e);
        else follower.onBlock(e, sink);
      }, blockOpts);
      if (follower.start) {
        try {
          await follower.start(sink);
        } catch (e) {
          unsubscribe();
          throw e;
        }
        const waited = backlog!;
        backlog = undefined;
        for (const e of waited) if (!queue.done) follower.onBlock(e, sink);
      }
      return unsubscribe;
    });
  }

  /**
   * Opens a stream for `client` whose events `attach` wires to `sink` (returning how to unwire them), counted
   * against the client's limit; throws a coded error and opens nothing when it is refused or `attach` throws.
   */
  async admit<T>(client: string, response: ServerResponse | undefined, attach: (sink: Sink<T>, queue: EventQueue<T>) => Promise<() => void>): Promise<EventQueue<T>> {
    if (this.closing) throw new ApiError(503, 'the server is shutting down');
    const held = this.openBy(client);
    if (held >= this.limits.maxPerClient) {
      throw new GraphQLError(`Too many open subscriptions: at most ${this.limits.maxPerClient} per client`, {
        extensions: { code: ErrorCode.TOO_MANY_SUBSCRIPTIONS, limit: this.limits.maxPerClient },
      });
    }
    // the slot is taken before any await, so concurrent requests cannot pass the limit together
    this.perClient.set(client, held + 1);
    let unsubscribe: (() => void) | undefined;
    let counted = false;
    const queue: EventQueue<T> = new EventQueue<T>(() => {
      unsubscribe?.();
      if (counted) subscriptionsOpen.dec();
      this.live.delete(queue);
      const n = this.openBy(client) - 1;
      if (n > 0) this.perClient.set(client, n);
      else this.perClient.delete(client);
    });
    this.live.add(queue);
    // yoga may refuse a stream it already subscribed (406: the client does not accept SSE) without returning it
    response?.once('close', () => queue.return());
    const sink: Sink<T> = { push: (v) => queue.push(v), end: () => queue.end(), fail: (e) => queue.fail(e) };
    try {
      unsubscribe = await attach(sink, queue);
      if (queue.done) unsubscribe();
    } catch (e) {
      queue.return();
      throw e;
    }
    if (!queue.done) {
      counted = true;
      subscriptionsStarted.inc();
      subscriptionsOpen.inc();
    }
    return queue;
  }

  /** An SSE response being streamed; close() waits for it to end. */
  track(res: ServerResponse): void {
    this.streams.add(res);
    res.once('close', () => this.streams.delete(res));
  }

  /**
   * Graceful shutdown: refuses new subscriptions, completes every open one and waits (at most `graceMs`) for their
   * responses to end, so their connections are idle when the server closes; a client that stopped reading is cut.
   */
  async close(graceMs = 5_000): Promise<void> {
    this.closing = true;
    for (const q of [...this.live]) q.end();
    const ended = [...this.streams].map((res) => new Promise((resolve) => res.once('close', resolve)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(ended), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    for (const res of this.streams) res.destroy();
  }
}
