/**
 * /api/v3/balanceChanges (toncenter-newer.md §4) on the local chain (A) and through upstream mode (B), alike on
 * both: the shape (changes and fees as JSON integers, jettons as decimal strings, raw uppercase keys in order),
 * the sums checked against the chain itself (each account's net change equals its balance after minus before
 * over the trace's transactions), an action's slice, the 200 of nulls for a contract_deploy and for an action the
 * default `latest` set hides, 400/404/422 in the reference's words; and the graph's Trace.balanceChanges and
 * Action.balanceChanges. The data is genesis: alice's 1,500 LGC to carol, which deploys carol's jetton wallet.
 */
import { internal, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { genesisTokens, signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

const V3 = '/api/v3';
const LGC = 1_500n * 1_000_000_000n;
type Json = any;
const RAW_UPPER = /^(-1|0):[0-9A-F]{64}$/;

describe('v3 /balanceChanges and the graph\'s balance changes, local chain and upstream mode', () => {
  let A: Gateway;
  let B: Gateway;
  let alice: string;
  let carol: string;
  let trace: Json;
  let actions: Json[];

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const wallets = A.chain!.keyedWallets();
    alice = wallets[0]!.contract.address.toRawString().toUpperCase();
    carol = wallets[2]!.contract.address.toRawString().toUpperCase();
    const sent = ((await http(`${A.url}${V3}/messages?opcode=0x0f8a7ea5&source=${alice}`)).body as Json).messages;
    const transfer = sent.find((m: Json) => m.source === alice);
    const tx = ((await http(`${A.url}${V3}/transactions?msg_hash=${encodeURIComponent(transfer.hash)}&direction=in`)).body as Json).transactions[0];
    trace = ((await http(`${A.url}${V3}/traces?trace_id=${encodeURIComponent(tx.trace_id)}&include_actions=true`)).body as Json).traces[0];
    actions = trace.actions;
  }, 120_000);
  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  const both = onBoth(() => A, () => B);

  const q = (k: string, v: string) => `${k}=${encodeURIComponent(v)}`;

  /**
   * The documented fees of `txs` within the trace of `all`: each transaction's total_fees to its account, and the
   * forwarding fee of its in-message to that message's sender.
   */
  function feesOf(txs: Json[], all: Json[]): Record<string, bigint> {
    const fwdOf = new Map<string, bigint>();
    for (const t of all) for (const m of t.out_msgs) if (m.fwd_fee !== null) fwdOf.set(m.hash, BigInt(m.fwd_fee));
    const fees: Record<string, bigint> = {};
    const add = (k: string, v: bigint) => (fees[k] = (fees[k] ?? 0n) + v);
    for (const t of txs) {
      add(t.account, BigInt(t.total_fees));
      if (t.in_msg?.source) add(t.in_msg.source, fwdOf.get(t.in_msg.hash)!);
    }
    return fees;
  }

  const bigints = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, BigInt(v)]));
  const txsOf = (): Json[] => Object.values(trace.transactions);

  /** The exact documented shape: three members; integers, then decimal strings under owner and master. */
  function checkShape(body: Json): void {
    expect(Object.keys(body)).toEqual(['changes', 'fees', 'jettons']);
    for (const m of [body.changes, body.fees]) {
      for (const [k, v] of Object.entries(m)) {
        expect(k).toMatch(RAW_UPPER);
        expect(Number.isInteger(v), `${k}: ${String(v)}`).toBe(true);
      }
      expect(Object.keys(m)).toEqual(Object.keys(m).sort());
    }
    for (const [owner, m] of Object.entries(body.jettons as Record<string, Record<string, string>>)) {
      expect(owner === '' || RAW_UPPER.test(owner), owner).toBe(true);
      for (const [jetton, amount] of Object.entries(m)) {
        expect(jetton === '' || RAW_UPPER.test(jetton), jetton).toBe(true);
        expect(amount).toMatch(/^-?\d+$/);
      }
    }
  }

  it('a trace: each account\'s net change is its balance after minus before, fees are its fees and forwarding fees, the jetton moves owner to owner', async () => {
    const r = await both(`/balanceChanges?${q('trace_id', trace.trace_id)}`);
    expect(r.status).toBe(200);
    checkShape(r.body);
    const delta = new Map<string, bigint>();
    for (const t of txsOf()) delta.set(t.account, (delta.get(t.account) ?? 0n) + BigInt(t.account_state_after.balance) - BigInt(t.account_state_before.balance));
    expect(bigints(r.body.changes)).toEqual(Object.fromEntries(delta));
    expect(bigints(r.body.fees)).toEqual(feesOf(txsOf(), txsOf()));
    const [jetton] = Object.keys(r.body.jettons[alice]);
    expect(r.body.jettons).toEqual({ [alice]: { [jetton!]: (-LGC).toString() }, [carol]: { [jetton!]: LGC.toString() } });
    const masters = ((await http(`${A.url}${V3}/jetton/masters`)).body as Json).jetton_masters.map((m: Json) => m.address);
    expect(masters).toContain(jetton);
  });

  it('an action: its own transactions; a contract_deploy and an action the latest set hides have none (200, nulls)', async () => {
    const transfer = actions.find((a: Json) => a.type === 'jetton_transfer');
    const deploy = actions.find((a: Json) => a.type === 'contract_deploy');
    expect(transfer).toBeDefined();
    expect(deploy).toBeDefined();
    const whole = (await both(`/balanceChanges?${q('trace_id', trace.trace_id)}`)).body;
    // the transfer starts at alice's external message, so the whole slice is its transactions
    const byAction = await both(`/balanceChanges?${q('action_id', transfer.action_id)}`);
    expect(byAction.status).toBe(200);
    checkShape(byAction.body);
    expect(byAction.body.jettons).toEqual(whole.jettons);
    expect((await both(`/balanceChanges?${q('trace_id', trace.trace_id)}&${q('action_id', transfer.action_id)}`)).body).toEqual(byAction.body);
    const nulls = { status: 200, body: { changes: null, fees: null, jettons: null } };
    expect(await both(`/balanceChanges?${q('action_id', deploy.action_id)}`)).toEqual(nulls);
    // trace_id picks the trace, action_id the slice: an action of another trace has none there
    const other = ((await http(`${A.url}${V3}/actions?account=${carol}&limit=50`)).body as Json).actions.find((a: Json) => a.trace_id !== trace.trace_id);
    expect(await both(`/balanceChanges?${q('trace_id', trace.trace_id)}&${q('action_id', other.action_id)}`)).toEqual(nulls);
    // alice buys item 1 from bob's sale: latest shows one nft_purchase, v1 the nft_transfer it holds
    const wallet = A.chain!.keyedWallets()[0]!;
    const sale = genesisTokens(A.chain!.keyedWallets()).nftSale;
    const seqno = ((await http(`${A.url}/api/v2/runGetMethod`, { body: { address: alice, method: 'seqno', stack: [] } })).body as Json).result.stack[0][1];
    const boc = signedTransfer(wallet, Number(seqno), [internal({ to: sale, value: toNano('5.2'), bounce: true })], Math.floor(Date.now() / 1000) + 60).toBoc().toString('base64');
    expect((await http(`${A.url}/api/v2/sendBoc`, { body: { boc } })).status).toBe(200);
    const purchase = await waitFor(async () => ((await http(`${A.url}${V3}/actions?account=${alice}&action_type=nft_purchase`)).body as Json).actions[0]);
    const latest = new Set(((await http(`${A.url}${V3}/actions?${q('trace_id', purchase.trace_id)}`)).body as Json).actions.map((a: Json) => a.action_id));
    const v1 = ((await http(`${A.url}${V3}/actions?${q('trace_id', purchase.trace_id)}&supported_action_types=v1`)).body as Json).actions;
    const hidden = v1.find((a: Json) => !latest.has(a.action_id));
    expect(hidden.type).toBe('nft_transfer');
    expect(await both(`/balanceChanges?${q('action_id', hidden.action_id)}`)).toEqual(nulls);
    // an action's slice: its transactions, but the first when an internal message started it (an nft_mint:
    // alice's message to the collection); the fees are those transactions' and the forwarding fees of their in-messages
    const mint = ((await http(`${A.url}${V3}/actions?action_type=nft_mint&limit=1`)).body as Json).actions[0];
    for (const [action, startsInternal] of [[purchase, false], [mint, true]] as const) {
      const t = ((await http(`${A.url}${V3}/traces?${q('trace_id', action.trace_id)}`)).body as Json).traces[0];
      const own: Json[] = action.transactions.map((h: string) => t.transactions[h]).sort((x: Json, y: Json) => (BigInt(x.lt) < BigInt(y.lt) ? -1 : 1));
      expect(own[0].in_msg.source !== null, action.type).toBe(startsInternal);
      const slice = startsInternal ? own.slice(1) : own;
      const r = await both(`/balanceChanges?${q('action_id', action.action_id)}`);
      checkShape(r.body);
      expect(bigints(r.body.fees), action.type).toEqual(feesOf(slice, Object.values(t.transactions)));
      expect(r.body.jettons).toEqual({});
    }
  });

  it('answers 400 without a param, 404 for what the index does not hold, 422 for a bad hash', async () => {
    expect(await both('/balanceChanges')).toEqual({ status: 400, body: { code: 400, error: 'trace_id or action_id is required' } });
    const unknown = Buffer.alloc(32, 9).toString('hex');
    for (const p of [`trace_id=${unknown}`, `action_id=${unknown}`, `trace_id=${unknown}&${q('action_id', actions[0].action_id)}`]) {
      expect(await both(`/balanceChanges?${p}`), p).toEqual({ status: 404, body: { code: 404, error: 'trace or action not found' } });
    }
    expect(await both('/balanceChanges?trace_id=xyz')).toEqual({
      status: 422,
      body: { code: 422, error: 'failed to decode: schema: error converting value for "trace_id"' },
    });
    // every hash form names the same trace
    const hex = Buffer.from(trace.trace_id, 'base64').toString('hex');
    const url = Buffer.from(trace.trace_id, 'base64').toString('base64url');
    const b64 = (await both(`/balanceChanges?${q('trace_id', trace.trace_id)}`)).body;
    expect((await both(`/balanceChanges?trace_id=${hex}`)).body).toEqual(b64);
    expect((await both(`/balanceChanges?trace_id=${url}`)).body).toEqual(b64);
  });

  it('the graph: Trace.balanceChanges and Action.balanceChanges are the route\'s rows, on both sources', async () => {
    const rest = (await http(`${A.url}${V3}/balanceChanges?${q('trace_id', trace.trace_id)}`)).body as Json;
    const query = `query($id: Hash!) { trace(id: $id) { balanceChanges { account { address } ton fees jettons { jetton wallet amount } }
      actions { type balanceChanges { account { address } ton fees jettons { jetton amount } } } } }`;
    for (const gw of [A, B]) {
      const r = (await http(`${gw.url}/graphql`, { body: { query, variables: { id: trace.trace_id } } })).body as Json;
      expect(r.errors).toBeUndefined();
      const rows = r.data.trace.balanceChanges;
      expect(rows.map((c: Json) => c.account.address)).toEqual(Object.keys(rest.changes));
      for (const c of rows) {
        expect(c.ton).toBe(String(rest.changes[c.account.address]));
        expect(c.fees).toBe(String(rest.fees[c.account.address]));
        const j = rest.jettons[c.account.address] ?? {};
        expect(c.jettons).toEqual(Object.entries(j).map(([jetton, amount]) => ({ jetton, wallet: null, amount })));
      }
      const byType = Object.fromEntries(r.data.trace.actions.map((a: Json) => [a.type, a.balanceChanges]));
      expect(byType.contract_deploy).toBeNull();
      expect(byType.jetton_transfer.map((c: Json) => c.account.address)).toEqual(Object.keys(rest.changes));
    }
  });

  it('the graph: an emulated trace keeps its measured changes, with the fees summed as /balanceChanges sums them', async () => {
    const [, bob, carolW] = A.chain!.keyedWallets();
    const bobRaw = bob!.contract.address.toRawString().toUpperCase();
    const seqno = ((await http(`${A.url}/api/v2/runGetMethod`, { body: { address: bobRaw, method: 'seqno', stack: [] } })).body as Json).result.stack[0][1];
    const boc = signedTransfer(bob!, Number(seqno), [internal({ to: carolW!.contract.address, value: toNano('1'), bounce: false })], Math.floor(Date.now() / 1000) + 60).toBoc().toString('base64');
    const emulated = Object.values(((await http(`${A.url}/api/emulate/v1/emulateTrace`, { body: { boc } })).body as Json).transactions as Record<string, Json>);
    const fees = feesOf(emulated, emulated);
    const r = (await http(`${A.url}/graphql`, { body: { query: `query($b: Boc!) { emulate(boc: $b) { emulated balanceChanges { account { address } ton fees } } }`, variables: { b: boc } } })).body as Json;
    expect(r.errors).toBeUndefined();
    expect(r.data.emulate.emulated).toBe(true);
    const rows = r.data.emulate.balanceChanges as Json[];
    expect(rows.length).toBeGreaterThan(0);
    for (const c of rows) expect(c.fees, c.account.address).toBe(String(fees[c.account.address] ?? 0n));
    expect(BigInt(rows.find((c) => c.account.address === bobRaw).fees)).toBeGreaterThan(0n);
  });
});
