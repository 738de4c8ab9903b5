/**
 * /api/v3/validators/* over the local chain (v3-more-routes.md §4), read the way toncenter's worker reads mainnet:
 * cycles from config params 32/34/36 (previous, current, next validator set) with 15, 16 and 17; elections
 * from the elector's `participant_list_extended`; events from the messages of the elector's transactions.
 * Whatever the chain does not hold is absent, never made up: with no active elector (the sandbox's default
 * config names one that is not deployed) there are no elections, events or complaints, and stakes and stake
 * holders of cycle members are unknown (they come from the elector's past_elections), so they are left out.
 * Not read yet: past_elections (earlier elections, cycle stakes) and list_complaints, so with an active elector
 * elections list only the current one and complaints stay empty.
 */
import { Address, type Cell, type Message } from '@ton/core';
import { configParse15, configParse16, configParse17, parseValidatorSet } from '@ton/ton';
import {
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

/** A TVM list (`cons` pairs ending in null) as an array. */
function tvmList(l: Item): Item[] {
  const out: Item[] = [];
  let cur = l;
  while (Array.isArray(cur) && cur.length === 2) {
    out.push(cur[0]!);
    cur = cur[1]!;
  }
  return out;
}

const int = (v: Item | undefined): bigint => {
  if (typeof v !== 'bigint') throw new Error('integer expected');
  return v;
};

/** The elector's current election (participant_list_extended), when there is one. */
async function currentElection(ctx: LocalV3Context): Promise<{ election: ValidatorElection; holders: string[] } | null> {
  const elector = await electorAddress(ctx);
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
  const election: ValidatorElection = {
    election_id: electAt,
    elect_close: electClose,
    min_stake: minStake.toString(),
    total_stake: totalStake.toString(),
    total_participants: participants.length,
    failed,
    finished,
    participants,
  };
  return { election, holders: participants.map((x) => x.stake_holder_address) };
}

/** The validator sets of config params 32, 34 and 36, one cycle each (by cycle start), with 15, 16 and 17. */
async function cyclesOf(ctx: LocalV3Context): Promise<ValidatorCycle[]> {
  const [p15, p16, p17] = await Promise.all([15, 16, 17].map((id) => configParam(ctx, id)));
  if (!p15 || !p16 || !p17) return [];
  const timing = configParse15(p15.beginParse());
  const limits = configParse16(p16.beginParse());
  const stakes = configParse17(p17.beginParse());
  const byStart = new Map<number, ValidatorCycle>();
  for (const id of [32, 34, 36]) {
    const cell: Cell | undefined = await configParam(ctx, id);
    const vset = cell && parseValidatorSet(cell.beginParse());
    if (!vset || byStart.has(vset.timeSince)) continue;
    const members = [...vset.list.keys()].sort((a, b) => a - b).map((i) => ({ i, v: vset.list.get(i)! }));
    const totalWeight = vset.totalWeight ?? members.reduce((sum, m) => sum + m.v.weight, 0n);
    byStart.set(vset.timeSince, {
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
      validators: members.map(({ i, v }) => ({
        validator_index: i,
        validator_pubkey: v.publicKey.toString('hex').toUpperCase(),
        adnl_addr: (v.adnlAddress ?? Buffer.alloc(32)).toString('hex').toUpperCase(),
        weight: v.weight.toString(),
        complaints: [],
      })),
    });
  }
  return [...byStart.values()];
}

const opOf = (m: Message | undefined | null): number | undefined => {
  const s = m?.body.beginParse();
  return s && s.remainingBits >= 32 ? s.loadUint(32) : undefined;
};

const valueOf = (m: Message): bigint => (m.info.type === 'internal' ? m.info.value.coins : 0n);

/** Stake events from the elector's transactions: a request in the inbound message, its outcome in the reply. */
function electorEvents(ctx: LocalV3Context, elector: Address): ValidatorEvent[] {
  const out: ValidatorEvent[] = [];
  for (const rec of ctx.store.accountTransactions(elector)) {
    const msg = rec.tx.inMessage;
    if (!msg || msg.info.type !== 'internal') continue;
    const op = opOf(msg);
    if (op !== OP.newStake && op !== OP.recoverStake) continue;
    const body = msg.body.beginParse().skip(32);
    const queryId = body.remainingBits >= 64 ? body.loadUintBig(64) : undefined;
    const reply = rec.tx.outMessages.values().find((m) => m.info.type === 'internal');
    const replyOp = opOf(reply);
    const base = {
      tx_hash: b64(Buffer.from(rec.hash, 'hex')),
      tx_lt: rec.lt.toString(),
      utime: rec.now,
      stake_holder_address: rawUpper(msg.info.src),
      ...(queryId !== undefined ? { query_id: queryId.toString() } : {}),
    };
    if (op === OP.newStake) {
      if (body.remainingBits < 256 + 32 + 32 + 256) continue;
      const pubkey = body.loadBuffer(32);
      const stakeAt = body.loadUint(32);
      body.skip(32);
      const adnl = body.loadBuffer(32);
      const rejected = replyOp === OP.newStakeError;
      const reason = rejected && reply ? reply.body.beginParse().skip(32 + 64) : undefined;
      out.push({
        ...base,
        type: rejected ? 'stake_rejected' : 'stake_accepted',
        validator_pubkey: pubkey.toString('hex').toUpperCase(),
        adnl_addr: adnl.toString('hex').toUpperCase(),
        election_id: stakeAt,
        amount: valueOf(msg).toString(),
        ...(reason && reason.remainingBits >= 32 ? { reason: reason.loadUint(32) } : {}),
      });
    } else {
      const type = replyOp === OP.recoverStakeOk ? 'stake_recovered' : replyOp === OP.recoverFailed ? 'recover_failed' : 'recover_requested';
      out.push({ ...base, type, amount: (type === 'stake_recovered' && reply ? valueOf(reply) : 0n).toString() });
    }
  }
  return out;
}

export function localValidators(ctx: LocalV3Context): ValidatorsApi {
  /** The cycles as of the last sealed masterchain block, read once per block (a set holds hundreds of members). */
  let cycles: { at: number; list: Promise<ValidatorCycle[]> } | undefined;
  const currentCycles = (): Promise<ValidatorCycle[]> => {
    const at = ctx.store.lastMc.seqno;
    if (cycles?.at !== at) cycles = { at, list: cyclesOf(ctx) };
    return cycles.list;
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
      const current = await currentElection(ctx);
      const list = (current ? [current.election] : [])
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
      const list = (await currentCycles())
        .filter((c) => (p.cycleStart === undefined || c.cycle_start === p.cycleStart) && (p.electionId === undefined || c.election_id === p.electionId))
        .filter((c) => inWindow(c.cycle_start, p))
        .map((c) => ({ ...c, validators: c.validators!.filter((v) => matches(p, { pubkey: v.validator_pubkey, adnl: v.adnl_addr, holder: v.stake_holder_address ?? null })) }))
        .filter((c) => !filtered(p) || c.validators.length > 0)
        .sort(orderBy<ValidatorCycle>([(c) => c.cycle_start, p.sort]));
      const cycles = pageOf(list, p).map(({ validators, ...c }) => (p.returnValidators ? { ...c, validators } : c));
      return { cycles, address_book: ctx.book([], p) };
    },

    async validatorComplaints(p: ValidatorComplaintsParams): Promise<ValidatorComplaintsResponse> {
      // complaints come from the elector's list_complaints, which is not read here (see the file's comment)
      const complaints = (await currentCycles()).flatMap((c) => c.validators!.flatMap((v) => v.complaints));
      return { complaints: pageOf(complaints, p), address_book: ctx.book([], p) };
    },
  };
}
