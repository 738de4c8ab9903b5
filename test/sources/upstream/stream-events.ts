/**
 * Streaming API v2 events for the tests, in the reference's shapes (§5, §9) filled with a recorded toncenter v3
 * transaction (a testnet TON transfer): no streaming recording exists, so the transaction, its account state
 * after and its address book are real and the envelope is the reference's. In a clone without ../shared the
 * transaction is the reference's own §9 example.
 */
import type { LiveInterest } from '../../../src/live/feed.js';
import { hasShared, readSharedJson } from '../../helpers/shared.js';

interface Recorded {
  transactions: (Record<string, any> & { account: string; in_msg: { hash: string; [k: string]: unknown } })[];
  address_book: Record<string, unknown>;
}

const EXAMPLE: Recorded = {
  transactions: [
    {
      account: `0:${'AB'.repeat(32)}`,
      hash: 'dHgtaGFzaA==',
      lt: '600000000000002',
      now: 1760000000,
      in_msg: { hash: 'aW4tbXNnLWhhc2g=', source: null, destination: `0:${'AB'.repeat(32)}`, value: null },
      out_msgs: [],
      account_state_after: { hash: 'c3RhdGU=', balance: '4200000000', account_status: 'active', frozen_hash: null, data_hash: 'ZA==', code_hash: 'Yw==' },
    },
  ],
  address_book: {},
};

const recorded: Recorded = hasShared
  ? readSharedJson<Recorded>('fixtures/toncenter-recorded/cordialsys.crosschain.v3-transactions-ton-transfer-testnet.json')
  : EXAMPLE;

export const TX = recorded.transactions[0]!;
export const ACCOUNT: string = TX.account;
export const HASH_NORM: string = TX.in_msg.hash;

export const transactionsEvent = (finality: 'pending' | 'confirmed' | 'finalized', lt = TX.lt as string) => ({
  type: 'transactions',
  finality,
  trace_external_hash_norm: HASH_NORM,
  transactions: [{ ...TX, lt, finality, emulated: finality === 'pending' }],
  address_book: recorded.address_book,
});

export const accountStateEvent = (finality: 'confirmed' | 'finalized') => ({
  type: 'account_state_change',
  finality,
  account: ACCOUNT,
  state: { extra_currencies: null, ...TX.account_state_after },
});

export const invalidatedEvent = { type: 'trace_invalidated', trace_external_hash_norm: HASH_NORM };

/** A raw address made from a number, for interests of many accounts. */
export const addressOf = (n: number): string => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;

export const interestOf = (addresses: string[], types: LiveInterest['types'] = new Set(['transactions', 'account_state_change']), minFinality: LiveInterest['minFinality'] = 'pending'): LiveInterest => ({
  addresses: new Set(addresses),
  traceExternalHashNorms: new Set(),
  types,
  minFinality,
});
