/**
 * CLI flags + environment -> one validated Config. The general server options are here; each source owns its
 * own (src/sources/<name>/options.ts, listed by src/sources/index.ts) and this file composes them: flags,
 * validation, the Config type and the --help text. A bad value stops start-up with a one-line message naming
 * the flag or variable, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, baseUrl, intIn, optional, stringFlags, type OptionFragment, type OptionReader } from './api/options.js';
import type { ApiName } from './api/source.js';
import { V3_BRANCH_FEATURES, type V3BranchFeature } from './api/v3/branch.js';
import { SOURCES, type SourceName, type SourceOptions } from './sources/index.js';
import { NETWORKS, type Network } from './model/network.js';
import { WEBHOOK_DEFAULTS, type WebhookLimits } from './live/webhooks/spec.js';
import type { EmulateBounds } from './api/emulate.js';
import { EMULATION_BOUNDS } from './engine/emulation.js';

export { ConfigError } from './api/options.js';

export { NETWORKS, type Network } from './model/network.js';

export interface ApiKeySpec {
  key: string;
  networks: Network[];
  /** requests per second; 0 = unlimited */
  rps: number;
  /** Streaming API v2: connections open at once with this key (absent: the streaming default; 0 = unlimited) */
  streamConnections?: number;
  /** Streaming API v2: addresses one connection may watch (absent: the streaming default; 0 = unlimited) */
  streamAddresses?: number;
}

/** The server's own options, whatever the sources. */
export interface GeneralConfig {
  host: string;
  port: number;
  /** BACKEND as given: the source of both interfaces unless V2_SOURCE / V3_SOURCE name another */
  backend: SourceName;
  /** which source answers each interface */
  sources: Record<ApiName, SourceName>;
  network: Network;
  apiKeys: ApiKeySpec[];
  /** keyless v2 requests per second per client; 0 = unlimited */
  keylessRps: number;
  /** print the genesis wallets on start-up */
  quiet: boolean;
  /** shared rate limits and cache across replicas; undefined = in process */
  redisUrl?: string;
  subscriptions: SubscriptionConfig;
  sockets: SocketConfig;
  streaming: StreamingConfig;
  webhooks: WebhooksConfig;
  /** GraphQL: field nodes of an operation once its fragments are expanded */
  maxQueryFields: number;
  /** the Emulate API's bounds on answers and turns, whichever source emulates */
  emulate: EmulateBounds;
  /** ms a SIGTERM/SIGINT shutdown may take (draining requests, closing the chain) before the process exits anyway */
  shutdownTimeoutMs: number;
  /** `X-API-Version` of every /api/v3 answer: the indexer schema version the gateway answers as (toncenter-newer.md §1) */
  v3ApiVersion: string;
  /** branch-only toncenter v3 features served (toncenter-newer.md §7, §8); none by default */
  v3BranchFeatures: V3BranchFeature[];
  /** unknown and repeated parameters ignored, as toncenter ignores them, rather than refused (api/strict-params.ts) */
  lenientParams: boolean;
}

/** The general options and every source's own (src/sources/index.ts). */
export type Config = GeneralConfig & SourceOptions;

/** GraphQL subscriptions (SSE). */
export interface SubscriptionConfig {
  /** open subscriptions per client (API key, else IP) */
  maxPerClient: number;
  /** accounts one `transactions(accounts)` subscription may watch */
  maxAccounts: number;
}

/** What one WebSocket (graphql-ws) or event stream (SSE) may hold of the server's memory. */
export interface SocketConfig {
  /** bytes written to one socket or stream and not yet taken by its client; past it the socket is closed */
  maxQueuedBytes: number;
  /** operations (queries, mutations, subscriptions) open at once on one WebSocket; past it each is refused */
  maxOperations: number;
  /** WebSockets open at once over the whole server */
  maxSockets: number;
  /** ms between WebSocket pings; a socket that has not answered one by the next is cut */
  keepAliveMs: number;
  /**
   * bytes left unread over every graphql-ws socket and streaming connection together; past it the clients with the
   * most unread are dropped first
   */
  maxQueuedBytesTotal: number;
}

/** Streaming API v2 (SSE and WebSocket): what one client and all of them may hold. */
export interface StreamingConfig {
  /** connections open at once per client (API key, else IP) unless its key says otherwise; 0 = unlimited */
  maxConnections: number;
  /** addresses one connection may watch unless its key says otherwise; 0 = unlimited */
  maxAddresses: number;
  /** streaming connections open at once over the whole server */
  maxSockets: number;
  /** bytes of one SSE request body or one WebSocket frame */
  maxFrameBytes: number;
  /** WebSocket messages one socket may send per second */
  maxMessagesPerSecond: number;
  /** bytes of WebSocket messages every socket together may send per second (what their work costs) */
  controlBytesPerSecond: number;
  /** bytes one connection may leave unread; past it the connection is dropped */
  maxQueuedBytes: number;
  /** ms between keepalives on an SSE stream */
  keepAliveMs: number;
  /** replays (resumes from a cursor) running at once over the server */
  maxReplays: number;
  /** bytes per second every replay together sends */
  replayBytesPerSecond: number;
  /** bytes per second one replay sends */
  replayClientBytesPerSecond: number;
}

/** Webhooks (/api/webhooks/v1): who may make them, where they may point, and what each may hold. */
export interface WebhooksConfig extends WebhookLimits {
  /** clients without an API key may manage webhooks (all of them as one owner) */
  keyless: boolean;
  /** targets in loopback and private ranges allowed (by default only in front of the local chain) */
  allowPrivate: boolean;
}

export const STREAMING_DEFAULTS: StreamingConfig = {
  maxConnections: 100,
  maxAddresses: 1000,
  maxSockets: 10_000,
  // a subscription of the published 1,000 addresses in raw form (about 71 KB) fits
  maxFrameBytes: 128 * 1024,
  maxMessagesPerSecond: 10,
  controlBytesPerSecond: 4 * 1024 * 1024,
  maxQueuedBytes: 1024 * 1024,
  // toncenter's code sends one every 5 s (toncenter-newer.md §9; its docs still say 15 s)
  keepAliveMs: 5_000,
  maxReplays: 4,
  replayBytesPerSecond: 16 * 1024 * 1024,
  replayClientBytesPerSecond: 4 * 1024 * 1024,
};

export const SOCKET_DEFAULTS: SocketConfig = {
  maxQueuedBytes: 8 * 1024 * 1024,
  maxOperations: 32,
  maxSockets: 10_000,
  keepAliveMs: 12_000,
  maxQueuedBytesTotal: 256 * 1024 * 1024,
};

/** toncenter's v1.3 indexer schema reports 1.3.0 (toncenter-newer.md §1), the surface this gateway answers as. */
export const DEFAULT_V3_API_VERSION = '1.3.0';

const KEY_SPEC = /^([^:,\s]+):([a-z|]+):(\d+)(?::(\d+)(?::(\d+))?)?$/;

/** `key:network[|network]:rps[:stream-connections[:stream-addresses]]`, comma-separated. */
export function parseApiKeys(src: string): ApiKeySpec[] {
  const specs: ApiKeySpec[] = [];
  for (const part of src.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = KEY_SPEC.exec(part);
    if (!m) throw new ConfigError(`API_KEYS: entry ${specs.length + 1} is not of the form key:network[|network]:rps[:connections[:addresses]]`);
    const networks = m[2]!.split('|');
    for (const n of networks) {
      if (!(NETWORKS as readonly string[]).includes(n)) {
        throw new ConfigError(`API_KEYS: entry ${specs.length + 1} names unknown network '${n}' (expected mainnet or testnet)`);
      }
    }
    if (specs.some((s) => s.key === m[1])) throw new ConfigError(`API_KEYS: entry ${specs.length + 1} repeats a key`);
    specs.push({
      key: m[1]!,
      networks: networks as Network[],
      rps: Number(m[3]),
      ...(m[4] !== undefined ? { streamConnections: Number(m[4]) } : {}),
      ...(m[5] !== undefined ? { streamAddresses: Number(m[5]) } : {}),
    });
  }
  return specs;
}

const KINDS = Object.entries(SOURCES) as [SourceName, (typeof SOURCES)[SourceName]][];
/** The source names V2_SOURCE, V3_SOURCE and BACKEND accept (src/sources/index.ts). */
const SOURCE_NAMES = KINDS.map(([name]) => name) as [SourceName, ...SourceName[]];
/** The source V2_SOURCE / V3_SOURCE name by a base address. */
const ADDRESSED = KINDS.find(([, kind]) => kind.options.takesAddress)?.[0];

const orList = (names: readonly string[]): string => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

const sourceName = (name: string, what = orList(SOURCE_NAMES)) => z.enum(SOURCE_NAMES, { error: `${name} must be ${what}` });
const sourceOrAddress = (name: string) => sourceName(name, `${SOURCE_NAMES.join(', ')}${ADDRESSED ? ' or an http(s) URL' : ''}`);

type GeneralRead = Omit<GeneralConfig, 'apiKeys'>;

/** The server's own options as a fragment, composed with the sources' ones like any other. */
const general: Omit<OptionFragment<GeneralRead>, 'title' | 'usage' | 'read'> = {
  flags: {
    ...stringFlags('host', 'port', 'backend', 'v2-source', 'v3-source', 'network', 'api-keys', 'keyless-rps', 'redis-url'),
    ...stringFlags('max-subscriptions', 'max-subscription-accounts', 'max-queued-bytes', 'max-queued-bytes-total', 'max-socket-operations', 'max-sockets'),
    ...stringFlags('keepalive-ms', 'max-query-fields', 'shutdown-timeout-ms', 'v3-api-version', 'v3-branch-features'),
    ...stringFlags('stream-max-connections', 'stream-max-addresses', 'stream-max-sockets', 'stream-max-frame-bytes'),
    ...stringFlags('stream-max-messages-per-second', 'stream-control-bytes-per-second', 'stream-max-queued-bytes', 'stream-keepalive-ms'),
    ...stringFlags('stream-max-replays', 'stream-replay-bytes-per-second', 'stream-replay-client-bytes-per-second'),
    ...stringFlags('webhooks-private-targets', 'webhooks-max-per-key', 'webhooks-max-addresses', 'webhooks-queue', 'webhooks-queue-mb'),
    ...stringFlags('webhooks-max-attempts', 'webhooks-timeout-ms', 'webhooks-concurrency', 'webhooks-per-origin', 'webhooks-backoff-ms'),
    ...stringFlags('webhooks-max-backoff-ms', 'webhooks-delivery-log'),
    'webhooks-keyless': { type: 'boolean' },
    ...stringFlags('emulate-max-answer-bytes', 'emulate-max-answer-cells', 'emulate-concurrency', 'emulate-queue', 'emulate-per-client'),
    quiet: { type: 'boolean' },
    'lenient-params': { type: 'boolean' },
    help: { type: 'boolean' },
  },
  schema: z.object({
    host: z.string().min(1, { error: 'HOST must not be empty' }),
    port: intIn('PORT', 0, 65535),
    backend: sourceName('BACKEND'),
    sources: z.object({ v2: sourceOrAddress('V2_SOURCE'), v3: sourceOrAddress('V3_SOURCE') }),
    network: z.enum(NETWORKS, { error: 'NETWORK must be mainnet or testnet' }),
    keylessRps: intIn('KEYLESS_RPS', 0, 1_000_000),
    quiet: z.boolean(),
    redisUrl: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, { error: 'REDIS_URL must be a redis:// or rediss:// URL' })
      .optional(),
    subscriptions: z.object({
      maxPerClient: intIn('MAX_SUBSCRIPTIONS', 1, 10_000),
      maxAccounts: intIn('MAX_SUBSCRIPTION_ACCOUNTS', 1, 10_000),
    }),
    sockets: z.object({
      maxQueuedBytes: intIn('MAX_QUEUED_BYTES', 64 * 1024, 2 ** 31 - 1),
      maxOperations: intIn('MAX_SOCKET_OPERATIONS', 1, 10_000),
      maxSockets: intIn('MAX_SOCKETS', 1, 1_000_000),
      keepAliveMs: intIn('KEEPALIVE_MS', 100, 600_000),
      maxQueuedBytesTotal: intIn('MAX_QUEUED_BYTES_TOTAL', 1024 * 1024, 2 ** 40),
    }),
    streaming: z.object({
      maxConnections: intIn('STREAM_MAX_CONNECTIONS', 0, 1_000_000),
      maxAddresses: intIn('STREAM_MAX_ADDRESSES', 0, 10_000_000),
      maxSockets: intIn('STREAM_MAX_SOCKETS', 1, 1_000_000),
      maxFrameBytes: intIn('STREAM_MAX_FRAME_BYTES', 1024, 16 * 1024 * 1024),
      maxMessagesPerSecond: intIn('STREAM_MAX_MESSAGES_PER_SECOND', 1, 100_000),
      controlBytesPerSecond: intIn('STREAM_CONTROL_BYTES_PER_SECOND', 1024, 2 ** 40),
      maxQueuedBytes: intIn('STREAM_MAX_QUEUED_BYTES', 16 * 1024, 2 ** 31 - 1),
      keepAliveMs: intIn('STREAM_KEEPALIVE_MS', 10, 600_000),
      maxReplays: intIn('STREAM_MAX_REPLAYS', 1, 100_000),
      replayBytesPerSecond: intIn('STREAM_REPLAY_BYTES_PER_SECOND', 1024, 2 ** 40),
      replayClientBytesPerSecond: intIn('STREAM_REPLAY_CLIENT_BYTES_PER_SECOND', 1024, 2 ** 40),
    }),
    webhooks: z.object({
      keyless: z.boolean(),
      allowPrivate: z.enum(['allow', 'deny'], { error: 'WEBHOOKS_PRIVATE_TARGETS must be allow or deny' }).transform((v) => v === 'allow'),
      maxPerKey: intIn('WEBHOOKS_MAX_PER_KEY', 1, 1_000_000),
      maxAddresses: intIn('WEBHOOKS_MAX_ADDRESSES', 1, 1_000_000),
      queueEvents: intIn('WEBHOOKS_QUEUE', 2, 1_000_000),
      queueBytes: intIn('WEBHOOKS_QUEUE_MB', 1, 65_536).transform((mb) => mb * 1024 * 1024),
      maxAttempts: intIn('WEBHOOKS_MAX_ATTEMPTS', 1, 1_000),
      timeoutMs: intIn('WEBHOOKS_TIMEOUT_MS', 100, 600_000),
      concurrency: intIn('WEBHOOKS_CONCURRENCY', 1, 10_000),
      perOrigin: intIn('WEBHOOKS_PER_ORIGIN', 1, 10_000),
      backoffMs: intIn('WEBHOOKS_BACKOFF_MS', 1, 3_600_000),
      maxBackoffMs: intIn('WEBHOOKS_MAX_BACKOFF_MS', 1, 86_400_000),
      deliveryLog: intIn('WEBHOOKS_DELIVERY_LOG', 1, 10_000),
    }),
    maxQueryFields: intIn('MAX_QUERY_FIELDS', 1, 1_000_000),
    emulate: z.object({
      maxAnswerBytes: intIn('EMULATE_MAX_ANSWER_BYTES', 64 * 1024, 2 ** 31 - 1),
      maxAnswerCells: intIn('EMULATE_MAX_ANSWER_CELLS', 1024, 2 ** 31 - 1),
      running: intIn('EMULATE_CONCURRENCY', 1, 1024),
      queued: intIn('EMULATE_QUEUE', 0, 100_000),
      perClient: intIn('EMULATE_PER_CLIENT', 1, 100_000),
    }),
    shutdownTimeoutMs: intIn('SHUTDOWN_TIMEOUT_MS', 100, 600_000),
    v3ApiVersion: z.string().regex(/^\d{1,9}\.\d{1,9}\.\d{1,9}$/, { error: 'V3_API_VERSION must be major.minor.patch, e.g. 1.3.0' }),
    v3BranchFeatures: z.array(z.enum(V3_BRANCH_FEATURES, { error: `V3_BRANCH_FEATURES takes ${V3_BRANCH_FEATURES.join(', ')}` })),
    lenientParams: z.boolean(),
  }),
};

type Flags = OptionFragment<object>['flags'];

/** The flags of every fragment in one table; a flag two of them claim is a programming error, found at load. */
export function composeFlags(parts: Record<string, Flags>): Flags {
  const all: Flags = {};
  const owner = new Map<string, string>();
  for (const [part, flags] of Object.entries(parts)) {
    for (const [flag, spec] of Object.entries(flags)) {
      if (owner.has(flag)) throw new Error(`--${flag} is claimed by both ${owner.get(flag)} and ${part}`);
      owner.set(flag, part);
      all[flag] = spec;
    }
  }
  return all;
}

/** Every flag: the general ones and each source's own. */
export const FLAGS = composeFlags({ general: general.flags, ...Object.fromEntries(KINDS.map(([name, kind]) => [`source ${name}`, kind.options.flags])) });

const sourceSections = KINDS.map(([name, kind]) => `\n  Source ${name} (${kind.options.title}):\n${kind.options.usage}`).join('');

export const USAGE = `Usage: ton-graphql-gateway [options]

  --host HOST              listen address (env HOST, default 127.0.0.1)
  --port PORT              listen port (env PORT, default 8080)
  --backend NAME           ${SOURCE_NAMES.join(' | ')}, the data source of both APIs (env BACKEND, default localnet)
  --v2-source NAME|URL     the source of /api/v2 (and GraphQL's v2 reads): ${SOURCE_NAMES.join(', ')}, or the base
                           address of a toncenter-compatible upstream (env V2_SOURCE, default BACKEND)
  --v3-source NAME|URL     the same for /api/v3, GraphQL's v3 reads and its subscriptions (env V3_SOURCE, default BACKEND)
  --network NET            mainnet | testnet: the network API keys are checked against, and toncenter's
                           default address (env NETWORK, default testnet)
  --api-keys SPEC          key:network[|network]:rps[:stream-connections[:stream-addresses]],... (env API_KEYS;
                           the streaming limits default to --stream-max-connections and --stream-max-addresses)
  --keyless-rps N          requests/s per client without a key, 0 = unlimited (env KEYLESS_RPS,
                           default 0 on the local chain, 1 when either source is toncenter)
  --quiet                  do not print the genesis wallets (env QUIET=1)
  --redis-url URL          share rate limits and the immutable-object cache between replicas through Redis
                           (env REDIS_URL, redis://host:port[/db]; default: in process)
  --max-subscriptions N    open GraphQL subscriptions per client (env MAX_SUBSCRIPTIONS, default 16)
  --max-subscription-accounts N
                           accounts one transactions subscription may watch (env MAX_SUBSCRIPTION_ACCOUNTS, default 100)
  --max-queued-bytes N     bytes one WebSocket or SSE stream may have queued unread by its client; past it the
                           WebSocket is closed with 4413, the stream ended (env MAX_QUEUED_BYTES, default 8388608)
  --max-queued-bytes-total N
                           bytes left unread over every graphql-ws socket and streaming connection together; past
                           it the clients with the most unread are dropped first (env MAX_QUEUED_BYTES_TOTAL,
                           default 268435456)
  --max-socket-operations N
                           operations open at once on one WebSocket, past it refused with TOO_MANY_OPERATIONS
                           (env MAX_SOCKET_OPERATIONS, default 32)
  --max-sockets N          WebSockets open at once, past it closed with 1013 (env MAX_SOCKETS, default 10000)
  --keepalive-ms MS        ping each WebSocket this often and cut one that has not answered the previous ping
                           (env KEEPALIVE_MS, default 12000)
  --stream-max-connections N
                           Streaming API v2 connections open at once per client without its own limit, 0 =
                           unlimited (env STREAM_MAX_CONNECTIONS, default 100)
  --stream-max-addresses N addresses one streaming connection may watch, 0 = unlimited (env STREAM_MAX_ADDRESSES,
                           default 1000)
  --stream-max-sockets N   streaming connections (SSE and WebSocket) open at once over the server, past it 503 /
                           close 1013 (env STREAM_MAX_SOCKETS, default 10000)
  --stream-max-frame-bytes N
                           bytes of one SSE request body or WebSocket frame, past it 413 / close 1009
                           (env STREAM_MAX_FRAME_BYTES, default 131072)
  --stream-max-messages-per-second N
                           WebSocket messages one socket may send per second, counted before they are read; past
                           it one error frame, and the socket is not read until the rate allows the next (what
                           came with it is dropped) (env STREAM_MAX_MESSAGES_PER_SECOND, default 10)
  --stream-control-bytes-per-second N
                           bytes of WebSocket messages every streaming socket together may send per second; past
                           it the same (env STREAM_CONTROL_BYTES_PER_SECOND, default 4194304)
  --stream-max-queued-bytes N
                           bytes one streaming connection may leave unread (answers to its own messages
                           included), past it the client is dropped: WebSocket close 1013 "slow consumer", SSE
                           stream ended (env STREAM_MAX_QUEUED_BYTES, default 1048576)
  --stream-keepalive-ms MS ": keepalive" on SSE streams this often (env STREAM_KEEPALIVE_MS, default 5000)
  --stream-max-replays N   resumes from a cursor replaying at once over the server, past it SSE 429 with
                           Retry-After, WebSocket an error frame (env STREAM_MAX_REPLAYS, default 4)
  --stream-replay-bytes-per-second N
                           bytes per second all replays together send (env STREAM_REPLAY_BYTES_PER_SECOND,
                           default 16777216)
  --stream-replay-client-bytes-per-second N
                           bytes per second one replay sends, and never faster than its client reads
                           (env STREAM_REPLAY_CLIENT_BYTES_PER_SECOND, default 4194304)
  --webhooks-keyless       clients without an API key may make and change webhooks, all of them as one owner
                           (env WEBHOOKS_KEYLESS=1; default: a key is required)
  --webhooks-private-targets allow|deny
                           whether a webhook may point at a loopback, private or reserved address (env
                           WEBHOOKS_PRIVATE_TARGETS; default allow when the v3 source is the local chain, else deny)
  --webhooks-max-per-key N webhooks one API key may hold (env WEBHOOKS_MAX_PER_KEY, default ${WEBHOOK_DEFAULTS.maxPerKey})
  --webhooks-max-addresses N
                           addresses one webhook may watch (env WEBHOOKS_MAX_ADDRESSES, default ${WEBHOOK_DEFAULTS.maxAddresses})
  --webhooks-queue N       events waiting in memory per webhook; past it the webhook reads the rest from the event
                           log (env WEBHOOKS_QUEUE, default ${WEBHOOK_DEFAULTS.queueEvents})
  --webhooks-queue-mb N    events waiting in memory for all webhooks together, in MiB (env WEBHOOKS_QUEUE_MB,
                           default ${WEBHOOK_DEFAULTS.queueBytes / 1024 / 1024})
  --webhooks-max-attempts N
                           failed attempts at one event before the webhook is paused (env WEBHOOKS_MAX_ATTEMPTS,
                           default ${WEBHOOK_DEFAULTS.maxAttempts})
  --webhooks-timeout-ms MS one POST, its answer included (env WEBHOOKS_TIMEOUT_MS, default ${WEBHOOK_DEFAULTS.timeoutMs})
  --webhooks-concurrency N POSTs in flight at once, a quarter of them for retries (env WEBHOOKS_CONCURRENCY,
                           default ${WEBHOOK_DEFAULTS.concurrency})
  --webhooks-per-origin N  POSTs in flight at once to one receiving origin (env WEBHOOKS_PER_ORIGIN, default ${WEBHOOK_DEFAULTS.perOrigin})
  --webhooks-backoff-ms MS, --webhooks-max-backoff-ms MS
                           the first retry's delay, doubled per failed attempt up to the second, with jitter; a
                           Retry-After is honoured instead (env WEBHOOKS_BACKOFF_MS, WEBHOOKS_MAX_BACKOFF_MS,
                           default ${WEBHOOK_DEFAULTS.backoffMs} and ${WEBHOOK_DEFAULTS.maxBackoffMs})
  --webhooks-delivery-log N
                           attempts kept per webhook for GET .../deliveries (env WEBHOOKS_DELIVERY_LOG, default ${WEBHOOK_DEFAULTS.deliveryLog})
  --max-query-fields N     fields a GraphQL operation may select once its fragments are expanded (every spread
                           counted again; env MAX_QUERY_FIELDS, default 5000)
  --emulate-max-answer-bytes N
                           bytes of message BoCs one /api/emulate/v1 answer may print (a message counted where
                           it is sent and where it is received); the trace is cut there with is_incomplete, a
                           first transaction past it answers 413 (env EMULATE_MAX_ANSWER_BYTES, default 4194304)
  --emulate-max-answer-cells N
                           cells of those BoCs, the same way (env EMULATE_MAX_ANSWER_CELLS, default 65536)
  --emulate-concurrency N  emulations running at once (env EMULATE_CONCURRENCY, default 2)
  --emulate-queue N        emulations waiting for their turn, past it 429 with Retry-After (env EMULATE_QUEUE,
                           default 16)
  --emulate-per-client N   emulations one client (API key, else IP) may have running or waiting, past it 429 with
                           Retry-After (env EMULATE_PER_CLIENT, default 2)
  --shutdown-timeout-ms MS on SIGTERM/SIGINT: drain and close within MS, then exit regardless (env SHUTDOWN_TIMEOUT_MS,
                           default 10000; the process is killed outright 2000 ms later if even that cannot run)
  --v3-api-version X.Y.Z   X-API-Version on every /api/v3 answer, the indexer schema version answered as
                           (env V3_API_VERSION, default ${DEFAULT_V3_API_VERSION})
  --v3-branch-features L   comma list of toncenter v3 features seen only on a feature branch to serve:
                           ${V3_BRANCH_FEATURES.join(', ')} (env V3_BRANCH_FEATURES, default none)
  --lenient-params         ignore unknown and repeated parameters on /api/v2, /api/v3, the Emulate and Streaming
                           APIs as toncenter does, instead of 422 naming the one meant (env LENIENT_PARAMS=1; one
                           request: header X-Lenient-Params: 1)
${sourceSections}`;

/** Builds the config from argv and env; throws ConfigError with a readable message on a bad value. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): Config | 'help' {
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  if (flags.help) return 'help';
  const pick = (flag: string, envName: string, dflt: string): string =>
    (flags[flag] as string | undefined) ?? env[envName] ?? dflt;

  const backend = pick('backend', 'BACKEND', 'localnet');
  const network = pick('network', 'NETWORK', 'testnet');
  // V2_SOURCE / V3_SOURCE: a source name, or the base address of an upstream speaking toncenter's API there
  const addresses: Partial<Record<ApiName, string>> = {};
  const sourceOf = (api: ApiName): string => {
    const NAME = api.toUpperCase();
    const given = pick(`${api}-source`, `${NAME}_SOURCE`, backend);
    if (!given.includes('://') || !ADDRESSED) return given;
    const parsedUrl = baseUrl(`${NAME}_SOURCE`).safeParse(given);
    if (!parsedUrl.success) throw new ConfigError(parsedUrl.error.issues[0]!.message);
    addresses[api] = parsedUrl.data;
    return ADDRESSED;
  };
  const sources = { v2: sourceOf('v2'), v3: sourceOf('v3') };
  const reader: OptionReader = {
    pick,
    given: (flag, envName) => (flags[flag] ?? env[envName]) !== undefined,
    // an unknown network is reported by the schema; the defaults that follow it just need some value meanwhile
    network: (NETWORKS as readonly string[]).includes(network) ? (network as Network) : 'testnet',
    addresses,
    chosen: false,
  };
  const chosen = KINDS.filter(([name]) => name === sources.v2 || name === sources.v3);
  const keylessRps = Math.max(0, ...chosen.map(([, kind]) => kind.options.keylessRps ?? 0));
  const parsed = [
    general.schema.safeParse({
      host: pick('host', 'HOST', '127.0.0.1'),
      port: pick('port', 'PORT', '8080'),
      backend,
      sources,
      network,
      keylessRps: pick('keyless-rps', 'KEYLESS_RPS', String(keylessRps)),
      quiet: Boolean(flags.quiet) || env.QUIET === '1' || env.QUIET === 'true',
      redisUrl: optional(pick('redis-url', 'REDIS_URL', '')),
      subscriptions: {
        maxPerClient: pick('max-subscriptions', 'MAX_SUBSCRIPTIONS', '16'),
        maxAccounts: pick('max-subscription-accounts', 'MAX_SUBSCRIPTION_ACCOUNTS', '100'),
      },
      sockets: {
        maxQueuedBytes: pick('max-queued-bytes', 'MAX_QUEUED_BYTES', String(SOCKET_DEFAULTS.maxQueuedBytes)),
        maxOperations: pick('max-socket-operations', 'MAX_SOCKET_OPERATIONS', String(SOCKET_DEFAULTS.maxOperations)),
        maxSockets: pick('max-sockets', 'MAX_SOCKETS', String(SOCKET_DEFAULTS.maxSockets)),
        keepAliveMs: pick('keepalive-ms', 'KEEPALIVE_MS', String(SOCKET_DEFAULTS.keepAliveMs)),
        maxQueuedBytesTotal: pick('max-queued-bytes-total', 'MAX_QUEUED_BYTES_TOTAL', String(SOCKET_DEFAULTS.maxQueuedBytesTotal)),
      },
      streaming: {
        maxConnections: pick('stream-max-connections', 'STREAM_MAX_CONNECTIONS', String(STREAMING_DEFAULTS.maxConnections)),
        maxAddresses: pick('stream-max-addresses', 'STREAM_MAX_ADDRESSES', String(STREAMING_DEFAULTS.maxAddresses)),
        maxSockets: pick('stream-max-sockets', 'STREAM_MAX_SOCKETS', String(STREAMING_DEFAULTS.maxSockets)),
        maxFrameBytes: pick('stream-max-frame-bytes', 'STREAM_MAX_FRAME_BYTES', String(STREAMING_DEFAULTS.maxFrameBytes)),
        maxMessagesPerSecond: pick('stream-max-messages-per-second', 'STREAM_MAX_MESSAGES_PER_SECOND', String(STREAMING_DEFAULTS.maxMessagesPerSecond)),
        controlBytesPerSecond: pick('stream-control-bytes-per-second', 'STREAM_CONTROL_BYTES_PER_SECOND', String(STREAMING_DEFAULTS.controlBytesPerSecond)),
        maxQueuedBytes: pick('stream-max-queued-bytes', 'STREAM_MAX_QUEUED_BYTES', String(STREAMING_DEFAULTS.maxQueuedBytes)),
        keepAliveMs: pick('stream-keepalive-ms', 'STREAM_KEEPALIVE_MS', String(STREAMING_DEFAULTS.keepAliveMs)),
        maxReplays: pick('stream-max-replays', 'STREAM_MAX_REPLAYS', String(STREAMING_DEFAULTS.maxReplays)),
        replayBytesPerSecond: pick('stream-replay-bytes-per-second', 'STREAM_REPLAY_BYTES_PER_SECOND', String(STREAMING_DEFAULTS.replayBytesPerSecond)),
        replayClientBytesPerSecond: pick(
          'stream-replay-client-bytes-per-second',
          'STREAM_REPLAY_CLIENT_BYTES_PER_SECOND',
          String(STREAMING_DEFAULTS.replayClientBytesPerSecond),
        ),
      },
      webhooks: {
        keyless: Boolean(flags['webhooks-keyless']) || env.WEBHOOKS_KEYLESS === '1' || env.WEBHOOKS_KEYLESS === 'true',
        allowPrivate: pick('webhooks-private-targets', 'WEBHOOKS_PRIVATE_TARGETS', sources.v3 === 'localnet' ? 'allow' : 'deny'),
        maxPerKey: pick('webhooks-max-per-key', 'WEBHOOKS_MAX_PER_KEY', String(WEBHOOK_DEFAULTS.maxPerKey)),
        maxAddresses: pick('webhooks-max-addresses', 'WEBHOOKS_MAX_ADDRESSES', String(WEBHOOK_DEFAULTS.maxAddresses)),
        queueEvents: pick('webhooks-queue', 'WEBHOOKS_QUEUE', String(WEBHOOK_DEFAULTS.queueEvents)),
        queueBytes: pick('webhooks-queue-mb', 'WEBHOOKS_QUEUE_MB', String(WEBHOOK_DEFAULTS.queueBytes / 1024 / 1024)),
        maxAttempts: pick('webhooks-max-attempts', 'WEBHOOKS_MAX_ATTEMPTS', String(WEBHOOK_DEFAULTS.maxAttempts)),
        timeoutMs: pick('webhooks-timeout-ms', 'WEBHOOKS_TIMEOUT_MS', String(WEBHOOK_DEFAULTS.timeoutMs)),
        concurrency: pick('webhooks-concurrency', 'WEBHOOKS_CONCURRENCY', String(WEBHOOK_DEFAULTS.concurrency)),
        perOrigin: pick('webhooks-per-origin', 'WEBHOOKS_PER_ORIGIN', String(WEBHOOK_DEFAULTS.perOrigin)),
        backoffMs: pick('webhooks-backoff-ms', 'WEBHOOKS_BACKOFF_MS', String(WEBHOOK_DEFAULTS.backoffMs)),
        maxBackoffMs: pick('webhooks-max-backoff-ms', 'WEBHOOKS_MAX_BACKOFF_MS', String(WEBHOOK_DEFAULTS.maxBackoffMs)),
        deliveryLog: pick('webhooks-delivery-log', 'WEBHOOKS_DELIVERY_LOG', String(WEBHOOK_DEFAULTS.deliveryLog)),
      },
      maxQueryFields: pick('max-query-fields', 'MAX_QUERY_FIELDS', '5000'),
      emulate: {
        maxAnswerBytes: pick('emulate-max-answer-bytes', 'EMULATE_MAX_ANSWER_BYTES', String(EMULATION_BOUNDS.maxAnswerBytes)),
        maxAnswerCells: pick('emulate-max-answer-cells', 'EMULATE_MAX_ANSWER_CELLS', String(EMULATION_BOUNDS.maxAnswerCells)),
        running: pick('emulate-concurrency', 'EMULATE_CONCURRENCY', String(EMULATION_BOUNDS.running)),
        queued: pick('emulate-queue', 'EMULATE_QUEUE', String(EMULATION_BOUNDS.queued)),
        perClient: pick('emulate-per-client', 'EMULATE_PER_CLIENT', String(EMULATION_BOUNDS.perClient)),
      },
      shutdownTimeoutMs: pick('shutdown-timeout-ms', 'SHUTDOWN_TIMEOUT_MS', '10000'),
      v3ApiVersion: pick('v3-api-version', 'V3_API_VERSION', DEFAULT_V3_API_VERSION),
      v3BranchFeatures: [...new Set(pick('v3-branch-features', 'V3_BRANCH_FEATURES', '').split(',').map((s) => s.trim()).filter(Boolean))],
      lenientParams: Boolean(flags['lenient-params']) || env.LENIENT_PARAMS === '1' || env.LENIENT_PARAMS === 'true',
    }),
    ...KINDS.map(([name, kind]) => kind.options.schema.safeParse(kind.options.read({ ...reader, chosen: name === sources.v2 || name === sources.v3 }))),
  ];
  const issues = parsed.flatMap((p) => (p.success ? [] : p.error.issues));
  if (issues.length) throw new ConfigError(issues.map((i) => i.message).join('; '));
  const apiKeys = parseApiKeys(pick('api-keys', 'API_KEYS', ''));
  return merge([...parsed.map((p) => p.data as object), { apiKeys }]) as Config;
}

/** The fragments' values as one object; an object two fragments share (subscriptions) gets both's fields. */
function merge(parts: object[]): object {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      const prev = out[k];
      out[k] = isPlain(prev) && isPlain(v) ? { ...prev, ...v } : v;
    }
  }
  return out;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
