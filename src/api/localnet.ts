/** Control surface that exists only on the embedded local chain: genesis wallets and tokens, and a faucet. */
import type { Address, Cell, StateInit } from '@ton/core';

export interface GenesisWallet {
  name: string;
  /** raw form "0:abc…" */
  address: string;
  version: 'v4r2' | 'v5r1';
  mnemonic: string[];
  /** nanotons, decimal string */
  balance: string;
}

/** The token contracts genesis deploys; addresses in raw form "0:abc…". */
export interface LocalnetTokens {
  jetton: {
    master: string;
    name: string;
    symbol: string;
    decimals: number;
    /** the jetton wallets genesis mints or transfers to, by the genesis wallet owning them */
    wallets: { owner: string; owner_address: string; address: string }[];
  };
  nft_collection: {
    address: string;
    name: string;
    /** items as minted; current owners are on chain (getTokenData) */
    items: { index: number; address: string }[];
  };
}

/** An internal message delivered as if `from` had sent it (POST /localnet/impersonate). */
export interface Impersonation {
  from: Address;
  to: Address;
  /** nanotons the message carries, created locally as the faucet's are */
  value: bigint;
  bounce: boolean;
  body?: Cell;
  stateInit?: StateInit;
}

export interface LocalnetControl {
  wallets(): GenesisWallet[] | Promise<GenesisWallet[]>;
  tokens(): LocalnetTokens | Promise<LocalnetTokens>;
  faucet(address: Address, amount: bigint): Promise<{ hash: string }>;
  /** Runs the message and its cascade; the hashes (base64) of the transactions, the receiver's first. */
  impersonate(m: Impersonation): Promise<{ hash: string; transactions: string[] }>;
}
