/**
 * /api/v3/vesting over the local chain (v3.md §2.5): vesting contracts found in the contract index
 * (indexer/contracts.ts) by contract or wallet; none when the chain holds no vesting contracts.
 */
import { ApiError } from '../../../api/errors.js';
import type { VestingApi, VestingContractsResponse, VestingInfo, VestingParams } from '../../../api/v3/vesting.js';
import type { VestingState } from '../indexer/contract-state.js';
import type { LocalV3Context } from './v3-context.js';
import { pageOf, rawSet } from './v3-order.js';
import { present } from './v3-tokens-json.js';

export function localVesting(ctx: LocalV3Context): VestingApi {
  return {
    async vestingContracts(p: VestingParams): Promise<VestingContractsResponse> {
      if (!p.contractAddress?.length && !p.walletAddress?.length) {
        throw new ApiError(422, 'at least one of contract_address or wallet_address is required');
      }
      if (p.contractAddress?.length && p.walletAddress?.length) {
        throw new ApiError(422, 'only one of contract_address or wallet_address should be specified');
      }
      await ctx.indexer.contracts.sync();
      const contract = rawSet(p.contractAddress);
      const wallet = rawSet(p.walletAddress);
      const matchesWallet = (v: VestingState): boolean =>
        !wallet ||
        (v.owner !== null && wallet.has(v.owner)) ||
        (v.sender !== null && wallet.has(v.sender)) ||
        (p.checkWhitelist === true && v.whitelist.some((a) => wallet.has(a)));
      const list = ctx.indexer.contracts.list('vesting').filter((v) => (!contract || contract.has(v.raw)) && matchesWallet(v));
      const vesting_contracts = pageOf(list, p).map(vestingToV3);
      const addrs = vesting_contracts.flatMap((v) => present(v.address, v.owner_address, v.sender_address, ...v.whitelist));
      return { vesting_contracts, address_book: ctx.book(addrs, p) };
    },
  };
}

function vestingToV3(v: VestingState): VestingInfo {
  return {
    address: v.raw,
    start_time: v.startTime,
    total_duration: v.totalDuration,
    unlock_period: v.unlockPeriod,
    cliff_duration: v.cliffDuration,
    sender_address: v.sender,
    owner_address: v.owner,
    total_amount: v.totalAmount.toString(),
    whitelist: v.whitelist,
  };
}
