/**
 * v3 nominator pools (v3-more-routes.md §3, `/staking/nominatorPools/*`, toncenter v1.3): a pool's state read
 * from the standard nominator pool's data cell, a nominator's positions, and the per-nominator and validator
 * accounting events. These replace the retired smc-index Nominator Pools API.
 */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, V3Options } from './common.js';
import { address, checkWindow, limitParam, required, text, utimeParams as windowParams, v3Route } from './params.js';

export interface ActiveNominatorInfo {
  address: string;
  balance: string;
  pending_balance: string;
}

/** Top level, not wrapped (GetNominatorPool). */
export interface NominatorPoolInfo {
  stake_amount_sent: string;
  validator_amount: string;
  validator_address: string;
  validator_reward_share: number;
  state: number;
  nominators_count: number;
  max_nominators_count: number;
  min_validator_stake: string;
  min_nominator_stake: string;
  active_nominators: ActiveNominatorInfo[];
  address_book: AddressBook;
}

export interface NominatorPoolPosition {
  pool_address: string;
  balance: string;
  pending_balance: string;
}

export interface NominatorPoolsResponse {
  nominator_pools: NominatorPoolPosition[];
  address_book: AddressBook;
}

export type NominatorEventType = 'reward' | 'deposit' | 'withdrawal' | 'pending_deposit_activation' | 'withdrawal_request';

export interface NominatorPoolEvent {
  tx_hash: string;
  tx_lt: string;
  utime: number;
  pool_address: string;
  nominator_address: string;
  type: NominatorEventType;
  amount: string;
  balance_delta: string;
  pending_balance_delta: string;
  balance_before: string;
  balance_after: string;
  pending_balance_before: string;
  pending_balance_after: string;
  withdraw_request_before: boolean;
  withdraw_request_after: boolean;
}

/** start_utime / end_utime echo the request and are left out when not given. */
export interface UtimeEcho {
  start_utime?: number;
  end_utime?: number;
}

export interface NominatorPoolEventsResponse extends UtimeEcho {
  events: NominatorPoolEvent[];
  address_book: AddressBook;
}

export interface NominatorReward {
  utime: number;
  reward: string;
  stake_before: string;
  tx_hash: string;
  tx_lt: string;
}

export interface NominatorRewardsResponse extends UtimeEcho {
  /** the decimal sum of `reward` over the rows returned */
  total_on_page: string;
  rewards: NominatorReward[];
  address_book: AddressBook;
}

export type PoolValidatorEventType = 'reward' | 'penalty' | 'deposit' | 'withdrawal';

export interface NominatorPoolValidatorEvent {
  tx_hash: string;
  tx_lt: string;
  utime: number;
  pool_address: string;
  validator_address: string;
  type: PoolValidatorEventType;
  amount: string;
  balance_delta: string;
  balance_before: string;
  balance_after: string;
  query_id?: string;
  cycle_start?: number;
  validator_reward_share: number;
}

export interface NominatorPoolValidatorEventsResponse extends UtimeEcho {
  events: NominatorPoolValidatorEvent[];
  address_book: AddressBook;
}

export interface NominatorPoolValidatorReward {
  utime: number;
  reward: string;
  balance_before: string;
  tx_hash: string;
  tx_lt: string;
  cycle_start?: number;
  query_id?: string;
}

export interface NominatorPoolValidatorRewardsResponse extends UtimeEcho {
  total_on_page: string;
  rewards: NominatorPoolValidatorReward[];
  address_book: AddressBook;
}

export interface StakingWindow {
  startUtime?: number;
  endUtime?: number;
  /** resolved from the descriptor: default 100, 1..1000 (no offset on these routes) */
  limit: number;
}

export interface NominatorPoolParams extends V3Options {
  pool: Address;
}

export interface NominatorParams extends V3Options {
  nominator: Address;
}

export interface NominatorEventsParams extends StakingWindow, V3Options {
  pool: Address;
  nominator?: Address;
}

export interface NominatorRewardsParams extends StakingWindow, V3Options {
  pool: Address;
  nominator: Address;
}

/** At least one of validator and pool (checked by the surface). */
export interface PoolValidatorEventsParams extends StakingWindow, V3Options {
  validator?: Address;
  pool?: Address;
  /** not validated by the reference: any other value matches nothing */
  type?: string;
}

export interface PoolValidatorRewardsParams extends StakingWindow, V3Options {
  validator: Address;
  pool: Address;
}

/** What a source answers for these routes. */
export interface StakingApi {
  nominatorPool(p: NominatorPoolParams): Promise<NominatorPoolInfo>;
  nominatorPools(p: NominatorParams): Promise<NominatorPoolsResponse>;
  nominatorPoolEvents(p: NominatorEventsParams): Promise<NominatorPoolEventsResponse>;
  nominatorPoolRewards(p: NominatorRewardsParams): Promise<NominatorRewardsResponse>;
  poolValidatorEvents(p: PoolValidatorEventsParams): Promise<NominatorPoolValidatorEventsResponse>;
  poolValidatorRewards(p: PoolValidatorRewardsParams): Promise<NominatorPoolValidatorRewardsResponse>;
}


const PREFIX = '/staking/nominatorPools';

export const STAKING_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/pool`,
    summary: 'Nominator pool state',
    params: { pool: required(address(), 'pool parameter is required') },
    response: 'NominatorPoolInfo',
    cache: TTL_CACHE,
    api: 'nominatorPool',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/nominator`,
    summary: "A nominator's positions in nominator pools",
    params: { nominator: required(address(), 'nominator parameter is required') },
    response: 'NominatorPoolsResponse',
    top: 'nominator_pools',
    cache: TTL_CACHE,
    api: 'nominatorPools',
    options: true,
  }),

  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/nominatorEvents`,
    summary: 'Nominator accounting events of a nominator pool',
    params: { pool: required(address(), 'pool parameter is required'), nominator: address(), ...windowParams, ...limitParam() },
    response: 'NominatorPoolEventsResponse',
    top: 'events',
    cache: NO_CACHE,
    api: 'nominatorPoolEvents',
    options: true,
    check: checkWindow,
  }),

  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/nominatorRewards`,
    summary: "A nominator's rewards from a nominator pool",
    params: { nominator: address(), pool: address(), ...windowParams, ...limitParam() },
    response: 'NominatorRewardsResponse',
    top: 'rewards',
    cache: NO_CACHE,
    api: 'nominatorPoolRewards',
    options: true,
    check: (p: NominatorRewardsParams) => {
      if (!p.nominator || !p.pool) throw new ApiError(422, 'nominator and pool parameters are required');
      checkWindow(p);
    },
  }),

  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/validatorEvents`,
    summary: 'Validator accounting events of nominator pools',
    params: { validator: address(), pool: address(), type: text(), ...windowParams, ...limitParam() },
    response: 'NominatorPoolValidatorEventsResponse',
    top: 'events',
    cache: NO_CACHE,
    api: 'poolValidatorEvents',
    options: true,
    check: (p: PoolValidatorEventsParams) => {
      if (!p.validator && !p.pool) throw new ApiError(422, 'validator or pool parameter is required');
      checkWindow(p);
    },
  }),

  v3Route({
    methods: ['GET'],
    path: `${PREFIX}/validatorRewards`,
    summary: "A pool validator's rewards",
    params: { validator: address(), pool: address(), ...windowParams, ...limitParam() },
    response: 'NominatorPoolValidatorRewardsResponse',
    top: 'rewards',
    cache: NO_CACHE,
    api: 'poolValidatorRewards',
    options: true,
    check: (p: PoolValidatorRewardsParams) => {
      if (!p.validator || !p.pool) throw new ApiError(422, 'validator and pool parameters are required');
      checkWindow(p);
    },
  }),
];
