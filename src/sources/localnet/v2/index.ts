/**
 * V2Api over the local chain: one file per seam group (../../../api/v2/<group>.ts has its twin <group>.ts here,
 * answering exactly the endpoints it declares), composed into one object the compiler checks is a complete V2Api.
 * The groups share one context: the chain, its store and the readers every group needs (v2-context.ts).
 */
import type { V2Api } from '../../../api/v2.js';
import type { Chain } from '../chain/chain.js';
import { localAccounts } from './accounts.js';
import { localBlocks } from './blocks.js';
import { localConfig } from './config.js';
import { localRunGetMethod } from './run-get-method.js';
import { localSend } from './send.js';
import { localTransactions } from './transactions.js';
import { localUtils } from './utils.js';
import { LocalV2Context } from './v2-context.js';

/** Every v2 endpoint over this chain, as one plain object of the groups' answers. */
export function localV2Api(chain: Chain): V2Api {
  const ctx = new LocalV2Context(chain);
  return {
    ...localAccounts(ctx),
    ...localBlocks(ctx),
    ...localTransactions(ctx),
    ...localSend(ctx),
    ...localRunGetMethod(ctx),
    ...localUtils(),
    ...localConfig(ctx),
  };
}
