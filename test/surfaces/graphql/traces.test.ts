/**
 * Traces and actions in the graph over the local chain's genesis (wallet transfers, jetton and NFT
 * operations through real contracts): the answers agree with /traces and /actions, typed details link to
 * accounts and tokens, and a level of transactions costs one trace call and one action call.
 */
import { sha256_sync } from '@ton/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_DNS } from '../../../src/sources/localnet/chain/genesis-dns.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { callsBetween, gql, rest, sourceCalls, startServer, type TestServer } from './helpers.js';

let chain: LocalChain;
let server: TestServer;
let wallets: Record<string, string>;

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-traces-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  wallets = Object.fromEntries(chain.keyedWallets().map((k) => [k.name, rawUpper(k.contract.address)]));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('traces', () => {
  it('a level of transactions reads its traces, with the actions they embed, in one call', async () => {
    const before = await sourceCalls(server.url);
    const res = await gql(
      server.url,
      `query($a: Address!) { account(address: $a) { transactions(first: 20) { nodes {
          hash trace { traceId externalHash state transactionCount transactions { hash } actions { type success } } } } } }`,
      { a: wallets.alice },
    );
    const calls = callsBetween(before, await sourceCalls(server.url));
    expect(res.errors).toBeUndefined();
    expect(calls).toEqual({ 'v3.transactions': 1, 'v3.listTraces': 1 });
    const nodes = res.data!.account.transactions.nodes;
    expect(nodes.length).toBeGreaterThan(3);
    for (const tx of nodes) {
      expect(tx.trace.state).toBe('complete');
      expect(tx.trace.transactions.map((t: any) => t.hash)).toContain(tx.hash);
      expect(tx.trace.transactionCount).toBe(tx.trace.transactions.length);
    }
  });

  it('trace(id) matches /traces: tree, order, external hash', async () => {
    const { traces } = await rest(server.url, `/traces?account=${wallets.alice}&limit=1&sort=desc`);
    const ref = traces[0];
    const res = await gql(
      server.url,
      `query($id: Hash!) { trace(id: $id) { traceId externalHash startLt endLt mcSeqnoEnd
          root { transactionHash transaction { hash account { address } } children { transactionHash children { transactionHash } } }
          transactions { hash lt } } }`,
      { id: ref.trace_id },
    );
    expect(res.errors).toBeUndefined();
    const tr = res.data!.trace;
    expect(tr.traceId).toBe(ref.trace_id);
    expect(tr.externalHash).toBe(ref.external_hash);
    expect(tr.endLt).toBe(ref.end_lt);
    expect(tr.mcSeqnoEnd).toBe(Number(ref.mc_seqno_end));
    expect(tr.transactions.map((t: any) => t.hash)).toEqual(ref.transactions_order);
    expect(tr.root.transactionHash).toBe(ref.trace.tx_hash);
    expect(tr.root.transaction.hash).toBe(ref.trace.tx_hash);
    expect(tr.root.children.map((c: any) => c.transactionHash)).toEqual((ref.trace.children ?? []).map((c: any) => c.tx_hash));
  });

  it('the filters generated from /traces and /actions (transactionHash, messageHash, traceId, excludeTypes) filter as their wire params', async () => {
    const { traces } = await rest(server.url, `/traces?account=${wallets.alice}&limit=1&sort=desc`);
    const ref = traces[0];
    const tx: string = ref.transactions_order.at(-1);
    expect(ref.external_hash).toEqual(expect.any(String));
    const q = encodeURIComponent;
    const all = (await rest(server.url, `/actions?trace_id=${q(ref.trace_id)}`)).actions;
    expect(all.length).toBeGreaterThan(0);
    const excluded: string = all[0].type;
    const res = await gql(
      server.url,
      `query($tx: Hash!, $m: Hash!, $id: Hash!, $a: Address!, $x: [String!]) {
        byTx: traces(first: 5, transactionHash: $tx) { nodes { traceId } }
        byMsg: traces(first: 5, messageHash: $m) { nodes { traceId } }
        inTrace: actions(first: 100, traceId: $id) { nodes { actionId } }
        byActionTx: actions(first: 100, transactionHash: $tx) { nodes { actionId } }
        rest: actions(first: 100, account: $a, excludeTypes: $x) { nodes { actionId type } }
      }`,
      { tx, m: ref.external_hash, id: ref.trace_id, a: wallets.alice, x: [excluded] },
    );
    expect(res.errors).toBeUndefined();
    const d = res.data!;
    expect(d.byTx.nodes).toEqual([{ traceId: ref.trace_id }]);
    expect(d.byMsg.nodes).toEqual([{ traceId: ref.trace_id }]);
    const ids = (nodes: { actionId: string }[]) => new Set(nodes.map((a) => a.actionId));
    const restIds = async (query: string) => new Set((await rest(server.url, `/actions?${query}`)).actions.map((a: any) => a.action_id));
    expect(ids(d.inTrace.nodes)).toEqual(new Set(all.map((a: any) => a.action_id)));
    expect(ids(d.byActionTx.nodes)).toEqual(await restIds(`tx_hash=${q(tx)}`));
    // with an account (a trace_id alone drops the other filters, as in the reference)
    expect(ids(d.rest.nodes)).toEqual(await restIds(`account=${q(wallets.alice!)}&exclude_action_type=${excluded}&limit=100`));
    expect(d.rest.nodes.length).toBeGreaterThan(0);
    const unfiltered = (await rest(server.url, `/actions?account=${q(wallets.alice!)}&limit=100`)).actions.map((x: any) => x.type);
    expect(unfiltered).toContain(excluded);
    expect(d.rest.nodes.map((a: any) => a.type)).not.toContain(excluded);
  });

  it('a transaction hash that is not a trace id gives null', async () => {
    const res = await gql(server.url, `{ trace(id: "${Buffer.alloc(32, 7).toString('base64')}") { traceId } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.trace).toBeNull();
  });
});

describe('actions', () => {
  it('the genesis jetton transfer as typed details linked to accounts, wallets and the jetton', async () => {
    const res = await gql(
      server.url,
      `{ actions(types: ["jetton_transfer"], first: 10) { nodes { type success actionId
          details { __typename ... on JettonTransferDetails { amount comment sender { address } receiver { address }
            senderWallet { owner { address } } receiverWallet { balance } jetton { content { symbol } } } }
          transactions { hash } trace { traceId } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const nodes = res.data!.actions.nodes;
    const toCarol = nodes.find((a: any) => a.details.receiver?.address === wallets.carol);
    expect(toCarol).toBeDefined();
    expect(toCarol.details.__typename).toBe('JettonTransferDetails');
    expect(toCarol.details.sender.address).toBe(wallets.alice);
    expect(toCarol.details.senderWallet.owner.address).toBe(wallets.alice);
    expect(toCarol.details.jetton.content.symbol).toBe('LGC');
    expect(toCarol.success).toBe(true);
    expect(toCarol.transactions.length).toBeGreaterThan(1);

    const viaRest = await rest(server.url, `/actions?action_type=jetton_transfer&limit=10`);
    expect(new Set(nodes.map((a: any) => a.actionId))).toEqual(new Set(viaRest.actions.map((a: any) => a.action_id)));
  });

  it('burns, mints and NFT transfers come typed; the rest as JSON', async () => {
    const res = await gql(
      server.url,
      `{ actions(first: 100) { nodes { type detailsJson details { __typename
          ... on JettonBurnDetails { amount owner { address } }
          ... on NftTransferDetails { newOwner { address } item { index } }
          ... on NftMintDetails { index collection { nextItemIndex } }
          ... on TonTransferDetails { value } } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const nodes = res.data!.actions.nodes as any[];
    const byType = (t: string) => nodes.filter((a) => a.type === t);
    expect(byType('jetton_burn')[0].details).toMatchObject({ __typename: 'JettonBurnDetails', owner: { address: wallets.bob } });
    expect(byType('nft_transfer').some((a) => a.details.newOwner.address === wallets.dave && a.details.item.index === '0')).toBe(true);
    // the three art items and the DNS item of the genesis auction (index sha256("gateway"))
    const dnsIndex = BigInt(`0x${sha256_sync(GENESIS_DNS.domain).toString('hex')}`).toString();
    expect(byType('nft_mint').map((a) => a.details.index).sort()).toEqual(['0', '1', '2', dnsIndex].sort());
    for (const a of nodes) expect(JSON.parse(a.detailsJson)).toBeTypeOf('object');
  });

  it('bad action type names are coded errors', async () => {
    const res = await gql(server.url, `{ actions(types: ["jetton transfer"]) { nodes { type } } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
