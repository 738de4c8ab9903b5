/**
 * The local validator's masterchain wallet: the stake holder of its elections (it sends new_stake and
 * recover_stake to the elector, genesis-elector.ts) and the validator of the genesis nominator pool (genesis-pool.ts). Its key follows from the seed, as the validator's own
 * block-signing key does (`ton-localnet/validator/<seed>`), but is another key, as on the real network.
 */
import { createHash } from 'node:crypto';
import { keyPairFromSeed, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';

export function validatorWalletKeys(seed: string): KeyPair {
  return keyPairFromSeed(createHash('sha256').update(`ton-localnet/validator-wallet/${seed}`).digest());
}

/** A v4r2 wallet in the masterchain (workchain -1); v4 wallet ids do not carry the global id, so it is unused here. */
export function validatorWallet(seed: string, globalId: number): WalletContractV4 {
  void globalId;
  return WalletContractV4.create({ workchain: -1, publicKey: validatorWalletKeys(seed).publicKey });
}
