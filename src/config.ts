/**
 * CLI flags + environment -> one validated Config. A bad value stops start-up with a one-line message
 * naming the flag or variable, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';

export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export interface ApiKeySpec {
  key: string;
  networks: Network[];
  /** requests per second; 0 = unlimited */
  rps: number;
}

export interface Config {
  host: string;
  port: number;
  backend: 'localnet';
  network: Network;
  /** ms between sealed blocks; 0 = seal on every accepted message */
  blockInterval: number;
  seed: string;
  apiKeys: ApiKeySpec[];
  /** keyless v2 requests per second per client; 0 = unlimited */
  keylessRps: number;
  /** print the genesis wallets on start-up */
  quiet: boolean;
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

const schema = z.object({
  host: z.string().min(1, { error: 'HOST must not be empty' }),
  port: intIn('PORT', 0, 65535),
  backend: z.enum(['localnet'], { error: 'BACKEND must be localnet' }),
  network: z.enum(NETWORKS, { error: 'NETWORK must be mainnet or testnet' }),
  blockInterval: intIn('BLOCK_INTERVAL', 0, 3_600_000),
  seed: z.string().min(1, { error: 'SEED must not be empty' }),
  keylessRps: intIn('KEYLESS_RPS', 0, 1_000_000),
  quiet: z.boolean(),
});

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  backend: { type: 'string' },
  network: { type: 'string' },
  'block-interval': { type: 'string' },
  seed: { type: 'string' },
  'api-keys': { type: 'string' },
  'keyless-rps': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

export const USAGE = `Usage: ton-graphql-gateway [options]

  --host HOST              listen address (env HOST, default 127.0.0.1)
  --port PORT              listen port (env PORT, default 8080)
  --backend localnet       data source (env BACKEND, default localnet)
  --network NET            mainnet | testnet, the network API keys are checked against (env NETWORK, default testnet)
  --block-interval MS      local chain: ms between blocks, 0 = a block per message (env BLOCK_INTERVAL, default 1000)
  --seed TEXT              local chain: genesis seed (env SEED, default "ton-graphql-gateway")
  --api-keys SPEC          key:network[|network]:rps,... (env API_KEYS)
  --keyless-rps N          v2 requests/s without a key, 0 = unlimited (env KEYLESS_RPS, default 0 on the local chain)
  --quiet                  do not print the genesis wallets (env QUIET=1)
`;

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

  const parsed = schema.safeParse({
    host: pick('host', 'HOST', '127.0.0.1'),
    port: pick('port', 'PORT', '8080'),
    backend: pick('backend', 'BACKEND', 'localnet'),
    network: pick('network', 'NETWORK', 'testnet'),
    blockInterval: pick('block-interval', 'BLOCK_INTERVAL', '1000'),
    seed: pick('seed', 'SEED', 'ton-graphql-gateway'),
    keylessRps: pick('keyless-rps', 'KEYLESS_RPS', '0'),
    quiet: Boolean(flags.quiet) || env.QUIET === '1' || env.QUIET === 'true',
  });
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('; '));
  const apiKeys = parseApiKeys(pick('api-keys', 'API_KEYS', ''));
  return { ...parsed.data, apiKeys };
}
