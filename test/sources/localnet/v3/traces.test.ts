/**
 * Traces, actions and pending work of localV3Api over a real local chain: genesis cascades as traces consistent
 * with /transactions, the genesis token operations as their actions with the reference's details, the filters,
 * supported types and 404s, and pending work moving to /traces when sealed (never shown by both).
 */
import { Address, beginCell, Cell, internal, toNano } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../src/api/errors.js';
import type { LaterAction as Action } from '../../../../src/api/v3/actions.js';
import type { Trace } from '../../../../src/api/v3/traces.js';
import type { Shared } from '../../../../src/api/shared-answers.js';
import { GENESIS_JETTON, GENESIS_NFT, genesisTokens, signedTransfer } from '../../../../src/sources/localnet/chain/genesis.js';
import { GENESIS_DNS, genesisDns } from '../../../../src/sources/localnet/chain/genesis-dns.js';
import { LocalChain } from '../../../../src/sources/localnet/index.js';
import { indexerOf } from '../../../../src/sources/localnet/indexer/index.js';
import { localV3Api } from '../../../../src/sources/localnet/v3/index.js';
import { type V3Caller, withResolvedPaging } from '../../../../src/api/v3/paging.js';
import { LocalV3Context } from '../../../../src/sources/localnet/v3/v3-context.js';
import { rawUpper } from '../../../../src/model/address.js';
import { assertResponse } from '../../../helpers/openapi.js';

const V3 = '/api/v3';
const ok = <T>(path: string, body: T): T => assertResponse(`${V3}${path}`, 'get', 200, body, { closed: true });

async function rejects(p: Promise<unknown>, status: number, message: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected an ApiError').toBeInstanceOf(ApiError);
  expect((e as ApiError).status).toBe(status);
  expect((e as ApiError).message).toBe(message);
}

const upper = (raw: string) => rawUpper(Address.parseRaw(raw));

let chain: LocalChain;
let api: V3Caller;
let traces: readonly Shared<Trace>[];
let actions: readonly Shared<Action>[];

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'v3-traces-test', blockInterval: 0 });
  api = withResolvedPaging(localV3Api(chain));
  traces = ok('/traces', await api.listTraces({ limit: 1000, sort: 'asc', includeActions: true })).traces;
  actions = ok('/actions', await api.actions({ limit: 1000, sort: 'asc', includeAccounts: true })).actions;
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

const byType = (type: string) => actions.filter((a) => a.type === type);

describe('traces of the genesis cascades', () => {
  it('every sealed transaction is in exactly one trace, rooted at the cascade first transaction', async () => {
    const all = (await api.transactions({ limit: 1000, sort: 'asc' })).transactions;
    const seen = new Map<string, string>();
    for (const t of traces) {
      for (const h of t.transactions_order!) {
        expect(seen.has(h), `${h} in two traces`).toBe(false);
        seen.set(h, t.trace_id!);
      }
    }
    expect(seen.size).toBe(all.length);
    for (const tx of all) expect(seen.get(tx.hash)).toBe(tx.trace_id);
  });

  it('order, tree, counts and bounds agree with the transactions', () => {
    for (const t of traces) {
      const txs = t.transactions_order!.map((h) => t.transactions![h]!);
      expect(Object.keys(t.transactions!).sort()).toEqual([...t.transactions_order!].sort());
      expect(t.trace_id).toBe(txs[0]!.hash);
      expect(t.external_hash).toBe(txs[0]!.in_msg!.hash);
      expect(txs.map((x) => BigInt(x.lt))).toEqual(txs.map((x) => BigInt(x.lt)).sort((a, b) => (a < b ? -1 : 1)));
      expect(t.start_lt).toBe(txs[0]!.lt);
      expect(t.end_lt).toBe(txs[txs.length - 1]!.lt);
      expect(t.mc_seqno_start).toBe(String(txs[0]!.mc_block_seqno));
      expect(t.mc_seqno_end).toBe(String(Math.max(...txs.map((x) => x.mc_block_seqno))));
      expect(t.trace_info).toEqual({
        trace_state: 'complete',
        messages: txs.reduce((n, x) => n + x.out_msgs.length, 0) + 1,
        transactions: txs.length,
        pending_messages: 0,
        classification_state: 'ok',
      });
      expect(t.is_incomplete).toBe(false);
      expect(t.warning).toBeUndefined();
      // the tree holds each transaction once, the root first
      const flat: string[] = [];
      const walk = (n: NonNullable<Shared<Trace>['trace']>): void => {
        flat.push(n.tx_hash);
        expect(n.in_msg_hash).toBe(t.transactions![n.tx_hash]!.in_msg!.hash);
        for (const c of n.children ?? []) walk(c);
      };
      walk(t.trace!);
      expect(flat[0]).toBe(t.trace_id);
      expect(flat.sort()).toEqual([...t.transactions_order!].sort());
      expect(t.transactions![t.trace_id!]!.finality).toBe('finalized');
    }
  });

  it('filters: account, trace_id, tx_hash, msg_hash (raw and normalised), mc_seqno, lt window, sort and paging', async () => {
    const [alice] = chain.keyedWallets();
    const mine = ok('/traces', await api.listTraces({ account: alice!.contract.address, limit: 1000 })).traces;
    expect(mine.length).toBeGreaterThan(3);
    const aliceRaw = rawUpper(alice!.contract.address);
    expect(mine.every((t) => Object.values(t.transactions!).some((x) => x.account === aliceRaw))).toBe(true);
    // default order: end_lt desc
    expect(mine.map((t) => BigInt(t.end_lt!))).toEqual(mine.map((t) => BigInt(t.end_lt!)).sort((a, b) => (a > b ? -1 : 1)));

    const target = traces[traces.length - 2]!;
    const id = Buffer.from(target.trace_id!, 'base64');
    expect((await api.listTraces({ traceId: [id] })).traces.map((t) => t.trace_id)).toEqual([target.trace_id]);
    const lastTx = Buffer.from(target.transactions_order![target.transactions_order!.length - 1]!, 'base64');
    expect((await api.listTraces({ txHash: [lastTx] })).traces.map((t) => t.trace_id)).toEqual([target.trace_id]);
    const rootTx = target.transactions![target.trace_id!]!;
    expect((await api.listTraces({ msgHash: [Buffer.from(rootTx.in_msg!.hash, 'base64')] })).traces.map((t) => t.trace_id)).toEqual([target.trace_id]);
    expect((await api.listTraces({ msgHash: [Buffer.from(rootTx.in_msg!.hash_norm!, 'base64')] })).traces.map((t) => t.trace_id)).toEqual([target.trace_id]);

    const seqno = Number(target.mc_seqno_end);
    const inBlock = (await api.listTraces({ mcSeqno: seqno, limit: 1000 })).traces;
    expect(inBlock.map((t) => t.trace_id)).toContain(target.trace_id);
    expect(inBlock.every((t) => t.mc_seqno_end === String(seqno))).toBe(true);
    await rejects(api.listTraces({ mcSeqno: 999_999 }), 404, 'masterchain block 999999 not found');

    const window = (await api.listTraces({ startLt: BigInt(target.end_lt!), endLt: BigInt(target.end_lt!) })).traces;
    expect(window.map((t) => t.trace_id)).toEqual([target.trace_id]);
    const page1 = (await api.listTraces({ sort: 'asc', limit: 2, offset: 1 })).traces;
    expect(page1.map((t) => t.trace_id)).toEqual(traces.slice(1, 3).map((t) => t.trace_id));
    await rejects(api.listTraces({ limit: 1001 }), 422, 'limit is not allowed: 1001 > 1000');
  });

  it('without include_actions a trace has no actions key; address_book covers its accounts', async () => {
    const r = ok('/traces', await api.listTraces({ limit: 3 }));
    expect(r.traces.every((t) => !('actions' in t))).toBe(true);
    for (const t of r.traces) for (const x of Object.values(t.transactions!)) expect(r.address_book[x.account]).toBeDefined();
    const none = await api.listTraces({ limit: 3, noAddressBook: true, noMetadata: true });
    expect(none.address_book).toEqual({});
    expect(none.metadata).toEqual({});
  });
});

describe('actions of the genesis', () => {
  it('the token operations are classified with the reference details', () => {
    const tokens = chain.tokens();
    const w = Object.fromEntries(chain.keyedWallets().map((k) => [k.name, rawUpper(k.contract.address)]));
    const master = upper(tokens.jetton.master);
    const jw = Object.fromEntries(tokens.jetton.wallets.map((x) => [x.owner, upper(x.address)]));

    const mints = byType('jetton_mint');
    expect(mints.map((a) => a.details)).toEqual([
      { asset: master, receiver: w.alice, receiver_jetton_wallet: jw.alice, amount: GENESIS_JETTON.mintedToAlice.toString(), ton_amount: expect.any(String) },
      { asset: master, receiver: w.bob, receiver_jetton_wallet: jw.bob, amount: GENESIS_JETTON.mintedToBob.toString(), ton_amount: expect.any(String) },
    ]);

    const [transfer, ...more] = byType('jetton_transfer');
    expect(more).toEqual([]);
    expect(transfer!.details).toMatchObject({
      asset: master,
      sender: w.alice,
      receiver: w.carol,
      sender_jetton_wallet: jw.alice,
      receiver_jetton_wallet: jw.carol,
      amount: GENESIS_JETTON.aliceToCarol.toString(),
      comment: GENESIS_JETTON.transferComment,
      is_encrypted_comment: false,
      custom_payload: null,
    });
    expect(typeof transfer!.details.forward_payload).toBe('string');
    expect(transfer!.success).toBe(true);

    expect(byType('jetton_burn').map((a) => a.details)).toEqual([
      { owner: w.bob, owner_jetton_wallet: jw.bob, asset: master, amount: GENESIS_JETTON.burntByBob.toString() },
    ]);

    const collection = upper(tokens.nft_collection.address);
    const items = tokens.nft_collection.items.map((i) => ({ index: String(i.index), address: upper(i.address) }));
    // the art items, then the DNS item its collection deploys to open the auction (index sha256 of the name)
    const dns = genesisDns();
    const dnsIndex = BigInt(`0x${sha256_sync(GENESIS_DNS.domain).toString('hex')}`).toString();
    expect(byType('nft_mint').map((a) => [a.details.nft_item, a.details.nft_collection, a.details.nft_item_index])).toEqual([
      ...items.map((i) => [i.address, collection, i.index]),
      [rawUpper(dns.item), rawUpper(dns.collection), dnsIndex],
    ]);
    // item 0 to dave; items 1 and 2 to the sale and the auction contracts that list them (no purchase)
    const nft = byType('nft_transfer');
    expect(nft.map((a) => [a.details.nft_item, a.details.new_owner, a.details.is_purchase])).toEqual([
      [items[0]!.address, w.dave, false],
      [items[1]!.address, upper(tokens.nft_sales[0]!.address), false],
      [items[2]!.address, upper(tokens.nft_sales[1]!.address), false],
    ]);
    expect(nft[0]!.details).toMatchObject({
      nft_collection: collection,
      nft_item: items[0]!.address,
      nft_item_index: '0',
      old_owner: w.alice,
      new_owner: w.dave,
      is_purchase: false,
      comment: GENESIS_NFT.transferComment,
      marketplace: null,
      payout_address: null,
    });
    // the transfers inside a jetton transfer are not reported on their own
    const covered = new Set(transfer!.transactions);
    expect(byType('ton_transfer').some((a) => a.transactions.every((h) => covered.has(h)))).toBe(false);
    expect(actions.some((a) => a.type === 'call_contract' && a.transactions.some((h) => covered.has(h) && h !== transfer!.transactions[0]))).toBe(false);
  });

  it('ton transfers, wallet deployments and the welcome comment', () => {
    const w = Object.fromEntries(chain.keyedWallets().map((k) => [k.name, rawUpper(k.contract.address)]));
    const welcome = byType('ton_transfer').find((a) => a.details.comment === 'Welcome to the local chain');
    expect(welcome?.details).toMatchObject({ encrypted: false, value_extra_currencies: {} });
    const deployed = byType('contract_deploy').map((a) => a.details.destination);
    for (const name of ['alice', 'bob', 'carol', 'dave']) expect(deployed).toContain(w[name]);
    // externals are never call_contract actions
    expect(actions.every((a) => a.type !== 'call_contract' || typeof a.details.source === 'string')).toBe(true);
  });

  it('ids, transactions, windows and trace fields follow the reference rules', async () => {
    const all = (await api.transactions({ limit: 1000 })).transactions;
    const txByHash = new Map(all.map((t) => [t.hash, t]));
    for (const a of actions) {
      const trace = traces.find((t) => t.trace_id === a.trace_id)!;
      expect(trace.actions!.map((x) => x.action_id)).toContain(a.action_id);
      const txs = a.transactions.map((h) => txByHash.get(h)!);
      expect(txs.every((t) => t.trace_id === a.trace_id)).toBe(true);
      expect(txs.map((t) => BigInt(t.lt))).toEqual(txs.map((t) => BigInt(t.lt)).sort((x, y) => (x < y ? -1 : 1)));
      expect(BigInt(a.end_lt)).toBe(txs.reduce((m, t) => (BigInt(t.lt) > m ? BigInt(t.lt) : m), 0n));
      expect(BigInt(a.start_lt) <= BigInt(a.end_lt)).toBe(true);
      expect(a.trace_end_lt).toBe(trace.end_lt);
      expect(a.trace_mc_seqno_end).toBe(Number(trace.mc_seqno_end));
      expect(a.trace_external_hash).toBe(trace.external_hash);
      expect(a.finality).toBe('finalized');
      expect(a.accounts!.length).toBeGreaterThan(0);
      // action_id = base64(sha256(in-message hash of the earliest node + type)): one of the action's in-messages
      const keys = txs.map((t) => t.in_msg!.hash);
      const baseType = a.type === 'extra_currency_transfer' ? 'ton_transfer' : a.type;
      expect(keys.some((k) => sha256_sync(Buffer.from(k + baseType)).toString('base64') === a.action_id)).toBe(true);
    }
    const ext = traces[0]!.transactions![traces[0]!.trace_id!]!.in_msg!;
    const a0 = actions.find((a) => a.trace_id === traces[0]!.trace_id)!;
    expect(a0.trace_external_hash_norm).toBe(ext.hash_norm);
  });

  it('filters: account, tx_hash, msg_hash, trace_id, action_id, types, and their precedence', async () => {
    const [alice] = chain.keyedWallets();
    const aliceRaw = rawUpper(alice!.contract.address);
    const mine = ok('/actions', await api.actions({ account: alice!.contract.address, limit: 1000, includeAccounts: true })).actions;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.accounts!.includes(aliceRaw))).toBe(true);
    expect(mine.length).toBe(actions.filter((a) => a.accounts!.includes(aliceRaw)).length);

    const jt = byType('jetton_transfer')[0]!;
    const last = Buffer.from(jt.transactions[jt.transactions.length - 1]!, 'base64');
    expect((await api.actions({ txHash: [last] })).actions.map((a) => a.action_id)).toEqual([jt.action_id]);
    // the receiver wallet's transaction also deploys it
    const receiverTx = Buffer.from(jt.transactions[2]!, 'base64');
    expect((await api.actions({ txHash: [receiverTx] })).actions.map((a) => a.type).sort()).toEqual(['contract_deploy', 'jetton_transfer']);
    const byMsg = (await api.actions({ msgHash: [Buffer.from(jt.trace_external_hash!, 'base64')] })).actions;
    expect(byMsg.map((a) => a.trace_id)).toContain(jt.trace_id);
    expect((await api.actions({ actionId: [Buffer.from(jt.action_id, 'base64')] })).actions.map((a) => a.type)).toEqual(['jetton_transfer']);
    // action_id drops the filters given before it
    expect((await api.actions({ actionId: [Buffer.from(jt.action_id, 'base64')], excludeActionType: ['jetton_transfer'] })).actions).toHaveLength(1);
    const inTrace = (await api.actions({ traceId: [Buffer.from(jt.trace_id!, 'base64')], limit: 1000 })).actions;
    expect(inTrace.map((a) => a.action_id).sort()).toEqual(actions.filter((a) => a.trace_id === jt.trace_id).map((a) => a.action_id).sort());

    const only = (await api.actions({ actionType: ['jetton_burn', 'nft_transfer'], limit: 1000 })).actions;
    expect(new Set(only.map((a) => a.type))).toEqual(new Set(['jetton_burn', 'nft_transfer']));
    const without = (await api.actions({ excludeActionType: ['contract_deploy'], limit: 1000 })).actions;
    expect(without.length).toBe(actions.length - byType('contract_deploy').length);

    const full = (await api.actions({ actionType: ['jetton_transfer'], includeTransactions: true })).actions[0]!;
    expect(full.transactions_full!.map((t) => t.hash)).toEqual(full.transactions);
    expect('accounts' in full).toBe(false);

    // default order: trace_end_lt desc
    const desc = (await api.actions({ limit: 1000 })).actions;
    expect(desc.map((a) => BigInt(a.trace_end_lt))).toEqual(desc.map((a) => BigInt(a.trace_end_lt)).sort((x, y) => (x > y ? -1 : 1)));
    await rejects(api.actions({ mcSeqno: 424242 }), 404, 'masterchain block 424242 not found');
    const mc = Number(jt.trace_mc_seqno_end);
    expect((await api.actions({ mcSeqno: mc, limit: 1000 })).actions.every((a) => a.trace_mc_seqno_end === mc)).toBe(true);
  });

  it('supported_action_types: shortcuts expand and v1 types stay visible', async () => {
    const v1 = (await api.actions({ supportedActionTypes: ['v1'], limit: 1000 })).actions;
    expect(v1.length).toBe(actions.length);
    const custom = (await api.actions({ supportedActionTypes: ['jettons'], limit: 1000 })).actions;
    expect(custom.length).toBe(actions.length);
    const t = (await api.listTraces({ includeActions: true, supportedActionTypes: ['latest'], limit: 1 })).traces[0]!;
    expect(t.actions!.length).toBeGreaterThan(0);
  });
});

describe("the classifier's account questions", () => {
  it('are answered by get-methods on the genesis contracts, each method once per account state', async () => {
    const index = indexerOf(chain.store, chain.v2).traces;
    const t = genesisTokens(chain.keyedWallets());
    const [wallet] = t.jettonWallets;
    const item = t.nftItems[1]!;
    const runs = vi.spyOn(chain.v2, 'runGetMethodStd');
    try {
      const ask = async () => ({
        wallet: await index.info.jettonWallet(rawUpper(wallet!.address)),
        item: await index.info.nftItem(rawUpper(item)),
        // each contract is none of the others
        notWallet: await index.info.jettonWallet(rawUpper(item)),
        notItem: await index.info.nftItem(rawUpper(t.jettonMaster)),
        notPool: await index.info.dexPool!(rawUpper(wallet!.address)),
        notSale: await index.info.nftSale!(rawUpper(item)),
        notAuction: await index.info.nftAuction!(rawUpper(t.nftCollection)),
        data: (await index.info.contractData!(rawUpper(item)))?.hash().toString('hex'),
      });
      const first = await ask();
      const state = await chain.v2.getAddressInformation({ address: item });
      expect(first).toEqual({
        wallet: { owner: rawUpper(wallet!.owner), jetton: rawUpper(t.jettonMaster) },
        item: { index: '1', collection: rawUpper(t.nftCollection) },
        notWallet: null,
        notItem: null,
        notPool: null,
        notSale: null,
        notAuction: null,
        data: Cell.fromBase64(state.data).hash().toString('hex'),
      });
      // seven (account, method) pairs asked, each run at most once (classifying genesis may have asked some)
      const methods = runs.mock.calls.map(([p]) => `${rawUpper(p.address)} ${p.method}`);
      expect(new Set(methods).size).toBe(methods.length);
      expect(methods.length).toBeLessThanOrEqual(7);
      runs.mockClear();
      expect(await ask()).toEqual(first);
      expect(runs).not.toHaveBeenCalled();
    } finally {
      runs.mockRestore();
    }
  });
});

describe('the action-id index', () => {
  let own: LocalChain;
  let oapi: V3Caller;

  beforeAll(async () => {
    own = await LocalChain.create({ seed: 'v3-actions-index', blockInterval: 0 });
    oapi = withResolvedPaging(localV3Api(own));
    // every trace classified once, as a client listing /actions does
    await oapi.actions({ limit: 1000 });
  }, 120_000);

  afterAll(async () => {
    await own?.close();
  });

  /** A wallet transfer sealed in a block of its own: one new complete trace. */
  async function newTrace(comment: string): Promise<{ ext: Buffer; trace: Shared<Trace> }> {
    const [alice, bob] = own.keyedWallets();
    const info = await own.v2.getWalletInformation({ address: alice!.contract.address });
    const boc = signedTransfer(alice!, info.seqno!, [internal({ to: bob!.contract.address, value: toNano('0.5'), bounce: false, body: comment })], Math.floor(Date.now() / 1000) + 60);
    const sent = await oapi.message({ boc: boc.toBoc() });
    const ext = Buffer.from(sent.message_hash, 'base64');
    await own.sealBlock();
    const [trace] = (await oapi.listTraces({ msgHash: [ext] })).traces;
    expect(trace?.trace_info.trace_state).toBe('complete');
    return { ext, trace: trace! };
  }

  it('an action_id no action has is answered from the index: each sealed trace is classified once, not on every lookup', async () => {
    const index = indexerOf(own.store, own.v2).traces;
    const classified = vi.spyOn(index, 'actionsOf');
    try {
      const madeUp = Buffer.alloc(32, 0x5a);
      // every trace was classified when beforeAll listed all actions: nothing to classify for the lookup
      expect(ok('/actions', await oapi.actions({ actionId: [madeUp] })).actions).toEqual([]);
      expect(classified).not.toHaveBeenCalled();

      // a new trace is classified by the next lookup, once
      const { ext, trace } = await newTrace('indexed');
      classified.mockClear();
      expect((await oapi.actions({ actionId: [madeUp] })).actions).toEqual([]);
      const first = classified.mock.calls.length;
      expect(first).toBeGreaterThan(0);
      expect(new Set(classified.mock.calls.map(([t]) => t.root)).size).toBe(first);
      const roots = new Set(classified.mock.calls.map(([t]) => Buffer.from(t.root, 'hex').toString('base64')));
      expect(roots.has(trace!.trace_id!)).toBe(true);
      expect(first).toBeLessThan((await oapi.listTraces({ limit: 1000 })).traces.length);
      classified.mockClear();
      expect((await oapi.actions({ actionId: [madeUp] })).actions).toEqual([]);
      expect(classified).not.toHaveBeenCalled();

      // and its actions are found by their ids
      const mine = (await oapi.actions({ msgHash: [ext] })).actions;
      expect(mine.map((a) => a.type)).toContain('ton_transfer');
      for (const a of mine) {
        expect((await oapi.actions({ actionId: [Buffer.from(a.action_id, 'base64')] })).actions.map((x) => x.action_id)).toEqual([a.action_id]);
      }
    } finally {
      classified.mockRestore();
    }
  });

  it('a trace the classifier fails on is left out of the index; other lookups still answer', async () => {
    const index = indexerOf(own.store, own.v2).traces;
    const known = (await oapi.actions({ limit: 1, sort: 'asc' })).actions[0]!;
    const { ext, trace } = await newTrace('unreadable');
    const failing = vi.spyOn(index, 'actionsOf').mockRejectedValueOnce(new Error('cannot classify'));
    try {
      expect((await oapi.actions({ actionId: [Buffer.from(known.action_id, 'base64')] })).actions.map((a) => a.action_id)).toEqual([known.action_id]);
      // the index tried the new trace first, and it failed
      expect(failing.mock.calls[0]![0].root).toBe(Buffer.from(trace.trace_id!, 'base64').toString('hex'));
    } finally {
      failing.mockRestore();
    }
    // the trace itself classifies when asked again, and its actions are then found by id
    const [mine] = (await oapi.actions({ msgHash: [ext] })).actions;
    expect((await oapi.actions({ actionId: [Buffer.from(mine!.action_id, 'base64')] })).actions.map((a) => a.action_id)).toEqual([mine!.action_id]);
  });

  it('a scan over every trace (a type no action has, a deep offset) builds none of their transactions in v3 form', async () => {
    const built = vi.spyOn(LocalV3Context.prototype, 'txToV3');
    try {
      const all = (await oapi.listTraces({ limit: 1000 })).traces;
      built.mockClear();
      expect((await oapi.actions({ actionType: ['multisig_create_order'], limit: 10 })).actions).toEqual([]);
      expect((await oapi.actions({ offset: 100_000, limit: 10 })).actions).toEqual([]);
      expect(built).not.toHaveBeenCalled();
      // the trace fields an action prints still agree with its transactions
      const [newest] = (await oapi.actions({ limit: 1 })).actions;
      const trace = all.find((t) => t.trace_id === newest!.trace_id)!;
      const txs = Object.values(trace.transactions!);
      expect(newest!.trace_end_lt).toBe(txs.map((t) => BigInt(t.lt)).reduce((a, b) => (b > a ? b : a)).toString());
      expect(newest!.trace_end_utime).toBe(Math.max(...txs.map((t) => t.now)));
      expect(newest!.trace_mc_seqno_end).toBe(Math.max(...txs.map((t) => t.mc_block_seqno)));
    } finally {
      built.mockRestore();
    }
  });
});

describe('pending work', () => {
  let slow: LocalChain;
  let sapi: V3Caller;

  beforeAll(async () => {
    slow = await LocalChain.create({ seed: 'v3-traces-pending', blockInterval: 3_600_000 });
    sapi = withResolvedPaging(localV3Api(slow));
  }, 120_000);

  afterAll(async () => {
    await slow?.close();
  });

  it('is shown by the pending routes until sealed, then by /traces and /actions, never by both', async () => {
    const [alice, bob] = slow.keyedWallets();
    const info = await slow.v2.getWalletInformation({ address: alice!.contract.address });
    const boc = signedTransfer(alice!, info.seqno!, [internal({ to: bob!.contract.address, value: toNano('1'), bounce: false, body: 'pending hello' })], Math.floor(Date.now() / 1000) + 60);
    const sent = await sapi.message({ boc: boc.toBoc() });
    const extHash = Buffer.from(sent.message_hash, 'base64');

    const ptx = ok('/pendingTransactions', await sapi.pendingTransactions({ account: [alice!.contract.address, bob!.contract.address] })).transactions;
    expect(ptx).toHaveLength(2);
    expect(ptx.every((t) => t.emulated && t.finality === 'pending' && t.trace_external_hash === sent.message_hash)).toBe(true);
    expect(ptx.every((t) => t.trace_id === undefined)).toBe(true);
    expect(ptx[0]!.mc_block_seqno).toBe(slow.store.lastMc.seqno + 1);
    const hashes = ptx.map((t) => t.hash);

    const pt = ok('/pendingTraces', await sapi.pendingTraces({ extMsgHash: [extHash] })).traces;
    expect(pt).toHaveLength(1);
    expect(pt[0]!.trace_id).toBeNull();
    expect(pt[0]!.external_hash).toBe(sent.message_hash);
    expect(pt[0]!.trace_info).toMatchObject({ trace_state: 'pending', transactions: 2, pending_messages: 2 });
    expect(pt[0]!.actions!.map((a) => a.type)).toEqual(['ton_transfer']);
    expect((await sapi.pendingTraces({ account: bob!.contract.address })).traces.map((t) => t.external_hash)).toEqual([sent.message_hash]);

    const pa = ok('/pendingActions', await sapi.pendingActions({ account: alice!.contract.address, includeTransactions: true })).actions;
    expect(pa).toHaveLength(1);
    expect(pa[0]!).toMatchObject({ type: 'ton_transfer', finality: 'pending', trace_id: null });
    expect((pa[0]! as Action).details.comment).toBe('pending hello');
    expect(pa[0]!.transactions_full!.every((t) => t.emulated)).toBe(true);
    const pendingActionId = pa[0]!.action_id;

    // not in the indexed routes yet
    const txBufs = hashes.map((h) => Buffer.from(h, 'base64'));
    expect((await sapi.listTraces({ txHash: txBufs })).traces).toEqual([]);
    expect((await sapi.actions({ txHash: txBufs })).actions).toEqual([]);
    expect((await sapi.transactions({ hash: txBufs })).transactions).toEqual([]);

    await slow.sealBlock();

    await rejects(sapi.pendingTransactions({ account: [alice!.contract.address] }), 404, 'emulated traces not found');
    expect((await sapi.pendingTraces({ extMsgHash: [extHash] })).traces).toEqual([]);
    expect((await sapi.pendingActions({ account: alice!.contract.address })).actions).toEqual([]);
    const sealed = ok('/traces', await sapi.listTraces({ msgHash: [extHash], includeActions: true })).traces;
    expect(sealed).toHaveLength(1);
    expect(sealed[0]!.trace_info.trace_state).toBe('complete');
    expect([...sealed[0]!.transactions_order!].sort()).toEqual([...hashes].sort());
    expect(sealed[0]!.trace_id).toBe(sealed[0]!.transactions_order![0]);
    expect(sealed[0]!.actions!.map((a) => [a.type, a.action_id, a.finality])).toEqual([['ton_transfer', pendingActionId, 'finalized']]);
    expect((await sapi.transactions({ hash: txBufs })).transactions.every((t) => !t.emulated && t.finality === 'finalized')).toBe(true);
  }, 60_000);

  it('pending routes need an account or an external hash', async () => {
    await rejects(sapi.pendingTraces({}), 422, 'account or ext_msg_hash should be specified');
    await rejects(sapi.pendingActions({}), 422, 'account or ext_msg_hash should be specified');
    await rejects(sapi.pendingTransactions({ account: [] }), 422, 'at least 1 account address required');
  });
});

describe('decode', () => {
  it('names opcodes and decodes bodies; bad opcodes are a 422', async () => {
    const r = ok('/decode', await api.decode({ opcodes: ['0x0f8a7ea5', '0x12345678', '-1'], bodies: [beginCell().storeUint(0, 32).storeStringTail('hi').endCell().toBoc().toString('base64')] }));
    expect(r.opcodes).toEqual(['jetton_transfer', 'unknown', 'bounce']);
    expect(r.bodies).toEqual([{ '@type': 'text_comment', text: 'hi' }]);
    await rejects(api.decode({ opcodes: ['0x1', 'zz'], bodies: [] }), 422, 'invalid opcode format at index 1: zz');
  });
});
