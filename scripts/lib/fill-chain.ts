/**
 * Grows a local chain to about `target` transactions the way the storage scripts measure it (restart-time.ts,
 * scale-reads.ts): per round 90 concurrent faucet credits to 500 random addresses (they share fsyncs) and 10
 * signed transfers from the first genesis wallet, then a sealed block. Returns the sends made.
 */
import { randomBytes } from 'node:crypto';
import { Address, internal } from '@ton/core';
import { signedTransfer } from '../../src/sources/localnet/chain/genesis.js';
import type { LocalChain } from '../../src/sources/localnet/index.js';

/** Sealed and pending transactions of the chain. */
export const txCount = (chain: LocalChain): number => chain.store.sealedTransactions().length + chain.store.pending.length;

export async function fillChain(chain: LocalChain, target: number): Promise<number> {
  const alice = chain.keyedWallets()[0]!;
  const addresses = Array.from({ length: 500 }, () => new Address(0, randomBytes(32)));
  let seqno = (await chain.v2.getWalletInformation({ address: alice.contract.address })).seqno!;
  let sends = 0;
  while (txCount(chain) < target) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < 90; i++) batch.push(chain.faucet(addresses[(sends + i) % addresses.length]!, 1_000_000_000n));
    for (let i = 0; i < 10; i++) {
      const to = addresses[(sends + i * 7) % addresses.length]!;
      const boc = signedTransfer(alice, seqno++, [internal({ to, value: 10_000_000n, bounce: false })], Math.floor(Date.now() / 1000) + 600).toBoc();
      batch.push(chain.v2.sendBoc({ boc }));
    }
    await Promise.all(batch);
    await chain.sealBlock();
    sends += 100;
  }
  return sends;
}
