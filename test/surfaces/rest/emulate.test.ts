/**
 * Emulate API v1 over real HTTP on loopback, against a gateway on the local chain (emulate-v1.md): signed v4 and
 * v5r1 TON transfers, a jetton transfer and an NFT transfer are emulated, the chain is shown unchanged, then the
 * same messages are sent and what execution produced is compared with what emulation said; a hash-indexed NFT's
 * index printed exact; metadata for the token contracts a trace deploys; the answers' shape is checked against a
 * schema derived at run time from the 8 recorded toncenter answers; every error, a body of a content type that is
 * not JSON included, with the reference's text and status; the 256-transaction and depth-32 limits on contracts
 * compiled here.
 */
import { compileFunc } from '@ton-community/func-js';
import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, Cell, contractAddress, internal, type StateInit } from '@ton/core';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulationResult } from '../../../src/api/emulate.js';
import type { Gateway } from '../../../src/gateway.js';
import { rawUpper } from '../../../src/model/address.js';
import { detectWallet } from '../../../src/model/wallet.js';
import { storedIndex } from '../../../src/model/v3/actions/block.js';
import {
  commentPayload,
  dnsAuctionStartBody,
  dnsCollectionInit,
  dnsItemAddress,
  jettonMinterInit,
  jettonTransferBody,
  jettonWalletAddress,
  nftCollectionInit,
  nftDeployBody,
  nftItemAddress,
  nftTransferBody,
  onchainContent,
} from '../../../src/sources/localnet/chain/contracts/index.js';
import { genesisTokens, signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import type { KeyedWallet, LocalChain } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { startUpstreamGateway } from '../../sources/upstream/helpers.js';
import { actionFacts, emulatedTxs, jettonTransfer, printedAsEmulated, txFacts } from '../../helpers/emulate.js';
import { fixturePath, readSharedJson, withoutShared } from '../../helpers/shared.js';
import { waitFor } from '../../helpers/wait.js';

const TON = 1_000_000_000n;
type Json = any;

describe('Emulate API v1 on the local chain', () => {
  let gw: Gateway;
  let chain: LocalChain;
  let w: Record<'alice' | 'bob' | 'carol' | 'dave', KeyedWallet>;

  beforeAll(async () => {
    // the 256-transaction trace needs more than toncenter's 3 s on a loaded test machine
    gw = await startTestGateway({ blockInterval: 0, seed: 'emulate', emulateTimeoutMs: 60_000 });
    chain = gw.chain!;
    const [alice, bob, carol, dave] = chain.keyedWallets();
    w = { alice: alice!, bob: bob!, carol: carol!, dave: dave! };
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  const post = async (route: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json; headers: Headers }> => {
    const res = await fetch(`${gw.url}/api/emulate/v1/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), headers: res.headers };
  };

  const stateOf = (a: Address) => chain.store.accountState(a, chain.store.lastMc.seqno)?.shardAccount ?? null;
  const balanceOf = (a: Address) => stateOf(a)?.account?.storage.balance.coins ?? 0n;
  const seqnoOf = (k: KeyedWallet): number => {
    const st = stateOf(k.contract.address)!.account!.storage.state;
    if (st.type !== 'active') throw new Error('wallet not active');
    return detectWallet(st.state.code, st.state.data)!.seqno;
  };
  const transfer = (from: KeyedWallet, ...messages: Parameters<typeof internal>[0][]): string =>
    signedTransfer(from, seqnoOf(from), messages.map((m) => internal(m)), Math.floor(Date.now() / 1000) + 120)
      .toBoc()
      .toString('base64');

  /** What must not move when a message is only emulated. */
  const chainFacts = (accounts: Address[]) => ({
    seqno: chain.store.lastMc.seqno,
    pending: chain.store.pending.length,
    lt: chain.store.lastMc.endLt,
    balances: accounts.map((a) => balanceOf(a).toString()),
  });

  const facts = txFacts;

  /** Emulates `boc`, checks the chain did not move, sends it, and compares execution with the emulation. */
  async function emulateThenSend(boc: string, watch: Address[]): Promise<{ emulated: Json; seam: EmulationResult }> {
    // storage fees (and so an excess carried with mode 64) depend on the second a transaction runs at: start at the
    // beginning of a second, so that emulation and execution usually share it
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    const before = chainFacts(watch);
    const beforeStates = new Map<string, bigint>();
    const r = await post('emulateTrace', { boc, with_actions: true, include_address_book: true, include_metadata: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('server-timing')).toMatch(/^app;dur=/);
    const seam = await chain.emulate.emulateTrace({ boc, with_actions: true });
    expect(chainFacts(watch)).toEqual(before);
    expect(r.body.mc_block_seqno).toBe(before.seqno);
    expect(r.body.is_incomplete).toBe(false);

    const txs = emulatedTxs(r.body);
    for (const t of txs) {
      expect(t.emulated).toBe(true);
      expect(t.finality).toBe('pending');
      expect(t.mc_block_seqno).toBe(before.seqno + 1);
      const a = Address.parseRaw(t.account);
      if (!beforeStates.has(t.account)) beforeStates.set(t.account, balanceOf(a));
    }

    const sent = await fetch(`${gw.url}/api/v2/sendBocReturnHash`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
    const hash = ((await sent.json()) as Json).result.hash as string;
    const tr = await fetch(`${gw.url}/api/v3/traces?msg_hash=${encodeURIComponent(hash)}&include_actions=true`);
    const trace = ((await tr.json()) as Json).traces[0];
    const executed = (trace.transactions_order as string[]).map((h) => trace.transactions[h]);
    const storage = (list: Json[], acc: string) => list.filter((t) => t.account === acc).reduce<bigint>((s, t) => s + BigInt(t.description.storage_ph?.storage_fees_collected ?? 0), 0n);
    if (txs.every((t, i) => t.now === executed[i]?.now)) {
      expect(txs.map(facts)).toEqual(executed.map(facts));
      expect(actionFacts(r.body.actions)).toEqual(actionFacts(printedAsEmulated(trace.actions)));
    } else {
      // another second (a loaded machine): every fact but the values equal, each value within the storage fees'
      // difference over the trace
      const slack = [...new Set(executed.map((t) => t.account as string))].reduce((sum, a) => {
        const d = storage(executed, a) - storage(txs, a);
        return sum + (d < 0n ? -d : d) + 1n;
      }, 0n);
      const valueless = (f: ReturnType<typeof facts>) => ({ ...f, in: f.in && { ...f.in, value: null }, out: f.out.map((m: Json) => ({ ...m, value: null })) });
      expect(txs.map(facts).map(valueless)).toEqual(executed.map(facts).map(valueless));
      const values = (list: Json[]) => list.flatMap((t) => [t.in_msg?.value ?? '0', ...t.out_msgs.map((m: Json) => m.value)]).map((v: string) => BigInt(v));
      const [ev, xv] = [values(txs), values(executed)];
      ev.forEach((v, i) => expect(v - xv[i]! <= slack && xv[i]! - v <= slack, `value ${i}: emulated ${v}, executed ${xv[i]}`).toBe(true));
      expect(actionFacts(r.body.actions).map((a) => a.type)).toEqual(actionFacts(trace.actions).map((a) => a.type));
    }
    expect(r.body.actions.length).toBeGreaterThan(0);

    // balance changes: TON per account (storage fees depend on the second it ran at, so they are set apart) and jettons
    const seamTxs = emulatedTxs(seam.response);
    for (const c of await seam.balanceChanges()) {
      const was = beforeStates.get(c.account);
      if (was === undefined) continue;
      const delta = balanceOf(Address.parseRaw(c.account)) - was;
      // equal but for the storage fee of the second each ran at (which the reported fee shows to within a nanoton
      // of rounding); the seam's emulation is the one whose balance changes these are
      const off = BigInt(c.ton) - delta - (storage(executed, c.account) - storage(seamTxs, c.account));
      expect(off >= -1n && off <= 1n, `${c.account}: emulated ${c.ton}, executed ${delta}`).toBe(true);
    }
    return { emulated: r.body, seam };
  }

  it('a v4 TON transfer: what emulation shows is what execution does, and emulation changes nothing', async () => {
    const to = w.bob.contract.address;
    const { emulated, seam } = await emulateThenSend(transfer(w.alice, { to, value: TON, bounce: false, body: 'hi bob' }), [w.alice.contract.address, to]);
    expect(emulated.actions.map((a: Json) => a.type)).toContain('ton_transfer');
    expect(seam.sender).toBe(rawUpper(w.alice.contract.address));
    expect(BigInt(seam.senderFees)).toBeGreaterThan(0n);
    // the seam's own emulation (REST's ran at another second, so its storage fees may differ)
    const bobTx = emulatedTxs(seam.response).find((t) => t.account === rawUpper(to));
    const bobChange = BigInt(bobTx.account_state_after.balance) - BigInt(bobTx.account_state_before.balance);
    expect((await seam.balanceChanges()).find((c) => c.account === rawUpper(to))?.ton).toBe(bobChange.toString());
    expect(bobChange).toBeGreaterThan(TON - BigInt(bobTx.total_fees) - 10n);
    expect(emulated.address_book[rawUpper(to)].user_friendly).toMatch(/^[A-Za-z0-9_-]{48}$/);
  }, 60_000);

  it('a v5r1 TON transfer', async () => {
    const to = w.dave.contract.address;
    const { emulated } = await emulateThenSend(transfer(w.carol, { to, value: TON / 2n, bounce: false }), [w.carol.contract.address, to]);
    expect(emulated.actions.map((a: Json) => a.type)).toContain('ton_transfer');
  }, 60_000);

  it('a jetton transfer, with the jetton balance changes of both owners', async () => {
    const amount = 7n * TON;
    const { tokens, wallet: aliceJw, message } = jettonTransfer(chain, w.alice, w.dave, amount, 'lgc for dave');
    const { emulated, seam } = await emulateThenSend(transfer(w.alice, message), [w.alice.contract.address, aliceJw]);
    expect(emulated.actions.map((a: Json) => a.type)).toContain('jetton_transfer');
    const changes = await seam.balanceChanges();
    const jettonOf = (owner: Address) => changes.find((c) => c.account === rawUpper(owner))?.jettons[0];
    expect(jettonOf(w.alice.contract.address)).toEqual({ jetton: rawUpper(tokens.jettonMaster), wallet: rawUpper(aliceJw), amount: (-amount).toString() });
    expect(jettonOf(w.dave.contract.address)?.amount).toBe(amount.toString());
    // a jetton wallet deployed by the trace has its code and data in the answer
    expect(Object.keys(emulated.code_cells).length).toBeGreaterThan(0);
  }, 60_000);

  it('an NFT transfer', async () => {
    // item 0 is dave's (bob's item 1 and carol's item 2 are listed on sale and at auction since genesis)
    const tokens = genesisTokens(chain.keyedWallets());
    const item = tokens.nftItems[0]!;
    const body = nftTransferBody({ queryId: 4n, newOwner: w.carol.contract.address, responseDestination: w.dave.contract.address, forwardAmount: 1n });
    const { emulated } = await emulateThenSend(transfer(w.dave, { to: item, value: TON / 10n, bounce: true, body }), [w.dave.contract.address, item]);
    expect(emulated.actions.map((a: Json) => a.type)).toContain('nft_transfer');
  }, 60_000);

  const gql = async (query: string, variables: Record<string, unknown>): Promise<Json> => {
    const res = await fetch(`${gw.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return res.json();
  };

  /** Sends `boc` to the chain and waits until it is sealed. */
  const sendSealed = async (boc: string): Promise<void> => {
    const res = await fetch(`${gw.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
    expect(res.status).toBe(200);
    await waitFor(async () => (chain.store.pending.length === 0 ? true : undefined), 30_000, 20);
  };

  it("an NFT item's index as the item holds it, however large (a domain's, 256 bits), where /traces prints the double it is stored as", async () => {
    // a .ton-style collection whose auctions last a second: alice opens one, and once it is over she owns the item
    const dns = dnsCollectionInit({ content: onchainContent({ name: 'Emulate DNS' }), auctionDuration: 1 });
    const name = 'emulated';
    const item = dnsItemAddress(contractAddress(0, dns), name);
    await sendSealed(transfer(w.alice, { to: contractAddress(0, dns), value: 2n * TON, bounce: false, init: dns, body: dnsAuctionStartBody(name) }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await sendSealed(transfer(w.alice, { to: item, value: TON / 10n, bounce: true }));
    const index = BigInt(`0x${sha256_sync(name).toString('hex')}`).toString();
    // a double cannot hold it: the rounded index differs, so this test tells the two prints apart
    expect(storedIndex(index)).not.toBe(index);

    const body = nftTransferBody({ queryId: 8n, newOwner: w.bob.contract.address, responseDestination: w.alice.contract.address, forwardAmount: 1n });
    const boc = transfer(w.alice, { to: item, value: TON / 10n, bounce: true, body });
    const r = await post('emulateTrace', { boc, with_actions: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const nft = r.body.actions.find((a: Json) => a.type === 'nft_transfer');
    expect(nft.details).toMatchObject({ nft_item: rawUpper(item), nft_item_index: index, new_owner: rawUpper(w.bob.contract.address) });
    const graph = await gql(`query($boc: Boc!) { emulate(boc: $boc) { actions { type details { ... on NftTransferDetails { index } } } } }`, { boc });
    expect(graph.errors).toBeUndefined();
    expect(graph.data.emulate.actions.find((a: Json) => a.type === 'nft_transfer').details.index).toBe(index);

    // sent, the same transfer is stored, and /traces prints the stored double
    await sendSealed(boc);
    const hash = Cell.fromBase64(boc).hash().toString('base64');
    const trace = ((await (await fetch(`${gw.url}/api/v3/traces?msg_hash=${encodeURIComponent(hash)}&include_actions=true`)).json()) as Json).traces[0];
    expect(trace.actions.find((a: Json) => a.type === 'nft_transfer').details.nft_item_index).toBe(storedIndex(index));
  }, 60_000);

  it('metadata for the jetton master, NFT collection and NFT item the trace deploys, as toncenter adds them; none for a jetton wallet', async () => {
    const tokens = genesisTokens(chain.keyedWallets());
    const alice = w.alice.contract.address;
    const aliceJw = tokens.jettonWallets.find((j) => j.owner.equals(alice))!.address;
    // an owner with no jetton wallet yet: the transfer deploys it
    const fresh = new Address(0, Buffer.alloc(32, 0x5a));
    const freshJw = jettonWalletAddress(fresh, tokens.jettonMaster);
    // "website" is no key toncenter reads: dropped
    const minter = jettonMinterInit({
      admin: alice,
      content: onchainContent({ name: 'Emulated Jetton', symbol: 'EMU', decimals: '6', description: 'never sent', image: 'https://example.org/emu.png', render_type: 'currency', website: 'https://example.org' }),
    });
    const collection = nftCollectionInit({
      owner: alice,
      collectionContent: onchainContent({ name: 'Emulated Art', description: 'a collection only emulated' }),
      commonContent: 'https://example.org/items/',
      royalty: { numerator: 1, denominator: 100, destination: alice },
    });
    const listed = (await (await fetch(`${gw.url}/api/v3/nft/collections?collection_address=${rawUpper(tokens.nftCollection)}`)).json()) as Json;
    const next = BigInt(listed.nft_collections[0].next_item_index);
    const item = nftItemAddress(tokens.nftCollection, next);
    const mint = nftDeployBody({ index: next, amount: TON / 20n, owner: w.bob.contract.address, content: onchainContent({ name: 'Emulated item', description: 'minted in an emulation', image: 'https://example.org/e.png' }) });
    const boc = transfer(
      w.alice,
      { to: contractAddress(0, minter), value: TON / 10n, bounce: false, init: minter },
      { to: contractAddress(0, collection), value: TON / 10n, bounce: false, init: collection },
      { to: tokens.nftCollection, value: TON / 5n, bounce: true, body: mint },
      { to: aliceJw, value: TON / 5n, bounce: true, body: jettonTransferBody({ queryId: 3n, amount: TON, destination: fresh, responseDestination: alice, forwardTonAmount: 1n }) },
    );
    const r = await post('emulateTrace', { boc, with_actions: true, include_metadata: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const deployed = (a: Address) => emulatedTxs(r.body).some((t) => t.account === rawUpper(a) && t.orig_status !== 'active' && t.end_status === 'active');
    for (const a of [contractAddress(0, minter), contractAddress(0, collection), item, freshJw]) expect(deployed(a), rawUpper(a)).toBe(true);

    // member for member and in the converter's order (its JSON is a Go struct's): is_indexed false, the content alone
    const entry = (a: Address) => JSON.stringify(r.body.metadata[rawUpper(a)]);
    expect(entry(contractAddress(0, minter))).toBe(
      JSON.stringify({
        is_indexed: false,
        token_info: [{ type: 'jetton_masters', name: 'Emulated Jetton', symbol: 'EMU', description: 'never sent', image: 'https://example.org/emu.png', extra: { decimals: '6', render_type: 'currency' } }],
      }),
    );
    expect(entry(contractAddress(0, collection))).toBe(JSON.stringify({ is_indexed: false, token_info: [{ type: 'nft_collections', name: 'Emulated Art', description: 'a collection only emulated' }] }));
    expect(entry(item)).toBe(JSON.stringify({ is_indexed: false, token_info: [{ type: 'nft_items', name: 'Emulated item', description: 'minted in an emulation', image: 'https://example.org/e.png' }] }));
    // toncenter detects a jetton wallet but adds no metadata for it; what the index knows is the index's
    expect(r.body.metadata[rawUpper(freshJw)]).toBeUndefined();
    expect(r.body.metadata[rawUpper(tokens.jettonMaster)]?.is_indexed).toBe(true);
    expect(r.body.metadata[rawUpper(aliceJw)]?.token_info[0].type).toBe('jetton_wallets');
    // not asked for: none
    expect((await post('emulateTrace', { boc })).body.metadata).toBeUndefined();
  }, 60_000);

  it('TON Connect: a sendTransaction payload from a v4 and a v5r1 wallet is built and emulated', async () => {
    for (const from of [w.alice, w.carol]) {
      const before = chainFacts([from.contract.address]);
      const r = await post('emulateTonConnect', {
        from: from.contract.address.toString({ bounceable: false }),
        messages: [{ address: w.bob.contract.address.toString({ bounceable: false }), amount: '1000000' }, { address: w.dave.contract.address.toRawString(), amount: '2000000', payload: beginCell().storeUint(0, 32).storeStringTail('x').endCell().toBoc().toString('base64') }],
        with_actions: true,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const txs = emulatedTxs(r.body);
      expect(txs[0].account).toBe(rawUpper(from.contract.address));
      expect(txs[0].description.compute_ph.exit_code).toBe(0);
      const outs = txs[0].out_msgs;
      expect(outs.map((m: Json) => [m.destination, m.value, m.bounce])).toEqual([
        [rawUpper(w.bob.contract.address), '1000000', false],
        [rawUpper(w.dave.contract.address), '2000000', true],
      ]);
      expect(chainFacts([from.contract.address])).toEqual(before);
    }
  }, 60_000);

  // ---- the graph ----

  it('the graph: emulate and emulateTonConnect answer an emulated Trace with actions, accounts, balance changes and fees', async () => {
    const tokens = genesisTokens(chain.keyedWallets());
    const aliceJw = tokens.jettonWallets.find((j) => j.owner.equals(w.alice.contract.address))!.address;
    const body = jettonTransferBody({ queryId: 5n, amount: 3n * TON, destination: w.bob.contract.address, responseDestination: w.alice.contract.address, forwardTonAmount: 1n });
    const boc = transfer(w.alice, { to: aliceJw, value: TON / 5n, bounce: true, body });
    const before = chainFacts([w.alice.contract.address, aliceJw]);
    const q = `query($boc: Boc!) { emulate(boc: $boc) {
      emulated fees transactionCount isIncomplete
      actions { type success accounts { address } }
      balanceChanges { account { address } ton jettons { jetton wallet amount } }
      transactions { hash account { address } }
      root { transactionHash children { transactionHash } }
    } }`;
    const r = await gql(q, { boc });
    expect(r.errors).toBeUndefined();
    const t = r.data.emulate;
    expect(t.emulated).toBe(true);
    expect(BigInt(t.fees)).toBeGreaterThan(0n);
    const rest = (await post('emulateTrace', { boc, with_actions: true })).body;
    expect(t.transactionCount).toBe(Object.keys(rest.transactions).length);
    expect(t.actions.map((a: Json) => a.type).sort()).toEqual(rest.actions.map((a: Json) => a.type).sort());
    expect(t.transactions.map((x: Json) => x.account.address)).toEqual(emulatedTxs(rest).map((x) => x.account));
    const alice = t.balanceChanges.find((c: Json) => c.account.address === rawUpper(w.alice.contract.address));
    expect(alice.jettons).toEqual([{ jetton: rawUpper(tokens.jettonMaster), wallet: rawUpper(aliceJw), amount: (-3n * TON).toString() }]);
    expect(BigInt(alice.ton)).toBeLessThan(0n);
    expect(chainFacts([w.alice.contract.address, aliceJw])).toEqual(before);

    const tc = await gql(
      `query($from: Address!, $m: [TonConnectMessage!]!) { emulateTonConnect(from: $from, messages: $m) { emulated transactions { account { address } } balanceChanges { account { address } ton } } }`,
      { from: rawUpper(w.carol.contract.address), m: [{ address: rawUpper(w.bob.contract.address), amount: '5000000' }] },
    );
    expect(tc.errors).toBeUndefined();
    expect(tc.data.emulateTonConnect.transactions.map((x: Json) => x.account.address)).toEqual([rawUpper(w.carol.contract.address), rawUpper(w.bob.contract.address)]);

    const five = await gql(`query($from: Address!, $m: [TonConnectMessage!]!) { emulateTonConnect(from: $from, messages: $m) { emulated } }`, {
      from: rawUpper(w.carol.contract.address),
      m: Array(5).fill({ address: rawUpper(w.bob.contract.address), amount: '1' }),
    });
    expect(five.errors[0].message).toBe('invalid request: messages array cannot contain more than 4 messages');
    expect(five.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const refused = await gql(`query($from: Address!, $m: [TonConnectMessage!]!) { emulateTonConnect(from: $from, messages: $m) { emulated } }`, {
      from: rawUpper(tokens.jettonMaster),
      m: [{ address: rawUpper(w.bob.contract.address), amount: '1' }],
    });
    expect(refused.errors[0]).toMatchObject({ message: 'Account is not a known wallet', extensions: { code: 'EMULATION_FAILED', status: 500 } });
  }, 60_000);

  // ---- upstream mode, in front of this gateway (real HTTP on loopback) ----

  it('upstream mode: --emulate-via-upstream passes both routes and their errors through (emulating against the upstream state: test/sources/upstream/emulate-upstream.test.ts)', async () => {
    const via = await startUpstreamGateway(gw.url, { EMULATE_VIA_UPSTREAM: '1', UPSTREAM_RPS: '0' });
    try {
      const boc = transfer(w.alice, { to: w.bob.contract.address, value: 5n, bounce: false });
      const at = (g: Gateway) => async (route: string, body: unknown) => {
        const res = await fetch(`${g.url}/api/emulate/v1/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-actions-version': 'v1' }, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as Json };
      };
      const sent = via.upstream!.client.stats.sent;
      const forwarded = await at(via)('emulateTrace', { boc, with_actions: true });
      expect(forwarded.status).toBe(200);
      expect(via.upstream!.client.stats.sent).toBe(sent + 1);
      expect(emulatedTxs(forwarded.body).map(facts)).toEqual(emulatedTxs((await post('emulateTrace', { boc })).body).map(facts));
      expect(actionFacts(forwarded.body.actions)).toEqual(actionFacts((await post('emulateTrace', { boc, with_actions: true }, { 'x-actions-version': 'v1' })).body.actions));
      // the upstream's own error, status and text as it gave them
      expect(await at(via)('emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [] })).toEqual({ status: 400, body: { error: 'invalid request: messages array cannot be empty' } });
      const tc = await at(via)('emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [{ address: rawUpper(w.bob.contract.address), amount: '7' }] });
      expect(tc.status).toBe(200);

      // the graph does not forward: it says so
      const graph = await fetch(`${via.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query($b: Boc!) { emulate(boc: $b) { emulated } }', variables: { b: boc } }) });
      expect(((await graph.json()) as Json).errors[0].extensions.status).toBe(501);
    } finally {
      await via.close();
    }
  }, 60_000);

  // ---- limits, on contracts compiled here ----

  async function compiled(sends: number): Promise<Cell> {
    const send = 'send_msg(msg, 1);\n'.repeat(sends);
    const source = `
      builder b_new() asm "NEWC";
      cell b_end(builder b) asm "ENDC";
      builder b_uint(builder b, int x, int len) asm(x b len) "STUX";
      builder b_slice(builder b, slice s) asm "STSLICER";
      builder b_coins(builder b, int x) asm "STVARUINT16";
      slice my_addr() asm "MYADDR";
      () send_msg(cell msg, int mode) impure asm "SENDRAWMSG";
      () recv_internal(int balance, int value, cell in_msg, slice body) impure {
        cell msg = b_new().b_uint(0x10, 6).b_slice(my_addr()).b_coins(10000000).b_uint(0, 107).b_end();
        ${send}
      }`;
    const r = await compileFunc({ targets: ['c.fc'], sources: { 'c.fc': source } });
    if (r.status === 'error') throw new Error(r.message);
    return Cell.fromBase64(r.codeBoc);
  }

  const deployTo = async (sends: number, salt: number): Promise<string> => {
    const init: StateInit = { code: await compiled(sends), data: beginCell().storeUint(salt, 32).endCell() };
    return transfer(w.dave, { to: contractAddress(0, init), value: 50n * TON, bounce: false, init });
  };

  it('a trace past 256 transactions stops there with is_incomplete', async () => {
    const r = await post('emulateTrace', { boc: await deployTo(2, 1) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body.transactions)).toHaveLength(256);
    expect(r.body.is_incomplete).toBe(true);
  }, 60_000);

  it('a trace deeper than 32 levels is cut there silently', async () => {
    const r = await post('emulateTrace', { boc: await deployTo(1, 2) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body.transactions)).toHaveLength(32);
    expect(r.body.is_incomplete).toBe(false);
  }, 60_000);

  // ---- errors ----

  it('answers every bad request with the reference text and status, and a good one right after', async () => {
    const good = transfer(w.alice, { to: w.bob.contract.address, value: 1n, bounce: false });
    // alice's message signed with bob's key: her wallet refuses it (exit code 35) unless signatures are not checked
    const other = { ...w.alice, keyPair: { ...w.alice.keyPair, secretKey: w.bob.keyPair.secretKey } } as KeyedWallet;
    const wrongSig = transfer(other, { to: w.bob.contract.address, value: 1n, bounce: false });
    const master = genesisTokens(chain.keyedWallets()).jettonMaster;
    // an external-in header whose message ends there (no init, no body): the emulation starts on the header, the rest is refused
    const headerOnly = beginCell().storeUint(2, 2).storeUint(0, 2).storeAddress(w.alice.contract.address).storeCoins(0).endCell().toBoc().toString('base64');
    const cases: [string, unknown, number, string | RegExp][] = [
      ['emulateTrace', {}, 400, 'invalid request: boc is required'],
      ['emulateTrace', { boc: 'not base64!' }, 400, 'invalid request: invalid boc: illegal base64 data at input byte 3'],
      ['emulateTrace', { boc: 'AAAA' }, 500, /^Can't deserialize message boc: /],
      ['emulateTrace', { boc: headerOnly }, 500, /^Can't deserialize message boc: /],
      ['emulateTrace', '{"boc":', 400, /^invalid request: /],
      ['emulateTrace', { boc: wrongSig }, 500, 'EmulationExternalNotAccepted: 35'],
      ['emulateTrace', { boc: good, mc_block_seqno: 1_000_000 }, 500, 'mc block seqno is too new'],
      ['emulateTonConnect', { messages: [] }, 400, 'invalid request: from address is required for emulation'],
      ['emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [] }, 400, 'invalid request: messages array cannot be empty'],
      ['emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: Array(5).fill({ address: rawUpper(w.bob.contract.address), amount: '1' }) }, 400, 'invalid request: messages array cannot contain more than 4 messages'],
      ['emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [{}] }, 400, 'invalid request: message at index 0 cannot be empty'],
      ['emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [{ address: rawUpper(w.bob.contract.address) }] }, 400, 'invalid request: amount in message at index 0 cannot be empty'],
      ['emulateTonConnect', { from: rawUpper(w.alice.contract.address), messages: [{ address: rawUpper(w.bob.contract.address), amount: '1', payload: '!!' }] }, 400, /^invalid request: invalid message payload at index 0: /],
      ['emulateTonConnect', { from: rawUpper(master), messages: [{ address: rawUpper(w.bob.contract.address), amount: '1' }] }, 500, 'Account is not a known wallet'],
      ['emulateTonConnect', { from: `0:${'ab'.repeat(32)}`, messages: [{ address: rawUpper(w.bob.contract.address), amount: '1' }] }, 500, 'Account state no code or no data'],
    ];
    for (const [route, body, status, text] of cases) {
      const r = await post(route, body);
      expect([route, body, r.status]).toEqual([route, body, status]);
      expect(Object.keys(r.body)).toEqual(['error']);
      if (typeof text === 'string') expect(r.body.error).toBe(text);
      else expect(r.body.error).toMatch(text);
    }
    // the body must be JSON by its content type, as toncenter's Fiber BodyParser reads it (emulate-v1.md §1): a
    // type it has no decoder for is its 422 Unprocessable Entity, answered as a 400
    const typed = async (route: string, contentType: string | undefined, body: string) => {
      const res = await fetch(`${gw.url}/api/emulate/v1/${route}`, { method: 'POST', ...(contentType ? { headers: { 'content-type': contentType } } : {}), body: Buffer.from(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const unprocessable = { status: 400, body: { error: 'invalid request: Unprocessable Entity' } };
    const json = JSON.stringify({ boc: good });
    for (const type of ['text/plain', 'text/plain; charset=utf-8', undefined, 'application/x-www-form-urlencoded', 'application/json ; charset=utf-8']) {
      expect([type, await typed('emulateTrace', type, json)]).toEqual([type, unprocessable]);
    }
    expect(await typed('emulateTonConnect', 'text/plain', JSON.stringify({ from: rawUpper(w.alice.contract.address), messages: [] }))).toEqual(unprocessable);
    // any type ending in "json", parameters and vendor trees included, is read as JSON
    for (const type of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json', 'text/json']) {
      expect([type, await typed('emulateTrace', type, '{}')]).toEqual([type, { status: 400, body: { error: 'invalid request: boc is required' } }]);
    }
    expect((await typed('emulateTrace', 'application/vnd.api+json', json)).status).toBe(200);
    // an unsigned message passes with ignore_chksig, and the executor answers as before
    expect((await post('emulateTrace', { boc: wrongSig, ignore_chksig: true })).status).toBe(200);
    const after = await post('emulateTrace', { boc: good });
    expect(after.status).toBe(200);
    expect(emulatedTxs(after.body)[0].description.compute_ph.exit_code).toBe(0);
  }, 60_000);

  // ---- shape ----

  it('publishes its OpenAPI document beside the v2 and v3 ones', async () => {
    const doc = (await (await fetch(`${gw.url}/api/emulate/v1/openapi.json`)).json()) as Json;
    expect(Object.keys(doc.paths)).toEqual(['/emulateTrace', '/emulateTonConnect']);
    expect(Object.keys(doc.paths['/emulateTonConnect'].post.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['from', 'messages', 'valid_until', 'with_actions', 'include_code_data', 'include_address_book', 'include_metadata', 'mc_block_seqno']),
    );
  });

  const noShared = withoutShared('the shape of emulate answers against the 8 recorded toncenter answers');
  it.skipIf(noShared)('answers have every member of the recorded answers, with the same types', async () => {
    const dir = fixturePath('mainnet-emulate');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(8);
    const schema = deriveSchema(files.map((f) => readSharedJson(`fixtures/mainnet-emulate/${f}`)));
    const tokens = genesisTokens(chain.keyedWallets());
    const aliceJw = tokens.jettonWallets.find((j) => j.owner.equals(w.alice.contract.address))!.address;
    const body = jettonTransferBody({ queryId: 1n, amount: TON, destination: w.bob.contract.address, responseDestination: w.alice.contract.address, forwardTonAmount: 1n, forwardPayload: commentPayload('x') });
    const r = await post('emulateTrace', { boc: transfer(w.alice, { to: aliceJw, value: TON / 5n, bounce: true, body }), with_actions: true, include_address_book: true, include_metadata: true });
    expect(r.status).toBe(200);
    expect(checkSchema(schema, r.body)).toEqual([]);
  }, 60_000);
});

// ---- a schema derived from recorded answers: per path, the types seen and the members every object there has ----

interface Schema {
  types: Map<string, Set<string>>;
  required: Map<string, Set<string>>;
}
/** maps whose keys are hashes or addresses */
const MAPS = new Set(['transactions', 'code_cells', 'data_cells', 'address_book', 'metadata']);
const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const child = (path: string, key: string): string => (MAPS.has(path) ? `${path}.*` : path === '' ? key : `${path}.${key}`);

function walk(v: unknown, path: string, visit: (path: string, v: unknown) => void): void {
  visit(path, v);
  if (Array.isArray(v)) for (const x of v) walk(x, `${path}[]`, visit);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, child(path, k), visit);
}

function deriveSchema(answers: unknown[]): Schema {
  const s: Schema = { types: new Map(), required: new Map() };
  for (const a of answers) {
    walk(a, '', (path, v) => {
      if (!s.types.has(path)) s.types.set(path, new Set());
      s.types.get(path)!.add(typeOf(v));
      // only where the members are names (not map keys), and the trace tree's nodes by one path
      if (v && typeof v === 'object' && !Array.isArray(v) && !MAPS.has(path)) {
        const keys = new Set(Object.keys(v));
        const had = s.required.get(path);
        s.required.set(path, had ? new Set([...had].filter((k) => keys.has(k))) : keys);
      }
    });
  }
  return s;
}

function checkSchema(s: Schema, answer: unknown): string[] {
  const problems: string[] = [];
  walk(answer, '', (path, v) => {
    const seen = s.types.get(path);
    // a member recorded only as null says nothing of its type when set
    const onlyNull = seen?.size === 1 && seen.has('null');
    if (seen && !onlyNull && !seen.has(typeOf(v))) problems.push(`${path}: ${typeOf(v)}, recorded ${[...seen].join('|')}`);
    const req = s.required.get(path);
    if (req && v && typeof v === 'object' && !Array.isArray(v)) for (const k of req) if (!(k in v)) problems.push(`${path}: no ${k}`);
  });
  return problems;
}
