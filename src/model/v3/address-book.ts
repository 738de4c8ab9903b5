/**
 * address_book rows (v3.md §3.1): user_friendly is non-bounceable (UQ…/0Q…) for accounts with no state or no
 * code and for the 11 standard wallet codes, bounceable (EQ…/kQ…) otherwise; base64url, test-only flag on
 * testnet. `domain` comes from DNS items owned by and pointing to the address (none on the local chain).
 */
import type { Address } from '@ton/core';
import type { AddressBookRow } from '../../api/v3/common.js';
import { WALLET_CODE_HASHES } from '../wallet.js';
import { detectInterfaces } from './interfaces.js';

export type Network = 'mainnet' | 'testnet';

/** Whether the reference prints the address non-bounceable, from the latest code hash (base64) or its absence. */
const isNonBounceable = (codeHash: string | null | undefined): boolean => !codeHash || WALLET_CODE_HASHES.has(codeHash);

export function userFriendly(address: Address, codeHash: string | null | undefined, network: Network): string {
  return address.toString({ urlSafe: true, bounceable: !isNonBounceable(codeHash), testOnly: network === 'testnet' });
}

export function addressBookRow(
  address: Address,
  codeHash: string | null | undefined,
  network: Network,
  opts: { methodIds?: readonly number[] | null; domain?: string | null } = {},
): AddressBookRow {
  return {
    user_friendly: userFriendly(address, codeHash, network),
    domain: opts.domain ?? null,
    interfaces: detectInterfaces(codeHash, opts.methodIds),
  };
}
