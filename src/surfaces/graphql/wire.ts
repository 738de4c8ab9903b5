/**
 * The seam's wire types as the graph receives them: shared answers, read-only all the way down (see
 * api/shared-answers.ts). Object types are backed by these, so a resolver that would edit a source's answer
 * does not compile.
 */
import type { Shared } from '../../api/shared-answers.js';
import type { AccountStateFull as AccountStateFullW } from '../../api/v3/accounts.js';
import type { Action as ActionW } from '../../api/v3/actions.js';
import type { Block as BlockW } from '../../api/v3/blocks.js';
import type { JettonBurn as JettonBurnW, JettonMaster as JettonMasterW, JettonTransfer as JettonTransferW, JettonWallet as JettonWalletW } from '../../api/v3/jettons.js';
import type { Message as MessageW } from '../../api/v3/messages.js';
import type { NftCollection as NftCollectionW, NftItem as NftItemW, NftTransfer as NftTransferW } from '../../api/v3/nfts.js';
import type { Trace as TraceW, TraceNode as TraceNodeW } from '../../api/v3/traces.js';
import type { Transaction as TransactionW } from '../../api/v3/transactions.js';
import type { V2EstimatedFee as V2EstimatedFeeW, V2EstimateFeeResult as V2EstimateFeeResultW, V2RunGetMethodResult as V2RunGetMethodResultW, V3StackEntry as V3StackEntryW } from '../../api/v3/v2-proxies.js';
import type { WalletState as WalletStateW } from '../../api/v3/wallets.js';

export type AccountStateFull = Shared<AccountStateFullW>;
export type Action = Shared<ActionW>;
export type Block = Shared<BlockW>;
export type JettonBurn = Shared<JettonBurnW>;
export type JettonMaster = Shared<JettonMasterW>;
export type JettonTransfer = Shared<JettonTransferW>;
export type JettonWallet = Shared<JettonWalletW>;
export type Message = Shared<MessageW>;
export type NftCollection = Shared<NftCollectionW>;
export type NftItem = Shared<NftItemW>;
export type NftTransfer = Shared<NftTransferW>;
export type Trace = Shared<TraceW>;
export type TraceNode = Shared<TraceNodeW>;
export type Transaction = Shared<TransactionW>;
export type V2EstimatedFee = Shared<V2EstimatedFeeW>;
export type V2EstimateFeeResult = Shared<V2EstimateFeeResultW>;
export type V2RunGetMethodResult = Shared<V2RunGetMethodResultW>;
export type V3StackEntry = Shared<V3StackEntryW>;
export type WalletState = Shared<WalletStateW>;
