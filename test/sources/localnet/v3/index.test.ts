/**
 * localV3Api over a real local chain: every route answers with shapes the openapi accepts (with the
 * documented corrections of test/helpers/openapi.ts), the reference's filters, orders, 404s and 422s hold,
 * v3 agrees with v2 on the same transactions, and paging visits each transaction exactly once.
 */
import { Address, Cell, internal, loadMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api/errors.js';
import type { Transaction as WireTransaction } from '../../../../src/api/v3/transactions.js';
import type { Shared } from '../../../../src/api/shared-answers.js';
import { LocalChain } from '../../../../src/sources/localnet/index.js';
import { genesisTokens, signedTransfer } from '../../../../src/sources/localnet/chain/genesis.js';
import { genesisDns } from '../../../../src/sources/localnet/chain/genesis-dns.js';
import { localV3Api } from '../../../../src/sources/localnet/v3/index.js';
import { type V3Caller, withResolvedPaging } from '../../../../src/api/v3/paging.js';
import { rawUpper } from '../../../../src/model/address.js';
import { normalizedHash } from '../../../../src/model/message.js';
import { assertResponse } from '../../../helpers/openapi.js';

const V3 = '/api/v3';
const ok = <T>(path: string, body: T, method: 'get' | 'post' = 'get'): T => assertResponse(`${V3}${path}`, method, 200, body, { closed: true });

async function rejects(p: Promise<unknown>, status: number, message: string | RegExp): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected an ApiError').toBeInstanceOf(ApiError);
  expect((e as ApiError).status).toBe(status);
  if (typeof message === 'string') expect((e as ApiError).message).toBe(message);
  else expect((e as ApiError).message).toMatch(message);
}

let chain: LocalChain;
let api: V3Caller;
let alice: Address;
let bob: Address;
/** hash (base64) of the client's external message sent in beforeAll */
let sent: { hash: string; norm: string };

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'v3-api-test', blockInterval: 0 });
  api = withResolvedPaging(localV3Api(chain));
  const [a, b] = chain.keyedWallets();
  alice = a!.contract.address;
  bob = b!.contract.address;
  // a few more transactions: faucet credits and a signed transfer with a comment through POST /message
  await chain.faucet(bob, toNano('3'));
  await chain.faucet(bob, toNano('4'));
  const info = await chain.v2.getWalletInformation({ address: alice });
  const boc = signedTransfer(a!, info.seqno!, [internal({ to: bob, value: toNano('1'), bounce: true, body: 'v3 says hi' })], Math.floor(Date.now() / 1000) + 60);
  const res = ok('/message', await api.message({ boc: boc.toBoc() }), 'post');
  sent = { hash: res.message_hash, norm: res.message_hash_norm! };
  await chain.faucet(alice, toNano('2'));
});

afterAll(async () => {
  await chain?.close();
});

type V3Transaction = Shared<WireTransaction>;

const allTxs = async (): Promise<readonly V3Transaction[]> => (await api.transactions({ limit: 1000, sort: 'asc' })).transactions;

describe('blocks', () => {
  it('masterchainInfo: first is the zerostate, last the newest masterchain block', async () => {
    const r = ok('/masterchainInfo', await api.masterchainInfo());
    expect(r.first.seqno).toBe(0);
    expect(r.first.workchain).toBe(-1);
    expect(r.last.seqno).toBe(chain.store.lastMc.seqno);
    expect(r.last.shard).toBe('8000000000000000');
    expect(Object.keys(r)).toEqual(['last', 'first']);
  });

  it('blocks: filters, gen_utime order when sort is given, start_lt windows', async () => {
    const all = ok('/blocks', await api.blocks({ limit: 1000 })).blocks;
    expect(all.length).toBe(chain.store.mcBlocks.length + chain.store.shardBlocks.length);
    const mc = ok('/blocks', await api.blocks({ workchain: -1, limit: 1000 })).blocks;
    expect(mc.every((b) => b.workchain === -1)).toBe(true);
    expect(mc.length).toBe(chain.store.mcBlocks.length);
    const desc = ok('/blocks', await api.blocks({ sort: 'desc', limit: 1000 })).blocks;
    expect(desc.map((b) => Number(b.gen_utime))).toEqual([...desc.map((b) => Number(b.gen_utime))].sort((x, y) => y - x));
    const one = ok('/blocks', await api.blocks({ workchain: 0, shard: 0x8000000000000000n, seqno: 2 })).blocks;
    expect(one).toHaveLength(1);
    expect(one[0]!.masterchain_block_ref).toEqual({ workchain: -1, shard: '8000000000000000', seqno: 2 });
    expect(one[0]!.prev_blocks).toEqual([{ workchain: 0, shard: '8000000000000000', seqno: 1 }]);
    const byMc = ok('/blocks', await api.blocks({ mcSeqno: 3 })).blocks;
    expect(byMc.map((b) => b.workchain).sort()).toEqual([-1, 0]);
    const lo = BigInt(all[5]!.start_lt);
    const win = ok('/blocks', await api.blocks({ startLt: lo, endLt: lo, limit: 1000 })).blocks;
    expect(win.length).toBeGreaterThan(0);
    expect(win.every((b) => BigInt(b.start_lt) === lo)).toBe(true);
    const byHash = ok('/blocks', await api.blocks({ rootHash: Buffer.from(all[3]!.root_hash, 'base64') })).blocks;
    expect(byHash).toEqual([all[3]]);
    expect(ok('/blocks', await api.blocks({ limit: 2, offset: 1 })).blocks).toEqual(all.slice(1, 3));
  });

  it('masterchainBlockShards and masterchainBlockShardState answer {blocks}; 404 blocks not found', async () => {
    const shards = ok('/masterchainBlockShards', await api.masterchainBlockShards({ seqno: 2 })).blocks;
    expect(shards.map((b) => [b.workchain, b.seqno])).toEqual([
      [-1, 2],
      [0, 2],
    ]);
    const state = ok('/masterchainBlockShardState', await api.masterchainBlockShardState({ seqno: 2 })).blocks;
    expect(state.map((b) => [b.workchain, b.seqno])).toEqual([[0, 2]]);
    await rejects(api.masterchainBlockShards({ seqno: 999_999 }), 404, 'blocks not found');
    await rejects(api.masterchainBlockShardState({ seqno: 999_999 }), 404, 'blocks not found');
  });
});

describe('transactions', () => {
  it('default: newest first (lt desc), with every documented member', async () => {
    const r = ok('/transactions', await api.transactions({}));
    const lts = r.transactions.map((t) => BigInt(t.lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    for (const t of r.transactions) {
      expect(t.block_ref.shard).toBe('8000000000000000');
      expect(t.mc_block_seqno).toBeGreaterThan(0);
      expect(t.trace_id).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(t.account_state_after!.account_status).toMatch(/^(active|uninit|frozen|nonexist)$/);
      expect(t.finality).toBe('finalized');
      expect(r.address_book[t.account]).toBeDefined();
      for (const m of t.out_msgs) if (m.destination) expect(r.address_book[m.destination]).toBeDefined();
    }
  });

  it('states chain: each transaction starts from the state the previous one of its account left', async () => {
    const byAccount = new Map<string, V3Transaction[]>();
    for (const t of await allTxs()) byAccount.set(t.account, [...(byAccount.get(t.account) ?? []), t]);
    for (const list of byAccount.values()) {
      for (let i = 1; i < list.length; i++) {
        expect(list[i]!.account_state_before).toEqual(list[i - 1]!.account_state_after);
        expect(list[i]!.prev_trans_hash).toBe(list[i - 1]!.hash);
        expect(list[i]!.prev_trans_lt).toBe(list[i - 1]!.lt);
      }
    }
  });

  it('trace_id is the root transaction of the cascade; the external message carries hash_norm', async () => {
    const byMsg = ok('/transactionsByMessage', await api.transactionsByMessage({ msgHash: [Buffer.from(sent.hash, 'base64')] }));
    expect(byMsg.transactions).toHaveLength(1);
    const root = byMsg.transactions[0]!;
    expect(root.trace_id).toBe(root.hash);
    expect(root.in_msg!.source).toBeNull();
    expect(root.in_msg!.hash_norm).toBe(sent.norm);
    const child = ok('/adjacentTransactions', await api.adjacentTransactions({ hash: Buffer.from(root.hash, 'base64'), direction: 'out' })).transactions;
    expect(child).toHaveLength(1);
    expect(child[0]!.trace_id).toBe(root.hash);
    expect(child[0]!.account).toBe(rawUpper(bob));
    expect(child[0]!.in_msg!.message_content!.decoded).toEqual({ type: 'text_comment', comment: 'v3 says hi' });
    expect(child[0]!.in_msg!.opcode).toBe('0x00000000');
    // and back: the child's inbound message came from the root
    const parent = ok('/adjacentTransactions', await api.adjacentTransactions({ hash: Buffer.from(child[0]!.hash, 'base64'), direction: 'in' })).transactions;
    expect(parent.map((t) => t.hash)).toEqual([root.hash]);
    const both = ok('/adjacentTransactions', await api.adjacentTransactions({ hash: Buffer.from(child[0]!.hash, 'base64') })).transactions;
    expect(both.map((t) => t.hash)).toContain(root.hash);
  });

  it('filters: account list, hash list, lt, mc_seqno, block, utime and lt windows', async () => {
    const all = await allTxs();
    const t = all[all.length - 3]!;
    const byHash = ok('/transactions', await api.transactions({ hash: [Buffer.from(t.hash, 'base64'), Buffer.from(all[0]!.hash, 'base64')] }));
    expect(byHash.transactions.map((x) => x.hash).sort()).toEqual([t.hash, all[0]!.hash].sort());
    const byLt = ok('/transactions', await api.transactions({ lt: BigInt(t.lt) }));
    expect(byLt.transactions.map((x) => x.hash)).toEqual([t.hash]);
    const byMc = ok('/transactions', await api.transactions({ mcSeqno: t.mc_block_seqno, limit: 1000 }));
    expect(byMc.transactions.every((x) => x.mc_block_seqno === t.mc_block_seqno)).toBe(true);
    expect(byMc.transactions.map((x) => x.hash)).toContain(t.hash);
    const byBlock = ok('/transactions', await api.transactions({ workchain: 0, shard: -9223372036854775808n, seqno: t.block_ref.seqno, limit: 1000 }));
    expect(byBlock.transactions.every((x) => x.block_ref.seqno === t.block_ref.seqno && x.block_ref.workchain === 0)).toBe(true);
    const two = ok('/transactions', await api.transactions({ account: [alice, bob], limit: 1000 }));
    expect(new Set(two.transactions.map((x) => x.account))).toEqual(new Set([rawUpper(alice), rawUpper(bob)]));
    const win = ok('/transactions', await api.transactions({ startLt: BigInt(all[2]!.lt), endLt: BigInt(all[4]!.lt), sort: 'asc' }));
    expect(win.transactions.map((x) => x.hash)).toEqual(all.slice(2, 5).map((x) => x.hash));
    const utime = ok('/transactions', await api.transactions({ startUtime: t.now, endUtime: t.now, limit: 1000 }));
    expect(utime.transactions.every((x) => x.now === t.now)).toBe(true);
    expect(utime.transactions.map((x) => x.hash)).toContain(t.hash);
  });

  it('transactionsByMasterchainBlock: lt order, 404 for a missing block', async () => {
    const seqno = chain.store.lastMc.seqno;
    const r = ok('/transactionsByMasterchainBlock', await api.transactionsByMasterchainBlock({ seqno, sort: 'asc' }));
    expect(r.transactions.length).toBeGreaterThan(0);
    expect(r.transactions.every((t) => t.mc_block_seqno === seqno)).toBe(true);
    await rejects(api.transactionsByMasterchainBlock({ seqno: 999_999 }), 404, 'masterchain block 999999 not found');
    await rejects(api.transactions({ mcSeqno: 999_999 }), 404, 'masterchain block 999999 not found');
  });

  it('transactionsByMessage: by hash (raw or normalised), body hash and opcode; 422 without any', async () => {
    const byNorm = ok('/transactionsByMessage', await api.transactionsByMessage({ msgHash: [Buffer.from(sent.norm, 'base64')] }));
    expect(byNorm.transactions).toHaveLength(1);
    const root = byNorm.transactions[0]!;
    const out = root.out_msgs[0]!;
    const both = ok('/transactionsByMessage', await api.transactionsByMessage({ msgHash: [Buffer.from(out.hash, 'base64')] }));
    // the message appears twice: out on the sender, in on the receiver
    expect(both.transactions).toHaveLength(2);
    expect(BigInt(both.transactions[0]!.lt)).toBeGreaterThan(BigInt(both.transactions[1]!.lt));
    const outOnly = await api.transactionsByMessage({ msgHash: [Buffer.from(out.hash, 'base64')], direction: 'out' });
    expect(outOnly.transactions.map((t) => t.hash)).toEqual([root.hash]);
    const byBody = ok('/transactionsByMessage', await api.transactionsByMessage({ bodyHash: Buffer.from(out.message_content!.hash!, 'base64'), direction: 'in' }));
    expect(byBody.transactions.map((t) => t.in_msg!.hash)).toContain(out.hash);
    // an opcode selects the sending and the receiving side (toncenter-newer.md §2)
    const byOp = ok('/transactionsByMessage', await api.transactionsByMessage({ opcode: 0, limit: 1000 }));
    const sends = (t: (typeof byOp.transactions)[number]) => t.out_msgs.some((m) => m.opcode === '0x00000000');
    expect(byOp.transactions.every((t) => t.in_msg?.opcode === '0x00000000' || sends(t))).toBe(true);
    expect(byOp.transactions.some((t) => t.in_msg?.opcode !== '0x00000000')).toBe(true);
    await rejects(api.transactionsByMessage({}), 422, 'at least one of msg_hash, body_hash, opcode should be specified');
    await rejects(api.transactionsByMessage({ opcode: 0, direction: 'sideways' as 'in' }), 422, 'direction should be one of: in, out');
  });

  it('adjacentTransactions: 404 when there is none', async () => {
    await rejects(api.adjacentTransactions({ hash: Buffer.alloc(32, 7) }), 404, 'adjacent transactions not found');
  });
});

describe('v2 and v3 agree on the same transactions', () => {
  it('hash, lt, utime, fees, messages and values', async () => {
    for (const address of [alice, bob]) {
      const v2 = await chain.v2.getTransactions({ address, limit: 100, toLt: 0n, archival: true });
      const v3 = (await api.transactions({ account: [address], limit: 1000 })).transactions;
      expect(v3.map((t) => t.hash)).toEqual(v2.map((t) => t.transaction_id.hash));
      v2.forEach((a, i) => {
        const b = v3[i]!;
        expect(b.lt).toBe(a.transaction_id.lt);
        expect(b.now).toBe(a.utime);
        expect(b.account).toBe(a.account);
        // v2's fee adds the out-messages' forwarding fees to total_fees; its storage_fee is the storage phase's
        const fwd = b.out_msgs.reduce((s, m) => s + BigInt(m.fwd_fee ?? 0) + BigInt(m.ihr_fee ?? 0), 0n);
        expect(BigInt(a.fee)).toBe(BigInt(b.total_fees) + fwd);
        expect(a.storage_fee).toBe(b.description.storage_ph?.storage_fees_collected ?? '0');
        const pairs = [[a.in_msg, b.in_msg] as const, ...a.out_msgs.map((m, k) => [m, b.out_msgs[k]] as const)];
        for (const [m2, m3] of pairs) {
          if (!m2 || !m3) {
            expect(m2 ?? null).toBe(m3 ?? null);
            continue;
          }
          expect(m3.hash).toBe(m2.hash);
          expect(m3.message_content!.hash).toBe(m2.body_hash);
          expect(m3.value ?? '0').toBe(m2.value);
          expect(m3.fwd_fee ?? '0').toBe(m2.fwd_fee);
          expect(m3.created_lt ?? '0').toBe(m2.created_lt);
          const raw = (s: string) => (s === '' ? null : rawUpper(Address.parse(s)));
          expect(m3.source).toBe(raw(m2.source));
          expect(m3.destination).toBe(raw(m2.destination));
        }
      });
    }
  });
});

type Key = [bigint, string];
const byKey = (a: Key, b: Key): number => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/** (effective lt, hash) of each message: created_lt, or the receiving transaction's lt for an external-in. */
async function effectiveKeys(msgs: readonly { hash: string; created_lt: string | null; in_msg_tx_hash?: string }[]): Promise<Key[]> {
  const ltOf = new Map((await allTxs()).map((t) => [t.hash, BigInt(t.lt)]));
  return msgs.map((m) => [m.created_lt !== null ? BigInt(m.created_lt) : ltOf.get(m.in_msg_tx_hash!)!, m.hash]);
}

describe('pagination walks every transaction exactly once, in order', () => {
  const key = (t: V3Transaction) => t.hash;

  it('limit/offset over one account, both sorts', async () => {
    for (const address of [alice, bob]) {
      const full = (await api.transactions({ account: [address], limit: 1000, sort: 'asc' })).transactions.map(key);
      expect(full.length).toBeGreaterThanOrEqual(3);
      for (const sort of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        for (let offset = 0; ; offset += 2) {
          const pageTxs = ok('/transactions', await api.transactions({ account: [address], limit: 2, offset, sort })).transactions;
          if (pageTxs.length === 0) break;
          seen.push(...pageTxs.map(key));
        }
        expect(seen).toEqual(sort === 'asc' ? full : [...full].reverse());
      }
    }
  });

  it('lt windows: end_lt cursor (desc) and start_lt cursor (asc)', async () => {
    const full = (await api.transactions({ account: [bob], limit: 1000, sort: 'asc' })).transactions;
    const down: V3Transaction[] = [];
    let endLt: bigint | undefined;
    for (;;) {
      const p = (await api.transactions({ account: [bob], limit: 2, sort: 'desc', ...(endLt !== undefined ? { endLt } : {}) })).transactions;
      if (p.length === 0) break;
      down.push(...p);
      endLt = BigInt(p[p.length - 1]!.lt) - 1n;
    }
    expect(down.map(key)).toEqual(full.map(key).reverse());
    const up: V3Transaction[] = [];
    let startLt = 0n;
    for (;;) {
      const p = (await api.transactions({ account: [bob], limit: 2, sort: 'asc', startLt })).transactions;
      if (p.length === 0) break;
      up.push(...p);
      startLt = BigInt(p[p.length - 1]!.lt) + 1n;
    }
    expect(up.map(key)).toEqual(full.map(key));
  });

  it('every account at once: limit/offset over the whole chain', async () => {
    const full = (await allTxs()).map(key);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 3) {
      const p = (await api.transactions({ limit: 3, offset, sort: 'asc' })).transactions;
      if (p.length === 0) break;
      seen.push(...p.map(key));
    }
    expect(seen).toEqual(full);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('messages', () => {
  it('one row per message with in/out transaction hashes; effective lt desc by default', async () => {
    const r = ok('/messages', await api.messages({ limit: 1000 }));
    const hashes = r.messages.map((m) => m.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    const internal = r.messages.filter((m) => m.source && m.destination);
    expect(internal.every((m) => m.in_msg_tx_hash && m.out_msg_tx_hash)).toBe(true);
    const keys = await effectiveKeys(r.messages);
    expect(keys).toEqual([...keys].sort(byKey).reverse());
    // metadata only for the genesis token contracts (the DNS collection and item among them), the wallets have none
    const t = genesisTokens(chain.keyedWallets());
    const dns = genesisDns();
    const tokenContracts = [t.jettonMaster, ...t.jettonWallets.map((w) => w.address), t.nftCollection, ...t.nftItems, dns.collection, dns.item].map(rawUpper);
    expect(Object.keys(r.metadata).every((a) => tokenContracts.includes(a))).toBe(true);
    expect(Object.keys(r.metadata)).toEqual(expect.arrayContaining([rawUpper(t.jettonMaster), rawUpper(t.nftCollection)]));
  });

  it("v1.3 order: external-in messages sit at their receiving transaction's lt among the others, both sorts; limit/offset rebuilds the list", async () => {
    for (const sort of ['asc', 'desc'] as const) {
      const full = ok('/messages', await api.messages({ limit: 1000, sort })).messages;
      const keys = await effectiveKeys(full);
      const sorted = [...keys].sort(byKey);
      expect(keys).toEqual(sort === 'asc' ? sorted : sorted.reverse());
      // the client's signed transfer (an external-in) is neither first nor last: internal messages on both sides
      const at = full.findIndex((m) => m.hash === sent.hash);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(full.length - 1);
      const inTx = full[at]!.in_msg_tx_hash!;
      // its key is its receiving transaction's lt, and the message that transaction sends comes right after it (asc)
      const outOfIt = full.findIndex((m) => m.out_msg_tx_hash === inTx);
      expect(outOfIt).toBe(sort === 'asc' ? at + 1 : at - 1);
      const seen: string[] = [];
      for (let offset = 0; ; offset += 4) {
        const page = ok('/messages', await api.messages({ limit: 4, offset, sort })).messages;
        if (page.length === 0) break;
        seen.push(...page.map((m) => m.hash));
      }
      expect(seen).toEqual(full.map((m) => m.hash));
      // external-in only (source null): the same order among themselves
      const ext = ok('/messages', await api.messages({ source: null, limit: 1000, sort })).messages;
      expect(ext.map((m) => m.hash)).toEqual(full.filter((m) => m.source === null).map((m) => m.hash));
    }
  });

  it('lt windows bound created_lt and hold no external-in (as v1.3), even around its receiving lt', async () => {
    const full = (await api.messages({ limit: 1000, sort: 'asc' })).messages;
    const keys = await effectiveKeys(full);
    const at = full.findIndex((m) => m.hash === sent.hash);
    const lt = keys[at]![0];
    const win = ok('/messages', await api.messages({ startLt: lt - 1000n, endLt: lt + 1000n, limit: 1000, sort: 'asc' })).messages;
    expect(win.length).toBeGreaterThan(0);
    expect(win.every((m) => m.created_lt !== null && BigInt(m.created_lt) >= lt - 1000n && BigInt(m.created_lt) <= lt + 1000n)).toBe(true);
    expect(win.map((m) => m.hash)).toEqual(
      full.filter((m) => m.created_lt !== null && BigInt(m.created_lt) >= lt - 1000n && BigInt(m.created_lt) <= lt + 1000n).map((m) => m.hash),
    );
  });

  it('source=null selects external-in; msg_hash matches the normalised hash', async () => {
    const ext = ok('/messages', await api.messages({ source: null, limit: 1000 })).messages;
    expect(ext.length).toBeGreaterThan(0);
    expect(ext.every((m) => m.source === null && m.hash_norm !== undefined && m.in_msg_tx_hash && !m.out_msg_tx_hash)).toBe(true);
    const byNorm = ok('/messages', await api.messages({ msgHash: [Buffer.from(sent.norm, 'base64')] })).messages;
    expect(byNorm.map((m) => m.hash)).toEqual([sent.hash]);
    const only = ok('/messages', await api.messages({ onlyExternals: true, limit: 1000 })).messages;
    expect(only.map((m) => m.hash).sort()).toEqual(ext.map((m) => m.hash).sort());
    const excl = ok('/messages', await api.messages({ excludeExternals: true, limit: 1000 })).messages;
    expect(excl.every((m) => m.created_lt !== null)).toBe(true);
  });

  it('source/destination/opcode/lt/utime/direction filters', async () => {
    const fromAlice = ok('/messages', await api.messages({ source: alice, limit: 1000 })).messages;
    expect(fromAlice.length).toBeGreaterThan(0);
    expect(fromAlice.every((m) => m.source === rawUpper(alice))).toBe(true);
    const toBob = ok('/messages', await api.messages({ destination: bob, opcode: 0, limit: 1000 })).messages;
    expect(toBob.length).toBeGreaterThan(0);
    expect(toBob.every((m) => m.destination === rawUpper(bob) && m.opcode === '0x00000000')).toBe(true);
    const some = fromAlice[0]!;
    const lt = BigInt(some.created_lt!);
    const byLt = ok('/messages', await api.messages({ startLt: lt, endLt: lt })).messages;
    expect(byLt.map((m) => m.hash)).toContain(some.hash);
    const at = Number(some.created_at);
    const byTime = ok('/messages', await api.messages({ startUtime: at, endUtime: at, limit: 1000 })).messages;
    expect(byTime.every((m) => Number(m.created_at) === at)).toBe(true);
    const outs = ok('/messages', await api.messages({ direction: 'out', limit: 1000 })).messages;
    expect(outs.every((m) => m.out_msg_tx_hash)).toBe(true);
    const noDest = ok('/messages', await api.messages({ destination: null, limit: 1000 })).messages;
    expect(noDest.every((m) => m.destination === null)).toBe(true);
  });

  it('the normalised hash of an external message equals TEP-467 recomputed from its BoC', async () => {
    const ext = (await api.messages({ source: null, limit: 1 })).messages[0]!;
    const tx = (await api.transactionsByMessage({ msgHash: [Buffer.from(ext.hash, 'base64')] })).transactions[0]!;
    expect(tx.in_msg!.hash).toBe(ext.hash);
    const v2 = await chain.v2.getTransactions({ address: Address.parseRaw(tx.account), limit: 100, toLt: 0n, archival: true });
    const raw = v2.find((t) => t.transaction_id.hash === tx.hash)!;
    const msgCell = Cell.fromBase64(raw.data).refs[0]!.refs[0]!;
    expect(normalizedHash(loadMessage(msgCell.beginParse()), msgCell).toString('base64')).toBe(ext.hash_norm);
  });
});

describe('accounts', () => {
  it('accountStates: latest state with hashes, BoCs, methods and interfaces; unknown addresses absent', async () => {
    const nobody = Address.parseRaw('0:' + '00'.repeat(31) + '01');
    const r = ok('/accountStates', await api.accountStates({ address: [alice, nobody, chain.faucetAddress] }));
    expect(r.accounts.map((a) => a.address)).toEqual([rawUpper(alice), rawUpper(chain.faucetAddress)]);
    const a = r.accounts[0]!;
    expect(a.status).toBe('active');
    expect(a.code_boc).toBeDefined();
    expect(a.interfaces).toEqual(['wallet_v4r2']);
    expect(a.contract_methods!.length).toBeGreaterThan(0);
    const last = (await api.transactions({ account: [alice], limit: 1 })).transactions[0]!;
    expect(a.last_transaction_hash).toBe(last.hash);
    expect(a.last_transaction_lt).toBe(last.lt);
    expect(a.account_state_hash).toBe(last.account_state_after!.hash);
    expect(a.balance).toBe(last.account_state_after!.balance);
    expect(r.address_book[rawUpper(alice)]!.user_friendly).toBe(alice.toString({ bounceable: false, urlSafe: true }));
    const noBoc = ok('/accountStates', await api.accountStates({ address: [alice], includeBoc: false }));
    expect(noBoc.accounts[0]!.code_boc).toBeUndefined();
    const byCode = await api.accountStates({ address: [alice, chain.faucetAddress], codeHash: [Buffer.from(a.code_hash!, 'base64')] });
    expect(byCode.accounts.map((x) => x.address)).toEqual([rawUpper(alice)]);
    await rejects(api.accountStates({ address: [] }), 422, 'address of account is required');
  });

  it('walletStates: wallet fields for standard wallets, is_wallet false otherwise', async () => {
    const carol = chain.keyedWallets()[2]!.contract.address;
    const r = ok('/walletStates', await api.walletStates({ address: [alice, carol, chain.faucetAddress] }));
    const [w4, w5, f] = r.wallets;
    expect(w4).toMatchObject({ is_wallet: true, wallet_type: 'wallet v4 r2', status: 'active' });
    expect(w4!.seqno).toBeGreaterThanOrEqual(1);
    expect(w5).toMatchObject({ is_wallet: true, wallet_type: 'wallet v5 r1', is_signature_allowed: true });
    expect(f!.is_wallet).toBe(false);
    expect(f!.wallet_type).toBeUndefined();
    await rejects(api.walletStates({ address: [] }), 422, 'address of account is required');
  });

  it('addressBook: keyed by the input strings; bounceable only for non-wallet code', async () => {
    const input = [alice.toString(), rawUpper(chain.faucetAddress), 'not-an-address', '0:' + 'ab'.repeat(32)];
    const r = ok('/addressBook', await api.addressBook({ address: input }));
    expect(Object.keys(r)).toEqual(input);
    expect(r[input[0]!]!.user_friendly).toMatch(/^UQ/);
    expect(r[input[0]!]!.interfaces).toEqual(['wallet_v4r2']);
    expect(r[input[1]!]!.user_friendly).toMatch(/^EQ/);
    expect(r['not-an-address']).toEqual({ user_friendly: null, domain: null, interfaces: null });
    expect(r[input[3]!]!.user_friendly).toMatch(/^UQ/);
    await rejects(api.addressBook({ address: [] }), 422, 'at least 1 address required');
    const testnet = withResolvedPaging(localV3Api(chain, { network: 'testnet' }));
    expect((await testnet.addressBook({ address: [input[0]!] }))[input[0]!]!.user_friendly).toMatch(/^0Q/);
  });

  it('topAccountsByBalance: a bare array, balance desc', async () => {
    const r = ok('/topAccountsByBalance', await api.topAccountsByBalance({ limit: 10 }));
    expect(Array.isArray(r)).toBe(true);
    expect(r[0]!.account).toBe(rawUpper(chain.faucetAddress));
    const b = r.map((x) => BigInt(x.balance));
    expect(b).toEqual([...b].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)));
    expect(ok('/topAccountsByBalance', await api.topAccountsByBalance({ limit: 2, offset: 1 }))).toEqual(r.slice(1, 3));
  });

  it('limit bounds: > 1000 is a 422 with the reference text, < 1 becomes 1', async () => {
    await rejects(api.transactions({ limit: 1001 }), 422, 'limit is not allowed: 1001 > 1000');
    await rejects(api.messages({ limit: 5000 }), 422, 'limit is not allowed: 5000 > 1000');
    await rejects(api.blocks({ limit: 1001 }), 422, 'limit is not allowed: 1001 > 1000');
    await rejects(api.topAccountsByBalance({ limit: 1001 }), 422, 'limit is not allowed: 1001 > 1000');
    expect((await api.transactions({ limit: 0 })).transactions).toHaveLength(1);
    expect((await api.transactions({ limit: 2, offset: -5 })).transactions).toHaveLength(2);
    expect((await api.transactions({})).transactions.length).toBe(Math.min(100, (await allTxs()).length));
  });
});

describe('legacy routes', () => {
  it('addressInformation: indexed state, the synthetic uninit answer, and the v2 path', async () => {
    const r = ok('/addressInformation', await api.addressInformation({ address: alice }));
    expect(r.status).toBe('active');
    expect(r.code).toMatch(/^te6/);
    expect(r.frozen_hash).toBeNull();
    const nobody = ok('/addressInformation', await api.addressInformation({ address: Address.parseRaw('0:' + '00'.repeat(32)) }));
    expect(nobody).toEqual({
      balance: '0',
      code: null,
      data: null,
      last_transaction_lt: '0',
      last_transaction_hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      frozen_hash: null,
      status: 'uninit',
      // the zero address is on the suspended list of the chain's config param 44 (sandbox's mainnet snapshot)
      suspended: true,
    });
    const v2 = ok('/addressInformation', await api.addressInformation({ address: alice, useV2: true }));
    expect(v2.balance).toBe(r.balance);
    expect(v2.last_transaction_hash).toBe(r.last_transaction_hash);
    expect(v2.status).toBe('active');
  });

  it('walletInformation: wallet fields; 409 not a wallet', async () => {
    const r = ok('/walletInformation', await api.walletInformation({ address: alice }));
    expect(r.wallet_type).toBe('wallet v4 r2');
    expect(r.wallet_id).toBe(698983191);
    const v2 = ok('/walletInformation', await api.walletInformation({ address: alice, useV2: true }));
    expect(v2.seqno).toBe(r.seqno);
    await rejects(api.walletInformation({ address: chain.faucetAddress }), 409, 'not a wallet');
    const fresh = ok('/walletInformation', await api.walletInformation({ address: Address.parseRaw('0:' + '00'.repeat(32)) }));
    expect(fresh.status).toBe('uninit');
  });

  it('runGetMethod: typed stack with hex numbers', async () => {
    const r = ok('/runGetMethod', await api.runGetMethod({ address: alice, method: 'seqno', stack: [] }), 'post');
    expect(r.exit_code).toBe(0);
    expect(r.stack).toHaveLength(1);
    expect(r.stack[0]!.type).toBe('num');
    expect(r.stack[0]!.value).toMatch(/^0x[0-9a-f]+$/);
    const pk = await api.runGetMethod({ address: alice, method: 'get_public_key', stack: [] });
    expect(BigInt(pk.stack[0]!.value as string)).toBe(BigInt('0x' + chain.keyedWallets()[0]!.keyPair.publicKey.toString('hex')));
  });

  it('estimateFee: the v2 result without @type', async () => {
    // a real transfer body: the wallet checks seqno and expiry before the (skipped) signature
    const w = chain.keyedWallets()[0]!;
    const { seqno } = await chain.v2.getWalletInformation({ address: alice });
    const ext = signedTransfer(w, seqno!, [internal({ to: bob, value: toNano('1') })], Math.floor(Date.now() / 1000) + 60);
    const body = loadMessage(ext.beginParse()).body.toBoc();
    const r = ok('/estimateFee', await api.estimateFee({ address: alice, body, ignoreChksig: true }), 'post');
    expect(Object.keys(r.source_fees).sort()).toEqual(['fwd_fee', 'gas_fee', 'in_fwd_fee', 'storage_fee']);
    expect(Array.isArray(r.destination_fees)).toBe(true);
  });

  it('estimateFee and message: a message the contract refuses is bad input (422), not a server error', async () => {
    const w = chain.keyedWallets()[0]!;
    const { seqno } = await chain.v2.getWalletInformation({ address: alice });
    // a stale seqno: the wallet throws before accepting, as it would on chain
    const ext = signedTransfer(w, seqno! + 5, [internal({ to: bob, value: toNano('1') })], Math.floor(Date.now() / 1000) + 60);
    const body = loadMessage(ext.beginParse()).body.toBoc();
    await expect(api.estimateFee({ address: alice, body, ignoreChksig: true })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('cannot apply external message'),
    });
    await expect(api.message({ boc: ext.toBoc() })).rejects.toMatchObject({ status: 422 });
  });

  it('message: returns message_hash and message_hash_norm', () => {
    expect(sent.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(sent.norm).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });
});

describe('switches', () => {
  it('noAddressBook / noMetadata give {}', async () => {
    const r = await api.messages({ limit: 3, noAddressBook: true, noMetadata: true });
    expect(r.address_book).toEqual({});
    expect(r.metadata).toEqual({});
    expect((await api.transactions({ limit: 1, noAddressBook: true })).address_book).toEqual({});
  });
});
