/**
 * Upstream mode's options (source toncenter): where and how the gateway calls toncenter, per API when v2 and
 * v3 are different services, and how often its new-block feed polls.
 */
import { z } from 'zod';
import { ConfigError, baseUrl, intIn, stringFlags, type OptionFragment } from '../../api/options.js';
import type { ApiName } from '../../api/source.js';
import { DEFAULT_UPSTREAM_MAX_BYTES, TONCENTER_URLS, type UpstreamApiConfig, type UpstreamConfig } from '../../remote/options.js';

/**
 * The largest upstream stream event accepted by default. A `trace` event carries every transaction of its
 * trace (3-6 KB of JSON each, more with init states or large bodies) plus address book and metadata: a
 * trace of a few hundred transactions stays within a few MB.
 */
export const DEFAULT_STREAM_MAX_FRAME_BYTES = 8 * 1024 * 1024;

/**
 * The upstream's streaming limits as the feed assumes them until a refusal says otherwise: toncenter publishes 2
 * concurrent streaming connections per key (streaming-v2.md §1) and no address count, for which this gateway's
 * own served default (STREAM_MAX_ADDRESSES) stands in.
 */
export const UPSTREAM_STREAM_DEFAULTS = {
  maxConnections: 2,
  maxAddresses: 1000,
  /** one client's share of the upstream stream: one connection's worth of addresses */
  clientAddresses: 1000,
  /** an address nobody watches stays subscribed this long, for resumes */
  retainMs: 120_000,
  /** ms between two changes of one connection's subscription */
  paceMs: 1000,
  /** finalized transactions asked of v3 to fill one gap, past which the gap is reported instead */
  gapTransactions: 1000,
} as const;

export interface UpstreamOptions {
  upstream: UpstreamConfig;
  upstreamApis: Record<ApiName, UpstreamApiConfig>;
  /** the Emulate API goes to the upstream's own (/api/emulate/v1 on the v3 base address) */
  emulateViaUpstream: boolean;
  /** emulating against the upstream's state: masterchain blocks whose loaded accounts are kept, their bytes, the budget of one */
  emulation: { blocks: number; cacheMb: number; timeoutMs: number };
  subscriptions: {
    /** a v3 source without a signal of its own (upstream): ms between masterchainInfo polls, one shared by every subscriber */
    pollMs: number;
  };
  /** the upstream's Streaming API v2, consumed for live events (`streaming` is the served side's) */
  upstreamStream: UpstreamStreamingConfig;
}

export interface UpstreamStreamingConfig {
  /** `auto` tries WebSocket, then SSE */
  transport: 'auto' | 'ws' | 'sse';
  /** largest upstream event frame accepted, in bytes; a larger one closes the connection */
  maxFrameBytes: number;
  /** finalized events kept in memory for resuming (without Redis), in MB */
  replayMb: number;
  /** entries kept in the Redis Stream shared by replicas (with REDIS_URL) */
  relayMaxLen: number;
  /** upstream streaming connections held at once (the upstream's connections per key) */
  maxConnections: number;
  /** addresses one upstream connection carries (the upstream's addresses per connection) */
  maxAddresses: number;
  /** distinct addresses one client (API key, else IP) may add to the upstream stream */
  clientAddresses: number;
  /** ms an address, trace hash or event type stays subscribed after its last watcher leaves */
  retainMs: number;
  /** ms between two changes of one upstream connection's subscription */
  paceMs: number;
  /** finalized transactions asked of v3 to fill one gap of the upstream stream */
  gapTransactions: number;
}

const upstreamApi = (prefix: 'V2' | 'V3') => z.object({ apiKey: z.string(), rps: intIn(`${prefix}_UPSTREAM_RPS`, 0, 1_000_000) });

export const upstreamOptions: OptionFragment<UpstreamOptions> = {
  flags: {
    ...stringFlags(
    'v2-url',
    'v3-url',
    'upstream-api-key',
    'upstream-rps',
    'v2-upstream-api-key',
    'v3-upstream-api-key',
    'v2-upstream-rps',
    'v3-upstream-rps',
    'upstream-timeout-ms',
    'upstream-max-bytes',
    'cache-mb',
    'account-ttl-ms',
    'poll-interval-ms',
    'upstream-stream',
    'upstream-stream-max-frame-bytes',
    'stream-replay-mb',
    'stream-relay-maxlen',
    'upstream-stream-max-connections',
    'upstream-stream-max-addresses',
    'upstream-stream-client-addresses',
    'upstream-stream-retain-ms',
    'upstream-stream-pace-ms',
    'upstream-stream-gap-transactions',
    'emulate-blocks',
    'emulate-cache-mb',
    ),
    'emulate-via-upstream': { type: 'boolean' },
  },
  title: 'upstream mode',
  usage: `  --v2-url URL             base address of the v2 upstream, /api/v2/... is appended (env V2_URL,
                           default https://toncenter.com or https://testnet.toncenter.com by NETWORK)
  --v3-url URL             base address of the v3 upstream, /api/v3/... is appended (env V3_URL, same default)
  --upstream-api-key KEY   sent to the upstream as X-API-Key (env UPSTREAM_API_KEY)
  --upstream-rps N         outgoing requests/s, 0 = unlimited (env UPSTREAM_RPS, default 1 without a key, else 0)
  --v2-upstream-api-key KEY, --v3-upstream-api-key KEY
                           one API's own key, when v2 and v3 are different services (env V2_UPSTREAM_API_KEY,
                           V3_UPSTREAM_API_KEY, default UPSTREAM_API_KEY); a different key gets its own client and pace
  --v2-upstream-rps N, --v3-upstream-rps N
                           one API's own pace (env V2_UPSTREAM_RPS, V3_UPSTREAM_RPS, default UPSTREAM_RPS, or by
                           that API's own key as above)
  --upstream-timeout-ms MS per-attempt upstream timeout, answer body included (env UPSTREAM_TIMEOUT_MS, default 15000)
  --upstream-max-bytes N   largest upstream answer read, a larger one is refused with 502; answers being read at
                           once share twice this (env UPSTREAM_MAX_BYTES, default 67108864 = 64 MiB)
  --cache-mb N             cache of immutable objects (transactions, messages, blocks), 0 = off (env CACHE_MB, default 64)
  --account-ttl-ms MS      reuse account states and masterchain info this long (env ACCOUNT_TTL_MS, default 1000)
  --poll-interval-ms MS    v3 source toncenter: how often subscriptions poll for new blocks (env POLL_INTERVAL_MS, default 1000)
  --upstream-stream T      the upstream's Streaming API v2: auto (WebSocket, else SSE), ws or sse; polling v3
                           only when it has none (env UPSTREAM_STREAM, default auto)
  --upstream-stream-max-frame-bytes N
                           largest upstream stream event accepted; a larger one drops the connection
                           (env UPSTREAM_STREAM_MAX_FRAME_BYTES, default 8388608 = 8 MiB)
  --stream-replay-mb N     finalized events kept in memory for resuming, without Redis (env STREAM_REPLAY_MB, default 32)
  --stream-relay-maxlen N  events kept in the Redis Stream replicas share, with REDIS_URL (env STREAM_RELAY_MAXLEN,
                           default 100000)
  --upstream-stream-max-connections N
                           upstream streaming connections held at once, what clients watch split over them; a
                           lower limit the upstream states is learnt (env UPSTREAM_STREAM_MAX_CONNECTIONS, default ${UPSTREAM_STREAM_DEFAULTS.maxConnections})
  --upstream-stream-max-addresses N
                           addresses one upstream streaming connection carries (env UPSTREAM_STREAM_MAX_ADDRESSES,
                           default ${UPSTREAM_STREAM_DEFAULTS.maxAddresses}; a lower limit the upstream states is learnt)
  --upstream-stream-client-addresses N
                           distinct addresses one client (API key, else IP) may add to the upstream stream, past it
                           a subscription is refused (env UPSTREAM_STREAM_CLIENT_ADDRESSES, default ${UPSTREAM_STREAM_DEFAULTS.clientAddresses})
  --upstream-stream-retain-ms MS
                           an address nobody watches any more stays subscribed upstream this long, so a client
                           resuming within it misses nothing (env UPSTREAM_STREAM_RETAIN_MS, default ${UPSTREAM_STREAM_DEFAULTS.retainMs})
  --upstream-stream-pace-ms MS
                           least time between two changes of one upstream connection's subscription
                           (env UPSTREAM_STREAM_PACE_MS, default ${UPSTREAM_STREAM_DEFAULTS.paceMs})
  --upstream-stream-gap-transactions N
                           finalized transactions asked of v3 to fill one interruption of the upstream stream;
                           past it the clients concerned are told of the gap (env UPSTREAM_STREAM_GAP_TRANSACTIONS,
                           default ${UPSTREAM_STREAM_DEFAULTS.gapTransactions})
  --emulate-via-upstream   /api/emulate/v1 is forwarded to the upstream's own Emulate API on the v3 base address,
                           the answer passed on as it comes (env EMULATE_VIA_UPSTREAM=1; default off: the gateway
                           emulates itself, loading each touched account from the upstream at the block asked for)
  --emulate-blocks N       masterchain blocks whose loaded accounts, config and libraries are kept for emulation,
                           the most recently used (env EMULATE_BLOCKS, default 4)
  --emulate-cache-mb MB    bytes of loaded accounts and libraries kept over those blocks (env EMULATE_CACHE_MB, default 64)
`,
  takesAddress: true,
  // toncenter's own keyless limit is 1 rps, so the gateway in front of it defaults to the same
  keylessRps: 1,
  read({ pick, given, network, addresses }) {
    const upstreamKey = pick('upstream-api-key', 'UPSTREAM_API_KEY', '');
    const upstreamRps = pick('upstream-rps', 'UPSTREAM_RPS', upstreamKey ? '0' : '1');
    // V2_SOURCE / V3_SOURCE may give the address instead of V2_URL / V3_URL, not besides
    const urlOf = (api: ApiName): string => {
      const NAME = api.toUpperCase();
      const address = addresses[api];
      if (address === undefined) return pick(`${api}-url`, `${NAME}_URL`, TONCENTER_URLS[network]);
      if (given(`${api}-url`, `${NAME}_URL`)) throw new ConfigError(`${NAME}_SOURCE gives an address and ${NAME}_URL another: set one of them`);
      return address;
    };
    const upstreamApiOf = (api: ApiName) => {
      const NAME = api.toUpperCase();
      const apiKey = pick(`${api}-upstream-api-key`, `${NAME}_UPSTREAM_API_KEY`, upstreamKey);
      // an API's own key without an explicit pace is unpaced, as a shared key is
      const rps = pick(`${api}-upstream-rps`, `${NAME}_UPSTREAM_RPS`, apiKey !== upstreamKey ? (apiKey ? '0' : '1') : upstreamRps);
      return { apiKey, rps };
    };
    return {
      upstream: {
        v2Url: urlOf('v2'),
        v3Url: urlOf('v3'),
        apiKey: upstreamKey,
        rps: upstreamRps,
        timeoutMs: pick('upstream-timeout-ms', 'UPSTREAM_TIMEOUT_MS', '15000'),
        maxBytes: pick('upstream-max-bytes', 'UPSTREAM_MAX_BYTES', String(DEFAULT_UPSTREAM_MAX_BYTES)),
        cacheMb: pick('cache-mb', 'CACHE_MB', '64'),
        accountTtlMs: pick('account-ttl-ms', 'ACCOUNT_TTL_MS', '1000'),
      },
      upstreamApis: { v2: upstreamApiOf('v2'), v3: upstreamApiOf('v3') },
      emulateViaUpstream: String(pick('emulate-via-upstream', 'EMULATE_VIA_UPSTREAM', 'false')),
      emulation: {
        blocks: pick('emulate-blocks', 'EMULATE_BLOCKS', '4'),
        cacheMb: pick('emulate-cache-mb', 'EMULATE_CACHE_MB', '64'),
        // the flag is the local chain's (--emulate-timeout-ms): one budget whichever source emulates
        timeoutMs: pick('emulate-timeout-ms', 'EMULATE_TIMEOUT_MS', '3000'),
      },
      subscriptions: { pollMs: pick('poll-interval-ms', 'POLL_INTERVAL_MS', '1000') },
      upstreamStream: {
        transport: pick('upstream-stream', 'UPSTREAM_STREAM', 'auto'),
        maxFrameBytes: pick('upstream-stream-max-frame-bytes', 'UPSTREAM_STREAM_MAX_FRAME_BYTES', String(DEFAULT_STREAM_MAX_FRAME_BYTES)),
        replayMb: pick('stream-replay-mb', 'STREAM_REPLAY_MB', '32'),
        relayMaxLen: pick('stream-relay-maxlen', 'STREAM_RELAY_MAXLEN', '100000'),
        maxConnections: pick('upstream-stream-max-connections', 'UPSTREAM_STREAM_MAX_CONNECTIONS', String(UPSTREAM_STREAM_DEFAULTS.maxConnections)),
        maxAddresses: pick('upstream-stream-max-addresses', 'UPSTREAM_STREAM_MAX_ADDRESSES', String(UPSTREAM_STREAM_DEFAULTS.maxAddresses)),
        clientAddresses: pick('upstream-stream-client-addresses', 'UPSTREAM_STREAM_CLIENT_ADDRESSES', String(UPSTREAM_STREAM_DEFAULTS.clientAddresses)),
        retainMs: pick('upstream-stream-retain-ms', 'UPSTREAM_STREAM_RETAIN_MS', String(UPSTREAM_STREAM_DEFAULTS.retainMs)),
        paceMs: pick('upstream-stream-pace-ms', 'UPSTREAM_STREAM_PACE_MS', String(UPSTREAM_STREAM_DEFAULTS.paceMs)),
        gapTransactions: pick('upstream-stream-gap-transactions', 'UPSTREAM_STREAM_GAP_TRANSACTIONS', String(UPSTREAM_STREAM_DEFAULTS.gapTransactions)),
      },
    };
  },
  schema: z.object({
    upstream: z.object({
      v2Url: baseUrl('V2_URL'),
      v3Url: baseUrl('V3_URL'),
      apiKey: z.string(),
      rps: intIn('UPSTREAM_RPS', 0, 1_000_000),
      timeoutMs: intIn('UPSTREAM_TIMEOUT_MS', 1, 600_000),
      // below V8's longest string (2^29 - 24 characters): the body is decoded as one string
      maxBytes: intIn('UPSTREAM_MAX_BYTES', 1024, 500 * 1024 * 1024),
      cacheMb: intIn('CACHE_MB', 0, 65_536),
      accountTtlMs: intIn('ACCOUNT_TTL_MS', 0, 3_600_000),
    }),
    upstreamApis: z.object({ v2: upstreamApi('V2'), v3: upstreamApi('V3') }),
    emulateViaUpstream: z.enum(['true', 'false', '1', '0'], { error: 'EMULATE_VIA_UPSTREAM must be 1 or 0' }).transform((v) => v === 'true' || v === '1'),
    emulation: z.object({
      blocks: intIn('EMULATE_BLOCKS', 1, 1000),
      cacheMb: intIn('EMULATE_CACHE_MB', 1, 65_536),
      timeoutMs: intIn('EMULATE_TIMEOUT_MS', 100, 600_000),
    }),
    subscriptions: z.object({ pollMs: intIn('POLL_INTERVAL_MS', 100, 600_000) }),
    upstreamStream: z.object({
      transport: z.enum(['auto', 'ws', 'sse'], { error: 'UPSTREAM_STREAM must be auto, ws or sse' }),
      maxFrameBytes: intIn('UPSTREAM_STREAM_MAX_FRAME_BYTES', 1024, 256 * 1024 * 1024),
      replayMb: intIn('STREAM_REPLAY_MB', 0, 65_536),
      relayMaxLen: intIn('STREAM_RELAY_MAXLEN', 100, 100_000_000),
      maxConnections: intIn('UPSTREAM_STREAM_MAX_CONNECTIONS', 1, 1000),
      maxAddresses: intIn('UPSTREAM_STREAM_MAX_ADDRESSES', 1, 1_000_000),
      clientAddresses: intIn('UPSTREAM_STREAM_CLIENT_ADDRESSES', 1, 100_000_000),
      retainMs: intIn('UPSTREAM_STREAM_RETAIN_MS', 0, 86_400_000),
      paceMs: intIn('UPSTREAM_STREAM_PACE_MS', 0, 600_000),
      gapTransactions: intIn('UPSTREAM_STREAM_GAP_TRANSACTIONS', 0, 1_000_000),
    }),
  }),
};
