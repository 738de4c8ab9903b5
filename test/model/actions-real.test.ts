/**
 * The local action classifier against the reference on 28 real mainnet traces and 8 emulations: each recorded
 * `/api/v3/traces` answer (../shared/fixtures/mainnet-traces) and `emulateTrace` answer
 * (../shared/fixtures/mainnet-emulate; origins in their ORIGINS.md) is classified from its transactions alone, with
 * what the answer says about the accounts (metadata token_info), and compared with the actions the reference
 * recorded.
 */
import { Address, Cell, getMethodId, parseTuple, type TupleItem } from '@ton/core';
import { defaultConfig, Executor } from '@ton/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transaction as V3Transaction } from '../../src/api/v3/transactions.js';
import { emulatedAction } from '../../src/model/emulate/actions.js';
import { classifyTrace, storeOrder, type ClassifiedAction, type ContractInfo } from '../../src/model/v3/actions/index.js';
import type { NftSaleInfo } from '../../src/model/v3/actions/block.js';
import { actionVisible, expandActionTypes } from '../../src/model/v3/action-types.js';
import { TONSTAKERS_PROVIDER } from '../../src/model/v3/actions/tonstakers.js';
import { fromV3Transaction } from '../../src/model/v3/classifier-input.js';
import { type Item, Stack } from '../../src/model/contract-data.js';
import { readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('the classifier against the reference on the recorded mainnet traces');

interface RecordedAction {
  action_id: string;
  type: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  transactions: string[];
  success: boolean;
  details: Record<string, unknown>;
}

interface TokenInfo {
  type: string;
  nft_index?: string;
  extra?: Record<string, unknown>;
}

/**
 * What both kinds of answer hold: a trace's transactions, the actions the reference found, the accounts' metadata;
 * an emulation answer also has the code and data cells of the accounts' states (by hash).
 */
interface TraceAnswer {
  transactions: Record<string, V3Transaction>;
  actions: RecordedAction[];
  metadata: Record<string, { token_info?: TokenInfo[] }>;
  code_cells?: Record<string, string>;
  data_cells?: Record<string, string>;
}

/** The action types each kind of answer was recorded with: `/traces` with the default (latest), the emulations by
 * MyTonWallet, which asks for v1 (X-Actions-Version): an action inside a supported one is hidden. */
const LATEST = expandActionTypes(['latest']);
const V1 = expandActionTypes(['v1']);

type Recorded = { traces: [{ transactions: Record<string, V3Transaction>; actions: RecordedAction[] }]; metadata: TraceAnswer['metadata'] };

/** A `/traces` answer (its one trace) or an `emulateTrace` answer (the same members at the top level). */
function load(name: string): TraceAnswer {
  const emulated = name.includes('Emulate');
  const file = `fixtures/${emulated ? 'mainnet-emulate' : 'mainnet-traces'}/mytonwallet-org.mytonwallet.${name}TraceResponse.json`;
  if (emulated) return readSharedJson<TraceAnswer>(file);
  const answer = readSharedJson<Recorded>(file);
  return { ...answer.traces[0], metadata: answer.metadata };
}

/**
 * What the answer tells of each account: jetton wallets' owner and master, NFT items' index. An item's
 * collection is not recorded; it is the answer's one collection when there is exactly one. A jetton wallet
 * without recorded token_info is known as the local chain would know it from get_wallet_data, read here off the
 * trace: its owner is whoever it took a transfer from (0x0f8a7ea5) or sent a transfer_notification to
 * (0x7362d09c) in a transaction that did not abort, its master the answer's one jetton master.
 */
function infoFrom(answer: TraceAnswer): ContractInfo {
  const tokens = (addr: string, type: string): TokenInfo | undefined => answer.metadata[addr]?.token_info?.find((t) => t.type === type);
  const collections = Object.keys(answer.metadata).filter((a) => tokens(a, 'nft_collections'));
  const masters = Object.keys(answer.metadata).filter((a) => tokens(a, 'jetton_masters'));
  const owners = new Map<string, string>();
  for (const t of Object.values(answer.transactions)) {
    if ((t.description as { aborted?: boolean }).aborted) continue;
    if (t.in_msg?.opcode === '0x0f8a7ea5' && t.in_msg.source) owners.set(t.account, t.in_msg.source);
    for (const m of t.out_msgs) if (m.opcode === '0x7362d09c' && m.destination) owners.set(t.account, m.destination);
  }
  return {
    nftSale: async (addr) => saleOf(answer, addr),
    jettonWallet: async (addr) => {
      const extra = tokens(addr, 'jetton_wallets')?.extra;
      if (extra) return { owner: String(extra.owner), jetton: String(extra.jetton) };
      const owner = owners.get(addr);
      return owner && masters.length === 1 ? { owner, jetton: masters[0]! } : null;
    },
    nftItem: async (addr) => {
      const item = tokens(addr, 'nft_items');
      return item?.nft_index ? { index: item.nft_index, collection: collections.length === 1 ? collections[0]! : null } : null;
    },
  };
}

const FIXPRICE_SALE = 0x46495850n;

/**
 * A Getgems fixed-price sale as the local chain reads it, by `get_sale_data` (magic "FIXP", is_complete, created_at,
 * marketplace, item, owner, full_price, ...), here run on the sale's state before the trace as an emulation answer
 * records it (its code and data cells); null for any other account, and for a `/traces` answer, which has no states.
 */
async function saleOf(answer: TraceAnswer, addr: string): Promise<NftSaleInfo | null> {
  const tx = Object.values(answer.transactions).find((t) => t.account === addr);
  const before = (tx as { account_state_before?: { code_hash?: string | null; data_hash?: string | null; balance?: string } } | undefined)?.account_state_before;
  const code = before?.code_hash ? answer.code_cells?.[before.code_hash] : undefined;
  const data = before?.data_hash ? answer.data_cells?.[before.data_hash] : undefined;
  if (!code || !data) return null;
  const res = await (await executor()).runGetMethod({
    code: Cell.fromBase64(code),
    data: Cell.fromBase64(data),
    methodId: getMethodId('get_sale_data'),
    stack: [],
    config: defaultConfig,
    verbosity: 'short',
    address: Address.parseRaw(addr),
    unixTime: tx!.now,
    balance: BigInt(before!.balance ?? '0'),
    randomSeed: Buffer.alloc(32),
    gasLimit: 1_000_000n,
    debugEnabled: false,
  });
  if (!res.output.success || res.output.vm_exit_code !== 0) return null;
  const stack = new Stack(parseTuple(Cell.fromBase64(res.output.stack)).map(toItem));
  if (stack.int() !== FIXPRICE_SALE) return null;
  stack.int();
  stack.int();
  const marketplace = stack.address();
  const nft = stack.address();
  const owner = stack.address();
  return nft ? { marketplace, nft, owner, price: stack.int().toString() } : null;
}

let sandboxExecutor: Promise<Executor> | undefined;
const executor = (): Promise<Executor> => (sandboxExecutor ??= Executor.create());

/** A get-method's tuple item as the stack reader takes it. */
function toItem(t: TupleItem): Item {
  if (t.type === 'int') return t.value;
  if (t.type === 'cell' || t.type === 'slice' || t.type === 'builder') return t.cell;
  if (t.type === 'tuple') return t.items.map(toItem);
  return null;
}

/** Transactions with their parent: the one whose out-messages include this one's in-message. */
function classifierInput(answer: TraceAnswer) {
  const txs = Object.values(answer.transactions);
  const sender = new Map<string, string>();
  for (const t of txs) for (const m of t.out_msgs) sender.set(m.hash, t.hash);
  return txs.map((t) => fromV3Transaction(t, t.in_msg ? sender.get(t.in_msg.hash) : undefined));
}

const hexToB64 = (h: string): string => Buffer.from(h, 'hex').toString('base64');

/** The v3 fields compared, of a local action and of a recorded one. */
function fields(a: ClassifiedAction): Record<string, unknown> {
  return {
    type: a.type,
    action_id: a.actionId,
    start_lt: a.startLt.toString(),
    end_lt: a.endLt.toString(),
    start_utime: a.startUtime,
    end_utime: a.endUtime,
    transactions: a.txHashes.map(hexToB64).sort(),
    success: a.success,
    details: a.details,
  };
}

const recordedFields = (a: RecordedAction): Record<string, unknown> => ({
  type: a.type,
  action_id: a.action_id,
  start_lt: a.start_lt,
  end_lt: a.end_lt,
  start_utime: a.start_utime,
  end_utime: a.end_utime,
  transactions: [...a.transactions].sort(),
  success: a.success,
  details: a.details,
});

const order = (x: Record<string, unknown>, y: Record<string, unknown>): number =>
  BigInt(x.start_lt as string) !== BigInt(y.start_lt as string)
    ? BigInt(x.start_lt as string) < BigInt(y.start_lt as string) ? -1 : 1
    : String(x.type).localeCompare(String(y.type));

/**
 * nft_transfer keys the reference API added in 2025 (answers recorded before then lack them, and so do the
 * emulation answers of October 2025); a recorded answer without them is compared without them: null, or for a
 * Getgems purchase the marketplace_address the local classifier reads from the sale, which the recording cannot show.
 */
const LATER_NFT_KEYS = [
  'marketplace_address', 'payout_amount', 'payout_address', 'payout_comment', 'payout_comment_encrypted',
  'payout_comment_encoded', 'royalty_amount', 'royalty_address',
];

/**
 * Answers recorded before 2025 start an action at its earliest transaction's lt, the initiating wallet's
 * external-in one included (the USDT transfer of August 2024), except a ton_transfer, started at its receiving
 * transaction (the TON transfer of November 2024); every answer recorded since starts it at the first internal
 * message's created_lt, as the local classifier does. Such an answer is compared on its terms.
 */
const LATER_START_LT = Date.UTC(2025, 0, 1) / 1000;

/**
 * The reference names Tonstakers' provider `liquid_staking` since May 2026; the answers recorded before then print
 * `tonstakers`, and are compared on their terms.
 */
const LIQUID_STAKING_SINCE = Date.UTC(2026, 4, 3) / 1000;
const STAKING_TYPES = ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'];

function asRecorded(local: Record<string, unknown>, recorded: Record<string, unknown>, txLt: Map<string, bigint>): Record<string, unknown> {
  const details = { ...(local.details as Record<string, unknown>) };
  const rec = recorded.details as Record<string, unknown>;
  if (local.type === 'nft_transfer') for (const k of LATER_NFT_KEYS) if (!(k in rec)) delete details[k];
  if (STAKING_TYPES.includes(local.type as string) && details.provider === TONSTAKERS_PROVIDER && (recorded.start_utime as number) < LIQUID_STAKING_SINCE) {
    details.provider = 'tonstakers';
  }
  let startLt = local.start_lt;
  let startUtime = local.start_utime;
  if ((recorded.start_utime as number) < LATER_START_LT) {
    if (local.type === 'ton_transfer') {
      // a 2024 ton_transfer starts at its receiving transaction, and prints an empty text comment as null
      startLt = local.end_lt;
      startUtime = local.end_utime;
      if (details.comment === '' && rec.comment === null) details.comment = null;
    } else {
      const lts = (local.transactions as string[]).map((h) => txLt.get(h)).filter((lt): lt is bigint => lt !== undefined);
      if (lts.length) startLt = lts.reduce((m, lt) => (lt < m ? lt : m)).toString();
    }
  }
  return { ...local, start_lt: startLt, start_utime: startUtime, details };
}

/** Every field that differs, as `<action index>.<field>`; a missing or extra action counts as one. */
export async function compareTrace(name: string): Promise<{ actions: number; differing: string[]; local: unknown[]; recorded: unknown[] }> {
  const answer = load(name);
  const emulated = name.includes('Emulate');
  const info = infoFrom(answer);
  // toncenter classifies an emulation from its emulator's copy of the trace, whose messages keep their sending order
  const visible = (await classifyTrace(classifierInput(answer), info, emulated ? 'sent' : 'store')).filter((a) => actionVisible(a.type, a.ancestorTypes, emulated ? V1 : LATEST));
  // an emulation answer is printed by the emulation endpoint's own printer
  const local = (emulated ? await Promise.all(visible.map((a) => emulatedAction(a, info))) : visible).map(fields).sort(order);
  const recorded = answer.actions.map(recordedFields).sort(order);
  const txLt = new Map(Object.values(answer.transactions).map((t) => [t.hash, BigInt(t.lt)]));
  const differing: string[] = [];
  for (let i = 0; i < Math.max(local.length, recorded.length); i++) {
    const r = recorded[i];
    const l = local[i] && r ? asRecorded(local[i]!, r, txLt) : local[i];
    if (!l || !r) {
      differing.push(`${i}:${l ? 'extra' : 'missing'}`);
      continue;
    }
    for (const k of Object.keys(r)) if (JSON.stringify(l[k]) !== JSON.stringify(r[k])) differing.push(`${i}.${k}`);
  }
  return { actions: recorded.length, differing, local, recorded };
}

const TRACES = [
  'contractCall', 'failedTonTransfer', 'nftTransfer', 'failedNftTransfer', 'transferToken', 'usdtTransfer',
  'editDomainRecord', 'dedust-tonSwapUsdt', 'dedust-addLiquidity', 'stonfi-stonSwapTon', 'stonfi-outputLiquidity',
  'tonstakers-stake', 'tonstakers-unstakePending', 'fragment-buyNft',
  'tonTransfer', 'failedUsdtTransfer', 'dedust-outputLiquidity', 'dedust-usdtSwapGram', 'dedust-usdtSwapTon',
  'stonfi-addLiquidity', 'stonfi-stonSwapUsdt', 'stonfi-tonSwapSton', 'swapCoffee-usdtSwapBuild2Split',
  'tonstakers-unstakeInstant', 'utyaSwap', 'bidask-tonSwapUsdt', 'bidask-usdtSwapTgusd', 'bidask-usdtSwapTon',
];

const EMULATIONS = [
  'fragment-pickUpAuctionEmulateNft', 'fragment-pickUpSaleEmulate', 'fragment-placeBidEmulate', 'getgems-buyNftEmulate',
  'getgems-pickUpSaleNftEmulate', 'getgems-transferNftEmulate', 'isExcessAccountedEmulate', 'pushTransferEmulate',
];

/** Recordings the local classifier does not yet match, each with why; each must still differ (so a fix updates this list). */
const DIFFERING: Record<string, string> = {};

const table: string[] = [];

describe.skipIf(noShared)('classifyTrace on real mainnet traces and emulations: identical to the reference', () => {
  afterAll(() => {
    console.log(`recording | actions | differing fields\n${table.sort().join('\n')}`);
  });
  for (const name of [...TRACES, ...EMULATIONS]) {
    it(name, async () => {
      const { actions, differing, local, recorded } = await compareTrace(name);
      table.push(`${name} | ${actions} | ${differing.length ? differing.join(' ') : 'identical'}`);
      if (name in DIFFERING) {
        expect(differing, `${name} now matches the reference: take it off DIFFERING`).not.toEqual([]);
        return;
      }
      if (differing.length) expect({ differing, local }).toEqual({ differing: [], local: recorded });
      expect(differing).toEqual([]);
    });
  }
});

/** The accounts of the transactions a message caused, itself included. */
function accountsUnder(answer: TraceAnswer, msgHash: string): string[] {
  const txs = Object.values(answer.transactions);
  const out: string[] = [];
  const queue = [msgHash];
  while (queue.length) {
    const t = txs.find((x) => x.in_msg?.hash === queue[0]);
    queue.shift();
    if (!t) continue;
    out.push(t.account);
    queue.push(...t.out_msgs.map((m) => m.hash));
  }
  return out;
}

describe.skipIf(noShared)('the DeDust v1 liquidity withdrawal matcher on the recorded withdrawal', () => {
  /** The recorded trace without a transaction and everything it caused. */
  function without(answer: TraceAnswer, root: V3Transaction): TraceAnswer {
    const txs = Object.values(answer.transactions);
    const dropped = new Set([root.hash]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of txs) {
        if (dropped.has(t.hash) || !t.in_msg) continue;
        if (!txs.some((p) => dropped.has(p.hash) && p.out_msgs.some((m) => m.hash === t.in_msg!.hash))) continue;
        dropped.add(t.hash);
        grew = true;
      }
    }
    return { ...answer, transactions: Object.fromEntries(Object.entries(answer.transactions).filter(([, t]) => !dropped.has(t.hash))) };
  }

  it('needs both payouts: with the jetton vault never asked, the burn stays a jetton_burn', async () => {
    const answer = load('dedust-outputLiquidity');
    const jettonPayout = Object.values(answer.transactions).find((t) => t.in_msg?.opcode === '0xad4eb6f5' && t.out_msgs.some((m) => m.opcode === '0x0f8a7ea5'));
    expect(jettonPayout).toBeDefined();
    const actions = await classifyTrace(classifierInput(without(answer, jettonPayout!)), infoFrom(answer));
    expect(actions.map((a) => a.type)).not.toContain('dex_withdraw_liquidity');
    expect(actions.map((a) => a.type)).toContain('jetton_burn');
  });
});

describe.skipIf(noShared)('two-payout withdrawals: the slots follow the order the classifier visits messages in', () => {
  it("fills the slots in the store's order of the pool's payout requests, which is sending order here and not in the STON.fi one", async () => {
    for (const [name, requestOp, sentFirst] of [
      ['dedust-outputLiquidity', '0xad4eb6f5', true],
      ['stonfi-outputLiquidity', '0x657b54f5', false],
    ] as const) {
      const answer = load(name);
      const [withdrawal] = (await classifyTrace(classifierInput(answer), infoFrom(answer))).filter((a) => a.type === 'dex_withdraw_liquidity');
      const pool = Object.values(answer.transactions).find((t) => t.out_msgs.filter((m) => m.opcode === requestOp).length === 2)!;
      const [first, second] = pool.out_msgs.filter((m) => m.opcode === requestOp).sort((x, y) => storeOrder(x.hash, y.hash));
      expect(BigInt(first!.created_lt!) < BigInt(second!.created_lt!), name).toBe(sentFirst);
      // slot 1 is TON in both; slot 2's jetton reaches the user's wallet under the request second in store order
      expect(withdrawal?.details, name).toMatchObject({ asset_1: null, user_jetton_wallet_1: null });
      const wallet = withdrawal?.details.user_jetton_wallet_2 as string;
      expect(accountsUnder(answer, second!.hash), name).toContain(wallet);
      expect(accountsUnder(answer, first!.hash), name).not.toContain(wallet);
    }
  });
});
