/**
 * The reference indexer's action columns (its `actions` table: source, destination, asset, amount, the
 * `<type>_data` composites) as v3 details keys, per type: what ton-index-go's `ParseRawAction` reads from each
 * column to print a v3 action. A case's expected column is compared with the details key named here; a column
 * v3 does not print (e.g. `dex_jetton_wallet_1`) has no entry and is reported as not comparable.
 */

/** `column` or `<type>_data.member` → details key */
export type ColumnMap = Readonly<Record<string, string>>;

const JETTON_TRANSFER_DATA = ['query_id', 'response_destination', 'forward_amount', 'custom_payload', 'forward_payload', 'comment', 'is_encrypted_comment'];
const NFT_TRANSFER: ColumnMap = {
  asset: 'nft_collection',
  asset_secondary: 'nft_item',
  source: 'old_owner',
  destination: 'new_owner',
  ...same('nft_transfer_data', [
    'query_id', 'is_purchase', 'price', 'forward_amount', 'custom_payload', 'forward_payload', 'response_destination', 'marketplace',
    'marketplace_address', 'payout_amount', 'payout_address', 'payout_comment', 'payout_comment_encrypted', 'payout_comment_encoded',
    'royalty_amount', 'royalty_address', 'nft_item_index',
  ]),
  'nft_transfer_data.real_prev_owner': 'real_old_owner',
};
const STAKING: ColumnMap = {
  source: 'stake_holder',
  destination: 'pool',
  asset: 'asset',
  'staking_data.provider': 'provider',
  'staking_data.tokens_minted': 'tokens_minted',
  'staking_data.tokens_burnt': 'tokens_burnt',
  'staking_data.ts_nft': 'payout_nft',
};
const LIQUIDITY_AMOUNTS = (data: string, suffix: string): ColumnMap => ({
  [`${data}.dex`]: 'dex',
  [`${data}.amount1`]: 'amount_1',
  [`${data}.amount2`]: 'amount_2',
  [`${data}.asset1${suffix}`]: 'asset_1',
  [`${data}.asset2${suffix}`]: 'asset_2',
  [`${data}.user_jetton_wallet_1`]: 'user_jetton_wallet_1',
  [`${data}.user_jetton_wallet_2`]: 'user_jetton_wallet_2',
  [`${data}.tick_lower`]: 'tick_lower',
  [`${data}.tick_upper`]: 'tick_upper',
});

/** `<data>.m` → `m` for each member kept under its own name. */
function same(data: string, members: readonly string[]): Record<string, string> {
  return Object.fromEntries(members.map((m) => [`${data}.${m}`, m]));
}

/** Cocoon actions print source, destination, amount and their `<type>_data` members under the same names. */
const cocoon = (type: string, members: readonly string[], amount = true): ColumnMap => ({
  source: 'source',
  destination: 'destination',
  ...(amount ? { amount: 'amount' } : {}),
  ...same(`${type}_data`, members),
});

/** tgBTC burns, matched from the jetton burn or (the fallback) from the log alone. */
const TGBTC_BURN: ColumnMap = { source: 'source', source_secondary: 'source_wallet', destination: 'destination', amount: 'amount', asset: 'asset' };

/** DeDust v2 claims, in the withdrawal's columns with the position and the payout wallets. */
const DEDUST_V2_CLAIM: ColumnMap = {
  source: 'source',
  destination: 'pool',
  destination_secondary: 'position',
  ...LIQUIDITY_AMOUNTS('dex_withdraw_liquidity_data', '_out'),
  ...same('dex_withdraw_liquidity_data', ['lp_tokens_burnt', 'is_refund', 'dex_wallet_1', 'dex_wallet_2', 'dex_jetton_wallet_1', 'dex_jetton_wallet_2']),
};

/** jVault unstakes and unstake requests; `opcode` holds the exit code of a request that failed. */
const JVAULT_UNSTAKE: ColumnMap = { source: 'source', source_secondary: 'stake_wallet', destination: 'pool', amount: 'amount', opcode: 'exit_code', asset: 'asset', asset2: 'staking_asset' };

/** swap.coffee staking deposits and withdrawals: the staker, the pool and their wallets. */
const COFFEE_STAKING: ColumnMap = {
  source: 'source',
  source_secondary: 'source_jetton_wallet',
  destination: 'pool',
  destination_secondary: 'pool_jetton_wallet',
  asset: 'asset',
  amount: 'amount',
};

/** `<data>.m` → `<data>.m`: members the details print nested under the column's own name. */
const nested = (data: string, members: readonly string[]): ColumnMap => Object.fromEntries(members.map((m) => [`${data}.${m}`, `${data}.${m}`]));
/** A LayerZero packet's and send's columns. */
const LZ_PACKET = nested('layerzero_packet_data', ['src_oapp', 'dst_oapp', 'src_eid', 'dst_eid', 'nonce', 'guid', 'message']);
const LZ_SEND = nested('layerzero_send_data', ['send_request_id', 'native_fee', 'zro_fee', 'endpoint', 'channel', 'uln', 'msglib_manager', 'msglib']);

export const COLUMNS: Readonly<Record<string, ColumnMap>> = {
  layerzero_commit_packet: {
    source: 'sender',
    source_secondary: 'endpoint',
    destination: 'uln',
    destination_secondary: 'uln_connection',
    asset: 'channel',
    asset_secondary: 'msglib_connection',
    ...LZ_PACKET,
  },
  layerzero_send: { source: 'initiator', ...LZ_SEND, ...LZ_PACKET },
  layerzero_send_tokens: {
    source: 'sender',
    source_secondary: 'sender_wallet',
    destination: 'oapp',
    destination_secondary: 'oapp_wallet',
    asset: 'asset',
    amount: 'amount',
    ...LZ_SEND,
    ...LZ_PACKET,
  },
  layerzero_receive: { source: 'sender', destination: 'oapp', destination_secondary: 'channel', ...LZ_PACKET },
  layerzero_dvn_verify: {
    source: 'initiator',
    ...same('layerzero_dvn_verify_data', ['nonce', 'status', 'dvn', 'proxy', 'uln', 'uln_connection']),
  },
  coffee_create_vault: { source: 'source', destination: 'vault', asset: 'asset', value: 'value' },
  coffee_mev_protect_hold_funds: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'mev_contract',
    destination_secondary: 'mev_contract_jetton_wallet',
    asset: 'asset',
    amount: 'amount',
  },
  // ParseRawAction prints a creator's provided asset (`asset`) as asset_1 and the pool's first asset (`asset2`) as
  // asset_2; the pool's second (`asset2_secondary`) is not printed
  coffee_create_pool_creator: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'deposit_recipient',
    destination_secondary: 'pool_creator_contract',
    asset: 'asset_1',
    asset2: 'asset_2',
    amount: 'amount',
  },
  coffee_create_pool: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'pool',
    asset: 'asset_1',
    asset2: 'asset_2',
    amount: 'amount',
    ...same('coffee_create_pool_data', ['amount_1', 'amount_2', 'initiator_1', 'initiator_2', 'provided_asset', 'lp_tokens_minted']),
  },
  coffee_staking_deposit: { ...COFFEE_STAKING, ...same('coffee_staking_deposit_data', ['minted_item_address', 'minted_item_index']) },
  coffee_staking_withdraw: { ...COFFEE_STAKING, ...same('coffee_staking_withdraw_data', ['nft_address', 'nft_index', 'points']) },
  coffee_staking_claim_rewards: {
    source: 'pool',
    source_secondary: 'pool_jetton_wallet',
    destination: 'recipient',
    destination_secondary: 'recipient_jetton_wallet',
    asset: 'asset',
    amount: 'amount',
  },
  tonco_deploy_pool: {
    source: 'source',
    destination: 'router',
    destination_secondary: 'pool',
    'tonco_deploy_pool_data.jetton0_router_wallet': 'router_jetton_wallet_1',
    'tonco_deploy_pool_data.jetton1_router_wallet': 'router_jetton_wallet_2',
    'tonco_deploy_pool_data.jetton0_minter': 'jetton_minter_1',
    'tonco_deploy_pool_data.jetton1_minter': 'jetton_minter_2',
    ...same('tonco_deploy_pool_data', ['tick_spacing', 'initial_price_x96', 'protocol_fee', 'lp_fee_base', 'lp_fee_current', 'pool_active']),
  },
  jvault_stake: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'pool',
    asset: 'asset',
    amount: 'amount',
    ...same('jvault_stake_data', ['period', 'stake_wallet', 'minted_stake_jettons']),
  },
  jvault_unstake: JVAULT_UNSTAKE,
  jvault_unstake_request: JVAULT_UNSTAKE,
  jvault_claim: {
    source: 'source',
    source_secondary: 'stake_wallet',
    destination: 'pool',
    // the reference's two lists are printed as one list of pairs
    'jvault_claim_data.claimed_jettons.0': 'claimed_rewards.0.jetton',
    'jvault_claim_data.claimed_amounts.0': 'claimed_rewards.0.amount',
  },
  dedust_v2_claim_fees: DEDUST_V2_CLAIM,
  dedust_v2_claim_reward: DEDUST_V2_CLAIM,
  evaa_supply: {
    source: 'source',
    source_secondary: 'source_wallet',
    destination: 'recipient',
    destination_secondary: 'recipient_contract',
    asset: 'asset',
    amount: 'amount',
    ...same('evaa_supply_data', ['master', 'master_jetton_wallet', 'recipient_jetton_wallet', 'is_ton', 'asset_id']),
  },
  evaa_withdraw: {
    source: 'source',
    destination: 'recipient',
    destination_secondary: 'owner_contract',
    asset: 'asset',
    amount: 'amount',
    ...same('evaa_withdraw_data', ['master', 'master_jetton_wallet', 'recipient_jetton_wallet', 'fail_reason', 'asset_id']),
  },
  vesting_send_message: { source: 'source', destination: 'vesting', destination_secondary: 'destination', amount: 'amount', ...same('vesting_send_message_data', ['query_id', 'message_boc']) },
  vesting_add_whitelist: { source: 'source', destination: 'vesting', ...same('vesting_add_whitelist_data', ['query_id', 'accounts_added']) },
  tgbtc_mint: { source: 'source', destination: 'destination', destination_secondary: 'destination_wallet', amount: 'amount', asset: 'asset', 'extra.btc_txid': 'bitcoin_tx_id' },
  tgbtc_burn: TGBTC_BURN,
  tgbtc_burn_fallback: TGBTC_BURN,
  tgbtc_new_key: { source: 'source', destination: 'coordinator', destination_secondary: 'pegout', amount: 'amount', 'extra.pubkey': 'pubkey' },
  tgbtc_dkg_log_fallback: { source: 'coordinator', value: 'timestamp', 'extra.pubkey': 'pubkey' },
  cocoon_worker_payout: cocoon('cocoon_worker_payout', ['payout_type', 'query_id', 'new_tokens', 'worker_state', 'worker_tokens']),
  cocoon_proxy_payout: cocoon('cocoon_proxy_payout', ['query_id'], false),
  cocoon_proxy_charge: cocoon('cocoon_proxy_charge', ['query_id', 'new_tokens_used', 'expected_address'], false),
  cocoon_grant_refund: cocoon('cocoon_grant_refund', ['query_id', 'new_tokens_used', 'expected_address']),
  cocoon_client_top_up: cocoon('cocoon_client_top_up', ['query_id']),
  cocoon_register_proxy: cocoon('cocoon_register_proxy', ['query_id'], false),
  cocoon_unregister_proxy: cocoon('cocoon_unregister_proxy', ['query_id', 'seqno'], false),
  cocoon_client_register: cocoon('cocoon_client_register', ['query_id', 'nonce'], false),
  cocoon_client_change_secret_hash: cocoon('cocoon_client_change_secret_hash', ['query_id', 'new_secret_hash'], false),
  cocoon_client_request_refund: cocoon('cocoon_client_request_refund', ['query_id', 'via_wallet'], false),
  cocoon_client_increase_stake: cocoon('cocoon_client_increase_stake', ['query_id', 'new_stake']),
  cocoon_client_withdraw: cocoon('cocoon_client_withdraw', ['query_id', 'withdraw_amount']),
  ton_transfer: { source: 'source', destination: 'destination', value: 'value', 'ton_transfer_data.content': 'comment', 'ton_transfer_data.encrypted': 'encrypted' },
  call_contract: { source: 'source', destination: 'destination', value: 'value', opcode: 'opcode' },
  contract_deploy: { source: 'source', destination: 'destination', value: 'value', opcode: 'opcode' },
  jetton_transfer: {
    asset: 'asset',
    source: 'sender',
    source_secondary: 'sender_jetton_wallet',
    destination: 'receiver',
    destination_secondary: 'receiver_jetton_wallet',
    amount: 'amount',
    ...same('jetton_transfer_data', JETTON_TRANSFER_DATA),
  },
  jetton_burn: { source: 'owner', source_secondary: 'owner_jetton_wallet', asset: 'asset', amount: 'amount' },
  jetton_mint: { asset: 'asset', amount: 'amount', value: 'ton_amount', destination: 'receiver', destination_secondary: 'receiver_jetton_wallet' },
  nft_mint: { source: 'owner', asset: 'nft_collection', asset_secondary: 'nft_item', 'nft_mint_data.nft_item_index': 'nft_item_index' },
  nft_transfer: NFT_TRANSFER,
  nft_purchase: NFT_TRANSFER,
  jetton_swap: {
    source: 'sender',
    asset: 'asset_in',
    asset2: 'asset_out',
    // source_secondary, destination, destination_secondary: ParseRawAction prints the transfers' own columns
    // instead (compared through jetton_swap_data); a v1 swap's destination_secondary is the router's wallet of the
    // asked asset, which v3 does not print
    ...same('jetton_swap_data', ['dex', 'sender', 'dex_incoming_transfer', 'dex_outgoing_transfer', 'peer_swaps', 'min_out_amount']),
  },
  dex_deposit_liquidity: {
    source: 'source',
    destination: 'pool',
    destination_secondary: 'destination_liquidity',
    ...LIQUIDITY_AMOUNTS('dex_deposit_liquidity_data', ''),
    ...same('dex_deposit_liquidity_data', ['lp_tokens_minted', 'target_asset_1', 'target_asset_2', 'target_amount_1', 'target_amount_2', 'vault_excesses', 'nft_index', 'nft_address']),
  },
  dex_withdraw_liquidity: {
    source: 'source',
    destination: 'pool',
    ...LIQUIDITY_AMOUNTS('dex_withdraw_liquidity_data', '_out'),
    ...same('dex_withdraw_liquidity_data', ['lp_tokens_burnt', 'is_refund']),
    'dex_withdraw_liquidity_data.burned_nft_index': 'burnt_nft_index',
    'dex_withdraw_liquidity_data.burned_nft_address': 'burnt_nft_address',
  },
  stake_deposit: { ...STAKING, amount: 'amount', asset2: 'source_asset' },
  stake_withdrawal: { ...STAKING, amount: 'amount' },
  stake_withdrawal_request: { ...STAKING, amount: 'tokens_burnt' },
  change_dns: { source: 'source', destination: 'asset', asset: 'nft_collection' },
  delete_dns: { source: 'source', destination: 'asset', asset: 'nft_collection' },
  renew_dns: { source: 'source', destination: 'asset', asset: 'nft_collection' },
};
