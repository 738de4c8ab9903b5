/**
 * v3 validators (v3-more-routes.md §4, `/validators/*`, toncenter v1.3): elector stake events, elections (the
 * elector's participant_list_extended / past_elections), cycles (config params 32/34/36 with 15, 16, 17) and
 * complaints (list_complaints). Default limit 10; `offset` and `sort` are accepted though the OpenAPI omits them.
 */
import type { Address } from '@ton/core';
import { NO_CACHE, TTL_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import type { AddressBook, PageParams, SortParams, UtimeWindow, V3Options } from './common.js';
import { address, bool, checkWindow, int32, limitParam, pageParams, sortParam, text, utimeParams, v3Route } from './params.js';
import type { UtimeEcho } from './staking.js';

export interface ValidatorEvent {
  tx_hash: string;
  tx_lt: string;
  utime: number;
  /** stake_accepted | stake_rejected | stake_recovered, and recover_requested | recover_failed (stored too) */
  type: string;
  stake_holder_address: string;
  /** uppercase hex */
  validator_pubkey?: string;
  adnl_addr?: string;
  election_id?: number;
  query_id?: string;
  amount: string;
  reason?: number;
}

export interface ValidatorEventsResponse extends UtimeEcho {
  events: ValidatorEvent[];
  address_book: AddressBook;
}

export interface ValidatorElectionParticipant {
  validator_pubkey: string;
  validator_index?: number;
  stake: string;
  /** the raw declared factor (65536 = 1.0); absent for a past election, whose frozen stakes keep none */
  max_factor?: number;
  stake_holder_address: string;
  adnl_addr: string;
}

export interface ValidatorElection {
  election_id: number;
  elect_close: number;
  min_stake: string;
  total_stake: string;
  total_participants: number;
  failed: boolean;
  finished: boolean;
  participants?: ValidatorElectionParticipant[];
}

export interface ValidatorElectionsResponse {
  elections: ValidatorElection[];
  address_book: AddressBook;
}

export interface ValidatorComplaintVote {
  validator_index: number;
  validator_pubkey?: string;
  adnl_addr?: string;
  weight?: string;
}

export interface ValidatorComplaint {
  cycle_start: number;
  election_id: number;
  /** base64 */
  complaint_hash: string;
  validator_pubkey: string;
  adnl_addr: string | null;
  stake_holder_address?: string;
  description_boc: string;
  created_at: number;
  severity: number;
  reward_address: string;
  paid: string;
  suggested_fine: string;
  suggested_fine_part: number;
  voted_validators: ValidatorComplaintVote[];
  /** base64 */
  vset_id: string;
  weight_remaining: string;
  /** @fractional */
  approved_percent: number;
  is_passed: boolean;
}

export interface ValidatorComplaintsResponse {
  complaints: ValidatorComplaint[];
  address_book: AddressBook;
}

export interface ValidatorCycleValidator {
  validator_index: number;
  validator_pubkey: string;
  adnl_addr: string;
  weight: string;
  stake_holder_address?: string;
  stake?: string;
  /** the raw declared factor (65536 = 1.0) */
  max_factor?: number;
  complaints: ValidatorComplaint[];
}

export interface ValidatorCycle {
  election_id?: number;
  cycle_start: number;
  cycle_end: number;
  total: number;
  main: number;
  total_weight: string;
  total_stake?: string;
  validators_elected_for: number;
  elections_start_before: number;
  elections_end_before: number;
  stake_held_for: number;
  max_validators: number;
  max_main_validators: number;
  min_validators: number;
  min_stake?: string;
  max_stake?: string;
  min_stake_limit: string;
  max_stake_limit: string;
  min_total_stake: string;
  max_stake_factor: number;
  validators?: ValidatorCycleValidator[];
}

export interface ValidatorCyclesResponse {
  cycles: ValidatorCycle[];
  address_book: AddressBook;
}

/** The participant filters shared by all four routes; stake_holder_address and adnl_address exclude each other. */
export interface ValidatorFilter {
  stakeHolderAddress?: Address;
  /** uppercase hex */
  adnlAddress?: string;
  /** uppercase hex */
  validatorPubkey?: string;
}

export interface ValidatorEventsParams extends ValidatorFilter, UtimeWindow, PageParams, SortParams, V3Options {
  type?: string;
}

export interface ValidatorElectionsParams extends ValidatorFilter, UtimeWindow, PageParams, SortParams, V3Options {
  electionId?: number;
  returnParticipants?: boolean;
  finished?: boolean;
}

export interface ValidatorCyclesParams extends ValidatorFilter, UtimeWindow, PageParams, SortParams, V3Options {
  cycleStart?: number;
  electionId?: number;
  returnValidators?: boolean;
}

export interface ValidatorComplaintsParams extends ValidatorFilter, UtimeWindow, PageParams, SortParams, V3Options {
  cycleStart?: number;
  electionId?: number;
}

/** What a source answers for these routes. */
export interface ValidatorsApi {
  validatorEvents(p: ValidatorEventsParams): Promise<ValidatorEventsResponse>;
  validatorElections(p: ValidatorElectionsParams): Promise<ValidatorElectionsResponse>;
  validatorCycles(p: ValidatorCyclesParams): Promise<ValidatorCyclesResponse>;
  validatorComplaints(p: ValidatorComplaintsParams): Promise<ValidatorComplaintsResponse>;
}

export const VALIDATORS_DEFAULT_LIMIT = 10;
/** The cap on `limit` when participants or validators are embedded. */
export const VALIDATORS_EMBED_LIMIT = 100;

/** A 32-byte value in hex, base64 or base64url, as uppercase hex; anything else is undefined. */
export function parseKey32(raw: string): string | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return raw.toUpperCase();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) return undefined;
  const buf = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return buf.length === 32 ? buf.toString('hex').toUpperCase() : undefined;
}

const key32 = (name: string) =>
  text({
    check: (raw?: string) => {
      if (raw === undefined) return undefined;
      const v = parseKey32(raw);
      if (v === undefined) throw new ApiError(422, `${name} must be a 32-byte value in hex, base64 or base64url format`);
      return v;
    },
  });

const filterParams = {
  stake_holder_address: address(),
  adnl_address: key32('adnl_address'),
  validator_pubkey: key32('validator_pubkey'),
};

const paging = { ...pageParams, ...limitParam(VALIDATORS_DEFAULT_LIMIT), ...sortParam };

function checkFilter(p: ValidatorFilter & UtimeWindow): void {
  if (p.stakeHolderAddress && p.adnlAddress) throw new ApiError(422, 'provide either stake_holder_address or adnl_address, not both');
  checkWindow(p);
}

function checkEmbedded(embed: boolean | undefined, limit: number | undefined, what: string): void {
  if (embed && (limit ?? VALIDATORS_DEFAULT_LIMIT) > VALIDATORS_EMBED_LIMIT) {
    throw new ApiError(422, `limit must not exceed ${VALIDATORS_EMBED_LIMIT} when ${what} is true`);
  }
}

export const VALIDATOR_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/validators/events',
    summary: 'Validator stake and recover events',
    params: { ...filterParams, type: text(), ...utimeParams, ...paging },
    response: 'ValidatorEventsResponse',
    top: 'events',
    cache: NO_CACHE,
    api: 'validatorEvents',
    options: true,
    check: checkFilter,
  }),

  v3Route({
    methods: ['GET'],
    path: '/validators/elections',
    summary: 'Validator elections',
    params: {
      election_id: int32(),
      ...filterParams,
      return_participants: bool({ default: false }),
      finished: bool(),
      ...utimeParams,
      ...paging,
    },
    response: 'ValidatorElectionsResponse',
    top: 'elections',
    cache: TTL_CACHE,
    api: 'validatorElections',
    options: true,
    check: checkFilter,
    lateCheck: (p: ValidatorElectionsParams) => checkEmbedded(p.returnParticipants, p.limit, 'return_participants'),
  }),

  v3Route({
    methods: ['GET'],
    path: '/validators/cycles',
    summary: 'Validator cycles',
    params: {
      cycle_start: int32(),
      election_id: int32(),
      ...filterParams,
      return_validators: bool({ default: false }),
      ...utimeParams,
      ...paging,
    },
    response: 'ValidatorCyclesResponse',
    top: 'cycles',
    cache: TTL_CACHE,
    api: 'validatorCycles',
    options: true,
    check: checkFilter,
    lateCheck: (p: ValidatorCyclesParams) => checkEmbedded(p.returnValidators, p.limit, 'return_validators'),
  }),

  v3Route({
    methods: ['GET'],
    path: '/validators/complaints',
    summary: 'Validator complaints',
    params: { cycle_start: int32(), election_id: int32(), ...filterParams, ...utimeParams, ...paging },
    response: 'ValidatorComplaintsResponse',
    top: 'complaints',
    cache: TTL_CACHE,
    api: 'validatorComplaints',
    options: true,
    check: checkFilter,
  }),
];
