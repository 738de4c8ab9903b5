/**
 * /api/v3/staking/nominatorPools/* over the local chain (v3-more-routes.md §3), read as toncenter's worker reads
 * mainnet: only accounts running the standard nominator pool code count (or the project's pool, which keeps its
 * layout: genesis deploys one); the pool's state is its data cell
 * (NominatorPoolStorage, no get-method), and the accounting events are the differences of each nominator's
 * (amount, pending deposit, withdraw request) and of the validator's amount across every pool transaction, typed
 * as the reference's worker types them (`eventsOf`).
 * A chain without such a pool answers 404 for /pool and empty lists elsewhere.
 */
import { Address, type Cell, Dictionary, type ShardAccount, type Slice } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type {
  NominatorEventsParams,
  NominatorEventType,
  NominatorParams,
  NominatorPoolEvent,
  NominatorPoolEventsResponse,
  NominatorPoolInfo,
  NominatorPoolParams,
  NominatorPoolsResponse,
  NominatorPoolValidatorEvent,
  NominatorPoolValidatorEventsResponse,
  NominatorPoolValidatorRewardsResponse,
  NominatorRewardsParams,
  NominatorRewardsResponse,
  PoolValidatorEventsParams,
  PoolValidatorRewardsParams,
  StakingApi,
  StakingWindow,
} from '../../../api/v3/staking.js';
import { rawUpper } from '../../../model/address.js';
import { b64, codeOf } from '../../../model/v3/index.js';
import { compiled } from '../chain/contracts/compiled.js';
import type { TxRecord } from '../chain/store.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf } from './v3-order.js';
import { electorAddress, hex256 } from './v3-chain-reads.js';

/** The standard TON nominator pool's code hash (ton-blockchain/nominator-pool), the only code the reference indexes. */
export const STANDARD_NOMINATOR_POOL_CODE_HASH = '9A3EC14BC098F6B44064C305222CAEA2800F17DDA85EE6A8198A7095EDE10DCF';

/**
 * Code hashes read as nominator pools: the standard pool's and the project's own (contracts/nominator-pool.fc),
 * which keeps the standard storage layout; the standard pool's compiled code is another repository's file, so the
 * local chain's genesis runs the project's.
 */
const NOMINATOR_POOL_CODE_HASHES = new Set([STANDARD_NOMINATOR_POOL_CODE_HASH, compiled.contracts.nominatorPool.hash.toUpperCase()]);

/** The elector's `recover_stake_ok`: the pool's stake coming back with the cycle's reward. */
const OP_RECOVER_STAKE_OK = 0xf96f7324;

interface Nominator {
  amount: bigint;
  pending: bigint;
  withdrawRequested: boolean;
}

interface PoolData {
  state: number;
  nominatorsCount: number;
  stakeAmountSent: bigint;
  validatorAmount: bigint;
  validator: string;
  rewardShare: number;
  maxNominators: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
  /** keyed by raw workchain-0 address */
  nominators: Map<string, Nominator>;
  stakeAt: number;
}

const NOMINATOR_VALUE = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: (s: Slice) => ({ amount: s.loadCoins(), pending: s.loadCoins() }),
};

/** A withdraw request is the key alone: the value is empty (a set, as the standard pool writes it). */
const PRESENCE = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: () => true,
};

/** NominatorPoolStorage (nominator-pool.fc `load_data`), with its PoolConfig ref. */
function parsePoolData(data: Cell): PoolData {
  const s = data.beginParse();
  const state = s.loadUint(8);
  const nominatorsCount = s.loadUint(16);
  const stakeAmountSent = s.loadCoins();
  const validatorAmount = s.loadCoins();
  const config = s.loadRef().beginParse();
  const nominatorsDict = s.loadDict(Dictionary.Keys.BigUint(256), NOMINATOR_VALUE);
  const withdrawals = s.loadDict(Dictionary.Keys.BigUint(256), PRESENCE);
  const stakeAt = s.loadUint(32);
  const validator = `-1:${hex256(config.loadUintBig(256))}`;
  const rewardShare = config.loadUint(16);
  const maxNominators = config.loadUint(16);
  const minValidatorStake = config.loadCoins();
  const minNominatorStake = config.loadCoins();
  const nominators = new Map<string, Nominator>();
  for (const [key, v] of nominatorsDict) nominators.set(`0:${hex256(key)}`, { ...v, withdrawRequested: withdrawals.has(key) });
  return {
    state,
    nominatorsCount,
    stakeAmountSent,
    validatorAmount,
    validator,
    rewardShare,
    maxNominators,
    minValidatorStake,
    minNominatorStake,
    nominators,
    stakeAt,
  };
}

/** The pool data of a state running the standard pool code; null for anything else. */
function poolOf(sa: ShardAccount | undefined): PoolData | null {
  const code = codeOf(sa?.account);
  const st = sa?.account?.storage.state;
  if (!code || st?.type !== 'active' || !st.state.data) return null;
  if (!NOMINATOR_POOL_CODE_HASHES.has(code.hash().toString('hex').toUpperCase())) return null;
  try {
    return parsePoolData(st.state.data);
  } catch {
    return null;
  }
}

const ZERO: Nominator = { amount: 0n, pending: 0n, withdrawRequested: false };

interface TxEvents {
  nominators: NominatorPoolEvent[];
  validator: NominatorPoolValidatorEvent | null;
}

const NO_EVENTS: TxEvents = { nominators: [], validator: null };

/** The pool's validator ops whose change of the validator's amount is an event (pool.fc): 4 deposit, 5 withdrawal. */
const VALIDATOR_OPS: Record<number, 'deposit' | 'withdrawal'> = { 4: 'deposit', 5: 'withdrawal' };

/** Whether the transaction took the elector's recover_stake_ok: a pool's reward (or penalty) and its deposits' activation. */
function recoveredStake(rec: TxRecord, elector: string | undefined): boolean {
  const m = rec.tx.inMessage;
  if (!m || m.info.type !== 'internal' || rawUpper(m.info.src) !== elector) return false;
  const body = m.body.beginParse();
  if (body.remainingBits < 32 || body.loadUint(32) !== OP_RECOVER_STAKE_OK) return false;
  const d = rec.tx.description;
  return d.type === 'generic' && !d.aborted && d.computePhase.type === 'vm' && d.computePhase.success;
}

/**
 * The accounting events of one pool transaction, as the reference's worker derives them (ton-indexer v1.3,
 * StakingEventProcessor.h): each nominator's (amount, pending deposit, withdraw request) before and after, in
 * address order. On recover_stake_ok the change of amount plus pending is the nominator's `reward` and a pending
 * deposit moved into the amount is its `pending_deposit_activation`; otherwise the change is a `deposit` or a
 * `withdrawal`, and a new withdraw request a `withdrawal_request`. The validator's amount changes by a `reward` or
 * `penalty` on recover_stake_ok, and by a `deposit` or `withdrawal` on its ops 4 and 5; any other change is no
 * event. A transaction that starts from no pool (the deploying one) has none.
 */
function eventsOf(pool: string, rec: TxRecord, states: { before?: ShardAccount; after: ShardAccount }, elector: string | undefined): TxEvents {
  const b = poolOf(states.before);
  const a = poolOf(states.after);
  if (!a || !b) return NO_EVENTS;
  const inBody = rec.tx.inMessage?.body.beginParse();
  const op = inBody && inBody.remainingBits >= 32 ? inBody.loadUint(32) : undefined;
  const queryId = inBody && inBody.remainingBits >= 64 ? inBody.loadUintBig(64) : undefined;
  const isReward = recoveredStake(rec, elector);
  const tx = { tx_hash: b64(Buffer.from(rec.hash, 'hex')), tx_lt: rec.lt.toString(), utime: rec.now, pool_address: pool };
  const nominators: NominatorPoolEvent[] = [];
  const push = (key: string, type: NominatorEventType, amount: bigint, dAmount: bigint, dPending: bigint, x: Nominator, y: Nominator) =>
    nominators.push({
      ...tx,
      nominator_address: key,
      type,
      amount: amount.toString(),
      balance_delta: dAmount.toString(),
      pending_balance_delta: dPending.toString(),
      balance_before: x.amount.toString(),
      balance_after: y.amount.toString(),
      pending_balance_before: x.pending.toString(),
      pending_balance_after: y.pending.toString(),
      withdraw_request_before: x.withdrawRequested,
      withdraw_request_after: y.withdrawRequested,
    });
  const keys = new Set([...b.nominators.keys(), ...a.nominators.keys()]);
  for (const key of [...keys].sort()) {
    const x = b.nominators.get(key) ?? ZERO;
    const y = a.nominators.get(key) ?? ZERO;
    const dAmount = y.amount - x.amount;
    const dPending = y.pending - x.pending;
    const total = dAmount + dPending;
    if (isReward) {
      const rewarded = { ...x, amount: x.amount + total };
      if (total !== 0n) push(key, 'reward', total, total, 0n, x, rewarded);
      if (dPending < 0n) push(key, 'pending_deposit_activation', -dPending, -dPending, dPending, rewarded, y);
      continue;
    }
    if (total > 0n) push(key, 'deposit', total, dAmount, dPending, x, y);
    else if (total < 0n) push(key, 'withdrawal', -total, dAmount, dPending, x, y);
    if (!x.withdrawRequested && y.withdrawRequested) push(key, 'withdrawal_request', 0n, 0n, 0n, x, y);
  }
  const delta = a.validatorAmount - b.validatorAmount;
  const type = isReward ? (delta > 0n ? 'reward' : 'penalty') : op !== undefined ? VALIDATOR_OPS[op] : undefined;
  const validator: NominatorPoolValidatorEvent | null =
    delta === 0n || !type
      ? null
      : {
          ...tx,
          validator_address: b.validator,
          type,
          amount: (delta < 0n ? -delta : delta).toString(),
          balance_delta: delta.toString(),
          balance_before: b.validatorAmount.toString(),
          balance_after: a.validatorAmount.toString(),
          ...(queryId !== undefined ? { query_id: queryId.toString() } : {}),
          ...(isReward && b.stakeAt !== 0 ? { cycle_start: b.stakeAt } : {}),
          validator_reward_share: b.rewardShare,
        };
  return { nominators, validator };
}

const window = (p: StakingWindow) => ({
  ...(p.startUtime !== undefined ? { start_utime: p.startUtime } : {}),
  ...(p.endUtime !== undefined ? { end_utime: p.endUtime } : {}),
});

const inWindow = (utime: number, p: StakingWindow): boolean =>
  (p.startUtime === undefined || utime >= p.startUtime) && (p.endUtime === undefined || utime <= p.endUtime);

/** Newest first: utime, then lt, then the event's place within its transaction. */
function newestFirst<E extends { utime: number; tx_lt: string }>(list: E[]): E[] {
  const indexed = list.map((e, i) => ({ e, i }));
  indexed.sort(orderBy<{ e: E; i: number }>([(x) => x.e.utime, 'desc'], [(x) => BigInt(x.e.tx_lt), 'desc'], [(x) => x.i, 'desc']));
  return indexed.map((x) => x.e);
}

const sum = (values: string[]): string => values.reduce((t, v) => t + BigInt(v), 0n).toString();

export function localStaking(ctx: LocalV3Context): StakingApi {
  /** The pool accounts as of the last sealed masterchain block, found once per block. */
  let pools: { at: number; list: { raw: string; data: PoolData }[] } | undefined;
  const allPools = () => {
    const at = ctx.store.lastMc.seqno;
    if (pools?.at !== at) {
      const list: { raw: string; data: PoolData }[] = [];
      for (const key of ctx.store.accounts()) {
        const address = Address.parseRaw(key);
        const data = poolOf(ctx.store.accountState(address, at)?.shardAccount);
        if (data) list.push({ raw: rawUpper(address), data });
      }
      pools = { at, list: list.sort(orderBy([(x) => x.raw, 'asc'])) };
    }
    return pools.list;
  };
  const poolAt = (a: Address) => allPools().find((x) => x.raw === rawUpper(a));
  /** Every accounting event of the pool (none when the address is not a pool). */
  const poolEvents = async (pool: Address): Promise<TxEvents[]> => {
    if (!poolAt(pool)) return [];
    const elector = await electorAddress(ctx);
    const raw = rawUpper(pool);
    return ctx.store.accountTransactions(pool).map((rec) => eventsOf(raw, rec, ctx.store.statesAround(rec), elector && rawUpper(elector)));
  };

  return {
    async nominatorPool(p: NominatorPoolParams): Promise<NominatorPoolInfo> {
      const pool = poolAt(p.pool);
      if (!pool) throw new ApiError(404, 'Pool not found');
      const d = pool.data;
      const active_nominators = [...d.nominators].map(([address, n]) => ({ address, balance: n.amount.toString(), pending_balance: n.pending.toString() }));
      return {
        stake_amount_sent: d.stakeAmountSent.toString(),
        validator_amount: d.validatorAmount.toString(),
        validator_address: d.validator,
        validator_reward_share: d.rewardShare,
        state: d.state,
        nominators_count: d.nominatorsCount,
        max_nominators_count: d.maxNominators,
        min_validator_stake: d.minValidatorStake.toString(),
        min_nominator_stake: d.minNominatorStake.toString(),
        active_nominators,
        address_book: ctx.book([pool.raw, d.validator, ...active_nominators.map((n) => n.address)], p),
      };
    },

    async nominatorPools(p: NominatorParams): Promise<NominatorPoolsResponse> {
      const me = rawUpper(p.nominator);
      const nominator_pools = allPools().flatMap(({ raw, data }) => {
        const n = data.nominators.get(me);
        return n ? [{ pool_address: raw, balance: n.amount.toString(), pending_balance: n.pending.toString() }] : [];
      });
      return { nominator_pools, address_book: ctx.book([me, ...nominator_pools.map((x) => x.pool_address)], p) };
    },

    async nominatorPoolEvents(p: NominatorEventsParams): Promise<NominatorPoolEventsResponse> {
      const who = p.nominator && rawUpper(p.nominator);
      const list = (await poolEvents(p.pool))
        .flatMap((t) => t.nominators)
        .filter((e) => (!who || e.nominator_address === who) && inWindow(e.utime, p));
      const events = pageOf(newestFirst(list), { limit: p.limit, offset: 0 });
      return { ...window(p), events, address_book: ctx.book([rawUpper(p.pool), ...events.map((e) => e.nominator_address)], p) };
    },

    async nominatorPoolRewards(p: NominatorRewardsParams): Promise<NominatorRewardsResponse> {
      const who = rawUpper(p.nominator);
      const list = (await poolEvents(p.pool))
        .flatMap((t) => t.nominators)
        .filter((e) => e.type === 'reward' && e.nominator_address === who && inWindow(e.utime, p));
      const rewards = pageOf(newestFirst(list), { limit: p.limit, offset: 0 }).map((e) => ({
        utime: e.utime,
        reward: e.amount,
        stake_before: e.balance_before,
        tx_hash: e.tx_hash,
        tx_lt: e.tx_lt,
      }));
      return { ...window(p), total_on_page: sum(rewards.map((r) => r.reward)), rewards, address_book: ctx.book([rawUpper(p.pool), who], p) };
    },

    async poolValidatorEvents(p: PoolValidatorEventsParams): Promise<NominatorPoolValidatorEventsResponse> {
      const validator = p.validator && rawUpper(p.validator);
      const sources = p.pool ? [p.pool] : allPools().map((x) => Address.parseRaw(x.raw));
      const list = (await Promise.all(sources.map(poolEvents)))
        .flatMap((events) => events.flatMap((t) => (t.validator ? [t.validator] : [])))
        .filter((e) => (!validator || e.validator_address === validator) && (p.type === undefined || e.type === p.type) && inWindow(e.utime, p));
      const events = pageOf(newestFirst(list), { limit: p.limit, offset: 0 });
      return { ...window(p), events, address_book: ctx.book(events.flatMap((e) => [e.pool_address, e.validator_address]), p) };
    },

    async poolValidatorRewards(p: PoolValidatorRewardsParams): Promise<NominatorPoolValidatorRewardsResponse> {
      const validator = rawUpper(p.validator);
      const list = (await poolEvents(p.pool))
        .flatMap((t) => (t.validator ? [t.validator] : []))
        .filter((e) => e.type === 'reward' && e.validator_address === validator && inWindow(e.utime, p));
      const rewards = pageOf(newestFirst(list), { limit: p.limit, offset: 0 }).map((e) => ({
        utime: e.utime,
        reward: e.amount,
        balance_before: e.balance_before,
        tx_hash: e.tx_hash,
        tx_lt: e.tx_lt,
        ...(e.cycle_start !== undefined ? { cycle_start: e.cycle_start } : {}),
        ...(e.query_id !== undefined ? { query_id: e.query_id } : {}),
      }));
      return { ...window(p), total_on_page: sum(rewards.map((r) => r.reward)), rewards, address_book: ctx.book([rawUpper(p.pool), validator], p) };
    },
  };
}
