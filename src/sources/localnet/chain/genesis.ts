/**
 * Genesis: four standard wallets whose mnemonics follow from the seed, funded by the faucet, deployed by
 * their own signed external transfers, plus a few transfers between them (one with a text comment). Then
 * tokens, all through alice's and bob's signed transfers: a jetton (LGC) minted to alice and bob, moved to carol
 * and partly burnt, and an NFT collection whose item 0 alice passes to dave; then bob lists item 1 on a fixed-price
 * sale and carol item 2 on an auction (alice is the marketplace), on which dave bids.
 * Then a .ton DNS auction (genesis-dns.ts) and the local validator's stake with the elector (genesis-elector.ts).
 * Everything runs at fixed times from GENESIS_TIME, so the same seed gives the same hashes on every start.
 */
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { beginCell, contractAddress, external, internal, SendMode, storeMessage, type Address, type Cell, type MessageRelaxed } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate, mnemonicWordList, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { GenesisWallet, LocalnetTokens } from '../../../api/localnet.js';
import { rawLower } from '../../../model/address.js';
import { GENESIS_TIME, type Chain } from './chain.js';
import { runDnsGenesis } from './genesis-dns.js';
import { runElectorGenesis } from './genesis-elector.js';
import { runPoolGenesis } from './genesis-pool.js';
import {
  commentPayload,
  jettonBurnBody,
  jettonMinterInit,
  jettonTransferBody,
  jettonWalletAddress,
  mintBody,
  nftCollectionInit,
  nftDeployBody,
  nftItemAddress,
  nftAuctionInit,
  nftFixpriceSaleInit,
  nftTransferBody,
  onchainContent,
} from './contracts/index.js';

export interface KeyedWallet extends WalletKeys {
  contract: WalletContractV4 | WalletContractV5R1;
}

const SPECS: { name: string; version: GenesisWallet['version'] }[] = [
  { name: 'alice', version: 'v4r2' },
  { name: 'bob', version: 'v4r2' },
  { name: 'carol', version: 'v5r1' },
  { name: 'dave', version: 'v5r1' },
];

const TON = 1_000_000_000n;
const FUNDING = 10_000n * TON;

/** tonlib's is_basic_seed on node's native pbkdf2: a cheap filter before the library's own check. */
function looksBasic(words: string[]): boolean {
  const entropy = createHmac('sha512', words.join(' ')).update('').digest();
  return pbkdf2Sync(entropy, 'TON seed version', Math.floor(100_000 / 256), 64, 'sha512')[0] === 0;
}

/**
 * A 24-word TON mnemonic from the seed: word i of attempt n is uint16 i of sha512("ton-localnet/mnemonic" | seed |
 * wallet | n) modulo 2048; the first attempt that mnemonicValidate accepts wins.
 */
export async function deriveMnemonic(seed: string, wallet: number): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const h = createHash('sha512').update(`ton-localnet/mnemonic|${seed}|${wallet}|${attempt}`).digest();
    const words = Array.from({ length: 24 }, (_, i) => mnemonicWordList[h.readUInt16BE(2 * i) % mnemonicWordList.length]!);
    if (looksBasic(words) && (await mnemonicValidate(words))) return words;
  }
}

export interface WalletKeys {
  name: string;
  version: GenesisWallet['version'];
  mnemonic: string[];
  keyPair: KeyPair;
}

/**
 * The keys derived in this process, by seed (a seed always gives the same keys): a process that starts several
 * chains from one seed (tests, the fork and restart tools) derives them once. A few seeds at most are kept.
 */
const derivedKeys = new Map<string, Promise<WalletKeys[]>>();
const DERIVED_SEEDS_KEPT = 8;

/** Mnemonics and keys of the genesis wallets; independent of the chain, so it can run while sandbox starts. */
export async function deriveWalletKeys(seed: string): Promise<WalletKeys[]> {
  let keys = derivedKeys.get(seed);
  if (!keys) {
    if (derivedKeys.size >= DERIVED_SEEDS_KEPT) derivedKeys.delete(derivedKeys.keys().next().value!);
    keys = Promise.all(
      SPECS.map(async (spec, i) => {
        const mnemonic = await deriveMnemonic(seed, i);
        return { ...spec, mnemonic, keyPair: await mnemonicToPrivateKey(mnemonic) };
      }),
    );
    derivedKeys.set(seed, keys);
    keys.catch(() => derivedKeys.delete(seed));
  }
  // each caller gets its own arrays and buffers, so no chain can change another's keys
  return (await keys).map((k) => ({ ...k, mnemonic: [...k.mnemonic], keyPair: { publicKey: Buffer.from(k.keyPair.publicKey), secretKey: Buffer.from(k.keyPair.secretKey) } }));
}

/** The genesis wallets' keys as a chain's database keeps them (they follow from the seed; deriving them is slow). */
export interface StoredKeys {
  seed: string;
  wallets: { mnemonic: string[]; publicKey: string; secretKey: string }[];
}

export function toStoredKeys(seed: string, keys: WalletKeys[]): StoredKeys {
  return { seed, wallets: keys.map((k) => ({ mnemonic: k.mnemonic, publicKey: k.keyPair.publicKey.toString('hex'), secretKey: k.keyPair.secretKey.toString('hex') })) };
}

/** The keys back; anything not matching today's wallet list is derived again. */
export function fromStoredKeys(stored: StoredKeys): Promise<WalletKeys[]> {
  if (stored.wallets.length !== SPECS.length) return deriveWalletKeys(stored.seed);
  return Promise.resolve(
    SPECS.map((spec, i) => {
      const w = stored.wallets[i]!;
      return { ...spec, mnemonic: w.mnemonic, keyPair: { publicKey: Buffer.from(w.publicKey, 'hex'), secretKey: Buffer.from(w.secretKey, 'hex') } };
    }),
  );
}

/** The wallet contracts; v5r1 ids carry the chain's global id (config param 19). */
export function genesisWallets(keys: WalletKeys[], globalId: number): KeyedWallet[] {
  return keys.map((k) => ({
    ...k,
    contract:
      k.version === 'v4r2'
        ? WalletContractV4.create({ workchain: 0, publicKey: k.keyPair.publicKey })
        : WalletContractV5R1.create({ publicKey: k.keyPair.publicKey, walletId: { networkGlobalId: globalId } }),
  }));
}

/** A signed external transfer from `w`, with its StateInit on the first (seqno 0) message. */
export function signedTransfer(w: Pick<KeyedWallet, 'keyPair' | 'contract'>, seqno: number, messages: MessageRelaxed[], validUntil: number): Cell {
  const args = {
    seqno,
    secretKey: w.keyPair.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    timeout: validUntil,
  };
  const body = w.contract instanceof WalletContractV4 ? w.contract.createTransfer(args) : w.contract.createTransfer(args);
  const init = seqno === 0 ? w.contract.init : undefined;
  return beginCell().store(storeMessage(external({ to: w.contract.address, init, body }))).endCell();
}

const LGC = 1_000_000_000n;

/** The genesis jetton (TEP-64 on-chain content) and the amounts genesis moves. */
export const GENESIS_JETTON = {
  name: 'Local Gateway Coin',
  symbol: 'LGC',
  decimals: 9,
  description: 'The jetton minted at the genesis of the local chain',
  mintedToAlice: 1_000_000n * LGC,
  mintedToBob: 250_000n * LGC,
  aliceToCarol: 1_500n * LGC,
  burntByBob: 10_000n * LGC,
  transferComment: 'LGC for carol',
} as const;

/** The genesis NFT collection: items 0, 1, 2 minted to alice, bob and carol; alice then gives item 0 to dave. */
export const GENESIS_NFT = {
  name: 'Local Gateway Art',
  description: 'Pictures minted at the genesis of the local chain',
  royalty: { numerator: 50, denominator: 1000 },
  itemOwners: ['alice', 'bob', 'carol'],
  transferComment: 'art for dave',
} as const;

/**
 * The genesis listings, alice being the marketplace: bob's item 1 on a fixed-price sale (fee and royalty 5% each,
 * both to alice), carol's item 2 on an auction that ends ten years after genesis (so it is open on any chain
 * started since), with dave's bid on it.
 */
export const GENESIS_SALES = {
  sale: { item: 1, fullPrice: 5n * TON, fee: TON / 4n, royalty: TON / 4n },
  auction: { item: 2, endTime: GENESIS_TIME + 10 * 365 * 86_400, minBid: TON, maxBid: 100n * TON, minStep: TON / 2n, feeFactor: 5, feeBase: 100 },
  /** dave's bid on the auction; the contract keeps 0.05 TON of a bid's value for the winner's item transfer */
  daveBid: 2n * TON,
  bidGas: TON / 20n,
} as const;

export interface GenesisTokens {
  jettonMaster: Address;
  /** by genesis wallet name: the wallets genesis gives LGC (alice, bob, carol) */
  jettonWallets: { name: string; owner: Address; address: Address }[];
  nftCollection: Address;
  /** by index */
  nftItems: Address[];
  /** the fixed-price sale holding item 1, and the auction holding item 2 */
  nftSale: Address;
  nftAuction: Address;
}

function jettonInit(alice: KeyedWallet) {
  const { name, symbol, decimals, description } = GENESIS_JETTON;
  return jettonMinterInit({ admin: alice.contract.address, content: onchainContent({ name, symbol, decimals: String(decimals), description }) });
}

function collectionInit(alice: KeyedWallet) {
  return nftCollectionInit({
    owner: alice.contract.address,
    collectionContent: onchainContent({ name: GENESIS_NFT.name, description: GENESIS_NFT.description }),
    commonContent: '',
    royalty: { ...GENESIS_NFT.royalty, destination: alice.contract.address },
  });
}

function itemContent(index: number) {
  return onchainContent({ name: `${GENESIS_NFT.name} #${index}`, description: `Item ${index} of ${GENESIS_NFT.name}` });
}

function saleInit(wallets: readonly KeyedWallet[], items: Address[]) {
  const [alice, bob] = wallets as [KeyedWallet, KeyedWallet];
  const s = GENESIS_SALES.sale;
  return nftFixpriceSaleInit({
    marketplace: alice.contract.address,
    nft: items[s.item]!,
    owner: bob.contract.address,
    fullPrice: s.fullPrice,
    fee: { address: alice.contract.address, amount: s.fee },
    royalty: { address: alice.contract.address, amount: s.royalty },
  });
}

function auctionInit(wallets: readonly KeyedWallet[], items: Address[]) {
  const [alice, , carol] = wallets as [KeyedWallet, KeyedWallet, KeyedWallet];
  const a = GENESIS_SALES.auction;
  return nftAuctionInit({
    marketplace: alice.contract.address,
    nft: items[a.item]!,
    owner: carol.contract.address,
    endTime: a.endTime,
    minBid: a.minBid,
    maxBid: a.maxBid,
    minStep: a.minStep,
    marketplaceFee: { address: alice.contract.address, factor: a.feeFactor, base: a.feeBase },
    royalty: { address: alice.contract.address, factor: GENESIS_NFT.royalty.numerator, base: GENESIS_NFT.royalty.denominator },
  });
}

/** The addresses of the genesis token contracts; they follow from the wallets, so from the seed. */
export function genesisTokens(wallets: readonly KeyedWallet[]): GenesisTokens {
  const [alice] = wallets as [KeyedWallet];
  const jettonMaster = contractAddress(0, jettonInit(alice));
  const nftCollection = contractAddress(0, collectionInit(alice));
  const nftItems = GENESIS_NFT.itemOwners.map((_, i) => nftItemAddress(nftCollection, BigInt(i)));
  return {
    jettonMaster,
    jettonWallets: wallets.slice(0, 3).map((w) => ({ name: w.name, owner: w.contract.address, address: jettonWalletAddress(w.contract.address, jettonMaster) })),
    nftCollection,
    nftItems,
    nftSale: contractAddress(0, saleInit(wallets, nftItems)),
    nftAuction: contractAddress(0, auctionInit(wallets, nftItems)),
  };
}

/** What GET /localnet/tokens answers: the genesis token contracts, addresses in raw form. */
export function describeGenesisTokens(wallets: readonly KeyedWallet[]): LocalnetTokens {
  const t = genesisTokens(wallets);
  return {
    jetton: {
      master: rawLower(t.jettonMaster),
      name: GENESIS_JETTON.name,
      symbol: GENESIS_JETTON.symbol,
      decimals: GENESIS_JETTON.decimals,
      wallets: t.jettonWallets.map((w) => ({ owner: w.name, owner_address: rawLower(w.owner), address: rawLower(w.address) })),
    },
    nft_collection: {
      address: rawLower(t.nftCollection),
      name: GENESIS_NFT.name,
      items: t.nftItems.map((a, index) => ({ index, address: rawLower(a) })),
    },
    nft_sales: [
      { type: 'fixed_price', address: rawLower(t.nftSale), item_index: GENESIS_SALES.sale.item, seller: 'bob' },
      { type: 'auction', address: rawLower(t.nftAuction), item_index: GENESIS_SALES.auction.item, seller: 'carol' },
    ],
  };
}

/** Runs the genesis history on a chain that holds only its zerostate, sealing one block per step. */
export async function runGenesis(chain: Chain, wallets: KeyedWallet[]): Promise<void> {
  const at = (step: number) => GENESIS_TIME + 5 * step;
  const [alice, bob, carol, dave] = wallets as [KeyedWallet, KeyedWallet, KeyedWallet, KeyedWallet];
  // each block first yields to the event loop, so the server can answer (503) while genesis runs
  const block = async (step: number, messages: () => Cell[]) => {
    await new Promise((resolve) => setImmediate(resolve));
    return chain.enqueue(async () => {
      chain.setOpenUtime(at(step));
      for (const m of messages()) await chain.execute(m);
      chain.seal();
    });
  };

  // 1: the faucet funds every wallet (each still uninitialised)
  for (const w of wallets) {
    chain.setOpenUtime(at(1));
    await chain.faucet(w.contract.address, FUNDING, { seal: false });
  }
  await chain.enqueue(() => chain.seal());

  // 2: each wallet deploys itself with its first signed transfer; non-bounceable, as the next one is not deployed yet
  const pay = (to: KeyedWallet, tons: bigint, body?: string) =>
    internal({ to: to.contract.address, value: tons, bounce: false, ...(body !== undefined ? { body } : {}) });
  await block(2, () => [
    signedTransfer(alice, 0, [pay(bob, 5n * TON, 'Welcome to the local chain')], at(2) + 60),
    signedTransfer(bob, 0, [pay(carol, 2n * TON)], at(2) + 60),
    signedTransfer(carol, 0, [pay(dave, 3n * TON)], at(2) + 60),
    signedTransfer(dave, 0, [pay(alice, 1_500_000_000n)], at(2) + 60),
  ]);

  // 3: a second round between deployed wallets, bounceable now
  await block(3, () => [
    signedTransfer(alice, 1, [internal({ to: carol.contract.address, value: TON / 4n, bounce: true })], at(3) + 60),
    signedTransfer(carol, 1, [internal({ to: bob.contract.address, value: TON, bounce: true, body: 'thanks, bob' })], at(3) + 60),
  ]);

  const tokens = genesisTokens(wallets);
  const J = GENESIS_JETTON;
  const walletOf = (w: KeyedWallet) => jettonWalletAddress(w.contract.address, tokens.jettonMaster);

  // 4: alice deploys the jetton minter as its admin and mints to herself and to bob
  const mint = (to: KeyedWallet, jettonAmount: bigint, init?: ReturnType<typeof jettonInit>) =>
    internal({
      to: tokens.jettonMaster,
      value: TON / 4n,
      bounce: init === undefined,
      ...(init ? { init } : {}),
      body: mintBody({ to: to.contract.address, tonAmount: TON / 10n, jettonAmount, responseAddress: alice.contract.address }),
    });
  await block(4, () => [signedTransfer(alice, 2, [mint(alice, J.mintedToAlice, jettonInit(alice)), mint(bob, J.mintedToBob)], at(4) + 60)]);

  // 5: alice sends LGC to carol with a forwarded comment (carol gets a transfer_notification); bob burns some
  await block(5, () => [
    signedTransfer(
      alice,
      3,
      [
        internal({
          to: walletOf(alice),
          value: TON / 5n,
          bounce: true,
          body: jettonTransferBody({
            queryId: 1n,
            amount: J.aliceToCarol,
            destination: carol.contract.address,
            responseDestination: alice.contract.address,
            forwardTonAmount: TON / 100n,
            forwardPayload: commentPayload(J.transferComment),
          }),
        }),
      ],
      at(5) + 60,
    ),
    signedTransfer(
      bob,
      1,
      [internal({ to: walletOf(bob), value: TON / 5n, bounce: true, body: jettonBurnBody({ queryId: 2n, amount: J.burntByBob, responseDestination: bob.contract.address }) })],
      at(5) + 60,
    ),
  ]);

  // 6: alice deploys the NFT collection with item 0 for herself, then items 1 and 2 for bob and carol
  const owners = [alice, bob, carol];
  const deploy = (index: number, init?: ReturnType<typeof collectionInit>) =>
    internal({
      to: tokens.nftCollection,
      value: TON / 5n,
      bounce: init === undefined,
      ...(init ? { init } : {}),
      body: nftDeployBody({ queryId: BigInt(index), index: BigInt(index), amount: TON / 20n, owner: owners[index]!.contract.address, content: itemContent(index) }),
    });
  await block(6, () => [signedTransfer(alice, 4, [deploy(0, collectionInit(alice)), deploy(1), deploy(2)], at(6) + 60)]);

  // 7: alice gives item 0 to dave, with a forward amount so dave gets ownership_assigned
  await block(7, () => [
    signedTransfer(
      alice,
      5,
      [
        internal({
          to: tokens.nftItems[0]!,
          value: TON / 10n,
          bounce: true,
          body: nftTransferBody({
            queryId: 3n,
            newOwner: dave.contract.address,
            responseDestination: alice.contract.address,
            forwardAmount: TON / 100n,
            forwardPayload: commentPayload(GENESIS_NFT.transferComment),
          }),
        }),
      ],
      at(7) + 60,
    ),
  ]);

  // 8: bob and carol each deploy a listing contract and transfer their item to it with a forward amount: the item's
  // ownership_assigned lists it (bob's item 1 at a fixed price, carol's item 2 at auction)
  const list = (seller: KeyedWallet, contract: Address, init: ReturnType<typeof saleInit>, item: number, queryId: bigint) => [
    internal({ to: contract, value: TON / 10n, bounce: false, init }),
    internal({
      to: tokens.nftItems[item]!,
      value: TON / 10n,
      bounce: true,
      body: nftTransferBody({ queryId, newOwner: contract, responseDestination: seller.contract.address, forwardAmount: TON / 50n }),
    }),
  ];
  await block(8, () => [
    signedTransfer(bob, 2, list(bob, tokens.nftSale, saleInit(wallets, tokens.nftItems), GENESIS_SALES.sale.item, 4n), at(8) + 60),
    signedTransfer(carol, 2, list(carol, tokens.nftAuction, auctionInit(wallets, tokens.nftItems), GENESIS_SALES.auction.item, 5n), at(8) + 60),
  ]);

  // 9: dave bids on carol's auction with a plain transfer
  await block(9, () => [
    signedTransfer(dave, 1, [internal({ to: tokens.nftAuction, value: GENESIS_SALES.daveBid + GENESIS_SALES.bidGas, bounce: true })], at(9) + 60),
  ]);

  // 10, 11: a .ton-style DNS auction (genesis-dns.ts)
  await runDnsGenesis(block, at, signedTransfer, [10, 11], { wallet: alice, seqno: 6 }, { wallet: bob, seqno: 3 });

  // 12, 13: the local validator's wallet stakes for the open election and recovers its credit (genesis-elector.ts)
  await runElectorGenesis(chain, block, at, signedTransfer, [12, 13]);
  // 14 to 17: the validator's nominator pool, carol and dave its nominators (genesis-pool.ts)
  await runPoolGenesis(chain, block, at, signedTransfer, 14, 2, { wallet: carol, seqno: 3 }, { wallet: dave, seqno: 2 });
}
