/**
 * The v3 interface over the local chain: one file per seam resource (../../../api/v3/<resource>.ts has its twin
 * <resource>.ts here, answering exactly the routes it declares), composed into one object the compiler checks is
 * a complete V3Api. The resources share one context: the chain, its indexer and the serialisers (v3-context.ts).
 */
import type { V3Api } from '../../../api/v3/index.js';
import { localAccounts } from './accounts.js';
import { localActions } from './actions.js';
import { localActon } from './acton.js';
import { localBalanceChanges } from './balance-changes.js';
import { localBlocks } from './blocks.js';
import { localDecode } from './decode.js';
import { localDns } from './dns.js';
import { localJettons } from './jettons.js';
import { localMessages } from './messages.js';
import { localMultisig } from './multisig.js';
import { localNfts } from './nfts.js';
import { localStaking } from './staking.js';
import { localTraces } from './traces.js';
import { localTransactions } from './transactions.js';
import { localValidators } from './validators.js';
import { localV2Proxies } from './v2-proxies.js';
import { localVesting } from './vesting.js';
import { localWallets } from './wallets.js';
import { LocalV3Context, type LocalV3Options, type V3ChainSource } from './v3-context.js';

export type { LocalV3Options, V3ChainSource } from './v3-context.js';

/** Every v3 route over this chain source, as one plain object of the resources' answers. */
export function localV3Api(source: V3ChainSource, opts: LocalV3Options = {}): V3Api {
  const ctx = new LocalV3Context(source, opts);
  return {
    ...localBlocks(ctx),
    ...localTransactions(ctx),
    ...localMessages(ctx),
    ...localAccounts(ctx),
    ...localWallets(ctx),
    ...localV2Proxies(ctx),
    ...localJettons(ctx),
    ...localNfts(ctx),
    ...localTraces(ctx),
    ...localActions(ctx),
    ...localBalanceChanges(ctx),
    ...localDecode(),
    ...localDns(ctx),
    ...localMultisig(ctx),
    ...localVesting(ctx),
    ...localStaking(ctx),
    ...localValidators(ctx),
    ...localActon(ctx),
  };
}
