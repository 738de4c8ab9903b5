/**
 * Token rows answered from account states the caller already holds, by running the contract's own get-method
 * here instead of asking the indexer. Upstream mode offers it: there every indexer call spends a request of the
 * provider's budget, and a page that reads an account's state (/accountStates with code and data) can read the
 * state of the jetton masters it shows in the same call. The graph uses it; REST routes never do.
 */
import type { Shared } from './shared-answers.js';
import type { AccountStateFull } from './v3/accounts.js';
import type { JettonMaster } from './v3/jettons.js';
import type { NftItem } from './v3/nfts.js';

export interface StateAnswers {
  /** a master row answered from a state read within the account TTL (as long as that state's answer is reused) */
  cachedJettonMaster(address: string): JettonMaster | undefined;
  /**
   * The /jetton/masters row of the account in `state` (an /accountStates row with code and data), as the indexer
   * prints it: TEP-74 `get_jetton_data` on that code and data. Null when it cannot be had here: no code or data,
   * code that refers to library cells, or the method fails (then the caller asks the indexer).
   */
  jettonMaster(state: Shared<AccountStateFull>): Promise<JettonMaster | null>;
  /**
   * An /nft/items row some answer brought, and whether it is within the account TTL. An item's address, index,
   * collection and content do not change once it is deployed, so a kept row answers them for as long as it is
   * kept; what moves (owner, sale, hashes, last lt, init) is only as fresh as `fresh` says.
   */
  cachedNftItem(address: string): { row: Shared<NftItem>; fresh: boolean } | undefined;
  /** keeps the rows of an /nft/items answer for cachedNftItem */
  keepNftItems(rows: readonly Shared<NftItem>[]): void;
  /** a page is about to need jettonMaster: what it runs on starts now (in the background), not when the states come */
  prepare(): void;
  /** whether the request being served set a deadline (Prefer: wait=N): then its answer's latency comes first */
  hurried(): boolean;
}
