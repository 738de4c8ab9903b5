/**
 * The local validator's masterchain wallet: a v4r2 wallet in workchain -1 whose key follows from the chain's seed.
 * It is the validator of the genesis nominator pool (genesis-pool.ts) and the one that would stake at the elector.
 */
import { keyPairFromSeed, sha256_sync, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';

/** keyPairFromSeed(sha256("ton-localnet/validator-wallet/" + seed)) */
export function validatorWalletKeys(seed: string): KeyPair {
  return keyPairFromSeed(sha256_sync(`ton-localnet/validator-wallet/${seed}`));
}

/**
 * The validator's wallet contract. A v4r2 wallet id is 698983191 + workchain and does not carry the chain's
 * global id; the parameter keeps the signature the genesis modules share.
 */
export function validatorWallet(seed: string, globalId: number): WalletContractV4 {
  void globalId;
  return WalletContractV4.create({ workchain: -1, publicKey: validatorWalletKeys(seed).publicKey });
}
