/**
 * /api/v3 jettons over the local chain (v3.md §2.3): masters, wallets, transfers and burns, read from the
 * contract index (indexer/contracts.ts) with the reference's filters and orderings.
 */
import { ApiError } from '../../../api/errors.js';
import type { Sort } from '../../../api/v3/common.js';
import type {
  JettonBurnsParams,
  JettonBurnsResponse,
  JettonMastersParams,
  JettonMastersResponse,
  JettonsApi,
  JettonTransfersParams,
  JettonTransfersResponse,
  JettonWalletsParams,
  JettonWalletsResponse,
} from '../../../api/v3/jettons.js';
import type { JettonWalletState } from '../indexer/contract-state.js';
import type { LocalV3Context } from './v3-context.js';
import { eventWindow, orderBy, pageOf, rawSet, type Key } from './v3-order.js';
import { rawUpper } from '../../../model/address.js';
import { addrRaw, jettonBurnToV3, jettonTransferToV3, masterToV3, present, walletToV3 } from './v3-tokens-json.js';

export function localJettons(ctx: LocalV3Context): JettonsApi {
  return {
    async jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse> {
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.address);
      const admin = rawSet(p.adminAddress);
      const list = ctx.indexer.contracts
        .list('jetton_master')
        .filter((c) => (!address || address.has(c.raw)) && (!admin || (c.admin !== null && admin.has(c.admin))));
      const jetton_masters = pageOf(list, p).map(masterToV3);
      const addrs = jetton_masters.flatMap((m) => present(m.address, m.admin_address));
      return { jetton_masters, ...(await ctx.enrich(addrs, p)) };
    },

    async jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse> {
      if ((p.jettonAddress?.length ?? 0) > 1 && p.ownerAddress?.length !== 1) {
        throw new ApiError(422, 'exact one owner_address required for multiple jetton_address');
      }
      await ctx.indexer.contracts.sync();
      const address = rawSet(p.address);
      const owner = rawSet(p.ownerAddress);
      const jetton = rawSet(p.jettonAddress);
      const list = ctx.indexer.contracts
        .list('jetton_wallet')
        .filter(
          (c) =>
            (!address || address.has(c.raw)) &&
            (!owner || owner.has(c.owner)) &&
            (!jetton || jetton.has(c.jetton)) &&
            (!p.excludeZeroBalance || c.balance > 0n),
        );
      // crud_jettons.go: sort switches the column to balance; later filters override the ORDER BY
      const s: Sort = p.sort ?? 'asc';
      const col: Key<JettonWalletState> = p.sort ? (c) => c.balance : (c) => c.id;
      let order = orderBy<JettonWalletState>([col, s]);
      if (address) order = orderBy<JettonWalletState>([(c) => c.raw, 'asc']);
      if (owner) order = orderBy<JettonWalletState>([(c) => c.owner, 'asc'], [col, s]);
      if (p.jettonAddress?.length === 1) order = orderBy<JettonWalletState>([(c) => c.jetton, 'asc'], [col, s]);
      const jetton_wallets = pageOf(list.sort(order), p).map(walletToV3);
      const addrs = jetton_wallets.flatMap((w) => [w.address, w.owner, w.jetton]);
      return { jetton_wallets, ...(await ctx.enrich(addrs, p)) };
    },

    async jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse> {
      await ctx.indexer.contracts.sync();
      const owner = rawSet(p.ownerAddress);
      const wallet = rawSet(p.jettonWallet);
      const master = p.jettonMaster && rawUpper(p.jettonMaster);
      const filtered = ctx.indexer.contracts.tokens.jettonTransfers.filter((e) => {
        // crud_jettons.go: always `tx_aborted is false`
        if (e.aborted) return false;
        const dest = addrRaw(e.body.destination);
        if (owner) {
          const inbound = dest !== null && owner.has(dest);
          const outbound = owner.has(e.sender);
          if (p.direction === 'in' ? !inbound : p.direction === 'out' ? !outbound : !inbound && !outbound) return false;
        }
        return (!wallet || wallet.has(e.wallet)) && (!master || e.master === master);
      });
      const jetton_transfers = pageOf(eventWindow(filtered, p), p).map(jettonTransferToV3);
      const addrs = jetton_transfers.flatMap((t) => present(t.source, t.destination, t.source_wallet, t.jetton_master, t.response_destination));
      return { jetton_transfers, ...(await ctx.enrich(addrs, p)) };
    },

    async jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse> {
      await ctx.indexer.contracts.sync();
      const owner = rawSet(p.ownerAddress);
      const wallet = rawSet(p.jettonWallet);
      const master = p.jettonMaster && rawUpper(p.jettonMaster);
      const filtered = ctx.indexer.contracts.tokens.jettonBurns.filter(
        (e) => (!owner || owner.has(e.sender)) && (!wallet || wallet.has(e.wallet)) && (!master || e.master === master),
      );
      const jetton_burns = pageOf(eventWindow(filtered, p), p).map(jettonBurnToV3);
      const addrs = jetton_burns.flatMap((b) => present(b.owner, b.jetton_wallet, b.jetton_master, b.response_destination));
      return { jetton_burns, ...(await ctx.enrich(addrs, p)) };
    },
  };
}
