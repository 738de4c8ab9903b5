/**
 * Emulation in upstream mode against the network's state (issue 31 item 4), over real HTTP on loopback: a
 * gateway in upstream mode in front of a local-chain gateway emulates with its own executor, loading each account
 * the cascade touches from the upstream at the block asked for. What it answers (transactions' exit codes, out
 * messages, actions, balance changes) equals the local chain's own emulation of the same message at the same
 * block, and the upstream calls it made are counted: one account load per distinct account touched, the header
 * and config once per block, none again for the same message at the same block.
 */
import { Address, contractAddress, internal } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { detectWallet } from '../../../src/model/wallet.js';
import { jettonMinterInit, jettonTransferBody, jettonWalletAddress, nftTransferBody, onchainContent } from '../../../src/sources/localnet/chain/contracts/index.js';
import { genesisTokens, signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import type { KeyedWallet, LocalChain } from '../../../src/sources/localnet/index.js';
import type { UpstreamSource } from '../../../src/sources/upstream/index.js';
import { actionFacts, emulatedTxs, jettonTransfer, txFacts } from '../../helpers/emulate.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { startUpstreamGateway } from './helpers.js';

const TON = 1_000_000_000n;
type Json = any;

let origin: Gateway;
let up: Gateway;
let chain: LocalChain;
let w: Record<'alice' | 'bob' | 'carol' | 'dave', KeyedWallet>;
/** a sealed block below the latest: both gateways run at its own time there, so their answers agree to the nanoton */
let pinned: number;

const stateOf = (a: Address, seqno: number) => chain.store.accountState(a, seqno)?.shardAccount ?? null;
const seqnoOf = (k: KeyedWallet, at: number): number => {
  const st = stateOf(k.contract.address, at)!.account!.storage.state;
  if (st.type !== 'active') throw new Error('wallet not active');
  return detectWallet(st.state.code, st.state.data)!.seqno;
};
const transfer = (from: KeyedWallet, at: number, ...messages: Parameters<typeof internal>[0][]): string =>
  signedTransfer(from, seqnoOf(from, at), messages.map((m) => internal(m)), Math.floor(Date.now() / 1000) + 600)
    .toBoc()
    .toString('base64');

const post = async (g: Gateway, route: string, body: unknown): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${g.url}/api/emulate/v1/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};
const gql = async (g: Gateway, query: string, variables: Record<string, unknown>): Promise<Json> => {
  const res = await fetch(`${g.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return res.json();
};

/** What both emulations must agree on per transaction: the fees and balances too, at the same block's time. */
const facts = (t: Json) => ({ ...txFacts(t), total_fees: t.total_fees, balance_after: t.account_state_after.balance });

const stats = () => (up.sources.v3 as unknown as UpstreamSource).emulating().worlds!.stats();
const byAccount = (list: Json[]) => [...list].sort((a, b) => (a.account.address < b.account.address ? -1 : 1));
const GRAPH = `query($boc: Boc!, $at: Int) { emulate(boc: $boc, atSeqno: $at) {
  emulated fees transactionCount
  actions { type success }
  balanceChanges { account { address } ton jettons { jetton wallet amount } }
  transactions { account { address } }
} }`;

beforeAll(async () => {
  origin = await startTestGateway({ blockInterval: 0, seed: 'emulate-upstream', emulateTimeoutMs: 60_000 });
  chain = origin.chain!;
  const [alice, bob, carol, dave] = chain.keyedWallets();
  w = { alice: alice!, bob: bob!, carol: carol!, dave: dave! };
  // a block past `pinned` that none of the accounts below take part in
  pinned = chain.store.lastMc.seqno;
  const other = signedTransfer(w.carol, seqnoOf(w.carol, pinned), [internal({ to: w.dave.contract.address, value: TON / 100n, bounce: false })], Math.floor(Date.now() / 1000) + 600);
  await fetch(`${origin.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: other.toBoc().toString('base64') }) });
  const until = Date.now() + 30_000;
  while ((chain.store.lastMc.seqno <= pinned || chain.store.pending.length > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(chain.store.lastMc.seqno).toBeGreaterThan(pinned);
  up = await startUpstreamGateway(origin.url, { UPSTREAM_RPS: '0', EMULATE_TIMEOUT_MS: '60000' });
}, 120_000);

afterAll(async () => {
  await up?.close();
  await origin?.close();
});

/** Emulates `boc` at `pinned` through both gateways; the answers agree; returns the upstream-mode answer and the calls it made. */
async function bothAgree(boc: string) {
  const before = stats();
  const r = await post(up, 'emulateTrace', { boc, with_actions: true, include_address_book: true, include_metadata: true, mc_block_seqno: pinned });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const after = stats();
  const own = await post(origin, 'emulateTrace', { boc, with_actions: true, mc_block_seqno: pinned });
  expect(own.status).toBe(200);
  expect(r.body.mc_block_seqno).toBe(pinned);
  expect(emulatedTxs(r.body).map(facts)).toEqual(emulatedTxs(own.body).map(facts));
  expect(actionFacts(r.body.actions)).toEqual(actionFacts(own.body.actions));
  expect(r.body.actions.length).toBeGreaterThan(0);
  // the address book and metadata come from the upstream's v3
  for (const t of emulatedTxs(r.body)) expect(r.body.address_book[t.account].user_friendly).toMatch(/^[A-Za-z0-9_-]{48}$/);

  // balance changes (the graph), equal to the nanoton
  const [g, o] = await Promise.all([gql(up, GRAPH, { boc, at: pinned }), gql(origin, GRAPH, { boc, at: pinned })]);
  expect(g.errors, JSON.stringify(g.errors)).toBeUndefined();
  expect(g.data.emulate.emulated).toBe(true);
  expect(g.data.emulate.balanceChanges.length).toBeGreaterThan(0);
  expect(byAccount(g.data.emulate.balanceChanges)).toEqual(byAccount(o.data.emulate.balanceChanges));
  expect(g.data.emulate.fees).toBe(o.data.emulate.fees);
  const accounts = new Set(emulatedTxs(r.body).map((t) => t.account));
  const delta = (k: keyof (typeof before)['calls']) => after.calls[k] - before.calls[k];
  return { rest: r.body, graph: g.data.emulate, accounts, delta, before, after };
}

describe('Emulate API v1 in upstream mode, against the upstream state', () => {
  it('a v4 TON transfer: the local chain own answer, one account load per account touched, none the second time', async () => {
    const boc = transfer(w.alice, pinned, { to: w.bob.contract.address, value: TON, bounce: false, body: 'hi bob' });
    const first = await bothAgree(boc);
    expect(first.rest.actions.map((a: Json) => a.type)).toContain('ton_transfer');
    expect(first.accounts.size).toBe(2);
    // a new block: its header and config once; each account one getAddressInformation (+ one getTransactions for its last transaction)
    expect(first.delta('getBlockHeader')).toBe(1);
    expect(first.delta('getConfigAll')).toBe(1);
    expect(first.delta('getAddressInformation')).toBe(2);
    expect(first.delta('getTransactions')).toBe(2);

    // the same message at the same block again: no account, header or config call
    const again = await post(up, 'emulateTrace', { boc, with_actions: true, mc_block_seqno: pinned });
    expect(again.status).toBe(200);
    const s = stats();
    expect(s.calls.getAddressInformation).toBe(first.after.calls.getAddressInformation);
    expect(s.calls.getTransactions).toBe(first.after.calls.getTransactions);
    expect(s.calls.getConfigAll).toBe(first.after.calls.getConfigAll);
    expect(s.hits).toBeGreaterThan(first.after.hits);
    expect(emulatedTxs(again.body).map(facts)).toEqual(emulatedTxs(first.rest).map(facts));
  }, 120_000);

  it('a jetton transfer: jetton balance changes of both owners, as the local chain computes them', async () => {
    const amount = 7n * TON;
    const { tokens, wallet: aliceJw, message } = jettonTransfer(chain, w.alice, w.dave, amount, 'for dave');
    const boc = transfer(w.alice, pinned, message);
    const r = await bothAgree(boc);
    expect(r.rest.actions.map((a: Json) => a.type)).toContain('jetton_transfer');
    const jettonOf = (owner: Address) => r.graph.balanceChanges.find((c: Json) => c.account.address === owner.toRawString().toUpperCase())?.jettons[0];
    expect(jettonOf(w.alice.contract.address)).toEqual({ jetton: tokens.jettonMaster.toRawString().toUpperCase(), wallet: aliceJw.toRawString().toUpperCase(), amount: (-amount).toString() });
    expect(jettonOf(w.dave.contract.address)?.amount).toBe(amount.toString());
    // alice was loaded by the first test at this block: only the accounts new to it cost calls
    const fresh = [...r.accounts].filter((a) => a !== w.alice.contract.address.toRawString().toUpperCase());
    expect(r.delta('getAddressInformation')).toBeLessThanOrEqual(fresh.length);
    expect(r.delta('getAddressInformation')).toBeGreaterThan(0);
    expect(r.delta('getBlockHeader') + r.delta('getConfigAll')).toBe(0);
  }, 120_000);

  it('a TON Connect payload (TON and a jetton) through REST and the graph: the local chain own actions and balance changes; the wallet is the only account loaded', async () => {
    const amount = 2n * TON;
    const { tokens, wallet: aliceJw, message } = jettonTransfer(chain, w.alice, w.dave, amount, 'tc');
    const friendly = (a: Address) => a.toString({ bounceable: false });
    const messages = [
      { address: friendly(w.bob.contract.address), amount: (TON / 4n).toString() },
      { address: aliceJw.toString(), amount: message.value.toString(), payload: message.body.toBoc().toString('base64') },
    ];
    // a fixed valid_until: both gateways build the same external message
    const request = { from: friendly(w.alice.contract.address), messages, valid_until: Math.floor(Date.now() / 1000) + 600, with_actions: true, mc_block_seqno: pinned };
    const before = stats();
    const r = await post(up, 'emulateTonConnect', request);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = stats();
    const own = await post(origin, 'emulateTonConnect', request);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(r.body.mc_block_seqno).toBe(pinned);
    expect(emulatedTxs(r.body).map(facts)).toEqual(emulatedTxs(own.body).map(facts));
    expect(actionFacts(r.body.actions)).toEqual(actionFacts(own.body.actions));
    expect(r.body.actions.map((a: Json) => a.type).sort()).toEqual(expect.arrayContaining(['jetton_transfer', 'ton_transfer']));
    // every account at `pinned` was loaded by the tests above; the wallet is read at the latest block (as the reference
    // does), which no test opened before: its header and config, and the wallet, once each
    const delta = (k: keyof (typeof before)['calls']) => after.calls[k] - before.calls[k];
    expect(delta('getAddressInformation')).toBe(1);
    expect(delta('getTransactions')).toBe(1);
    expect(delta('getBlockHeader')).toBe(1);
    expect(delta('getConfigAll')).toBe(1);

    const TC = `query($from: Address!, $m: [TonConnectMessage!]!, $until: Int, $at: Int) { emulateTonConnect(from: $from, messages: $m, validUntil: $until, atSeqno: $at) {
      emulated fees actions { type success }
      balanceChanges { account { address } ton jettons { jetton wallet amount } }
    } }`;
    const vars = { from: request.from, m: messages, until: request.valid_until, at: pinned };
    const [g, o] = await Promise.all([gql(up, TC, vars), gql(origin, TC, vars)]);
    expect(g.errors, JSON.stringify(g.errors)).toBeUndefined();
    expect(o.errors, JSON.stringify(o.errors)).toBeUndefined();
    expect(g.data.emulateTonConnect.emulated).toBe(true);
    expect(byAccount(g.data.emulateTonConnect.balanceChanges)).toEqual(byAccount(o.data.emulateTonConnect.balanceChanges));
    expect(g.data.emulateTonConnect.fees).toBe(o.data.emulateTonConnect.fees);
    const change = (owner: Address) => g.data.emulateTonConnect.balanceChanges.find((c: Json) => c.account.address === owner.toRawString().toUpperCase());
    expect(change(w.alice.contract.address).jettons).toEqual([{ jetton: tokens.jettonMaster.toRawString().toUpperCase(), wallet: aliceJw.toRawString().toUpperCase(), amount: (-amount).toString() }]);
    expect(change(w.dave.contract.address).jettons[0].amount).toBe(amount.toString());
    expect(BigInt(change(w.bob.contract.address).ton)).toBe(TON / 4n - BigInt(emulatedTxs(r.body).find((t) => t.account === w.bob.contract.address.toRawString().toUpperCase()).total_fees));
    // the graph's request made no upstream account call: everything was loaded by the REST one
    expect(stats().calls.getAddressInformation).toBe(after.calls.getAddressInformation);
  }, 120_000);

  it("a jetton transfer and an NFT transfer: the classifier's account questions cost no upstream call", async () => {
    const { tokens, wallet: bobJw, message } = jettonTransfer(chain, w.bob, w.dave, 3n * TON, 'jettons for dave');
    const item = tokens.nftItems[1]!;
    const nft = { to: item, value: TON / 10n, bounce: true, body: nftTransferBody({ newOwner: w.carol.contract.address, responseDestination: w.bob.contract.address }) };
    const boc = transfer(w.bob, pinned, message, nft);
    const res = await fetch(`${up.url}/api/emulate/v1/emulateTrace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-upstream-report': '1' },
      body: JSON.stringify({ boc, with_actions: true, mc_block_seqno: pinned }),
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const own = await post(origin, 'emulateTrace', { boc, with_actions: true, mc_block_seqno: pinned });
    expect(actionFacts(body.actions)).toEqual(actionFacts(own.body.actions));

    // what the questions answered: the wallets' master and owners, the item's collection and index
    const raw = (a: Address) => a.toRawString().toUpperCase();
    const jt = body.actions.find((a: Json) => a.type === 'jetton_transfer');
    expect(jt?.details).toMatchObject({ asset: raw(tokens.jettonMaster), sender: raw(w.bob.contract.address), receiver: raw(w.dave.contract.address), sender_jetton_wallet: raw(bobJw) });
    const nt = body.actions.find((a: Json) => a.type === 'nft_transfer');
    expect(nt?.details).toMatchObject({ nft_item: raw(item), nft_collection: raw(tokens.nftCollection), nft_item_index: '1', old_owner: raw(w.bob.contract.address), new_owner: raw(w.carol.contract.address) });

    // they ran as get-methods on the states the emulation loaded: the only upstream calls are the account loads
    // (at most one getAddressInformation per account touched), no jetton, NFT, address book or get-method route
    const report = JSON.parse(res.headers.get('x-upstream-report')!) as { byRoute: Record<string, number> };
    const loads = ['/api/v2/getAddressInformation', '/api/v2/getTransactions', '/api/v2/getLibraries', '/api/v2/getMasterchainInfo'];
    expect(Object.keys(report.byRoute).filter((r) => !loads.includes(r))).toEqual([]);
    const touched = new Set(emulatedTxs(body).map((t) => t.account));
    // each account touched is loaded at most once (the tests before this one may have loaded some at this block)
    expect(report.byRoute['/api/v2/getAddressInformation'] ?? 0).toBeLessThanOrEqual(touched.size);
  }, 120_000);

  it('at the latest block by default, and the upstream mode graph answers a Trace', async () => {
    const latest = chain.store.lastMc.seqno;
    const boc = transfer(w.bob, latest, { to: w.carol.contract.address, value: TON / 10n, bounce: false });
    const r = await post(up, 'emulateTrace', { boc, with_actions: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.mc_block_seqno).toBe(latest);
    const own = await post(origin, 'emulateTrace', { boc, with_actions: true });
    // the latest block runs at the wall clock: the second each ran at may differ, so fees and balances are left out
    const exits = (x: Json) => emulatedTxs(x).map((t) => [t.account, t.description.compute_ph.exit_code, t.out_msgs.map((m: Json) => [m.destination, m.value])]);
    expect(exits(r.body)).toEqual(exits(own.body));
    const g = await gql(up, GRAPH, { boc });
    expect(g.errors, JSON.stringify(g.errors)).toBeUndefined();
    expect(g.data.emulate.transactions.map((t: Json) => t.account.address)).toEqual([w.bob.contract.address, w.carol.contract.address].map((a) => a.toRawString().toUpperCase()));
    // a block too new and bad input: the reference's errors
    expect(await post(up, 'emulateTrace', { boc, mc_block_seqno: latest + 1000 })).toEqual({ status: 500, body: { error: 'mc block seqno is too new' } });
    expect((await post(up, 'emulateTrace', { boc: 'not base64!' })).status).toBe(400);
    // nothing emulated moved the origin chain
    expect(chain.store.lastMc.seqno).toBe(latest);
  }, 120_000);

  it('printed as the reference emulator prints: empty extra currencies null, metadata for the jetton master the trace deploys (none for the jetton wallet), as on the local chain', async () => {
    const tokens = genesisTokens(chain.keyedWallets());
    const alice = w.alice.contract.address;
    const raw = (a: Address) => a.toRawString().toUpperCase();
    const minter = jettonMinterInit({ admin: alice, content: onchainContent({ name: 'Upstream Emulated', symbol: 'UPE', decimals: '9' }) });
    const aliceJw = tokens.jettonWallets.find((j) => j.owner.equals(alice))!.address;
    const fresh = new Address(0, Buffer.alloc(32, 0x6b));
    const boc = transfer(
      w.alice,
      pinned,
      { to: contractAddress(0, minter), value: TON / 10n, bounce: false, init: minter },
      { to: aliceJw, value: TON / 5n, bounce: true, body: jettonTransferBody({ queryId: 2n, amount: TON, destination: fresh, responseDestination: alice, forwardTonAmount: 1n }) },
      { to: w.bob.contract.address, value: TON / 100n, bounce: false },
    );
    const request = { boc, with_actions: true, include_metadata: true, mc_block_seqno: pinned };
    const r = await post(up, 'emulateTrace', request);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const own = await post(origin, 'emulateTrace', request);
    expect(actionFacts(r.body.actions)).toEqual(actionFacts(own.body.actions));
    expect(r.body.actions.find((a: Json) => a.type === 'ton_transfer').details.value_extra_currencies).toBeNull();
    expect(r.body.metadata[raw(contractAddress(0, minter))]).toEqual({ is_indexed: false, token_info: [{ type: 'jetton_masters', name: 'Upstream Emulated', symbol: 'UPE', extra: { decimals: '9' } }] });
    expect(r.body.metadata[raw(jettonWalletAddress(fresh, tokens.jettonMaster))]).toBeUndefined();
    // the rest from the upstream's index: what the local chain's own index says
    expect(r.body.metadata).toEqual(own.body.metadata);
  }, 120_000);
});
