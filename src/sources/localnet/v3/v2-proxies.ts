/**
 * The legacy v2 routes of /api/v3 over the local chain (v3.md §2.7): account and wallet information from the
 * v3 index or, with use_v2, from the chain's V2Api; sending, get-methods and fee estimates go through the V2Api,
 * as the reference proxies them to ton-http-api.
 */
import type { Shared } from '../../../api/shared-answers.js';
import { ApiError } from '../../../api/errors.js';
import type { StdStackEntry } from '../../../api/v2.js';
import type {
  LegacyAccountParams,
  V2AddressInformation,
  V2EstimateFeeResult,
  V2ProxiesApi,
  V2RunGetMethodResult,
  V2SendMessageResult,
  V2WalletInformation,
  V3EstimateFeeParams,
  V3RunGetMethodParams,
  V3StackEntry,
} from '../../../api/v3/v2-proxies.js';
import { rawUpper } from '../../../model/address.js';
import { bocB64 } from '../../../model/message.js';
import { hexNumber } from '../../../model/stack.js';
import { detectWallet } from '../../../model/wallet.js';
import { accountStatusOf, b64, codeOf, dataOf, ZERO_HASH_B64 } from '../../../model/v3/index.js';
import { suspendedAccounts, suspendedMember } from './v3-chain-reads.js';
import type { LocalV3Context } from './v3-context.js';

export function localV2Proxies(ctx: LocalV3Context): V2ProxiesApi {
  return {
    async addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation> {
      if (p.useV2) {
        const r = await ctx.v2.getAddressInformation({ address: p.address });
        return {
          balance: r.balance,
          code: r.code || null,
          data: r.data || null,
          last_transaction_lt: r.last_transaction_id.lt || null,
          last_transaction_hash: r.last_transaction_id.hash || null,
          frozen_hash: r.frozen_hash || null,
          status: r.state,
        };
      }
      const st = ctx.latestState(p.address);
      const suspended = suspendedMember(await suspendedAccounts(ctx), rawUpper(p.address));
      if (!st) {
        // unknown to the index: the reference's synthetic uninit answer
        return { balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: ZERO_HASH_B64, frozen_hash: null, status: 'uninit', ...suspended };
      }
      const code = codeOf(st.account);
      const data = dataOf(st.account);
      return {
        balance: (st.account?.storage.balance.coins ?? 0n).toString(),
        code: code ? bocB64(code) : null,
        data: data ? bocB64(data) : null,
        last_transaction_lt: (st.lastTransLt ?? 0n).toString(),
        last_transaction_hash: st.lastTransHash ? b64(st.lastTransHash) : ZERO_HASH_B64,
        // the v3 path never fills frozen_hash (v3.md §2.7)
        frozen_hash: null,
        status: accountStatusOf(st.account),
        ...suspended,
      };
    },

    async walletInformation(p: LegacyAccountParams): Promise<V2WalletInformation> {
      if (p.useV2) {
        const r = await ctx.v2.getWalletInformation({ address: p.address });
        if (!r.wallet && r.account_state !== 'uninitialized') throw new ApiError(409, 'not a wallet');
        return {
          balance: r.balance,
          ...(r.wallet_type ? { wallet_type: r.wallet_type } : {}),
          ...(r.seqno !== undefined ? { seqno: r.seqno } : {}),
          ...(r.wallet_id !== undefined ? { wallet_id: r.wallet_id } : {}),
          last_transaction_lt: r.last_transaction_id.lt,
          last_transaction_hash: r.last_transaction_id.hash,
          status: r.account_state,
        };
      }
      const st = ctx.latestState(p.address);
      const suspended = suspendedMember(await suspendedAccounts(ctx), rawUpper(p.address));
      if (!st) return { balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH_B64, status: 'uninit', ...suspended };
      const status = accountStatusOf(st.account);
      const wallet = detectWallet(codeOf(st.account), dataOf(st.account));
      if (!wallet && status !== 'uninit' && status !== 'nonexist') throw new ApiError(409, 'not a wallet');
      return {
        balance: (st.account?.storage.balance.coins ?? 0n).toString(),
        ...(wallet ? { wallet_type: wallet.type, seqno: wallet.seqno } : {}),
        ...(wallet?.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
        last_transaction_lt: (st.lastTransLt ?? 0n).toString(),
        last_transaction_hash: st.lastTransHash ? b64(st.lastTransHash) : ZERO_HASH_B64,
        status,
        ...suspended,
      };
    },

    async message(p: { boc: Buffer }): Promise<V2SendMessageResult> {
      const r = await refusedAsBadInput(ctx.v2.sendBocReturnHash({ boc: p.boc }));
      return { message_hash: r.hash, ...(r.hash_norm ? { message_hash_norm: r.hash_norm } : {}) };
    },

    async runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult> {
      const r = await ctx.v2.runGetMethodStd({ address: p.address, method: p.method, stack: p.stack });
      return { gas_used: r.gas_used, exit_code: r.exit_code, stack: r.stack.map(stdToV3Entry) };
    },

    async estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult> {
      const r = await refusedAsBadInput(ctx.v2.estimateFee(p));
      const strip = ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee }: (typeof r)['source_fees']) => ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee });
      return { source_fees: strip(r.source_fees), destination_fees: r.destination_fees.map(strip) };
    },
  };
}

/**
 * The v2 path reports a message the contract refuses as the lite server's 500; v3 answers bad input with a 4xx
 * whatever the reference server does (issue 3), so the refusal becomes a 422 with the same text.
 */
async function refusedAsBadInput<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof ApiError && e.status >= 500 && e.message.startsWith('LITE_SERVER_UNKNOWN: cannot apply external message')) {
      throw new ApiError(422, e.message);
    }
    throw e;
  }
}

/** A typed (runGetMethodStd) entry as the v3 proxy prints it: numbers in hex, cells and slices as BoC. */
function stdToV3Entry(e: Shared<StdStackEntry>): V3StackEntry {
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'num', value: hexNumber(BigInt(e.number.number)) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', value: e.cell.bytes };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', value: e.slice.bytes };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', value: e.tuple.elements.map(stdToV3Entry) };
    case 'tvm.stackEntryList':
      return { type: 'list', value: e.list.elements.map(stdToV3Entry) };
    case 'tvm.stackEntryUnsupported':
      // the reference answers 501 for entries its decoder does not know (NaN here)
      throw new ApiError(501, 'failed to decode api/v2 stack: unsupported stack entry type: tvm.stackEntryUnsupported');
  }
}
