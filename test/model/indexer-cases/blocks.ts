/**
 * The reference's block data (what its matchers build: `CocoonWorkerPayoutData`, the jetton mint's and NFT
 * transfer's dicts, `TONStakersDepositData`, ...) read on a local block, whose data is the v3 details of the action
 * it becomes: per block type, the details key of each member that has one. A member without one (a Cocoon worker
 * payout's worker contract, a tonstakers deposit's jetton wallet: v3 prints neither) is reported as not compared.
 */
import type { ActionDetailsByType, ActionType } from '../../../src/api/v3/action-details.js';
import type { Block } from '../../../src/model/v3/actions/index.js';
import { NotInV3 } from './expect.js';

/** A member's details key, and how the reference's value reads from the printed one when they differ in form. */
interface Member {
  key: string;
  read?: (printed: unknown) => unknown;
}

type Key<T extends ActionType> = keyof ActionDetailsByType[T] & string;

/** The members of a block printed as a `T` action: a misspelt details key does not compile. */
function data<T extends ActionType>(members: Record<string, Key<T> | { key: Key<T>; read: (printed: unknown) => unknown }>): Readonly<Record<string, Member>> {
  return Object.fromEntries(Object.entries(members).map(([m, k]) => [m, typeof k === 'string' ? { key: k } : k]));
}

/** Members kept under their own name. */
const same = <T extends ActionType>(keys: readonly Key<T>[]): Record<string, Key<T>> => Object.fromEntries(keys.map((k) => [k, k]));

export const BLOCK_DATA: Readonly<Record<string, Readonly<Record<string, Member>>>> = {
  ton_transfer: data<'ton_transfer'>(same<'ton_transfer'>(['source', 'destination', 'value', 'comment', 'encrypted'])),
  jetton_mint: data<'jetton_mint'>({ asset: 'asset', amount: 'amount', to: 'receiver', to_jetton_wallet: 'receiver_jetton_wallet', ton_amount: 'ton_amount' }),
  nft_mint: data<'nft_mint'>({ source: 'owner', address: 'nft_item', index: 'nft_item_index', collection: 'nft_collection' }),
  nft_transfer: data<'nft_transfer'>({
    prev_owner: 'old_owner',
    real_prev_owner: 'real_old_owner',
    ...same<'nft_transfer'>(['new_owner', 'query_id', 'forward_amount', 'response_destination', 'custom_payload', 'forward_payload', 'is_purchase', 'price', 'marketplace', 'marketplace_address']),
  }),
  // `value` is the deposit less the pool's 1 TON fee, which the action prints as its amount
  tonstakers_deposit: data<'stake_deposit'>({ source: 'stake_holder', pool: 'pool', value: 'amount', tokens_minted: 'tokens_minted', asset: 'asset' }),
  tonstakers_withdraw: data<'stake_withdrawal'>({ burnt_nft: 'payout_nft', ...same<'stake_withdrawal'>(['stake_holder', 'pool', 'tokens_burnt', 'amount', 'asset']) }),
  cocoon_worker_payout: data<'cocoon_worker_payout'>({
    proxy_contract: 'source',
    worker_owner: 'destination',
    payout_amount: 'amount',
    ...same<'cocoon_worker_payout'>(['payout_type', 'query_id', 'new_tokens', 'worker_state', 'worker_tokens']),
  }),
  cocoon_proxy_payout: data<'cocoon_proxy_payout'>({ proxy_contract: 'source', proxy_owner: 'destination', query_id: 'query_id' }),
  cocoon_proxy_charge: data<'cocoon_proxy_charge'>({
    proxy_contract: 'source',
    client_contract: 'destination',
    ...same<'cocoon_proxy_charge'>(['query_id', 'new_tokens_used', 'expected_address']),
  }),
  cocoon_client_top_up: data<'cocoon_client_top_up'>({ sender: 'source', client_contract: 'destination', top_up_amount: 'amount', query_id: 'query_id' }),
  cocoon_register_proxy: data<'cocoon_register_proxy'>({ root_contract: 'destination', query_id: 'query_id' }),
  cocoon_unregister_proxy: data<'cocoon_unregister_proxy'>({ root_contract: 'destination', query_id: 'query_id', seqno: 'seqno' }),
  cocoon_client_register: data<'cocoon_client_register'>({ owner: 'source', client_contract: 'destination', query_id: 'query_id', nonce: 'nonce' }),
  cocoon_client_change_secret_hash: data<'cocoon_client_change_secret_hash'>({
    owner: 'source',
    client_contract: 'destination',
    query_id: 'query_id',
    // the block keeps the hash as an integer, the action prints it in hex
    new_secret_hash: { key: 'new_secret_hash', read: (hex) => (typeof hex === 'string' ? BigInt(`0x${hex}`) : hex) },
  }),
  cocoon_client_request_refund: data<'cocoon_client_request_refund'>({ owner: 'source', client_contract: 'destination', query_id: 'query_id', via_wallet: 'via_wallet' }),
  cocoon_grant_refund: data<'cocoon_grant_refund'>({
    proxy_contract: 'source',
    refund_recipient: 'destination',
    payout_amount: 'amount',
    ...same<'cocoon_grant_refund'>(['query_id', 'new_tokens_used', 'expected_address']),
  }),
  cocoon_client_increase_stake: data<'cocoon_client_increase_stake'>({ owner: 'source', client_contract: 'destination', query_id: 'query_id', new_stake: 'new_stake' }),
  cocoon_client_withdraw: data<'cocoon_client_withdraw'>({ owner: 'source', client_contract: 'destination', query_id: 'query_id', withdraw_amount: 'withdraw_amount' }),
};

/** A block's `failed`, its `min_lt` (which selectors pick by) or a `data.<member>`; NotInV3 when the block keeps none. */
export function blockValue(b: Block, path: string): unknown {
  if (path === 'failed') return b.failed;
  if (path === 'min_lt') return b.minLt;
  const member = /^data\.(\w+)$/.exec(path)?.[1];
  const m = member === undefined ? undefined : BLOCK_DATA[b.type]?.[member];
  if (!m) throw new NotInV3(`${b.type}: no local counterpart of ${path}`);
  const printed = b.data[m.key];
  return m.read && printed !== null && printed !== undefined ? m.read(printed) : printed;
}

/** A block's columns: its `data` is a composite. */
export const blockComposite = (column: string): boolean => column === 'data';
