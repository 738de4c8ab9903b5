/**
 * CLI flags + environment -> one validated Config. A bad value stops start-up with a one-line message
 * naming the flag or variable, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NETWORK_GLOBAL_IDS } from './model/network.js';

export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export interface ApiKeySpec {
  key: string;
  networks: Network[];
  /** requests per second; 0 = unlimited */
  rps: number;
}

export const BACKENDS = ['localnet', 'toncenter'] as const;
export type Backend = (typeof BACKENDS)[number];

/** Default upstream base addresses per network, when V2_URL / V3_URL are not given. */
export const TONCENTER_URLS: Record<Network, string> = {
  mainnet: 'https://toncenter.com',
  testnet: 'https://testnet.toncenter.com',
};

/** Upstream mode (backend toncenter): where and how the gateway calls toncenter. */
export interface UpstreamConfig {
  /** base address; /api/v2/... is appended */
  v2Url: string;
  /** base address; /api/v3/... is appended */
  v3Url: string;
  /** sent as X-API-Key; empty = keyless */
  apiKey: string;
  /** outgoing requests per second over both APIs; 0 = unlimited */
  rps: number;
  /** per-attempt timeout in ms */
  timeoutMs: number;
  /** size bound of the cache of immutable objects, in MB; 0 = no cache */
  cacheMb: number;
  /** how long account states and masterchain info are reused, in ms; 0 = never */
  accountTtlMs: number;
}

export interface Config {
  host: string;
  port: number;
  backend: Backend;
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
  /** local chain: directory that makes it durable; undefined = in memory */
  dataDir?: string;
  /** shared rate limits and cache across replicas; undefined = in process */
  redisUrl?: string;
  subscriptions: SubscriptionConfig;
  /** ms a SIGTERM/SIGINT shutdown may take (draining requests, closing the chain) before the process exits anyway */
  shutdownTimeoutMs: number;
}

/** GraphQL subscriptions (SSE). */
export interface SubscriptionConfig {
  /** upstream mode: ms between masterchainInfo polls, one poll shared by every subscriber */
  pollMs: number;
  /** open subscriptions per client (API key, else IP) */
  maxPerClient: number;
  /** accounts one `transactions(accounts)` subscription may watch */
  maxAccounts: number;
}

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

const schema = z.object({
  host: z.string().min(1, { error: 'HOST must not be empty' }),
  port: intIn('PORT', 0, 65535),
  backend: z.enum(BACKENDS, { error: 'BACKEND must be localnet or toncenter' }),
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
    cacheMb: intIn('CACHE_MB', 0, 65_536),
    accountTtlMs: intIn('ACCOUNT_TTL_MS', 0, 3_600_000),
  }),
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
  shutdownTimeoutMs: intIn('SHUTDOWN_TIMEOUT_MS', 100, 600_000),
});

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  backend: { type: 'string' },
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
  'upstream-timeout-ms': { type: 'string' },
  'cache-mb': { type: 'string' },
  'account-ttl-ms': { type: 'string' },
  'data-dir': { type: 'string' },
  'redis-url': { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  'max-subscriptions': { type: 'string' },
  'max-subscription-accounts': { type: 'string' },
  'shutdown-timeout-ms': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export const USAGE = `Usage: ton-graphql-gateway [options]

  --host HOST              listen address (env HOST, default 127.0.0.1)
  --port PORT              listen port (env PORT, default 8080)
  --backend NAME           localnet | toncenter, the data source (env BACKEND, default localnet)
  --network NET            mainnet | testnet: the network API keys are checked against, and toncenter's
                           default address (env NETWORK, default testnet)
  --block-interval MS      local chain: ms between blocks, 0 = a block per message (env BLOCK_INTERVAL, default 1000)
  --seed TEXT              local chain: genesis seed (env SEED, default "ton-graphql-gateway")
  --global-id=N            local chain: its global id, config param 19, which v5r1 wallet ids include
                           (env GLOBAL_ID, default by NETWORK: -3 testnet, -239 mainnet)
  --api-keys SPEC          key:network[|network]:rps,... (env API_KEYS)
  --keyless-rps N          requests/s per client without a key, 0 = unlimited (env KEYLESS_RPS,
                           default 0 on the local chain, 1 with backend toncenter)

  Backend toncenter (upstream mode):
  --v2-url URL             base address of the v2 upstream, /api/v2/... is appended (env V2_URL,
                           default https://toncenter.com or https://testnet.toncenter.com by NETWORK)
  --v3-url URL             base address of the v3 upstream, /api/v3/... is appended (env V3_URL, same default)
  --upstream-api-key KEY   sent to the upstream as X-API-Key (env UPSTREAM_API_KEY)
  --upstream-rps N         outgoing requests/s, 0 = unlimited (env UPSTREAM_RPS, default 1 without a key, else 0)
  --upstream-timeout-ms MS per-attempt upstream timeout (env UPSTREAM_TIMEOUT_MS, default 15000)
  --cache-mb N             cache of immutable objects (transactions, messages, blocks), 0 = off (env CACHE_MB, default 64)
  --account-ttl-ms MS      reuse account states and masterchain info this long (env ACCOUNT_TTL_MS, default 1000)
  --quiet                  do not print the genesis wallets (env QUIET=1)

  --data-dir DIR           local chain: keep blocks, transactions and states in DIR and continue from them
                           on restart (env DATA_DIR; default: in memory)
  --redis-url URL          share rate limits and the immutable-object cache between replicas through Redis
                           (env REDIS_URL, redis://host:port[/db]; default: in process)
  --poll-interval-ms MS    upstream mode: how often subscriptions poll for new blocks (env POLL_INTERVAL_MS, default 1000)
  --max-subscriptions N    open GraphQL subscriptions per client (env MAX_SUBSCRIPTIONS, default 16)
  --max-subscription-accounts N
                           accounts one transactions subscription may watch (env MAX_SUBSCRIPTION_ACCOUNTS, default 100)
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
  const parsed = schema.safeParse({
    host: pick('host', 'HOST', '127.0.0.1'),
    port: pick('port', 'PORT', '8080'),
    backend,
    network,
    blockInterval: pick('block-interval', 'BLOCK_INTERVAL', '1000'),
    seed: pick('seed', 'SEED', 'ton-graphql-gateway'),
    globalId: pick('global-id', 'GLOBAL_ID', String(NETWORK_GLOBAL_IDS[known])),
    // toncenter's own keyless limit is 1 rps, so the gateway in front of it defaults to the same
    keylessRps: pick('keyless-rps', 'KEYLESS_RPS', backend === 'toncenter' ? '1' : '0'),
    quiet: Boolean(flags.quiet) || env.QUIET === '1' || env.QUIET === 'true',
    upstream: {
      v2Url: pick('v2-url', 'V2_URL', defaultUrl),
      v3Url: pick('v3-url', 'V3_URL', defaultUrl),
      apiKey: upstreamKey,
      rps: pick('upstream-rps', 'UPSTREAM_RPS', upstreamKey ? '0' : '1'),
      timeoutMs: pick('upstream-timeout-ms', 'UPSTREAM_TIMEOUT_MS', '15000'),
      cacheMb: pick('cache-mb', 'CACHE_MB', '64'),
      accountTtlMs: pick('account-ttl-ms', 'ACCOUNT_TTL_MS', '1000'),
    },
    dataDir: optional(pick('data-dir', 'DATA_DIR', '')),
    redisUrl: optional(pick('redis-url', 'REDIS_URL', '')),
    subscriptions: {
      pollMs: pick('poll-interval-ms', 'POLL_INTERVAL_MS', '1000'),
      maxPerClient: pick('max-subscriptions', 'MAX_SUBSCRIPTIONS', '16'),
      maxAccounts: pick('max-subscription-accounts', 'MAX_SUBSCRIPTION_ACCOUNTS', '100'),
    },
    shutdownTimeoutMs: pick('shutdown-timeout-ms', 'SHUTDOWN_TIMEOUT_MS', '10000'),
  });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('; '));
  const apiKeys = parseApiKeys(pick('api-keys', 'API_KEYS', ''));
  return { ...parsed.data, apiKeys };
}
