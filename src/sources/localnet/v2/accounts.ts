/** v2 account endpoints over the local chain (v2.md §3.2): states, wallets, balances and token data, as of a masterchain block. */
import { Address, beginCell, type TupleItem } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { friendly } from '../../../model/address.js';
import { DnsResolveError, prepareDomain, resolveDns, rootResolver } from '../../../model/dns-resolve.js';
import { bocB64, extraCurrencies } from '../../../model/message.js';
import { parseTokenContent } from '../../../model/tlb/token-content.js';
import { detectWallet } from '../../../model/wallet.js';
import { blockIdExt } from '../chain/blocks.js';
import { StackReader } from '../tokens.js';
import type { LocalV2Context } from './v2-context.js';

export function localAccounts(ctx: LocalV2Context): v2.AccountsApi {
  /** getTokenData's check that the master (collection) computes this address for the wallet (item); texts as in v2.md §3.2. */
  async function verifyToken(parent: Address, method: string, stack: TupleItem[], expected: Address, what: 'master' | 'collection', seqno?: number): Promise<void> {
    const r = await ctx.runGet(parent, method, stack, seqno);
    if (r.exitCode !== 0) throw new ApiError(409, `Verification exit code ${r.exitCode} != 0`);
    const computed = r.stack[0]?.type === 'slice' || r.stack[0]?.type === 'cell' ? new StackReader(r.stack).address() : null;
    if (!computed || !computed.equals(expected)) throw new ApiError(409, `Verification on ${what} failed`);
  }

  return {
    async getAddressInformation(p: v2.AddressParams): Promise<v2.FullAccountState> {
      const a = ctx.account(p.address, p.seqno);
      return {
        '@type': 'raw.fullAccountState',
        balance: a.balance.toString(),
        extra_currencies: extraCurrencies(a.sa?.account?.storage.balance.other),
        code: a.code ? bocB64(a.code) : '',
        data: a.data ? bocB64(a.data) : '',
        last_transaction_id: a.lastTx,
        block_id: blockIdExt(a.mc),
        frozen_hash: a.frozenHash,
        sync_utime: a.mc.genUtime,
        state: a.state,
        suspended: false,
      };
    },

    async getExtendedAddressInformation(p: v2.AddressParams): Promise<v2.ExtendedAddressInformation> {
      const a = ctx.account(p.address, p.seqno);
      const w = detectWallet(a.code, a.data);
      let account_state: v2.ExtendedAccountState;
      let revision = 0;
      if (!a.code) {
        account_state = { '@type': 'uninited.accountState', frozen_hash: a.frozenHash };
      } else if (w && w.walletId !== undefined && /^wallet v[34] r[12]$/.test(w.type)) {
        // tonlib has typed states for v3 and v4 only; everything else (v5 included) stays raw
        account_state = {
          '@type': w.type.startsWith('wallet v3') ? 'wallet.v3.accountState' : 'wallet.v4.accountState',
          wallet_id: String(w.walletId >>> 0),
          seqno: w.seqno,
        };
        revision = Number(w.type.slice(-1));
      } else {
        account_state = { '@type': 'raw.accountState', code: bocB64(a.code), data: a.data ? bocB64(a.data) : '', frozen_hash: '' };
      }
      return {
        '@type': 'fullAccountState',
        address: { '@type': 'accountAddress', account_address: friendly(p.address) },
        balance: a.balance.toString(),
        extra_currencies: extraCurrencies(a.sa?.account?.storage.balance.other),
        last_transaction_id: a.lastTx,
        block_id: blockIdExt(a.mc),
        sync_utime: a.mc.genUtime,
        account_state,
        revision,
      };
    },

    async getWalletInformation(p: v2.AddressParams): Promise<v2.WalletInformation> {
      const a = ctx.account(p.address, p.seqno);
      const w = a.state === 'active' ? detectWallet(a.code, a.data) : null;
      return {
        '@type': 'ext.accounts.walletInformation',
        wallet: w !== null,
        balance: a.balance.toString(),
        account_state: a.state,
        last_transaction_id: a.lastTx,
        ...(w
          ? {
              wallet_type: w.type,
              seqno: w.seqno,
              ...(w.walletId !== undefined ? { wallet_id: w.walletId } : {}),
              ...(w.isSignatureAllowed !== undefined ? { is_signature_allowed: w.isSignatureAllowed } : {}),
            }
          : {}),
      };
    },

    async getAddressBalance(p: v2.AddressParams): Promise<string> {
      // the balance alone, without the hashes and state the whole account view builds
      const balance = ctx.store.accountState(p.address, ctx.mcAt(p.seqno).seqno)?.shardAccount?.account?.storage.balance.coins ?? 0n;
      return (balance < 0n ? 0n : balance).toString();
    },

    async getAddressState(p: v2.AddressParams): Promise<v2.AccountStateName> {
      return ctx.account(p.address, p.seqno).state;
    },

    async dnsResolve(p: v2.DnsResolveParams): Promise<v2.DnsResolved> {
      // the root and every resolver read at one masterchain block: the one asked for, or the current one
      const seqno = ctx.mcAt(p.seqno).seqno;
      try {
        const name = prepareDomain(p.domain, p.resolverAddress !== undefined);
        const start = p.resolverAddress ?? rootResolver(ctx.chain.configParam(4));
        return await resolveDns(name, start, (resolver, args) => ctx.runGet(resolver, 'dnsresolve', args, seqno));
      } catch (e) {
        if (e instanceof DnsResolveError) throw new ApiError(e.status, e.message);
        throw e;
      }
    },

    async getTokenData(p: v2.AddressParams): Promise<v2.TokenData> {
      const address = friendly(p.address);
      for (const method of ['get_jetton_data', 'get_wallet_data', 'get_collection_data', 'get_nft_data'] as const) {
        const r = await ctx.runGet(p.address, method, [], p.seqno);
        if (r.exitCode !== 0) continue;
        const s = new StackReader(r.stack);
        const opt = (a: Address | null) => (a ? friendly(a) : undefined);
        try {
          switch (method) {
            case 'get_jetton_data': {
              s.need(5);
              const total_supply = s.int().toString();
              const mintable = s.int() !== 0n;
              const admin = opt(s.address());
              const jetton_content = parseTokenContent(s.cell());
              return {
                '@type': 'ext.tokens.jettonMasterData',
                contract_type: 'jetton_master',
                address,
                total_supply,
                mintable,
                ...(admin ? { admin_address: admin } : {}),
                jetton_content,
                jetton_wallet_code: bocB64(s.cell()),
              };
            }
            case 'get_wallet_data': {
              s.need(4);
              const balance = s.int().toString();
              const ownerAddress = s.address();
              const master = s.address();
              const owner = opt(ownerAddress) ?? '';
              const jetton = opt(master) ?? '';
              if (master && ownerAddress) {
                const arg = beginCell().storeAddress(ownerAddress).endCell();
                await verifyToken(master, 'get_wallet_address', [{ type: 'slice', cell: arg }], p.address, 'master', p.seqno);
              }
              return {
                '@type': 'ext.tokens.jettonWalletData',
                contract_type: 'jetton_wallet',
                address,
                balance,
                owner,
                jetton,
                jetton_wallet_code: bocB64(s.cell()),
              };
            }
            case 'get_collection_data': {
              s.need(3);
              const next_item_index = s.int().toString();
              const collection_content = parseTokenContent(s.cell());
              const owner = opt(s.address());
              return {
                '@type': 'ext.tokens.nftCollectionData',
                contract_type: 'nft_collection',
                address,
                next_item_index,
                ...(owner ? { owner_address: owner } : {}),
                collection_content,
              };
            }
            case 'get_nft_data': {
              s.need(5);
              const init = s.int() !== 0n;
              const index = s.int();
              const collection = s.address();
              const owner = opt(s.address());
              const individual = s.cell();
              let content: v2.TokenContent | Record<string, unknown> = {};
              if (collection) {
                await verifyToken(collection, 'get_nft_address_by_index', [{ type: 'int', value: index }], p.address, 'collection', p.seqno);
                const c = await ctx.runGet(collection, 'get_nft_content', [{ type: 'int', value: index }, { type: 'cell', cell: individual }], p.seqno);
                if (c.exitCode === 0) content = parseTokenContent(new StackReader(c.stack).cell());
              } else {
                content = parseTokenContent(individual);
              }
              return {
                '@type': 'ext.tokens.nftItemData',
                contract_type: 'nft_item',
                address,
                init,
                index: index.toString(),
                ...(collection ? { collection_address: friendly(collection) } : {}),
                ...(owner ? { owner_address: owner } : {}),
                content,
              };
            }
          }
        } catch (e) {
          if (e instanceof ApiError) throw e;
          throw new ApiError(500, (e as Error).message);
        }
      }
      throw new ApiError(409, `Smart contract ${address} is not Jetton or NFT`);
    },
  };
}
