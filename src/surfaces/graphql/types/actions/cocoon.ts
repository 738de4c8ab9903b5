/** Details of Cocoon (confidential compute network) payments and registrations (v3.md §4.4 "Cocoon"). */
import { detailsType } from './kit.js';

export const COCOON_DETAILS = [
  detailsType('CocoonWorkerPayoutDetails', ['cocoon_worker_payout'], 'A Cocoon worker paid', (f) => ({
    payoutType: f.string('payout_type', (a) => a.details.payout_type),
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    newTokens: f.bigint('new_tokens', (a) => a.details.new_tokens),
    workerState: f.int('worker_state', (a) => a.details.worker_state),
    workerTokens: f.bigint('worker_tokens', (a) => a.details.worker_tokens),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('CocoonProxyPayoutDetails', ['cocoon_proxy_payout'], 'A Cocoon proxy paid', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonChargeDetails', ['cocoon_proxy_charge', 'cocoon_grant_refund'], 'Tokens used charged by a Cocoon proxy, or refunded', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    newTokensUsed: f.bigint('new_tokens_used', (a) => a.details.new_tokens_used),
    expectedAddress: f.string('expected_address', (a) => a.details.expected_address),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount, 'cocoon_grant_refund only'),
  })),
  detailsType('CocoonClientTopUpDetails', ['cocoon_client_top_up'], 'A Cocoon client topped up', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('CocoonRegisterProxyDetails', ['cocoon_register_proxy'], 'A Cocoon proxy registered', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonUnregisterProxyDetails', ['cocoon_unregister_proxy'], 'A Cocoon proxy unregistered', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    seqno: f.int('seqno', (a) => a.details.seqno),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonClientRegisterDetails', ['cocoon_client_register'], 'A Cocoon client registered', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    nonce: f.bigint('nonce', (a) => a.details.nonce),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonClientChangeSecretHashDetails', ['cocoon_client_change_secret_hash'], 'A Cocoon client changed its secret hash', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    newSecretHash: f.string('new_secret_hash', (a) => a.details.new_secret_hash),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonClientRequestRefundDetails', ['cocoon_client_request_refund'], 'A Cocoon client asked for a refund', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    viaWallet: f.boolean('via_wallet', (a) => a.details.via_wallet),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('CocoonClientIncreaseStakeDetails', ['cocoon_client_increase_stake'], 'A Cocoon client increased its stake', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    newStake: f.bigint('new_stake', (a) => a.details.new_stake),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('CocoonClientWithdrawDetails', ['cocoon_client_withdraw'], 'A Cocoon client withdrew', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    withdrawAmount: f.bigint('withdraw_amount', (a) => a.details.withdraw_amount),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
];
