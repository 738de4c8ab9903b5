/** Bench wallets (v4r2, keys from a fixed seed) and pre-signed transfers, so both sides run identical BoCs. */
import { Address, beginCell, external, internal, SendMode, storeMessage } from '@ton/core';
import { keyPairFromSeed, sha256_sync, type KeyPair } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';

export interface BenchWallet {
  key: KeyPair;
  contract: WalletContractV4;
  address: string;
}

export function benchWallets(n: number, seed = 'bench'): BenchWallet[] {
  return Array.from({ length: n }, (_, i) => {
    const key = keyPairFromSeed(sha256_sync(`${seed}/${i}`));
    const contract = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    return { key, contract, address: contract.address.toRawString() };
  });
}

/** Where every transfer goes: an uninitialised account, so each transfer is two transactions on both sides. */
export const SINK = Address.parse(`0:${'5'.repeat(64)}`);

/** One signed external transfer of 0.01 TON as a base64 BoC; seqno 0 carries the wallet's StateInit. */
export function signedTransfer(w: BenchWallet, seqno: number, validUntil: number): string {
  const body = w.contract.createTransfer({
    seqno,
    secretKey: w.key.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    messages: [internal({ to: SINK, value: 10_000_000n, bounce: false })],
    timeout: validUntil,
  });
  const msg = external({ to: w.contract.address, init: seqno === 0 ? w.contract.init : undefined, body });
  return beginCell().store(storeMessage(msg)).endCell().toBoc().toString('base64');
}

/**
 * Transfers for seqnos [from, from + perWallet), interleaved across wallets: consecutive messages of one wallet
 * lie `wallets.length` apart, so with fewer connections than wallets they cannot arrive out of seqno order.
 */
export function transferBatch(wallets: BenchWallet[], from: number, perWallet: number, validUntil: number): string[] {
  const out: string[] = [];
  for (let s = from; s < from + perWallet; s++) for (const w of wallets) out.push(signedTransfer(w, s, validUntil));
  return out;
}
