/**
 * CLI flags + environment -> one validated Config. A bad value stops start-up with a one-line message
 * naming the flag or variable, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NETWORK_GLOBAL_IDS } from './model/network.js';
import type { ApiName } from './api/source.js';
import { SOURCES, type SourceName } from './sources/index.js';

export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export interface ApiKeySpec {
  key: string;
  networks: Network[];
  /** requests per second; 0 = unlimited */
  rps: number;
}

/** The source names V2_SOURCE, V3_SOURCE and BACKEND accept (src/sources/index.ts). */
const SOURCE_NAMES = Object.keys(SOURCES) as [SourceName, ...SourceName[]];

/** Default upstream base addresses per network, when V2_URL / V3_URL are not given. */
export const TONCENTER_URLS: Record<Network, string> = {
  mainnet: 'https://toncenter.com',
  testnet: 'https://testnet.toncenter.com',
};

/**
 * The largest upstream answer read by default. toncenter's biggest legitimate answers are pages at limit 1000:
 * a recorded v3 transaction with its messages is 3-6 KB of JSON, so /api/v3/transactions?limit=1000 is a few
 * MB and tens of MB when the messages carry init states or large bodies; 64 MiB leaves room for those (and for
 * /api/v3/accountStates with code and data) while four such answers in flight stay within a few hundred MB.
 */
export const DEFAULT_UPSTREAM_MAX_BYTES = 64 * 1024 * 1024;

/** Upstream mode (source toncenter): where and how the gateway calls toncenter. */
export interface UpstreamConfig {
  /** base address; /api/v2/... is appended */
  v2Url: string;
  /** base address; /api/v3/... is appended */
  v3Url: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  /** outgoing requests per second over both APIs; 0 = unlimited */
  rps: number;
  /** per-attempt timeout in ms, covering the whole answer (headers and body) */
  timeoutMs: number;
  /** largest upstream answer body read, in bytes; a larger one is refused (502) */
  maxBytes: number;
  /** size bound of the cache of immutable objects, in MB; 0 = no cache */
  cacheMb: number;
  /** how long account states and masterchain info are reused, in ms; 0 = never */
  accountTtlMs: number;
}

/** One API's own upstream key and pace, for when v2 and v3 are different services (default: the shared ones). */
export type UpstreamApiConfig = Pick<UpstreamConfig, 'apiKey' | 'rps'>;

export interface Config {
  host: string;
  port: number;
  /** BACKEND as given: the source of both interfaces unless V2_SOURCE / V3_SOURCE name another */
  backend: SourceName;
  /** which source answers each interface */
  sources: Record<ApiName, SourceName>;
  network: Network;
  /** ms between sealed blocks; 0 = seal on every accepted message */
  blockInterval: number;
  seed: string;
  /** local chain: its global id (config param 19, block headers, v5r1 wallet ids) */
  globalId: number;
  apiKeys: ApiKeySpec[];
  /** keyless v2 requests per second per client; 0 = unlimited */
  keylessRps: number;
  /** print the genesis wallets on start-up */
  quiet: boolean;
  upstream: UpstreamConfig;
  upstreamApis: Record<ApiName, UpstreamApiConfig>;
  /** local chain: directory that makes it durable; undefined = in memory */
  dataDir?: string;
  /** shared rate limits and cache across replicas; undefined = in process */
  redisUrl?: string;
  subscriptions: SubscriptionConfig;
  sockets: SocketConfig;
  /** GraphQL: field nodes of an operation once its fragments are expanded */
  maxQueryFields: number;
  /** ms a SIGTERM/SIGINT shutdown may take (draining requests, closing the chain) before the process exits anyway */
  shutdownTimeoutMs: number;
}

/** GraphQL subscriptions (SSE). */
export interface SubscriptionConfig {
  /** a v3 source without a signal of its own (upstream): ms between masterchainInfo polls, one shared by every subscriber */
  pollMs: number;
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
}

export const SOCKET_DEFAULTS: SocketConfig = {
  maxQueuedBytes: 8 * 1024 * 1024,
  maxOperations: 32,
  maxSockets: 10_000,
  keepAliveMs: 12_000,
};

export class ConfigError extends Error {}

const KEY_SPEC = /^([^:,\s]+):([a-z|]+):(\d+)$/;

/** `key:network[|network]:rps`, comma-separated. */
export function parseApiKeys(src: string): ApiKeySpec[] {
  const specs: ApiKeySpec[] = [];
  for (const part of src.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = KEY_SPEC.exec(part);
    if (!m) throw new ConfigError(`API_KEYS: entry ${specs.length + 1} is not of the form key:network[|network]:rps`);
    const networks = m[2]!.split('|');
    for (const n of networks) {
      if (!(NETWORKS as readonly string[]).includes(n)) {
        throw new ConfigError(`API_KEYS: entry ${specs.length + 1} names unknown network '${n}' (expected mainnet or testnet)`);
      }
    }
    if (specs.some((s) => s.key === m[1])) throw new ConfigError(`API_KEYS: entry ${specs.length + 1} repeats a key`);
    specs.push({ key: m[1]!, networks: networks as Network[], rps: Number(m[3]) });
  }
  return specs;
}

const intIn = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be at least ${min}` })
    .max(max, { error: `${name} must be at most ${max}` });

/** http(s) base address without query or fragment; a trailing slash is dropped so paths append cleanly. */
const baseUrl = (name: string) =>
  z.string().transform((v, ctx) => {
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL` });
      return z.NEVER;
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an http(s) URL without query or fragment` });
      return z.NEVER;
    }
    return v.replace(/\/+$/, '');
  });

const orList = (names: readonly string[]): string => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

const sourceName = (name: string, what = orList(SOURCE_NAMES)) => z.enum(SOURCE_NAMES, { error: `${name} must be ${what}` });

const upstreamApi = (prefix: 'V2' | 'V3') =>
  z.object({ apiKey: z.string(), rps: intIn(`${prefix}_UPSTREAM_RPS`, 0, 1_000_000) });

const schema = z.object({
  host: z.string().min(1, { error: 'HOST must not be empty' }),
  port: intIn('PORT', 0, 65535),
  backend: sourceName('BACKEND'),
  sources: z.object({
    v2: sourceName('V2_SOURCE', `${SOURCE_NAMES.join(', ')} or an http(s) URL`),
    v3: sourceName('V3_SOURCE', `${SOURCE_NAMES.join(', ')} or an http(s) URL`),
  }),
  network: z.enum(NETWORKS, { error: 'NETWORK must be mainnet or testnet' }),
  blockInterval: intIn('BLOCK_INTERVAL', 0, 3_600_000),
  seed: z.string().min(1, { error: 'SEED must not be empty' }),
  globalId: intIn('GLOBAL_ID', -(2 ** 31), 2 ** 31 - 1),
  keylessRps: intIn('KEYLESS_RPS', 0, 1_000_000),
  quiet: z.boolean(),
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
  dataDir: z.string().min(1, { error: 'DATA_DIR must not be empty' }).optional(),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, { error: 'REDIS_URL must be a redis:// or rediss:// URL' })
    .optional(),
  subscriptions: z.object({
    pollMs: intIn('POLL_INTERVAL_MS', 100, 600_000),
    maxPerClient: intIn('MAX_SUBSCRIPTIONS', 1, 10_000),
    maxAccounts: intIn('MAX_SUBSCRIPTION_ACCOUNTS', 1, 10_000),
  }),
  sockets: z.object({
    maxQueuedBytes: intIn('MAX_QUEUED_BYTES', 64 * 1024, 2 ** 31 - 1),
    maxOperations: intIn('MAX_SOCKET_OPERATIONS', 1, 10_000),
    maxSockets: intIn('MAX_SOCKETS', 1, 1_000_000),
    keepAliveMs: intIn('KEEPALIVE_MS', 100, 600_000),
  }),
  maxQueryFields: intIn('MAX_QUERY_FIELDS', 1, 1_000_000),
  shutdownTimeoutMs: intIn('SHUTDOWN_TIMEOUT_MS', 100, 600_000),
});

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  backend: { type: 'string' },
  'v2-source': { type: 'string' },
  'v3-source': { type: 'string' },
  network: { type: 'string' },
  'block-interval': { type: 'string' },
  seed: { type: 'string' },
  'global-id': { type: 'string' },
  'api-keys': { type: 'string' },
  'keyless-rps': { type: 'string' },
  'v2-url': { type: 'string' },
  'v3-url': { type: 'string' },
  'upstream-api-key': { type: 'string' },
  'upstream-rps': { type: 'string' },
  'v2-upstream-api-key': { type: 'string' },
  'v3-upstream-api-key': { type: 'string' },
  'v2-upstream-rps': { type: 'string' },
  'v3-upstream-rps': { type: 'string' },
  'upstream-timeout-ms': { type: 'string' },
  'upstream-max-bytes': { type: 'string' },
  'cache-mb': { type: 'string' },
  'account-ttl-ms': { type: 'string' },
  'data-dir': { type: 'string' },
  'redis-url': { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  'max-subscriptions': { type: 'string' },
  'max-subscription-accounts': { type: 'string' },
  'max-queued-bytes': { type: 'string' },
  'max-socket-operations': { type: 'string' },
  'max-sockets': { type: 'string' },
  'keepalive-ms': { type: 'string' },
  'max-query-fields': { type: 'string' },
  'shutdown-timeout-ms': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export const USAGE = `Usage: ton-graphql-gateway [options]

  --host HOST              listen address (env HOST, default 127.0.0.1)
  --port PORT              listen port (env PORT, default 8080)
  --backend NAME           localnet | toncenter, the data source of both APIs (env BACKEND, default localnet)
  --v2-source NAME|URL     the source of /api/v2 (and GraphQL's v2 reads): localnet, toncenter, or the base
                           address of a toncenter-compatible upstream (env V2_SOURCE, default BACKEND)
  --v3-source NAME|URL     the same for /api/v3, GraphQL's v3 reads and its subscriptions (env V3_SOURCE, default BACKEND)
  --network NET            mainnet | testnet: the network API keys are checked against, and toncenter's
                           default address (env NETWORK, default testnet)
  --block-interval MS      local chain: ms between blocks, 0 = a block per message (env BLOCK_INTERVAL, default 1000)
  --seed TEXT              local chain: genesis seed (env SEED, default "ton-graphql-gateway")
  --global-id=N            local chain: its global id, config param 19, which v5r1 wallet ids include
                           (env GLOBAL_ID, default by NETWORK: -3 testnet, -239 mainnet)
  --api-keys SPEC          key:network[|network]:rps,... (env API_KEYS)
  --keyless-rps N          requests/s per client without a key, 0 = unlimited (env KEYLESS_RPS,
                           default 0 on the local chain, 1 when either source is toncenter)

  Source toncenter (upstream mode):
  --v2-url URL             base address of the v2 upstream, /api/v2/... is appended (env V2_URL,
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
  --quiet                  do not print the genesis wallets (env QUIET=1)

  --data-dir DIR           local chain: keep blocks, transactions and states in DIR and continue from them
                           on restart (env DATA_DIR; default: in memory)
  --redis-url URL          share rate limits and the immutable-object cache between replicas through Redis
                           (env REDIS_URL, redis://host:port[/db]; default: in process)
  --poll-interval-ms MS    v3 source toncenter: how often subscriptions poll for new blocks (env POLL_INTERVAL_MS, default 1000)
  --max-subscriptions N    open GraphQL subscriptions per client (env MAX_SUBSCRIPTIONS, default 16)
  --max-subscription-accounts N
                           accounts one transactions subscription may watch (env MAX_SUBSCRIPTION_ACCOUNTS, default 100)
  --max-queued-bytes N     bytes one WebSocket or SSE stream may have queued unread by its client; past it the
                           WebSocket is closed with 4413, the stream ended (env MAX_QUEUED_BYTES, default 8388608)
  --max-socket-operations N
                           operations open at once on one WebSocket, past it refused with TOO_MANY_OPERATIONS
                           (env MAX_SOCKET_OPERATIONS, default 32)
  --max-sockets N          WebSockets open at once, past it closed with 1013 (env MAX_SOCKETS, default 10000)
  --keepalive-ms MS        ping each WebSocket this often and cut one that has not answered the previous ping
                           (env KEEPALIVE_MS, default 12000)
  --max-query-fields N     fields a GraphQL operation may select once its fragments are expanded (every spread
                           counted again; env MAX_QUERY_FIELDS, default 5000)
  --shutdown-timeout-ms MS on SIGTERM/SIGINT: drain and close within MS, then exit regardless (env SHUTDOWN_TIMEOUT_MS,
                           default 10000; the process is killed outright 2000 ms later if even that cannot run)
`;

/** An empty flag or variable means "not set". */
const optional = (v: string): string | undefined => (v === '' ? undefined : v);

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
  const upstreamKey = pick('upstream-api-key', 'UPSTREAM_API_KEY', '');
  // an unknown network is reported by the schema; the defaults that follow it just need some value meanwhile
  const known: Network = Object.hasOwn(TONCENTER_URLS, network) ? (network as Network) : 'testnet';
  const defaultUrl = TONCENTER_URLS[known];
  // V2_SOURCE / V3_SOURCE: a source name, or the base address of an upstream speaking toncenter's API there
  const sourceOf = (api: ApiName): { name: string; url: string } => {
    const NAME = api.toUpperCase();
    const given = pick(`${api}-source`, `${NAME}_SOURCE`, backend);
    const url = pick(`${api}-url`, `${NAME}_URL`, defaultUrl);
    if (!given.includes('://')) return { name: given, url };
    if ((flags[`${api}-url`] ?? env[`${NAME}_URL`]) !== undefined) {
      throw new ConfigError(`${NAME}_SOURCE gives an address and ${NAME}_URL another: set one of them`);
    }
    const parsedUrl = baseUrl(`${NAME}_SOURCE`).safeParse(given);
    if (!parsedUrl.success) throw new ConfigError(parsedUrl.error.issues[0]!.message);
    return { name: 'toncenter', url: parsedUrl.data };
  };
  const v2 = sourceOf('v2');
  const v3 = sourceOf('v3');
  const upstreamRps = pick('upstream-rps', 'UPSTREAM_RPS', upstreamKey ? '0' : '1');
  const upstreamApi = (api: ApiName) => {
    const NAME = api.toUpperCase();
    const apiKey = pick(`${api}-upstream-api-key`, `${NAME}_UPSTREAM_API_KEY`, upstreamKey);
    // an API's own key without an explicit pace is unpaced, as a shared key is
    const rps = pick(`${api}-upstream-rps`, `${NAME}_UPSTREAM_RPS`, apiKey !== upstreamKey ? (apiKey ? '0' : '1') : upstreamRps);
    return { apiKey, rps };
  };
  const parsed = schema.safeParse({
    host: pick('host', 'HOST', '127.0.0.1'),
    port: pick('port', 'PORT', '8080'),
    backend,
    sources: { v2: v2.name, v3: v3.name },
    network,
    blockInterval: pick('block-interval', 'BLOCK_INTERVAL', '1000'),
    seed: pick('seed', 'SEED', 'ton-graphql-gateway'),
    globalId: pick('global-id', 'GLOBAL_ID', String(NETWORK_GLOBAL_IDS[known])),
    // toncenter's own keyless limit is 1 rps, so the gateway in front of it defaults to the same
    keylessRps: pick('keyless-rps', 'KEYLESS_RPS', v2.name === 'toncenter' || v3.name === 'toncenter' ? '1' : '0'),
    quiet: Boolean(flags.quiet) || env.QUIET === '1' || env.QUIET === 'true',
    upstream: {
      v2Url: v2.url,
      v3Url: v3.url,
      apiKey: upstreamKey,
      rps: upstreamRps,
      timeoutMs: pick('upstream-timeout-ms', 'UPSTREAM_TIMEOUT_MS', '15000'),
      maxBytes: pick('upstream-max-bytes', 'UPSTREAM_MAX_BYTES', String(DEFAULT_UPSTREAM_MAX_BYTES)),
      cacheMb: pick('cache-mb', 'CACHE_MB', '64'),
      accountTtlMs: pick('account-ttl-ms', 'ACCOUNT_TTL_MS', '1000'),
    },
    upstreamApis: { v2: upstreamApi('v2'), v3: upstreamApi('v3') },
    dataDir: optional(pick('data-dir', 'DATA_DIR', '')),
    redisUrl: optional(pick('redis-url', 'REDIS_URL', '')),
    subscriptions: {
      pollMs: pick('poll-interval-ms', 'POLL_INTERVAL_MS', '1000'),
      maxPerClient: pick('max-subscriptions', 'MAX_SUBSCRIPTIONS', '16'),
      maxAccounts: pick('max-subscription-accounts', 'MAX_SUBSCRIPTION_ACCOUNTS', '100'),
    },
    sockets: {
      maxQueuedBytes: pick('max-queued-bytes', 'MAX_QUEUED_BYTES', String(SOCKET_DEFAULTS.maxQueuedBytes)),
      maxOperations: pick('max-socket-operations', 'MAX_SOCKET_OPERATIONS', String(SOCKET_DEFAULTS.maxOperations)),
      maxSockets: pick('max-sockets', 'MAX_SOCKETS', String(SOCKET_DEFAULTS.maxSockets)),
      keepAliveMs: pick('keepalive-ms', 'KEEPALIVE_MS', String(SOCKET_DEFAULTS.keepAliveMs)),
    },
    maxQueryFields: pick('max-query-fields', 'MAX_QUERY_FIELDS', '5000'),
    shutdownTimeoutMs: pick('shutdown-timeout-ms', 'SHUTDOWN_TIMEOUT_MS', '10000'),
  });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('; '));
  const apiKeys = parseApiKeys(pick('api-keys', 'API_KEYS', ''));
  return { ...parsed.data, apiKeys };
}
