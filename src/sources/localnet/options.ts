/** The local chain's options: block interval, genesis seed, global id, data directory, and the network it forks. */
import { z } from 'zod';
import { baseUrl, ConfigError, intIn, optional, stringFlags, type OptionFragment } from '../../api/options.js';
import { parseAddressAny } from '../../model/address.js';
import { NETWORK_GLOBAL_IDS } from '../../model/network.js';
import { TONCENTER_URLS } from '../../remote/options.js';
import type { ForkOptions } from './chain/fork.js';
import { DEFAULT_DELIVERY_DEADLINE_MS, DEFAULT_DELIVERY_LOADS } from './chain/fork-delivery.js';

export interface LocalnetOptions {
  /** ms between sealed blocks; 0 = seal on every accepted message */
  blockInterval: number;
  seed: string;
  /** local chain: its global id (config param 19, block headers, v5r1 wallet ids) */
  globalId: number;
  /** local chain: directory that makes it durable; undefined = in memory */
  dataDir?: string;
  /** local chain: wall-clock budget of one Emulate API emulation, ms */
  emulateTimeoutMs: number;
  /** local chain: the network it starts from (a fork); undefined = its own genesis */
  fork?: ForkOptions;
  /** finalized streaming events kept for resumption (the newest) */
  streamRetention: number;
  /** wallets (raw addresses) whose external messages run without their signature check */
  impersonate: string[];
  /** acton's --no-mining: blocks only when asked for (acton_mine) */
  noMining: boolean;
  /** whether a block is sealed when nothing is pending (acton's --mine-empty-blocks) */
  mineEmptyBlocks: boolean;
  /** ms a sealed block stays confirmed before it is final */
  finalityDelayMs: number;
}

/** A yes/no option: the flag given, or its variable as 1/0/true/false. */
const yesNo = (name: string) =>
  z.enum(['true', 'false', '1', '0'], { error: `${name} must be 1 or 0` }).transform((v) => v === 'true' || v === '1');

/** `--fork mainnet` / `testnet`: toncenter's public v2 for that network. */
const forkUrl = (v: string): string => (v === 'mainnet' || v === 'testnet' ? TONCENTER_URLS[v] : v);

export const localnetOptions: OptionFragment<LocalnetOptions> = {
  flags: {
    ...stringFlags('block-interval', 'block-interval-ms', 'seed', 'global-id', 'data-dir', 'emulate-timeout-ms', 'fork', 'fork-block', 'fork-api-key', 'fork-rps', 'fork-wait-ms', 'fork-loads', 'stream-retention', 'impersonate', 'finality-delay-ms'),
    'no-mining': { type: 'boolean' },
    'mine-empty-blocks': { type: 'boolean' },
  },
  title: 'local chain',
  usage: `  --block-interval-ms MS   local chain: ms between blocks, 0 = a block per message (env BLOCK_INTERVAL_MS, default
                           1000); --block-interval and BLOCK_INTERVAL are the same
  --no-mining              local chain: no timer; blocks are sealed only by POST /acton_mine (env NO_MINING=1)
  --mine-empty-blocks      local chain: the timer seals a block even when nothing is pending (env MINE_EMPTY_BLOCKS,
                           default 1; 0 skips empty blocks as acton does by default; POST /acton_setMiningMode)
  --finality-delay-ms MS   local chain: a sealed block stays confirmed, not finalized, this long (rollbacks and reorgs
                           undo only such blocks) (env FINALITY_DELAY_MS, default 0: final when sealed)
  --seed TEXT              local chain: genesis seed (env SEED, default "ton-graphql-gateway")
  --global-id=N            local chain: its global id, config param 19, which v5r1 wallet ids include
                           (env GLOBAL_ID, default by NETWORK: -3 testnet, -239 mainnet)
  --data-dir DIR           local chain: keep blocks, transactions and states in DIR and continue from them
                           on restart (env DATA_DIR; default: in memory); any source: webhooks are kept in
                           DIR/webhooks.db unless REDIS_URL keeps them
  --emulate-timeout-ms MS  budget of one /api/emulate/v1 emulation (local chain, or upstream mode against the
                           upstream's state), past it a 500 (env EMULATE_TIMEOUT_MS, default 3000, toncenter's)
  --fork URL               local chain: start from this network's state instead of a genesis: a v2 API's base
                           address (toncenter, ton-http-api, another gateway; /api/v2/... is appended), or
                           mainnet / testnet for toncenter's (env FORK_URL); accounts are read from it lazily
  --fork-block N           the masterchain seqno to fork at (env FORK_BLOCK, default the upstream's newest)
  --fork-api-key KEY       sent to the fork's upstream as X-API-Key (env FORK_API_KEY)
  --fork-rps N             requests/s to the fork's upstream, 0 = unpaced (env FORK_RPS, default 1 without a key, else 0)
  --fork-wait-ms MS        how long a message waits for its destination account to load from the fork's upstream
                           before it fails, reported in its trace (env FORK_WAIT_MS, default 120000)
  --fork-loads N           accounts loaded at once for messages waiting on them (env FORK_LOADS, default 16)
  --impersonate ADDR[,ADDR] local chain or fork: external messages to these wallets run without their signature
                           check, so a test can act as a wallet whose key it lacks (env IMPERSONATE; not in
                           upstream mode)
  --stream-retention N     local chain: finalized streaming events kept for resuming with a cursor, the newest N
                           (env STREAM_RETENTION, default 100000)
`,
  read: ({ pick, given, network, chosen }) => ({
    blockInterval: pick('block-interval-ms', 'BLOCK_INTERVAL_MS', pick('block-interval', 'BLOCK_INTERVAL', '1000')),
    seed: pick('seed', 'SEED', 'ton-graphql-gateway'),
    globalId: pick('global-id', 'GLOBAL_ID', String(NETWORK_GLOBAL_IDS[network])),
    dataDir: optional(pick('data-dir', 'DATA_DIR', '')),
    emulateTimeoutMs: pick('emulate-timeout-ms', 'EMULATE_TIMEOUT_MS', '3000'),
    fork: forkOf(pick),
    streamRetention: pick('stream-retention', 'STREAM_RETENTION', '100000'),
    impersonate: impersonatedOf(pick('impersonate', 'IMPERSONATE', ''), given('impersonate', 'IMPERSONATE') && !chosen),
    noMining: String(pick('no-mining', 'NO_MINING', 'false')),
    mineEmptyBlocks: String(pick('mine-empty-blocks', 'MINE_EMPTY_BLOCKS', 'true')),
    finalityDelayMs: pick('finality-delay-ms', 'FINALITY_DELAY_MS', '0'),
  }),
  schema: z.object({
    blockInterval: intIn('BLOCK_INTERVAL', 0, 3_600_000),
    seed: z.string().min(1, { error: 'SEED must not be empty' }),
    globalId: intIn('GLOBAL_ID', -(2 ** 31), 2 ** 31 - 1),
    dataDir: z.string().min(1, { error: 'DATA_DIR must not be empty' }).optional(),
    emulateTimeoutMs: intIn('EMULATE_TIMEOUT_MS', 100, 600_000),
    fork: z
      .object({
        url: baseUrl('FORK_URL'),
        seqno: intIn('FORK_BLOCK', 1, 2 ** 32 - 1).optional(),
        apiKey: z.string(),
        rps: intIn('FORK_RPS', 0, 1_000_000),
        deliveryDeadlineMs: intIn('FORK_WAIT_MS', 1_000, 86_400_000),
        deliveryLoads: intIn('FORK_LOADS', 1, 1_000),
      })
      .optional(),
    streamRetention: intIn('STREAM_RETENTION', 1, 100_000_000),
    impersonate: z.array(z.string()),
    noMining: yesNo('NO_MINING'),
    mineEmptyBlocks: yesNo('MINE_EMPTY_BLOCKS'),
    finalityDelayMs: intIn('FINALITY_DELAY_MS', 0, 3_600_000),
  }),
};

function forkOf(pick: (flag: string, envName: string, dflt: string) => string) {
  const url = optional(pick('fork', 'FORK_URL', ''));
  if (url === undefined) return undefined;
  const apiKey = pick('fork-api-key', 'FORK_API_KEY', '');
  return {
    url: forkUrl(url),
    seqno: optional(pick('fork-block', 'FORK_BLOCK', '')),
    apiKey,
    // toncenter's own keyless limit is 1 request/s
    rps: pick('fork-rps', 'FORK_RPS', apiKey ? '0' : '1'),
    deliveryDeadlineMs: pick('fork-wait-ms', 'FORK_WAIT_MS', String(DEFAULT_DELIVERY_DEADLINE_MS)),
    deliveryLoads: pick('fork-loads', 'FORK_LOADS', String(DEFAULT_DELIVERY_LOADS)),
  };
}

/** IMPERSONATE's comma list as raw addresses; refused (one line) when no local chain runs to honour it. */
function impersonatedOf(list: string, refused: boolean): string[] {
  const items = list.split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (refused && items.length > 0) {
    throw new ConfigError('IMPERSONATE: only a local chain or a fork can skip signature checks, not upstream mode (BACKEND=localnet)');
  }
  return items.map((a) => {
    const parsed = parseAddressAny(a);
    if (!parsed) throw new ConfigError(`IMPERSONATE: not an address: '${a}'`);
    return parsed.address.toRawString();
  });
}
