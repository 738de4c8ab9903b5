/**
 * An emulation's answer (emulate-v1.md §6) from a run (engine.ts), built by the code the v3 routes use:
 * transactions by `transactionToV3` (emulated, finality "pending", the simulated block: the world's masterchain
 * seqno + 1), the tree by `traceTree`, actions by the local classifier with the reference's filter (a type in
 * the supported set and no ancestor type in it), printed as its emulator prints them (actions.ts), in its order
 * (end_lt, then start_lt, descending), address_book and metadata by the source's own builders, with metadata for
 * the token contracts the run deployed (metadata.ts). Beside it, what the graph shows: each account's balance
 * changes (TON, and jettons from the jetton wallets' balances before and after) and the fees the sender paid.
 */
import { Address, type Account, type Cell } from '@ton/core';
import { LRUCache } from 'lru-cache';
import type { BalanceChange, EmulateOptions, EmulateTraceResponse, EmulationResult } from '../../api/emulate.js';
import type { Action } from '../../api/v3/actions.js';
import type { AddressBook, Metadata } from '../../api/v3/common.js';
import type { AccountState, Transaction as V3Transaction } from '../../api/v3/transactions.js';
import { rawUpper } from '../address.js';
import { normalizedHash } from '../message.js';
import { fromCoreTransaction } from '../v3/classifier-input.js';
import { accountStateToV3, actionToV3, classifyTrace, expandActionTypes, shardHex, traceTree, transactionToV3 } from '../v3/index.js';
import { emulatedAction } from './actions.js';
import { RunReader, type EmulatedTx, type TraceRun } from './engine.js';
import { deployedTokens } from './metadata.js';
import { withinDeadline, type Slices } from './slices.js';

/** The source's address_book and metadata builders (those its v3 answers use). */
export interface Enricher {
  book(addresses: string[]): AddressBook | Promise<AddressBook>;
  metadata(addresses: string[]): Promise<Metadata>;
}

const SHARD = shardHex(-(1n << 63n));
const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');

/**
 * `code_cells`/`data_cells` BoCs by cell hash (base64): the same contract code (and an account's data a run did
 * not change) comes back in emulation after emulation, and serialising it is most of an answer's cost. Bounded in
 * characters; a cell's BoC is a function of its hash, so an entry never goes stale.
 */
const cellBocs = new LRUCache<string, string>({ maxSize: 8 * 2 ** 20, sizeCalculation: (v, k) => v.length + k.length });

function cellEntry(c: Cell): [string, string] {
  const hash = c.hash().toString('base64');
  let boc = cellBocs.get(hash);
  if (boc === undefined) {
    boc = c.toBoc({ idx: false, crc32: true }).toString('base64');
    cellBocs.set(hash, boc);
  }
  return [hash, boc];
}

/**
 * A transaction as the reference's emulator prints it (the recorded answers): an ordinary description with
 * `is_tock` and `installed` after `credit_first`, an empty `credit_ph` for an external message, and an external
 * in-message's extra currencies as `{}`.
 */
function emulatedShape(t: V3Transaction): V3Transaction {
  const d = t.description as unknown as Record<string, unknown>;
  if (d.type === 'ord') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(d)) {
      if (k === 'compute_ph' && !('credit_ph' in d)) out.credit_ph = {};
      out[k] = v;
      if (k === 'credit_first') Object.assign(out, { is_tock: d.is_tock ?? false, installed: d.installed ?? false });
    }
    t.description = out as unknown as V3Transaction['description'];
  }
  if (t.in_msg && t.in_msg.value_extra_currencies === null) t.in_msg.value_extra_currencies = {};
  return t;
}

/** An emulated state as the reference prints it: extra currencies null. */
function stateV3(hash: Buffer | bigint, account: Account | null | undefined): AccountState {
  return { ...accountStateToV3(hash, account), extra_currencies: null } as AccountState;
}

/**
 * Each emulated transaction in v3 form, made as the run tells it (engine.ts `onTx`, while the executor runs the
 * next transaction), so that only the last few are left to make when the run ends.
 */
export class V3Transactions {
  private readonly made = new Map<EmulatedTx, V3Transaction>();
  /** the root's external message, set by the first transaction */
  private rootIn: EmulatedTx['inMsg'] | undefined;

  /** the block the transactions are in: the one after the world's (`EmulationWorld.mcSeqno`) */
  private readonly mcSeqno: number;

  constructor(worldSeqno: number) {
    this.mcSeqno = worldSeqno + 1;
  }

  add(e: EmulatedTx, index: number): void {
    this.made.set(e, this.convert(e, index));
  }

  get(e: EmulatedTx, index: number): V3Transaction {
    return this.made.get(e) ?? this.convert(e, index);
  }

  private convert(e: EmulatedTx, index: number): V3Transaction {
    if (index === 0) this.rootIn = e.inMsg.msg.info.type === 'external-in' ? e.inMsg : undefined;
    const wc = e.account.workChain;
    const mcSeqno = this.mcSeqno;
    const v3 = transactionToV3(e.tx, {
      workchain: wc,
      block: { workchain: wc, shard: SHARD, seqno: mcSeqno },
      mcSeqno,
      ...(this.rootIn ? { traceExternalHash: this.rootIn.cell.hash() } : {}),
      stateAfter: stateV3(e.tx.stateUpdate.newHash, e.after.account),
      emulated: true,
      finality: 'pending',
    });
    v3.account_state_before = stateV3(e.tx.stateUpdate.oldHash, e.before?.account);
    return emulatedShape(v3);
  }
}

/** The answer, built in slices under the emulation's deadline (slices.ts). */
export async function emulationResult(
  run: TraceRun,
  reader: RunReader,
  opts: EmulateOptions & { defaultActions: string },
  enricher: Enricher,
  slices: Slices,
  made: V3Transactions = new V3Transactions(run.world.mcSeqno),
): Promise<EmulationResult> {
  const root = run.txs[0]!;
  const txs: V3Transaction[] = await slices.map(run.txs, (e, n) => made.get(e, n));
  const parents = new Map(run.txs.map((e) => [b64(e.hash), e.parentHash ? b64(e.parentHash) : undefined]));
  const { root: trace } = traceTree(txs, (h) => parents.get(h));

  const addrs = txs.map((t) => t.account);
  let actions: Action[] = [];
  if (opts.with_actions) actions = await withinDeadline(classified(run, reader, txs, opts, addrs, slices), slices.deadline);

  const codeCells: Record<string, string> = {};
  const dataCells: Record<string, string> = {};
  for (const sa of run.final.values()) {
    await slices.tick();
    const st = sa?.account?.storage.state;
    if (st?.type !== 'active') continue;
    if (st.state.code) {
      const [hash, boc] = cellEntry(st.state.code);
      codeCells[hash] = boc;
    }
    if (st.state.data) {
      const [hash, boc] = cellEntry(st.state.data);
      dataCells[hash] = boc;
    }
  }

  const sender = rawUpper(root.account);
  let senderFees = 0n;
  for (const e of run.txs) if (e.account.equals(root.account)) senderFees += e.tx.totalFees.coins;

  const response: EmulateTraceResponse = {
    mc_block_seqno: run.world.mcSeqno,
    trace: trace!,
    transactions: Object.fromEntries(txs.map((t) => [t.hash, t])),
    actions,
    code_cells: codeCells,
    data_cells: dataCells,
    ...(opts.include_address_book ? { address_book: await withinDeadline(Promise.resolve(enricher.book(addrs)), slices.deadline) } : {}),
    ...(opts.include_metadata ? { metadata: await withinDeadline(metadata(run, reader, enricher, addrs), slices.deadline) } : {}),
    rand_seed: run.randSeed.toString('base64'),
    is_incomplete: run.incomplete,
  };
  return {
    response,
    order: run.txs.map((e) => ({ hash: b64(e.hash), ...(e.parentHash ? { parent: b64(e.parentHash) } : {}) })),
    balanceChanges: once(() => withinDeadline(balanceChanges(run, reader), slices.deadline)),
    senderFees: senderFees.toString(),
    sender,
    json: once(() => answerJson(response, slices)),
  };
}

/** JSON.stringify(response)'s text, a transaction (its largest part) at a time, in slices. */
async function answerJson(response: EmulateTraceResponse, slices: Slices): Promise<Buffer> {
  const parts: Buffer[] = [];
  let text = '{';
  const flush = (): void => {
    parts.push(Buffer.from(text));
    text = '';
  };
  let first = true;
  for (const [key, value] of Object.entries(response)) {
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (key !== 'transactions') {
      text += JSON.stringify(value);
      continue;
    }
    text += '{';
    let n = 0;
    for (const [hash, tx] of Object.entries(value as EmulateTraceResponse['transactions'])) {
      await slices.tick();
      text += `${n++ ? ',' : ''}${JSON.stringify(hash)}:${JSON.stringify(tx)}`;
      flush();
    }
    text += '}';
  }
  text += '}';
  flush();
  await slices.tick();
  return Buffer.concat(parts);
}

/** The trace's actions in v3 form, filtered and ordered as the reference does; their addresses join `addrs`. */
async function classified(run: TraceRun, reader: RunReader, txs: V3Transaction[], opts: EmulateOptions & { defaultActions: string }, addrs: string[], slices: Slices): Promise<Action[]> {
  const input = await slices.map(run.txs, (e) => fromCoreTransaction({ hash: e.hash, ...(e.parentHash ? { parentHash: e.parentHash } : {}), tx: e.tx, inMsg: e.inMsg }));
  const info = reader.contractInfo();
  // the reference's emulator keeps out-messages in the order they were sent, not its database's order
  const list = await classifyTrace(input, info, 'sent');
  const supported = expandActionTypes(opts.actionsVersion?.length ? opts.actionsVersion : [opts.defaultActions]);
  const root = run.txs[0]!;
  const ext = root.inMsg.msg.info.type === 'external-in' ? root.inMsg : undefined;
  const tctx = {
    traceId: null,
    traceEndLt: txs.reduce((m, t) => (BigInt(t.lt) > BigInt(m) ? t.lt : m), txs[0]!.lt),
    traceEndUtime: Math.max(...txs.map((t) => t.now)),
    traceMcSeqnoEnd: run.world.mcSeqno + 1,
    ...(ext ? { externalHash: ext.cell.hash().toString('base64'), externalHashNorm: normalizedHash(ext.msg, ext.cell).toString('base64') } : {}),
    finality: 'pending' as const,
  };
  const rows = await Promise.all(list.filter((a) => supported.has(a.type) && !a.ancestorTypes.some((t) => supported.has(t))).map((a) => emulatedAction(a, info)));
  rows.sort((a, b) => (a.endLt !== b.endLt ? (a.endLt > b.endLt ? -1 : 1) : a.startLt > b.startLt ? -1 : a.startLt < b.startLt ? 1 : 0));
  return rows.map((a) => {
    addrs.push(...a.addresses);
    const { finality, ...rest } = actionToV3(a, tctx);
    return { ...rest, accounts: [...a.accounts], finality } as Action;
  });
}

/** The source's metadata of the answer's addresses, and that of the token contracts the run deployed, which it cannot know. */
async function metadata(run: TraceRun, reader: RunReader, enricher: Enricher, addrs: string[]): Promise<Metadata> {
  const known = await enricher.metadata(addrs);
  const unknown = [...new Set(addrs)].filter((a) => !(a in known) && run.final.has(Address.parseRaw(a).toRawString()));
  return { ...known, ...(await deployedTokens(unknown, reader)) };
}

const once = <T>(fn: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
};

/** Each touched account's TON change, and each jetton wallet's change under its owner. */
async function balanceChanges(run: TraceRun, reader: RunReader): Promise<BalanceChange[]> {
  const out = new Map<string, BalanceChange>();
  const entry = (raw: string): BalanceChange => {
    let c = out.get(raw);
    if (!c) out.set(raw, (c = { account: raw, ton: '0', jettons: [] }));
    return c;
  };
  const coins = (sa: import('@ton/core').ShardAccount | null | undefined): bigint => sa?.account?.storage.balance.coins ?? 0n;
  for (const [key, after] of run.final) {
    const address = Address.parseRaw(key);
    const raw = rawUpper(address);
    entry(raw).ton = (coins(after) - coins(run.initial.get(key))).toString();
    const [was, now] = await Promise.all([reader.jettonWallet(address, 'before'), reader.jettonWallet(address, 'after')]);
    const w = now ?? was;
    if (!w) continue;
    const amount = (now?.balance ?? 0n) - (was?.balance ?? 0n);
    if (amount !== 0n) entry(w.owner).jettons.push({ jetton: w.jetton, wallet: raw, amount: amount.toString() });
  }
  return [...out.values()].filter((c) => c.ton !== '0' || c.jettons.length > 0);
}
