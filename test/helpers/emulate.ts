/** What the Emulate API tests compare between two answers (emulated or executed) of the same message, and the messages they emulate. */
import { commentPayload, jettonTransferBody } from '../../src/sources/localnet/chain/contracts/index.js';
import { genesisTokens } from '../../src/sources/localnet/chain/genesis.js';
import type { KeyedWallet, LocalChain } from '../../src/sources/localnet/index.js';

const TON = 1_000_000_000n;
type Json = any;

/** The answer's transactions in lt order. */
export const emulatedTxs = (r: Json): Json[] => Object.values(r.transactions as Record<string, Json>).sort((a: Json, b: Json) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));

/** What must agree for one transaction (hashes, lt, time and created_lt differ by construction). */
export const txFacts = (t: Json) => ({
  account: t.account,
  orig_status: t.orig_status,
  end_status: t.end_status,
  aborted: t.description.aborted,
  exit_code: t.description.compute_ph.exit_code ?? null,
  gas_used: t.description.compute_ph.gas_used ?? null,
  action_result: t.description.action?.result_code ?? null,
  fwd_fees: t.description.action?.total_fwd_fees ?? null,
  in: t.in_msg && { source: t.in_msg.source, destination: t.in_msg.destination, value: t.in_msg.value, opcode: t.in_msg.opcode, body: t.in_msg.message_content?.body },
  out: t.out_msgs.map((m: Json) => ({ destination: m.destination, value: m.value, opcode: m.opcode, bounce: m.bounce, body: m.message_content?.body })),
});

/** Actions by type, with their details. */
export const actionFacts = (as: Json[]) => as.map((a) => ({ type: a.type, success: a.success, details: a.details })).sort((x, y) => (x.type < y.type ? -1 : 1));

/**
 * An executed trace's actions (v3 /traces) as the Emulate API prints the same actions (emulate-v1.md, the recorded
 * emulations): an empty extra-currency map null. (It prints an NFT item's index exact where /traces rounds it to a
 * double; the indexes these tests transfer print the same either way.)
 */
export const printedAsEmulated = (as: Json[]): Json[] =>
  as.map((a) => ({
    ...a,
    details: Object.fromEntries(Object.entries(a.details).map(([k, v]) => [k, /extra_currencies$/.test(k) && v && typeof v === 'object' && Object.keys(v).length === 0 ? null : v])),
  }));

/** `from` sends `amount` of the genesis jetton to `to` (a comment forwarded with 0.01 TON): the message to its jetton wallet. */
export function jettonTransfer(chain: LocalChain, from: KeyedWallet, to: KeyedWallet, amount: bigint, comment: string) {
  const tokens = genesisTokens(chain.keyedWallets());
  const wallet = tokens.jettonWallets.find((j) => j.owner.equals(from.contract.address))!.address;
  const body = jettonTransferBody({ queryId: 9n, amount, destination: to.contract.address, responseDestination: from.contract.address, forwardTonAmount: TON / 100n, forwardPayload: commentPayload(comment) });
  return { tokens, wallet, message: { to: wallet, value: TON / 5n, bounce: true, body } };
}
