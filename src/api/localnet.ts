/** Control surface that exists only on the embedded local chain: genesis wallets and tokens, and a faucet. */
import type { Address, Cell, StateInit } from '@ton/core';
import type { FullAccountState } from './v2/accounts.js';
import type { DeepReadonly } from './shared-answers.js';

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
  /** the listings genesis makes: a collection item on a fixed-price sale and one on an auction, by their sellers */
  nft_sales: { type: 'fixed_price' | 'auction'; address: string; item_index: number; seller: string }[];
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

/** Where an account's state came from: fetched from a fork's network and not changed since, or made locally. */
export type AccountOrigin = 'FORK' | 'LOCAL';

export interface LocalnetControl {
  wallets(): GenesisWallet[] | Promise<GenesisWallet[]>;
  tokens(): LocalnetTokens | Promise<LocalnetTokens>;
  faucet(address: Address, amount: bigint): Promise<{ hash: string }>;
  /** Runs the message and its cascade; the hashes (base64) of the transactions, the receiver's first. */
  impersonate(m: Impersonation): Promise<{ hash: string; transactions: string[] }>;
  /** Runs an external message to a wallet without that wallet's signature check, and its cascade. */
  impersonateExternal(message: Cell): Promise<{ hash: string; transactions: string[] }>;
  /** the masterchain seqno the chain forked at; null when it is not a fork */
  forkBlock(): number | null;
  /** FORK while the account's state is the one read at the fork block (no local transaction yet); LOCAL otherwise */
  accountOrigin(address: Address): AccountOrigin;
  /** the account as the fork's network holds it now; null when the chain is not a fork */
  upstreamState(address: Address): Promise<DeepReadonly<FullAccountState> | null>;
}
