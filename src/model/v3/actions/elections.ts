/**
 * Validator stakes at the elector: a stake sent (`new_stake`, confirmed by the elector's answer) and a stake
 * recovered (`recover_stake`, the elector's answer carries the coins). The reference's rules:
 * `indexer/events/blocks/elections.py` of toncenter/ton-indexer.
 */
import { defineMatcher, found, isCall, type Block } from './block.js';

export const ELECTOR_OP = {
  newStake: 0x4e73744b,
  newStakeConfirmation: 0xf374484c,
  recoverStake: 0x47657424,
  recoverStakeResponse: 0xf96f7324,
} as const;

/** The elector's answer to `b` (excesses are not part of an election action). */
const answer = (b: Block, op: number): Block | undefined => b.next.find((n) => isCall(n, op));

/** v3 prints `amount` only when there is one (a recovery the elector did not answer has none). */
const amount = (v: bigint | null | undefined): { amount?: string } => (v != null ? { amount: v.toString() } : {});

export const electionDeposit = defineMatcher({
  name: 'election_deposit',
  addressKeys: { election_deposit: ['stake_holder'] },
  async match(b) {
    if (!isCall(b, ELECTOR_OP.newStake)) return null;
    const node = b.nodes[0]!;
    const confirmed = answer(b, ELECTOR_OP.newStakeConfirmation);
    return found({
      type: 'election_deposit',
      include: confirmed ? [b, confirmed] : [b],
      // a stake the elector did not confirm was returned
      failed: !confirmed,
      details: { stake_holder: node.source, ...amount(node.value) },
    });
  },
});

export const electionRecover = defineMatcher({
  name: 'election_recover',
  addressKeys: { election_recover: ['stake_holder'] },
  async match(b) {
    if (!isCall(b, ELECTOR_OP.recoverStake)) return null;
    const response = answer(b, ELECTOR_OP.recoverStakeResponse);
    return found({
      type: 'election_recover',
      include: response ? [b, response] : [b],
      failed: !response,
      details: { stake_holder: b.nodes[0]!.source, ...amount(response?.nodes[0]!.value) },
    });
  },
});

export const ELECTION_MATCHERS = [electionDeposit, electionRecover];
