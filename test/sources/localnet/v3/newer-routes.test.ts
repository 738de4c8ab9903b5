/**
 * The twelve routes of toncenter v3 1.2.6 that the seed did not list (v3-more-routes.md §1–§4): on the local
 * chain (instance A) and through upstream mode in front of it (instance B, real HTTP on loopback), each answer
 * checked against the 1.2.6 OpenAPI with closed objects, every 422 text, the activeAuctions cursor, and the
 * validator cycles against the chain's own config params.
 */
import { Address, Cell, Dictionary } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDnsCursor } from '../../../../src/api/v3/dns.js';
import { V3_DESCRIPTORS } from '../../../../src/api/v3/index.js';
import type { Gateway } from '../../../../src/gateway.js';
import { expandActionTypes } from '../../../../src/model/v3/action-types.js';
import { GENESIS_DNS, genesisDns } from '../../../../src/sources/localnet/chain/genesis-dns.js';
import { GENESIS_POOL } from '../../../../src/sources/localnet/chain/genesis-pool.js';
import { loadConfig, type Config } from '../../../../src/config.js';
import { rawUpper } from '../../../../src/model/address.js';
import { adnlAddress, GENESIS_ELECTOR, validatorKeys } from '../../../../src/sources/localnet/chain/genesis-elector.js';
import { validatorWallet } from '../../../../src/sources/localnet/chain/genesis-validator.js';
import { GENESIS_TIME } from '../../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../../helpers/gateway.js';
import { assert126 } from '../../../helpers/openapi-126.js';
import { hasShared } from '../../../helpers/shared.js';
import { http, startUpstreamGateway } from '../../upstream/helpers.js';

const V3 = '/api/v3';
const TON = 1_000_000_000n;

describe.skipIf(!hasShared)('v3 routes new in 1.2.6, local chain and upstream mode', () => {
  let A: Gateway;
  let B: Gateway;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    // validators compiled before the gateways serve (a long compile mid-test stalls kept-alive sockets)
    for (const d of V3_DESCRIPTORS.slice(-12)) assert126(`${V3}${d.path}`);
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const [a, b] = A.chain!.keyedWallets();
    alice = a!.contract.address.toRawString();
    bob = b!.contract.address.toRawString();
  }, 120_000);

  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  /** The same call on A and B: same status and body. */
  async function both(path: string): Promise<{ status: number; body: any }> {
    const a = await http(`${A.url}${V3}${path}`);
    const b = await http(`${B.url}${V3}${path}`);
    expect(b, `upstream mode: ${path}`).toEqual(a);
    return a as { status: number; body: any };
  }

  it('answers every new route alike on both sources, as the 1.2.6 OpenAPI documents it', async () => {
    const calls = [
      `/dns/activeAuctions?bidder=${alice}`,
      `/dns/activeAuctions?bidder=${alice}&state=bidding&include_nft_items=true&limit=5`,
      `/nft/sales?address=${alice}&address=${bob}`,
      `/staking/nominatorPools/nominator?nominator=${alice}`,
      `/staking/nominatorPools/nominatorEvents?pool=${alice}`,
      `/staking/nominatorPools/nominatorEvents?pool=${alice}&nominator=${bob}&start_utime=1&end_utime=2000000000&limit=3`,
      `/staking/nominatorPools/nominatorRewards?pool=${alice}&nominator=${bob}`,
      `/staking/nominatorPools/validatorEvents?pool=${alice}&type=reward`,
      `/staking/nominatorPools/validatorEvents?validator=${alice}`,
      `/staking/nominatorPools/validatorRewards?pool=${alice}&validator=${bob}&start_utime=5`,
      '/validators/events',
      '/validators/elections?return_participants=true',
      '/validators/cycles',
      '/validators/cycles?return_validators=true&limit=2&sort=asc',
      '/validators/complaints',
    ];
    for (const path of calls) {
      const r = await both(path);
      expect(r.status, path).toBe(200);
      assert126(`${V3}${path.split('?')[0]}`, r.body, { closed: true });
    }
  });

  it('echoes the window of the staking event routes and leaves it out when not given', async () => {
    const r = await both(`/staking/nominatorPools/nominatorRewards?pool=${alice}&nominator=${bob}&start_utime=7&end_utime=9`);
    expect(r.body).toEqual({ start_utime: 7, end_utime: 9, total_on_page: '0', rewards: [], address_book: expect.any(Object) });
    const plain = await both(`/staking/nominatorPools/nominatorEvents?pool=${alice}`);
    expect(Object.keys(plain.body).sort()).toEqual(['address_book', 'events']);
  });

  it('answers 404 for an account that is not a nominator pool, and no positions for a non-nominator', async () => {
    const r = await both(`/staking/nominatorPools/pool?pool=${alice}`);
    expect(r).toEqual({ status: 404, body: { code: 404, error: 'Pool not found' } });
    const n = await both(`/staking/nominatorPools/nominator?nominator=${alice}`);
    expect(n.body.nominator_pools).toEqual([]);
  });

  describe('the genesis nominator pool (genesis-pool.ts): the validator and two nominators, carol and dave', () => {
    const P = '/staking/nominatorPools';
    let pool: string;
    let validator: string;
    let carol: string;
    let dave: string;
    const upper = (raw: string) => raw.toUpperCase();
    const at = (step: number) => GENESIS_TIME + 5 * step;

    beforeAll(() => {
      const p = A.chain!.nominatorPool()!;
      pool = upper(p.pool.toRawString());
      validator = upper(p.validator.toRawString());
      const wallets = A.chain!.keyedWallets();
      carol = upper(wallets[2]!.contract.address.toRawString());
      dave = upper(wallets[3]!.contract.address.toRawString());
    });

    /** A pool route, alike on both sources and valid against the 1.2.6 OpenAPI (closed objects). */
    async function route(path: string): Promise<any> {
      const r = await both(`${P}${path}`);
      expect(r.status, path).toBe(200);
      assert126(`${V3}${P}${path.split('?')[0]}`, r.body, { closed: true });
      return r.body;
    }

    it('/pool reads the data cell: idle, the validator stake, both nominators, the config; the address book names them all', async () => {
      const body = await route(`/pool?pool=${pool}`);
      const { active_nominators: active, address_book: book, ...info } = body;
      expect(info).toEqual({
        stake_amount_sent: '0',
        validator_amount: GENESIS_POOL.validatorStake.toString(),
        validator_address: validator,
        validator_reward_share: GENESIS_POOL.validatorRewardShare,
        state: 0,
        nominators_count: 2,
        max_nominators_count: GENESIS_POOL.maxNominators,
        min_validator_stake: GENESIS_POOL.minValidatorStake.toString(),
        min_nominator_stake: GENESIS_POOL.minNominatorStake.toString(),
      });
      const byAddress = (x: { address: string }, y: { address: string }) => x.address.localeCompare(y.address);
      expect([...active].sort(byAddress)).toEqual(
        [
          { address: carol, balance: GENESIS_POOL.carolStake.toString(), pending_balance: '0' },
          { address: dave, balance: GENESIS_POOL.daveAgain.toString(), pending_balance: '0' },
        ].sort(byAddress),
      );
      expect(Object.keys(book).sort()).toEqual([pool, validator, carol, dave].sort());
      // any form of the address names the pool
      expect((await both(`${P}/pool?pool=${A.chain!.nominatorPool()!.pool.toString()}`)).body).toEqual(body);
    });

    it('/nominator lists each nominator\'s position in the pool', async () => {
      for (const [who, stake] of [
        [carol, GENESIS_POOL.carolStake],
        [dave, GENESIS_POOL.daveAgain],
      ] as const) {
        const body = await route(`/nominator?nominator=${who}`);
        expect(body.nominator_pools).toEqual([{ pool_address: pool, balance: stake.toString(), pending_balance: '0' }]);
        expect(Object.keys(body.address_book).sort()).toEqual([who, pool].sort());
      }
    });

    it('/nominatorEvents: the deposits and dave\'s withdrawal, newest first, with the balances around each', async () => {
      const body = await route(`/nominatorEvents?pool=${pool}`);
      const event = (who: string, type: string, step: number, before: bigint, after: bigint) => ({
        pool_address: pool,
        nominator_address: who,
        type,
        utime: at(step),
        amount: (after > before ? after - before : before - after).toString(),
        balance_delta: (after - before).toString(),
        pending_balance_delta: '0',
        balance_before: before.toString(),
        balance_after: after.toString(),
        pending_balance_before: '0',
        pending_balance_after: '0',
        withdraw_request_before: false,
        withdraw_request_after: false,
      });
      const { carolStake, daveStake, daveAgain } = GENESIS_POOL;
      expect(body.events).toMatchObject([
        event(dave, 'deposit', 17, 0n, daveAgain),
        event(dave, 'withdrawal', 16, daveStake, 0n),
        event(dave, 'deposit', 15, 0n, daveStake),
        event(carol, 'deposit', 15, 0n, carolStake),
      ]);
      // carol and dave deposit in the same block: the later transaction first
      const [, , d, c] = body.events;
      expect(BigInt(d.tx_lt)).toBeGreaterThan(BigInt(c.tx_lt));
      expect(new Set(body.events.map((e: any) => e.tx_hash)).size).toBe(4);
      expect(Object.keys(body.address_book).sort()).toEqual([pool, carol, dave].sort());
      // each event is a transaction of the pool
      const txs = (await http(`${A.url}${V3}/transactions?account=${pool}&limit=20`)).body as any;
      const hashes = txs.transactions.map((t: any) => t.hash);
      for (const e of body.events) expect(hashes).toContain(e.tx_hash);

      // filters: the nominator, the window (both ends inclusive), the limit
      expect((await route(`/nominatorEvents?pool=${pool}&nominator=${carol}`)).events).toEqual([body.events[3]]);
      const windowed = await route(`/nominatorEvents?pool=${pool}&start_utime=${at(16)}&end_utime=${at(17)}`);
      expect(windowed).toMatchObject({ start_utime: at(16), end_utime: at(17) });
      expect(windowed.events).toEqual(body.events.slice(0, 2));
      expect((await route(`/nominatorEvents?pool=${pool}&limit=1`)).events).toEqual(body.events.slice(0, 1));
      // the events of an account that is not a pool: none
      expect((await route(`/nominatorEvents?pool=${carol}`)).events).toEqual([]);
    });

    it('/validatorEvents: none, the validator\'s deposit came with the pool\'s deployment (a transaction that starts from no pool is no event)', async () => {
      // the reference's worker replays each pool transaction from the pool's state before it; the deploying one has none
      const first = (await http(`${A.url}${V3}/transactions?account=${pool}&sort=asc&limit=1`)).body as any;
      expect(first.transactions[0]).toMatchObject({ orig_status: 'uninit', end_status: 'active' });
      for (const q of [`pool=${pool}`, `validator=${validator}`, `pool=${pool}&type=deposit`]) {
        expect(await route(`/validatorEvents?${q}`)).toEqual({ events: [], address_book: {} });
      }
    });

    it('rewards are empty: no stake has gone to an elector, so no recover_stake_ok has paid one', async () => {
      for (const who of [carol, dave]) {
        expect(await route(`/nominatorRewards?pool=${pool}&nominator=${who}`)).toEqual({ total_on_page: '0', rewards: [], address_book: expect.any(Object) });
      }
      expect(await route(`/validatorRewards?pool=${pool}&validator=${validator}`)).toEqual({ total_on_page: '0', rewards: [], address_book: expect.any(Object) });
    });

    it('the graph: Account.nominatorPool with its validator, nominators and bookings, as the REST routes answer', async () => {
      const res = await fetch(`${A.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `{ account(address: "${pool}") { nominatorPool { state nominatorsCount validatorAmount validatorRewardShare stakeAmountSent
            validator { address } nominators { account { address } balance pendingBalance } bookings { type amount utime nominator { address } } } }
            carol: account(address: "${carol}") { nominatorPool { state } } }`,
        }),
      });
      const { data, errors } = (await res.json()) as any;
      expect(errors).toBeUndefined();
      const np = data.account.nominatorPool;
      expect(np).toMatchObject({
        state: 0,
        nominatorsCount: 2,
        validatorAmount: GENESIS_POOL.validatorStake.toString(),
        validatorRewardShare: GENESIS_POOL.validatorRewardShare,
        stakeAmountSent: '0',
        validator: { address: validator },
      });
      expect(np.nominators.map((n: any) => [n.account.address, n.balance, n.pendingBalance]).sort()).toEqual(
        [
          [carol, GENESIS_POOL.carolStake.toString(), '0'],
          [dave, GENESIS_POOL.daveAgain.toString(), '0'],
        ].sort(),
      );
      const events = (await route(`/nominatorEvents?pool=${pool}`)).events;
      expect(np.bookings).toEqual(events.map((e: any) => ({ type: e.type, amount: e.amount, utime: e.utime, nominator: { address: e.nominator_address } })));
      expect(data.carol.nominatorPool).toBeNull();
    });
  });

  it('reads validator cycles from the chain config: params 34 (the current set), 15, 16 and 17', async () => {
    const param = async (id: number) => {
      const r = (await http(`${A.url}/api/v2/getConfigParam?config_id=${id}`)).body as any;
      return Cell.fromBase64(r.result.config.bytes).beginParse();
    };
    const p34 = await param(34);
    expect([0x11, 0x12]).toContain(p34.loadUint(8));
    const since = p34.loadUint(32);
    const until = p34.loadUint(32);
    const total = p34.loadUint(16);
    const main = p34.loadUint(16);
    const p15 = await param(15);
    const p16 = await param(16);

    const r = await both(`/validators/cycles?cycle_start=${since}&return_validators=true`);
    expect(r.body.cycles).toHaveLength(1);
    const c = r.body.cycles[0];
    expect(c).toMatchObject({
      cycle_start: since,
      cycle_end: until,
      total,
      main,
      validators_elected_for: p15.loadUint(32),
      elections_start_before: p15.loadUint(32),
      elections_end_before: p15.loadUint(32),
      stake_held_for: p15.loadUint(32),
      max_validators: p16.loadUint(16),
      max_main_validators: p16.loadUint(16),
      min_validators: p16.loadUint(16),
    });
    expect(c.validators).toHaveLength(total);
    expect(c.validators.map((v: any) => v.validator_index)).toEqual([...Array(total).keys()]);
    const weights = c.validators.reduce((s: bigint, v: any) => s + BigInt(v.weight), 0n);
    expect(BigInt(c.total_weight)).toBe(weights);

    // a pubkey filter keeps the cycle and narrows its validators; base64 and hex name the same key
    const v = c.validators[0];
    const b64 = Buffer.from(v.validator_pubkey, 'hex').toString('base64');
    for (const key of [v.validator_pubkey.toLowerCase(), encodeURIComponent(b64), b64.replace(/\+/g, '-').replace(/\//g, '_')]) {
      const f = await both(`/validators/cycles?cycle_start=${since}&return_validators=true&validator_pubkey=${key}`);
      expect(f.body.cycles[0].validators).toEqual([v]);
    }
    // the window filters on cycle_start; sort orders by it
    expect((await both(`/validators/cycles?start_utime=${since + 1}&end_utime=${since + 1}`)).body.cycles).toEqual([]);
    const asc = (await both('/validators/cycles?sort=asc')).body.cycles.map((x: any) => x.cycle_start);
    expect(asc).toEqual([...asc].sort((x: number, y: number) => x - y));
    // without return_validators the list is left out
    expect((await both(`/validators/cycles?cycle_start=${since}`)).body.cycles[0].validators).toBeUndefined();
  });

  /** The local validator: its key, ADNL address, masterchain wallet, and the cycle times of config param 34. */
  async function localValidator() {
    const { seed } = loadConfig([], {}) as Config;
    const key = validatorKeys(seed).publicKey;
    const p34 = Cell.fromBase64(((await http(`${A.url}/api/v2/getConfigParam?config_id=34`)).body as any).result.config.bytes).beginParse();
    p34.skip(8);
    const since = p34.loadUint(32);
    return {
      pubkey: key.toString('hex').toUpperCase(),
      adnl: adnlAddress(key).toString('hex').toUpperCase(),
      holder: rawUpper(validatorWallet(seed, A.chain!.globalId).address),
      since,
      until: p34.loadUint(32),
    };
  }

  it('holds the local validator in config param 34, its stake and stake holder from the elector\'s past_elections', async () => {
    const me = await localValidator();
    const r = await both('/validators/cycles?return_validators=true');
    const [current, previous] = r.body.cycles;
    // param 34 (current, elected at its start) and param 32 (the cycle before it, same validator); no param 36
    expect(r.body.cycles).toHaveLength(2);
    const validator = { validator_index: 0, validator_pubkey: me.pubkey, adnl_addr: me.adnl, weight: (1n << 60n).toString(), complaints: [] };
    const stake = GENESIS_ELECTOR.frozenStake.toString();
    expect(current).toMatchObject({ cycle_start: me.since, cycle_end: me.until, election_id: me.since, total: 1, main: 1, total_stake: stake, min_stake: stake, max_stake: stake });
    expect(current.validators).toEqual([{ ...validator, stake_holder_address: me.holder, stake }]);
    // the previous cycle's election is unfrozen and gone from past_elections: its stakes are unknown
    expect(previous).toMatchObject({ cycle_start: me.since - current.validators_elected_for, cycle_end: me.since });
    expect(previous.validators).toEqual([validator]);
    expect(previous.election_id).toBeUndefined();
    expect(previous.total_stake).toBeUndefined();
    // the stake holder filter finds the current cycle only
    const held = await both(`/validators/cycles?stake_holder_address=${me.holder}`);
    expect(held.body.cycles.map((c: any) => c.cycle_start)).toEqual([me.since]);
    expect(held.body.address_book).toEqual({});
  });

  it('answers the genesis stake (stake_accepted), the recovery request at the elector (recover_requested) and its payment at the wallet (stake_recovered)', async () => {
    const me = await localValidator();
    const r = await both('/validators/events');
    const [recovered, requested, accepted] = r.body.events;
    expect(r.body.events).toHaveLength(3);
    // the validator's wallet staked at genesis step 12 and recovered at step 13, query ids being the times
    expect(accepted).toMatchObject({
      type: 'stake_accepted',
      utime: GENESIS_TIME + 60,
      stake_holder_address: me.holder,
      validator_pubkey: me.pubkey,
      adnl_addr: me.adnl,
      election_id: me.until,
      query_id: String(GENESIS_TIME + 60),
      // the message carried 1 TON more, which the elector keeps for its answer
      amount: GENESIS_ELECTOR.stake.toString(),
    });
    expect(accepted.reason).toBeUndefined();
    // the request (what it carried) at the elector, then the credit and what is left of the request's 1 TON at the
    // wallet (the elector pays no gas on the masterchain), in the transaction that took it
    expect(requested).toMatchObject({ type: 'recover_requested', utime: GENESIS_TIME + 65, stake_holder_address: me.holder, query_id: String(GENESIS_TIME + 65), amount: TON.toString() });
    expect(recovered).toMatchObject({ type: 'stake_recovered', utime: GENESIS_TIME + 65, stake_holder_address: me.holder, query_id: String(GENESIS_TIME + 65) });
    expect(BigInt(recovered.tx_lt)).toBeGreaterThan(BigInt(requested.tx_lt));
    expect(BigInt(recovered.amount)).toBeGreaterThan(GENESIS_ELECTOR.credit);
    expect(BigInt(recovered.amount)).toBeLessThanOrEqual(GENESIS_ELECTOR.credit + TON);
    const walletTxs = (await http(`${A.url}${V3}/transactions?account=${me.holder}&limit=20`)).body as any;
    expect(walletTxs.transactions.map((t: any) => t.hash)).toContain(recovered.tx_hash);
    expect(r.body.address_book[me.holder].interfaces).toEqual(['wallet_v4r2']);
    // filters: type, pubkey (another key: none), window, order
    expect((await both('/validators/events?type=stake_recovered')).body.events).toEqual([recovered]);
    expect((await both(`/validators/events?validator_pubkey=${me.pubkey}`)).body.events).toEqual([accepted]);
    expect((await both(`/validators/events?validator_pubkey=${'00'.repeat(32)}`)).body.events).toEqual([]);
    expect((await both(`/validators/events?start_utime=${GENESIS_TIME + 61}`)).body.events).toEqual([recovered, requested]);
    expect((await both('/validators/events?sort=asc')).body.events).toEqual([accepted, requested, recovered]);
  });

  it('lists the open election (participant_list_extended) and the past one (past_elections), with participants on demand', async () => {
    const me = await localValidator();
    const r = await both('/validators/elections?return_participants=true');
    const [open, past] = r.body.elections;
    expect(r.body.elections).toHaveLength(2);
    const { min_stake_limit: minStake, elections_end_before: endBefore } = (await both('/validators/cycles')).body.cycles[0];
    /** one election of the local validator alone: `stake` is its stake and the total */
    const election = (id: number, stake: bigint, finished: boolean, member: object) => ({
      election_id: id,
      elect_close: id - endBefore,
      min_stake: minStake,
      total_stake: stake.toString(),
      total_participants: 1,
      failed: false,
      finished,
      participants: [{ validator_pubkey: me.pubkey, stake_holder_address: me.holder, adnl_addr: me.adnl, stake: stake.toString(), ...member }],
    });
    // the next cycle's election, open since before genesis (nothing conducts it on the local chain)
    expect(open).toEqual(election(me.until, GENESIS_ELECTOR.stake, false, { max_factor: GENESIS_ELECTOR.maxFactor }));
    // the current set's election: its frozen stake, the member's index in the set, no max_factor (not kept once frozen)
    expect(past).toEqual(election(me.since, GENESIS_ELECTOR.frozenStake, true, { validator_index: 0 }));
    expect(r.body.address_book[me.holder]).toBeDefined();
    expect((await both('/validators/elections?finished=true')).body.elections.map((e: any) => e.election_id)).toEqual([me.since]);
    const { participants: _participants, ...openAlone } = open;
    expect((await both(`/validators/elections?election_id=${me.until}`)).body.elections).toEqual([openAlone]);
    expect((await both(`/validators/elections?adnl_address=${'11'.repeat(32)}`)).body.elections).toEqual([]);
  });

  it('lists no complaints: none was filed with the elector (list_complaints of the past election is empty)', async () => {
    const me = await localValidator();
    for (const path of ['/validators/complaints', `/validators/complaints?election_id=${me.since}`, `/validators/complaints?validator_pubkey=${me.pubkey}`]) {
      const r = await both(path);
      expect(r.body).toEqual({ complaints: [], address_book: {} });
      assert126(`${V3}/validators/complaints`, r.body, { closed: true });
    }
  });

  it('lists the genesis .ton auction for its leading bidder (bob), by state, and pages it by an opaque cursor', async () => {
    const { item } = genesisDns();
    const itemRaw = item.toRawString().toUpperCase();
    const bobRaw = bob.toUpperCase();
    const end = String(GENESIS_TIME + 50 + GENESIS_DNS.auctionDuration);
    const auction = {
      nft_item_address: itemRaw,
      domain: 'gateway.ton',
      max_bid_address: bobRaw,
      max_bid_amount: GENESIS_DNS.outbid.toString(),
      auction_end_time: end,
      last_fill_up_time: String(GENESIS_TIME + 55),
      finished: false,
    };
    const first = await both(`/dns/activeAuctions?bidder=${bob}&limit=1`);
    expect(first.status).toBe(200);
    assert126(`${V3}/dns/activeAuctions`, first.body, { closed: true });
    const cursor = encodeDnsCursor({ endTime: BigInt(end), item: itemRaw });
    expect(first.body).toEqual({ auctions: [auction], address_book: expect.any(Object), metadata: expect.any(Object), next_cursor: cursor });
    expect(Object.keys(first.body.address_book).sort()).toEqual([bobRaw, itemRaw].sort());
    expect(Buffer.from(cursor, 'base64url').toString()).toBe(`${end.padStart(20, '0')}:${itemRaw}`);
    // the page after the only auction is empty, and not full, so it has no cursor
    expect((await both(`/dns/activeAuctions?bidder=${bob}&after=${cursor}`)).body).toMatchObject({ auctions: [], next_cursor: null });
    // a page that is not full has no cursor either
    expect((await both(`/dns/activeAuctions?bidder=${bob}`)).body).toMatchObject({ auctions: [auction], next_cursor: null });
    // the auction runs until 2035: bidding, not won
    expect((await both(`/dns/activeAuctions?bidder=${bob}&state=bidding`)).body.auctions).toEqual([auction]);
    expect((await both(`/dns/activeAuctions?bidder=${bob}&state=won`)).body.auctions).toEqual([]);
    // alice was outbid: she leads nothing
    expect((await both(`/dns/activeAuctions?bidder=${alice}`)).body.auctions).toEqual([]);
    // with the item embedded
    const withItem = await both(`/dns/activeAuctions?bidder=${bob}&include_nft_items=true`);
    expect(withItem.body.auctions[0].nft_item).toMatchObject({ address: itemRaw, init: true, owner_address: null });
    // a cursor before the auction still reaches it
    const before = encodeDnsCursor({ endTime: 1700000000n, item: `0:${'AB'.repeat(32)}` });
    expect((await both(`/dns/activeAuctions?bidder=${bob}&after=${before}`)).body.auctions).toEqual([auction]);
  });

  it('answers each documented 422 with its text, alike on both sources', async () => {
    const key = 'AB'.repeat(32);
    const cases: [string, string][] = [
      ['/dns/activeAuctions', 'bidder address is required'],
      [`/dns/activeAuctions?bidder=${alice}&state=open`, 'state must be one of: all, won, bidding'],
      [`/dns/activeAuctions?bidder=${alice}&after=not-a-cursor`, 'invalid after cursor'],
      [`/dns/activeAuctions?bidder=${alice}&after=${Buffer.from('12:0:00').toString('base64url')}`, 'invalid after cursor'],
      [`/dns/activeAuctions?bidder=${alice}&after=${encodeDnsCursor({ endTime: 1n, item: `0:${key}` })}&offset=2`, 'use either after or offset, not both'],
      [`/dns/activeAuctions?bidder=${alice}&limit=1001`, 'limit is not allowed: 1001 > 1000'],
      ['/nft/sales', 'at least 1 address required'],
      ['/staking/nominatorPools/pool', 'pool parameter is required'],
      ['/staking/nominatorPools/nominator', 'nominator parameter is required'],
      ['/staking/nominatorPools/nominatorEvents', 'pool parameter is required'],
      [`/staking/nominatorPools/nominatorEvents?pool=${alice}&start_utime=10&end_utime=9`, 'start_utime must be less than or equal to end_utime'],
      [`/staking/nominatorPools/nominatorRewards?pool=${alice}`, 'nominator and pool parameters are required'],
      ['/staking/nominatorPools/validatorEvents', 'validator or pool parameter is required'],
      [`/staking/nominatorPools/validatorRewards?validator=${alice}`, 'validator and pool parameters are required'],
      [`/staking/nominatorPools/validatorRewards?validator=${alice}&pool=${bob}&limit=5000`, 'limit is not allowed: 5000 > 1000'],
      [`/validators/events?stake_holder_address=${alice}&adnl_address=${key}`, 'provide either stake_holder_address or adnl_address, not both'],
      ['/validators/events?validator_pubkey=abc', 'validator_pubkey must be a 32-byte value in hex, base64 or base64url format'],
      ['/validators/cycles?adnl_address=zz', 'adnl_address must be a 32-byte value in hex, base64 or base64url format'],
      ['/validators/elections?return_participants=true&limit=101', 'limit must not exceed 100 when return_participants is true'],
      ['/validators/cycles?return_validators=true&limit=101', 'limit must not exceed 100 when return_validators is true'],
      ['/validators/complaints?start_utime=3&end_utime=2', 'start_utime must be less than or equal to end_utime'],
      ['/validators/complaints?limit=1001', 'limit is not allowed: 1001 > 1000'],
    ];
    for (const [path, error] of cases) {
      const r = await both(path);
      expect(r, path).toEqual({ status: 422, body: { code: 422, error } });
    }
    // 1001 addresses do not fit the URL bound (8 KiB) over GET; the route's own rule holds behind it
    const sales = V3_DESCRIPTORS.find((d) => d.path === '/nft/sales')!;
    const many = Array.from({ length: 1001 }, (_, i) => new Address(0, Buffer.alloc(32, i % 256)));
    expect(() => sales.check!({ address: many })).toThrow('maximum 1000 addresses allowed');
    expect(() => sales.check!({ address: many.slice(1) })).not.toThrow();
    // the validators routes accept 100 with the embedded lists
    expect((await both('/validators/elections?return_participants=true&limit=100')).status).toBe(200);
  });

  it('publishes the twelve routes in /api/v3/openapi.json', async () => {
    const doc = (await http(`${A.url}/api/v3/openapi.json`)).body as any;
    for (const p of [
      'dns/activeAuctions',
      'nft/sales',
      'staking/nominatorPools/pool',
      'staking/nominatorPools/nominator',
      'staking/nominatorPools/nominatorEvents',
      'staking/nominatorPools/nominatorRewards',
      'staking/nominatorPools/validatorEvents',
      'staking/nominatorPools/validatorRewards',
      'validators/events',
      'validators/elections',
      'validators/cycles',
      'validators/complaints',
    ]) {
      expect(doc.paths[`${V3}/${p}`]?.get, p).toBeDefined();
    }
    const limit = doc.paths[`${V3}/validators/cycles`].get.parameters.find((x: any) => x.name === 'limit');
    expect(limit.schema).toMatchObject({ default: 10, minimum: 1, maximum: 1000 });
    expect(doc.components.schemas.ValidatorComplaint.properties.approved_percent.type).toBe('number');
  });
});

describe.skipIf(!hasShared)('members new in 1.2.6 on the routes the seed listed', () => {
  let A: Gateway;
  let B: Gateway;
  let alice: string;

  beforeAll(async () => {
    for (const r of ['accountStates', 'walletStates', 'addressInformation', 'walletInformation', 'actions', 'transactions', 'nft/items']) assert126(`${V3}/${r}`);
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    alice = A.chain!.keyedWallets()[0]!.contract.address.toRawString();
  }, 120_000);

  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  async function both(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }> {
    const a = await http(`${A.url}${V3}${path}`, { headers });
    const b = await http(`${B.url}${V3}${path}`, { headers });
    expect(b, `upstream mode: ${path}`).toEqual(a);
    return a as { status: number; body: any };
  }

  /** The accounts config param 44 suspends, as the chain holds it. */
  async function suspendedList(): Promise<{ list: string[]; until: number }> {
    const r = (await http(`${A.url}/api/v2/getConfigParam?config_id=44`)).body as any;
    const s = Cell.fromBase64(r.result.config.bytes).beginParse();
    expect(s.loadUint(8)).toBe(0);
    const dict = s.loadDict(Dictionary.Keys.BigUint(288), { serialize: () => undefined, parse: () => true });
    const until = s.loadUint(32);
    const list = dict.keys().map((k) => `${Number(BigInt.asIntN(32, k >> 256n))}:${(k & ((1n << 256n) - 1n)).toString(16).padStart(64, '0').toUpperCase()}`);
    return { list, until };
  }

  it('answers `suspended` on accountStates, walletStates, addressInformation and walletInformation, from config param 44', async () => {
    const { list, until } = await suspendedList();
    const now = Math.floor(Date.now() / 1000);
    const listed = list[0];
    for (const path of [`/accountStates?address=${alice}`, `/walletStates?address=${alice}`]) {
      const r = await both(path);
      const rows = r.body.accounts ?? r.body.wallets;
      expect(rows, path).toHaveLength(1);
      // omit-empty in toncenter: true or absent (toncenter-newer.md §5)
      expect(rows[0], path).not.toHaveProperty('suspended');
      assert126(`${V3}${path.split('?')[0]}`, r.body);
    }
    for (const path of [`/addressInformation?address=${alice}`, `/walletInformation?address=${alice}`]) {
      const r = await both(path);
      expect(r.body, path).not.toHaveProperty('suspended');
      assert126(`${V3}${path.split('?')[0]}`, r.body);
    }
    if (listed !== undefined) {
      // an account the chain's config suspends (unknown to this chain otherwise: the synthetic uninit answer)
      const r = await both(`/addressInformation?address=${listed}`);
      expect(r.body).toMatchObject({ status: 'uninit' });
      expect(r.body.suspended).toBe(until > now ? true : undefined);
    }
  });

  it('knows action version v5: latest now includes the DeDust v2 claims, by parameter and by X-Actions-Version', async () => {
    const latest = expandActionTypes(['latest']);
    expect(latest.has('dedust_v2_claim_fees')).toBe(true);
    expect(latest.has('dedust_v2_claim_reward')).toBe(true);
    expect([...expandActionTypes(['v5'])].sort()).toEqual([...latest].sort());
    expect(expandActionTypes(['v4']).has('dedust_v2_claim_fees')).toBe(false);
    const byParam = await both(`/actions?account=${alice}&supported_action_types=v5&limit=5`);
    const byHeader = await both(`/actions?account=${alice}&limit=5`, { 'x-actions-version': 'v5' });
    expect(byParam.status).toBe(200);
    expect(byHeader.body).toEqual(byParam.body);
    assert126(`${V3}/actions`, byParam.body);
  });

  it('prints finality as a string on transactions and actions, and takes include_on_sale on /nft/items', async () => {
    const txs = await both(`/transactions?account=${alice}&limit=3`);
    expect(txs.body.transactions.length).toBeGreaterThan(0);
    for (const t of txs.body.transactions) expect(['pending', 'confirmed', 'finalized']).toContain(t.finality);
    assert126(`${V3}/transactions`, txs.body);
    const items = await both(`/nft/items?owner_address=${alice}&include_on_sale=true`);
    expect(items.status).toBe(200);
    assert126(`${V3}/nft/items`, items.body);
  });

  it('answers the genesis sale and auction on /nft/sales, and their items to the sellers with include_on_sale, alike on both sources', async () => {
    const [sale, auction] = (await A.chain!.tokens()).nft_sales;
    const sales = await both(`/nft/sales?address=${sale!.address}&address=${auction!.address}`);
    expect(sales.status).toBe(200);
    assert126(`${V3}/nft/sales`, sales.body, { closed: true });
    expect(sales.body.nft_sales.map((x: any) => [x.type, x.address, x.nft_item.index])).toEqual([
      ['getgems_sale', sale!.address.toUpperCase(), String(sale!.item_index)],
      ['getgems_auction', auction!.address.toUpperCase(), String(auction!.item_index)],
    ]);
    const listedBy = async (seller: string) => {
      const r = await both(`/nft/items?owner_address=${seller}&include_on_sale=true`);
      assert126(`${V3}/nft/items`, r.body, { closed: true });
      return r.body.nft_items.map((i: any) => [i.index, i.on_sale, i.real_owner]);
    };
    const [, bob, carol] = A.chain!.keyedWallets().map((w) => w.contract.address.toRawString());
    expect(await listedBy(bob!)).toEqual([[String(sale!.item_index), true, bob!.toUpperCase()]]);
    expect(await listedBy(carol!)).toEqual([[String(auction!.item_index), true, carol!.toUpperCase()]]);
  });
});
