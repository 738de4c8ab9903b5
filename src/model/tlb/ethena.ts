/**
 * Ethena staking on TON (USDe → tsUSDe), as the reference classifier reads it.
 *
 * Deposit: the user's USDe jetton transfer to the staking pool, which mints tsUSDe to the user (a jetton_mint).
 * Withdrawal request: the user's tsUSDe wallet sends its internal transfer straight to the tsUSDe master, which
 * notifies the pool; the pool mints (mint#642b7d07) and the USDe arrives locked:
 *   timelocked_transfer#b2583ed5 query_id:uint64 amount:Coins ... = InternalMsgBody;
 *     (laid out as internal_transfer#178d4519 after the opcode: the USDe amount follows the query id)
 */
import type { Cell } from '@ton/core';

/** The USDe and tsUSDe jetton masters (raw), from the reference classifier's Ethena matcher. */
export const ETHENA_USDE = '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC';
export const ETHENA_TSUSDE = '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D';

export const ETHENA_OP = { timelockedTransfer: 0xb2583ed5 } as const;

/** timelocked_transfer: the amount of USDe locked for the user. */
export function loadTimelockedAmount(body: Cell): bigint {
  const s = body.beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}
