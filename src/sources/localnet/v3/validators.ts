/**
 * /api/v3/validators/* over the local chain (v3-more-routes.md §4), read the way toncenter's worker reads mainnet:
 * cycles from config params 32/34/36 (previous, current, next validator set) with 15, 16 and 17, their stakes and
 * stake holders from the elector's `past_elections` (matched by the set's hash); elections from the elector's
 * `participant_list_extended` (the open one) and `past_elections` (finished ones); complaints from
 * `list_complaints` of each past election; events from the elector's transactions and the ones its answers caused.
 * Whatever the chain does not hold is absent, never made up: with no elector deployed (a fork's network may
 * have one; a chain made before the local elector has none) there are no elections, events or complaints and
 * cycle stakes are unknown. A past election keeps no max_factor (the elector forgets it once stakes are
 * frozen), so its participants and cycle members have none; its elect_close follows from param 15 and its
 * min_stake is param 17's (what the elector announces an election with).
 */
import { Address, Cell, Dictionary, type DictionaryValue, type Message, type Slice } from '@ton/core';
import { configParse15, configParse16, configParse17, parseValidatorSet } from '@ton/ton';
import {
  type ValidatorComplaint,
  type ValidatorComplaintsParams,
  type ValidatorComplaintsResponse,
  type ValidatorCycle,
  type ValidatorCyclesParams,
  type ValidatorCyclesResponse,
  type ValidatorElection,
  type ValidatorElectionParticipant,
  type ValidatorElectionsParams,
  type ValidatorElectionsResponse,
  type ValidatorEvent,
  type ValidatorEventsParams,
  type ValidatorEventsResponse,
  type ValidatorFilter,
  type ValidatorsApi,
} from '../../../api/v3/validators.js';
import { rawUpper } from '../../../model/address.js';
import { b64 } from '../../../model/v3/common.js';
import type { TxRecord } from '../chain/store.js';
import type { Item } from '../indexer/contract-data.js';
import { configParam, electorAddress, hex256, runGet } from './v3-chain-reads.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf } from './v3-order.js';

/** Elector opcodes (elector-code.fc). */
const OP = {
  newStake: 0x4e73744b,
  newStakeOk: 0xf374484c,
  newStakeError: 0xee6f454c,
  recoverStake: 0x47657424,
  recoverStakeOk: 0xf96f7324,
  recoverFailed: 0xfffffffe,
} as const;

const inWindow = (v: number, p: { startUtime?: number; endUtime?: number }): boolean =>
  (p.startUtime === undefined || v >= p.startUtime) && (p.endUtime === undefined || v <= p.endUtime);

interface Member {
  pubkey: string;
  adnl: string | null;
  holder: string | null;
}

/** Whether a participant or cycle member matches the participant filters (none given: every one). */
function matches(f: ValidatorFilter, m: Member): boolean {
  if (f.validatorPubkey !== undefined && m.pubkey !== f.validatorPubkey) return false;
  if (f.adnlAddress !== undefined && m.adnl !== f.adnlAddress) return false;
  if (f.stakeHolderAddress !== undefined && m.holder !== rawUpper(f.stakeHolderAddress)) return false;
  return true;
}

const filtered = (f: ValidatorFilter): boolean =>
  f.validatorPubkey !== undefined || f.adnlAddress !== undefined || f.stakeHolderAddress !== undefined;

/** A TVM list (`cons` pairs ending in null) as an array: the std stack prints it as a tvm.list of its heads, null when empty. */
function tvmList(l: Item): Item[] {
  if (l === null) return [];
  if (!Array.isArray(l)) throw new Error('list expected');
  return l;
}

const int = (v: Item | undefined): bigint => {
  if (typeof v !== 'bigint') throw new Error('integer expected');
  return v;
};

/** The elector's current election (participant_list_extended), when there is one. */
async function currentElection(ctx: LocalV3Context, elector: Address | undefined): Promise<ValidatorElection | null> {
  const s = elector && (await runGet(ctx, elector, 'participant_list_extended'));
  if (!s) return null;
  const electAt = Number(s.int());
  const electClose = Number(s.int());
  const minStake = s.int();
  const totalStake = s.int();
  const list = tvmList(s.item());
  const failed = s.int() !== 0n;
  const finished = s.int() !== 0n;
  if (electAt === 0) return null;
  const participants: ValidatorElectionParticipant[] = list.map((entry) => {
    const [id, info] = entry as Item[];
    const [stake, maxFactor, addr, adnl] = info as Item[];
    return {
      validator_pubkey: hex256(int(id)),
      stake: int(stake).toString(),
      max_factor: Number(int(maxFactor)),
      stake_holder_address: `-1:${hex256(int(addr))}`,
      adnl_addr: hex256(int(adnl)),
    };
  });
  participants.sort(orderBy<ValidatorElectionParticipant>([(x) => BigInt(x.stake), 'desc']));
  return {
    election_id: electAt,
    elect_close: electClose,
    min_stake: minStake.toString(),
    total_stake: totalStake.toString(),
    total_participants: participants.length,
    failed,
    finished,
    participants,
  };
}

/** A stake frozen in a past election (frozen dict: addr:uint256 weight:uint64 stake:Coins banned:Bool). */
interface Frozen {
  holder: string;
  stake: bigint;
}

interface PastElection {
  id: number;
  /** uppercase hex of the validator set's hash */
  vsetHash: string;
  totalStake: bigint;
  /** by uppercase hex pubkey */
  frozen: Map<string, Frozen>;
}

const FROZEN: DictionaryValue<Frozen> = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s) => {
    const holder = `-1:${hex256(s.loadUintBig(256))}`;
    s.skip(64);
    return { holder, stake: s.loadCoins() };
  },
};

/** The elector's past_elections: [id, unfreeze_at, stake_held, vset_hash, frozen, total_stake, bonuses, complaints]. */
async function pastElections(ctx: LocalV3Context, elector: Address | undefined): Promise<PastElection[]> {
  const s = elector && (await runGet(ctx, elector, 'past_elections'));
  if (!s) return [];
  return tvmList(s.item()).map((entry) => {
    const [id, , , vsetHash, frozen, totalStake] = entry as Item[];
    const dict = frozen instanceof Cell ? Dictionary.loadDirect(Dictionary.Keys.BigUint(256), FROZEN, frozen) : undefined;
    return {
      id: Number(int(id)),
      vsetHash: hex256(int(vsetHash)),
      totalStake: int(totalStake),
      frozen: new Map((dict ? [...dict] : []).map(([k, v]) => [hex256(k), v])),
    };
  });
}

/** A past election as /validators/elections lists it: its frozen stakes, placed in the set they elected. */
function pastElection(e: PastElection, cycle: ValidatorCycle | undefined, electionsEndBefore: number, minStake: string): ValidatorElection {
  const members = new Map((cycle?.validators ?? []).map((v) => [v.validator_pubkey, v]));
  const participants = [...e.frozen].map(([pubkey, f]): ValidatorElectionParticipant => {
    const member = members.get(pubkey);
    return {
      validator_pubkey: pubkey,
      ...(member ? { validator_index: member.validator_index } : {}),
      stake: f.stake.toString(),
      stake_holder_address: f.holder,
      adnl_addr: member?.adnl_addr ?? hex256(0n),
    };
  });
  participants.sort(orderBy<ValidatorElectionParticipant>([(x) => BigInt(x.stake), 'desc']));
  return {
    election_id: e.id,
    elect_close: e.id - electionsEndBefore,
    min_stake: minStake,
    total_stake: e.totalStake.toString(),
    total_participants: participants.length,
    failed: false,
    finished: true,
    participants,
  };
}

/** The validator sets of config params 32, 34 and 36, one cycle each (by cycle start), with 15, 16 and 17. */
/** A cycle with the hash of its validator set and the config param it is (34 current, 36 next, 32 previous). */
interface SetCycle {
  cycle: ValidatorCycle;
  vsetHash: string;
  param: number;
}

async function cyclesOf(ctx: LocalV3Context, past: PastElection[]): Promise<SetCycle[]> {
  const [p15, p16, p17] = await Promise.all([15, 16, 17].map((id) => configParam(ctx, id)));
  if (!p15 || !p16 || !p17) return [];
  const timing = configParse15(p15.beginParse());
  const limits = configParse16(p16.beginParse());
  const stakes = configParse17(p17.beginParse());
  const byStart = new Map<number, SetCycle>();
  for (const id of [32, 34, 36]) {
    const cell: Cell | undefined = await configParam(ctx, id);
    const vset = cell && parseValidatorSet(cell.beginParse());
    if (!vset || byStart.has(vset.timeSince)) continue;
    const members = [...vset.list.keys()].sort((a, b) => a - b).map((i) => ({ i, v: vset.list.get(i)! }));
    const totalWeight = vset.totalWeight ?? members.reduce((sum, m) => sum + m.v.weight, 0n);
    const vsetHash = cell.hash().toString('hex').toUpperCase();
    const election = past.find((e) => e.vsetHash === vsetHash);
    const staked = members.flatMap(({ v }) => election?.frozen.get(v.publicKey.toString('hex').toUpperCase())?.stake ?? []);
    byStart.set(vset.timeSince, { vsetHash, param: id, cycle: {
      ...(election ? { election_id: election.id, total_stake: election.totalStake.toString() } : {}),
      cycle_start: vset.timeSince,
      cycle_end: vset.timeUntil,
      total: vset.total,
      main: vset.main,
      total_weight: totalWeight.toString(),
      validators_elected_for: timing.validatorsElectedFor,
      elections_start_before: timing.electorsStartBefore,
      elections_end_before: timing.electorsEndBefore,
      stake_held_for: timing.stakeHeldFor,
      max_validators: limits.maxValidators,
      max_main_validators: limits.maxMainValidators,
      min_validators: limits.minValidators,
      min_stake_limit: stakes.minStake.toString(),
      max_stake_limit: stakes.maxStake.toString(),
      min_total_stake: stakes.minTotalStake.toString(),
      max_stake_factor: stakes.maxStakeFactor,
      ...(staked.length > 0 ? { min_stake: bigMin(staked).toString(), max_stake: bigMax(staked).toString() } : {}),
      validators: members.map(({ i, v }) => {
        const pubkey = v.publicKey.toString('hex').toUpperCase();
        const frozen = election?.frozen.get(pubkey);
        return {
          validator_index: i,
          validator_pubkey: pubkey,
          adnl_addr: (v.adnlAddress ?? Buffer.alloc(32)).toString('hex').toUpperCase(),
          weight: v.weight.toString(),
          ...(frozen ? { stake_holder_address: frozen.holder, stake: frozen.stake.toString() } : {}),
          complaints: [],
        };
      }),
    } });
  }
  return [...byStart.values()];
}

/** The elector's charge for answering a stake (elector-code.fc process_new_stake): not part of the stake. */
const STAKE_FEE = 1_000_000_000n;

const valueOf = (m: Message): bigint => (m.info.type === 'internal' ? m.info.value.coins : 0n);

/** Whether the transaction's compute phase ran and succeeded (an event of a failed transaction is none). */
function succeeded(rec: TxRecord): boolean {
  const d = rec.tx.description;
  return (d.type === 'generic' || d.type === 'tick-tock') && !d.aborted && d.computePhase.type === 'vm' && d.computePhase.success;
}

/** op and query_id of an internal message carrying both (the elector's messages all do). */
function header(m: Message | null | undefined): { op: number; queryId: bigint; body: Slice } | undefined {
  if (m?.info.type !== 'internal') return undefined;
  const body = m.body.beginParse();
  if (body.remainingBits < 96) return undefined;
  return { op: body.loadUint(32), queryId: body.loadUintBig(64), body };
}

/**
 * One transaction's stake event, as the reference's worker reads it (ton-indexer v1.3, StakingEventProcessor.h):
 * at the elector, new_stake with its answer of the same query_id (`stake_accepted` for the stake less the
 * elector's 1 TON, `stake_rejected` for what came back, with the reason) and recover_stake (`recover_requested`,
 * what the request carried); at the stake holder, the elector's recover_stake_ok (`stake_recovered`, what came
 * back) or its refusal (`recover_failed`).
 */
function stakeEvent(rec: TxRecord, elector: string): ValidatorEvent | undefined {
  const msg = rec.tx.inMessage;
  const h = header(msg);
  if (!msg || msg.info.type !== 'internal' || !h || !succeeded(rec)) return undefined;
  const base = {
    tx_hash: b64(Buffer.from(rec.hash, 'hex')),
    tx_lt: rec.lt.toString(),
    utime: rec.now,
    query_id: h.queryId.toString(),
  };
  const source = rawUpper(msg.info.src);
  if (rawUpper(rec.account) === elector && h.op === OP.newStake) {
    if (h.body.remainingBits < 256 + 32 + 32 + 256) return undefined;
    const pubkey = h.body.loadBuffer(32).toString('hex').toUpperCase();
    const electionId = h.body.loadUint(32);
    h.body.skip(32);
    const adnl = h.body.loadBuffer(32).toString('hex').toUpperCase();
    const stake = valueOf(msg) > STAKE_FEE ? valueOf(msg) - STAKE_FEE : 0n;
    const stakeEvent = { ...base, stake_holder_address: source, validator_pubkey: pubkey, adnl_addr: adnl, election_id: electionId };
    for (const out of rec.tx.outMessages.values()) {
      const answer = header(out);
      if (!answer || (answer.op !== OP.newStakeOk && answer.op !== OP.newStakeError) || answer.queryId !== h.queryId) continue;
      if (answer.op === OP.newStakeOk) return { ...stakeEvent, type: 'stake_accepted', amount: stake.toString() };
      const reason = answer.body.remainingBits >= 32 ? { reason: answer.body.loadInt(32) } : {};
      return { ...stakeEvent, type: 'stake_rejected', amount: valueOf(out).toString(), ...reason };
    }
    // a stake with query_id 0 gets no answer when accepted
    return h.queryId === 0n ? { ...stakeEvent, type: 'stake_accepted', amount: stake.toString() } : undefined;
  }
  if (rawUpper(rec.account) === elector && h.op === OP.recoverStake) {
    return { ...base, type: 'recover_requested', stake_holder_address: source, amount: valueOf(msg).toString() };
  }
  if (source !== elector) return undefined;
  if (h.op === OP.recoverStakeOk) return { ...base, type: 'stake_recovered', stake_holder_address: rawUpper(rec.account), amount: valueOf(msg).toString() };
  if (h.op === OP.recoverFailed) return { ...base, type: 'recover_failed', stake_holder_address: rawUpper(rec.account), amount: valueOf(msg).toString() };
  return undefined;
}

/** The stake events of the elector's transactions and of the transactions its answers caused. */
function electorEvents(ctx: LocalV3Context, elector: Address): ValidatorEvent[] {
  const raw = rawUpper(elector);
  const out: ValidatorEvent[] = [];
  for (const rec of ctx.store.accountTransactions(elector)) {
    const own = stakeEvent(rec, raw);
    if (own) out.push(own);
    for (const hash of rec.outMsgHashes) {
      const dest = ctx.store.message(hash)?.destTxHash;
      const answered = dest === undefined ? undefined : ctx.store.tx(dest);
      const event = answered && stakeEvent(answered, raw);
      if (event) out.push(event);
    }
  }
  return out;
}

const bigMin = (xs: bigint[]): bigint => xs.reduce((a, b) => (b < a ? b : a));
const bigMax = (xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));

/**
 * The complaints of a past election whose set is a cycle (list_complaints), as the reference's worker reads them
 * (ton-indexer v1.3, StakingEventProcessor.h): [hash, [[pubkey, description, created_at, severity, reward_addr,
 * paid, suggested_fine, suggested_fine_part], voters (a list of set indexes), vset_id, weight_remaining]]. The
 * votes count in the set named by vset_id (the current set while nobody has voted); a complaint passes once they
 * reach 2/3 of its weight (weight_remaining, counted down from that, below 0), and until the first vote the
 * elector keeps 0 there, which the reference prints as the whole 2/3 still remaining.
 */
async function complaintsOf(ctx: LocalV3Context, elector: Address, e: PastElection, own: SetCycle, sets: SetCycle[]): Promise<ValidatorComplaint[]> {
  const s = await runGet(ctx, elector, 'list_complaints', [{ type: 'int', value: BigInt(e.id) }]);
  if (!s) return [];
  const cycle = own.cycle;
  return tvmList(s.item()).map((entry) => {
    const [hash, status] = entry as Item[];
    const [complaint, voters, vsetId, remaining] = status as Item[];
    const [pubkey, description, createdAt, severity, reward, paid, fine, finePart] = complaint as Item[];
    const validatorPubkey = hex256(int(pubkey));
    const votes = tvmList(voters ?? null).map((v) => Number(int(v)));
    const voting =
      (int(vsetId) !== 0n ? sets.find((x) => x.vsetHash === hex256(int(vsetId)))?.cycle : undefined) ??
      (votes.length === 0 ? (sets.find((x) => x.param === 34)?.cycle ?? cycle) : undefined);
    const weighing = voting ?? cycle;
    const totalWeight = BigInt(weighing.total_weight);
    const required = (totalWeight * 2n) / 3n;
    const weightRemaining = votes.length === 0 ? required : int(remaining);
    return {
      cycle_start: cycle.cycle_start,
      election_id: e.id,
      complaint_hash: b64(int(hash)),
      validator_pubkey: validatorPubkey,
      adnl_addr: cycle.validators?.find((v) => v.validator_pubkey === validatorPubkey)?.adnl_addr ?? null,
      ...(e.frozen.get(validatorPubkey) ? { stake_holder_address: e.frozen.get(validatorPubkey)!.holder } : {}),
      description_boc: description instanceof Cell ? description.toBoc().toString('base64') : '',
      created_at: Number(int(createdAt)),
      severity: Number(int(severity)),
      reward_address: `-1:${hex256(int(reward))}`,
      paid: int(paid).toString(),
      suggested_fine: int(fine).toString(),
      suggested_fine_part: Number(int(finePart)),
      voted_validators: votes.map((i) => {
        const v = voting?.validators?.find((m) => m.validator_index === i);
        return { validator_index: i, ...(v ? { validator_pubkey: v.validator_pubkey, adnl_addr: v.adnl_addr, weight: v.weight } : {}) };
      }),
      vset_id: b64(int(vsetId)),
      weight_remaining: weightRemaining.toString(),
      approved_percent: totalWeight > 0n ? Math.round((Number(required - weightRemaining) / Number(totalWeight)) * 100 * 1000) / 1000 : 0,
      is_passed: int(remaining) < 0n,
    };
  });
}

/** What the four routes read, as of one masterchain block. */
interface Snapshot {
  cycles: ValidatorCycle[];
  elections: ValidatorElection[];
  complaints: ValidatorComplaint[];
}

async function snapshotOf(ctx: LocalV3Context): Promise<Snapshot> {
  const elector = await electorAddress(ctx);
  const past = await pastElections(ctx, elector);
  const sets = await cyclesOf(ctx, past);
  const cycles = sets.map((x) => x.cycle);
  const current = await currentElection(ctx, elector);
  const [p15, p17] = await Promise.all([configParam(ctx, 15), configParam(ctx, 17)]);
  const endBefore = p15 ? configParse15(p15.beginParse()).electorsEndBefore : 0;
  const minStake = p17 ? configParse17(p17.beginParse()).minStake.toString() : '0';
  const cycleOf = (e: PastElection) => cycles.find((c) => c.election_id === e.id);
  const elections = [
    ...(current ? [current] : []),
    ...past.filter((e) => e.id !== current?.election_id).map((e) => pastElection(e, cycleOf(e), endBefore, minStake)),
  ];
  // the reference reads the complaints of the elections of the current and the previous set
  const complained = sets.flatMap((set) => {
    const e = set.param !== 36 ? past.find((x) => x.id === set.cycle.election_id) : undefined;
    return e ? [{ e, set }] : [];
  });
  const complaints = elector ? (await Promise.all(complained.map(({ e, set }) => complaintsOf(ctx, elector, e, set, sets)))).flat() : [];
  const newestFirst = orderBy<ValidatorComplaint>([(c) => c.created_at, 'desc'], [(c) => Buffer.from(c.complaint_hash, 'base64').toString('hex'), 'asc']);
  for (const c of [...complaints].sort(newestFirst)) {
    const member = cycles.find((x) => x.cycle_start === c.cycle_start)?.validators?.find((v) => v.validator_pubkey === c.validator_pubkey);
    member?.complaints.push(c);
  }
  return { cycles, elections, complaints };
}

export function localValidators(ctx: LocalV3Context): ValidatorsApi {
  /** Cycles, elections and complaints as of the last sealed masterchain block, read once per block (a set holds hundreds of members). */
  let snapshot: { at: number; value: Promise<Snapshot> } | undefined;
  const current = (): Promise<Snapshot> => {
    const at = ctx.store.lastMc.seqno;
    if (snapshot?.at !== at) snapshot = { at, value: snapshotOf(ctx) };
    return snapshot.value;
  };
  return {
    async validatorEvents(p: ValidatorEventsParams): Promise<ValidatorEventsResponse> {
      const elector = await electorAddress(ctx);
      const all = elector ? electorEvents(ctx, elector) : [];
      const list = all
        .filter(
          (e) =>
            (p.type === undefined || e.type === p.type) &&
            inWindow(e.utime, p) &&
            matches(p, { pubkey: e.validator_pubkey ?? '', adnl: e.adnl_addr ?? null, holder: e.stake_holder_address }),
        )
        .sort(orderBy<ValidatorEvent>([(e) => e.utime, p.sort], [(e) => BigInt(e.tx_lt), p.sort]));
      const events = pageOf(list, p);
      return {
        ...(p.startUtime !== undefined ? { start_utime: p.startUtime } : {}),
        ...(p.endUtime !== undefined ? { end_utime: p.endUtime } : {}),
        events,
        address_book: ctx.book(events.map((e) => e.stake_holder_address), p),
      };
    },

    async validatorElections(p: ValidatorElectionsParams): Promise<ValidatorElectionsResponse> {
      const list = (await current()).elections
        .filter((e) => (p.electionId === undefined || e.election_id === p.electionId) && (p.finished === undefined || e.finished === p.finished))
        .filter((e) => inWindow(e.election_id, p))
        .map((e) => ({ ...e, participants: e.participants!.filter((x) => matches(p, { pubkey: x.validator_pubkey, adnl: x.adnl_addr, holder: x.stake_holder_address })) }))
        .filter((e) => !filtered(p) || e.participants.length > 0)
        .sort(orderBy<ValidatorElection>([(e) => e.election_id, p.sort]));
      const elections = pageOf(list, p).map(({ participants, ...e }) => (p.returnParticipants ? { ...e, participants } : e));
      const holders = elections.flatMap((e) => ('participants' in e ? e.participants.map((x) => x.stake_holder_address) : []));
      return { elections, address_book: ctx.book(holders, p) };
    },

    async validatorCycles(p: ValidatorCyclesParams): Promise<ValidatorCyclesResponse> {
      const list = (await current()).cycles
        .filter((c) => (p.cycleStart === undefined || c.cycle_start === p.cycleStart) && (p.electionId === undefined || c.election_id === p.electionId))
        .filter((c) => inWindow(c.cycle_start, p))
        .map((c) => ({ ...c, validators: c.validators!.filter((v) => matches(p, { pubkey: v.validator_pubkey, adnl: v.adnl_addr, holder: v.stake_holder_address ?? null })) }))
        .filter((c) => !filtered(p) || c.validators.length > 0)
        .sort(orderBy<ValidatorCycle>([(c) => c.cycle_start, p.sort]));
      const cycles = pageOf(list, p).map(({ validators, ...c }) => (p.returnValidators ? { ...c, validators } : c));
      return { cycles, address_book: ctx.book([], p) };
    },

    async validatorComplaints(p: ValidatorComplaintsParams): Promise<ValidatorComplaintsResponse> {
      const list = (await current()).complaints
        .filter((c) => (p.cycleStart === undefined || c.cycle_start === p.cycleStart) && (p.electionId === undefined || c.election_id === p.electionId))
        .filter((c) => inWindow(c.created_at, p) && matches(p, { pubkey: c.validator_pubkey, adnl: c.adnl_addr, holder: c.stake_holder_address ?? null }))
        .sort(orderBy<ValidatorComplaint>([(c) => c.created_at, p.sort], [(c) => Buffer.from(c.complaint_hash, 'base64').toString('hex'), 'asc']));
      const complaints = pageOf(list, p);
      return { complaints, address_book: ctx.book(complaints.flatMap((c) => c.stake_holder_address ?? []), p) };
    },
  };
}
