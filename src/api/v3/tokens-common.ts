/** What the jetton and NFT routes share: the transfer `direction` and the legacy single owner `address`. */
import type { Address } from '@ton/core';
import { parseAddressV3, text } from './params.js';

/**
 * The transfer routes' `direction`: `both` is no direction, and like the reference (`crud_jettons.go`,
 * `crud_nft.go`) any value other than `in` selects the sending side.
 */
export const transferDirection = () =>
  text({ check: (d?: string) => (d === undefined || d === 'both' ? undefined : d === 'in' ? 'in' : 'out') });

/** The legacy single `address` stands for owner_address when that is absent; an unreadable one is ignored. */
export const legacyOwner = () =>
  text({
    fills: 'ownerAddress',
    upstream: false,
    check: (raw?: string): Address[] | undefined => {
      const a = raw === undefined ? undefined : parseAddressV3(raw);
      return a ? [a] : undefined;
    },
  });
