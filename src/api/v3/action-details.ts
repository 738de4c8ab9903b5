/**
 * The `details` object of every v3 action type (v3.md §4.4), as the reference prints it: ton-index-go
 * `index/models/actions.go` (the ActionDetails* structs) filled by `index/parse/actions.go` `ParseRawAction`,
 * at eb9fbfa3. `ActionDetailsByType` maps each type name to its details; `Action` in ./v3-traces.ts is the
 * discriminated union built from it, so a reader of `action.details` gets the shape of `action.type`.
 *
 * Nullability: a Go pointer prints `null` when unset, an `omitempty` member is left out; indexers older than
 * these models omit members they did not have yet (real answers of 2025 have no `marketplace_address` on an
 * `nft_transfer`), so every pointer member is `?: T | null` here. Slices and plain values are always printed.
 * Object types rather than interfaces, so a details object still reads as the JSON record it is
 * (`Record<string, unknown>`) where a caller wants it untyped. Addresses are raw `wc:HEX` (upper-case) strings; amounts, query ids and indexes are decimal strings
 * (Go `*string`); Go integers arrive as JSON numbers.
 */

/** raw `wc:HEX`, as v3 prints every AccountAddress */
export type RawAddress = string;
/** an unsigned or signed integer printed as a decimal string */
export type DecimalString = string;
/** `0x%08x` */
export type OpcodeHex = string;

/** A pointer member of a reference struct: printed as null when unset, absent from older indexers. */
type Ptr<T> = T | null;

// ---- basic (call_contract, contract_deploy, ton_transfer, tick_tock) ----

export type CallContractDetails = {
  opcode?: Ptr<OpcodeHex>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  value?: Ptr<DecimalString>;
  /** currency id → amount */
  extra_currencies?: Ptr<Record<string, DecimalString>>;
};

export type ContractDeployDetails = {
  opcode?: Ptr<OpcodeHex>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  value?: Ptr<DecimalString>;
};

export type TonTransferDetails = {
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  value?: Ptr<DecimalString>;
  value_extra_currencies?: Ptr<Record<string, DecimalString>>;
  comment?: Ptr<string>;
  encrypted?: Ptr<boolean>;
};

/** `account` is declared by the reference but never set, so the object prints as `{}`. */
export type TickTockDetails = {
  account?: Ptr<RawAddress>;
};

/** What the reference prints for a type it has no mapping for (`unknown`, `coffee_mev_protect_failed_swap`). */
export type UnsupportedActionDetails = {
  error?: string;
};

// ---- jettons ----

export type JettonTransferDetails = {
  asset?: Ptr<RawAddress>;
  sender?: Ptr<RawAddress>;
  receiver?: Ptr<RawAddress>;
  sender_jetton_wallet?: Ptr<RawAddress>;
  receiver_jetton_wallet?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  comment?: Ptr<string>;
  is_encrypted_comment?: Ptr<boolean>;
  query_id?: Ptr<DecimalString>;
  response_destination?: Ptr<RawAddress>;
  /** BoC, base64 */
  custom_payload?: Ptr<string>;
  /** BoC, base64 */
  forward_payload?: Ptr<string>;
  forward_amount?: Ptr<DecimalString>;
};

export type JettonBurnDetails = {
  owner?: Ptr<RawAddress>;
  owner_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type JettonMintDetails = {
  asset?: Ptr<RawAddress>;
  receiver?: Ptr<RawAddress>;
  receiver_jetton_wallet?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  ton_amount?: Ptr<DecimalString>;
};

/** One leg of a swap: `asset` null is TON (then the jetton wallets are null too). */
export type JettonSwapTransfer = {
  asset?: Ptr<RawAddress>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  destination_jetton_wallet?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type JettonSwapPeerSwap = {
  asset_in?: Ptr<RawAddress>;
  amount_in?: Ptr<DecimalString>;
  asset_out?: Ptr<RawAddress>;
  amount_out?: Ptr<DecimalString>;
};

export type JettonSwapDetails = {
  /** dedust, stonfi, stonfi_v2, tonco, coffee, … */
  dex?: Ptr<string>;
  sender?: Ptr<RawAddress>;
  /** null is TON */
  asset_in?: Ptr<RawAddress>;
  /** null is TON */
  asset_out?: Ptr<RawAddress>;
  dex_incoming_transfer?: Ptr<JettonSwapTransfer>;
  dex_outgoing_transfer?: Ptr<JettonSwapTransfer>;
  peer_swaps?: Ptr<JettonSwapPeerSwap[]>;
  /** tonco (ActionDetailsToncoJettonSwap) and DeDust v2 swaps: the least the route had to pay out */
  min_out_amount?: Ptr<DecimalString>;
};

// ---- DEX liquidity ----

export type VaultExcess = {
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type DexDepositLiquidityDetails = {
  dex?: Ptr<string>;
  amount_1?: Ptr<DecimalString>;
  amount_2?: Ptr<DecimalString>;
  asset_1?: Ptr<RawAddress>;
  asset_2?: Ptr<RawAddress>;
  user_jetton_wallet_1?: Ptr<RawAddress>;
  user_jetton_wallet_2?: Ptr<RawAddress>;
  source?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  destination_liquidity?: Ptr<RawAddress>;
  lp_tokens_minted?: Ptr<DecimalString>;
  target_asset_1?: Ptr<RawAddress>;
  target_asset_2?: Ptr<RawAddress>;
  target_amount_1?: Ptr<DecimalString>;
  target_amount_2?: Ptr<DecimalString>;
  vault_excesses?: Ptr<VaultExcess[]>;
  tick_lower?: Ptr<DecimalString>;
  tick_upper?: Ptr<DecimalString>;
  nft_index?: Ptr<DecimalString>;
  nft_address?: Ptr<RawAddress>;
};

export type DexWithdrawLiquidityDetails = {
  dex?: Ptr<string>;
  amount_1?: Ptr<DecimalString>;
  amount_2?: Ptr<DecimalString>;
  asset_1?: Ptr<RawAddress>;
  asset_2?: Ptr<RawAddress>;
  user_jetton_wallet_1?: Ptr<RawAddress>;
  user_jetton_wallet_2?: Ptr<RawAddress>;
  lp_tokens_burnt?: Ptr<DecimalString>;
  is_refund?: Ptr<boolean>;
  source?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  destination_liquidity?: Ptr<RawAddress>;
  burnt_nft_index?: Ptr<DecimalString>;
  burnt_nft_address?: Ptr<RawAddress>;
  tick_lower?: Ptr<DecimalString>;
  tick_upper?: Ptr<DecimalString>;
};

/**
 * dedust_v2_claim_fees and dedust_v2_claim_reward: the reference stores them in its withdrawal columns (slot 1/2 the
 * pool's x/y asset; a reward fills slot 1 only), so they are printed as a withdrawal, with the v2 pool's position,
 * the LP owner and the pool's payout wallets besides.
 */
export type DedustV2ClaimDetails = DexWithdrawLiquidityDetails & {
  position?: Ptr<RawAddress>;
  owner?: Ptr<RawAddress>;
  dex_wallet_1?: Ptr<RawAddress>;
  dex_wallet_2?: Ptr<RawAddress>;
  dex_jetton_wallet_1?: Ptr<RawAddress>;
  dex_jetton_wallet_2?: Ptr<RawAddress>;
};

export type ToncoDeployPoolDetails = {
  source?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  router?: Ptr<RawAddress>;
  router_jetton_wallet_1?: Ptr<RawAddress>;
  router_jetton_wallet_2?: Ptr<RawAddress>;
  jetton_minter_1?: Ptr<RawAddress>;
  jetton_minter_2?: Ptr<RawAddress>;
  tick_spacing?: Ptr<DecimalString>;
  initial_price_x96?: Ptr<DecimalString>;
  protocol_fee?: Ptr<DecimalString>;
  lp_fee_base?: Ptr<DecimalString>;
  lp_fee_current?: Ptr<DecimalString>;
  pool_active?: Ptr<boolean>;
};

// ---- NFT minting, transfers, marketplaces and auctions ----

export type NftMintDetails = {
  owner?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
};

/** nft_transfer and nft_purchase */
export type NftTransferDetails = {
  nft_collection?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
  old_owner?: Ptr<RawAddress>;
  new_owner?: Ptr<RawAddress>;
  is_purchase?: Ptr<boolean>;
  price?: Ptr<DecimalString>;
  query_id?: Ptr<DecimalString>;
  response_destination?: Ptr<RawAddress>;
  custom_payload?: Ptr<string>;
  forward_payload?: Ptr<string>;
  forward_amount?: Ptr<DecimalString>;
  comment?: Ptr<string>;
  is_encrypted_comment?: Ptr<boolean>;
  marketplace?: Ptr<string>;
  real_old_owner?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  payout_amount?: Ptr<DecimalString>;
  payout_address?: Ptr<RawAddress>;
  payout_comment?: Ptr<string>;
  payout_comment_encrypted?: Ptr<boolean>;
  payout_comment_encoded?: Ptr<boolean>;
  royalty_amount?: Ptr<DecimalString>;
  royalty_address?: Ptr<RawAddress>;
};

export type NftDiscoveryDetails = {
  source?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
};

export type NftPutOnSaleDetails = {
  nft_collection?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
  owner?: Ptr<RawAddress>;
  listing_address?: Ptr<RawAddress>;
  sale_address?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  full_price?: Ptr<DecimalString>;
  marketplace_fee?: Ptr<DecimalString>;
  royalty_amount?: Ptr<DecimalString>;
  marketplace_fee_address?: Ptr<RawAddress>;
  royalty_address?: Ptr<RawAddress>;
  marketplace?: Ptr<string>;
};

/** nft_put_on_auction and teleitem_start_auction */
export type NftPutOnAuctionDetails = {
  nft_collection?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
  owner?: Ptr<RawAddress>;
  listing_address?: Ptr<RawAddress>;
  auction_address?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  marketplace_fee_factor?: Ptr<DecimalString>;
  marketplace_fee_base?: Ptr<DecimalString>;
  royalty_fee_base?: Ptr<DecimalString>;
  max_bid?: Ptr<DecimalString>;
  min_bid?: Ptr<DecimalString>;
  marketplace_fee_address?: Ptr<RawAddress>;
  royalty_address?: Ptr<RawAddress>;
  marketplace?: Ptr<string>;
};

export type NftUpdateSaleDetails = {
  source?: Ptr<RawAddress>;
  sale_contract?: Ptr<RawAddress>;
  nft_address?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  marketplace?: Ptr<string>;
  full_price?: Ptr<DecimalString>;
  marketplace_fee?: Ptr<DecimalString>;
  royalty_amount?: Ptr<DecimalString>;
};

export type NftCancelSaleDetails = {
  owner?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  sale_address?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  marketplace?: Ptr<string>;
};

/** nft_cancel_auction, teleitem_cancel_auction and nft_finish_auction */
export type NftAuctionEndDetails = {
  owner?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  auction_address?: Ptr<RawAddress>;
  marketplace_address?: Ptr<RawAddress>;
  marketplace?: Ptr<string>;
};

export type AuctionBidDetails = {
  amount?: Ptr<DecimalString>;
  bidder?: Ptr<RawAddress>;
  auction?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
};

export type AuctionOutbidDetails = {
  auction_address?: Ptr<RawAddress>;
  bidder?: Ptr<RawAddress>;
  new_bidder?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  comment?: Ptr<string>;
  marketplace?: Ptr<string>;
};

// ---- DNS ----

/** One of the address/text members is set, as `sum_type` says (a DNSText value lands in `dns_storage_address`). */
export type ChangeDnsValue = {
  /** DNSSmcAddress, DNSNextResolver, DNSAdnlAddress, DNSStorageAddress or DNSText */
  sum_type?: Ptr<string>;
  dns_smc_address?: Ptr<string>;
  dns_adnl_address?: Ptr<string>;
  dns_text?: Ptr<string>;
  dns_next_resolver_address?: Ptr<string>;
  dns_storage_address?: Ptr<string>;
  flags?: Ptr<number>;
};

export type ChangeDnsDetails = {
  /** the record key, hex */
  key?: Ptr<string>;
  value?: ChangeDnsValue;
  source?: Ptr<RawAddress>;
  /** the domain's NFT item */
  asset?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
};

export type DeleteDnsDetails = {
  /** the record key */
  hash?: Ptr<string>;
  source?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
};

export type RenewDnsDetails = {
  source?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
};

export type DnsPurchaseDetails = {
  nft_collection?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
  new_owner?: Ptr<RawAddress>;
  price?: Ptr<DecimalString>;
  query_id?: Ptr<DecimalString>;
  payout_amount?: Ptr<DecimalString>;
};

export type DnsReleaseDetails = {
  query_id?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  nft_item?: Ptr<RawAddress>;
  nft_collection?: Ptr<RawAddress>;
  nft_item_index?: Ptr<DecimalString>;
  value?: Ptr<DecimalString>;
};

// ---- staking, elections, subscriptions ----

export type StakeDepositDetails = {
  /** liquid_staking (tonstakers), nominator, ethena, … */
  provider?: Ptr<string>;
  stake_holder?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  tokens_minted?: Ptr<DecimalString>;
  asset?: Ptr<RawAddress>;
  /** ethena only */
  source_asset?: Ptr<RawAddress>;
};

export type StakeWithdrawalDetails = {
  provider?: Ptr<string>;
  stake_holder?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  payout_nft?: Ptr<RawAddress>;
  tokens_burnt?: Ptr<DecimalString>;
  asset?: Ptr<RawAddress>;
};

export type StakeWithdrawalRequestDetails = {
  provider?: Ptr<string>;
  stake_holder?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  payout_nft?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  tokens_burnt?: Ptr<DecimalString>;
  tokens_minted?: Ptr<DecimalString>;
};

/** election_deposit and election_recover */
export type ElectionDetails = {
  stake_holder?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

/** subscribe and unsubscribe */
export type SubscriptionDetails = {
  subscriber?: Ptr<RawAddress>;
  beneficiary?: Ptr<RawAddress>;
  subscription?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

// ---- multisig and vesting ----

export type MultisigCreateOrderDetails = {
  query_id?: Ptr<DecimalString>;
  order_seqno?: Ptr<DecimalString>;
  is_created_by_signer?: Ptr<boolean>;
  is_signed_by_creator?: Ptr<boolean>;
  creator_index?: Ptr<number>;
  expiration_date?: Ptr<number>;
  order_boc?: Ptr<string>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  destination_order?: Ptr<RawAddress>;
};

export type MultisigApproveDetails = {
  signer_index?: Ptr<number>;
  exit_code?: Ptr<number>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

export type MultisigExecuteDetails = {
  query_id?: Ptr<DecimalString>;
  order_seqno?: Ptr<DecimalString>;
  expiration_date?: Ptr<number>;
  approvals_num?: Ptr<number>;
  signers_hash?: Ptr<string>;
  order_boc?: Ptr<string>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

export type VestingSendMessageDetails = {
  query_id?: Ptr<DecimalString>;
  message_boc?: Ptr<string>;
  source?: Ptr<RawAddress>;
  vesting?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type VestingAddWhitelistDetails = {
  query_id?: Ptr<DecimalString>;
  accounts_added?: Ptr<RawAddress[]>;
  source?: Ptr<RawAddress>;
  vesting?: Ptr<RawAddress>;
};

// ---- EVAA and jVault ----

export type EvaaSupplyDetails = {
  sender_jetton_wallet?: Ptr<RawAddress>;
  recipient_jetton_wallet?: Ptr<RawAddress>;
  master_jetton_wallet?: Ptr<RawAddress>;
  master?: Ptr<RawAddress>;
  asset_id?: Ptr<string>;
  is_ton?: Ptr<boolean>;
  source?: Ptr<RawAddress>;
  source_wallet?: Ptr<RawAddress>;
  recipient?: Ptr<RawAddress>;
  recipient_contract?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type EvaaWithdrawDetails = {
  recipient_jetton_wallet?: Ptr<RawAddress>;
  master_jetton_wallet?: Ptr<RawAddress>;
  master?: Ptr<RawAddress>;
  fail_reason?: Ptr<string>;
  asset_id?: Ptr<string>;
  source?: Ptr<RawAddress>;
  recipient?: Ptr<RawAddress>;
  owner_contract?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type EvaaLiquidateDetails = {
  fail_reason?: Ptr<string>;
  debt_amount?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  borrower?: Ptr<RawAddress>;
  borrower_contract?: Ptr<RawAddress>;
  collateral?: Ptr<RawAddress>;
  asset_id?: Ptr<string>;
  asset?: Ptr<RawAddress>;
  /** a plain bool in the reference, always printed */
  is_known_asset?: boolean;
  amount?: Ptr<DecimalString>;
};

export type JettonAmountPair = {
  jetton?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type JvaultClaimDetails = {
  claimed_rewards?: Ptr<JettonAmountPair[]>;
  source?: Ptr<RawAddress>;
  stake_wallet?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
};

export type JvaultStakeDetails = {
  period?: Ptr<number>;
  minted_stake_jettons?: Ptr<DecimalString>;
  stake_wallet?: Ptr<RawAddress>;
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

/** jvault_unstake and jvault_unstake_request */
export type JvaultUnstakeDetails = {
  source?: Ptr<RawAddress>;
  stake_wallet?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  exit_code?: Ptr<number>;
  asset?: Ptr<RawAddress>;
  staking_asset?: Ptr<RawAddress>;
};

// ---- tgBTC ----

export type TgbtcMintDetails = {
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  asset?: Ptr<RawAddress>;
  bitcoin_tx_id?: Ptr<string>;
  destination_wallet?: Ptr<RawAddress>;
};

export type TgbtcBurnDetails = {
  source?: Ptr<RawAddress>;
  source_wallet?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  asset?: Ptr<RawAddress>;
};

export type TgbtcNewKeyDetails = {
  source?: Ptr<RawAddress>;
  pubkey?: Ptr<string>;
  coordinator?: Ptr<RawAddress>;
  pegout?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  asset?: Ptr<RawAddress>;
};

export type TgbtcDkgLogDetails = {
  coordinator?: Ptr<RawAddress>;
  pubkey?: Ptr<string>;
  timestamp?: Ptr<DecimalString>;
};

// ---- coffee ----

export type CoffeeCreatePoolDetails = {
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  initiator_1?: Ptr<RawAddress>;
  initiator_2?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  pool_creator_contract?: Ptr<RawAddress>;
  provided_asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  asset_1?: Ptr<RawAddress>;
  asset_2?: Ptr<RawAddress>;
  amount_1?: Ptr<DecimalString>;
  amount_2?: Ptr<DecimalString>;
  lp_tokens_minted?: Ptr<DecimalString>;
};

export type CoffeeCreatePoolCreatorDetails = {
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  deposit_recipient?: Ptr<RawAddress>;
  pool_creator_contract?: Ptr<RawAddress>;
  provided_asset?: Ptr<RawAddress>;
  asset_1?: Ptr<RawAddress>;
  asset_2?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CoffeeStakingDepositDetails = {
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  pool_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  minted_item_address?: Ptr<RawAddress>;
  minted_item_index?: Ptr<DecimalString>;
};

export type CoffeeStakingWithdrawDetails = {
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  pool?: Ptr<RawAddress>;
  pool_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  nft_address?: Ptr<RawAddress>;
  nft_index?: Ptr<DecimalString>;
  points?: Ptr<DecimalString>;
};

export type CoffeeStakingClaimRewardsDetails = {
  pool?: Ptr<RawAddress>;
  pool_jetton_wallet?: Ptr<RawAddress>;
  recipient?: Ptr<RawAddress>;
  recipient_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CoffeeMevProtectHoldFundsDetails = {
  source?: Ptr<RawAddress>;
  source_jetton_wallet?: Ptr<RawAddress>;
  mev_contract?: Ptr<RawAddress>;
  mev_contract_jetton_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CoffeeCreateVaultDetails = {
  source?: Ptr<RawAddress>;
  vault?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  value?: Ptr<DecimalString>;
};

// ---- LayerZero ----

/** Go uint64 members (request id, fees) arrive as JSON numbers. */
export type LayerZeroSendData = {
  send_request_id?: Ptr<number>;
  msglib_manager?: Ptr<string>;
  msglib?: Ptr<string>;
  uln?: Ptr<RawAddress>;
  native_fee?: Ptr<number>;
  zro_fee?: Ptr<number>;
  endpoint?: Ptr<RawAddress>;
  channel?: Ptr<RawAddress>;
};

export type LayerZeroPacketData = {
  src_oapp?: Ptr<string>;
  dst_oapp?: Ptr<string>;
  src_eid?: Ptr<number>;
  dst_eid?: Ptr<number>;
  nonce?: Ptr<number>;
  guid?: Ptr<string>;
  message?: Ptr<string>;
};

export type LayerZeroSendDetails = {
  initiator?: Ptr<RawAddress>;
  layerzero_send_data?: LayerZeroSendData;
  layerzero_packet_data?: LayerZeroPacketData;
};

export type LayerZeroSendTokensDetails = {
  sender?: Ptr<RawAddress>;
  sender_wallet?: Ptr<RawAddress>;
  oapp?: Ptr<RawAddress>;
  oapp_wallet?: Ptr<RawAddress>;
  asset?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
  layerzero_send_data?: LayerZeroSendData;
  layerzero_packet_data?: LayerZeroPacketData;
};

export type LayerZeroReceiveDetails = {
  sender?: Ptr<RawAddress>;
  oapp?: Ptr<RawAddress>;
  channel?: Ptr<RawAddress>;
  layerzero_packet_data?: LayerZeroPacketData;
};

export type LayerZeroCommitPacketDetails = {
  sender?: Ptr<RawAddress>;
  endpoint?: Ptr<RawAddress>;
  uln?: Ptr<RawAddress>;
  uln_connection?: Ptr<RawAddress>;
  channel?: Ptr<RawAddress>;
  msglib_connection?: Ptr<RawAddress>;
  layerzero_packet_data?: LayerZeroPacketData;
};

export type LayerZeroDvnVerifyDetails = {
  initiator?: Ptr<RawAddress>;
  nonce?: Ptr<number>;
  status?: Ptr<string>;
  dvn?: Ptr<RawAddress>;
  proxy?: Ptr<RawAddress>;
  uln?: Ptr<RawAddress>;
  uln_connection?: Ptr<RawAddress>;
};

// ---- cocoon ----

export type CocoonWorkerPayoutDetails = {
  payout_type?: Ptr<string>;
  query_id?: Ptr<DecimalString>;
  new_tokens?: Ptr<DecimalString>;
  worker_state?: Ptr<number>;
  worker_tokens?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CocoonProxyPayoutDetails = {
  query_id?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

/** cocoon_proxy_charge and cocoon_grant_refund (the latter with `amount`) */
export type CocoonChargeDetails = {
  query_id?: Ptr<DecimalString>;
  new_tokens_used?: Ptr<DecimalString>;
  expected_address?: Ptr<string>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CocoonClientTopUpDetails = {
  query_id?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CocoonRegisterProxyDetails = {
  query_id?: Ptr<DecimalString>;
  destination?: Ptr<RawAddress>;
};

export type CocoonUnregisterProxyDetails = {
  query_id?: Ptr<DecimalString>;
  seqno?: Ptr<number>;
  destination?: Ptr<RawAddress>;
};

export type CocoonClientRegisterDetails = {
  query_id?: Ptr<DecimalString>;
  nonce?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

export type CocoonClientChangeSecretHashDetails = {
  query_id?: Ptr<DecimalString>;
  new_secret_hash?: Ptr<string>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

export type CocoonClientRequestRefundDetails = {
  query_id?: Ptr<DecimalString>;
  via_wallet?: Ptr<boolean>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
};

export type CocoonClientIncreaseStakeDetails = {
  query_id?: Ptr<DecimalString>;
  new_stake?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

export type CocoonClientWithdrawDetails = {
  query_id?: Ptr<DecimalString>;
  withdraw_amount?: Ptr<DecimalString>;
  source?: Ptr<RawAddress>;
  destination?: Ptr<RawAddress>;
  amount?: Ptr<DecimalString>;
};

// ---- the map ----

/** Every action type the reference knows (action_versioning.go, plus the API-side `extra_currency_transfer`). */
export interface ActionDetailsByType {
  call_contract: CallContractDetails;
  contract_deploy: ContractDeployDetails;
  ton_transfer: TonTransferDetails;
  /** a ton_transfer or call_contract that carries extra currencies, renamed by the API (details unchanged) */
  extra_currency_transfer: TonTransferDetails | CallContractDetails;
  tick_tock: TickTockDetails;
  unknown: UnsupportedActionDetails;

  jetton_transfer: JettonTransferDetails;
  jetton_burn: JettonBurnDetails;
  jetton_mint: JettonMintDetails;
  jetton_swap: JettonSwapDetails;

  dex_deposit_liquidity: DexDepositLiquidityDetails;
  dex_withdraw_liquidity: DexWithdrawLiquidityDetails;
  tonco_deploy_pool: ToncoDeployPoolDetails;
  dedust_v2_claim_fees: DedustV2ClaimDetails;
  dedust_v2_claim_reward: DedustV2ClaimDetails;

  nft_mint: NftMintDetails;
  nft_transfer: NftTransferDetails;
  nft_purchase: NftTransferDetails;
  nft_discovery: NftDiscoveryDetails;
  nft_put_on_sale: NftPutOnSaleDetails;
  nft_put_on_auction: NftPutOnAuctionDetails;
  teleitem_start_auction: NftPutOnAuctionDetails;
  nft_update_sale: NftUpdateSaleDetails;
  nft_cancel_sale: NftCancelSaleDetails;
  nft_cancel_auction: NftAuctionEndDetails;
  teleitem_cancel_auction: NftAuctionEndDetails;
  nft_finish_auction: NftAuctionEndDetails;
  auction_bid: AuctionBidDetails;
  auction_outbid: AuctionOutbidDetails;

  change_dns: ChangeDnsDetails;
  delete_dns: DeleteDnsDetails;
  renew_dns: RenewDnsDetails;
  dns_purchase: DnsPurchaseDetails;
  dns_release: DnsReleaseDetails;

  stake_deposit: StakeDepositDetails;
  stake_withdrawal: StakeWithdrawalDetails;
  stake_withdrawal_request: StakeWithdrawalRequestDetails;
  election_deposit: ElectionDetails;
  election_recover: ElectionDetails;
  subscribe: SubscriptionDetails;
  unsubscribe: SubscriptionDetails;

  multisig_create_order: MultisigCreateOrderDetails;
  multisig_approve: MultisigApproveDetails;
  multisig_execute: MultisigExecuteDetails;
  vesting_send_message: VestingSendMessageDetails;
  vesting_add_whitelist: VestingAddWhitelistDetails;

  evaa_supply: EvaaSupplyDetails;
  evaa_withdraw: EvaaWithdrawDetails;
  evaa_liquidate: EvaaLiquidateDetails;
  jvault_stake: JvaultStakeDetails;
  jvault_unstake: JvaultUnstakeDetails;
  jvault_unstake_request: JvaultUnstakeDetails;
  jvault_claim: JvaultClaimDetails;

  tgbtc_mint: TgbtcMintDetails;
  tgbtc_mint_fallback: TgbtcMintDetails;
  tgbtc_burn: TgbtcBurnDetails;
  tgbtc_burn_fallback: TgbtcBurnDetails;
  tgbtc_new_key: TgbtcNewKeyDetails;
  tgbtc_new_key_fallback: TgbtcNewKeyDetails;
  tgbtc_dkg_log_fallback: TgbtcDkgLogDetails;

  coffee_create_pool: CoffeeCreatePoolDetails;
  coffee_create_pool_creator: CoffeeCreatePoolCreatorDetails;
  coffee_staking_deposit: CoffeeStakingDepositDetails;
  coffee_staking_withdraw: CoffeeStakingWithdrawDetails;
  coffee_staking_claim_rewards: CoffeeStakingClaimRewardsDetails;
  coffee_mev_protect_hold_funds: CoffeeMevProtectHoldFundsDetails;
  /** no Go mapping: printed as the unsupported-type error */
  coffee_mev_protect_failed_swap: UnsupportedActionDetails;
  coffee_create_vault: CoffeeCreateVaultDetails;

  layerzero_send: LayerZeroSendDetails;
  layerzero_send_tokens: LayerZeroSendTokensDetails;
  layerzero_receive: LayerZeroReceiveDetails;
  layerzero_commit_packet: LayerZeroCommitPacketDetails;
  layerzero_dvn_verify: LayerZeroDvnVerifyDetails;

  cocoon_worker_payout: CocoonWorkerPayoutDetails;
  cocoon_proxy_payout: CocoonProxyPayoutDetails;
  cocoon_proxy_charge: CocoonChargeDetails;
  cocoon_grant_refund: CocoonChargeDetails;
  cocoon_client_top_up: CocoonClientTopUpDetails;
  cocoon_register_proxy: CocoonRegisterProxyDetails;
  cocoon_unregister_proxy: CocoonUnregisterProxyDetails;
  cocoon_client_register: CocoonClientRegisterDetails;
  cocoon_client_change_secret_hash: CocoonClientChangeSecretHashDetails;
  cocoon_client_request_refund: CocoonClientRequestRefundDetails;
  cocoon_client_increase_stake: CocoonClientIncreaseStakeDetails;
  cocoon_client_withdraw: CocoonClientWithdrawDetails;
}

export type ActionType = keyof ActionDetailsByType;
