/**
 * The v3 1.2.6 data in the graph: an item's sale or auction (`NftItem.sale`, one /nft/sales call for every item
 * of a level), a nominator pool with its nominators (`Account.nominatorPool`) and the validator elections,
 * cycles and complaints (`Query.validators`).
 */
import { createContextCache } from '@pothos/core';
import { Address } from '@ton/core';
import DataLoader from 'dataloader';
import { V3_MAX_LIMIT } from '../../../api/v3/common.js';
import type { Shared } from '../../../api/shared-answers.js';
import type { GetgemsAuctionDetails, GetgemsSaleDetails, NftSale } from '../../../api/v3/nfts.js';
import type { ActiveNominatorInfo, NominatorPoolInfo } from '../../../api/v3/staking.js';
import type { ValidatorComplaint, ValidatorCycle, ValidatorCycleValidator, ValidatorElection, ValidatorElectionParticipant } from '../../../api/v3/validators.js';
import { ApiError } from '../../../api/errors.js';
import { builder, type GraphQLContext } from '../builder.js';
import { addressKey } from '../loaders.js';
import { AccountRef } from './account.js';
import { NftItemRef } from './tokens.js';

const account = (a: string | null | undefined) => (a ? { address: addressKey(a) } : null);

/** One /nft/sales call for every sale contract asked for on a level. */
const saleLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, NftSale | null>(
      async (keys) => {
        const { nft_sales } = await ctx.v3.nftSales({ address: keys.map((k) => Address.parseRaw(k)) });
        const byKey = new Map(nft_sales.map((s) => [addressKey(s.address), s]));
        return keys.map((k) => byKey.get(k) ?? null);
      },
      { maxBatchSize: V3_MAX_LIMIT },
    ),
);

const saleFields = <T extends NftSale>(t: any) => ({
  address: t.field({ type: 'Address', resolve: (s: T) => s.address }),
  account: t.field({ type: AccountRef, resolve: (s: T) => account(s.address)! }),
  item: t.field({ type: NftItemRef, nullable: true, resolve: (s: T) => s.nft_item ?? (s.nft_address ? addressKey(s.nft_address) : null) }),
  seller: t.field({ type: AccountRef, nullable: true, description: 'The item owner who listed it.', resolve: (s: T) => account(s.nft_owner_address) }),
  marketplace: t.field({ type: AccountRef, nullable: true, resolve: (s: T) => account(s.marketplace_address) }),
  createdAt: t.int({ nullable: true, resolve: (s: T) => s.created_at ?? null }),
  codeHash: t.field({ type: 'Hash', nullable: true, resolve: (s: T) => s.code_hash ?? null }),
});

const saleDetails = (s: NftSale) => s.details as GetgemsSaleDetails;
const auctionDetails = (s: NftSale) => s.details as GetgemsAuctionDetails;

export const NftSaleRef = builder.objectRef<Shared<NftSale>>('NftSale').implement({
  description: 'A GetGems fixed-price sale contract holding an item.',
  fields: (t) => ({
    ...saleFields(t),
    fullPrice: t.field({ type: 'BigInt', nullable: true, resolve: (s) => saleDetails(s).full_price ?? null }),
    marketplaceFee: t.field({ type: 'BigInt', nullable: true, resolve: (s) => saleDetails(s).marketplace_fee ?? null }),
    royaltyAmount: t.field({ type: 'BigInt', nullable: true, resolve: (s) => saleDetails(s).royalty_amount ?? null }),
    isComplete: t.boolean({ nullable: true, resolve: (s) => saleDetails(s).is_complete ?? null }),
  }),
});

export const NftAuctionRef = builder.objectRef<Shared<NftSale>>('NftAuction').implement({
  description: 'A GetGems auction contract holding an item.',
  fields: (t) => ({
    ...saleFields(t),
    endTime: t.int({ nullable: true, resolve: (s) => auctionDetails(s).end_time ?? null }),
    finished: t.boolean({ nullable: true, resolve: (s) => auctionDetails(s).end_flag ?? null }),
    canceled: t.boolean({ nullable: true, resolve: (s) => auctionDetails(s).is_canceled ?? null }),
    lastBid: t.field({ type: 'BigInt', nullable: true, resolve: (s) => auctionDetails(s).last_bid ?? null }),
    lastBidder: t.field({ type: AccountRef, nullable: true, resolve: (s) => account(auctionDetails(s).last_member) }),
    minBid: t.field({ type: 'BigInt', nullable: true, resolve: (s) => auctionDetails(s).min_bid ?? null }),
    maxBid: t.field({ type: 'BigInt', nullable: true, resolve: (s) => auctionDetails(s).max_bid ?? null }),
    minStep: t.field({ type: 'BigInt', nullable: true, resolve: (s) => auctionDetails(s).min_step ?? null }),
  }),
});

const NftListingRef = builder.unionType('NftListing', {
  types: [NftSaleRef, NftAuctionRef],
  resolveType: (s) => (s.type === 'getgems_auction' ? NftAuctionRef : NftSaleRef),
});

builder.objectField(NftItemRef, 'sale', (t) =>
  t.field({
    type: NftListingRef,
    nullable: true,
    description: 'The sale or auction contract holding this item, when it is on sale.',
    resolve: (i, _args, ctx) => {
      const contract = i.sale_contract_address ?? i.auction_contract_address;
      return contract ? saleLoader(ctx).load(addressKey(contract)) : null;
    },
  }),
);

// ---- nominator pools ----

const NominatorRef = builder.objectRef<Shared<ActiveNominatorInfo>>('PoolNominator').implement({
  fields: (t) => ({
    account: t.field({ type: AccountRef, resolve: (n) => account(n.address)! }),
    balance: t.field({ type: 'BigInt', resolve: (n) => n.balance }),
    pendingBalance: t.field({ type: 'BigInt', description: 'Deposits waiting for the next cycle.', resolve: (n) => n.pending_balance }),
  }),
});

type Pool = Shared<NominatorPoolInfo> & { address: string };

type Booking = { type: string; utime: number; amount: string; nominator: string; txHash: string };

const BookingRef = builder.objectRef<Booking>('PoolBooking').implement({
  description: "One change of a nominator's accounting in the pool: deposit, reward, withdrawal, …",
  fields: (t) => ({
    type: t.exposeString('type'),
    utime: t.exposeInt('utime'),
    amount: t.field({ type: 'BigInt', resolve: (b) => b.amount }),
    nominator: t.field({ type: AccountRef, resolve: (b) => account(b.nominator)! }),
    transactionHash: t.field({ type: 'Hash', resolve: (b) => b.txHash }),
  }),
});

/** A pool's events, asked once per pool and page size however often the pool appears on a level. */
const bookingsLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, Booking[]>((keys) =>
      Promise.all(
        keys.map(async (key) => {
          const [pool, first] = key.split('|') as [string, string];
          const { events } = await ctx.v3.nominatorPoolEvents({ pool: Address.parseRaw(pool), limit: Number(first), noAddressBook: true });
          return events.map((e) => ({ type: e.type, utime: e.utime, amount: e.amount, nominator: e.nominator_address, txHash: e.tx_hash }));
        }),
      ),
    ),
);

const NominatorPoolRef = builder.objectRef<Pool>('NominatorPool').implement({
  description: 'A standard TON nominator pool, read from its data.',
  fields: (t) => ({
    account: t.field({ type: AccountRef, resolve: (p) => account(p.address)! }),
    state: t.exposeInt('state'),
    validator: t.field({ type: AccountRef, resolve: (p) => account(p.validator_address)! }),
    validatorAmount: t.field({ type: 'BigInt', resolve: (p) => p.validator_amount }),
    validatorRewardShare: t.exposeInt('validator_reward_share', { description: 'In 1/10000 of the reward.' }),
    stakeAmountSent: t.field({ type: 'BigInt', resolve: (p) => p.stake_amount_sent }),
    nominatorsCount: t.exposeInt('nominators_count'),
    maxNominatorsCount: t.exposeInt('max_nominators_count'),
    minValidatorStake: t.field({ type: 'BigInt', resolve: (p) => p.min_validator_stake }),
    minNominatorStake: t.field({ type: 'BigInt', resolve: (p) => p.min_nominator_stake }),
    nominators: t.field({ type: [NominatorRef], resolve: (p) => p.active_nominators }),
    bookings: t.field({
      type: [BookingRef],
      description: 'Nominator accounting events, newest first.',
      args: { first: t.arg.int({ defaultValue: 100 }) },
      resolve: (p, args, ctx) => bookingsLoader(ctx).load(`${p.address}|${args.first ?? 100}`),
    }),
  }),
});

/** /pool takes one pool: the loader asks once per distinct pool of a level, all at once, and a non-pool is null. */
const poolLoader = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<string, Pool | null>((keys) =>
      Promise.all(
        keys.map(async (k) => {
          try {
            return { ...(await ctx.v3.nominatorPool({ pool: Address.parseRaw(k), noAddressBook: true })), address: k };
          } catch (e) {
            if (e instanceof ApiError && e.status === 404) return null;
            throw e;
          }
        }),
      ),
    ),
);

builder.objectField(AccountRef, 'nominatorPool', (t) =>
  t.field({
    type: NominatorPoolRef,
    nullable: true,
    description: 'The nominator pool this account runs, when it is one.',
    resolve: (a, _args, ctx) => poolLoader(ctx).load(addressKey(a.address)),
  }),
);

// ---- validators ----

const ComplaintRef = builder.objectRef<Shared<ValidatorComplaint>>('ValidatorComplaint').implement({
  fields: (t) => ({
    hash: t.exposeString('complaint_hash', { description: 'base64' }),
    electionId: t.exposeInt('election_id'),
    cycleStart: t.exposeInt('cycle_start'),
    validatorPubkey: t.exposeString('validator_pubkey'),
    createdAt: t.exposeInt('created_at'),
    severity: t.exposeInt('severity'),
    suggestedFine: t.field({ type: 'BigInt', resolve: (c) => c.suggested_fine }),
    approvedPercent: t.exposeFloat('approved_percent'),
    isPassed: t.exposeBoolean('is_passed'),
  }),
});

const ParticipantRef = builder.objectRef<Shared<ValidatorElectionParticipant>>('ElectionParticipant').implement({
  fields: (t) => ({
    validatorPubkey: t.exposeString('validator_pubkey'),
    adnlAddress: t.exposeString('adnl_addr'),
    stake: t.field({ type: 'BigInt', resolve: (p) => p.stake }),
    maxFactor: t.int({ nullable: true, description: 'Raw, 65536 = 1.0; null for a past election (its frozen stakes keep no factor).', resolve: (p) => p.max_factor ?? null }),
    stakeHolder: t.field({ type: AccountRef, resolve: (p) => account(p.stake_holder_address)! }),
  }),
});

const ElectionRef = builder.objectRef<Shared<ValidatorElection>>('ValidatorElection').implement({
  fields: (t) => ({
    electionId: t.exposeInt('election_id'),
    electClose: t.exposeInt('elect_close'),
    minStake: t.field({ type: 'BigInt', resolve: (e) => e.min_stake }),
    totalStake: t.field({ type: 'BigInt', resolve: (e) => e.total_stake }),
    totalParticipants: t.exposeInt('total_participants'),
    failed: t.exposeBoolean('failed'),
    finished: t.exposeBoolean('finished'),
    participants: t.field({ type: [ParticipantRef], resolve: (e) => e.participants ?? [] }),
  }),
});

const CycleValidatorRef = builder.objectRef<Shared<ValidatorCycleValidator>>('CycleValidator').implement({
  fields: (t) => ({
    index: t.exposeInt('validator_index'),
    pubkey: t.exposeString('validator_pubkey'),
    adnlAddress: t.exposeString('adnl_addr'),
    weight: t.field({ type: 'BigInt', resolve: (v) => v.weight }),
    stake: t.field({ type: 'BigInt', nullable: true, resolve: (v) => v.stake ?? null }),
    stakeHolder: t.field({ type: AccountRef, nullable: true, description: 'From the elector\'s past_elections, when its election is known.', resolve: (v) => (v.stake_holder_address ? account(v.stake_holder_address) : null) }),
  }),
});

const CycleRef = builder.objectRef<Shared<ValidatorCycle>>('ValidatorCycle').implement({
  fields: (t) => ({
    cycleStart: t.exposeInt('cycle_start'),
    cycleEnd: t.exposeInt('cycle_end'),
    electionId: t.int({ nullable: true, resolve: (c) => c.election_id ?? null }),
    total: t.exposeInt('total'),
    main: t.exposeInt('main'),
    totalWeight: t.field({ type: 'BigInt', resolve: (c) => c.total_weight }),
    totalStake: t.field({ type: 'BigInt', nullable: true, resolve: (c) => c.total_stake ?? null }),
    validators: t.field({ type: [CycleValidatorRef], resolve: (c) => c.validators ?? [] }),
  }),
});

const ValidatorsRef = builder.objectRef<object>('Validators').implement({
  description: 'Elections, cycles and complaints of the chain validators, newest first.',
  fields: (t) => ({
    elections: t.field({
      type: [ElectionRef],
      args: { first: t.arg.int({ defaultValue: 10 }) },
      resolve: async (_v, args, ctx) => (await ctx.v3.validatorElections({ limit: args.first ?? 10, returnParticipants: true })).elections,
    }),
    cycles: t.field({
      type: [CycleRef],
      args: { first: t.arg.int({ defaultValue: 10 }) },
      resolve: async (_v, args, ctx) => (await ctx.v3.validatorCycles({ limit: args.first ?? 10, returnValidators: true })).cycles,
    }),
    complaints: t.field({
      type: [ComplaintRef],
      args: { first: t.arg.int({ defaultValue: 10 }) },
      resolve: async (_v, args, ctx) => (await ctx.v3.validatorComplaints({ limit: args.first ?? 10 })).complaints,
    }),
  }),
});

builder.queryField('validators', (t) => t.field({ type: ValidatorsRef, resolve: () => ({}) }));
