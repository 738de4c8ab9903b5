/**
 * Jettons and NFTs in the graph, over the local chain's genesis tokens (real TEP-74/TEP-62 contracts):
 * the answers agree with the v3 REST routes, owners' holdings batch into one call per level, and the
 * position cursors page without gaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { gql, measuredQuery, rest, startServer, total, type TestServer } from './helpers.js';

let chain: LocalChain;
let server: TestServer;
let wallets: Record<string, string>;

const measured = <T = any>(query: string, variables?: Record<string, unknown>) => measuredQuery<T>(server.url, query, variables);

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-tokens-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  wallets = Object.fromEntries(chain.wallets().map((w) => [w.name, rawUpper(chain.keyedWallets().find((k) => k.name === w.name)!.contract.address)]));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('jettons', () => {
  it('the genesis jetton with its content, supply and wallets, as /jetton/masters and /jetton/wallets say', async () => {
    const master = (await chain.tokens()).jetton.master.toUpperCase();
    const { data } = await measured(
      `query($a: Address!) { jettonMaster(address: $a) {
          address totalSupply mintable admin { address }
          content { name symbol decimals description }
          wallets(first: 10) { nodes { address balance owner { address } jetton { address } } }
        } }`,
      { a: master },
    );
    const m = data.jettonMaster;
    const rows = await rest(server.url, `/jetton/masters?address=${master}`);
    expect(m.address).toBe(rows.jetton_masters[0].address);
    expect(m.totalSupply).toBe(rows.jetton_masters[0].total_supply);
    expect(m.admin.address).toBe(wallets.alice);
    expect(m.content).toMatchObject({ symbol: 'LGC', decimals: 9 });
    expect(typeof m.content.name).toBe('string');
    const viaRest = await rest(server.url, `/jetton/wallets?jetton_address=${master}&limit=10`);
    expect(new Set(m.wallets.nodes.map((w: any) => `${w.address}=${w.balance}`))).toEqual(
      new Set(viaRest.jetton_wallets.map((w: any) => `${w.address}=${w.balance}`)),
    );
    for (const w of m.wallets.nodes) expect(w.jetton.address).toBe(master);
    const sum = m.wallets.nodes.reduce((s: bigint, w: any) => s + BigInt(w.balance), 0n);
    expect(sum).toBe(BigInt(m.totalSupply));
  });

  it("every account's jetton wallets and their master in one call per level", async () => {
    const { data, calls } = await measured(
      `query($a: [Address!]!) { accounts(addresses: $a) {
          address
          jettonWallets { nodes { balance jetton { totalSupply content { symbol } } } }
          nftItems { nodes { index collection { nextItemIndex } } }
        } }`,
      { a: Object.values(wallets) },
    );
    expect(calls).toEqual({ 'v3.jettonWallets': 1, 'v3.jettonMasters': 1, 'v3.nftItems': 1 });
    const byName = Object.fromEntries(Object.entries(wallets).map(([n, a]) => [n, data.accounts.find((x: any) => x.address === a)]));
    for (const name of ['alice', 'bob', 'carol']) {
      expect(byName[name].jettonWallets.nodes).toHaveLength(1);
      expect(byName[name].jettonWallets.nodes[0].jetton.content.symbol).toBe('LGC');
    }
    // genesis: items 0,1,2 minted to alice, bob, carol; item 0 then went to dave
    expect(byName.alice.nftItems.nodes).toHaveLength(0);
    expect(byName.dave.nftItems.nodes.map((i: any) => i.index)).toEqual(['0']);
    expect(total(calls)).toBe(3);
  });

  it('transfers and burns with owners, wallets, transactions and comments', async () => {
    const { data } = await gql(
      server.url,
      `{ jettonTransfers(first: 10) { nodes { amount source { address } destination { address } sourceWallet { owner { address } }
           comment aborted transaction { hash lt } transactionLt } }
         jettonBurns(first: 10) { nodes { amount owner { address } wallet { owner { address } } jetton { content { symbol } } } } }`,
    );
    const rows = await rest(server.url, '/jetton/transfers?limit=10');
    expect(data!.jettonTransfers.nodes.map((t: any) => t.transaction.hash)).toEqual(rows.jetton_transfers.map((t: any) => t.transaction_hash));
    const toCarol = data!.jettonTransfers.nodes.find((t: any) => t.destination.address === wallets.carol);
    expect(toCarol.source.address).toBe(wallets.alice);
    expect(toCarol.sourceWallet.owner.address).toBe(wallets.alice);
    expect(toCarol.transaction.lt).toBe(toCarol.transactionLt);
    expect(toCarol.aborted).toBe(false);
    expect(data!.jettonBurns.nodes.some((b: any) => b.owner.address === wallets.bob && b.wallet.owner.address === wallets.bob)).toBe(true);
  });
});

describe('NFTs', () => {
  it('the collection, its items by index, and the transfer of item 0 to dave', async () => {
    const collection = (await chain.tokens()).nft_collection.address.toUpperCase();
    const { data } = await gql(
      server.url,
      `query($c: Address!) { nftCollection(address: $c) {
          address nextItemIndex owner { address } content { name }
          items(first: 2) { nodes { index owner { address } } pageInfo { hasNextPage endCursor } }
        } }`,
      { c: collection },
    );
    const c = data!.nftCollection;
    expect(c.owner.address).toBe(wallets.alice);
    expect(c.nextItemIndex).toBe('3');
    expect(c.items.nodes.map((i: any) => i.index)).toEqual(['0', '1']);
    expect(c.items.pageInfo.hasNextPage).toBe(true);
    const next = await gql(
      server.url,
      `query($c: Address!, $after: String) { nftCollection(address: $c) { items(first: 2, after: $after) { nodes { index } pageInfo { hasNextPage hasPreviousPage } } } }`,
      { c: collection, after: c.items.pageInfo.endCursor },
    );
    expect(next.data!.nftCollection.items.nodes.map((i: any) => i.index)).toEqual(['2']);
    expect(next.data!.nftCollection.items.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });

    const transfers = await gql(
      server.url,
      `query($d: Address!) { account(address: $d) { nftTransfers(direction: in) { nodes { oldOwner { address } newOwner { address } item { index } collection { address } } } } }`,
      { d: wallets.dave },
    );
    expect(transfers.data!.account.nftTransfers.nodes).toEqual([
      { oldOwner: { address: wallets.alice }, newOwner: { address: wallets.dave }, item: { index: '0' }, collection: { address: collection } },
    ]);
  });

  it('the filters generated from the routes (owner, jetton, admin, item, collection, direction) filter as their wire params', async () => {
    const { jetton, nft_collection } = await chain.tokens();
    const master = jetton.master.toUpperCase();
    const collection = nft_collection.address.toUpperCase();
    const item0 = nft_collection.items[0]!.address.toUpperCase();
    const { data, errors } = await gql(
      server.url,
      `query($alice: Address!, $bob: Address!, $dave: Address!, $m: Address!, $c: Address!, $i: Address!) {
        wallets: jettonWallets(first: 50, owner: $bob, jetton: $m) { nodes { address } }
        masters: jettonMasters(first: 50, admin: $alice) { nodes { address } }
        items: nftItems(first: 50, owner: $dave, collection: $c) { nodes { address } }
        collections: nftCollections(first: 50, owner: $alice) { nodes { address } }
        sent: jettonTransfers(first: 50, owner: $alice, jetton: $m, direction: out) { nodes { transaction { lt } } }
        received: nftTransfers(first: 50, owner: $dave, item: $i, collection: $c, direction: in) { nodes { transaction { lt } } }
      }`,
      { alice: wallets.alice, bob: wallets.bob, dave: wallets.dave, m: master, c: collection, i: item0 },
    );
    expect(errors).toBeUndefined();
    const q = (s: string) => encodeURIComponent(s);
    const viaRest = {
      wallets: (await rest(server.url, `/jetton/wallets?owner_address=${q(wallets.bob!)}&jetton_address=${q(master)}`)).jetton_wallets.map((w: any) => w.address),
      masters: (await rest(server.url, `/jetton/masters?admin_address=${q(wallets.alice!)}`)).jetton_masters.map((w: any) => w.address),
      items: (await rest(server.url, `/nft/items?owner_address=${q(wallets.dave!)}&collection_address=${q(collection)}`)).nft_items.map((w: any) => w.address),
      collections: (await rest(server.url, `/nft/collections?owner_address=${q(wallets.alice!)}`)).nft_collections.map((w: any) => w.address),
      sent: (await rest(server.url, `/jetton/transfers?owner_address=${q(wallets.alice!)}&jetton_master=${q(master)}&direction=out`)).jetton_transfers.map(
        (t: any) => t.transaction_lt,
      ),
      received: (
        await rest(server.url, `/nft/transfers?owner_address=${q(wallets.dave!)}&item_address=${q(item0)}&collection_address=${q(collection)}&direction=in`)
      ).nft_transfers.map((t: any) => t.transaction_lt),
    };
    const got = {
      wallets: data!.wallets.nodes.map((w: any) => w.address),
      masters: data!.masters.nodes.map((w: any) => w.address),
      items: data!.items.nodes.map((w: any) => w.address),
      collections: data!.collections.nodes.map((w: any) => w.address),
      sent: data!.sent.nodes.map((t: any) => t.transaction.lt),
      received: data!.received.nodes.map((t: any) => t.transaction.lt),
    };
    for (const [k, v] of Object.entries(viaRest)) expect(new Set(got[k as keyof typeof got]), k).toEqual(new Set(v));
    // on the genesis tokens each filtered list is one row: bob's jetton wallet, alice's jetton and collection,
    // dave's item 0, alice's jetton transfer out, item 0's transfer to dave
    for (const [k, v] of Object.entries(got)) expect(v, k).toHaveLength(1);
    expect(got.items).toEqual([item0]);
    expect(got.masters).toEqual([master]);
  });

  it('node() resolves token global ids and unknown addresses give null', async () => {
    const collection = (await chain.tokens()).nft_collection.address;
    const res = await gql(
      server.url,
      `query($id: ID!, $none: Address!) { node(id: $id) { id ... on NftCollection { nextItemIndex } } jettonMaster(address: $none) { address } }`,
      { id: `NftCollection:${collection}`, none: wallets.dave },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.node.nextItemIndex).toBe('3');
    expect(res.data!.jettonMaster).toBeNull();
  });
});
