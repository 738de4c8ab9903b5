/**
 * The live-event feed of upstream mode, as the event hub is given it: the upstream's own stream in one replica,
 * or with REDIS_URL the relay that shares one upstream stream between replicas; and its line in /health.
 */
import type { EventLog } from '../../live/blocks.js';
import type { StreamFeed, StreamFeedStatus } from '../../live/feed.js';
import type { V3Api } from '../../api/v3/index.js';
import { StreamRelay } from '../../live/relay.js';
import { createUpstreamStreamFeed, type StreamLog, type UpstreamStreamSettings } from './live-feed.js';

/** What upstream mode's live feed is made from: the upstream's options and REDIS_URL. */
export type LiveFeedSettings = UpstreamStreamSettings & { redisUrl?: string };

/** Upstream mode's feed: through the Redis relay when replicas share REDIS_URL, else the upstream stream itself. */
export function upstreamLiveFeed(config: LiveFeedSettings, v3: V3Api, log?: StreamLog & EventLog): StreamFeed {
  const upstream = () => createUpstreamStreamFeed(config, v3, log);
  if (!config.redisUrl) return upstream();
  return new StreamRelay({ url: config.redisUrl, upstream, maxLen: config.upstreamStream.relayMaxLen, log });
}

/** The feed's status as a member of the /health body: `{ status: 'ok', ...streamHealth(feed) }`. */
export function streamHealth(feed: StreamFeed | undefined): { stream?: StreamFeedStatus } {
  if (!feed) return {};
  const { kind, up, detail } = feed.status();
  return { stream: { kind, up, ...(detail ? { detail } : {}) } };
}
