/**
 * Action-type versions (toncenter-newer.md §6): the sets and shortcuts as the newest reference lists them (v1 23
 * types, v2 46, v3 63, v4 75, v5 79 = latest; tgbtc in none), and how a client picks one: `supported_action_types`
 * (names and shortcuts mixed) or `X-Actions-Version` (one name, replacing the list) on /actions, /traces, /events,
 * /pendingTraces and /pendingActions, alike on the local chain and upstream mode; the header alone on the Emulate
 * API, default latest (v1 for emulateTonConnect). The trace is alice buying item 1 from bob's genesis sale: under
 * latest one nft_purchase, under v1 and v2 (no marketplace types) the nft_transfer inside it.
 */
import { internal, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { expandActionTypes } from '../../../src/model/v3/action-types.js';
import { genesisTokens, signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { http, onBoth, startUpstreamGateway } from '../upstream/helpers.js';

type Json = any;
const V3 = '/api/v3';

describe('the version sets (models/action_versioning.go, newest stored)', () => {
  const size = (name: string) => expandActionTypes([name]).size;

  it('v1 23, v2 46, v3 63, v4 75, v5 79 types, each containing the one below; latest is v5', () => {
    expect(['v1', 'v2', 'v3', 'v4', 'v5'].map(size)).toEqual([23, 46, 63, 75, 79]);
    for (const [lower, higher] of [['v1', 'v2'], ['v2', 'v3'], ['v3', 'v4'], ['v4', 'v5']] as const) {
      const h = expandActionTypes([higher]);
      for (const t of expandActionTypes([lower])) expect(h.has(t), `${t} in ${higher}`).toBe(true);
    }
    expect([...expandActionTypes(['latest'])].sort()).toEqual([...expandActionTypes(['v5'])].sort());
    expect([...expandActionTypes(undefined)].sort()).toEqual([...expandActionTypes(['v5'])].sort());
    const v5only = [...expandActionTypes(['v5'])].filter((t) => !expandActionTypes(['v4']).has(t)).sort();
    expect(v5only).toEqual(['change_wallet_key', 'dedust_v2_claim_fees', 'dedust_v2_claim_reward', 'gasless_request']);
  });

  it('shortcuts expand, unknown names stay literal, v1 is always added, tgbtc is in no version', () => {
    const v1 = expandActionTypes(['v1']);
    const without = (names: string[]) => [...expandActionTypes(names)].filter((t) => !v1.has(t)).sort();
    expect(without(['nft'])).toEqual([]);
    expect(without(['nft.v3'])).toEqual(
      ['auction_outbid', 'dns_purchase', 'dns_release', 'nft_cancel_auction', 'nft_cancel_sale', 'nft_finish_auction', 'nft_purchase', 'nft_put_on_auction', 'nft_put_on_sale', 'nft_update_sale', 'teleitem_cancel_auction', 'teleitem_start_auction'].sort(),
    );
    expect(without(['dns.v2'])).toEqual(without(['dns']));
    expect(without(['dns'])).toEqual(['dns_purchase', 'dns_release']);
    expect(without(['coffee'])).not.toContain('coffee_mev_protect_failed_swap');
    expect(without(['coffee'])).toHaveLength(7);
    expect(without(['tgbtc'])).toHaveLength(7);
    for (const v of ['v1', 'v2', 'v3', 'v4', 'v5', 'latest']) expect([...expandActionTypes([v])].some((t) => t.startsWith('tgbtc')), v).toBe(false);
    expect(without(['made_up_type', 'jvault'])).toEqual(['jvault_claim', 'jvault_stake', 'jvault_unstake', 'jvault_unstake_request', 'made_up_type']);
    // one header value is one name: a comma list is a literal nobody classifies
    expect([...expandActionTypes(['v1,jettons'])].sort()).toEqual([...v1, 'v1,jettons'].sort());
  });
});

describe('choosing a set: v3 routes on both sources, and the Emulate API', () => {
  let A: Gateway;
  let B: Gateway;
  let alice: string;
  let boc: string;
  let traceId: string;
  const both = onBoth(() => A, () => B);

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const wallet = A.chain!.keyedWallets()[0]!;
    alice = wallet.contract.address.toRawString().toUpperCase();
    const sale = genesisTokens(A.chain!.keyedWallets()).nftSale;
    const seqno = ((await http(`${A.url}/api/v2/runGetMethod`, { body: { address: alice, method: 'seqno', stack: [] } })).body as Json).result.stack[0][1];
    boc = signedTransfer(wallet, Number(seqno), [internal({ to: sale, value: toNano('5.2'), bounce: true })], Math.floor(Date.now() / 1000) + 600).toBoc().toString('base64');
  }, 120_000);
  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  const types = (actions: Json[]) => actions.map((a: Json) => a.type).sort();

  it('Emulate: the header names one set (latest without it; v1 for emulateTonConnect without it)', async () => {
    const emulate = async (route: string, body: unknown, version?: string) => {
      const r = await http(`${A.url}/api/emulate/v1/${route}`, { body, ...(version ? { headers: { 'x-actions-version': version } } : {}) });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return types((r.body as Json).actions);
    };
    const latest = await emulate('emulateTrace', { boc, with_actions: true });
    expect(latest).toContain('nft_purchase');
    expect(latest).not.toContain('nft_transfer');
    const v1 = await emulate('emulateTrace', { boc, with_actions: true }, 'v1');
    expect(v1).toContain('nft_transfer');
    expect(v1).not.toContain('nft_purchase');
    expect(await emulate('emulateTrace', { boc, with_actions: true }, 'nft.v3,jettons')).toEqual(v1);
    expect(await emulate('emulateTrace', { boc, with_actions: true }, 'nft.v3')).toEqual(latest);
    const sale = genesisTokens(A.chain!.keyedWallets()).nftSale.toRawString();
    const tc = { from: alice, messages: [{ address: sale, amount: toNano('5.2').toString() }], with_actions: true };
    expect(await emulate('emulateTonConnect', tc)).toEqual(v1);
    expect(await emulate('emulateTonConnect', tc, 'latest')).toEqual(latest);
  });

  it('v3: supported_action_types picks the set, X-Actions-Version replaces it with one name, on every route that takes it', async () => {
    expect((await http(`${A.url}/api/v2/sendBoc`, { body: { boc } })).status).toBe(200);
    const purchase = await waitFor(async () => ((await http(`${A.url}${V3}/actions?account=${alice}&action_type=nft_purchase`)).body as Json).actions[0]);
    traceId = encodeURIComponent(purchase.trace_id);
    const actions = async (query: string, version?: string) => {
      const r = await both(`/actions?trace_id=${traceId}${query}`, version ? { 'x-actions-version': version } : undefined);
      expect(r.status).toBe(200);
      return types(r.body.actions);
    };
    const latest = await actions('');
    const v1 = await actions('&supported_action_types=v1');
    expect(latest).toContain('nft_purchase');
    expect(latest).not.toContain('nft_transfer');
    expect(v1).toContain('nft_transfer');
    expect(v1).not.toContain('nft_purchase');
    expect(await actions('&supported_action_types=v2')).toEqual(v1);
    // names and shortcuts mixed
    expect(await actions('&supported_action_types=v2&supported_action_types=nft_purchase')).toEqual(latest);
    // the header replaces the list, as one name
    expect(await actions('&supported_action_types=latest', 'v1')).toEqual(v1);
    expect(await actions('&supported_action_types=v1', 'latest')).toEqual(latest);
    expect(await actions('', 'nft.v3,jettons')).toEqual(v1);
    for (const route of ['/traces', '/events']) {
      const r = await both(`${route}?trace_id=${traceId}&include_actions=true`, { 'x-actions-version': 'v1' });
      expect(r.status, route).toBe(200);
      const [trace] = r.body.traces ?? r.body.events;
      expect(types(trace.actions), route).toEqual(v1);
    }
    for (const route of ['/pendingTraces', '/pendingActions']) {
      const r = await both(`${route}?account=${alice}&supported_action_types=v1`, { 'x-actions-version': 'v2' });
      expect(r.status, route).toBe(200);
    }
  });
});
