/** The public TON networks, by the names toncenter and the config use. */
export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

/** Each public TON network's global id: config param 19, block headers' global_id, the network id in v5r1 wallet ids. */
export const NETWORK_GLOBAL_IDS = { mainnet: -239, testnet: -3 } as const;
