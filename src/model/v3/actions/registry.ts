/**
 * The matchers, once, in the reference's order (restricted to the types classified here): a block is offered to
 * each matcher in turn, so an earlier one wins a block two could claim. Then the post-processing steps.
 */
import type { ActionType } from '../../../api/v3/action-details.js';
import type { Block, Matcher } from './block.js';
import { COCOON_MATCHERS } from './cocoon.js';
import { combineDedustDeposits, dedustDeposit, dedustDepositFirstAsset, dedustSwap, dedustWithdraw } from './dedust.js';
import { changeDns } from './dns.js';
import { COFFEE_MATCHERS } from './coffee.js';
import { combineDedustV2Deposits, DEDUST_V2_MATCHERS } from './dedust-v2.js';
import { JVAULT_MATCHERS } from './jvault.js';
import { LAYERZERO_MATCHERS } from './layerzero.js';
import { EVAA_MATCHERS } from './evaa.js';
import { ethenaDeposit, ethenaWithdrawalRequest } from './ethena.js';
import { jettonBurn, jettonMint, jettonTransfer } from './jetton.js';
import { getgemsNftPurchase, nftDiscovery, nftMint, nftTransfer } from './nft.js';
import { ELECTION_MATCHERS } from './elections.js';
import { MULTISIG_MATCHERS } from './multisig.js';
import { SUBSCRIPTION_MATCHERS } from './subscriptions.js';
import { ptonTransfer, stonfiV1Swap, stonfiV2Swap, stonfiV2ProvideLiquidity, stonfiV2WithdrawLiquidity } from './stonfi.js';
import { telegramNftPurchase } from './telegram.js';
import { TGBTC_MATCHERS } from './tgbtc.js';
import { TONCO_MATCHERS, toncoSwap } from './tonco.js';
import { tonstakersDelayedWithdrawal, tonstakersDeposit, tonstakersWithdraw } from './tonstakers.js';
import { VESTING_MATCHERS } from './vesting.js';

export const MATCHERS: readonly Matcher[] = [
  nftMint,
  tonstakersDelayedWithdrawal,
  dedustDeposit,
  dedustDepositFirstAsset,
  tonstakersDeposit,
  tonstakersWithdraw,
  jettonTransfer,
  ptonTransfer,
  dedustWithdraw,
  jettonBurn,
  dedustSwap,
  stonfiV1Swap,
  stonfiV2Swap,
  stonfiV2ProvideLiquidity,
  toncoSwap,
  nftTransfer,
  telegramNftPurchase,
  getgemsNftPurchase,
  nftDiscovery,
  changeDns,
  ethenaWithdrawalRequest,
  jettonMint,
  ethenaDeposit,
  stonfiV2WithdrawLiquidity,
  ...COCOON_MATCHERS,
  ...TGBTC_MATCHERS,
  ...VESTING_MATCHERS,
  ...JVAULT_MATCHERS,
  ...EVAA_MATCHERS,
  ...DEDUST_V2_MATCHERS,
  ...TONCO_MATCHERS,
  ...COFFEE_MATCHERS,
  ...LAYERZERO_MATCHERS,
  ...ELECTION_MATCHERS,
  ...SUBSCRIPTION_MATCHERS,
  ...MULTISIG_MATCHERS,
];

/** Steps over the matched blocks (in tree order) before they become actions. */
export const POST_PROCESSORS: readonly ((blocks: Block[]) => Block[])[] = [combineDedustDeposits, combineDedustV2Deposits];

/** Address-valued details keys of the basic blocks. */
const BASIC_ADDRESS_KEYS: Readonly<Partial<Record<ActionType, readonly string[]>>> = {
  ton_transfer: ['source', 'destination'],
  call_contract: ['source', 'destination'],
  contract_deploy: ['source', 'destination'],
  extra_currency_transfer: ['source', 'destination'],
  // a trace nothing classifies (classify.ts): its details name no address
  unknown: [],
};

/** Each action type's address keys, as its matcher declares them. */
export const ADDRESS_KEYS: ReadonlyMap<string, readonly string[]> = new Map(
  [BASIC_ADDRESS_KEYS, ...MATCHERS.map((m) => m.addressKeys)].flatMap((keys) => Object.entries(keys)),
);
