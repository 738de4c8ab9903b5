/**
 * The genesis tokens on a real local chain: the LGC jetton minted, moved and burnt, the NFT collection with
 * item 0 passed to dave, items 1 and 2 on a fixed-price sale and an auction (the sale and auction contracts at
 * work: bids, refunds, buyout, cancel), every token step a successful trace; GET /localnet/tokens and v2 getTokenData
 * (v2.md §7) over a running gateway for all four contract types.
 */
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalnetTokens } from '../../../src/api/localnet.js';
import type { StackArg, TokenData } from '../../../src/api/v2.js';
import { compiled, jettonWalletCode, jettonWalletData, MarketOp, marketOpBody, nftItemCode, Op } from '../../../src/sources/localnet/chain/contracts/index.js';
import { GENESIS_SALES, genesisTokens, signedTransfer, type GenesisTokens } from '../../../src/sources/localnet/chain/genesis.js';
import { GENESIS_DNS, genesisDns } from '../../../src/sources/localnet/chain/genesis-dns.js';
import { validatorWallet } from '../../../src/sources/localnet/chain/genesis-validator.js';
import { GENESIS_TIME, LocalChain, type TxRecord } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import type { Gateway } from '../../../src/gateway.js';

const LGC = 1_000_000_000n;
const TON = 1_000_000_000n;

const opOf = (m: Message | null | undefined): number | undefined => {
  const s = m?.body.beginParse();
  return s && s.remainingBits >= 32 ? s.preloadUint(32) : undefined;
};

const SEED = 'genesis-tokens';

describe('genesis tokens on LocalChain', () => {
  let chain: LocalChain;
  let tokens: GenesisTokens;
  let names: Record<string, Address>;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: SEED, blockInterval: 0 });
    tokens = genesisTokens(chain.keyedWallets());
    names = Object.fromEntries(chain.keyedWallets().map((w) => [w.name, w.contract.address]));
  }, 120_000);
  afterAll(() => chain?.close());

  /** Runs a get-method through the v2 API: numbers as bigint, cells and slices as cells. */
  async function run(address: Address, method: string, stack: StackArg[] = []): Promise<(bigint | Cell | null)[]> {
    const r = await chain.v2.runGetMethodStd({ address, method, stack });
    expect(r.exit_code).toBe(0);
    return r.stack.map((e) => {
      if (e['@type'] === 'tvm.stackEntryNumber') return BigInt(e.number.number);
      if (e['@type'] === 'tvm.stackEntryCell') return Cell.fromBase64(e.cell.bytes);
      if (e['@type'] === 'tvm.stackEntrySlice') return Cell.fromBase64(e.slice.bytes);
      // a null (an empty dictionary)
      if (e['@type'] === 'tvm.stackEntryList' && e.list.elements.length === 0) return null;
      throw new Error(`unexpected stack entry ${e['@type']}`);
    });
  }
  const addressIn = (c: bigint | Cell | null | undefined): Address => (c as Cell).beginParse().loadAddress();

  const balanceOf = async (wallet: Address): Promise<bigint> => (await run(wallet, 'get_wallet_data'))[0] as bigint;

  it('every transaction of the token and validator steps succeeds, but the faucet\'s credit of the undeployed validator wallet (no code to run)', () => {
    const later: TxRecord[] = chain.store.sealedTransactions().filter((t) => t.mcSeqno !== undefined && t.mcSeqno >= 4);
    const noState = (t: TxRecord) => t.tx.description.type === 'generic' && t.tx.description.computePhase.type === 'skipped';
    const wallet = validatorWallet(SEED, chain.globalId).address;
    expect(later.filter(noState).map((t) => [t.mcSeqno, t.account.toRawString()])).toEqual([[12, wallet.toRawString()]]);
    const tokenTxs = later.filter((t) => !noState(t));
    expect(tokenTxs.length).toBeGreaterThan(20);
    expectSuccess(tokenTxs);
  });

  it('every transaction of the nominator pool steps succeeds', () => {
    const { validator } = chain.nominatorPool()!;
    // the pool's steps are blocks 14 to 17 (after the validator's stake and recovery, 12 and 13, which funded and deployed its wallet)
    const poolTxs = chain.store.sealedTransactions().filter((t) => t.mcSeqno !== undefined && t.mcSeqno >= 14);
    expect(poolTxs).toHaveLength(11);
    expectSuccess(poolTxs);
    // the validator's wallet sends once here: the transfer that deploys the pool with its deposit
    expect(poolTxs.filter((t) => t.account.equals(validator))).toHaveLength(1);
  });

  it('the config contract at param 0 holds the configuration the chain runs with, the local validator set included', async () => {
    const p0 = Cell.fromBase64((await chain.v2.getConfigParam({ configId: 0 })).config.bytes);
    const config = new Address(-1, p0.beginParse().loadBuffer(32));
    const state = await chain.v2.getAddressInformation({ address: config });
    expect(state.state).toBe('active');
    expect(Cell.fromBase64(state.code).hash().toString('hex')).toBe(compiled.contracts.config.hash);
    // its data: the configuration dictionary as a ref, then seqno 0
    const data = Cell.fromBase64(state.data).beginParse();
    const all = Cell.fromBase64((await chain.v2.getConfigAll({})).config.bytes);
    expect(data.loadRef().hash().equals(all.hash())).toBe(true);
    expect(await run(config, 'seqno')).toEqual([0n]);
    expect((await run(config, 'get_public_key'))[0]).toBeGreaterThan(0n);
    // it takes no configuration change: an external message is refused
    const change = beginCell().store(storeMessage(external({ to: config, body: beginCell().storeUint(0x43665021, 32).endCell() }))).endCell();
    await expect(chain.v2.sendBoc({ boc: change.toBoc() })).rejects.toThrow(/not accepted/);
  });

  function expectSuccess(txs: TxRecord[]): void {
    for (const t of txs) {
      const d = t.tx.description;
      expect(d.type).toBe('generic');
      if (d.type !== 'generic') continue;
      expect({ tx: t.hash, success: d.computePhase.type === 'vm' && d.computePhase.success, aborted: d.aborted }).toEqual({
        tx: t.hash,
        success: true,
        aborted: false,
      });
    }
  }

  it('jetton balances and total supply follow the mints, the transfer and the burn', async () => {
    const wallet = (name: string) => tokens.jettonWallets.find((w) => w.name === name)!.address;
    expect(await balanceOf(wallet('alice'))).toBe((1_000_000n - 1_500n) * LGC);
    expect(await balanceOf(wallet('bob'))).toBe((250_000n - 10_000n) * LGC);
    expect(await balanceOf(wallet('carol'))).toBe(1_500n * LGC);
    expect((await run(tokens.jettonMaster, 'get_jetton_data'))[0]).toBe(1_240_000n * LGC);
  });

  it('the master computes the same wallet addresses', async () => {
    for (const w of tokens.jettonWallets) {
      const [wallet] = await run(tokens.jettonMaster, 'get_wallet_address', [{ type: 'slice', boc: beginCell().storeAddress(w.owner).endCell().toBoc() }]);
      expect(addressIn(wallet).equals(w.address)).toBe(true);
    }
  });

  it('carol got a transfer_notification with the comment, dave an ownership_assigned', () => {
    const inbound = (to: Address, op: number) =>
      chain.store.accountTransactions(to).filter((t) => opOf(t.tx.inMessage) === op).map((t) => t.tx.inMessage!);
    const [note] = inbound(names.carol!, Op.transferNotification);
    expect(note).toBeDefined();
    const s = note!.body.beginParse();
    s.skip(32 + 64);
    expect(s.loadCoins()).toBe(1_500n * LGC);
    expect(s.loadAddress().equals(names.alice!)).toBe(true);
    expect(s.loadBit()).toBe(true);
    expect(s.loadRef().beginParse().skip(32).loadStringTail()).toBe('LGC for carol');

    const [assigned] = inbound(names.dave!, Op.ownershipAssigned);
    expect(assigned).toBeDefined();
    const a = assigned!.body.beginParse();
    a.skip(32 + 64);
    expect(a.loadAddress().equals(names.alice!)).toBe(true);
    // bob's burn came back to him as excesses from the master
    const excesses = chain.store.accountTransactions(names.bob!).filter((t) => opOf(t.tx.inMessage) === Op.excesses);
    expect(excesses.some((t) => t.tx.inMessage!.info.src instanceof Address && (t.tx.inMessage!.info.src as Address).equals(tokens.jettonMaster))).toBe(true);
  });

  it('NFT items belong to dave (item 0, transferred), the sale (bob\'s item 1) and the auction (carol\'s item 2); the collection has 3 items', async () => {
    const owners = [names.dave!, tokens.nftSale, tokens.nftAuction];
    for (const [i, item] of tokens.nftItems.entries()) {
      const [init, index, collection, owner] = await run(item, 'get_nft_data');
      expect([init, index]).toEqual([-1n, BigInt(i)]);
      expect(addressIn(collection).equals(tokens.nftCollection)).toBe(true);
      expect(addressIn(owner).equals(owners[i]!)).toBe(true);
      const [byIndex] = await run(tokens.nftCollection, 'get_nft_address_by_index', [{ type: 'int', value: BigInt(i) }]);
      expect(addressIn(byIndex).equals(item)).toBe(true);
    }
    expect((await run(tokens.nftCollection, 'get_collection_data'))[0]).toBe(3n);
    const royalty = await run(tokens.nftCollection, 'royalty_params');
    expect(royalty.slice(0, 2)).toEqual([50n, 1000n]);
    expect(addressIn(royalty[2]).equals(names.alice!)).toBe(true);
  });

  it('the DNS item of "gateway" is in auction, bob leading with 3 TON, alice refunded', async () => {
    const { collection, item } = genesisDns();
    const [max, amount, end] = await run(item, 'get_auction_info');
    expect(addressIn(max).equals(names.bob!)).toBe(true);
    expect(amount).toBe(GENESIS_DNS.outbid);
    // opened at step 10 (GENESIS_TIME + 50); bob's bid, far from the end, does not move it
    expect(end).toBe(BigInt(GENESIS_TIME + 50 + GENESIS_DNS.auctionDuration));
    expect((await run(item, 'get_last_fill_up_time'))[0]).toBe(BigInt(GENESIS_TIME + 55));
    const [domain] = await run(item, 'get_domain');
    expect((domain as Cell).beginParse().loadStringTail()).toBe('gateway');
    const [init, , coll, owner] = await run(item, 'get_nft_data');
    expect(init).toBe(-1n);
    expect(addressIn(coll).equals(collection)).toBe(true);
    // nobody owns it while the auction runs
    expect((owner as Cell).beginParse().loadMaybeAddress()).toBeNull();
    const [bits, records] = await run(item, 'dnsresolve', [{ type: 'slice', boc: beginCell().storeUint(0, 8).endCell().toBoc() }, { type: 'int', value: 0n }]);
    expect([bits, records]).toEqual([8n, null]);
    const refund = chain.store.accountTransactions(names.alice!).filter((t) => opOf(t.tx.inMessage) === 0x557cea20);
    const valueIn = (m: Message | null | undefined) => (m?.info.type === 'internal' ? m.info.value.coins : undefined);
    // alice's first bid is what reached the item from the collection (her 2 TON less the collection's fees)
    const [start] = chain.store.accountTransactions(item).filter((t) => (t.tx.inMessage?.info.src as Address | undefined)?.equals(collection));
    const firstBid = valueIn(start!.tx.inMessage)!;
    expect(firstBid).toBeGreaterThan(GENESIS_DNS.firstBid - TON / 50n);
    expect(refund.map((t) => valueIn(t.tx.inMessage))).toEqual([firstBid]);
  });

  it('get_sale_data: bob\'s fixed-price sale of item 1 and carol\'s auction of item 2 with dave\'s bid (GetGems layouts)', async () => {
    const listedAt = GENESIS_TIME + 5 * 8;
    const sale = await run(tokens.nftSale, 'get_sale_data');
    expect(sale).toHaveLength(11);
    expect([sale[0], sale[1], sale[2]]).toEqual([0x46495850n, 0n, BigInt(listedAt)]);
    const raws = (l: (Address | undefined)[]) => l.map((a) => a!.toRawString());
    expect(raws([sale[3], sale[4], sale[5]].map(addressIn))).toEqual(raws([names.alice, tokens.nftItems[1], names.bob]));
    expect([sale[6], sale[8], sale[10]]).toEqual([5n * TON, TON / 4n, TON / 4n]);
    expect(raws([sale[7], sale[9]].map(addressIn))).toEqual(raws([names.alice, names.alice]));

    const auc = await run(tokens.nftAuction, 'get_sale_data');
    expect(auc).toHaveLength(20);
    expect([auc[0], auc[1], auc[2]]).toEqual([0x415543n, 0n, BigInt(GENESIS_SALES.auction.endTime)]);
    expect(raws([auc[3], auc[4], auc[5], auc[7]].map(addressIn))).toEqual(raws([names.alice, tokens.nftItems[2], names.carol, names.dave]));
    // last_bid, min_step, fee 5/100, royalty 50/1000, max_bid, min_bid, created_at, last_bid_at, is_canceled
    expect([auc[6], auc[8], auc[10], auc[11], auc[13], auc[14], auc[15], auc[16], auc[17], auc[18], auc[19]]).toEqual([
      2n * TON, TON / 2n, 5n, 100n, 50n, 1000n, 100n * TON, TON, BigInt(listedAt), BigInt(listedAt + 5), 0n,
    ]);
  });

  /** A signed transfer from a genesis wallet, run to the end of its cascade; the hashes of its new transactions. */
  async function send(name: string, messages: Parameters<typeof signedTransfer>[2]): Promise<TxRecord[]> {
    const w = chain.keyedWallets().find((k) => k.name === name)!;
    const { seqno } = await chain.v2.getWalletInformation({ address: w.contract.address });
    const before = chain.store.sealedTransactions().length;
    await chain.v2.sendBoc({ boc: signedTransfer(w, seqno!, messages, Math.floor(Date.now() / 1000) + 60).toBoc() });
    return chain.store.sealedTransactions().slice(before);
  }
  const computeOk = (t: TxRecord) => t.tx.description.type === 'generic' && t.tx.description.computePhase.type === 'vm' && t.tx.description.computePhase.success;
  const at = (txs: TxRecord[], a: Address) => txs.filter((t) => t.account.equals(a));
  const paid = (t: TxRecord, to: Address) =>
    [...t.tx.outMessages.values()].filter((m) => m.info.type === 'internal' && m.info.dest.equals(to)).map((m) => (m.info.type === 'internal' ? m.info.value.coins : 0n));
  const ownerOf = async (item: Address) => addressIn((await run(item, 'get_nft_data'))[3]);

  it('auction: a bid under last + step bounces; a higher one refunds dave; carol cannot cancel with bids; a bid of max_bid wins at once', async () => {
    const bid = (value: bigint) => [internal({ to: tokens.nftAuction, value: value + GENESIS_SALES.bidGas, bounce: true })];
    const low = at(await send('alice', bid(2n * TON + TON / 4n)), tokens.nftAuction);
    expect(low.map(computeOk)).toEqual([false]);
    expect((await run(tokens.nftAuction, 'get_sale_data'))[6]).toBe(2n * TON);

    const higher = at(await send('alice', bid(3n * TON)), tokens.nftAuction);
    expect(higher.map(computeOk)).toEqual([true]);
    expect(paid(higher[0]!, names.dave!)).toEqual([2n * TON]);
    const outbid = await run(tokens.nftAuction, 'get_sale_data');
    expect([outbid[6], addressIn(outbid[7]).toRawString()]).toEqual([3n * TON, names.alice!.toRawString()]);

    const cancel = at(await send('carol', [internal({ to: tokens.nftAuction, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.cancelListing) })]), tokens.nftAuction);
    expect(cancel.map(computeOk)).toEqual([false]);
    const early = at(await send('bob', [internal({ to: tokens.nftAuction, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.finishAuction) })]), tokens.nftAuction);
    expect(early.map(computeOk)).toEqual([false]);

    // bob's 100 TON is max_bid: alice gets her 3 TON back, carol 90 TON, alice 5% fee + 5% royalty, bob the item
    const won = at(await send('bob', bid(100n * TON)), tokens.nftAuction);
    expect(won.map(computeOk)).toEqual([true]);
    expect(paid(won[0]!, names.alice!).sort()).toEqual([3n * TON, 5n * TON, 5n * TON]);
    expect(paid(won[0]!, names.carol!)).toEqual([90n * TON]);
    expect((await ownerOf(tokens.nftItems[2]!)).equals(names.bob!)).toBe(true);
    const done = await run(tokens.nftAuction, 'get_sale_data');
    expect([done[1], done[6], addressIn(done[7]).toRawString(), done[19]]).toEqual([-1n, 100n * TON, names.bob!.toRawString(), 0n]);
  });

  it('fixed-price sale: only bob can cancel it; his cancel hands item 1 back and completes the sale, after which a payment bounces', async () => {
    const cancel = [internal({ to: tokens.nftSale, value: TON / 10n, bounce: true, body: marketOpBody(MarketOp.cancelListing) })];
    expect(at(await send('dave', cancel), tokens.nftSale).map(computeOk)).toEqual([false]);
    expect(at(await send('bob', cancel), tokens.nftSale).map(computeOk)).toEqual([true]);
    expect((await ownerOf(tokens.nftItems[1]!)).equals(names.bob!)).toBe(true);
    expect((await run(tokens.nftSale, 'get_sale_data'))[1]).toBe(-1n);
    const late = at(await send('dave', [internal({ to: tokens.nftSale, value: 6n * TON, bounce: true })]), tokens.nftSale);
    expect(late.map(computeOk)).toEqual([false]);
  });

  it('tokens() describes the same contracts', () => {
    const t = chain.tokens();
    expect(t.jetton.master).toBe(tokens.jettonMaster.toRawString());
    expect(t.jetton).toMatchObject({ name: 'Local Gateway Coin', symbol: 'LGC', decimals: 9 });
    expect(t.jetton.wallets.map((w) => w.owner)).toEqual(['alice', 'bob', 'carol']);
    expect(t.nft_collection.items.map((i) => i.address)).toEqual(tokens.nftItems.map((a) => a.toRawString()));
    expect(t.nft_sales).toEqual([
      { type: 'fixed_price', address: tokens.nftSale.toRawString(), item_index: 1, seller: 'bob' },
      { type: 'auction', address: tokens.nftAuction.toRawString(), item_index: 2, seller: 'carol' },
    ]);
  });
});

describe('getTokenData and /localnet/tokens over the gateway', () => {
  let gw: Gateway;
  let tokens: LocalnetTokens;
  const fr = (raw: string) => Address.parseRaw(raw).toString();

  beforeAll(async () => {
    gw = await startTestGateway();
    const res = await fetch(`${gw.url}/localnet/tokens`);
    expect(res.status).toBe(200);
    tokens = (await res.json()) as LocalnetTokens;
  }, 120_000);
  afterAll(() => gw?.close());

  const tokenData = async (raw: string): Promise<TokenData> => {
    const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${encodeURIComponent(fr(raw))}`);
    const body = (await res.json()) as { ok: boolean; result: TokenData };
    expect(res.status).toBe(200);
    expect(body.ok).toBe(true);
    return body.result;
  };

  it('/localnet/tokens lists the genesis contracts of the gateway chain', () => {
    expect(tokens).toEqual(gw.chain!.tokens());
    expect(tokens.jetton.wallets).toHaveLength(3);
    expect(tokens.nft_collection.items.map((i) => i.index)).toEqual([0, 1, 2]);
  });

  it('jetton_master', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    expect(await tokenData(tokens.jetton.master)).toEqual({
      '@type': 'ext.tokens.jettonMasterData',
      contract_type: 'jetton_master',
      address: fr(tokens.jetton.master),
      total_supply: (1_240_000n * LGC).toString(),
      mintable: true,
      admin_address: alice.toString(),
      jetton_content: {
        type: 'onchain',
        data: { name: 'Local Gateway Coin', symbol: 'LGC', decimals: '9', description: 'The jetton minted at the genesis of the local chain' },
      },
      jetton_wallet_code: jettonWalletCode.toBoc({ idx: false, crc32: true }).toString('base64'),
    });
  });

  it('jetton_wallet', async () => {
    const carol = tokens.jetton.wallets.find((w) => w.owner === 'carol')!;
    expect(await tokenData(carol.address)).toEqual({
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      address: fr(carol.address),
      balance: (1_500n * LGC).toString(),
      owner: fr(carol.owner_address),
      jetton: fr(tokens.jetton.master),
      jetton_wallet_code: jettonWalletCode.toBoc({ idx: false, crc32: true }).toString('base64'),
    });
  });

  it('nft_collection', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    expect(await tokenData(tokens.nft_collection.address)).toEqual({
      '@type': 'ext.tokens.nftCollectionData',
      contract_type: 'nft_collection',
      address: fr(tokens.nft_collection.address),
      next_item_index: '3',
      owner_address: alice.toString(),
      collection_content: { type: 'onchain', data: { name: 'Local Gateway Art', description: 'Pictures minted at the genesis of the local chain' } },
    });
  });

  it('nft_item (item 0, now dave\'s)', async () => {
    const dave = gw.chain!.keyedWallets()[3]!.contract.address;
    const item = tokens.nft_collection.items[0]!;
    expect(await tokenData(item.address)).toEqual({
      '@type': 'ext.tokens.nftItemData',
      contract_type: 'nft_item',
      address: fr(item.address),
      init: true,
      index: '0',
      collection_address: fr(tokens.nft_collection.address),
      owner_address: dave.toString(),
      content: { type: 'onchain', data: { name: 'Local Gateway Art #0', description: 'Item 0 of Local Gateway Art' } },
    });
  });

  it('a counterfeit jetton wallet or NFT item is refused: 409 when its master or collection disowns it', async () => {
    const alice = gw.chain!.keyedWallets()[0]!;
    const master = Address.parseRaw(tokens.jetton.master);
    const collection = Address.parseRaw(tokens.nft_collection.address);
    // a jetton wallet whose data names another wallet code, and an item initialised in its StateInit
    const fakeWallet = { code: jettonWalletCode, data: jettonWalletData({ balance: 10n ** 18n, owner: alice.contract.address, master, walletCode: nftItemCode }) };
    const fakeItem = {
      code: nftItemCode,
      data: beginCell().storeUint(0, 64).storeAddress(collection).storeAddress(alice.contract.address).storeRef(Cell.EMPTY).endCell(),
    };
    const { seqno } = await gw.chain!.v2.getWalletInformation({ address: alice.contract.address });
    const deploy = (init: { code: Cell; data: Cell }) => internal({ to: contractAddress(0, init), value: LGC / 10n, bounce: false, init });
    const boc = signedTransfer(alice, seqno!, [deploy(fakeWallet), deploy(fakeItem)], Math.floor(Date.now() / 1000) + 60);
    await gw.chain!.v2.sendBoc({ boc: boc.toBoc() });

    for (const [init, error] of [
      [fakeWallet, 'Verification on master failed'],
      [fakeItem, 'Verification on collection failed'],
    ] as const) {
      const address = contractAddress(0, init);
      expect((await gw.chain!.v2.getAddressState({ address })) as string).toBe('active');
      const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${address.toString()}`);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ ok: false, error, code: 409 });
    }
  });

  it('a wallet is still not a token: 409', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${alice.toString()}`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ ok: false, error: `Smart contract ${alice.toString()} is not Jetton or NFT`, code: 409 });
  });
});
