/**
 * The graph over the 1.2.6 routes: NftItem.sale (a sale or an auction, one /nft/sales call per level),
 * Account.nominatorPool (one /pool call per distinct pool of a level, non-pools null) and Query.validators over
 * the local chain's config and elector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { NftItem, NftSale } from '../../../src/api/v3/nfts.js';
import type { NominatorPoolInfo } from '../../../src/api/v3/staking.js';
import { rawUpper } from '../../../src/model/address.js';
import { GENESIS_DNS, genesisDns } from '../../../src/sources/localnet/chain/genesis-dns.js';
import { GENESIS_ELECTOR } from '../../../src/sources/localnet/chain/genesis-elector.js';
import { validatorWallet } from '../../../src/sources/localnet/chain/genesis-validator.js';
import { GENESIS_TIME, LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { gql, measuredQuery, startServer, stubSources, type StubImpl, type TestServer } from './helpers.js';
import { Address } from '@ton/core';

const raw = (n: number) => `0:${n.toString(16).padStart(64, '0').toUpperCase()}`;

const item = (n: number, extra: Partial<NftItem>): NftItem => ({
  address: raw(n),
  init: true,
  index: String(n),
  collection_address: null,
  owner_address: raw(100 + (n % 2)),
  content: null,
  last_transaction_lt: '1',
  code_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  data_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  collection: null,
  on_sale: extra.sale_contract_address !== undefined || extra.auction_contract_address !== undefined,
  ...extra,
});

describe('sales and pools in the graph, batched', () => {
  let server: TestServer;
  const calls: { method: string; params: any }[] = [];
  const items = [
    item(1, { sale_contract_address: raw(11) }),
    item(2, { auction_contract_address: raw(12) }),
    item(3, { sale_contract_address: raw(13) }),
    item(4, {}),
  ];
  const sales: NftSale[] = [
    { type: 'getgems_sale', address: raw(11), nft_address: raw(1), nft_owner_address: raw(101), details: { full_price: '5000', is_complete: false } },
    { type: 'getgems_auction', address: raw(12), nft_address: raw(2), details: { last_bid: '70', last_member: raw(102), end_time: 1800000000, end_flag: false } },
  ];
  const pool: NominatorPoolInfo = {
    stake_amount_sent: '0',
    validator_amount: '10',
    validator_address: `-1:${'AB'.repeat(32)}`,
    validator_reward_share: 4000,
    state: 0,
    nominators_count: 2,
    max_nominators_count: 40,
    min_validator_stake: '100',
    min_nominator_stake: '10',
    active_nominators: [
      { address: raw(201), balance: '20', pending_balance: '0' },
      { address: raw(202), balance: '30', pending_balance: '5' },
    ],
    address_book: {},
  };
  const impl: StubImpl = {
    nftItems: async (p: any) => (calls.push({ method: 'nftItems', params: p }), { nft_items: items, address_book: {}, metadata: {} }),
    nftSales: async (p: any) => {
      calls.push({ method: 'nftSales', params: p });
      const asked = new Set((p.address as Address[]).map(rawUpper));
      return { nft_sales: sales.filter((s) => asked.has(s.address)), address_book: {}, metadata: {} };
    },
    nominatorPool: async (p: any) => {
      calls.push({ method: 'nominatorPool', params: p });
      if (rawUpper(p.pool) !== raw(101)) throw new ApiError(404, 'Pool not found');
      return pool;
    },
    nominatorPoolEvents: async (p: any) => (calls.push({ method: 'nominatorPoolEvents', params: p }), { events: [], address_book: {} }),
  };

  beforeAll(async () => {
    server = await startServer(stubSources(() => impl));
  });
  afterAll(() => server?.close());

  it('NftItem.sale: a sale or an auction, every item of a level in one /nft/sales call', async () => {
    calls.length = 0;
    const r = await gql(
      server.url,
      `{ nftItems(first: 10) { nodes { address sale { __typename
          ... on NftSale { address fullPrice isComplete seller { address } }
          ... on NftAuction { address lastBid endTime finished lastBidder { address } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const nodes = (r.data as any).nftItems.nodes;
    expect(nodes.map((n: any) => n.sale?.__typename ?? null)).toEqual(['NftSale', 'NftAuction', null, null]);
    expect(nodes[0].sale).toMatchObject({ address: raw(11), fullPrice: '5000', isComplete: false, seller: { address: raw(101) } });
    expect(nodes[1].sale).toMatchObject({ address: raw(12), lastBid: '70', endTime: 1800000000, finished: false, lastBidder: { address: raw(102) } });
    const saleCalls = calls.filter((c) => c.method === 'nftSales');
    expect(saleCalls).toHaveLength(1);
    expect(saleCalls[0]!.params.address.map(rawUpper).sort()).toEqual([raw(11), raw(12), raw(13)]);
  });

  it('Account.nominatorPool: one /pool call per distinct account of a level, null for accounts that are no pool', async () => {
    calls.length = 0;
    const r = await gql(
      server.url,
      `{ nftItems(first: 10) { nodes { owner { address nominatorPool {
          validatorRewardShare nominatorsCount validator { address }
          nominators { account { address } balance pendingBalance } bookings(first: 5) { type } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const owners = (r.data as any).nftItems.nodes.map((n: any) => n.owner);
    const pools = owners.filter((o: any) => o.address === raw(101)).map((o: any) => o.nominatorPool);
    expect(pools.length).toBeGreaterThan(0);
    for (const p of pools) {
      expect(p).toMatchObject({ validatorRewardShare: 4000, nominatorsCount: 2, validator: { address: pool.validator_address } });
      expect(p.nominators).toEqual([
        { account: { address: raw(201) }, balance: '20', pendingBalance: '0' },
        { account: { address: raw(202) }, balance: '30', pendingBalance: '5' },
      ]);
    }
    for (const o of owners.filter((x: any) => x.address !== raw(101))) expect(o.nominatorPool).toBeNull();
    const poolCalls = calls.filter((c) => c.method === 'nominatorPool').map((c) => rawUpper(c.params.pool)).sort();
    expect(poolCalls).toEqual([raw(100), raw(101)]);
    expect(calls.filter((c) => c.method === 'nominatorPoolEvents')).toHaveLength(1);
  });
});

describe('validators in the graph over the local chain', () => {
  let chain: LocalChain;
  let server: TestServer;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'graphql-validators-test', blockInterval: 0 });
    server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await chain?.close();
  });

  it('Query.validators answers cycles from config params 32/34/36 and elections from the elector, as the REST routes do, in one call per field', async () => {
    const { data, calls } = await measuredQuery(
      server.url,
      `{ validators { cycles(first: 3) { cycleStart cycleEnd electionId totalStake total main totalWeight validators { index pubkey weight stake stakeHolder { address } } }
         elections { electionId finished totalStake participants { validatorPubkey stake maxFactor stakeHolder { address } } } complaints { hash } } }`,
    );
    const rest = (await (await fetch(`${server.url}/api/v3/validators/cycles?return_validators=true&limit=3`)).json()) as any;
    expect(data.validators.cycles.map((c: any) => c.cycleStart)).toEqual(rest.cycles.map((c: any) => c.cycle_start));
    expect(data.validators.cycles.length).toBeGreaterThan(0);
    const [c] = data.validators.cycles;
    expect(c.validators).toHaveLength(c.total);
    expect(c.validators.reduce((s: bigint, v: any) => s + BigInt(v.weight), 0n)).toBe(BigInt(c.totalWeight));
    // the current set's stake and holder come from the elector's past_elections (the previous set's are unfrozen)
    const holder = rawUpper(validatorWallet('graphql-validators-test', chain.globalId).address);
    expect(c).toMatchObject({ electionId: c.cycleStart, totalStake: GENESIS_ELECTOR.frozenStake.toString() });
    expect(c.validators.map((v: any) => [v.stake, v.stakeHolder?.address])).toEqual([[GENESIS_ELECTOR.frozenStake.toString(), holder]]);
    expect(data.validators.cycles[1].validators.map((v: any) => [v.stake, v.stakeHolder])).toEqual([[null, null]]);
    // the open election with the genesis stake (its max_factor), then the current set's (frozen: no factor kept)
    const rows = (e: any) => [e.finished, e.totalStake, e.participants.map((p: any) => [p.stake, p.maxFactor, p.stakeHolder.address])];
    expect(data.validators.elections.map(rows)).toEqual([
      [false, GENESIS_ELECTOR.stake.toString(), [[GENESIS_ELECTOR.stake.toString(), GENESIS_ELECTOR.maxFactor, holder]]],
      [true, GENESIS_ELECTOR.frozenStake.toString(), [[GENESIS_ELECTOR.frozenStake.toString(), null, holder]]],
    ]);
    expect(data.validators.elections[1].electionId).toBe(c.cycleStart);
    // no complaint was filed
    expect(data.validators.complaints).toEqual([]);
    expect(calls).toMatchObject({ 'v3.validatorCycles': 1, 'v3.validatorElections': 1, 'v3.validatorComplaints': 1 });
  });

  it('DnsAuction: the genesis .ton auction from the DNS item (null on other items) and from Query.dnsAuctions by bidder', async () => {
    const [alice, bob] = chain.keyedWallets().map((w) => rawUpper(w.contract.address));
    const { item } = genesisDns();
    const itemRaw = rawUpper(item);
    const fields = 'domain maxBid endTime lastFillUpTime finished bidder { address } item { address }';
    const { data, calls } = await measuredQuery(
      server.url,
      `{ nftItems(first: 10) { nodes { address dnsAuction { ${fields} } } }
         bob: dnsAuctions(bidder: "${bob}") { nodes { ${fields} } }
         won: dnsAuctions(bidder: "${bob}", state: won) { nodes { domain } }
         alice: dnsAuctions(bidder: "${alice}") { nodes { domain } } }`,
    );
    const auction = {
      domain: 'gateway.ton',
      maxBid: GENESIS_DNS.outbid.toString(),
      endTime: GENESIS_TIME + 50 + GENESIS_DNS.auctionDuration,
      lastFillUpTime: GENESIS_TIME + 55,
      finished: false,
      bidder: { address: bob },
      item: { address: itemRaw },
    };
    const nodes = data.nftItems.nodes as { address: string; dnsAuction: unknown }[];
    expect(nodes.length).toBeGreaterThan(1);
    for (const n of nodes) expect(n.dnsAuction).toEqual(n.address === itemRaw ? auction : null);
    expect(data.bob.nodes).toEqual([auction]);
    expect(data.won.nodes).toEqual([]);
    expect(data.alice.nodes).toEqual([]);
    // one /dns/activeAuctions call per root field; each item read once (get_auction_info), the DNS item's
    // get_last_fill_up_time and get_domain only once it has an auction
    expect(calls['v3.dnsAuctions']).toBe(3);
    expect(calls['v3.runGetMethod']).toBe(nodes.length + 2);
  });
});
