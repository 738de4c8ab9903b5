/**
 * Action type versions (v3.md §4.3, toncenter-newer.md §6): `supported_action_types` shortcuts and the hiding rule,
 * shared by every surface that selects a set (v3 REST and the graph, Emulate, Streaming). The shortcut table is the
 * reference's newest (`ton-index-go/index/models/action_versioning.go` at 1fa4fb13): v1 23 types, v2 46, v3 63, v4 75,
 * v5 79 = latest; tgbtc is in no version. Shortcuts expand recursively (depth 10 at most, cycles ignored), any other
 * string stands for itself, and v1 is always included.
 */

const V1 = [
  'call_contract', 'contract_deploy', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request',
  'dex_deposit_liquidity', 'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_burn', 'jetton_mint', 'jetton_swap',
  'change_dns', 'delete_dns', 'renew_dns', 'subscribe', 'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit',
  'election_recover', 'auction_bid', 'tick_tock',
];

const COCOON = [
  'cocoon_worker_payout', 'cocoon_proxy_payout', 'cocoon_proxy_charge', 'cocoon_client_top_up', 'cocoon_register_proxy',
  'cocoon_unregister_proxy', 'cocoon_client_register', 'cocoon_client_change_secret_hash', 'cocoon_client_request_refund',
  'cocoon_grant_refund', 'cocoon_client_increase_stake', 'cocoon_client_withdraw',
];

const LAYERZERO = ['layerzero_send', 'layerzero_send_tokens', 'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify'];

const NFT_V3 = [
  'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction',
  'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release',
];

const ACTION_TYPE_SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: V1,
  v2: [
    ...V1,
    'multisig_create_order', 'multisig_approve', 'multisig_execute', 'vesting_send_message', 'vesting_add_whitelist',
    'evaa_supply', 'evaa_withdraw', 'evaa_liquidate', 'jvault_stake', 'jvault_unstake', 'jvault_claim',
    'jvault_unstake_request', 'nft_discovery', 'tonco_deploy_pool', 'coffee_create_vault', 'coffee_create_pool_creator',
    'coffee_create_pool', 'coffee_mev_protect_hold_funds', 'coffee_mev_protect_failed_swap', 'coffee_staking_claim_rewards',
    'coffee_staking_deposit', 'coffee_staking_withdraw', 'unknown',
  ],
  v3: ['v2', ...NFT_V3, ...LAYERZERO],
  v4: ['v3', ...COCOON],
  // v1.3 added the DeDust v2 claims; the newest code the wallet key rotation and gasless requests too
  v5: ['v4', 'dedust_v2_claim_fees', 'dedust_v2_claim_reward', 'change_wallet_key', 'gasless_request'],
  latest: ['v5'],
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
  nft: ['nft_transfer', 'nft_mint', 'auction_bid'],
  'nft.v3': ['nft', ...NFT_V3],
  dns: ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
  'dns.v2': ['dns', 'dns_purchase', 'dns_release'],
  multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  vesting: ['vesting_send_message', 'vesting_add_whitelist'],
  evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
  coffee: [
    'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds',
    'coffee_staking_claim_rewards', 'coffee_staking_deposit', 'coffee_staking_withdraw',
  ],
  tgbtc: [
    'tgbtc_dkg_log_fallback', 'tgbtc_new_key', 'tgbtc_new_key_fallback', 'tgbtc_burn', 'tgbtc_burn_fallback', 'tgbtc_mint',
    'tgbtc_mint_fallback',
  ],
  layerzero: LAYERZERO,
  cocoon: COCOON,
};

const isShortcut = (name: string): boolean => Object.hasOwn(ACTION_TYPE_SHORTCUTS, name);

/** The set of action types a client supports: shortcuts expanded, v1 always in, default `latest`. */
export function expandActionTypes(requested: readonly string[] | undefined): Set<string> {
  const out = new Set<string>();
  const visit = (name: string, depth: number, seen: Set<string>): void => {
    if (depth > 10 || seen.has(name)) return;
    if (!isShortcut(name)) {
      out.add(name);
      return;
    }
    seen.add(name);
    for (const t of ACTION_TYPE_SHORTCUTS[name]!) visit(t, depth + 1, seen);
    seen.delete(name);
  };
  for (const name of requested?.length ? requested : ['latest']) visit(name, 0, new Set());
  visit('v1', 0, new Set());
  return out;
}

/** The hiding rule: the type is supported and no enclosing action's type is. */
export function actionVisible(type: string, ancestorTypes: readonly string[], supported: ReadonlySet<string>): boolean {
  return supported.has(type) && !ancestorTypes.some((t) => supported.has(t));
}
