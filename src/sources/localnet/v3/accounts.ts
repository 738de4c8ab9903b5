/**
 * /api/v3 accounts over the local chain (v3.md §2.2): account states, the address book, top accounts by
 * balance and token /metadata, as of the last sealed masterchain block.
 */
import { Address } from '@ton/core';
import { ApiError } from '../../../api/errors.js';
import type {
  AccountBalance,
  AccountsApi,
  AccountStateFull,
  AccountStatesParams,
  AccountStatesResponse,
  AddressBookParams,
  MetadataParams,
} from '../../../api/v3/accounts.js';
import type { AddressBook, Metadata, PageParams } from '../../../api/v3/common.js';
import { parseAddressAny, rawUpper } from '../../../model/address.js';
import { accountStateFullToV3, type LatestState } from '../../../model/v3/index.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf } from './v3-order.js';
import { suspendedAccounts, suspendedMember } from './v3-chain-reads.js';

export function localAccounts(ctx: LocalV3Context): AccountsApi {
  const accountRows = new WeakMap<LatestState, Map<boolean, AccountStateFull>>();

  /** An /accountStates row is a pure function of an immutable stored state: built once per state and BoC option. */
  function accountRow(st: LatestState, includeBoc: boolean): AccountStateFull {
    let rows = accountRows.get(st);
    if (!rows) accountRows.set(st, (rows = new Map()));
    let row = rows.get(includeBoc);
    if (!row) rows.set(includeBoc, (row = accountStateFullToV3(st, { includeBoc })));
    return row;
  }

  return {
    async accountStates(p: AccountStatesParams): Promise<AccountStatesResponse> {
      const states = ctx.statesOf(p.address, p.codeHash);
      const suspended = await suspendedAccounts(ctx);
      const accounts = states.map((s) => {
        const row = accountRow(s, p.includeBoc ?? true);
        return { ...row, ...suspendedMember(suspended, row.address) };
      });
      const addrs = accounts.map((a) => a.address);
      return { accounts, address_book: ctx.book(addrs, p), metadata: await ctx.metadata(addrs, p) };
    },

    async addressBook(p: AddressBookParams): Promise<AddressBook> {
      if (p.address.length === 0) throw new ApiError(422, 'at least 1 address required');
      const out: AddressBook = {};
      for (const input of p.address) {
        const parsed = parseAddressAny(input);
        if (!parsed) {
          out[input] = { user_friendly: null, domain: null, interfaces: null };
          continue;
        }
        const raw = rawUpper(parsed.address);
        out[input] = ctx.book([raw], {})[raw]!;
      }
      return out;
    },

    async topAccountsByBalance(p: PageParams): Promise<AccountBalance[]> {
      const last = ctx.store.lastMc.seqno;
      const rows: { account: string; balance: bigint }[] = [];
      for (const key of ctx.store.accounts()) {
        const address = Address.parseRaw(key);
        const account = ctx.store.accountState(address, last)?.shardAccount.account;
        if (account) rows.push({ account: rawUpper(address), balance: account.storage.balance.coins });
      }
      rows.sort(orderBy<{ account: string; balance: bigint }>(
        [(r) => r.balance, 'desc'],
        [(r) => r.account, 'asc'],
      ));
      return pageOf(rows, p).map((r) => ({ account: r.account, balance: r.balance.toString() }));
    },

    async addressMetadata(p: MetadataParams): Promise<Metadata> {
      if (p.address.length === 0) throw new ApiError(422, 'at least 1 address required');
      const raws = p.address.map((a) => parseAddressAny(a)?.address).filter((a): a is Address => a !== undefined);
      return ctx.tokenMetadata(raws.map(rawUpper));
    },
  };
}
