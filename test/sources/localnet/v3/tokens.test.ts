/**
 * The v3 token routes over a real local chain: jetton masters, wallets, transfers and burns, NFT collections,
 * items and transfers, and metadata reflect the genesis token history (genesis.ts), read back from the chain's
 * transactions and get-methods. Then, through a running gateway, a new jetton transfer, NFT transfer and burn sent
 * with @ton/ton's TonClient and wallet wrappers show up in the same routes. The genesis sale and auction answer
 * /nft/sales, include_on_sale and the graph's NftItem.sale, and a purchase from the sale completes it.
 */
import { Address, internal, toNano } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalnetTokens } from '../../../../src/api/localnet.js';
import type { JettonBurnsResponse, JettonTransfersResponse, JettonWalletsResponse } from '../../../../src/api/v3/jettons.js';
import type { GetgemsSaleDetails, NftItemsResponse, NftSalesResponse, NftTransfersResponse } from '../../../../src/api/v3/nfts.js';
import type { Gateway } from '../../../../src/gateway.js';
import { commentPayload, jettonBurnBody, jettonTransferBody, nftTransferBody } from '../../../../src/sources/localnet/chain/contracts/index.js';
import { GENESIS_TIME } from '../../../../src/sources/localnet/chain/chain.js';
import { GENESIS_JETTON, GENESIS_NFT, GENESIS_SALES, genesisTokens } from '../../../../src/sources/localnet/chain/genesis.js';
import { genesisDns } from '../../../../src/sources/localnet/chain/genesis-dns.js';
import { LocalChain } from '../../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../../src/sources/localnet/v3/index.js';
import { type V3Caller, withResolvedPaging } from '../../../../src/api/v3/paging.js';
import { rawUpper } from '../../../../src/model/address.js';
import { assertResponse } from '../../../helpers/openapi.js';
import { assert126 } from '../../../helpers/openapi-126.js';
import { hasShared } from '../../../helpers/shared.js';
import { fetchWallets, startTestGateway, waitFor } from '../../../helpers/gateway.js';

/** Checked against the openapi the route is in: /nft/sales only in 1.2.6 (read from ../shared when it is there). */
const ok = <T>(path: string, body: T): T => {
  if (path !== '/nft/sales') return assertResponse(`/api/v3${path}`, 'get', 200, body, { closed: true });
  if (hasShared) assert126(`/api/v3${path}`, body, { closed: true });
  return body;
};

describe('token index over the genesis history', () => {
  let chain: LocalChain;
  let api: V3Caller;
  let tokens: ReturnType<typeof genesisTokens>;
  const who: Record<string, Address> = {};
  const raw = (a: Address) => rawUpper(a);

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'v3-tokens-test', blockInterval: 0 });
    api = withResolvedPaging(localV3Api(chain));
    tokens = genesisTokens(chain.keyedWallets());
    for (const w of chain.keyedWallets()) who[w.name] = w.contract.address;
  }, 120_000);
  afterAll(async () => {
    await chain?.close();
  });

  const walletOf = (name: string) => tokens.jettonWallets.find((w) => w.name === name)!.address;

  it('jetton/masters: the LGC minter with its on-chain content and the supply minted minus burnt', async () => {
    const r = ok('/jetton/masters', await api.jettonMasters({}));
    expect(r.jetton_masters).toHaveLength(1);
    const m = r.jetton_masters[0]!;
    expect(m.address).toBe(raw(tokens.jettonMaster));
    expect(m.admin_address).toBe(raw(who.alice!));
    expect(m.mintable).toBe(true);
    const J = GENESIS_JETTON;
    expect(BigInt(m.total_supply)).toBe(J.mintedToAlice + J.mintedToBob - J.burntByBob);
    expect(m.jetton_content).toEqual({ name: J.name, symbol: J.symbol, decimals: String(J.decimals), description: J.description });
    expect(m.jetton_wallet_code_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(BigInt(m.last_transaction_lt)).toBeGreaterThan(0n);
    // address_book covers the master and its admin; metadata carries the on-chain content
    expect(Object.keys(r.address_book).sort()).toEqual([m.address, m.admin_address!].sort());
    expect(r.metadata[m.address]).toEqual({
      is_indexed: true,
      token_info: [{ valid: true, type: 'jetton_masters', name: J.name, symbol: J.symbol, description: J.description, extra: { decimals: String(J.decimals) } }],
    });
    // filters: admin_address, address, and an address that is no master
    expect((await api.jettonMasters({ adminAddress: [who.bob!] })).jetton_masters).toEqual([]);
    expect((await api.jettonMasters({ address: [tokens.jettonMaster] })).jetton_masters).toHaveLength(1);
    expect((await api.jettonMasters({ address: [who.alice!] })).jetton_masters).toEqual([]);
  });

  it('jetton/wallets: balances are mint - transfer - burn, read from get_wallet_data', async () => {
    const J = GENESIS_JETTON;
    const r = ok('/jetton/wallets', await api.jettonWallets({}));
    const byOwner = new Map(r.jetton_wallets.map((w) => [w.owner, w]));
    expect(byOwner.get(raw(who.alice!))!.balance).toBe((J.mintedToAlice - J.aliceToCarol).toString());
    expect(byOwner.get(raw(who.bob!))!.balance).toBe((J.mintedToBob - J.burntByBob).toString());
    expect(byOwner.get(raw(who.carol!))!.balance).toBe(J.aliceToCarol.toString());
    for (const name of ['alice', 'bob', 'carol']) {
      const w = byOwner.get(raw(who[name]!))!;
      expect(w.address).toBe(raw(walletOf(name)));
      expect(w.jetton).toBe(raw(tokens.jettonMaster));
    }
    // the wallet's metadata is its owner, master and balance; the master comes along
    const alice = byOwner.get(raw(who.alice!))!;
    expect(r.metadata[alice.address]!.token_info).toEqual([
      { valid: true, type: 'jetton_wallets', extra: { owner: alice.owner, jetton: alice.jetton, balance: alice.balance } },
    ]);
    expect(r.metadata[alice.jetton]!.token_info[0]!.type).toBe('jetton_masters');
    // sort switches the order to balance
    const asc = (await api.jettonWallets({ sort: 'asc' })).jetton_wallets.map((w) => BigInt(w.balance));
    expect(asc).toEqual([...asc].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const desc = (await api.jettonWallets({ sort: 'desc' })).jetton_wallets.map((w) => BigInt(w.balance));
    expect(desc).toEqual([...asc].reverse());
    // owner and jetton filters, exclude_zero_balance, paging
    const bobs = await api.jettonWallets({ ownerAddress: [who.bob!], jettonAddress: [tokens.jettonMaster] });
    expect(bobs.jetton_wallets.map((w) => w.address)).toEqual([raw(walletOf('bob'))]);
    expect((await api.jettonWallets({ ownerAddress: [who.dave!] })).jetton_wallets).toEqual([]);
    expect((await api.jettonWallets({ excludeZeroBalance: true })).jetton_wallets).toHaveLength(3);
    expect((await api.jettonWallets({ limit: 1, offset: 1 })).jetton_wallets).toEqual([r.jetton_wallets[1]]);
  });

  it('jetton/transfers: alice to carol with the forwarded comment, filtered by owner and direction', async () => {
    const J = GENESIS_JETTON;
    const r = ok('/jetton/transfers', await api.jettonTransfers({}));
    expect(r.jetton_transfers).toHaveLength(1);
    const t = r.jetton_transfers[0]!;
    expect(t).toMatchObject({
      query_id: '1',
      source: raw(who.alice!),
      destination: raw(who.carol!),
      amount: J.aliceToCarol.toString(),
      source_wallet: raw(walletOf('alice')),
      jetton_master: raw(tokens.jettonMaster),
      transaction_aborted: false,
      response_destination: raw(who.alice!),
      custom_payload: null,
      forward_ton_amount: toNano('0.01').toString(),
      decoded_forward_payload: { type: 'text_comment', comment: J.transferComment },
    });
    // the transaction is the source wallet's, and trace_id is the trace's root transaction
    const tx = (await api.transactions({ hash: [Buffer.from(t.transaction_hash, 'base64')] })).transactions[0]!;
    expect(tx.account).toBe(t.source_wallet);
    expect(tx.lt).toBe(t.transaction_lt);
    expect(tx.now).toBe(t.transaction_now);
    expect(tx.trace_id).toBe(t.trace_id);
    expect(tx.in_msg!.opcode).toBe('0x0f8a7ea5');
    // direction applies to owner_address: carol receives, alice sends
    expect((await api.jettonTransfers({ ownerAddress: [who.carol!], direction: 'in' })).jetton_transfers).toHaveLength(1);
    expect((await api.jettonTransfers({ ownerAddress: [who.carol!], direction: 'out' })).jetton_transfers).toHaveLength(0);
    expect((await api.jettonTransfers({ ownerAddress: [who.alice!], direction: 'out' })).jetton_transfers).toHaveLength(1);
    expect((await api.jettonTransfers({ ownerAddress: [who.bob!] })).jetton_transfers).toHaveLength(0);
    expect((await api.jettonTransfers({ jettonWallet: [walletOf('alice')], jettonMaster: tokens.jettonMaster })).jetton_transfers).toHaveLength(1);
    expect((await api.jettonTransfers({ jettonMaster: who.bob! })).jetton_transfers).toHaveLength(0);
    const lt = BigInt(t.transaction_lt);
    expect((await api.jettonTransfers({ startLt: lt + 1n })).jetton_transfers).toHaveLength(0);
    expect((await api.jettonTransfers({ endLt: lt, startUtime: t.transaction_now, endUtime: t.transaction_now })).jetton_transfers).toHaveLength(1);
  });

  it('jetton/burns: bob burns with his wallet', async () => {
    const r = ok('/jetton/burns', await api.jettonBurns({}));
    expect(r.jetton_burns).toHaveLength(1);
    expect(r.jetton_burns[0]).toMatchObject({
      query_id: '2',
      owner: raw(who.bob!),
      jetton_wallet: raw(walletOf('bob')),
      jetton_master: raw(tokens.jettonMaster),
      amount: GENESIS_JETTON.burntByBob.toString(),
      transaction_aborted: false,
      response_destination: raw(who.bob!),
    });
    expect((await api.jettonBurns({ ownerAddress: [who.alice!] })).jetton_burns).toEqual([]);
  });

  it('nft/collections and nft/items: three items, item 0 now owned by dave, items 1 and 2 held by a sale and an auction; the DNS collection with its item in auction', async () => {
    const c = ok('/nft/collections', await api.nftCollections({}));
    // the art collection and the .ton-style DNS collection (genesis-dns.ts)
    const dns = genesisDns();
    expect(c.nft_collections.map((x) => x.address).sort()).toEqual([raw(tokens.nftCollection), raw(dns.collection)].sort());
    const coll = c.nft_collections.find((x) => x.address === raw(tokens.nftCollection))!;
    expect(coll).toMatchObject({ address: raw(tokens.nftCollection), owner_address: raw(who.alice!), next_item_index: '3' });
    expect(coll.collection_content).toMatchObject({ name: GENESIS_NFT.name, description: GENESIS_NFT.description });
    expect(c.metadata[coll.address]!.token_info[0]).toMatchObject({ valid: true, type: 'nft_collections', name: GENESIS_NFT.name });
    expect((await api.nftCollections({ ownerAddress: [who.bob!] })).nft_collections).toEqual([]);

    const all = ok('/nft/items', await api.nftItems({}));
    const dnsItem = all.nft_items.find((i) => i.address === raw(dns.item));
    // the item in auction belongs to nobody yet
    expect(dnsItem).toMatchObject({ collection_address: raw(dns.collection), owner_address: null, init: true });
    expect(all.nft_items).toHaveLength(4);
    const r = ok('/nft/items', await api.nftItems({ collectionAddress: [tokens.nftCollection] }));
    expect(r.nft_items.map((i) => i.index)).toEqual(['0', '1', '2']);
    expect(r.nft_items.map((i) => i.address)).toEqual(tokens.nftItems.map(raw));
    expect(r.nft_items.map((i) => i.owner_address)).toEqual([raw(who.dave!), raw(tokens.nftSale), raw(tokens.nftAuction)]);
    for (const i of r.nft_items) {
      expect(i.collection_address).toBe(coll.address);
      expect(i.collection).toEqual(coll);
      expect(i.init).toBe(true);
      expect(r.metadata[i.address]!.token_info[0]).toMatchObject({ type: 'nft_items', nft_index: i.index });
    }
    const listing = ({ on_sale, sale_contract_address, auction_contract_address, real_owner }: (typeof r.nft_items)[number]) => ({ on_sale, sale_contract_address, auction_contract_address, real_owner });
    expect(r.nft_items.map(listing)).toEqual([
      { on_sale: false },
      { on_sale: true, sale_contract_address: raw(tokens.nftSale), real_owner: raw(who.bob!) },
      { on_sale: true, auction_contract_address: raw(tokens.nftAuction), real_owner: raw(who.carol!) },
    ].map((x) => ({ sale_contract_address: undefined, auction_contract_address: undefined, real_owner: undefined, ...x })));
    // filters: owner, collection + index, sort by last transaction
    expect((await api.nftItems({ ownerAddress: [who.dave!] })).nft_items.map((i) => i.index)).toEqual(['0']);
    expect((await api.nftItems({ collectionAddress: [tokens.nftCollection], index: ['1', '2'] })).nft_items.map((i) => i.index)).toEqual(['1', '2']);
    // bob's bid on the DNS item (step 11) came after item 2 was listed (step 8)
    expect((await api.nftItems({ sortByLastTransactionLt: true })).nft_items.map((i) => i.address).slice(0, 2)).toEqual([raw(dns.item), raw(tokens.nftItems[2]!)]);
    expect((await api.nftItems({ address: [tokens.nftItems[2]!] })).nft_items.map((i) => i.index)).toEqual(['2']);
    // include_on_sale matches the seller (real_owner) of a listed item instead of its holder
    expect((await api.nftItems({ ownerAddress: [who.bob!] })).nft_items).toEqual([]);
    expect((await api.nftItems({ ownerAddress: [who.bob!], includeOnSale: true })).nft_items.map((i) => i.index)).toEqual(['1']);
    expect((await api.nftItems({ ownerAddress: [who.carol!, who.dave!], includeOnSale: true })).nft_items.map((i) => i.index).sort()).toEqual(['0', '2']);
    expect((await api.nftItems({ ownerAddress: [tokens.nftSale], includeOnSale: true })).nft_items).toEqual([]);
    expect((await api.nftItems({ ownerAddress: [tokens.nftSale] })).nft_items.map((i) => i.index)).toEqual(['1']);
  });

  it('nft/sales: bob\'s fixed-price sale and carol\'s auction with dave\'s bid, as the reference reads them; other addresses are left out', async () => {
    const r = ok('/nft/sales', await api.nftSales({ address: [tokens.nftAuction, tokens.nftItems[0]!, who.alice!, tokens.nftSale] }));
    expect(r.nft_sales.map((x) => [x.type, x.address])).toEqual([
      ['getgems_sale', raw(tokens.nftSale)],
      ['getgems_auction', raw(tokens.nftAuction)],
    ]);
    const [sale, auction] = r.nft_sales as [(typeof r.nft_sales)[number], (typeof r.nft_sales)[number]];
    const listedAt = GENESIS_TIME + 5 * 8;
    expect(sale).toMatchObject({ nft_address: raw(tokens.nftItems[1]!), nft_owner_address: raw(who.bob!), marketplace_address: raw(who.alice!), created_at: listedAt });
    expect(sale.details).toEqual({
      is_complete: false,
      full_price: GENESIS_SALES.sale.fullPrice.toString(),
      marketplace_fee_address: raw(who.alice!),
      marketplace_fee: GENESIS_SALES.sale.fee.toString(),
      royalty_address: raw(who.alice!),
      royalty_amount: GENESIS_SALES.sale.royalty.toString(),
    });
    expect(sale.nft_item).toMatchObject({ address: raw(tokens.nftItems[1]!), owner_address: raw(tokens.nftSale), on_sale: true, real_owner: raw(who.bob!) });
    const a = GENESIS_SALES.auction;
    expect(auction).toMatchObject({ nft_address: raw(tokens.nftItems[2]!), nft_owner_address: raw(who.carol!), marketplace_address: raw(who.alice!), created_at: listedAt });
    expect(auction.details).toEqual({
      end_flag: false,
      end_time: a.endTime,
      last_bid: GENESIS_SALES.daveBid.toString(),
      last_member: raw(who.dave!),
      min_step: a.minStep.toString(),
      mp_fee_address: raw(who.alice!),
      mp_fee_factor: String(a.feeFactor),
      mp_fee_base: String(a.feeBase),
      royalty_fee_address: raw(who.alice!),
      royalty_fee_factor: String(GENESIS_NFT.royalty.numerator),
      royalty_fee_base: String(GENESIS_NFT.royalty.denominator),
      max_bid: a.maxBid.toString(),
      min_bid: a.minBid.toString(),
      last_bid_at: listedAt + 5,
      is_canceled: false,
    });
    for (const x of r.nft_sales) {
      expect(x.code_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(x.last_transaction_lt).toMatch(/^\d+$/);
    }
    expect(Object.keys(r.address_book)).toEqual(expect.arrayContaining([raw(tokens.nftSale), raw(tokens.nftAuction), raw(who.bob!), raw(who.carol!), raw(who.dave!), raw(who.alice!)]));
  });

  it('nft/transfers: alice gives item 0 to dave with a comment; bob and carol hand items 1 and 2 to their listings', async () => {
    const r = ok('/nft/transfers', await api.nftTransfers({}));
    expect(r.nft_transfers).toHaveLength(3);
    expect(r.nft_transfers.find((x) => x.nft_address === raw(tokens.nftItems[0]!))).toMatchObject({
      query_id: '3',
      nft_address: raw(tokens.nftItems[0]!),
      nft_collection: raw(tokens.nftCollection),
      old_owner: raw(who.alice!),
      new_owner: raw(who.dave!),
      transaction_aborted: false,
      forward_amount: toNano('0.01').toString(),
      decoded_forward_payload: { type: 'text_comment', comment: GENESIS_NFT.transferComment },
    });
    expect((await api.nftTransfers({ ownerAddress: [who.dave!], direction: 'in' })).nft_transfers).toHaveLength(1);
    expect((await api.nftTransfers({ ownerAddress: [who.dave!], direction: 'out' })).nft_transfers).toHaveLength(0);
    const listed = (await api.nftTransfers({ itemAddress: [tokens.nftItems[1]!] })).nft_transfers;
    expect(listed.map((x) => [x.query_id, x.old_owner, x.new_owner])).toEqual([['4', raw(who.bob!), raw(tokens.nftSale)]]);
    expect((await api.nftTransfers({ collectionAddress: tokens.nftCollection })).nft_transfers).toHaveLength(3);
  });

  it('metadata: token contracts only, keyed by raw address; part-1 routes carry it too', async () => {
    const md = await api.addressMetadata({ address: [tokens.jettonMaster.toString(), rawUpper(who.alice!), 'not an address'] });
    expect(Object.keys(md)).toEqual([raw(tokens.jettonMaster)]);
    const states = await api.accountStates({ address: [walletOf('carol'), who.carol!] });
    expect(Object.keys(states.metadata).sort()).toEqual([raw(walletOf('carol')), raw(tokens.jettonMaster)].sort());
    expect((await api.jettonMasters({ noMetadata: true, noAddressBook: true })).metadata).toEqual({});
  });
});

describe('new token transfers sent through the gateway with @ton/ton', () => {
  let gw: Gateway;
  let client: TonClient;
  let t: LocalnetTokens;
  const addr = (s: string) => Address.parseRaw(s);
  const v3 = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${gw.url}/api/v3${path}`);
    expect(res.status).toBe(200);
    return ok(path.split('?')[0]!, (await res.json()) as T);
  };

  beforeAll(async () => {
    gw = await startTestGateway({ blockInterval: 0 });
    client = new TonClient({ endpoint: `${gw.url}/api/v2/jsonRPC` });
    t = (await (await fetch(`${gw.url}/localnet/tokens`)).json()) as LocalnetTokens;
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  /**
   * The trace a token event belongs to, checked to start at the owner's wallet with an external message, and the
   * action of `type` in it (with actions included, as /traces returns them).
   */
  async function actionOf(traceId: string, wallet: Address, type: string, actionTypes?: string): Promise<Record<string, any>> {
    const only = actionTypes ? `&supported_action_types=${actionTypes}` : '';
    const { traces } = await v3<{ traces: any[] }>(`/traces?trace_id=${encodeURIComponent(traceId)}&include_actions=true${only}`);
    expect(traces).toHaveLength(1);
    const root = traces[0].transactions[traces[0].trace.tx_hash];
    expect(root.account).toBe(rawUpper(wallet));
    expect(root.in_msg.source).toBeNull();
    expect(traces[0].external_hash).toBe(root.in_msg.hash);
    const found = (traces[0].actions as any[]).filter((a) => a.type === type);
    expect(found).toHaveLength(1);
    expect(found[0].success).toBe(true);
    return found[0];
  }

  /** Signs and sends one message from a genesis v4 wallet through JSON-RPC (0.2 TON unless told). */
  async function send(name: string, to: Address, body: ReturnType<typeof jettonTransferBody> | undefined, value = toNano('0.2')): Promise<void> {
    const w = (await fetchWallets(gw.url)).find((x) => x.name === name)!;
    const key = await mnemonicToPrivateKey(w.mnemonic);
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }));
    const seqno = await wallet.getSeqno();
    await wallet.sendTransfer({ seqno, secretKey: key.secretKey, messages: [internal({ to, value, bounce: true, ...(body ? { body } : {}) })] });
  }

  const graph = async (query: string): Promise<any> => {
    const res = await fetch(`${gw.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { data?: any; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data;
  };
  const same = (a: string | null | undefined, b: string) => a !== null && a !== undefined && Address.parse(a).equals(Address.parse(b));

  it('the graph reaches the genesis listings from NftItem.sale: the sale of item 1 and the auction of item 2', async () => {
    const owners = Object.fromEntries((await fetchWallets(gw.url)).map((w) => [w.name, w.address]));
    const [, item1, item2] = t.nft_collection.items.map((i) => i.address);
    const data = await graph(`{
      a: nftItem(address: "${item1}") { sale { __typename ... on NftSale { address fullPrice marketplaceFee royaltyAmount isComplete seller { address } marketplace { address } item { index } } } }
      b: nftItem(address: "${item2}") { sale { __typename ... on NftAuction { address endTime finished canceled lastBid minBid maxBid minStep lastBidder { address } seller { address } } } }
      c: nftItem(address: "${t.nft_collection.items[0]!.address}") { sale { __typename } }
    }`);
    const [saleInfo, auctionInfo] = t.nft_sales;
    expect(data.a.sale).toMatchObject({ __typename: 'NftSale', fullPrice: '5000000000', marketplaceFee: '250000000', royaltyAmount: '250000000', isComplete: false, item: { index: '1' } });
    expect(same(data.a.sale.address, saleInfo!.address) && same(data.a.sale.seller.address, owners.bob!) && same(data.a.sale.marketplace.address, owners.alice!)).toBe(true);
    expect(data.b.sale).toMatchObject({ __typename: 'NftAuction', finished: false, canceled: false, lastBid: '2000000000', minBid: '1000000000', maxBid: '100000000000', minStep: '500000000' });
    expect(same(data.b.sale.address, auctionInfo!.address) && same(data.b.sale.seller.address, owners.carol!) && same(data.b.sale.lastBidder.address, owners.dave!)).toBe(true);
    expect(data.c.sale).toBeNull();
  }, 60_000);

  it('alice buys item 1 from bob\'s sale with a signed plain transfer: the item is hers, the sale complete, the trace a getgems purchase', async () => {
    const owners = Object.fromEntries((await fetchWallets(gw.url)).map((w) => [w.name, addr(w.address)]));
    const sale = addr(t.nft_sales.find((x) => x.type === 'fixed_price')!.address);
    const item = addr(t.nft_collection.items[1]!.address);
    const bobsListed = async () => (await v3<NftItemsResponse>(`/nft/items?owner_address=${rawUpper(owners.bob!)}&include_on_sale=true`)).nft_items.map((i) => i.address);
    expect(await bobsListed()).toContain(rawUpper(item));
    await send('alice', sale, undefined, toNano('5.2'));
    const r = await waitFor(async () => {
      const x = await v3<NftSalesResponse>(`/nft/sales?address=${rawUpper(sale)}`);
      return (x.nft_sales[0]?.details as GetgemsSaleDetails | undefined)?.is_complete ? x : undefined;
    });
    expect(r.nft_sales[0]).toMatchObject({ type: 'getgems_sale', nft_address: rawUpper(item), nft_owner_address: rawUpper(owners.bob!) });
    const items = await v3<NftItemsResponse>(`/nft/items?address=${rawUpper(item)}`);
    expect(items.nft_items[0]).toMatchObject({ owner_address: rawUpper(owners.alice!), on_sale: false });
    expect(await bobsListed()).not.toContain(rawUpper(item));
    const transfers = await v3<NftTransfersResponse>(`/nft/transfers?item_address=${rawUpper(item)}&direction=in&owner_address=${rawUpper(owners.alice!)}`);
    expect(transfers.nft_transfers).toHaveLength(1);
    const purchase = {
      nft_item: rawUpper(item),
      nft_item_index: '1',
      old_owner: rawUpper(sale),
      new_owner: rawUpper(owners.alice!),
      is_purchase: true,
      price: GENESIS_SALES.sale.fullPrice.toString(),
      marketplace: 'getgems',
      marketplace_address: rawUpper(owners.alice!),
      real_old_owner: rawUpper(owners.bob!),
    };
    // by default (latest) one nft_purchase holds the transfer and the seller's payout (price less fee and royalty)
    const traceId = transfers.nft_transfers[0]!.trace_id!;
    const bought = await actionOf(traceId, owners.alice!, 'nft_purchase');
    const { fullPrice, fee, royalty } = GENESIS_SALES.sale;
    expect(bought.details).toMatchObject({ ...purchase, payout_amount: (fullPrice - fee - royalty).toString() });
    // a v1 client sees the transfer inside it
    const action = await actionOf(traceId, owners.alice!, 'nft_transfer', 'v1');
    expect(action.details).toMatchObject(purchase);
  }, 60_000);

  it('a jetton transfer from bob to dave appears in /jetton/transfers and moves the balances', async () => {
    const owners = Object.fromEntries((await fetchWallets(gw.url)).map((w) => [w.name, addr(w.address)]));
    const bobWallet = addr(t.jetton.wallets.find((w) => w.owner === 'bob')!.address);
    const before = await v3<JettonWalletsResponse>(`/jetton/wallets?owner_address=${rawUpper(owners.bob!)}`);
    const amount = 777n * 10n ** 9n;
    await send(
      'bob',
      bobWallet,
      jettonTransferBody({ queryId: 42n, amount, destination: owners.dave!, responseDestination: owners.bob!, forwardTonAmount: toNano('0.01'), forwardPayload: commentPayload('for dave') }),
    );
    const r = await waitFor(async () => {
      const x = await v3<JettonTransfersResponse>(`/jetton/transfers?owner_address=${rawUpper(owners.dave!)}&direction=in`);
      return x.jetton_transfers.length ? x : undefined;
    });
    expect(r.jetton_transfers[0]).toMatchObject({
      query_id: '42',
      source: rawUpper(owners.bob!),
      destination: rawUpper(owners.dave!),
      amount: amount.toString(),
      source_wallet: rawUpper(bobWallet),
      decoded_forward_payload: { type: 'text_comment', comment: 'for dave' },
    });
    const dave = await v3<JettonWalletsResponse>(`/jetton/wallets?owner_address=${rawUpper(owners.dave!)}`);
    expect(dave.jetton_wallets.map((w) => w.balance)).toEqual([amount.toString()]);
    const after = await v3<JettonWalletsResponse>(`/jetton/wallets?owner_address=${rawUpper(owners.bob!)}`);
    expect(BigInt(after.jetton_wallets[0]!.balance)).toBe(BigInt(before.jetton_wallets[0]!.balance) - amount);
    // and the trace of bob's external message classifies it as a jetton_transfer
    const action = await actionOf(r.jetton_transfers[0]!.trace_id!, owners.bob!, 'jetton_transfer');
    expect(action.details).toMatchObject({
      asset: rawUpper(addr(t.jetton.master)),
      sender: rawUpper(owners.bob!),
      receiver: rawUpper(owners.dave!),
      sender_jetton_wallet: rawUpper(bobWallet),
      receiver_jetton_wallet: dave.jetton_wallets[0]!.address,
      amount: amount.toString(),
      comment: 'for dave',
      query_id: '42',
    });
  }, 60_000);

  it('a burn by alice appears in /jetton/burns and lowers the total supply', async () => {
    const owners = Object.fromEntries((await fetchWallets(gw.url)).map((w) => [w.name, addr(w.address)]));
    const aliceWallet = addr(t.jetton.wallets.find((w) => w.owner === 'alice')!.address);
    const supply = async () => BigInt((await v3<{ jetton_masters: { total_supply: string }[] }>('/jetton/masters')).jetton_masters[0]!.total_supply);
    const before = await supply();
    const amount = 5n * 10n ** 9n;
    await send('alice', aliceWallet, jettonBurnBody({ queryId: 43n, amount, responseDestination: owners.alice! }));
    const r = await waitFor(async () => {
      const x = await v3<JettonBurnsResponse>(`/jetton/burns?owner_address=${rawUpper(owners.alice!)}`);
      return x.jetton_burns.length ? x : undefined;
    });
    expect(r.jetton_burns[0]).toMatchObject({ query_id: '43', owner: rawUpper(owners.alice!), jetton_wallet: rawUpper(aliceWallet), amount: amount.toString() });
    // the minter learns of the burn one message later
    await waitFor(async () => ((await supply()) === before - amount ? true : undefined));
    const action = await actionOf(r.jetton_burns[0]!.trace_id!, owners.alice!, 'jetton_burn');
    expect(action.details).toMatchObject({ owner: rawUpper(owners.alice!), owner_jetton_wallet: rawUpper(aliceWallet), amount: amount.toString() });
  }, 60_000);

  it('an NFT transfer from alice (item 1, bought above) to carol appears in /nft/transfers and changes the owner', async () => {
    const owners = Object.fromEntries((await fetchWallets(gw.url)).map((w) => [w.name, addr(w.address)]));
    const item = addr(t.nft_collection.items.find((i) => i.index === 1)!.address);
    await send('alice', item, nftTransferBody({ queryId: 44n, newOwner: owners.carol!, responseDestination: owners.alice! }));
    const r = await waitFor(async () => {
      const x = await v3<NftTransfersResponse>(`/nft/transfers?item_address=${rawUpper(item)}&owner_address=${rawUpper(owners.carol!)}&direction=in`);
      return x.nft_transfers.length ? x : undefined;
    });
    expect(r.nft_transfers[0]).toMatchObject({ query_id: '44', old_owner: rawUpper(owners.alice!), new_owner: rawUpper(owners.carol!), forward_payload: null });
    const items = await v3<NftItemsResponse>(`/nft/items?address=${rawUpper(item)}`);
    expect(items.nft_items[0]!.owner_address).toBe(rawUpper(owners.carol!));
    const action = await actionOf(r.nft_transfers[0]!.trace_id!, owners.alice!, 'nft_transfer');
    expect(action.details).toMatchObject({ nft_item: rawUpper(item), nft_item_index: '1', old_owner: rawUpper(owners.alice!), new_owner: rawUpper(owners.carol!), is_purchase: false });
  }, 60_000);
});
