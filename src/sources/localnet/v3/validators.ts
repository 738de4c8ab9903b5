/**
 * /api/v3/validators/* over the local chain (v3-more-routes.md §4), read the way toncenter's worker reads mainnet
 * (ton-indexer v1.3: StakingEventProcessor.h takes the snapshots, InsertManagerPostgres.cpp keeps them): at every
 * masterchain block where the elector's or the config contract's data changed, the config of that block (the
 * config contract's data, as on the network) and the elector's get-methods run on its state then give
 *   - cycles: config params 34, 36, 32 with 15, 16 and 17; each set's election by its hash in `past_elections`,
 *     kept once seen, and its stakes from the frozen stakes, the largest seen (the stake before any fine);
 *   - elections: `participant_list_extended`, the last seen of each (so a finished election keeps every
 *     participant with its declared stake and max_factor after the elector forgets it);
 *   - complaints: `list_complaints` of the elections of the current and the previous set, the last seen of each.
 * So what a block showed stays, as in the reference's database, after the elector forgets it. An election only
 * ever seen frozen (placed at genesis) is listed from its frozen stakes: no max_factor, elect_close from param
 * 15, min_stake param 17's. Events come from the elector's transactions and the ones its answers caused.
 * Whatever the chain does not hold is absent, never made up: with no elector deployed (a fork's network may
 * have one; a chain made before the local elector has none) there are no elections, events or complaints and
 * cycle stakes are unknown.
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
import type { Item } from '../../../model/contract-data.js';
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

/** One block's config: the config contract's data then, or the chain's config when there is no such contract. */
type Config = (id: number) => Cell | undefined;

const CONFIG_DICT = { key: Dictionary.Keys.Int(32), value: Dictionary.Values.Cell() };

async function configAt(ctx: LocalV3Context, seqno: number): Promise<Config> {
  const p0 = await configParam(ctx, 0);
  const st = p0 && ctx.store.accountState(new Address(-1, p0.beginParse().loadBuffer(32)), seqno)?.shardAccount.account?.storage.state;
  if (st?.type === 'active' && st.state.data) {
    const dict = Dictionary.loadDirect(CONFIG_DICT.key, CONFIG_DICT.value, st.state.data.beginParse().loadRef());
    return (id) => dict.get(id);
  }
  const ids = [1, 15, 16, 17, 32, 34, 36];
  const cells = await Promise.all(ids.map((id) => configParam(ctx, id)));
  return (id) => cells[ids.indexOf(id)];
}

/** The elector's current election (participant_list_extended) at block `seqno`, when there is one. */
async function currentElection(ctx: LocalV3Context, elector: Address, seqno: number): Promise<ValidatorElection | null> {
  const s = await runGet(ctx, elector, 'participant_list_extended', [], seqno);
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

/** The elector's past_elections at block `seqno`: [id, unfreeze_at, stake_held, vset_hash, frozen, total_stake, bonuses, complaints]. */
async function pastElections(ctx: LocalV3Context, elector: Address, seqno: number): Promise<PastElection[]> {
  const s = await runGet(ctx, elector, 'past_elections', [], seqno);
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

interface CycleMember {
  validator_index: number;
  validator_pubkey: string;
  adnl_addr: string;
  weight: string;
  stake?: bigint;
}

/** What the blocks read showed of one cycle: the last view of its set and config, the election and stakes as kept. */
interface SeenCycle {
  cycle: Omit<ValidatorCycle, 'election_id' | 'total_stake' | 'min_stake' | 'max_stake' | 'validators'>;
  electionId?: number;
  totalStake?: bigint;
  members: CycleMember[];
}

/** A set of config params 34, 36 or 32 at one block: its cycle, the hash of the set and the election it matches then. */
interface SetAt {
  param: number;
  vsetHash: string;
  election?: PastElection;
  seen: SeenCycle;
}

/** The sets of params 34, 36 and 32 (the first of each cycle start), read with that block's 15, 16 and 17. */
function setsAt(config: Config, past: PastElection[]): SetAt[] {
  const [p15, p16, p17] = [config(15), config(16), config(17)];
  if (!p15 || !p16 || !p17) return [];
  const timing = configParse15(p15.beginParse());
  const limits = configParse16(p16.beginParse());
  const stakes = configParse17(p17.beginParse());
  const out: SetAt[] = [];
  for (const param of [34, 36, 32]) {
    const cell = config(param);
    const vset = cell && parseValidatorSet(cell.beginParse());
    if (!vset || out.some((x) => x.seen.cycle.cycle_start === vset.timeSince)) continue;
    const list = [...vset.list.keys()].sort((a, b) => a - b).map((i) => ({ i, v: vset.list.get(i)! }));
    const vsetHash = cell.hash().toString('hex').toUpperCase();
    const election = past.find((e) => e.vsetHash === vsetHash);
    const members = list.map(({ i, v }): CycleMember => {
      const pubkey = v.publicKey.toString('hex').toUpperCase();
      const stake = election?.frozen.get(pubkey)?.stake;
      return {
        validator_index: i,
        validator_pubkey: pubkey,
        adnl_addr: (v.adnlAddress ?? Buffer.alloc(32)).toString('hex').toUpperCase(),
        weight: v.weight.toString(),
        ...(stake !== undefined ? { stake } : {}),
      };
    });
    const cycle = {
      cycle_start: vset.timeSince,
      cycle_end: vset.timeUntil,
      total: vset.total,
      main: vset.main,
      total_weight: (vset.totalWeight ?? list.reduce((sum, m) => sum + m.v.weight, 0n)).toString(),
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
    };
    out.push({ param, vsetHash, ...(election ? { election } : {}), seen: { cycle, ...(election ? { electionId: election.id, totalStake: election.totalStake } : {}), members } });
  }
  return out;
}

/** A complaint as kept, before it is placed in the cycle of its election. */
type SeenComplaint = Omit<ValidatorComplaint, 'cycle_start' | 'stake_holder_address'>;

/**
 * The complaints of a set's election at block `seqno` (list_complaints), as the reference's worker reads them:
 * [hash, [[pubkey, description, created_at, severity, reward_addr, paid, suggested_fine, suggested_fine_part],
 * voters (a list of set indexes), vset_id, weight_remaining]]. The votes count in the set named by vset_id (the
 * current set while nobody has voted); a complaint passes once they reach 2/3 of its weight (weight_remaining,
 * counted down from that, below 0), and until the first vote the elector keeps 0 there, which the reference
 * prints as the whole 2/3 still remaining.
 */
async function complaintsAt(ctx: LocalV3Context, elector: Address, seqno: number, own: SetAt & { election: PastElection }, sets: SetAt[]): Promise<SeenComplaint[]> {
  const s = await runGet(ctx, elector, 'list_complaints', [{ type: 'int', value: BigInt(own.election.id) }], seqno);
  if (!s) return [];
  return tvmList(s.item()).map((entry) => {
    const [hash, status] = entry as Item[];
    const [complaint, voters, vsetId, remaining] = status as Item[];
    const [pubkey, description, createdAt, severity, reward, paid, fine, finePart] = complaint as Item[];
    const validatorPubkey = hex256(int(pubkey));
    const votes = tvmList(voters ?? null).map((v) => Number(int(v)));
    const voting =
      (int(vsetId) !== 0n ? sets.find((x) => x.vsetHash === hex256(int(vsetId)))?.seen : undefined) ??
      (votes.length === 0 ? (sets.find((x) => x.param === 34)?.seen ?? own.seen) : undefined);
    const totalWeight = BigInt((voting ?? own.seen).cycle.total_weight);
    const required = (totalWeight * 2n) / 3n;
    const weightRemaining = votes.length === 0 ? required : int(remaining);
    return {
      election_id: own.election.id,
      complaint_hash: b64(int(hash)),
      validator_pubkey: validatorPubkey,
      adnl_addr: own.seen.members.find((m) => m.validator_pubkey === validatorPubkey)?.adnl_addr ?? null,
      description_boc: description instanceof Cell ? description.toBoc().toString('base64') : '',
      created_at: Number(int(createdAt)),
      severity: Number(int(severity)),
      reward_address: `-1:${hex256(int(reward))}`,
      paid: int(paid).toString(),
      suggested_fine: int(fine).toString(),
      suggested_fine_part: Number(int(finePart)),
      voted_validators: votes.map((i) => {
        const v = voting?.members.find((m) => m.validator_index === i);
        return { validator_index: i, ...(v ? { validator_pubkey: v.validator_pubkey, adnl_addr: v.adnl_addr, weight: v.weight } : {}) };
      }),
      vset_id: b64(int(vsetId)),
      weight_remaining: weightRemaining.toString(),
      approved_percent: totalWeight > 0n ? Math.round((Number(required - weightRemaining) / Number(totalWeight)) * 100 * 1000) / 1000 : 0,
      is_passed: int(remaining) < 0n,
    };
  });
}

const bigMax = (a: bigint | undefined, b: bigint | undefined): bigint | undefined => (a === undefined ? b : b === undefined || a >= b ? a : b);

/** Whether a transaction changed its account's data (a tick-tock that changes nothing is no reason to read). */
function dataChanged(ctx: LocalV3Context, rec: TxRecord): boolean {
  const { before, after } = ctx.store.statesAround(rec);
  const data = (sa: typeof after | undefined) => {
    const st = sa?.account?.storage.state;
    return st?.type === 'active' ? st.state.data?.hash().toString('hex') : undefined;
  };
  return data(before) !== data(after);
}

/**
 * What the validator routes answer, kept up to date block by block: every block read is merged in as the
 * reference's database merges a snapshot (the last view wins; a cycle's election is the first seen and its stakes
 * the largest).
 */
class ValidatorHistory {
  /** the last masterchain block read */
  private at = -1;
  private readonly elections = new Map<number, ValidatorElection>();
  private readonly past = new Map<number, PastElection>();
  private readonly cycles = new Map<number, SeenCycle>();
  private readonly complaints = new Map<string, SeenComplaint>();

  constructor(private readonly ctx: LocalV3Context) {}

  /** Reads the blocks after the last one read, up to `upTo`, where the elector's or the config contract's data changed. */
  async readTo(upTo: number): Promise<void> {
    const ctx = this.ctx;
    const [p0, p1] = await Promise.all([configParam(ctx, 0), configParam(ctx, 1)]);
    const blocks = new Set<number>();
    if (this.at < 0) blocks.add(ctx.store.mcBlocks[0]!.seqno);
    for (const p of [p0, p1]) {
      const txs = p ? ctx.store.accountTransactions(new Address(-1, p.beginParse().loadBuffer(32))) : [];
      for (let i = txs.length - 1; i >= 0 && txs[i]!.mcSeqno! > this.at; i--) {
        if (txs[i]!.mcSeqno! <= upTo && dataChanged(ctx, txs[i]!)) blocks.add(txs[i]!.mcSeqno!);
      }
    }
    for (const seqno of [...blocks].sort((a, b) => a - b)) await this.read(seqno);
    this.at = upTo;
  }

  private async read(seqno: number): Promise<void> {
    const config = await configAt(this.ctx, seqno);
    const p1 = config(1);
    const elector = p1 && new Address(-1, p1.beginParse().loadBuffer(32));
    const past = elector ? await pastElections(this.ctx, elector, seqno) : [];
    for (const e of past) {
      const kept = this.past.get(e.id);
      const frozen = new Map(kept?.frozen);
      for (const [pubkey, f] of e.frozen) frozen.set(pubkey, { holder: f.holder, stake: bigMax(frozen.get(pubkey)?.stake, f.stake)! });
      this.past.set(e.id, { id: e.id, vsetHash: kept?.vsetHash ?? e.vsetHash, totalStake: bigMax(kept?.totalStake, e.totalStake)!, frozen });
    }
    const sets = setsAt(config, past);
    for (const { seen } of sets) {
      const kept = this.cycles.get(seen.cycle.cycle_start);
      const electionId = kept?.electionId ?? seen.electionId;
      const totalStake = bigMax(kept?.totalStake, seen.totalStake);
      const members = seen.members.map((m) => {
        const stake = bigMax(kept?.members.find((k) => k.validator_index === m.validator_index)?.stake, m.stake);
        return { ...m, ...(stake !== undefined ? { stake } : {}) };
      });
      this.cycles.set(seen.cycle.cycle_start, { cycle: seen.cycle, ...(electionId !== undefined ? { electionId } : {}), ...(totalStake !== undefined ? { totalStake } : {}), members });
    }
    if (!elector) return;
    const current = await currentElection(this.ctx, elector, seqno);
    if (current) this.elections.set(current.election_id, current);
    // the reference reads the complaints of the elections of the current and the previous set
    for (const set of sets) {
      if (set.param === 36 || !set.election) continue;
      for (const c of await complaintsAt(this.ctx, elector, seqno, { ...set, election: set.election }, sets)) this.complaints.set(`${c.election_id}|${c.complaint_hash}`, c);
    }
  }

  /** The three lists as the routes answer them (fresh objects: the routes narrow them). */
  async answers(): Promise<Snapshot> {
    const [p15, p17] = await Promise.all([configParam(this.ctx, 15), configParam(this.ctx, 17)]);
    const endBefore = p15 ? configParse15(p15.beginParse()).electorsEndBefore : 0;
    const minStake = p17 ? configParse17(p17.beginParse()).minStake.toString() : '0';
    const seen = [...this.cycles.values()];
    /** the latest cycle of an election holding the key: the participant's place in the set */
    const indexOf = (electionId: number, pubkey: string) =>
      seen
        .filter((c) => c.electionId === electionId)
        .sort((a, b) => b.cycle.cycle_start - a.cycle.cycle_start)
        .flatMap((c) => c.members.filter((m) => m.validator_pubkey === pubkey))[0];
    const byStake = orderBy<ValidatorElectionParticipant>([(x) => BigInt(x.stake), 'desc'], [(x) => x.validator_pubkey, 'asc']);
    const elections: ValidatorElection[] = [...this.elections.values()].map((e) => ({
      ...e,
      participants: e.participants!.map((x) => {
        const member = indexOf(e.election_id, x.validator_pubkey);
        const { validator_pubkey, ...rest } = x;
        return { validator_pubkey, ...(member ? { validator_index: member.validator_index } : {}), ...rest };
      }).sort(byStake),
    }));
    for (const e of this.past.values()) {
      if (this.elections.has(e.id)) continue;
      const participants = [...e.frozen].map(([pubkey, f]): ValidatorElectionParticipant => {
        const member = indexOf(e.id, pubkey);
        return {
          validator_pubkey: pubkey,
          ...(member ? { validator_index: member.validator_index } : {}),
          stake: f.stake.toString(),
          stake_holder_address: f.holder,
          adnl_addr: member?.adnl_addr ?? hex256(0n),
        };
      });
      elections.push({
        election_id: e.id,
        elect_close: e.id - endBefore,
        min_stake: minStake,
        total_stake: e.totalStake.toString(),
        total_participants: participants.length,
        failed: false,
        finished: true,
        participants: participants.sort(byStake),
      });
    }
    const participant = (electionId: number | undefined, pubkey: string) =>
      elections.find((e) => e.election_id === electionId)?.participants!.find((x) => x.validator_pubkey === pubkey);
    const complaints: ValidatorComplaint[] = [];
    for (const c of this.complaints.values()) {
      const cycle = seen.find((x) => x.electionId === c.election_id);
      if (!cycle) continue;
      const holder = participant(c.election_id, c.validator_pubkey)?.stake_holder_address;
      complaints.push({ cycle_start: cycle.cycle.cycle_start, ...c, ...(holder ? { stake_holder_address: holder } : {}) });
    }
    complaints.sort(orderBy<ValidatorComplaint>([(c) => c.created_at, 'desc'], [(c) => Buffer.from(c.complaint_hash, 'base64').toString('hex'), 'asc']));
    const cycles = seen.map((c): ValidatorCycle => {
      const stakes = c.members.map((m) => m.stake);
      const staked = stakes.length > 0 && stakes.every((x) => x !== undefined) ? (stakes as bigint[]) : undefined;
      return {
        ...(c.electionId !== undefined ? { election_id: c.electionId } : {}),
        ...c.cycle,
        ...(c.totalStake !== undefined ? { total_stake: c.totalStake.toString() } : {}),
        ...(staked ? { min_stake: staked.reduce((a, b) => (b < a ? b : a)).toString(), max_stake: staked.reduce((a, b) => (b > a ? b : a)).toString() } : {}),
        validators: c.members.map((m) => {
          const p = participant(c.electionId, m.validator_pubkey);
          return {
            validator_index: m.validator_index,
            validator_pubkey: m.validator_pubkey,
            adnl_addr: m.adnl_addr,
            weight: m.weight,
            ...(p ? { stake_holder_address: p.stake_holder_address } : {}),
            ...(m.stake !== undefined ? { stake: m.stake.toString() } : {}),
            ...(p?.max_factor !== undefined ? { max_factor: p.max_factor } : {}),
            complaints: complaints.filter((x) => x.election_id === c.electionId && x.validator_pubkey === m.validator_pubkey),
          };
        }),
      };
    });
    return { cycles, elections, complaints };
  }
}

/** What the four routes read, as of one masterchain block. */
interface Snapshot {
  cycles: ValidatorCycle[];
  elections: ValidatorElection[];
  complaints: ValidatorComplaint[];
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

export function localValidators(ctx: LocalV3Context): ValidatorsApi {
  let history = new ValidatorHistory(ctx);
  /** the blocks are read one call after another (each continues from the last block the one before read) */
  let reading: Promise<unknown> = Promise.resolve();
  /** Cycles, elections and complaints as of the last sealed masterchain block, built once per block (a set holds hundreds of members). */
  let snapshot: { at: number; value: Promise<Snapshot> } | undefined;
  const current = (): Promise<Snapshot> => {
    const at = ctx.store.lastMc.seqno;
    if (snapshot?.at !== at) {
      const value = reading.then(() => history.readTo(at)).then(() => history.answers());
      reading = value.catch(() => undefined);
      snapshot = { at, value };
      // a failed read is tried again by the next call
      value.catch(() => (snapshot = snapshot?.value === value ? undefined : snapshot));
    }
    return snapshot.value;
  };
  // the history merges block after block: after a rewind it is read again from the first block
  ctx.store.onRewind(() => {
    history = new ValidatorHistory(ctx);
    snapshot = undefined;
  });
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
