/**
 * Account states in v3 form: the before/after state a transaction carries (`AccountState`), the latest state
 * of /accountStates (`AccountStateFull`) and /walletStates (`WalletState`), from @ton/core's Account.
 */
import { beginCell, storeAccount, type Account, type Cell } from '@ton/core';
import type { AccountStateFull } from '../../api/v3/accounts.js';
import type { AccountStatus } from '../../api/v3/common.js';
import type { AccountState } from '../../api/v3/transactions.js';
import type { WalletState } from '../../api/v3/wallets.js';
import { bocB64 } from '../message.js';
import { detectWallet } from '../wallet.js';
import { accountStatus, b64, extraCurrencyMap, rawUpper } from './common.js';
import { contractMethods, detectInterfaces } from './interfaces.js';

/** The account state hash: the hash of the `Account` cell (what a transaction's HASH_UPDATE names). */
export const accountStateHash = (account: Account | null | undefined): Buffer =>
  account
    ? beginCell().store(storeAccount(account)).endCell().hash()
    : // account_none$0: a single zero bit
      beginCell().storeBit(0).endCell().hash();

export const accountStatusOf = (account: Account | null | undefined): AccountStatus => {
  if (!account) return 'nonexist';
  return account.storage.state.type === 'uninit' ? 'uninit' : account.storage.state.type;
};

export const codeOf = (account: Account | null | undefined): Cell | null =>
  account?.storage.state.type === 'active' ? (account.storage.state.state.code ?? null) : null;

export const dataOf = (account: Account | null | undefined): Cell | null =>
  account?.storage.state.type === 'active' ? (account.storage.state.state.data ?? null) : null;

const frozenHashOf = (account: Account | null | undefined): string | null =>
  account?.storage.state.type === 'frozen' ? b64(account.storage.state.stateHash) : null;

/** State before/after a transaction; `hash` is given because the transaction's HASH_UPDATE is authoritative. */
export function accountStateToV3(hash: Buffer | bigint, account: Account | null | undefined, opts: { includeBoc?: boolean } = {}): AccountState {
  const code = codeOf(account);
  const data = dataOf(account);
  return {
    hash: b64(hash),
    balance: (account?.storage.balance.coins ?? 0n).toString(),
    extra_currencies: extraCurrencyMap(account?.storage.balance.other),
    account_status: accountStatusOf(account),
    frozen_hash: frozenHashOf(account),
    data_hash: data ? b64(data.hash()) : null,
    code_hash: code ? b64(code.hash()) : null,
    ...(opts.includeBoc && data ? { data_boc: bocB64(data) } : {}),
    ...(opts.includeBoc && code ? { code_boc: bocB64(code) } : {}),
  };
}

/** Latest state as the indexer keeps it: the account plus its last transaction. */
export interface LatestState {
  address: import('@ton/core').Address;
  account: Account | null;
  lastTransHash: Buffer | null;
  lastTransLt: bigint | null;
  /** the exact state hash when known (the last transaction's new hash); otherwise computed */
  stateHash?: Buffer;
}

export function accountStateFullToV3(s: LatestState, opts: { includeBoc?: boolean } = {}): AccountStateFull {
  const code = codeOf(s.account);
  const data = dataOf(s.account);
  const codeHash = code ? b64(code.hash()) : undefined;
  const methods = contractMethods(code);
  const includeBoc = opts.includeBoc ?? true;
  const frozen = frozenHashOf(s.account);
  return {
    address: rawUpper(s.address),
    account_state_hash: b64(s.stateHash ?? accountStateHash(s.account)),
    balance: (s.account?.storage.balance.coins ?? 0n).toString(),
    extra_currencies: extraCurrencyMap(s.account?.storage.balance.other),
    status: accountStatusOf(s.account),
    ...(frozen ? { frozen_hash: frozen } : {}),
    last_transaction_hash: s.lastTransHash ? b64(s.lastTransHash) : null,
    last_transaction_lt: s.lastTransLt !== null ? s.lastTransLt.toString() : null,
    ...(data ? { data_hash: b64(data.hash()) } : {}),
    ...(codeHash ? { code_hash: codeHash } : {}),
    ...(includeBoc && data ? { data_boc: bocB64(data) } : {}),
    ...(includeBoc && code ? { code_boc: bocB64(code) } : {}),
    contract_methods: methods,
    interfaces: detectInterfaces(codeHash, methods),
  };
}

/** /walletStates row: wallet fields only for the 11 standard wallet codes (highload and others are not wallets). */
export function walletStateToV3(s: LatestState): WalletState {
  const code = codeOf(s.account);
  const wallet = detectWallet(code, dataOf(s.account));
  return {
    address: rawUpper(s.address),
    is_wallet: wallet !== null,
    ...(wallet ? { wallet_type: wallet.type } : {}),
    ...(wallet ? { seqno: wallet.seqno } : {}),
    ...(wallet && wallet.walletId !== undefined ? { wallet_id: wallet.walletId } : {}),
    balance: (s.account?.storage.balance.coins ?? 0n).toString(),
    extra_currencies: extraCurrencyMap(s.account?.storage.balance.other),
    ...(wallet && wallet.isSignatureAllowed !== undefined ? { is_signature_allowed: wallet.isSignatureAllowed } : {}),
    status: accountStatusOf(s.account),
    ...(code ? { code_hash: b64(code.hash()) } : {}),
    last_transaction_hash: s.lastTransHash ? b64(s.lastTransHash) : null,
    last_transaction_lt: s.lastTransLt !== null ? s.lastTransLt.toString() : null,
  };
}

export { accountStatus };
