/**
 * A block-driven subscription (`transactions(accounts)`, `traceTransactions`) fed from the live hub in
 * upstream mode: its follower is one more client of the hub, so while the upstream stream is up nothing
 * is polled for it. While the stream is down (checked every poll interval), or while the follower itself still
 * needs blocks, it is also a listener of the polled block feed as before; the follower drops what it was
 * already given, so the two may overlap.
 */
import { GraphQLError } from 'graphql';
import type { ChainEvents, McBlockEvent } from '../../../live/blocks.js';
import type { LiveEvent } from '../../../live/feed.js';
import { upstreamFeedUp, type HubClient, type LiveHub } from '../../../live/hub.js';
import { ErrorCode } from '../errors.js';
import type { Follower, Sink } from './follower.js';
import type { EventQueue } from './queue.js';

export async function openLiveFed<T>(
  /** runs a check every poll interval until the returned function is called */
  watch: (check: () => void) => () => void,
  hub: LiveHub,
  blocks: ChainEvents,
  follower: Follower<T>,
  sink: Sink<T>,
  queue: EventQueue<T>,
): Promise<() => void> {
  const live = follower.live!;
  // events and blocks arriving while the follower starts wait for it
  let backlog: (() => void)[] | undefined = follower.start ? [] : undefined;
  const run = (step: () => void) => {
    if (queue.done) return;
    if (backlog) backlog.push(step);
    else {
      step();
      sync();
    }
  };
  let indexed = live.sub;
  const client: HubClient = {
    get sub() {
      return live.sub;
    },
    send: (p) => run(() => live.onEvent(p.parsed() as LiveEvent, sink)),
    // the queue bounds itself by events, not bytes
    queuedBytes: () => 0,
    drop: (reason) => sink.fail(new GraphQLError(`Subscription dropped: ${reason}`, { extensions: { code: ErrorCode.SUBSCRIPTION_BACKLOG } })),
  };
  const refusal = hub.admit(client, live.sub);
  if (refusal) throw new GraphQLError(refusal, { extensions: { code: ErrorCode.TOO_MANY_ACCOUNTS } });

  // the polled block feed, listened to only while it is needed
  let polled: Promise<() => void> | undefined;
  const onBlock = (e: McBlockEvent) => run(() => follower.onBlock(e, sink));
  const stopPolling = () => {
    const p = polled;
    polled = undefined;
    void p?.then((off) => off(), () => {});
  };
  let closed = false;
  function sync(): void {
    if (closed || queue.done) return;
    if (live.sub !== indexed) {
      indexed = live.sub;
      hub.update(client);
    }
    const want = !upstreamFeedUp(hub) || (live.needsBlocks?.() ?? false);
    if (want && !polled) {
      const p = blocks.subscribe(onBlock, { transactions: follower.transactions ?? true });
      polled = p;
      // a failed start is tried again at the next check
      p.catch(() => {
        if (polled === p) polled = undefined;
      });
    } else if (!want && polled) stopPolling();
  }

  await hub.attach(client);
  const unwatch = watch(sync);
  const close = () => {
    closed = true;
    unwatch();
    hub.detach(client);
    stopPolling();
  };
  try {
    sync();
    // the blocks it needs at the start are being watched before it reads what came before
    await polled;
    if (follower.start) {
      await follower.start(sink);
      const waited = backlog!;
      backlog = undefined;
      for (const step of waited) if (!queue.done) step();
      sync();
    }
  } catch (e) {
    close();
    throw e;
  }
  return close;
}
