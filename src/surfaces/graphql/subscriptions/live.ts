/**
 * A GraphQL subscription as a client of the one live hub (live/hub.ts): the same events, routed,
 * filtered and trimmed as a Streaming API v2 client with the same subscription is sent them, each parsed back
 * from the hub's text (once for every subscription shown the same part) with its cursor. Resuming (`after`) is the hub's replay; a cursor older than the feed can
 * replay is a BAD_USER_INPUT naming the oldest, a resume while the server runs all the replays it may is UNAVAILABLE
 * with `retryAfter`. In upstream mode a subscription past the upstream stream's room or
 * the client's share of it is refused (TOO_MANY_ACCOUNTS), and events lost upstream end it (EVENTS_MISSED).
 */
import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { ApiError } from '../../../api/errors.js';
import { LiveBusy, LiveCursorTooOld, type LiveEvent } from '../../../live/feed.js';
import type { HubClient, LiveHub } from '../../../live/hub.js';
import type { Subscription } from '../../../live/subscription.js';
import { ErrorCode } from '../errors.js';
import type { EventQueue } from './queue.js';
import type { SubscriptionRegistry } from './registry.js';

export function openLive(
  subs: SubscriptionRegistry,
  hub: LiveHub | undefined,
  client: string,
  sub: Subscription,
  after: string | undefined,
  response?: ServerResponse,
): Promise<EventQueue<LiveEvent>> {
  if (!hub) throw new ApiError(503, 'live events are not served by this server (its source has no event feed)');
  return subs.admit<LiveEvent>(client, response, async (sink) => {
    const hubClient: HubClient = {
      sub,
      send: (p) => sink.push(p.cursor === undefined ? (p.parsed() as LiveEvent) : { ...(p.parsed() as LiveEvent), cursor: p.cursor }),
      // the queue bounds itself by events (it fails past its backlog and is detached), not by bytes
      queuedBytes: () => 0,
      drop: (reason) => sink.fail(new GraphQLError(`Subscription dropped: ${reason}`, { extensions: { code: ErrorCode.SUBSCRIPTION_BACKLOG } })),
      tenant: client,
      missed: (text) => {
        hub.detach(hubClient);
        sink.fail(new GraphQLError(text, { extensions: { code: ErrorCode.EVENTS_MISSED } }));
      },
    };
    const refusal = hub.admit(hubClient, sub);
    if (refusal) throw new GraphQLError(refusal, { extensions: { code: ErrorCode.TOO_MANY_ACCOUNTS } });
    try {
      await hub.attach(hubClient, after);
    } catch (e) {
      if (e instanceof LiveCursorTooOld) {
        throw new GraphQLError(e.message, { extensions: { code: ErrorCode.BAD_USER_INPUT, ...(e.oldest !== undefined ? { oldest: e.oldest } : {}) } });
      }
      // the server runs all the replays it may: the client is told when to try again
      if (e instanceof LiveBusy) throw new GraphQLError(e.message, { extensions: { code: ErrorCode.UNAVAILABLE, retryAfter: e.retryAfter } });
      throw e;
    }
    return () => hub.detach(hubClient);
  });
}
