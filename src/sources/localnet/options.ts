/** The local chain's options: block interval, genesis seed, global id and data directory. */
import { z } from 'zod';
import { intIn, optional, stringFlags, type OptionFragment } from '../../api/options.js';
import { NETWORK_GLOBAL_IDS } from '../../model/network.js';

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
}

export const localnetOptions: OptionFragment<LocalnetOptions> = {
  flags: stringFlags('block-interval', 'seed', 'global-id', 'data-dir', 'emulate-timeout-ms'),
  title: 'local chain',
  usage: `  --block-interval MS      local chain: ms between blocks, 0 = a block per message (env BLOCK_INTERVAL, default 1000)
  --seed TEXT              local chain: genesis seed (env SEED, default "ton-graphql-gateway")
  --global-id=N            local chain: its global id, config param 19, which v5r1 wallet ids include
                           (env GLOBAL_ID, default by NETWORK: -3 testnet, -239 mainnet)
  --data-dir DIR           local chain: keep blocks, transactions and states in DIR and continue from them
                           on restart (env DATA_DIR; default: in memory)
  --emulate-timeout-ms MS  local chain: budget of one /api/emulate/v1 emulation, past it a 500 (env EMULATE_TIMEOUT_MS,
                           default 3000, toncenter's)
`,
  read: ({ pick, network }) => ({
    blockInterval: pick('block-interval', 'BLOCK_INTERVAL', '1000'),
    seed: pick('seed', 'SEED', 'ton-graphql-gateway'),
    globalId: pick('global-id', 'GLOBAL_ID', String(NETWORK_GLOBAL_IDS[network])),
    dataDir: optional(pick('data-dir', 'DATA_DIR', '')),
    emulateTimeoutMs: pick('emulate-timeout-ms', 'EMULATE_TIMEOUT_MS', '3000'),
  }),
  schema: z.object({
    blockInterval: intIn('BLOCK_INTERVAL', 0, 3_600_000),
    seed: z.string().min(1, { error: 'SEED must not be empty' }),
    globalId: intIn('GLOBAL_ID', -(2 ** 31), 2 ** 31 - 1),
    dataDir: z.string().min(1, { error: 'DATA_DIR must not be empty' }).optional(),
    emulateTimeoutMs: intIn('EMULATE_TIMEOUT_MS', 100, 600_000),
  }),
};
