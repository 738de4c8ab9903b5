/**
 * The index-driven v3 reads (issue 17: no whole-chain scans for a query that names an account, a hash, a trace,
 * a block or a masterchain seqno, and "newest N" lists that stop once the page is full) against straightforward
 * full-scan references written here: filter and sort over every sealed transaction, message, trace or action.
 * One local chain of a few hundred transactions (genesis activity, faucet credits, wallet transfers with one
 * to four messages each, several blocks), many random parameter combinations, identical pages.
 */
import { Address, internal } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaterAction as Action } from '../../../src/api/v3/actions.js';
import type { Sort } from '../../../src/api/v3/common.js';
import type { Trace } from '../../../src/api/v3/traces.js';
import type { Shared } from '../../../src/api/shared-answers.js';
import { rawUpper } from '../../../src/model/address.js';
import type { TxRecord } from '../../../src/sources/localnet/chain/store.js';
import { signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { type V3Caller, withResolvedPaging } from '../../../src/api/v3/paging.js';

let chain: LocalChain;
let api: V3Caller;
let txs: readonly TxRecord[];
let accounts: Address[];
let allTraces: readonly Shared<Trace>[];
let allActions: readonly Shared<Action>[];

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}
const rand = rng(17);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const chance = (p: number): boolean => rand() < p;
const cmp = (x: bigint | number | string, y: bigint | number | string): number => (x < y ? -1 : x > y ? 1 : 0);
const dirOf = (s: Sort, c: number): number => (s === 'asc' ? c : -c);
const b64 = (hex: string): string => Buffer.from(hex, 'hex').toString('base64');
const page = <T>(list: T[], limit: number, offset: number): T[] => list.slice(offset, offset + limit);

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'scale-reads-test', blockInterval: 3_600_000 });
  api = withResolvedPaging(localV3Api(chain));
  const store = chain.store;
  const alice = chain.keyedWallets()[0]!;
  const bob = chain.keyedWallets()[1]!;
  const targets = Array.from({ length: 12 }, (_, i) => new Address(0, Buffer.alloc(32, i + 1)));
  let seqA = (await chain.v2.getWalletInformation({ address: alice.contract.address })).seqno!;
  let seqB = (await chain.v2.getWalletInformation({ address: bob.contract.address })).seqno!;
  const until = () => Math.floor(Date.now() / 1000) + 600;
  for (let round = 0; round < 8; round++) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < 8; i++) batch.push(chain.faucet(targets[(round * 5 + i) % targets.length]!, 1_000_000_000n + BigInt(i)));
    for (let i = 0; i < 3; i++) {
      const n = 1 + ((round + i) % 4);
      const msgs = Array.from({ length: n }, (_, k) => internal({ to: targets[(round + i * 3 + k) % targets.length]!, value: 10_000_000n + BigInt(k), bounce: false }));
      batch.push(chain.v2.sendBoc({ boc: signedTransfer(alice, seqA++, msgs, until()).toBoc() }));
    }
    batch.push(chain.v2.sendBoc({ boc: signedTransfer(bob, seqB++, [internal({ to: alice.contract.address, value: 5_000_000n, bounce: true })], until()).toBoc() }));
    await Promise.all(batch);
    await chain.sealBlock();
  }
  txs = store.sealedTransactions();
  const seen = new Map<string, Address>();
  for (const t of txs) seen.set(rawUpper(t.account), t.account);
  accounts = [...seen.values()];
  allTraces = (await api.listTraces({ limit: 1000, sort: 'asc', includeActions: true, noAddressBook: true, noMetadata: true })).traces;
  allActions = (await api.actions({ limit: 1000, sort: 'asc', includeAccounts: true, noAddressBook: true, noMetadata: true })).actions;
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

/** Random lt and utime windows over the chain's own values (sometimes open on one side, sometimes empty). */
function windows(kind: 'lt' | 'utime' | 'none'): { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number } {
  const a = pick(txs);
  const b = pick(txs);
  const [lo, hi] = a.lt <= b.lt ? [a, b] : [b, a];
  const w: { startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number } = {};
  if (kind === 'lt') {
    if (chance(0.7)) w.startLt = lo.lt + (chance(0.3) ? 1n : 0n);
    if (chance(0.7)) w.endLt = hi.lt;
  } else if (kind === 'utime') {
    if (chance(0.7)) w.startUtime = lo.now;
    if (chance(0.7)) w.endUtime = hi.now;
  }
  return w;
}

const pageParams = () => ({ limit: pick([1, 2, 3, 5, 10, 50, 1000]), offset: pick([0, 0, 0, 1, 3, 20]), sort: pick<Sort>(['asc', 'desc']) });

describe('the chain under test', () => {
  it('has a few hundred transactions over several accounts, traces and blocks', () => {
    expect(txs.length).toBeGreaterThan(150);
    expect(accounts.length).toBeGreaterThan(8);
    expect(chain.store.lastMc.seqno).toBeGreaterThan(6);
    // the complete lists the action and trace references start from hold every trace
    expect(allTraces.length).toBe(new Set(txs.map((t) => t.traceRootHash)).size);
    expect(allActions.length).toBe(allTraces.reduce((n, t) => n + (t.actions?.length ?? 0), 0));
  });
});

describe('/transactions', () => {
  function reference(p: { account?: Address[]; hash?: string[]; lt?: bigint; mcSeqno?: number; seqno?: number; workchain?: number; limit: number; offset: number; sort: Sort; startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number }): string[] {
    const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
    const acc = p.account ? new Set(p.account.map((a) => rawUpper(a))) : undefined;
    const list = txs.filter(
      (t) =>
        (!acc || acc.has(rawUpper(t.account))) &&
        (!p.hash || p.hash.includes(t.hash)) &&
        (p.lt === undefined || t.lt === p.lt) &&
        (p.mcSeqno === undefined || t.mcSeqno === p.mcSeqno) &&
        (p.seqno === undefined || t.block!.seqno === p.seqno) &&
        (p.workchain === undefined || t.block!.workchain === p.workchain) &&
        (p.startLt === undefined || t.lt >= p.startLt) &&
        (p.endLt === undefined || t.lt <= p.endLt) &&
        (p.startUtime === undefined || t.now >= p.startUtime) &&
        (p.endUtime === undefined || t.now <= p.endUtime),
    );
    const s = p.sort;
    const byAcc = (a: TxRecord, b: TxRecord) => cmp(rawUpper(a.account), rawUpper(b.account));
    let sorter = (a: TxRecord, b: TxRecord) => (hasUtime ? dirOf(s, cmp(a.now, b.now)) : 0) || dirOf(s, cmp(a.lt, b.lt)) || byAcc(a, b);
    if (p.mcSeqno !== undefined) sorter = (a, b) => dirOf(s, cmp(a.lt, b.lt)) || byAcc(a, b);
    if (p.account?.length === 1) sorter = (a, b) => byAcc(a, b) || (hasUtime ? dirOf(s, cmp(a.now, b.now)) : 0) || dirOf(s, cmp(a.lt, b.lt));
    if (p.hash) sorter = (a, b) => dirOf(s, cmp(b64(a.hash), b64(b.hash)));
    if (p.lt !== undefined) sorter = (a, b) => cmp(a.lt, b.lt) || dirOf(s, cmp(rawUpper(a.account), rawUpper(b.account)));
    return page(list.sort(sorter), p.limit, p.offset).map((t) => b64(t.hash));
  }

  it('pages match a full scan for random filters', async () => {
    for (let i = 0; i < 300; i++) {
      const p: Parameters<typeof reference>[0] = { ...pageParams(), ...windows(pick(['lt', 'utime', 'none', 'none'])) };
      const r = rand();
      if (r < 0.35) p.account = [pick(accounts)];
      else if (r < 0.45) p.account = [pick(accounts), pick(accounts), pick(accounts)];
      else if (r < 0.52) p.hash = [pick(txs).hash, pick(txs).hash];
      else if (r < 0.57) p.lt = pick(txs).lt;
      else if (r < 0.65) p.mcSeqno = pick(txs).mcSeqno!;
      else if (r < 0.72) {
        const t = pick(txs);
        p.seqno = t.block!.seqno;
        if (chance(0.5)) p.workchain = t.block!.workchain;
      }
      const { hash, ...rest } = p;
      const got = await api.transactions({
        ...rest,
        ...(hash ? { hash: hash.map((h) => Buffer.from(h, 'hex')) } : {}),
        noAddressBook: true,
      });
      expect(got.transactions.map((t) => t.hash), JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toEqual(reference(p));
    }
  });

  it('a row is the same JSON whichever route found it', async () => {
    const newest = await api.transactions({ limit: 20 });
    for (const t of newest.transactions) {
      const byHash = await api.transactions({ hash: [Buffer.from(t.hash, 'base64')] });
      expect(byHash.transactions[0]).toEqual(t);
    }
  });

  it('/transactionsByMasterchainBlock matches its block', async () => {
    for (let seqno = 0; seqno <= chain.store.lastMc.seqno; seqno++) {
      const s = pick<Sort>(['asc', 'desc']);
      const want = txs.filter((t) => t.mcSeqno === seqno).sort((a, b) => dirOf(s, cmp(a.lt, b.lt)) || cmp(rawUpper(a.account), rawUpper(b.account)));
      const got = await api.transactionsByMasterchainBlock({ seqno, sort: s, limit: 1000 });
      expect(got.transactions.map((t) => t.hash)).toEqual(want.map((t) => b64(t.hash)));
    }
  });
});

describe('/messages', () => {
  interface Row {
    hash: string;
    source?: string;
    destination?: string;
    createdLt: bigint | null;
    createdAt: number | null;
    opcode: number | null;
    bodyHash: string;
    inTx?: TxRecord;
    outTx?: TxRecord;
  }
  let rows: Row[];
  beforeAll(() => {
    const byHash = new Map<string, Row>();
    const row = (h: string): Row => {
      let r = byHash.get(h);
      if (!r) {
        const m = chain.store.message(h)!;
        r = {
          hash: h,
          ...(m.source ? { source: rawUpper(m.source) } : {}),
          ...(m.destination ? { destination: rawUpper(m.destination) } : {}),
          createdLt: m.source ? m.createdLt : null,
          createdAt: m.createdAt,
          opcode: m.opcode,
          bodyHash: m.bodyHash,
        };
        byHash.set(h, r);
      }
      return r;
    };
    for (const t of txs) {
      if (t.inMsgHash) row(t.inMsgHash).inTx = t;
      for (const h of t.outMsgHashes) row(h).outTx = t;
    }
    rows = [...byHash.values()];
  });

  it('pages match a full scan for random filters', async () => {
    for (let i = 0; i < 300; i++) {
      const p: { source?: Address | null; destination?: Address | null; opcode?: number; bodyHash?: string; msgHash?: string; direction?: 'in' | 'out'; excludeExternals?: boolean; onlyExternals?: boolean; limit: number; offset: number; sort: Sort; startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number } = {
        ...pageParams(),
        ...windows(pick(['lt', 'utime', 'none', 'none'])),
      };
      const r = rand();
      if (r < 0.2) p.source = pick(accounts);
      else if (r < 0.35) p.destination = pick(accounts);
      else if (r < 0.4) p.source = null;
      else if (r < 0.45) p.msgHash = pick(rows).hash;
      else if (r < 0.5) p.bodyHash = pick(rows).bodyHash;
      else if (r < 0.55) {
        const withOp = rows.filter((x) => x.opcode !== null);
        if (withOp.length) p.opcode = pick(withOp).opcode!;
      }
      if (chance(0.15)) p.direction = pick(['in', 'out'] as const);
      if (chance(0.1)) p.excludeExternals = true;
      else if (chance(0.1)) p.onlyExternals = true;

      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
      // v1.3: created_at under a utime window, else the effective lt (an external-in's is its receiving transaction's)
      const col = (x: Row): bigint | null => (hasUtime ? (x.createdAt === null ? null : BigInt(x.createdAt)) : (x.createdLt ?? x.inTx!.lt));
      const want = rows
        .filter((x) => {
          if (p.msgHash && x.hash !== p.msgHash) return false;
          if (p.bodyHash && x.bodyHash !== p.bodyHash) return false;
          if (p.source === null && x.source !== undefined) return false;
          if (p.source && x.source !== rawUpper(p.source)) return false;
          if (p.destination && x.destination !== rawUpper(p.destination)) return false;
          if (p.opcode !== undefined && x.opcode !== p.opcode) return false;
          if (p.startUtime !== undefined && (x.createdAt === null || x.createdAt < p.startUtime)) return false;
          if (p.endUtime !== undefined && (x.createdAt === null || x.createdAt > p.endUtime)) return false;
          if (p.startLt !== undefined && (x.createdLt === null || x.createdLt < p.startLt)) return false;
          if (p.endLt !== undefined && (x.createdLt === null || x.createdLt > p.endLt)) return false;
          if (p.direction === 'in' && !x.inTx) return false;
          if (p.direction === 'out' && !x.outTx) return false;
          if (p.excludeExternals && x.createdLt === null) return false;
          if (p.onlyExternals && x.createdLt !== null) return false;
          return true;
        })
        .sort((a, b) => {
          const x = col(a);
          const y = col(b);
          const c = x === null || y === null ? (x === y ? 0 : x === null ? 1 : -1) : cmp(x, y);
          return dirOf(p.sort, c || cmp(b64(a.hash), b64(b.hash)));
        });
      const { msgHash, bodyHash, ...rest } = p;
      const got = await api.messages({
        ...rest,
        ...(msgHash ? { msgHash: [Buffer.from(msgHash, 'hex')] } : {}),
        ...(bodyHash ? { bodyHash: Buffer.from(bodyHash, 'hex') } : {}),
        noAddressBook: true,
        noMetadata: true,
      });
      expect(got.messages.map((m) => m.hash), JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toEqual(page(want, p.limit, p.offset).map((x) => b64(x.hash)));
    }
  });
});

describe('/traces and /actions', () => {
  const windowOf = () => {
    const w = windows(pick(['lt', 'utime', 'none', 'none']));
    return w;
  };

  it('/traces pages match a full scan for random filters', async () => {
    for (let i = 0; i < 150; i++) {
      const p: { account?: Address; traceId?: string; txHash?: string; mcSeqno?: number; limit: number; offset: number; sort: Sort; startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number } = { ...pageParams(), ...windowOf() };
      const r = rand();
      if (r < 0.35) p.account = pick(accounts);
      else if (r < 0.45) p.traceId = pick(txs).traceRootHash;
      else if (r < 0.55) p.txHash = pick(txs).hash;
      else if (r < 0.65) p.mcSeqno = pick(txs).mcSeqno!;
      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
      const want = allTraces
        .filter((t) => {
          const list = Object.values(t.transactions!);
          if (p.account && !list.some((x) => x.account === rawUpper(p.account!))) return false;
          if (p.traceId && t.trace_id !== b64(p.traceId)) return false;
          if (p.txHash && !t.transactions_order!.includes(b64(p.txHash))) return false;
          if (p.mcSeqno !== undefined && Number(t.mc_seqno_end) !== p.mcSeqno) return false;
          if (p.startUtime !== undefined && t.end_utime! < p.startUtime) return false;
          if (p.endUtime !== undefined && t.end_utime! > p.endUtime) return false;
          if (p.startLt !== undefined && BigInt(t.end_lt!) < p.startLt) return false;
          if (p.endLt !== undefined && BigInt(t.end_lt!) > p.endLt) return false;
          return true;
        })
        .sort((a, b) => dirOf(p.sort, (hasUtime ? cmp(a.end_utime!, b.end_utime!) : cmp(BigInt(a.end_lt!), BigInt(b.end_lt!))) || cmp(a.trace_id!, b.trace_id!)));
      const { traceId, txHash, ...rest } = p;
      const got = await api.listTraces({
        ...rest,
        ...(traceId ? { traceId: [Buffer.from(traceId, 'hex')] } : {}),
        ...(txHash ? { txHash: [Buffer.from(txHash, 'hex')] } : {}),
        includeActions: true,
        noAddressBook: true,
        noMetadata: true,
      });
      expect(got.traces, JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toEqual(page(want, p.limit, p.offset));
    }
  });

  it('/actions pages match a full scan for random filters', async () => {
    for (let i = 0; i < 150; i++) {
      const p: { account?: Address; traceId?: string; txHash?: string; mcSeqno?: number; actionId?: string; limit: number; offset: number; sort: Sort; startLt?: bigint; endLt?: bigint; startUtime?: number; endUtime?: number } = { ...pageParams(), ...windowOf() };
      const r = rand();
      if (r < 0.35) p.account = pick(accounts);
      else if (r < 0.42) p.traceId = pick(txs).traceRootHash;
      else if (r < 0.52) p.txHash = pick(txs).hash;
      else if (r < 0.6) p.mcSeqno = pick(txs).mcSeqno!;
      else if (r < 0.66) p.actionId = pick(allActions).action_id;
      const hasUtime = p.startUtime !== undefined || p.endUtime !== undefined;
      // trace_id alone (without account) and action_id drop the other filters (buildActionsQueryV2)
      const want = allActions
        .filter((a) => {
          if (p.traceId) return a.trace_id === b64(p.traceId);
          if (p.actionId) return a.action_id === p.actionId;
          if (p.account && !(a.accounts ?? []).includes(rawUpper(p.account))) return false;
          if (p.txHash && !a.transactions.includes(b64(p.txHash))) return false;
          if (p.mcSeqno !== undefined && a.trace_mc_seqno_end !== p.mcSeqno) return false;
          if (p.startUtime !== undefined && a.trace_end_utime < p.startUtime) return false;
          if (p.endUtime !== undefined && a.trace_end_utime > p.endUtime) return false;
          if (p.startLt !== undefined && BigInt(a.trace_end_lt) < p.startLt) return false;
          if (p.endLt !== undefined && BigInt(a.trace_end_lt) > p.endLt) return false;
          return true;
        })
        .sort((a, b) => {
          const c = hasUtime
            ? cmp(a.trace_end_utime, b.trace_end_utime) || cmp(a.trace_id ?? '', b.trace_id ?? '') || cmp(a.end_utime, b.end_utime)
            : cmp(BigInt(a.trace_end_lt), BigInt(b.trace_end_lt)) || cmp(a.trace_id ?? '', b.trace_id ?? '') || cmp(BigInt(a.end_lt), BigInt(b.end_lt));
          return dirOf(p.sort, c || cmp(a.action_id, b.action_id));
        });
      const { traceId, txHash, actionId, ...rest } = p;
      const got = await api.actions({
        ...rest,
        ...(traceId ? { traceId: [Buffer.from(traceId, 'hex')] } : {}),
        ...(txHash ? { txHash: [Buffer.from(txHash, 'hex')] } : {}),
        ...(actionId ? { actionId: [Buffer.from(actionId, 'base64')] } : {}),
        includeAccounts: true,
        noAddressBook: true,
        noMetadata: true,
      });
      expect(got.actions, JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toEqual(page(want, p.limit, p.offset));
    }
  });
});

describe('/blocks', () => {
  it('pages match a full scan for random filters', async () => {
    const store = chain.store;
    const natural = [...store.mcBlocks, ...store.shardBlocks].sort((a, b) => cmp(a.mcSeqno, b.mcSeqno) || cmp(a.workchain, b.workchain) || cmp(a.seqno, b.seqno));
    for (let i = 0; i < 150; i++) {
      const p: { workchain?: number; seqno?: number; mcSeqno?: number; rootHash?: Buffer; limit: number; offset: number; sort?: Sort; startUtime?: number; endUtime?: number } = pageParams();
      if (chance(0.3)) delete p.sort;
      const b = pick(natural);
      const r = rand();
      if (r < 0.25) p.seqno = b.seqno;
      else if (r < 0.4) p.mcSeqno = b.mcSeqno;
      else if (r < 0.5) p.rootHash = b.rootHash;
      if (chance(0.3)) p.workchain = pick([-1, 0]);
      if (chance(0.2)) p.startUtime = b.genUtime;
      const want = natural
        .map((x, i) => ({ x, i }))
        .filter(({ x }) =>
          (p.workchain === undefined || x.workchain === p.workchain) &&
          (p.seqno === undefined || x.seqno === p.seqno) &&
          (p.mcSeqno === undefined || x.mcSeqno === p.mcSeqno) &&
          (p.rootHash === undefined || x.rootHash.equals(p.rootHash)) &&
          (p.startUtime === undefined || x.genUtime >= p.startUtime),
        )
        .sort((a, c) => (p.sort ? dirOf(p.sort, cmp(a.x.genUtime, c.x.genUtime) || cmp(a.i, c.i)) : a.i - c.i))
        .map(({ x }) => `${x.workchain}:${x.seqno}`);
      const got = await api.blocks(p);
      expect(got.blocks.map((x) => `${x.workchain}:${x.seqno}`)).toEqual(page(want, p.limit, p.offset));
    }
  });
});
