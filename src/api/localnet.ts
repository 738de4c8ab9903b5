/** Control surface that exists only on the embedded local chain: genesis wallets and a faucet. */
import type { Address } from '@ton/core';

export interface GenesisWallet {
  name: string;
  /** raw form "0:abc…" */
  address: string;
  version: 'v4r2' | 'v5r1';
  mnemonic: string[];
  /** nanotons, decimal string */
  balance: string;
}

export interface LocalnetControl {
  wallets(): GenesisWallet[] | Promise<GenesisWallet[]>;
  faucet(address: Address, amount: bigint): Promise<{ hash: string }>;
}
