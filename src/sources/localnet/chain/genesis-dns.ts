/**
 * Genesis, the .ton-style DNS part: alice deploys a DNS collection and opens the auction of "gateway" with the
 * first bid; bob outbids her (alice gets her bid back). The auction runs for GENESIS_DNS.auctionDuration, so it
 * is still open long after genesis and /dns/activeAuctions?bidder=<bob>&state=bidding lists it.
 */
import { contractAddress, internal, type Address, type Cell } from '@ton/core';
import { commentPayload, dnsAuctionStartBody, dnsCollectionInit, dnsItemAddress, onchainContent } from './contracts/index.js';
import type { KeyedWallet } from './genesis.js';

const TON = 1_000_000_000n;

export const GENESIS_DNS = {
  name: 'Local Gateway DNS',
  domain: 'gateway',
  /** ten years: the genesis auction ends in 2035 (before 2038, so its times fit the graph's 32-bit Int) */
  auctionDuration: 10 * 365 * 86_400,
  firstBid: 2n * TON,
  outbid: 3n * TON,
} as const;

function collectionInit() {
  return dnsCollectionInit({ content: onchainContent({ name: GENESIS_DNS.name }), auctionDuration: GENESIS_DNS.auctionDuration });
}

export function genesisDns(): { collection: Address; item: Address } {
  const collection = contractAddress(0, collectionInit());
  return { collection, item: dnsItemAddress(collection, GENESIS_DNS.domain) };
}

type Block = (step: number, messages: () => Cell[]) => Promise<unknown>;
type Signed = (w: KeyedWallet, seqno: number, messages: ReturnType<typeof internal>[], validUntil: number) => Cell;

/** Two blocks at `steps[0]` and `steps[1]`; alice's and bob's next seqnos are passed in. */
export async function runDnsGenesis(
  block: Block,
  at: (step: number) => number,
  sign: Signed,
  steps: [number, number],
  alice: { wallet: KeyedWallet; seqno: number },
  bob: { wallet: KeyedWallet; seqno: number },
): Promise<void> {
  const { collection, item } = genesisDns();
  const [open, outbid] = steps;
  await block(open, () => [
    sign(
      alice.wallet,
      alice.seqno,
      [internal({ to: collection, value: GENESIS_DNS.firstBid, bounce: false, init: collectionInit(), body: dnsAuctionStartBody(GENESIS_DNS.domain) })],
      at(open) + 60,
    ),
  ]);
  await block(outbid, () => [sign(bob.wallet, bob.seqno, [internal({ to: item, value: GENESIS_DNS.outbid, bounce: true, body: commentPayload('') })], at(outbid) + 60)]);
}
