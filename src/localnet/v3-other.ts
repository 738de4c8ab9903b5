/**
 * The v3 DNS, multisig and vesting routes over the local chain (v3.md §2.5): contracts of those kinds are
 * indexed when the chain holds any; otherwise the answers are empty and valid.
 */
import type { V3OtherApi } from '../api/v3-other.js';
import type { LocalV3Context } from './v3.js';

export class LocalV3Other implements V3OtherApi {
  constructor(private readonly ctx: LocalV3Context) {}
}
