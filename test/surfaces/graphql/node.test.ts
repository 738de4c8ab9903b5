/**
 * `node(id)` and `nodes(ids)` over the local chain for every type implementing Node: each global id the graph
 * hands out resolves to the same object the type's own root field gives, an id of the right form naming nothing
 * is null, and the list of types checked here is the schema's list of Node implementations (a new Node type
 * without a check here fails).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { gql, startServer, type TestServer } from './helpers.js';

let chain: LocalChain;
let server: TestServer;

/** Per Node type: the fields compared, and the object as its own root field (or its parent) gave it. */
const seen = new Map<string, { id: string; fields: Record<string, unknown> }>();

const FIELDS: Record<string, string> = {
  Account: 'address balance status',
  Block: 'workchain shard seqno rootHash',
  JettonMaster: 'address totalSupply',
  JettonWallet: 'address balance',
  Message: 'hash source { address } destination { address }',
  NftCollection: 'address nextItemIndex',
  NftItem: 'address index',
  Trace: 'traceId transactionCount',
  Transaction: 'hash lt',
};

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-node-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  const tokens = await chain.tokens();
  const res = await gql(
    server.url,
    `query($m: Address!, $c: Address!) {
      jettonMaster(address: $m) { id ${FIELDS.JettonMaster} wallets(first: 1) { nodes { id ${FIELDS.JettonWallet} } } }
      nftCollection(address: $c) { id ${FIELDS.NftCollection} items(first: 1) { nodes { id ${FIELDS.NftItem} } } }
      masterchainInfo { last { id ${FIELDS.Block} } }
      transactions(first: 10) {
        nodes { id ${FIELDS.Transaction} inMessage { id ${FIELDS.Message} } account { id ${FIELDS.Account} } trace { id ${FIELDS.Trace} } }
      }
    }`,
    { m: tokens.jetton.master, c: tokens.nft_collection.address },
  );
  expect(res.errors).toBeUndefined();
  const d = res.data;
  const keep = (type: string, o: Record<string, unknown> & { id: string }) => {
    const { id, ...fields } = o;
    for (const k of Object.keys(fields)) if (!FIELDS[type]!.split(/\W+/).includes(k)) delete fields[k];
    seen.set(type, { id, fields });
  };
  keep('JettonMaster', d.jettonMaster);
  keep('JettonWallet', d.jettonMaster.wallets.nodes[0]);
  keep('NftCollection', d.nftCollection);
  keep('NftItem', d.nftCollection.items.nodes[0]);
  keep('Block', d.masterchainInfo.last);
  const tx = d.transactions.nodes.find((t: any) => t.trace && t.inMessage);
  keep('Transaction', tx);
  keep('Message', tx.inMessage);
  keep('Account', tx.account);
  keep('Trace', tx.trace);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('node(id) for every Node type', () => {
  it('the types checked here are exactly the schema’s Node implementations', async () => {
    const res = await gql(server.url, '{ __type(name: "Node") { possibleTypes { name } } }');
    const types = res.data.__type.possibleTypes.map((t: { name: string }) => t.name).sort();
    expect(types).toEqual(Object.keys(FIELDS).sort());
    expect([...seen.keys()].sort()).toEqual(types);
  });

  for (const type of Object.keys(FIELDS)) {
    it(`${type}: node(id) gives the object its own field gave`, async () => {
      const { id, fields } = seen.get(type)!;
      expect(id.startsWith(`${type}:`), id).toBe(true);
      const res = await gql(server.url, `query($id: ID!) { node(id: $id) { __typename id ... on ${type} { ${FIELDS[type]} } } }`, { id });
      expect(res.errors).toBeUndefined();
      expect(res.data.node).toEqual({ __typename: type, id, ...fields });
    });
  }

  it('nodes(ids) resolves all of them in one request, in order', async () => {
    const ids = [...seen.values()].map((s) => s.id);
    const res = await gql(server.url, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual([...seen.entries()].map(([type, s]) => ({ __typename: type, id: s.id })));
  });

  it('an id of the right form that names nothing is null, per type', async () => {
    const nobody = rawUpper(new Address(0, Buffer.alloc(32, 0x5a)));
    const noHash = Buffer.alloc(32, 0x5b).toString('base64');
    const block = seen.get('Block')!.fields as { workchain: number; shard: string; seqno: number };
    const ids = [
      `JettonMaster:${nobody}`,
      `JettonWallet:${nobody}`,
      `NftCollection:${nobody}`,
      `NftItem:${nobody}`,
      `Trace:${noHash}`,
      `Transaction:${noHash}`,
      `Message:${noHash}`,
      `Block:${block.workchain}:${block.shard}:${block.seqno + 1000}`,
    ];
    const res = await gql(server.url, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual(ids.map(() => null));
  });
});
