/**
 * acton_fundJetton (../shared/reference/acton-localnet.md §3): jettons for any address, minted as if the jetton's
 * admin had asked. acton's facts (ton-blockchain/acton @5535f119, crates/ton-localnet/src/jetton_faucet.rs): the
 * master must answer get_jetton_data, be mintable and have an admin; the amount is in display units, scaled by
 * the metadata's `decimals` (9 when absent, at most 30); the mint is an internal message of 0.1 TON from the admin
 * carrying 0.05 TON to the wallet and 0.02 TON forward, in the minter's legacy layout (op 0x15) or the current
 * one (op 0x642b7d07); both are run first without committing anything, and the one that succeeds and sends an
 * internal_transfer is the one sent. Every failure is a 422 with acton's text. Where acton refuses a minter that
 * takes both layouts (as the genesis jetton's does, contracts/jetton-minter.fc), the current one is sent.
 */
import { Address, beginCell, Cell, internal, loadTransaction, storeMessage, toNano } from '@ton/core';
import { ApiError } from '../../api/errors.js';
import type { V2Api } from '../../api/v2.js';
import { fromStd, jettonMasterData, Stack } from '../../model/contract-data.js';
import { JETTON_OP } from '../../model/tlb/jetton.js';
import type { Chain } from './chain/chain.js';

const MINT_MESSAGE_VALUE = toNano('0.1');
const MINT_TON_AMOUNT = toNano('0.05');
const FORWARD_TON_AMOUNT = toNano('0.02');
const DEFAULT_DECIMALS = 9;
const MAX_DECIMALS = 30;
const LAYOUTS = [
  { name: 'LegacyV1', op: JETTON_OP.minterMint },
  { name: 'Current', op: JETTON_OP.mint },
] as const;

const invalid = (message: string): ApiError => new ApiError(422, message);
/** an optional number as acton's message prints it (Rust's Debug of an Option) */
const optional = (n: number | null): string => (n === null ? 'None' : `Some(${n})`);

/** The mint message to send for `amount` (display units) of `master`'s jetton to `recipient`. Reads only. */
export async function fundJetton(chain: Chain, v2: V2Api, master: Address, recipient: Address, amount: string): Promise<Cell> {
  await chain.adopt(master);
  const data = await masterData(v2, master);
  if (!data) throw invalid('This address is not a jetton master');
  if (!data.mintable) throw invalid('This jetton cannot be minted');
  if (!data.admin) throw invalid('This jetton master has no admin address, so the faucet cannot mint it');
  const units = parseAmount(amount, decimalsOf(data.content));
  const admin = Address.parseRaw(data.admin);
  const outcomes: string[] = [];
  const accepted: Cell[] = [];
  for (const layout of LAYOUTS) {
    const message = mintMessage(admin, master, recipient, units, layout.op);
    const outcome = await preflight(chain, master, message);
    outcomes.push(`${layout.name}: ${outcome.text}`);
    if (outcome.ok) accepted.push(message);
  }
  if (accepted.length === 0) throw invalid(`Could not uniquely detect the jetton mint layout (${outcomes.join('; ')})`);
  return accepted[accepted.length - 1]!;
}

async function masterData(v2: V2Api, master: Address): Promise<ReturnType<typeof jettonMasterData> | null> {
  try {
    const r = await v2.runGetMethodStd({ address: master, method: 'get_jetton_data', stack: [] });
    if (r.exit_code !== 0 && r.exit_code !== 1) return null;
    return jettonMasterData(new Stack(r.stack.map(fromStd)));
  } catch {
    return null;
  }
}

function decimalsOf(content: unknown): number {
  const d = (content as { decimals?: unknown } | null)?.decimals;
  const n = typeof d === 'string' && /^\d+$/.test(d) ? Number(d) : NaN;
  return Number.isInteger(n) && n <= MAX_DECIMALS ? n : DEFAULT_DECIMALS;
}

/** A positive amount with up to `decimals` places, as a count of the jetton's smallest units. */
function parseAmount(value: string, decimals: number): bigint {
  const refused = () => invalid(`Invalid jetton amount: expected a value greater than zero with up to ${decimals} decimal places`);
  const trimmed = value.trim();
  const m = (decimals > 0 ? /^(\d+)(?:\.(\d*))?$/ : /^(\d+)$/).exec(trimmed);
  if (!m) throw refused();
  const fraction = m[2] ?? '';
  if (fraction.length > decimals) throw refused();
  const units = BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  // a jetton amount is VarUInteger 16: below 2^120
  if (units <= 0n || units >= 1n << 120n) throw refused();
  return units;
}

function mintMessage(admin: Address, master: Address, recipient: Address, units: bigint, op: number): Cell {
  const internalTransfer = beginCell()
    .storeUint(JETTON_OP.internalTransfer, 32)
    .storeUint(0, 64)
    .storeCoins(units)
    .storeAddress(null)
    .storeAddress(null)
    .storeCoins(FORWARD_TON_AMOUNT)
    .storeBit(false)
    .endCell();
  const body = beginCell().storeUint(op, 32).storeUint(0, 64).storeAddress(recipient).storeCoins(MINT_TON_AMOUNT).storeRef(internalTransfer).endCell();
  const relaxed = internal({ to: master, value: MINT_MESSAGE_VALUE, bounce: false, body });
  if (relaxed.info.type !== 'internal') throw new Error('an internal message');
  return beginCell().store(storeMessage({ ...relaxed, info: { ...relaxed.info, src: admin } })).endCell();
}

/** Runs the mint on the master's newest state without committing it: whether it succeeds and sends an internal_transfer. */
async function preflight(chain: Chain, master: Address, message: Cell): Promise<{ ok: boolean; text: string }> {
  const state = chain.store.newestStateBoc(master);
  if (state === undefined) return { ok: false, text: 'no account' };
  const bc = chain.bc;
  const result = await chain.reads.runTransaction({
    config: bc.configBase64,
    libs: bc.libs ?? null,
    verbosity: 'short',
    shardAccount: state,
    message,
    now: chain.clock.now(),
    lt: bc.lt + 1_000_000n,
    randomSeed: null,
    ignoreChksig: false,
    debugEnabled: false,
    prevBlocksInfo: bc.prevBlocks,
  });
  if (!result.result.success) return { ok: false, text: `error=${result.result.error}` };
  const tx = loadTransaction(Cell.fromBase64(result.result.transaction).beginParse());
  const d = tx.description;
  const aborted = d.type === 'generic' ? d.aborted : true;
  const compute = d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : null;
  const action = d.type === 'generic' ? (d.actionPhase?.resultCode ?? null) : null;
  const transfer = tx.outMessages.values().some((m) => {
    if (m.info.type !== 'internal') return false;
    const s = m.body.beginParse();
    return s.remainingBits >= 32 && s.loadUint(32) === JETTON_OP.internalTransfer;
  });
  return {
    ok: !aborted && compute === 0 && action === 0 && transfer,
    text: `aborted=${aborted}, compute_exit_code=${optional(compute)}, action_result_code=${optional(action)}, internal_transfer=${transfer}`,
  };
}
