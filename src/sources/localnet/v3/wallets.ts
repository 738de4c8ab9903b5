/** /api/v3 wallet states over the local chain (v3.md §2.2), as of the last sealed masterchain block. */
import type { WalletsApi, WalletStatesParams, WalletStatesResponse } from '../../../api/v3/wallets.js';
import { walletStateToV3 } from '../../../model/v3/index.js';
import { suspendedAccounts, suspendedMember } from './v3-chain-reads.js';
import type { LocalV3Context } from './v3-context.js';

export function localWallets(ctx: LocalV3Context): WalletsApi {
  return {
    async walletStates(p: WalletStatesParams): Promise<WalletStatesResponse> {
      const suspended = await suspendedAccounts(ctx);
      const wallets = ctx.statesOf(p.address).map((s) => {
        const w = walletStateToV3(s);
        return { ...w, ...suspendedMember(suspended, w.address) };
      });
      const addrs = wallets.map((w) => w.address);
      return { wallets, address_book: ctx.book(addrs, p), metadata: await ctx.metadata(addrs, p) };
    },
  };
}
