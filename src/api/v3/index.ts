/**
 * The v3 seam: every /api/v3 route, one descriptor each, grouped by resource (each resource file holds its wire
 * types, the methods a source answers and the route descriptors); the REST mount, the OpenAPI generator and the
 * upstream client read V3_DESCRIPTORS, and a source implements V3Api.
 */
import type { AccountsApi } from './accounts.js';
import type { ActonApi } from './acton.js';
import type { ActionsApi } from './actions.js';
import type { BalanceChangesApi } from './balance-changes.js';
import type { BlocksApi } from './blocks.js';
import type { DecodeApi } from './decode.js';
import type { DnsApi } from './dns.js';
import type { JettonsApi } from './jettons.js';
import type { MessagesApi } from './messages.js';
import type { MultisigApi } from './multisig.js';
import type { NftsApi } from './nfts.js';
import type { StakingApi } from './staking.js';
import type { TracesApi } from './traces.js';
import type { TransactionsApi } from './transactions.js';
import type { ValidatorsApi } from './validators.js';
import type { V2ProxiesApi } from './v2-proxies.js';
import type { VestingApi } from './vesting.js';
import type { WalletsApi } from './wallets.js';
import { ACCOUNT_ROUTES } from './accounts.js';
import { ACTION_ROUTES } from './actions.js';
import { ACTON_ROUTES } from './acton.js';
import { BALANCE_CHANGES_ROUTES } from './balance-changes.js';
import { BLOCK_ROUTES } from './blocks.js';
import { DECODE_ROUTES } from './decode.js';
import { DNS_ROUTES } from './dns.js';
import { JETTON_ROUTES } from './jettons.js';
import { MESSAGE_ROUTES } from './messages.js';
import { MULTISIG_ROUTES } from './multisig.js';
import { NFT_ROUTES } from './nfts.js';
import { STAKING_ROUTES } from './staking.js';
import type { V3Descriptor } from './params.js';
import type { SharedAnswers } from '../shared-answers.js';
import { TRACE_ROUTES } from './traces.js';
import { TRANSACTION_ROUTES } from './transactions.js';
import { VALIDATOR_ROUTES } from './validators.js';
import { V2_PROXY_ROUTES } from './v2-proxies.js';
import { VESTING_ROUTES } from './vesting.js';
import { WALLET_ROUTES } from './wallets.js';

export type { V3Descriptor, V3ParamSpec } from './params.js';

export const V3_PREFIX = '/api/v3';

/** Every resource's methods as a source declares them. */
export interface V3Methods
  extends BlocksApi,
    TransactionsApi,
    MessagesApi,
    AccountsApi,
    WalletsApi,
    V2ProxiesApi,
    JettonsApi,
    NftsApi,
    TracesApi,
    ActionsApi,
    BalanceChangesApi,
    DecodeApi,
    DnsApi,
    MultisigApi,
    VestingApi,
    StakingApi,
    ValidatorsApi,
    ActonApi {}

/** The whole v3 interface: every resource's methods, each implemented by its twin in a source (localnet/v3/<resource>.ts); answers are shared and read-only. */
export type V3Api = SharedAnswers<V3Methods>;

export const V3_DESCRIPTORS: readonly V3Descriptor[] = [
  ...BLOCK_ROUTES,
  ...TRANSACTION_ROUTES,
  ...MESSAGE_ROUTES,
  ...ACCOUNT_ROUTES,
  ...WALLET_ROUTES,
  ...V2_PROXY_ROUTES,
  ...JETTON_ROUTES,
  ...NFT_ROUTES,
  ...TRACE_ROUTES,
  ...ACTION_ROUTES,
  ...BALANCE_CHANGES_ROUTES,
  ...ACTON_ROUTES,
  ...DECODE_ROUTES,
  ...DNS_ROUTES,
  ...MULTISIG_ROUTES,
  ...VESTING_ROUTES,
  ...STAKING_ROUTES,
  ...VALIDATOR_ROUTES,
];

/** The descriptor an upstream is asked through, per seam method. */
export const V3_UPSTREAM_ROUTES: ReadonlyMap<string, V3Descriptor> = new Map(
  V3_DESCRIPTORS.filter((d) => d.upstream !== false).map((d) => [d.api, d]),
);

/** Seam methods taking the request options (X-No-Address-Book / X-No-Metadata); the others answer as asked. */
export const V3_OPTION_METHODS: ReadonlySet<string> = new Set(V3_DESCRIPTORS.filter((d) => d.options).map((d) => d.api));
