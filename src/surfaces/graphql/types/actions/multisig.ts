/** Details of multisig orders and vesting wallets (v3.md §4.4 "Multisig and vesting"). */
import { detailsType } from './kit.js';

export const MULTISIG_DETAILS = [
  detailsType('MultisigCreateOrderDetails', ['multisig_create_order'], 'A multisig order created', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    orderSeqno: f.bigint('order_seqno', (a) => a.details.order_seqno),
    isCreatedBySigner: f.boolean('is_created_by_signer', (a) => a.details.is_created_by_signer),
    isSignedByCreator: f.boolean('is_signed_by_creator', (a) => a.details.is_signed_by_creator),
    creatorIndex: f.int('creator_index', (a) => a.details.creator_index),
    expirationDate: f.int('expiration_date', (a) => a.details.expiration_date, 'unix time'),
    orderBoc: f.string('order_boc', (a) => a.details.order_boc, 'BoC, base64'),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination, 'the multisig'),
    destinationOrder: f.account('destination_order', (a) => a.details.destination_order, 'the order contract'),
  })),
  detailsType('MultisigApproveDetails', ['multisig_approve'], 'A signer approved a multisig order', (f) => ({
    signerIndex: f.int('signer_index', (a) => a.details.signer_index),
    exitCode: f.int('exit_code', (a) => a.details.exit_code),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('MultisigExecuteDetails', ['multisig_execute'], 'An approved multisig order executed', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    orderSeqno: f.bigint('order_seqno', (a) => a.details.order_seqno),
    expirationDate: f.int('expiration_date', (a) => a.details.expiration_date, 'unix time'),
    approvalsNum: f.int('approvals_num', (a) => a.details.approvals_num),
    signersHash: f.string('signers_hash', (a) => a.details.signers_hash),
    orderBoc: f.string('order_boc', (a) => a.details.order_boc, 'BoC, base64'),
    source: f.account('source', (a) => a.details.source),
    destination: f.account('destination', (a) => a.details.destination),
  })),
  detailsType('VestingSendMessageDetails', ['vesting_send_message'], 'A message sent out of a vesting wallet', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    messageBoc: f.string('message_boc', (a) => a.details.message_boc, 'BoC, base64'),
    source: f.account('source', (a) => a.details.source),
    vesting: f.account('vesting', (a) => a.details.vesting),
    destination: f.account('destination', (a) => a.details.destination),
    amount: f.bigint('amount', (a) => a.details.amount),
  })),
  detailsType('VestingAddWhitelistDetails', ['vesting_add_whitelist'], 'Addresses added to a vesting wallet\'s whitelist', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    accountsAdded: f.accounts('accounts_added', (a) => a.details.accounts_added),
    source: f.account('source', (a) => a.details.source),
    vesting: f.account('vesting', (a) => a.details.vesting),
  })),
];
