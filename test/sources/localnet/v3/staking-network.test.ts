/**
 * The /staking/* and /validators/* readers on the network's own contracts (../shared/fixtures/contracts: the
 * elector, the config contract and the standard nominator pool, compiled here with func-js), not on contracts
 * written for this project: a chain whose elector conducts real elections (helpers/elector-network.ts) runs three
 * of them. Validator A stakes through two pools (P1 in the first election, P2 in the second), validator B from its
 * own wallet; nominators deposit while a pool is idle and while its stake is out (pending), one asks to withdraw;
 * B's stake for a wrong election is refused and its recovery with no credit fails; B files a complaint against A
 * in the second election and votes it through, so P2 gets its stake back fined (a penalty) where P1 got it back
 * with the cycle's bonus (a reward). After every block the test reads the contracts themselves (the pools'
 * get_pool_data and list_nominators, the elector's participant_list_extended, past_elections, list_complaints and
 * compute_returned_stake, the config contract's data) and checks every route and the graph's fields against what
 * they held, kept by the reference's rules (v3-more-routes.md §3 and §4; ton-indexer v1.3's worker).
 */
import { Address, type Cell, contractAddress, Dictionary, type DictionaryValue, type TupleItem } from '@ton/core';
import { parseValidatorSet } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawUpper } from '../../../../src/model/address.js';
import { adnlAddress } from '../../../../src/sources/localnet/chain/genesis-elector.js';
import type { TxRecord } from '../../../../src/sources/localnet/chain/store.js';
import { STANDARD_NOMINATOR_POOL_CODE_HASH } from '../../../../src/sources/localnet/v3/staking.js';
import {
  comment,
  compileNetworkCode,
  complaintBody,
  ElectorNetwork,
  keysOf,
  OP,
  opBody,
  poolInit,
  poolStakeBody,
  poolValidatorBody,
  recoverStakeBody,
  stakeBody,
  TON,
  validatorSet,
  voteBody,
  type Wallet,
} from '../../../helpers/elector-network.js';
import { assert126 } from '../../../helpers/openapi-126.js';
import { withoutShared } from '../../../helpers/shared.js';
import { gql, startServer, type TestServer } from '../../../surfaces/graphql/helpers.js';

const skip = withoutShared("staking and validators on the network's elector, config contract and nominator pool");

const T = 1_800_000_000;
const SEED = 'network-staking';
const TIMES = { validatorsElectedFor: 1000, electionsStartBefore: 600, electionsEndBefore: 300, stakeHeldFor: 200 };
const LIMITS = { minStake: 300n * TON, maxStake: 10_000_000n * TON, minTotalStake: 300n * TON, maxStakeFactor: 3 * 65536 };
const MAX_FACTOR = 3 * 65536;
/** pool.fc: op::recover_stake_ok from the elector, and the validator's ops 4 (deposit) and 5 (withdraw) */
const OP_RECOVER_STAKE_OK = 0xf96f7324;
const VALIDATOR_OPS: Record<number, string> = { 4: 'deposit', 5: 'withdrawal' };
const OP_WITHDRAW_VALIDATOR = 5;
/** elector-code.fc: what a stake pays for the elector's answer */
const STAKE_FEE = TON;

const hex = (v: bigint): string => v.toString(16).padStart(64, '0').toUpperCase();
const b64 = (v: bigint): string => Buffer.from(hex(v), 'hex').toString('base64');
const txB64 = (rec: TxRecord): string => Buffer.from(rec.hash, 'hex').toString('base64');
const int = (i: TupleItem | undefined): bigint => {
  if (i?.type !== 'int') throw new Error(`integer expected, got ${i?.type}`);
  return i.value;
};
/** A TVM list (cons pairs ending in null) as its heads. */
function lisp(i: TupleItem | undefined): TupleItem[] {
  const out: TupleItem[] = [];
  for (let n = i; n?.type === 'tuple'; n = n.items[1]) out.push(n.items[0]!);
  return out;
}
const tuple = (i: TupleItem | undefined): TupleItem[] => {
  if (i?.type !== 'tuple') throw new Error('tuple expected');
  return i.items;
};
const max = (a: bigint | undefined, b: bigint | undefined): bigint | undefined => (a === undefined ? b : b === undefined || a >= b ? a : b);
const bodyOf = (rec: TxRecord) => {
  const s = rec.tx.inMessage?.body.beginParse();
  const op = s && s.remainingBits >= 32 ? s.loadUint(32) : undefined;
  const queryId = s && s.remainingBits >= 64 ? s.loadUintBig(64) : undefined;
  return { op, queryId };
};
const valueIn = (rec: TxRecord): bigint => (rec.tx.inMessage?.info.type === 'internal' ? rec.tx.inMessage.info.value.coins : 0n);
const sourceOf = (rec: TxRecord): string | undefined => (rec.tx.inMessage?.info.type === 'internal' ? rawUpper(rec.tx.inMessage.info.src) : undefined);

/** A nominator as list_nominators shows it. */
interface Nominator {
  amount: bigint;
  pending: bigint;
  withdrawRequested: boolean;
}

/** A pool as get_pool_data and list_nominators show it. */
interface PoolView {
  state: number;
  nominatorsCount: number;
  sent: bigint;
  validatorAmount: bigint;
  validator: string;
  share: number;
  maxNominators: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
  stakeAt: number;
  nominators: Map<string, Nominator>;
}

/** participant_list_extended. */
interface ElectionView {
  electAt: number;
  electClose: number;
  minStake: bigint;
  totalStake: bigint;
  participants: { pubkey: string; stake: bigint; maxFactor: number; holder: string; adnl: string }[];
  failed: boolean;
  finished: boolean;
}

/** One entry of past_elections. */
interface PastView {
  id: number;
  vsetHash: string;
  totalStake: bigint;
  frozen: Map<string, { holder: string; stake: bigint }>;
}

/** A cycle as kept by the reference's rules: its last view, the first election seen, the largest stakes. */
interface CycleKept {
  since: number;
  until: number;
  total: number;
  main: number;
  totalWeight: bigint;
  vsetHash: string;
  electionId?: number;
  totalStake?: bigint;
  members: { index: number; pubkey: string; adnl: string; weight: bigint; stake?: bigint }[];
}

const FROZEN: DictionaryValue<{ holder: string; stake: bigint }> = {
  serialize: () => {
    throw new Error('read only');
  },
  // elector-code.fc: addr:uint256 weight:uint64 stake:Grams banned:Bool
  parse: (s) => {
    const holder = `-1:${hex(s.loadUintBig(256))}`;
    s.skip(64);
    return { holder, stake: s.loadCoins() };
  },
};

describe.skipIf(skip)("staking and validators on the network's elector, config contract and nominator pool", () => {
  let net: ElectorNetwork;
  let server: TestServer;
  let poolCode: Cell;
  let va: Wallet, vb: Wallet, carol: Wallet, dave: Wallet, erin: Wallet;
  const A = keysOf(SEED, 'validator-a');
  const B = keysOf(SEED, 'validator-b');
  const [keyA, keyB] = [A.publicKey.toString('hex').toUpperCase(), B.publicKey.toString('hex').toUpperCase()];
  const pools: Record<'P1' | 'P2', { address: Address; raw: string; init: { code: Cell; data: Cell } }> = {} as never;
  const views = new Map<string, PoolView>();
  /** what the pools' states imply, event by event (reference: nominator_pool_events, nominator_pool_validator_events) */
  const nominatorEvents = new Map<string, any[]>();
  const validatorEvents = new Map<string, any[]>();
  /** the elector's stake events, as its own accounting gives them */
  const stakeEvents: any[] = [];
  const elections = new Map<number, ElectionView>();
  const pastKept = new Map<number, PastView>();
  const cyclesKept = new Map<number, CycleKept>();
  const complaintsKept = new Map<string, any>();
  const electionIds: number[] = [];
  /** the current complaint's hash, once filed */
  let complaintHash = 0n;

  const M = ElectorNetwork.message;
  const elector = () => net.electorAddress;
  const electorRaw = () => rawUpper(net.electorAddress);
  const V3 = '/api/v3';

  async function route(path: string): Promise<any> {
    const res = await fetch(`${server.url}${V3}${path}`);
    const body = await res.json();
    expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
    assert126(`${V3}${path.split('?')[0]}`, body, { closed: true });
    return body;
  }

  const run = (address: Address, method: string, args: { type: 'int'; value: bigint }[] = []) => net.get(address, method, args);

  async function poolView(address: Address): Promise<PoolView | undefined> {
    if (net.state(address)?.account?.storage.state.type !== 'active') return undefined;
    const d = await run(address, 'get_pool_data');
    const nominators = new Map<string, Nominator>();
    for (const n of lisp((await run(address, 'list_nominators'))[0])) {
      const [addr, amount, pending, requested] = tuple(n);
      nominators.set(`0:${hex(int(addr))}`, { amount: int(amount), pending: int(pending), withdrawRequested: int(requested) !== 0n });
    }
    return {
      state: Number(int(d[0])),
      nominatorsCount: Number(int(d[1])),
      sent: int(d[2]),
      validatorAmount: int(d[3]),
      validator: `-1:${hex(int(d[4]))}`,
      share: Number(int(d[5])),
      maxNominators: Number(int(d[6])),
      minValidatorStake: int(d[7]),
      minNominatorStake: int(d[8]),
      stakeAt: Number(int(d[11])),
      nominators,
    };
  }

  async function electionView(): Promise<ElectionView | null> {
    const s = await run(elector(), 'participant_list_extended');
    if (int(s[0]) === 0n) return null;
    return {
      electAt: Number(int(s[0])),
      electClose: Number(int(s[1])),
      minStake: int(s[2]),
      totalStake: int(s[3]),
      participants: lisp(s[4]).map((e) => {
        const [id, info] = tuple(e);
        const [stake, maxFactor, addr, adnl] = tuple(info);
        return { pubkey: hex(int(id)), stake: int(stake), maxFactor: Number(int(maxFactor)), holder: `-1:${hex(int(addr))}`, adnl: hex(int(adnl)) };
      }),
      failed: int(s[5]) !== 0n,
      finished: int(s[6]) !== 0n,
    };
  }

  async function pastViews(): Promise<PastView[]> {
    return lisp((await run(elector(), 'past_elections'))[0]).map((e) => {
      const [id, , , vsetHash, frozen, totalStake] = tuple(e);
      const dict = frozen?.type === 'cell' ? Dictionary.loadDirect(Dictionary.Keys.BigUint(256), FROZEN, frozen.cell) : undefined;
      return { id: Number(int(id)), vsetHash: hex(int(vsetHash)), totalStake: int(totalStake), frozen: new Map([...(dict ?? [])].map(([k, v]) => [hex(k), v])) };
    });
  }

  /** The nominator events and the validator event one pool transaction implies, by the reference's rules. */
  function poolEvents(pool: string, rec: TxRecord, x: PoolView, y: PoolView): void {
    const { op, queryId } = bodyOf(rec);
    const reward = op === OP_RECOVER_STAKE_OK && sourceOf(rec) === electorRaw();
    const tx = { tx_hash: txB64(rec), tx_lt: rec.lt.toString(), utime: rec.now, pool_address: pool };
    const none: Nominator = { amount: 0n, pending: 0n, withdrawRequested: false };
    const out: any[] = [];
    const event = (address: string, type: string, amount: bigint, dAmount: bigint, dPending: bigint, p: Nominator, q: Nominator) =>
      out.push({
        ...tx,
        nominator_address: address,
        type,
        amount: amount.toString(),
        balance_delta: dAmount.toString(),
        pending_balance_delta: dPending.toString(),
        balance_before: p.amount.toString(),
        balance_after: q.amount.toString(),
        pending_balance_before: p.pending.toString(),
        pending_balance_after: q.pending.toString(),
        withdraw_request_before: p.withdrawRequested,
        withdraw_request_after: q.withdrawRequested,
      });
    for (const address of [...new Set([...x.nominators.keys(), ...y.nominators.keys()])].sort()) {
      const p = x.nominators.get(address) ?? none;
      const q = y.nominators.get(address) ?? none;
      const [dAmount, dPending] = [q.amount - p.amount, q.pending - p.pending];
      if (reward) {
        const rewarded = { ...p, amount: p.amount + dAmount + dPending };
        if (dAmount + dPending !== 0n) event(address, 'reward', dAmount + dPending, dAmount + dPending, 0n, p, rewarded);
        if (dPending < 0n) event(address, 'pending_deposit_activation', -dPending, -dPending, dPending, rewarded, q);
        continue;
      }
      if (dAmount + dPending > 0n) event(address, 'deposit', dAmount + dPending, dAmount, dPending, p, q);
      if (dAmount + dPending < 0n) event(address, 'withdrawal', -(dAmount + dPending), dAmount, dPending, p, q);
      if (!p.withdrawRequested && q.withdrawRequested) event(address, 'withdrawal_request', 0n, 0n, 0n, p, q);
    }
    nominatorEvents.get(pool)!.push(...out);
    const delta = y.validatorAmount - x.validatorAmount;
    const type = reward ? (delta > 0n ? 'reward' : 'penalty') : op !== undefined ? VALIDATOR_OPS[op] : undefined;
    if (delta === 0n || !type) return;
    validatorEvents.get(pool)!.push({
      ...tx,
      validator_address: x.validator,
      type,
      amount: (delta < 0n ? -delta : delta).toString(),
      balance_delta: delta.toString(),
      balance_before: x.validatorAmount.toString(),
      balance_after: y.validatorAmount.toString(),
      ...(queryId !== undefined ? { query_id: queryId.toString() } : {}),
      ...(reward && x.stakeAt !== 0 ? { cycle_start: x.stakeAt } : {}),
      validator_reward_share: x.share,
    });
  }

  /**
   * One block, then what the contracts hold after it: each pool's view (and the events its last transaction in
   * the block implies against the view before), the elector's election, past elections and complaints, the config's
   * validator sets, merged as the reference keeps them.
   */
  async function block(utime: number, p: Parameters<ElectorNetwork['block']>[1] = {}): Promise<TxRecord[]> {
    const recs = await net.block(utime, p);
    for (const pool of Object.values(pools)) {
      const after = await poolView(pool.address);
      const before = views.get(pool.raw);
      const last = recs.filter((r) => rawUpper(r.account) === pool.raw).at(-1);
      if (after && before && last) poolEvents(pool.raw, last, before, after);
      if (after) views.set(pool.raw, after);
    }
    const current = await electionView();
    if (current) {
      elections.set(current.electAt, current);
      if (!electionIds.includes(current.electAt)) electionIds.push(current.electAt);
    }
    const seenPast = await pastViews();
    for (const e of seenPast) {
      const kept = pastKept.get(e.id);
      const frozen = new Map(kept?.frozen);
      for (const [k, f] of e.frozen) frozen.set(k, { holder: f.holder, stake: max(frozen.get(k)?.stake, f.stake)! });
      pastKept.set(e.id, { id: e.id, vsetHash: kept?.vsetHash ?? e.vsetHash, totalStake: max(kept?.totalStake, e.totalStake)!, frozen });
    }
    const sets: { param: number; cycle: CycleKept; electionId?: number }[] = [];
    for (const param of [34, 36, 32]) {
      const cell = net.params.get(param);
      if (!cell) continue;
      const vset = parseValidatorSet(cell.beginParse())!;
      if (sets.some((s) => s.cycle.since === vset.timeSince)) continue;
      const vsetHash = cell.hash().toString('hex').toUpperCase();
      const e = seenPast.find((x) => x.vsetHash === vsetHash);
      const kept = cyclesKept.get(vset.timeSince);
      const members = [...vset.list.keys()]
        .sort((a, b) => a - b)
        .map((index) => {
          const v = vset.list.get(index)!;
          const pubkey = v.publicKey.toString('hex').toUpperCase();
          const stake = max(kept?.members[index]?.stake, e?.frozen.get(pubkey)?.stake);
          return { index, pubkey, adnl: v.adnlAddress!.toString('hex').toUpperCase(), weight: v.weight, ...(stake !== undefined ? { stake } : {}) };
        });
      const electionId = kept?.electionId ?? e?.id;
      const totalStake = max(kept?.totalStake, e?.totalStake);
      const cycle: CycleKept = {
        since: vset.timeSince,
        until: vset.timeUntil,
        total: vset.total,
        main: vset.main,
        totalWeight: vset.totalWeight!,
        vsetHash,
        ...(electionId !== undefined ? { electionId } : {}),
        ...(totalStake !== undefined ? { totalStake } : {}),
        members,
      };
      cyclesKept.set(vset.timeSince, cycle);
      sets.push({ param, cycle, ...(e ? { electionId: e.id } : {}) });
    }
    // the complaints of the elections the current and the previous set matched in this block
    for (const { param, cycle, electionId } of sets) {
      if (param === 36 || electionId === undefined) continue;
      for (const entry of lisp((await run(elector(), 'list_complaints', [{ type: 'int', value: BigInt(electionId) }]))[0])) {
        const [hash, status] = tuple(entry);
        const [complaint, voters, vsetId, remaining] = tuple(status);
        const [pubkey, description, createdAt, severity, reward, paid, fine, finePart] = tuple(complaint);
        const votes = lisp(voters).map((v) => Number(int(v)));
        const voting = (int(vsetId) !== 0n ? sets.find((s) => s.cycle.vsetHash === hex(int(vsetId)))?.cycle : undefined) ?? (votes.length === 0 ? sets.find((s) => s.param === 34)!.cycle : undefined);
        const total = (voting ?? cycle).totalWeight;
        const required = (total * 2n) / 3n;
        const left = votes.length === 0 ? required : int(remaining);
        complaintsKept.set(`${electionId}|${int(hash)}`, {
          election_id: electionId,
          complaint_hash: b64(int(hash)),
          validator_pubkey: hex(int(pubkey)),
          adnl_addr: cycle.members.find((m) => m.pubkey === hex(int(pubkey)))?.adnl ?? null,
          description_boc: description?.type === 'cell' ? description.cell.toBoc().toString('base64') : '',
          created_at: Number(int(createdAt)),
          severity: Number(int(severity)),
          reward_address: `-1:${hex(int(reward))}`,
          paid: int(paid).toString(),
          suggested_fine: int(fine).toString(),
          suggested_fine_part: Number(int(finePart)),
          voted_validators: votes.map((i) => {
            const m = voting?.members.find((x) => x.index === i);
            return { validator_index: i, ...(m ? { validator_pubkey: m.pubkey, adnl_addr: m.adnl, weight: m.weight.toString() } : {}) };
          }),
          vset_id: b64(int(vsetId)),
          weight_remaining: left.toString(),
          approved_percent: Math.round((Number(required - left) / Number(total)) * 100 * 1000) / 1000,
          is_passed: int(remaining) < 0n,
        });
      }
    }
    return recs;
  }

  // ---- what the routes should answer, from what the contracts held ----

  const participantsOf = (id: number): any[] => {
    const cycle = [...cyclesKept.values()].filter((c) => c.electionId === id).sort((a, b) => b.since - a.since);
    const index = (pubkey: string) => cycle.flatMap((c) => c.members.filter((m) => m.pubkey === pubkey))[0]?.index;
    const e = elections.get(id)!;
    return e.participants
      .map((x) => ({
        validator_pubkey: x.pubkey,
        ...(index(x.pubkey) !== undefined ? { validator_index: index(x.pubkey) } : {}),
        stake: x.stake.toString(),
        max_factor: x.maxFactor,
        stake_holder_address: x.holder,
        adnl_addr: x.adnl,
      }))
      .sort((a, b) => (BigInt(b.stake) > BigInt(a.stake) ? 1 : BigInt(b.stake) < BigInt(a.stake) ? -1 : a.validator_pubkey.localeCompare(b.validator_pubkey)));
  };

  const expectedElections = () =>
    [...elections.values()]
      .sort((a, b) => b.electAt - a.electAt)
      .map((e) => ({
        election_id: e.electAt,
        elect_close: e.electClose,
        min_stake: e.minStake.toString(),
        total_stake: e.totalStake.toString(),
        total_participants: e.participants.length,
        failed: e.failed,
        finished: e.finished,
        participants: participantsOf(e.electAt),
      }));

  const expectedComplaints = () =>
    [...complaintsKept.values()]
      .flatMap((c) => {
        const cycle = [...cyclesKept.values()].find((x) => x.electionId === c.election_id);
        const holder = elections.get(c.election_id)?.participants.find((x) => x.pubkey === c.validator_pubkey)?.holder;
        return cycle ? [{ cycle_start: cycle.since, ...c, ...(holder ? { stake_holder_address: holder } : {}) }] : [];
      })
      .sort((a, b) => b.created_at - a.created_at);

  const expectedCycles = () => {
    const complaints = expectedComplaints();
    const p15 = TIMES;
    return [...cyclesKept.values()]
      .sort((a, b) => b.since - a.since)
      .map((c) => {
        const stakes = c.members.map((m) => m.stake);
        const all = stakes.every((s) => s !== undefined) ? (stakes as bigint[]) : undefined;
        const participant = (pubkey: string) => (c.electionId !== undefined ? elections.get(c.electionId)?.participants.find((x) => x.pubkey === pubkey) : undefined);
        return {
          ...(c.electionId !== undefined ? { election_id: c.electionId } : {}),
          cycle_start: c.since,
          cycle_end: c.until,
          total: c.total,
          main: c.main,
          total_weight: c.totalWeight.toString(),
          ...(c.totalStake !== undefined ? { total_stake: c.totalStake.toString() } : {}),
          validators_elected_for: p15.validatorsElectedFor,
          elections_start_before: p15.electionsStartBefore,
          elections_end_before: p15.electionsEndBefore,
          stake_held_for: p15.stakeHeldFor,
          max_validators: 100,
          max_main_validators: 100,
          min_validators: 1,
          ...(all ? { min_stake: all.reduce((a, b) => (b < a ? b : a)).toString(), max_stake: all.reduce((a, b) => (b > a ? b : a)).toString() } : {}),
          min_stake_limit: LIMITS.minStake.toString(),
          max_stake_limit: LIMITS.maxStake.toString(),
          min_total_stake: LIMITS.minTotalStake.toString(),
          max_stake_factor: LIMITS.maxStakeFactor,
          validators: c.members.map((m) => {
            const p = participant(m.pubkey);
            return {
              validator_index: m.index,
              validator_pubkey: m.pubkey,
              adnl_addr: m.adnl,
              weight: m.weight.toString(),
              ...(p ? { stake_holder_address: p.holder } : {}),
              ...(m.stake !== undefined ? { stake: m.stake.toString() } : {}),
              ...(p ? { max_factor: p.maxFactor } : {}),
              complaints: complaints.filter((x) => x.election_id === c.electionId && x.validator_pubkey === m.pubkey),
            };
          }),
        };
      });
  };

  const newestFirst = (list: any[]) => [...list].reverse();

  /** Every route of both groups against what the contracts held, as of the last block. */
  async function checkEveryRoute(): Promise<void> {
    for (const pool of Object.values(pools)) {
      const v = views.get(pool.raw)!;
      const info = await route(`/staking/nominatorPools/pool?pool=${pool.raw}`);
      const { active_nominators: active, address_book: book, ...rest } = info;
      expect(rest).toEqual({
        stake_amount_sent: v.sent.toString(),
        validator_amount: v.validatorAmount.toString(),
        validator_address: v.validator,
        validator_reward_share: v.share,
        state: v.state,
        nominators_count: v.nominatorsCount,
        max_nominators_count: v.maxNominators,
        min_validator_stake: v.minValidatorStake.toString(),
        min_nominator_stake: v.minNominatorStake.toString(),
      });
      const nominators = [...v.nominators].map(([address, n]) => ({ address, balance: n.amount.toString(), pending_balance: n.pending.toString() }));
      expect([...active].sort((a: any, b: any) => a.address.localeCompare(b.address))).toEqual(nominators.sort((a, b) => a.address.localeCompare(b.address)));
      expect(Object.keys(book).sort()).toEqual([...new Set([pool.raw, v.validator, ...v.nominators.keys()])].sort());

      const events = nominatorEvents.get(pool.raw)!;
      expect((await route(`/staking/nominatorPools/nominatorEvents?pool=${pool.raw}`)).events).toEqual(newestFirst(events));
      const vEvents = validatorEvents.get(pool.raw)!;
      expect((await route(`/staking/nominatorPools/validatorEvents?pool=${pool.raw}`)).events).toEqual(newestFirst(vEvents));
      const vRewards = newestFirst(vEvents.filter((e) => e.type === 'reward'));
      expect(await route(`/staking/nominatorPools/validatorRewards?pool=${pool.raw}&validator=${v.validator}`)).toMatchObject({
        total_on_page: vRewards.reduce((s, e) => s + BigInt(e.amount), 0n).toString(),
        rewards: vRewards.map((e) => ({ utime: e.utime, reward: e.amount, balance_before: e.balance_before, tx_hash: e.tx_hash, tx_lt: e.tx_lt, cycle_start: e.cycle_start, query_id: e.query_id })),
      });
      for (const w of [carol, dave, erin]) {
        const raw = rawUpper(w.address);
        const mine = events.filter((e) => e.nominator_address === raw);
        expect((await route(`/staking/nominatorPools/nominatorEvents?pool=${pool.raw}&nominator=${raw}`)).events).toEqual(newestFirst(mine));
        const rewards = newestFirst(mine.filter((e) => e.type === 'reward'));
        expect(await route(`/staking/nominatorPools/nominatorRewards?pool=${pool.raw}&nominator=${raw}`)).toMatchObject({
          total_on_page: rewards.reduce((s, e) => s + BigInt(e.amount), 0n).toString(),
          rewards: rewards.map((e) => ({ utime: e.utime, reward: e.amount, stake_before: e.balance_before, tx_hash: e.tx_hash, tx_lt: e.tx_lt })),
        });
      }
    }
    for (const w of [carol, dave, erin]) {
      const raw = rawUpper(w.address);
      const held = Object.values(pools)
        .map((pool) => ({ pool, n: views.get(pool.raw)!.nominators.get(raw) }))
        .filter((x) => x.n)
        .map(({ pool, n }) => ({ pool_address: pool.raw, balance: n!.amount.toString(), pending_balance: n!.pending.toString() }))
        .sort((a, b) => a.pool_address.localeCompare(b.pool_address));
      expect((await route(`/staking/nominatorPools/nominator?nominator=${raw}`)).nominator_pools).toEqual(held);
      // each position is the pool's own get_nominator_data for the address
      for (const h of held) {
        const [amount, pending] = await run(Address.parseRaw(h.pool_address), 'get_nominator_data', [{ type: 'int', value: BigInt(`0x${w.address.hash.toString('hex')}`) }]);
        expect([h.balance, h.pending_balance]).toEqual([int(amount).toString(), int(pending).toString()]);
      }
    }
    const byValidator = newestFirst([...validatorEvents.values()].flat().sort((a, b) => a.utime - b.utime || Number(BigInt(a.tx_lt) - BigInt(b.tx_lt))));
    expect((await route(`/staking/nominatorPools/validatorEvents?validator=${rawUpper(va.address)}`)).events).toEqual(byValidator);

    expect((await route('/validators/events?limit=100&sort=asc')).events).toEqual(stakeEvents);
    expect((await route('/validators/elections?return_participants=true&limit=100')).elections).toEqual(expectedElections());
    expect((await route('/validators/cycles?return_validators=true&limit=100')).cycles).toEqual(expectedCycles());
    expect((await route('/validators/complaints?limit=100')).complaints).toEqual(expectedComplaints());
  }

  /** The stake events one block's elector transactions imply, by the elector's own accounting. */
  function stakeEventsOf(recs: TxRecord[], p: { credits?: Map<string, bigint> } = {}): void {
    for (const rec of recs) {
      const { op, queryId } = bodyOf(rec);
      const base = { tx_hash: txB64(rec), tx_lt: rec.lt.toString(), utime: rec.now, query_id: queryId?.toString() };
      if (rawUpper(rec.account) === electorRaw() && op === OP.newStake) {
        const s = rec.tx.inMessage!.body.beginParse().skip(96);
        const pubkey = s.loadBuffer(32).toString('hex').toUpperCase();
        const electionId = s.loadUint(32);
        const answer = [...rec.tx.outMessages.values()][0]!;
        const a = answer.body.beginParse();
        const accepted = a.loadUint(32) === 0xf374484c;
        a.skip(64);
        const participant = elections.get(electionId)?.participants.find((x) => x.pubkey === pubkey);
        stakeEvents.push({
          ...base,
          type: accepted ? 'stake_accepted' : 'stake_rejected',
          stake_holder_address: sourceOf(rec),
          validator_pubkey: pubkey,
          adnl_addr: adnlAddress(Buffer.from(pubkey, 'hex')).toString('hex').toUpperCase(),
          election_id: electionId,
          // an accepted stake is what the elector holds for the participant; a refused one what it sent back
          amount: (accepted ? participant!.stake : answer.info.type === 'internal' ? answer.info.value.coins : 0n).toString(),
          ...(accepted ? {} : { reason: a.loadInt(32) }),
        });
        if (accepted) expect(participant!.stake).toBe(valueIn(rec) - STAKE_FEE);
      }
      if (rawUpper(rec.account) === electorRaw() && op === OP.recoverStake) {
        stakeEvents.push({ ...base, type: 'recover_requested', stake_holder_address: sourceOf(rec), amount: valueIn(rec).toString() });
      }
      if (sourceOf(rec) === electorRaw() && (op === OP_RECOVER_STAKE_OK || op === 0xfffffffe)) {
        const holder = rawUpper(rec.account);
        stakeEvents.push({ ...base, type: op === OP_RECOVER_STAKE_OK ? 'stake_recovered' : 'recover_failed', stake_holder_address: holder, amount: valueIn(rec).toString() });
        // what came back is the holder's credit (compute_returned_stake before) and what the request carried
        const request = recs.find((r) => rawUpper(r.account) === electorRaw() && bodyOf(r).op === OP.recoverStake && sourceOf(r) === holder)!;
        expect(valueIn(rec)).toBe((p.credits?.get(holder) ?? 0n) + valueIn(request));
      }
    }
  }

  async function credits(): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    for (const a of [pools.P1.address, pools.P2.address, vb.address]) out.set(rawUpper(a), int((await run(elector(), 'compute_returned_stake', [{ type: 'int', value: BigInt(`0x${a.hash.toString('hex')}`) }]))[0]));
    return out;
  }

  const activeElection = async () => Number(int((await run(elector(), 'active_election_id'))[0]));

  beforeAll(async () => {
    const code = await compileNetworkCode();
    poolCode = code.pool;
    const g = keysOf(SEED, 'genesis-validator');
    net = await ElectorNetwork.create(code, {
      seed: SEED,
      start: T,
      times: TIMES,
      limits: LIMITS,
      validators: { max: 100, maxMain: 100, min: 1 },
      electorGrams: 8n * TON,
      genesisSet: validatorSet(T - 100, T + TIMES.validatorsElectedFor - 300, [{ key: g.publicKey, weight: 1n << 60n }]),
    });
    [va, vb] = [net.wallet('validator-a', -1), net.wallet('validator-b', -1)];
    [carol, dave, erin] = [net.wallet('carol', 0), net.wallet('dave', 0), net.wallet('erin', 0)];
    for (const [name, share] of [['P1', 3000], ['P2', 5000]] as const) {
      const init = poolInit(code.pool, { validator: va.address, validatorRewardShare: share, maxNominators: 40, minValidatorStake: 100n * TON, minNominatorStake: 10n * TON });
      const address = contractAddress(-1, init);
      pools[name] = { address, raw: rawUpper(address), init };
      nominatorEvents.set(rawUpper(address), []);
      validatorEvents.set(rawUpper(address), []);
    }
    server = await startServer({ v2: net.source.v2, v3: net.v3 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await net?.close();
  });

  it("compiles the network's pool to the standard pool's code hash, the one the reader accepts", () => {
    expect(poolCode.hash().toString('hex').toUpperCase()).toBe(STANDARD_NOMINATOR_POOL_CODE_HASH);
  });

  it('deposits: the validator deploys two pools with its stake, nominators join while they are idle (straight into the amount), the validator adds to P1', async () => {
    await block(T, { fund: [[va, 5000n * TON], [vb, 50_000n * TON], [carol, 2000n * TON], [dave, 2000n * TON], [erin, 2000n * TON]] });
    const deploy = (name: 'P1' | 'P2', queryId: bigint) => ({ ...M(pools[name].address, 1001n * TON, opBody(OP.poolDepositValidator, queryId), false), init: pools[name].init });
    await block(T + 10, { send: () => [net.transfer(va, [deploy('P1', 1n), deploy('P2', 2n)])] });
    // the deploying transactions start from no pool: no event (the reference replays from a pool state before them)
    expect([...nominatorEvents.values(), ...validatorEvents.values()].flat()).toEqual([]);
    await block(T + 20, { send: () => [net.transfer(carol, [M(pools.P1.address, 501n * TON, comment('d'))]), net.transfer(erin, [M(pools.P2.address, 501n * TON, comment('d'))])] });
    await block(T + 30, { send: () => [net.transfer(dave, [M(pools.P1.address, 301n * TON, comment('d'))])] });
    await block(T + 40, { send: () => [net.transfer(va, [M(pools.P1.address, 101n * TON, opBody(OP.poolDepositValidator, 3n))])] });
    // each deposit less the pool's 1 TON processing fee, in the amount (the pool is idle)
    expect(views.get(pools.P1.raw)!.nominators.get(rawUpper(carol.address))).toEqual({ amount: 500n * TON, pending: 0n, withdrawRequested: false });
    expect(nominatorEvents.get(pools.P1.raw)!.map((e) => [e.type, e.amount])).toEqual([
      ['deposit', (500n * TON).toString()],
      ['deposit', (300n * TON).toString()],
    ]);
    expect(validatorEvents.get(pools.P1.raw)!.map((e) => [e.type, e.amount, e.query_id, e.cycle_start])).toEqual([['deposit', (100n * TON).toString(), '3', undefined]]);
    await checkEveryRoute();
  });

  it('an election opens: P1 and B stake (new_stake through the pool and from a wallet), nominators deposit while P1 is staked (pending) and ask to withdraw', async () => {
    await block(T + 100);
    const e1 = await activeElection();
    expect(e1).toBe(T + TIMES.validatorsElectedFor - 300);
    const recs = await block(T + 110, {
      send: () => [
        net.transfer(va, [M(pools.P1.address, 2n * TON, poolStakeBody({ key: A, pool: pools.P1.address, electionId: e1, maxFactor: MAX_FACTOR, queryId: 11n, value: 1500n * TON }))]),
        net.transfer(vb, [M(elector(), 3001n * TON, stakeBody({ key: B, holder: vb.address, electionId: e1, maxFactor: MAX_FACTOR, queryId: 12n }))]),
      ],
    });
    stakeEventsOf(recs);
    expect(stakeEvents.map((e) => [e.type, e.stake_holder_address, e.amount])).toEqual([
      ['stake_accepted', pools.P1.raw, (1499n * TON).toString()],
      ['stake_accepted', rawUpper(vb.address), (3000n * TON).toString()],
    ]);
    expect(views.get(pools.P1.raw)).toMatchObject({ state: 2, sent: 1499n * TON, stakeAt: e1 });
    await block(T + 200, { send: () => [net.transfer(dave, [M(pools.P1.address, 101n * TON, comment('d'))])] });
    await block(T + 210, { send: () => [net.transfer(carol, [M(pools.P1.address, TON, comment('w'))])] });
    expect(nominatorEvents.get(pools.P1.raw)!.slice(-2).map((e) => [e.type, e.amount, e.pending_balance_delta, e.withdraw_request_after])).toEqual([
      ['deposit', (100n * TON).toString(), (100n * TON).toString(), false],
      ['withdrawal_request', '0', '0', true],
    ]);
    // the open election is participant_list_extended, every participant with its declared factor
    expect(elections.get(e1)).toMatchObject({ finished: false, totalStake: 4499n * TON });
    await checkEveryRoute();
  });

  it('the election is conducted: the stakes are frozen in past_elections, the set goes to the config contract (param 36), then becomes current (34)', async () => {
    const e1 = electionIds[0]!;
    await block(T + 400);
    // finished, still participant_list_extended until the set is installed; frozen in past_elections
    expect(elections.get(e1)).toMatchObject({ finished: true, failed: false });
    expect(net.params.get(36)).toBeDefined();
    const frozen = pastKept.get(e1)!;
    expect([...frozen.frozen.values()].map((f) => f.stake).sort()).toEqual([1499n * TON, 3000n * TON]);
    await checkEveryRoute();
    await block(T + 410);
    // the elector forgot the election; the routes keep its last view, every participant with its max_factor
    expect(await electionView()).toBeNull();
    await block(T + TIMES.validatorsElectedFor - 300);
    expect(net.params.get(36)).toBeUndefined();
    const cycle = (await route(`/validators/cycles?cycle_start=${T + 700}&return_validators=true`)).cycles[0];
    expect(cycle).toMatchObject({ election_id: e1, total_stake: (4499n * TON).toString(), min_stake: (1499n * TON).toString(), max_stake: (3000n * TON).toString() });
    expect(cycle.validators.map((v: any) => [v.validator_pubkey, v.stake_holder_address, v.max_factor])).toEqual([
      [keyB, rawUpper(vb.address), MAX_FACTOR],
      [keyA, pools.P1.raw, MAX_FACTOR],
    ]);
    // B's recovery with nothing to recover: recover_requested, then recover_failed at B's wallet
    const recs = await block(T + 710, {
      send: () => [net.transfer(va, [M(pools.P1.address, TON, opBody(OP.poolUpdateValidatorSet))]), net.transfer(vb, [M(elector(), TON, recoverStakeBody(13n))])],
    });
    stakeEventsOf(recs);
    expect(stakeEvents.slice(-2).map((e) => e.type)).toEqual(['recover_requested', 'recover_failed']);
    await checkEveryRoute();
  });

  it('a second election: P2 and B stake, a stake for a wrong election is refused (reason 3), a nominator deposits into P2 while it is staked', async () => {
    await block(T + 1100);
    const e2 = await activeElection();
    expect(e2).toBe(T + 1700);
    const recs = await block(T + 1110, {
      send: () => [
        net.transfer(va, [M(pools.P2.address, 2n * TON, poolStakeBody({ key: A, pool: pools.P2.address, electionId: e2, maxFactor: MAX_FACTOR, queryId: 21n, value: 1200n * TON }))]),
        net.transfer(vb, [
          M(elector(), 4001n * TON, stakeBody({ key: B, holder: vb.address, electionId: e2, maxFactor: MAX_FACTOR, queryId: 22n })),
          M(elector(), 1001n * TON, stakeBody({ key: B, holder: vb.address, electionId: e2 + 1, maxFactor: MAX_FACTOR, queryId: 23n })),
        ]),
      ],
    });
    stakeEventsOf(recs);
    expect(stakeEvents.slice(-3).map((e) => [e.type, e.amount, e.reason])).toEqual([
      ['stake_accepted', (1199n * TON).toString(), undefined],
      ['stake_accepted', (4000n * TON).toString(), undefined],
      ['stake_rejected', (1001n * TON).toString(), 3],
    ]);
    await block(T + 1200, { send: () => [net.transfer(erin, [M(pools.P2.address, 51n * TON, comment('d'))])] });
    await block(T + 1400);
    await block(T + 1410);
    await block(T + 1700);
    await checkEveryRoute();
  });

  it('a complaint filed against A in the second election, then voted through by B (75% of the weight): A\'s frozen stake is fined, the cycle keeps the stake A was elected with', async () => {
    const e2 = electionIds[1]!;
    const description = comment('validator A missed its blocks');
    await block(T + 1710, {
      send: () => [
        net.transfer(va, [M(pools.P1.address, TON, opBody(OP.poolUpdateValidatorSet)), M(pools.P2.address, TON, opBody(OP.poolUpdateValidatorSet))]),
        net.transfer(vb, [M(elector(), 50n * TON, complaintBody({ queryId: 31n, electionId: e2, pubkey: A.publicKey, description, severity: 1, suggestedFine: 200n * TON, suggestedFinePart: 0 }))]),
      ],
    });
    const [filed] = [...complaintsKept.values()];
    expect(filed).toMatchObject({ validator_pubkey: keyA, voted_validators: [], approved_percent: 0, is_passed: false, reward_address: rawUpper(vb.address), suggested_fine: (200n * TON).toString() });
    const vset2 = cyclesKept.get(T + 1700)!;
    expect(filed.weight_remaining).toBe(((vset2.totalWeight * 2n) / 3n).toString());
    complaintHash = BigInt('0x' + Buffer.from(filed.complaint_hash, 'base64').toString('hex'));
    await checkEveryRoute();

    const indexB = vset2.members.find((m) => m.pubkey === keyB)!.index;
    await block(T + 1720, { send: () => [net.transfer(vb, [M(elector(), TON, voteBody({ queryId: 32n, key: B, index: indexB, electionId: e2, complaintHash }))])] });
    const voted = complaintsKept.get(`${e2}|${complaintHash}`)!;
    expect(voted).toMatchObject({ is_passed: true, approved_percent: 75, voted_validators: [{ validator_index: indexB, validator_pubkey: keyB }] });
    // past_elections holds A's stake less the fine; the cycle keeps the stake A was elected with
    expect(pastKept.get(e2)!.frozen.get(keyA)!.stake).toBe(1199n * TON);
    const frozenNow = (await pastViews()).find((e) => e.id === e2)!;
    expect(frozenNow.frozen.get(keyA)!.stake).toBe(999n * TON);
    const cycle = (await route(`/validators/cycles?election_id=${e2}&return_validators=true`)).cycles[0];
    expect(cycle.validators.find((v: any) => v.validator_pubkey === keyA)).toMatchObject({ stake: (1199n * TON).toString(), complaints: [expect.objectContaining({ is_passed: true })] });
    await checkEveryRoute();
  });

  it("P1's stake comes back with the cycle's bonus: a reward shared by the validator's share and the nominators' amounts, the pending deposit activated; then the withdrawal is paid and the validator withdraws", async () => {
    await block(T + 1910);
    const owed = await credits();
    const recs = await block(T + 1980, { send: () => [net.transfer(va, [M(pools.P1.address, TON, recoverStakeBody(41n))]), net.transfer(vb, [M(elector(), TON, recoverStakeBody(42n))])] });
    stakeEventsOf(recs, { credits: owed });
    expect(stakeEvents.slice(-4).map((e) => [e.type, e.stake_holder_address])).toEqual([
      ['recover_requested', pools.P1.raw],
      ['stake_recovered', pools.P1.raw],
      ['recover_requested', rawUpper(vb.address)],
      ['stake_recovered', rawUpper(vb.address)],
    ]);
    // the pool's reward: what came back less what it sent; 30% to the validator, the rest by the nominators' amounts
    const okTx = recs.find((r) => rawUpper(r.account) === pools.P1.raw && bodyOf(r).op === OP_RECOVER_STAKE_OK)!;
    const reward = valueIn(okTx) - 1499n * TON;
    expect(reward).toBeGreaterThan(0n);
    const toValidator = (reward * 3000n) / 10000n;
    const toNominators = reward - toValidator;
    expect(validatorEvents.get(pools.P1.raw)!.at(-1)).toMatchObject({ type: 'reward', amount: toValidator.toString(), cycle_start: electionIds[0], query_id: '41' });
    const [carolRaw, daveRaw] = [rawUpper(carol.address), rawUpper(dave.address)];
    const share = (amount: bigint) => (toNominators * amount) / (800n * TON);
    const rewardEvents = nominatorEvents.get(pools.P1.raw)!.filter((e) => e.tx_hash === txB64(okTx));
    expect(rewardEvents.map((e) => [e.nominator_address, e.type, e.amount])).toEqual(
      [
        [carolRaw, 'reward', share(500n * TON).toString()],
        [daveRaw, 'reward', share(300n * TON).toString()],
        [daveRaw, 'pending_deposit_activation', (100n * TON).toString()],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    await checkEveryRoute();
    await block(T + 1990, { send: () => [net.transfer(va, [M(pools.P1.address, TON, opBody(OP.poolProcessWithdrawals).asBuilder().storeUint(10, 8).endCell())])] });
    expect(nominatorEvents.get(pools.P1.raw)!.at(-1)).toMatchObject({ type: 'withdrawal', nominator_address: carolRaw, withdraw_request_before: true, withdraw_request_after: false, balance_after: '0' });
    await block(T + 2000, { send: () => [net.transfer(va, [M(pools.P1.address, TON, poolValidatorBody(OP_WITHDRAW_VALIDATOR, 43n, 100n * TON))])] });
    expect(validatorEvents.get(pools.P1.raw)!.at(-1)).toMatchObject({ type: 'withdrawal', amount: (100n * TON).toString(), query_id: '43' });
    expect(validatorEvents.get(pools.P1.raw)!.at(-1).cycle_start).toBeUndefined();
    await checkEveryRoute();
  });

  it("P2's stake comes back fined: a penalty to the validator, no reward to the nominators, the pending deposit activated", async () => {
    await block(T + 2100);
    const e3 = await activeElection();
    stakeEventsOf(await block(T + 2110, { send: () => [net.transfer(vb, [M(elector(), 1001n * TON, stakeBody({ key: B, holder: vb.address, electionId: e3, maxFactor: MAX_FACTOR, queryId: 51n }))])] }));
    for (const t of [T + 2400, T + 2410, T + 2700]) await block(t);
    await block(T + 2710, { send: () => [net.transfer(va, [M(pools.P2.address, TON, opBody(OP.poolUpdateValidatorSet))])] });
    await block(T + 2910);
    const owed = await credits();
    const recs = await block(T + 2980, { send: () => [net.transfer(va, [M(pools.P2.address, TON, recoverStakeBody(61n))])] });
    stakeEventsOf(recs, { credits: owed });
    const okTx = recs.find((r) => rawUpper(r.account) === pools.P2.raw && bodyOf(r).op === OP_RECOVER_STAKE_OK)!;
    const loss = 1199n * TON - valueIn(okTx);
    expect(loss).toBeGreaterThan(100n * TON);
    expect(validatorEvents.get(pools.P2.raw)!.at(-1)).toMatchObject({ type: 'penalty', amount: loss.toString(), balance_delta: (-loss).toString(), cycle_start: electionIds[1], query_id: '61' });
    expect(nominatorEvents.get(pools.P2.raw)!.filter((e) => e.tx_hash === txB64(okTx)).map((e) => [e.type, e.amount])).toEqual([['pending_deposit_activation', (50n * TON).toString()]]);
    // every election, cycle and complaint stays listed after the elector unfroze them
    expect(await pastViews()).toHaveLength(1);
    expect((await route('/validators/elections')).elections.map((e: any) => e.election_id)).toEqual([...electionIds].reverse());
    await checkEveryRoute();
  });

  it('the graph answers the same: Query.validators and Account.nominatorPool with its nominators and bookings', async () => {
    const { data, errors } = await gql(
      server.url,
      `{ validators {
          elections(first: 10) { electionId electClose minStake totalStake totalParticipants failed finished participants { validatorPubkey adnlAddress stake maxFactor stakeHolder { address } } }
          cycles(first: 10) { cycleStart cycleEnd electionId total main totalWeight totalStake validators { index pubkey adnlAddress weight stake stakeHolder { address } } }
          complaints(first: 10) { hash electionId cycleStart validatorPubkey createdAt severity suggestedFine approvedPercent isPassed } }
        accounts(addresses: ["${pools.P1.raw}", "${pools.P2.raw}", "${rawUpper(carol.address)}"]) { address nominatorPool {
          account { address } state validator { address } validatorAmount validatorRewardShare stakeAmountSent nominatorsCount maxNominatorsCount minValidatorStake minNominatorStake
          nominators { account { address } balance pendingBalance } bookings(first: 100) { type utime amount nominator { address } transactionHash } } } }`,
    );
    expect(errors).toBeUndefined();
    const v = (data as any).validators;
    expect(v.elections).toEqual(
      expectedElections().map((e) => ({
        electionId: e.election_id,
        electClose: e.elect_close,
        minStake: e.min_stake,
        totalStake: e.total_stake,
        totalParticipants: e.total_participants,
        failed: e.failed,
        finished: e.finished,
        participants: e.participants.map((p: any) => ({ validatorPubkey: p.validator_pubkey, adnlAddress: p.adnl_addr, stake: p.stake, maxFactor: p.max_factor, stakeHolder: { address: p.stake_holder_address } })),
      })),
    );
    expect(v.cycles).toEqual(
      expectedCycles().map((c) => ({
        cycleStart: c.cycle_start,
        cycleEnd: c.cycle_end,
        electionId: c.election_id ?? null,
        total: c.total,
        main: c.main,
        totalWeight: c.total_weight,
        totalStake: c.total_stake ?? null,
        validators: c.validators.map((x: any) => ({ index: x.validator_index, pubkey: x.validator_pubkey, adnlAddress: x.adnl_addr, weight: x.weight, stake: x.stake ?? null, stakeHolder: x.stake_holder_address ? { address: x.stake_holder_address } : null })),
      })),
    );
    expect(v.complaints).toEqual(
      expectedComplaints().map((c) => ({
        hash: c.complaint_hash,
        electionId: c.election_id,
        cycleStart: c.cycle_start,
        validatorPubkey: c.validator_pubkey,
        createdAt: c.created_at,
        severity: c.severity,
        suggestedFine: c.suggested_fine,
        approvedPercent: c.approved_percent,
        isPassed: c.is_passed,
      })),
    );
    const [p1, p2, notPool] = (data as any).accounts;
    expect(notPool.nominatorPool).toBeNull();
    for (const [node, pool] of [
      [p1, pools.P1],
      [p2, pools.P2],
    ] as const) {
      const view = views.get(pool.raw)!;
      expect(node.nominatorPool).toEqual({
        account: { address: pool.raw },
        state: view.state,
        validator: { address: view.validator },
        validatorAmount: view.validatorAmount.toString(),
        validatorRewardShare: view.share,
        stakeAmountSent: view.sent.toString(),
        nominatorsCount: view.nominatorsCount,
        maxNominatorsCount: view.maxNominators,
        minValidatorStake: view.minValidatorStake.toString(),
        minNominatorStake: view.minNominatorStake.toString(),
        nominators: expect.arrayContaining([...view.nominators].map(([address, n]) => ({ account: { address }, balance: n.amount.toString(), pendingBalance: n.pending.toString() }))),
        bookings: newestFirst(nominatorEvents.get(pool.raw)!).map((e) => ({ type: e.type, utime: e.utime, amount: e.amount, nominator: { address: e.nominator_address }, transactionHash: e.tx_hash })),
      });
      expect(node.nominatorPool.nominators).toHaveLength(view.nominators.size);
    }
  });
});
