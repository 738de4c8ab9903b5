/**
 * The v3 interface over the local chain: one object answering every V3Api route by handing it to the part that
 * implements it (v3-core.ts, v3-tokens.ts, v3-traces.ts, v3-other.ts). The parts share one context: the chain,
 * its indexer and the serialisers (v3-context.ts).
 */
import type { AccountBalance, AccountStatesParams, AccountStatesResponse, AddressBookParams } from '../../api/v3/accounts.js';
import type { BlocksParams, BlocksResponse, MasterchainInfo } from '../../api/v3/blocks.js';
import type { AddressBook, Metadata, PageParams } from '../../api/v3/common.js';
import type { V3Api } from '../../api/v3/index.js';
import type { MessagesParams, MessagesResponse } from '../../api/v3/messages.js';
import type {
  AdjacentTransactionsParams,
  McSeqnoPageParams,
  TransactionsByMessageParams,
  TransactionsParams,
  TransactionsResponse,
} from '../../api/v3/transactions.js';
import type {
  LegacyAccountParams,
  V2AddressInformation,
  V2EstimateFeeResult,
  V2RunGetMethodResult,
  V2SendMessageResult,
  V2WalletInformation,
  V3EstimateFeeParams,
  V3RunGetMethodParams,
} from '../../api/v3/v2-proxies.js';
import type { WalletStatesParams, WalletStatesResponse } from '../../api/v3/wallets.js';
import type { DnsRecordsParams, DnsRecordsResponse } from '../../api/v3/dns.js';
import type {
  MultisigOrderResponse,
  MultisigOrdersParams,
  MultisigResponse,
  MultisigWalletsParams,
} from '../../api/v3/multisig.js';
import type { VestingContractsResponse, VestingParams } from '../../api/v3/vesting.js';
import type { MetadataParams } from '../../api/v3/accounts.js';
import type {
  JettonBurnsParams,
  JettonBurnsResponse,
  JettonMastersParams,
  JettonMastersResponse,
  JettonTransfersParams,
  JettonTransfersResponse,
  JettonWalletsParams,
  JettonWalletsResponse,
} from '../../api/v3/jettons.js';
import type {
  NftCollectionsParams,
  NftCollectionsResponse,
  NftItemsParams,
  NftItemsResponse,
  NftTransfersParams,
  NftTransfersResponse,
} from '../../api/v3/nfts.js';
import type { ActionsParams, ActionsResponse, PendingActionsParams } from '../../api/v3/actions.js';
import type { DecodeParams, DecodeResponse } from '../../api/v3/decode.js';
import type { PendingTracesParams, TracesParams, TracesResponse } from '../../api/v3/traces.js';
import type { PendingTransactionsParams } from '../../api/v3/transactions.js';
import { LocalV3Context, type LocalV3Options, type V3ChainSource } from './v3-context.js';
import { LocalV3Core } from './v3-core.js';
import { LocalV3Other } from './v3-other.js';
import { LocalV3Tokens } from './v3-tokens.js';
import { LocalV3Traces } from './v3-traces.js';

export type { LocalV3Options, V3ChainSource } from './v3-context.js';

export class LocalV3Api implements V3Api {
  private readonly core: LocalV3Core;
  private readonly tokens: LocalV3Tokens;
  private readonly traces: LocalV3Traces;
  private readonly other: LocalV3Other;

  constructor(source: V3ChainSource, opts: LocalV3Options = {}) {
    const ctx = new LocalV3Context(source, opts);
    this.core = new LocalV3Core(ctx);
    this.tokens = new LocalV3Tokens(ctx);
    this.traces = new LocalV3Traces(ctx);
    this.other = new LocalV3Other(ctx);
  }

  // ---- blocks, transactions, messages, accounts, legacy routes (v3-core.ts) ----

  masterchainInfo(): Promise<MasterchainInfo> {
    return this.core.masterchainInfo();
  }

  blocks(p: BlocksParams): Promise<BlocksResponse> {
    return this.core.blocks(p);
  }

  masterchainBlockShards(p: { seqno: number } & PageParams): Promise<BlocksResponse> {
    return this.core.masterchainBlockShards(p);
  }

  masterchainBlockShardState(p: { seqno: number }): Promise<BlocksResponse> {
    return this.core.masterchainBlockShardState(p);
  }

  transactions(p: TransactionsParams): Promise<TransactionsResponse> {
    return this.core.transactions(p);
  }

  transactionsByMasterchainBlock(p: McSeqnoPageParams): Promise<TransactionsResponse> {
    return this.core.transactionsByMasterchainBlock(p);
  }

  transactionsByMessage(p: TransactionsByMessageParams): Promise<TransactionsResponse> {
    return this.core.transactionsByMessage(p);
  }

  adjacentTransactions(p: AdjacentTransactionsParams): Promise<TransactionsResponse> {
    return this.core.adjacentTransactions(p);
  }

  messages(p: MessagesParams): Promise<MessagesResponse> {
    return this.core.messages(p);
  }

  accountStates(p: AccountStatesParams): Promise<AccountStatesResponse> {
    return this.core.accountStates(p);
  }

  walletStates(p: WalletStatesParams): Promise<WalletStatesResponse> {
    return this.core.walletStates(p);
  }

  addressBook(p: AddressBookParams): Promise<AddressBook> {
    return this.core.addressBook(p);
  }

  topAccountsByBalance(p: PageParams): Promise<AccountBalance[]> {
    return this.core.topAccountsByBalance(p);
  }

  addressInformation(p: LegacyAccountParams): Promise<V2AddressInformation> {
    return this.core.addressInformation(p);
  }

  walletInformation(p: LegacyAccountParams): Promise<V2WalletInformation> {
    return this.core.walletInformation(p);
  }

  message(p: { boc: Buffer }): Promise<V2SendMessageResult> {
    return this.core.message(p);
  }

  runGetMethod(p: V3RunGetMethodParams): Promise<V2RunGetMethodResult> {
    return this.core.runGetMethod(p);
  }

  estimateFee(p: V3EstimateFeeParams): Promise<V2EstimateFeeResult> {
    return this.core.estimateFee(p);
  }

  // ---- jettons, NFTs, metadata (v3-tokens.ts) ----

  jettonMasters(p: JettonMastersParams): Promise<JettonMastersResponse> {
    return this.tokens.jettonMasters(p);
  }

  jettonWallets(p: JettonWalletsParams): Promise<JettonWalletsResponse> {
    return this.tokens.jettonWallets(p);
  }

  jettonTransfers(p: JettonTransfersParams): Promise<JettonTransfersResponse> {
    return this.tokens.jettonTransfers(p);
  }

  jettonBurns(p: JettonBurnsParams): Promise<JettonBurnsResponse> {
    return this.tokens.jettonBurns(p);
  }

  nftCollections(p: NftCollectionsParams): Promise<NftCollectionsResponse> {
    return this.tokens.nftCollections(p);
  }

  nftItems(p: NftItemsParams): Promise<NftItemsResponse> {
    return this.tokens.nftItems(p);
  }

  nftTransfers(p: NftTransfersParams): Promise<NftTransfersResponse> {
    return this.tokens.nftTransfers(p);
  }

  addressMetadata(p: MetadataParams): Promise<Metadata> {
    return this.tokens.addressMetadata(p);
  }

  // ---- traces, actions, pending work, decode (v3-traces.ts) ----

  listTraces(p: TracesParams): Promise<TracesResponse> {
    return this.traces.listTraces(p);
  }

  actions(p: ActionsParams): Promise<ActionsResponse> {
    return this.traces.actions(p);
  }

  pendingTransactions(p: PendingTransactionsParams): Promise<TransactionsResponse> {
    return this.traces.pendingTransactions(p);
  }

  pendingTraces(p: PendingTracesParams): Promise<TracesResponse> {
    return this.traces.pendingTraces(p);
  }

  pendingActions(p: PendingActionsParams): Promise<ActionsResponse> {
    return this.traces.pendingActions(p);
  }

  decode(p: DecodeParams): Promise<DecodeResponse> {
    return this.traces.decode(p);
  }

  // ---- DNS, multisig, vesting (v3-other.ts) ----

  dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse> {
    return this.other.dnsRecords(p);
  }

  multisigWallets(p: MultisigWalletsParams): Promise<MultisigResponse> {
    return this.other.multisigWallets(p);
  }

  multisigOrders(p: MultisigOrdersParams): Promise<MultisigOrderResponse> {
    return this.other.multisigOrders(p);
  }

  vestingContracts(p: VestingParams): Promise<VestingContractsResponse> {
    return this.other.vestingContracts(p);
  }
}
