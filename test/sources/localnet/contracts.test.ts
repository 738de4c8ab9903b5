/**
 * The token contracts on a bare sandbox: TEP-74 jetton (mint, transfer with notification and excesses, burn,
 * bounces, TEP-89 discovery), TEP-62/66 NFT (deploy, transfer, static data, royalties), the fixed-price sale and
 * the auction (listing, buy, bids, finish, cancel, with sandbox time moved past the end), @ton/ton's jetton
 * wrappers against them, the nominator pool (deposits, withdrawals, a stake at a stand-in elector and its reward shared),
 * the elector (stakes, reason codes, get-methods), and the committed artifact against a fresh compilation of the sources.
 */
import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, contractAddress, Dictionary, type Message, type StateInit, type TupleItem } from '@ton/core';
import { Blockchain, createShardAccount, defaultConfig, type BlockchainTransaction, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { JettonMaster, JettonWallet } from '@ton/ton';
import { keyPairFromSeed, sha256_sync } from '@ton/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, compileContracts, renderArtifact } from '../../../scripts/build-contracts.js';
import {
  commentPayload,
  dnsAuctionStartBody,
  dnsCollectionInit,
  dnsItemAddress,
  getRoyaltyParamsBody,
  getStaticDataBody,
  jettonBurnBody,
  jettonMinterCode,
  jettonMinterInit,
  jettonTransferBody,
  jettonWalletAddress,
  jettonWalletCode,
  jettonWalletData,
  MarketOp,
  marketOpBody,
  mintBody,
  nftAuctionInit,
  nftFixpriceSaleInit,
  nftCollectionInit,
  nftDeployBody,
  nftItemAddress,
  nftSuffixContent,
  nftTransferBody,
  nominatorPoolInit,
  offchainContent,
  onchainContent,
  Op,
  PoolOp,
  poolValidatorBody,
  provideWalletAddressBody,
} from '../../../src/sources/localnet/chain/contracts/index.js';
import { messageCells } from '../../../src/model/message.js';
import { electorGenesisState, GENESIS_ELECTOR, newStakeBody, recoverStakeBody, withLocalValidator } from '../../../src/sources/localnet/chain/genesis-elector.js';
import { validatorWallet } from '../../../src/sources/localnet/chain/genesis-validator.js';
import { parseTokenContent } from '../../../src/model/tlb/token-content.js';

const TON = 1_000_000_000n;

/** The op-code of a transaction's inbound message body, or undefined. */
function opOf(m: Message | undefined): number | undefined {
  const s = m?.body.beginParse();
  return s && s.remainingBits >= 32 ? s.preloadUint(32) : undefined;
}

async function send(from: SandboxContract<TreasuryContract>, args: Parameters<SandboxContract<TreasuryContract>['send']>[0]) {
  return track(await from.send(args));
}

function find(txs: BlockchainTransaction[], to: Address, op: number): BlockchainTransaction {
  const tx = txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(to) && opOf(t.inMessage) === op);
  if (!tx) throw new Error(`no transaction on ${to.toString()} with op 0x${op.toString(16)}`);
  return tx;
}

/** Every transaction the tests ran, for the message-layout check at the end. */
const seen: BlockchainTransaction[] = [];
function track<T extends { transactions: BlockchainTransaction[] }>(r: T): T {
  seen.push(...r.transactions);
  return r;
}

function succeeded(tx: BlockchainTransaction): boolean {
  const d = tx.description;
  return d.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.success && d.aborted === false;
}

describe('jetton contracts (TEP-74)', () => {
  let bc: Blockchain;
  let admin: SandboxContract<TreasuryContract>;
  let bob: SandboxContract<TreasuryContract>;
  let carol: SandboxContract<TreasuryContract>;
  let master: Address;
  const content = onchainContent({ name: 'Test Coin', symbol: 'TST', decimals: '9' });

  beforeAll(async () => {
    bc = await Blockchain.create();
    admin = await bc.treasury('admin');
    bob = await bc.treasury('bob');
    carol = await bc.treasury('carol');
    const init = jettonMinterInit({ admin: admin.address, content });
    master = (await import('@ton/core')).contractAddress(0, init);
    const r = await send(admin, {
      to: master,
      value: TON,
      init,
      body: mintBody({ to: admin.address, tonAmount: TON / 10n, jettonAmount: 1000n, responseAddress: admin.address }),
    });
    expect(succeeded(find(r.transactions, master, Op.mint))).toBe(true);
  });

  it('mints into a wallet at the address the master computes, seen through @ton/ton wrappers', async () => {
    const jm = bc.openContract(JettonMaster.create(master));
    const walletAddr = await jm.getWalletAddress(admin.address);
    expect(walletAddr.equals(jettonWalletAddress(admin.address, master))).toBe(true);
    const data = await jm.getJettonData();
    expect(data.totalSupply).toBe(1000n);
    expect(data.mintable).toBe(true);
    expect(data.adminAddress.equals(admin.address)).toBe(true);
    expect(data.content.equals(content)).toBe(true);
    expect(data.walletCode.equals(jettonWalletCode)).toBe(true);
    expect(await bc.openContract(JettonWallet.create(walletAddr)).getBalance()).toBe(1000n);
    expect(parseTokenContent(data.content)).toEqual({ type: 'onchain', data: { name: 'Test Coin', symbol: 'TST', decimals: '9' } });
  });

  it('get_wallet_data answers balance, owner, master and code', async () => {
    const r = await bc.runGetMethod(jettonWalletAddress(admin.address, master), 'get_wallet_data');
    const s = r.stackReader;
    expect(s.readBigNumber()).toBe(1000n);
    expect(s.readAddress().equals(admin.address)).toBe(true);
    expect(s.readAddress().equals(master)).toBe(true);
    expect(s.readCell().equals(jettonWalletCode)).toBe(true);
  });

  it('transfers with a transfer_notification carrying the forward payload, and sends excesses', async () => {
    const from = jettonWalletAddress(admin.address, master);
    const to = jettonWalletAddress(bob.address, master);
    const r = await send(admin, {
      to: from,
      value: TON / 2n,
      body: jettonTransferBody({
        queryId: 7n,
        amount: 300n,
        destination: bob.address,
        responseDestination: admin.address,
        forwardTonAmount: TON / 100n,
        forwardPayload: commentPayload('for bob'),
      }),
    });
    expect(succeeded(find(r.transactions, from, Op.transfer))).toBe(true);
    expect(succeeded(find(r.transactions, to, Op.internalTransfer))).toBe(true);

    const note = find(r.transactions, bob.address, Op.transferNotification).inMessage!;
    expect(note.info.type === 'internal' && note.info.value.coins).toBe(TON / 100n);
    const ns = note.body.beginParse();
    ns.skip(32);
    expect(ns.loadUintBig(64)).toBe(7n);
    expect(ns.loadCoins()).toBe(300n);
    expect(ns.loadAddress().equals(admin.address)).toBe(true);
    expect(ns.loadBit()).toBe(true);
    const payload = ns.loadRef().beginParse();
    expect(payload.loadUint(32)).toBe(0);
    expect(payload.loadStringTail()).toBe('for bob');

    const excess = find(r.transactions, admin.address, Op.excesses).inMessage!;
    expect(excess.body.beginParse().skip(32).loadUintBig(64)).toBe(7n);

    expect(await bc.openContract(JettonWallet.create(from)).getBalance()).toBe(700n);
    expect(await bc.openContract(JettonWallet.create(to)).getBalance()).toBe(300n);
  });

  it('refuses a transfer by anyone but the owner, and one larger than the balance', async () => {
    const bobWallet = jettonWalletAddress(bob.address, master);
    const r1 = await send(carol, { to: bobWallet, value: TON / 2n, body: jettonTransferBody({ amount: 1n, destination: carol.address }) });
    const t1 = find(r1.transactions, bobWallet, Op.transfer);
    expect(t1.description.type === 'generic' && t1.description.computePhase.type === 'vm' && t1.description.computePhase.exitCode).toBe(705);
    const r2 = await send(bob, { to: bobWallet, value: TON / 2n, body: jettonTransferBody({ amount: 301n, destination: carol.address }) });
    const t2 = find(r2.transactions, bobWallet, Op.transfer);
    expect(t2.description.type === 'generic' && t2.description.computePhase.type === 'vm' && t2.description.computePhase.exitCode).toBe(706);
    expect(await bc.openContract(JettonWallet.create(bobWallet)).getBalance()).toBe(300n);
  });

  it('burns: the balance and the total supply both decrease, excesses go to the response address', async () => {
    const bobWallet = jettonWalletAddress(bob.address, master);
    const r = await send(bob, { to: bobWallet, value: TON / 2n, body: jettonBurnBody({ queryId: 9n, amount: 100n, responseDestination: bob.address }) });
    expect(succeeded(find(r.transactions, master, Op.burnNotification))).toBe(true);
    find(r.transactions, bob.address, Op.excesses);
    expect(await bc.openContract(JettonWallet.create(bobWallet)).getBalance()).toBe(200n);
    expect((await bc.openContract(JettonMaster.create(master)).getJettonData()).totalSupply).toBe(900n);
  });

  it('answers provide_wallet_address with take_wallet_address (TEP-89)', async () => {
    const r = await send(carol, { to: master, value: TON / 10n, body: provideWalletAddressBody({ queryId: 3n, owner: bob.address, includeAddress: true }) });
    const reply = find(r.transactions, carol.address, Op.takeWalletAddress).inMessage!.body.beginParse();
    reply.skip(32);
    expect(reply.loadUintBig(64)).toBe(3n);
    expect(reply.loadAddress().equals(jettonWalletAddress(bob.address, master))).toBe(true);
    expect(reply.loadRef().beginParse().loadAddress().equals(bob.address)).toBe(true);
  });

  it('only the admin mints', async () => {
    const r = await send(carol, { to: master, value: TON, body: mintBody({ to: carol.address, tonAmount: TON / 10n, jettonAmount: 5n }) });
    const t = find(r.transactions, master, Op.mint);
    expect(t.description.type === 'generic' && t.description.computePhase.type === 'vm' && t.description.computePhase.exitCode).toBe(73);
    expect((await bc.openContract(JettonMaster.create(master)).getJettonData()).totalSupply).toBe(900n);
  });

  it('a bounced burn_notification gives the amount back', async () => {
    // a wallet whose master does not exist: the bounceable burn_notification comes back
    const ghostMaster = new Address(0, sha256_sync('no master here'));
    const wallet = jettonWalletAddress(bob.address, ghostMaster);
    await bc.setShardAccount(
      wallet,
      createShardAccount({ address: wallet, code: jettonWalletCode, data: jettonWalletData({ balance: 1000n, owner: bob.address, master: ghostMaster }), balance: TON }),
    );
    const r = await send(bob, { to: wallet, value: TON / 2n, body: jettonBurnBody({ amount: 400n, responseDestination: bob.address }) });
    const bounced = r.transactions.find((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced && t.inMessage.info.dest.equals(wallet));
    expect(bounced && succeeded(bounced)).toBe(true);
    expect(await bc.openContract(JettonWallet.create(wallet)).getBalance()).toBe(1000n);
  });

  it('a bounced internal_transfer gives the amount back', async () => {
    const aliceWallet = jettonWalletAddress(admin.address, master);
    const before = await bc.openContract(JettonWallet.create(aliceWallet)).getBalance();
    const original = beginCell().storeUint(Op.internalTransfer, 32).storeUint(1n, 64).storeCoins(50n).endCell();
    await bc.sendMessage({
      info: {
        type: 'internal',
        ihrDisabled: true,
        bounce: false,
        bounced: true,
        src: jettonWalletAddress(carol.address, master),
        dest: aliceWallet,
        value: { coins: TON / 10n },
        ihrFee: 0n,
        forwardFee: 0n,
        createdLt: 0n,
        createdAt: 0,
      },
      body: beginCell().storeUint(0xffffffff, 32).storeSlice(original.beginParse()).endCell(),
    });
    expect(await bc.openContract(JettonWallet.create(aliceWallet)).getBalance()).toBe(before + 50n);
  });
});

describe('NFT contracts (TEP-62, TEP-66)', () => {
  let bc: Blockchain;
  let owner: SandboxContract<TreasuryContract>;
  let bob: SandboxContract<TreasuryContract>;
  let collection: Address;
  const collectionContent = onchainContent({ name: 'Test Art', description: 'pictures' });

  beforeAll(async () => {
    bc = await Blockchain.create();
    owner = await bc.treasury('owner');
    bob = await bc.treasury('bob');
    const init = nftCollectionInit({
      owner: owner.address,
      collectionContent,
      commonContent: 'https://art.test/',
      royalty: { numerator: 50, denominator: 1000, destination: owner.address },
    });
    collection = (await import('@ton/core')).contractAddress(0, init);
    const r = await send(owner, {
      to: collection,
      value: TON,
      init,
      body: nftDeployBody({ index: 0n, amount: TON / 10n, owner: owner.address, content: onchainContent({ name: 'Art #0' }) }),
    });
    expect(succeeded(find(r.transactions, collection, Op.deployItem))).toBe(true);
    await send(owner, { to: collection, value: TON, body: nftDeployBody({ index: 1n, amount: TON / 10n, owner: bob.address, content: nftSuffixContent('1.json') }) });
  });

  it('get_collection_data and get_nft_address_by_index', async () => {
    const r = await bc.runGetMethod(collection, 'get_collection_data');
    expect(r.stackReader.readBigNumber()).toBe(2n);
    expect(r.stackReader.readCell().equals(collectionContent)).toBe(true);
    expect(r.stackReader.readAddress().equals(owner.address)).toBe(true);
    for (const i of [0n, 1n]) {
      const a = await bc.runGetMethod(collection, 'get_nft_address_by_index', [{ type: 'int', value: i }]);
      expect(a.stackReader.readAddress().equals(nftItemAddress(collection, i))).toBe(true);
    }
  });

  it('a deployed item answers get_nft_data; get_nft_content gives full TEP-64 content', async () => {
    const d = (await bc.runGetMethod(nftItemAddress(collection, 1n), 'get_nft_data')).stackReader;
    expect(d.readBigNumber()).toBe(-1n);
    expect(d.readBigNumber()).toBe(1n);
    expect(d.readAddress().equals(collection)).toBe(true);
    expect(d.readAddress().equals(bob.address)).toBe(true);
    const individual = d.readCell();
    const c = await bc.runGetMethod(collection, 'get_nft_content', [
      { type: 'int', value: 1n },
      { type: 'cell', cell: individual },
    ]);
    expect(parseTokenContent(c.stackReader.readCell())).toEqual({ type: 'offchain', data: 'https://art.test/1.json' });
    const onchain = onchainContent({ name: 'Art #0' });
    const c0 = await bc.runGetMethod(collection, 'get_nft_content', [
      { type: 'int', value: 0n },
      { type: 'cell', cell: onchain },
    ]);
    expect(parseTokenContent(c0.stackReader.readCell())).toEqual({ type: 'onchain', data: { name: 'Art #0' } });
  });

  it('refuses a deploy by anyone but the owner and an index past the next one', async () => {
    const r1 = await send(bob, { to: collection, value: TON, body: nftDeployBody({ index: 2n, amount: TON / 10n, owner: bob.address, content: Cell.EMPTY }) });
    const t1 = find(r1.transactions, collection, Op.deployItem);
    expect(t1.description.type === 'generic' && t1.description.computePhase.type === 'vm' && t1.description.computePhase.exitCode).toBe(401);
    const r2 = await send(owner, { to: collection, value: TON, body: nftDeployBody({ index: 5n, amount: TON / 10n, owner: bob.address, content: Cell.EMPTY }) });
    const t2 = find(r2.transactions, collection, Op.deployItem);
    expect(t2.description.type === 'generic' && t2.description.computePhase.type === 'vm' && t2.description.computePhase.exitCode).toBe(402);
  });

  it('transfers with ownership_assigned to the new owner and excesses to the response address', async () => {
    const item = nftItemAddress(collection, 0n);
    const r = await send(owner, {
      to: item,
      value: TON / 2n,
      body: nftTransferBody({ queryId: 11n, newOwner: bob.address, responseDestination: owner.address, forwardAmount: TON / 100n, forwardPayload: commentPayload('yours') }),
    });
    expect(succeeded(find(r.transactions, item, Op.nftTransfer))).toBe(true);
    const assigned = find(r.transactions, bob.address, Op.ownershipAssigned).inMessage!;
    expect(assigned.info.type === 'internal' && assigned.info.value.coins).toBe(TON / 100n);
    const s = assigned.body.beginParse();
    s.skip(32);
    expect(s.loadUintBig(64)).toBe(11n);
    expect(s.loadAddress().equals(owner.address)).toBe(true);
    expect(s.loadBit()).toBe(true);
    expect(s.loadRef().beginParse().skip(32).loadStringTail()).toBe('yours');
    find(r.transactions, owner.address, Op.excesses);
    const d = (await bc.runGetMethod(item, 'get_nft_data')).stackReader;
    d.skip(3);
    expect(d.readAddress().equals(bob.address)).toBe(true);

    // the old owner can no longer move it
    const again = await send(owner, { to: item, value: TON / 2n, body: nftTransferBody({ newOwner: owner.address }) });
    const t = find(again.transactions, item, Op.nftTransfer);
    expect(t.description.type === 'generic' && t.description.computePhase.type === 'vm' && t.description.computePhase.exitCode).toBe(401);
  });

  it('get_static_data answers report_static_data', async () => {
    const item = nftItemAddress(collection, 1n);
    const r = await send(owner, { to: item, value: TON / 10n, body: getStaticDataBody(5n) });
    const s = find(r.transactions, owner.address, Op.reportStaticData).inMessage!.body.beginParse();
    s.skip(32);
    expect(s.loadUintBig(64)).toBe(5n);
    expect(s.loadUintBig(256)).toBe(1n);
    expect(s.loadAddress().equals(collection)).toBe(true);
  });

  it('royalty_params and get_royalty_params (TEP-66)', async () => {
    const g = (await bc.runGetMethod(collection, 'royalty_params')).stackReader;
    expect([g.readNumber(), g.readNumber()]).toEqual([50, 1000]);
    expect(g.readAddress().equals(owner.address)).toBe(true);
    const r = await send(bob, { to: collection, value: TON / 10n, body: getRoyaltyParamsBody(4n) });
    const s = find(r.transactions, bob.address, Op.reportRoyaltyParams).inMessage!.body.beginParse();
    s.skip(32);
    expect(s.loadUintBig(64)).toBe(4n);
    expect([s.loadUint(16), s.loadUint(16)]).toEqual([50, 1000]);
    expect(s.loadAddress().equals(owner.address)).toBe(true);
  });
});

describe('content cells', () => {
  it('long on-chain values snake over several cells and read back whole', () => {
    const description = 'x'.repeat(400);
    const cell = onchainContent({ description });
    const dict = cell.beginParse().skip(8).loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    expect(dict.get(sha256_sync('description'))!.refs.length).toBe(1);
    expect(parseTokenContent(cell)).toEqual({ type: 'onchain', data: { description } });
    expect(parseTokenContent(offchainContent('https://a.test/' + 'y'.repeat(200)))).toEqual({ type: 'offchain', data: 'https://a.test/' + 'y'.repeat(200) });
  });
});

describe('sale and auction contracts (GetGems get_sale_data layouts)', () => {
  let bc: Blockchain;
  let seller: SandboxContract<TreasuryContract>;
  let buyer: SandboxContract<TreasuryContract>;
  let other: SandboxContract<TreasuryContract>;
  let market: SandboxContract<TreasuryContract>;
  let collection: Address;
  let next = 0n;

  beforeAll(async () => {
    bc = await Blockchain.create();
    bc.now = 1_800_000_000;
    [seller, buyer, other, market] = await Promise.all(['seller', 'buyer', 'other', 'market'].map((n) => bc.treasury(n)));
    const init = nftCollectionInit({ owner: seller.address, collectionContent: onchainContent({ name: 'Market' }), commonContent: '', royalty: { numerator: 0, denominator: 1, destination: seller.address } });
    collection = contractAddress(0, init);
    await send(seller, { to: collection, value: TON / 10n, init });
  });

  /** A new item of the seller's, moved to a new listing contract the seller deploys (as genesis does). */
  async function list(init: StateInit): Promise<{ item: Address; listing: Address }> {
    const index = next++;
    await send(seller, { to: collection, value: TON / 2n, body: nftDeployBody({ index, amount: TON / 10n, owner: seller.address, content: onchainContent({ name: `#${index}` }) }) });
    const item = nftItemAddress(collection, index);
    const listing = contractAddress(0, init);
    await send(seller, { to: listing, value: TON / 10n, init });
    const r = await send(seller, { to: item, value: TON / 5n, body: nftTransferBody({ newOwner: listing, responseDestination: seller.address, forwardAmount: TON / 50n }) });
    expect(succeeded(find(r.transactions, listing, Op.ownershipAssigned))).toBe(true);
    return { item, listing };
  }
  const itemOwner = async (item: Address) => (await bc.runGetMethod(item, 'get_nft_data')).stackReader.skip(3).readAddress();
  const exitOf = (t: BlockchainTransaction) => (t.description.type === 'generic' && t.description.computePhase.type === 'vm' ? t.description.computePhase.exitCode : null);
  const on = (txs: BlockchainTransaction[], a: Address) => txs.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(a))!;
  const paidTo = (t: BlockchainTransaction, a: Address) =>
    [...t.outMessages.values()].filter((m) => m.info.type === 'internal' && m.info.dest.equals(a)).map((m) => (m.info.type === 'internal' ? m.info.value.coins : 0n));
  const saleData = async (a: Address) => (await bc.runGetMethod(a, 'get_sale_data')).stack;
  const num = (e: TupleItem | undefined): bigint | undefined => (e?.type === 'int' ? e.value : undefined);

  it('fixed price: a payment under the price bounces; a full one pays the seller, fee and royalty and hands the buyer the item', async () => {
    const nft = nftItemAddress(collection, next);
    const { item, listing } = await list(nftFixpriceSaleInit({
      marketplace: market.address, nft, owner: seller.address, fullPrice: 10n * TON,
      fee: { address: market.address, amount: TON / 2n }, royalty: { address: other.address, amount: TON },
    }));
    expect((await itemOwner(item)).equals(listing)).toBe(true);
    const short = await send(buyer, { to: listing, value: 10n * TON, bounce: true });
    expect(exitOf(on(short.transactions, listing))).toBe(410);
    const r = await send(buyer, { to: listing, value: 10n * TON + TON / 5n, bounce: true });
    const t = on(r.transactions, listing);
    expect(succeeded(t)).toBe(true);
    expect([paidTo(t, seller.address), paidTo(t, market.address), paidTo(t, other.address)]).toEqual([[10n * TON - TON / 2n - TON], [TON / 2n], [TON]]);
    expect((await itemOwner(item)).equals(buyer.address)).toBe(true);
    find(r.transactions, buyer.address, Op.ownershipAssigned);
    find(r.transactions, buyer.address, Op.excesses);
    const d = await saleData(listing);
    expect([num(d[0]), num(d[1])]).toEqual([0x46495850n, -1n]);
    expect(exitOf(on((await send(other, { to: listing, value: 11n * TON, bounce: true })).transactions, listing))).toBe(409);
  });

  it('an item sent to a listing by anyone but its seller goes back', async () => {
    const index = next++;
    await send(seller, { to: collection, value: TON / 2n, body: nftDeployBody({ index, amount: TON / 10n, owner: other.address, content: onchainContent({ name: 'stray' }) }) });
    const item = nftItemAddress(collection, index);
    const init = nftFixpriceSaleInit({ marketplace: market.address, nft: item, owner: seller.address, fullPrice: TON, fee: { address: market.address, amount: 0n }, royalty: { address: market.address, amount: 0n } });
    const listing = contractAddress(0, init);
    await send(seller, { to: listing, value: TON / 10n, init });
    await send(other, { to: item, value: TON / 5n, body: nftTransferBody({ newOwner: listing, responseDestination: other.address, forwardAmount: TON / 50n }) });
    expect((await itemOwner(item)).equals(other.address)).toBe(true);
  });

  const auction = (nft: Address, endTime: number) =>
    nftAuctionInit({
      marketplace: market.address, nft, owner: seller.address, endTime, minBid: TON, maxBid: 0n, minStep: TON / 10n,
      marketplaceFee: { address: market.address, factor: 10, base: 100 }, royalty: { address: other.address, factor: 5, base: 100 },
    });
  const BID_GAS = TON / 20n;

  it('auction: finish is refused before the end; bids after it are refused; finish then gives the winner the item and splits the bid', async () => {
    const end = bc.now! + 3600;
    const { item, listing } = await list(auction(nftItemAddress(collection, next), end));
    const bid = (from: SandboxContract<TreasuryContract>, value: bigint) => send(from, { to: listing, value: value + BID_GAS, bounce: true });
    expect(exitOf(on((await bid(buyer, TON / 2n)).transactions, listing))).toBe(414);
    expect(succeeded(on((await bid(buyer, 2n * TON)).transactions, listing))).toBe(true);
    const early = await send(other, { to: listing, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.finishAuction) });
    expect(exitOf(on(early.transactions, listing))).toBe(415);
    expect(exitOf(on((await send(seller, { to: listing, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.cancelListing) })).transactions, listing))).toBe(416);
    bc.now = end + 1;
    expect(exitOf(on((await bid(other, 5n * TON)).transactions, listing))).toBe(412);
    const done = await send(other, { to: listing, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.finishAuction) });
    const t = on(done.transactions, listing);
    expect(succeeded(t)).toBe(true);
    expect([paidTo(t, seller.address), paidTo(t, market.address), paidTo(t, other.address)]).toEqual([[2n * TON - TON / 5n - TON / 10n], [TON / 5n], [TON / 10n]]);
    expect((await itemOwner(item)).equals(buyer.address)).toBe(true);
    const d = await saleData(listing);
    expect([num(d[0]), num(d[1]), num(d[6]), num(d[19])]).toEqual([0x415543n, -1n, 2n * TON, 0n]);
  });

  it('auction without bids: only the seller cancels, and gets the item back; or, after the end, finish returns it', async () => {
    const a = await list(auction(nftItemAddress(collection, next), bc.now! + 3600));
    const cancel = (from: SandboxContract<TreasuryContract>) => send(from, { to: a.listing, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.cancelListing) });
    expect(exitOf(on((await cancel(other)).transactions, a.listing))).toBe(401);
    expect(succeeded(on((await cancel(seller)).transactions, a.listing))).toBe(true);
    expect((await itemOwner(a.item)).equals(seller.address)).toBe(true);
    const canceled = await saleData(a.listing);
    expect([num(canceled[1]), num(canceled[19])]).toEqual([-1n, -1n]);

    const end = bc.now! + 60;
    const b = await list(auction(nftItemAddress(collection, next), end));
    bc.now = end;
    const r = await send(other, { to: b.listing, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.finishAuction) });
    expect(succeeded(on(r.transactions, b.listing))).toBe(true);
    expect((await itemOwner(b.item)).equals(seller.address)).toBe(true);
    const ended = await saleData(b.listing);
    expect([num(ended[1]), num(ended[19])]).toEqual([-1n, 0n]);
  });
});

/** The transaction of `txs` on `to` (and from `from`), with its compute exit code, success and inbound value. */
function txOn(txs: BlockchainTransaction[], to: Address, from?: Address) {
  const tx = txs.find((t) => {
    const info = t.inMessage?.info;
    return info?.dest instanceof Address && info.dest.equals(to) && (!from || (info.src instanceof Address && info.src.equals(from)));
  });
  if (!tx) throw new Error(`no transaction on ${to.toString()}`);
  const d = tx.description;
  const compute = d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase : null;
  const value = tx.inMessage!.info.type === 'internal' ? tx.inMessage!.info.value.coins : 0n;
  return { success: !!compute?.success && d.type === 'generic' && !d.aborted, exitCode: compute?.exitCode, value, deploy: tx.oldStatus !== 'active' && tx.endStatus === 'active' };
}

describe('.ton-style DNS collection and item', () => {
  let bc: Blockchain;
  let alice: SandboxContract<TreasuryContract>;
  let bob: SandboxContract<TreasuryContract>;
  let carol: SandboxContract<TreasuryContract>;
  const DURATION = 7 * 86_400;
  const T0 = 1_800_000_000;
  const init = dnsCollectionInit({ content: onchainContent({ name: 'DNS' }), auctionDuration: DURATION });
  const collection = contractAddress(0, init);
  const item = dnsItemAddress(collection, 'example');

  const get = async (method: string) => (await bc.runGetMethod(item, method)).stackReader;
  const auction = async () => {
    const r = await get('get_auction_info');
    return { bidder: r.readAddressOpt(), amount: r.readBigNumber(), end: r.readNumber() };
  };

  beforeAll(async () => {
    bc = await Blockchain.create();
    bc.now = T0;
    [alice, bob, carol] = await Promise.all([bc.treasury('alice'), bc.treasury('bob'), bc.treasury('carol')]);
  });

  it('refuses a malformed name or a first bid under 1 TON', async () => {
    const bad = await send(alice, { to: collection, value: 2n * TON, init, body: dnsAuctionStartBody('Ab_c') });
    expect(txOn(bad.transactions, collection)).toMatchObject({ success: false, exitCode: 200 });
    const cheap = await send(alice, { to: collection, value: TON / 2n, init, body: dnsAuctionStartBody('example') });
    expect(txOn(cheap.transactions, collection)).toMatchObject({ success: false, exitCode: 201 });
  });

  it('opens an auction with the first bid; a bid under +5% fails, a higher one refunds the leader', async () => {
    const r = await send(alice, { to: collection, value: 2n * TON, init, body: dnsAuctionStartBody('example') });
    expect(txOn(r.transactions, item, collection)).toMatchObject({ deploy: true, success: true });
    const first = await auction();
    expect(first.bidder!.equals(alice.address)).toBe(true);
    expect(first.end).toBe(T0 + DURATION);
    expect((await get('get_domain')).readCell().beginParse().loadStringTail()).toBe('example');
    expect((await get('get_nft_data')).skip(3).readAddressOpt()).toBeNull();

    bc.now = T0 + 100;
    const low = await send(bob, { to: item, value: (first.amount * 104n) / 100n, body: commentPayload('') });
    expect(txOn(low.transactions, item)).toMatchObject({ success: false, exitCode: 207 });
    const high = await send(bob, { to: item, value: 3n * TON, body: commentPayload('') });
    const refund = find(high.transactions, alice.address, 0x557cea20);
    expect(refund.inMessage!.info.type === 'internal' && refund.inMessage!.info.value.coins).toBe(first.amount);
    expect(await auction()).toMatchObject({ amount: 3n * TON, end: T0 + DURATION });
    expect((await get('get_last_fill_up_time')).readNumber()).toBe(T0 + 100);
  });

  it('a bid in the last hour moves the end to an hour after it', async () => {
    bc.now = T0 + DURATION - 600;
    await send(carol, { to: item, value: 4n * TON, body: commentPayload('') });
    const a = await auction();
    expect(a.bidder!.equals(carol.address)).toBe(true);
    expect(a.end).toBe(T0 + DURATION - 600 + 3600);
  });

  it('after the end, the next message hands the item to the winner and the bid to the collection', async () => {
    bc.now = T0 + DURATION + 3600;
    const r = await send(bob, { to: item, value: TON / 10n });
    expect(txOn(r.transactions, collection, item)).toMatchObject({ value: 4n * TON, success: true });
    expect((await get('get_nft_data')).skip(3).readAddress().equals(carol.address)).toBe(true);
    expect(await auction()).toEqual({ bidder: null, amount: 0n, end: 0 });
    // the owner may now transfer it like any NFT
    const t = await send(carol, { to: item, value: TON / 5n, body: nftTransferBody({ queryId: 9n, newOwner: bob.address, responseDestination: carol.address, forwardAmount: 0n }) });
    expect(txOn(t.transactions, item)).toMatchObject({ success: true });
    expect((await get('get_nft_data')).skip(3).readAddress().equals(bob.address)).toBe(true);
  });
});

describe('nominator pool (the standard pool\'s layout and interface)', () => {
  let bc: Blockchain;
  let validator: SandboxContract<TreasuryContract>;
  let elector: SandboxContract<TreasuryContract>;
  let carol: SandboxContract<TreasuryContract>;
  let dave: SandboxContract<TreasuryContract>;
  let eve: SandboxContract<TreasuryContract>;
  let pool: Address;
  let init: StateInit;
  const OP_NEW_STAKE = 0x4e73744b;
  const OP_NEW_STAKE_OK = 0xf374484c;
  const OP_RECOVER_STAKE = 0x47657424;
  const OP_RECOVER_STAKE_OK = 0xf96f7324;

  const poolData = async () => {
    const r = (await bc.runGetMethod(pool, 'get_pool_data')).stackReader;
    return { state: r.readNumber(), count: r.readNumber(), sent: r.readBigNumber(), validatorAmount: r.readBigNumber(), validator: r.readBigNumber(), share: r.readNumber(), max: r.readNumber() };
  };
  const nominator = async (who: Address) => {
    // an address that is not a nominator: the get-method throws (exit code 87)
    const r = await bc.runGetMethod(pool, 'get_nominator_data', [{ type: 'int', value: BigInt(`0x${who.hash.toString('hex')}`) }]).catch((e: Error) => {
      if (/exit_code: 87/.test(e.message)) return null;
      throw e;
    });
    if (!r) return null;
    const s = r.stackReader;
    return { amount: s.readBigNumber(), pending: s.readBigNumber(), withdrawRequested: s.readBigNumber() !== 0n };
  };
  const paidTo = (txs: BlockchainTransaction[], to: Address) => txOn(txs, to, pool).value;

  beforeAll(async () => {
    bc = await Blockchain.create();
    [validator, elector] = await Promise.all([bc.treasury('validator', { workchain: -1 }), bc.treasury('elector', { workchain: -1 })]);
    [carol, dave, eve] = await Promise.all([bc.treasury('carol'), bc.treasury('dave'), bc.treasury('eve')]);
    // config param 1 names the stand-in elector
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), bc.config);
    config.set(1, beginCell().storeBuffer(elector.address.hash).endCell());
    bc.setConfig(beginCell().storeDictDirect(config).endCell());
    init = nominatorPoolInit({ validator: validator.address, validatorRewardShare: 3000, maxNominators: 2, minValidatorStake: 100n * TON, minNominatorStake: 10n * TON });
    pool = contractAddress(-1, init);
  });

  it('the validator deploys it with its deposit; nobody else deposits as the validator', async () => {
    const r = await send(validator, { to: pool, value: 501n * TON, init, body: poolValidatorBody(PoolOp.depositValidator, 1n) });
    expect(txOn(r.transactions, pool)).toMatchObject({ deploy: true, success: true });
    expect(await poolData()).toEqual({ state: 0, count: 0, sent: 0n, validatorAmount: 500n * TON, validator: BigInt(`0x${validator.address.hash.toString('hex')}`), share: 3000, max: 2 });
    const other = await send(carol, { to: pool, value: 10n * TON, body: poolValidatorBody(PoolOp.depositValidator) });
    expect(txOn(other.transactions, pool)).toMatchObject({ success: false, exitCode: 80 });
  });

  it('nominators deposit with "d" (1 TON kept), within the minimum stake and the nominator count', async () => {
    await send(carol, { to: pool, value: 201n * TON, body: commentPayload('d') });
    await send(dave, { to: pool, value: 101n * TON, body: commentPayload('d') });
    expect(await nominator(carol.address)).toEqual({ amount: 200n * TON, pending: 0n, withdrawRequested: false });
    expect(await nominator(dave.address)).toEqual({ amount: 100n * TON, pending: 0n, withdrawRequested: false });
    expect((await poolData()).count).toBe(2);
    // a third nominator is over max_nominators_count
    expect(txOn((await send(eve, { to: pool, value: 50n * TON, body: commentPayload('d') })).transactions, pool)).toMatchObject({ success: false, exitCode: 74 });
    // list_nominators: [hash, amount, pending, withdraw_requested] for each
    const list = (await bc.runGetMethod(pool, 'list_nominators')).stackReader.readLispList();
    expect(list).toHaveLength(2);
    expect((await bc.runGetMethod(pool, 'list_votes')).stackReader.readLispList()).toEqual([]);
  });

  it('"w" while idle pays the whole stake back at once and drops the nominator', async () => {
    const r = await send(dave, { to: pool, value: TON, body: commentPayload('w') });
    expect(paidTo(r.transactions, dave.address)).toBe(100n * TON);
    expect(await nominator(dave.address)).toBeNull();
    expect((await poolData()).count).toBe(1);
    // a withdrawal by a stranger fails; a new nominator's deposit under the minimum stake fails
    expect(txOn((await send(eve, { to: pool, value: TON, body: commentPayload('w') })).transactions, pool)).toMatchObject({ success: false, exitCode: 76 });
    expect(txOn((await send(eve, { to: pool, value: 6n * TON, body: commentPayload('d') })).transactions, pool)).toMatchObject({ success: false, exitCode: 75 });
    await send(dave, { to: pool, value: 101n * TON, body: commentPayload('d') });
  });

  it('stakes at the elector of config param 1, then shares its reward: 30% to the validator, the rest pro rata; pending deposits activated, withdraw requests paid', async () => {
    const newStake = beginCell().storeUint(0xabcn, 256).storeUint(1_900_000_000, 32).storeUint(1 << 16, 32).storeUint(0xadn, 256).storeRef(beginCell().storeBuffer(Buffer.alloc(64, 1)).endCell()).endCell();
    const staked = await send(validator, { to: pool, value: TON, body: beginCell().storeUint(PoolOp.processNewStake, 32).storeUint(7n, 64).storeRef(newStake).endCell() });
    const atElector = find(staked.transactions, elector.address, OP_NEW_STAKE);
    expect(atElector.inMessage!.info.type === 'internal' && atElector.inMessage!.info.value.coins).toBe(801n * TON);
    const body = atElector.inMessage!.body.beginParse();
    body.skip(32 + 64);
    expect(body.loadUintBig(256)).toBe(0xabcn);
    expect(await poolData()).toMatchObject({ state: 1, sent: 800n * TON });
    await send(elector, { to: pool, value: TON, body: beginCell().storeUint(OP_NEW_STAKE_OK, 32).storeUint(7n, 64).endCell() });
    expect((await poolData()).state).toBe(2);

    // while staking: a deposit waits, a withdrawal becomes a request; the validator cannot withdraw
    await send(dave, { to: pool, value: 21n * TON, body: commentPayload('d') });
    expect(await nominator(dave.address)).toEqual({ amount: 100n * TON, pending: 20n * TON, withdrawRequested: false });
    await send(carol, { to: pool, value: TON, body: commentPayload('w') });
    expect(await nominator(carol.address)).toEqual({ amount: 200n * TON, pending: 0n, withdrawRequested: true });
    const early = await send(validator, { to: pool, value: TON, body: poolValidatorBody(PoolOp.withdrawValidator, 2n, TON) });
    expect(txOn(early.transactions, pool)).toMatchObject({ success: false, exitCode: 81 });

    const recover = await send(validator, { to: pool, value: 2n * TON, body: poolValidatorBody(PoolOp.recoverStake, 8n) });
    find(recover.transactions, elector.address, OP_RECOVER_STAKE);
    // the stake comes back with 90 TON of reward: 27 to the validator, 63 to carol (200) and dave (100)
    const ok = await send(elector, { to: pool, value: 890n * TON, body: beginCell().storeUint(OP_RECOVER_STAKE_OK, 32).storeUint(8n, 64).endCell() });
    expect(await poolData()).toMatchObject({ state: 0, sent: 0n, validatorAmount: 527n * TON, count: 1 });
    expect(paidTo(ok.transactions, carol.address)).toBe(242n * TON);
    expect(await nominator(carol.address)).toBeNull();
    expect(await nominator(dave.address)).toEqual({ amount: 141n * TON, pending: 0n, withdrawRequested: false });

    // idle again: the validator withdraws part of its amount
    const out = await send(validator, { to: pool, value: TON, body: poolValidatorBody(PoolOp.withdrawValidator, 3n, 27n * TON) });
    expect(paidTo(out.transactions, validator.address)).toBe(27n * TON);
    expect((await poolData()).validatorAmount).toBe(500n * TON);
  });
});

describe('elector (contracts/elector.fc, as genesis places it)', () => {
  const SEED = 'elector-contract';
  const T0 = 1_800_000_000;
  const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
  withLocalValidator(config, SEED, T0);
  const state = electorGenesisState(config, SEED, T0, -239);
  const elector = state.address;
  const pastId = config.get(34)!.beginParse().skip(8).loadUint(32);
  const openId = config.get(34)!.beginParse().skip(40).loadUint(32);
  /** another validator's key */
  const keys = keyPairFromSeed(sha256_sync('elector-contract/another-validator'));
  const pubkey = BigInt(`0x${keys.publicKey.toString('hex')}`);
  let bc: Blockchain;
  let staker: SandboxContract<TreasuryContract>;

  const get = async (method: string, args: TupleItem[] = []) => (await bc.runGetMethod(elector, method, args)).stackReader;
  /** the elector's answer to `to`: op, query id, the 32-bit code when there is one, and the value */
  const answer = (txs: BlockchainTransaction[], to: Address) => {
    const t = txs.find((x) => x.inMessage?.info.src instanceof Address && x.inMessage.info.src.equals(elector) && (x.inMessage.info.dest as Address).equals(to));
    if (!t) throw new Error('no answer');
    const b = t.inMessage!.body.beginParse();
    return { op: b.loadUint(32), queryId: b.loadUintBig(64), code: b.remainingBits >= 32 ? b.loadUint(32) : undefined, value: t.inMessage!.info.type === 'internal' ? t.inMessage!.info.value.coins : 0n };
  };
  const stake = (from: SandboxContract<TreasuryContract>, value: bigint, body: Cell) => send(from, { to: elector, value, body });
  const signed = (from: Address, over: Partial<Parameters<typeof newStakeBody>[0]> = {}) => newStakeBody({ keys, sender: from, electionId: openId, queryId: 7n, ...over });

  beforeAll(async () => {
    bc = await Blockchain.create({ config: beginCell().storeDictDirect(config).endCell() });
    bc.now = T0 + 100;
    await bc.setShardAccount(elector, createShardAccount({ address: elector, code: state.code, data: state.data, balance: state.balance, workchain: -1 }));
    staker = await bc.treasury('staker', { workchain: -1 });
  });

  it('answers its genesis state: the open election, the past one, the credit', async () => {
    expect((await get('active_election_id')).readNumber()).toBe(openId);
    expect((await get('past_election_ids')).readTuple().readNumber()).toBe(pastId);
    const holder = BigInt(`0x${validatorWallet(SEED, -239).address.hash.toString('hex')}`);
    expect((await get('compute_returned_stake', [{ type: 'int', value: holder }])).readBigNumber()).toBe(GENESIS_ELECTOR.credit);
    expect((await get('participates_in', [{ type: 'int', value: pubkey }])).readBigNumber()).toBe(0n);
    expect((await get('participant_list')).readTupleOpt()).toBeNull();
    expect((await get('list_complaints', [{ type: 'int', value: BigInt(pastId) }])).readTupleOpt()).toBeNull();
  });

  it('returns a stake with the network\'s reason codes: 0 not from the masterchain, 1 bad signature, 6 factor under 1, 3 another election, 5 under min_stake', async () => {
    const basechain = await bc.treasury('basechain');
    const cases: [SandboxContract<TreasuryContract>, bigint, Cell, number][] = [
      [basechain, 400_000n * TON, signed(basechain.address), 0],
      [staker, 400_000n * TON, signed(basechain.address), 1],
      [staker, 400_000n * TON, signed(staker.address, { maxFactor: 0xffff }), 6],
      [staker, 400_000n * TON, signed(staker.address, { electionId: openId + 1 }), 3],
      [staker, 1_000n * TON, signed(staker.address), 5],
    ];
    for (const [from, value, body, reason] of cases) {
      const r = answer((await stake(from, value, body)).transactions, from.address);
      expect([r.op, r.queryId, r.code]).toEqual([0xee6f454c, 7n, reason]);
      // the stake comes back, less the fees
      expect(r.value).toBeGreaterThan(value - TON);
    }
    expect((await get('participates_in', [{ type: 'int', value: pubkey }])).readBigNumber()).toBe(0n);
  });

  it('keeps a signed stake (less 1 TON, sent back with new_stake_ok), from that address only (4)', async () => {
    const ok = answer((await stake(staker, 300_001n * TON, signed(staker.address))).transactions, staker.address);
    expect([ok.op, ok.queryId, ok.code, ok.value]).toEqual([0xf374484c, 7n, 0, TON]);
    expect((await get('participates_in', [{ type: 'int', value: pubkey }])).readBigNumber()).toBe(300_000n * TON);
    const list = (await get('participant_list')).readTuple().readTuple();
    expect([list.readBigNumber(), list.readBigNumber()]).toEqual([pubkey, 300_000n * TON]);
    const other = await bc.treasury('another-staker', { workchain: -1 });
    const refused = answer((await stake(other, 400_000n * TON, signed(other.address))).transactions, other.address);
    expect([refused.op, refused.code]).toEqual([0xee6f454c, 4]);
  });

  it('answers recover_stake with 0xfffffffe when the sender has no credit', async () => {
    const r = answer((await send(staker, { to: elector, value: TON, body: recoverStakeBody(8n) })).transactions, staker.address);
    expect([r.op, r.queryId, r.code]).toEqual([0xfffffffe, 8n, 0x47657424]);
  });
});

describe('message layouts', () => {
  // sandbox hands each receiver the message re-serialised by @ton/core; when the contract chose another layout
  // the receiver's in-message cell (and so its hash) would differ from the sender's out-message cell
  it('every message arrives as the very cell it was sent as', () => {
    const internalChildren = seen.filter((t) => t.parent && t.inMessage?.info.type === 'internal');
    expect(internalChildren.length).toBeGreaterThan(30);
    for (const t of internalChildren) {
      const sent = messageCells(t.parent!).outMsgs.map((c) => c.hash().toString('hex'));
      expect(sent).toContain(messageCells(t).inMsg!.hash().toString('hex'));
    }
  });
});

describe('compiled artifact', () => {
  it('equals a fresh compilation of contracts/*.fc', async () => {
    const fresh = await compileContracts();
    expect(readFileSync(artifactPath, 'utf8')).toBe(renderArtifact(fresh));
    expect(Cell.fromBase64(fresh.contracts.jettonMinter.boc).equals(jettonMinterCode)).toBe(true);
  }, 120_000);
});
