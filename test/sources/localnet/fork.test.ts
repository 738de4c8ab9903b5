/**
 * Fork mode over real HTTP on loopback: a gateway on its local chain plays the network; a second gateway forks
 * it at a sealed seqno through a counting proxy (so every upstream call is seen), transacts on top of the
 * forked contracts, and leaves the origin untouched.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import { storeJettonTransfer } from '../../../src/model/tlb/jetton.js';
import { storeNftTransfer } from '../../../src/model/tlb/nft.js';
import { buildExplorer } from '../../../src/surfaces/explorer/build.js';
import { startTestGateway, waitFor } from '../../helpers/gateway.js';
import { v2Rpc as v2 } from '../../helpers/v2-rpc.js';
import { v4Transfer } from '../../helpers/transfer.js';
import { forward } from '../../helpers/forward.js';
import { SseClient } from '../../../scripts/lib/streaming-client.js';

/** Forwards to `target` and counts the requests by path (the upstream calls a fork makes). */
class CountingProxy {
  readonly calls: string[] = [];
  private server?: Server;
  url = '';

  constructor(private readonly target: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.calls.push(req.url!);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        forward(this.target, req, body, res);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** calls made so far whose path ends with `path` (and whose URL holds `holding`) */
  named(path: string, holding = ''): string[] {
    return this.calls.filter((c) => c.split('?')[0]!.endsWith(path) && c.includes(holding));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server?.close(() => r()) ?? r());
  }
}

let origin: Gateway;
let proxy: CountingProxy;
let forkSeqno: number;
let wallets: readonly KeyedWallet[];
const dirs: string[] = [];


const sendBoc = async (g: Gateway, boc: Buffer) => v2(g, 'sendBoc', { boc: boc.toString('base64') });
const balanceOf = async (g: Gateway, a: Address, seqno?: number) => BigInt((await v2(g, 'getAddressBalance', { address: a.toRawString(), seqno })).result as string);
const walletSeqno = async (g: Gateway, a: Address) => (await v2(g, 'getWalletInformation', { address: a.toRawString() })).result.seqno as number;

async function startFork(extra: Record<string, unknown> = {}): Promise<Gateway> {
  return startTestGateway({ fork: { url: proxy.url, seqno: forkSeqno, apiKey: '', rps: 0 }, ...extra } as never);
}

beforeAll(async () => {
  origin = await startTestGateway();
  wallets = origin.chain!.keyedWallets();
  forkSeqno = origin.chain!.store.lastMc.seqno;
  proxy = new CountingProxy(origin.url);
  await proxy.start();
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await origin?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('fork', () => {
  let fork: Gateway;
  beforeAll(async () => {
    fork = await startFork();
  }, 120_000);
  afterAll(() => fork?.close());

  it('continues from the fork block with the network config and global id', async () => {
    const info = (await v2(fork, 'getMasterchainInfo', {})).result;
    expect(info.last.seqno).toBeGreaterThanOrEqual(forkSeqno);
    const first = fork.chain!.store.mcBlock(forkSeqno)!;
    expect(first.rootHash.equals(origin.chain!.store.mcBlock(forkSeqno)!.rootHash)).toBe(true);
    expect(fork.chain!.globalId).toBe(origin.chain!.globalId);
    const p19 = (await v2(fork, 'getConfigParam', { config_id: 19 })).result.config.bytes;
    expect(p19).toBe((await v2(origin, 'getConfigParam', { config_id: 19 })).result.config.bytes);
  });

  it('answers blocks and states at or before the fork block from the network', async () => {
    // the answer without its per-request @extra
    const answer = async (method: string, params: Record<string, unknown>, g = fork) => {
      const { '@extra': _, ...rest } = (await v2(g, method, params)).result;
      return rest;
    };
    const shard = '-9223372036854775808';
    for (const seqno of [forkSeqno - 2, forkSeqno]) {
      const header = { workchain: -1, shard, seqno };
      expect(await answer('getBlockHeader', header)).toEqual(await answer('getBlockHeader', header, origin));
      const txs = { workchain: -1, shard, seqno, count: 40 };
      expect(await answer('getBlockTransactions', txs)).toEqual(await answer('getBlockTransactions', txs, origin));
      expect(await answer('getShards', { seqno })).toEqual(await answer('getShards', { seqno }, origin));
      expect(await answer('lookupBlock', header)).toEqual(await answer('lookupBlock', header, origin));
    }
    // by an lt or a time before the fork block's end, in either workchain: the network's blocks
    const old = origin.chain!.store.mcBlock(forkSeqno - 2)!;
    // a time strictly before the fork block's
    const forkTime = origin.chain!.store.mcBlock(forkSeqno)!.genUtime;
    const earlier = origin.chain!.store.mcBlocks.filter((b) => b.genUtime < forkTime).at(-1)!;
    for (const workchain of [-1, 0]) {
      for (const by of [{ lt: (old.startLt + 1n).toString() }, { unixtime: earlier.genUtime }]) {
        const q = { workchain, shard, ...by };
        const there = await answer('lookupBlock', q, origin);
        expect(there.seqno).toBeGreaterThan(0);
        expect(await answer('lookupBlock', q)).toEqual(there);
      }
    }
    const alice = { address: wallets[0]!.contract.address.toRawString(), seqno: 2 };
    expect(await answer('getAddressInformation', alice)).toEqual(await answer('getAddressInformation', alice, origin));
  });

  it('reads an untouched account as the network held it at the fork block', async () => {
    const dave = wallets[3]!.contract.address;
    const there = (await v2(origin, 'getAddressInformation', { address: dave.toRawString(), seqno: forkSeqno })).result;
    const here = (await v2(fork, 'getAddressInformation', { address: dave.toRawString() })).result;
    expect(here.balance).toBe(there.balance);
    expect(here.code).toBe(there.code);
    expect(here.data).toBe(there.data);
    expect(here.last_transaction_id).toEqual(there.last_transaction_id);
  });

  it('runs a genesis wallet signed transfer on the forked wallet; the origin is unchanged', async () => {
    const [alice, bob] = wallets;
    const originBob = await balanceOf(origin, bob!.contract.address);
    const originSeqno = await walletSeqno(origin, alice!.contract.address);
    const before = await balanceOf(fork, bob!.contract.address);
    const sent = await sendBoc(fork, v4Transfer(alice!, bob!.contract.address, toNano('2'), await walletSeqno(fork, alice!.contract.address)));
    expect(sent.ok).toBe(true);
    // bob pays the storage fee of the time since his last transaction on the origin (the fork runs on today's clock)
    const after = await balanceOf(fork, bob!.contract.address);
    expect(after).toBeLessThanOrEqual(before + toNano('2'));
    expect(after).toBeGreaterThan(before + toNano('1.9'));
    expect(await walletSeqno(fork, alice!.contract.address)).toBe(originSeqno + 1);
    const last = fork.chain!.store.lastMc;
    expect(last.seqno).toBeGreaterThan(forkSeqno);
    expect(last.startLt).toBeGreaterThanOrEqual(origin.chain!.store.mcBlock(forkSeqno)!.endLt);
    expect(await balanceOf(origin, bob!.contract.address)).toBe(originBob);
    expect(await walletSeqno(origin, alice!.contract.address)).toBe(originSeqno);
  }, 60_000);

  it('runs a jetton transfer with the forked jetton contracts', async () => {
    const tokens = origin.chain!.tokens();
    const [alice, , carol] = wallets;
    const aliceJw = Address.parse(tokens.jetton.wallets.find((w) => w.owner === alice!.name)!.address);
    const carolJw = Address.parse(tokens.jetton.wallets.find((w) => w.owner === carol!.name)!.address);
    const jettonBalance = async (g: Gateway, jw: Address) => BigInt((await v2(g, 'getTokenData', { address: jw.toRawString() })).result.balance as string);
    const carolBefore = await jettonBalance(fork, carolJw);
    const body = beginCell()
      .store(
        storeJettonTransfer({
          queryId: 7n,
          amount: 123_000_000_000n,
          destination: carol!.contract.address,
          responseDestination: alice!.contract.address,
          customPayload: null,
          forwardTonAmount: 1n,
          forwardPayload: beginCell().storeUint(0, 32).storeStringTail('on the fork').endCell(),
        }),
      )
      .endCell();
    const wallet = alice!.contract as WalletContractV4;
    const transfer = wallet.createTransfer({
      seqno: await walletSeqno(fork, wallet.address),
      secretKey: alice!.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: aliceJw, value: toNano('0.2'), body })],
    });
    const sent = await sendBoc(fork, beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell().toBoc());
    expect(sent.ok).toBe(true);
    // the messages to jetton wallets the fork had not loaded are delivered once their accounts load
    await waitFor(async () => ((await jettonBalance(fork, carolJw)) === carolBefore + 123_000_000_000n ? true : undefined), 30_000);
    expect(await jettonBalance(origin, carolJw)).toBe(carolBefore);
  }, 60_000);

  it("pages an account's transactions across the fork point into the network's older ones", async () => {
    const bob = wallets[1]!.contract.address.toRawString();
    const local = fork.chain!.store.accountTransactions(wallets[1]!.contract.address).length;
    expect(local).toBeGreaterThan(0);
    const all = (await v2(fork, 'getTransactions', { address: bob, limit: 100 })).result as { transaction_id: { lt: string; hash: string } }[];
    const before = (await v2(origin, 'getTransactions', { address: bob, limit: 100 })).result as unknown[];
    expect(before.length).toBeGreaterThan(0);
    expect(all.length).toBe(local + before.length);
    expect(all.slice(local)).toEqual(before);
    // TonClient's way: each page starts at the last one's oldest transaction (inclusive)
    const paged = [...((await v2(fork, 'getTransactions', { address: bob, limit: 2 })).result as typeof all)];
    for (;;) {
      const last = paged[paged.length - 1]!.transaction_id;
      const next = (await v2(fork, 'getTransactions', { address: bob, limit: 2, lt: last.lt, hash: last.hash })).result as typeof all;
      if (next.length <= 1) break;
      paged.push(...next.slice(1));
    }
    expect(paged).toEqual(all);
    // the std shape too, and its previous_transaction_id is the network's once the page reached its part
    type Std = { transactions: { transaction_id: { lt: string } }[]; previous_transaction_id: { lt: string; hash: string } };
    const std = (await v2(fork, 'getTransactionsStd', { address: bob, limit: 100 })).result as Std;
    const stdThere = (await v2(origin, 'getTransactionsStd', { address: bob, limit: 100 })).result as Std;
    expect(std.transactions.map((t) => t.transaction_id.lt)).toEqual(all.map((t) => t.transaction_id.lt));
    expect(std.transactions.slice(local)).toEqual(stdThere.transactions);
    expect(std.previous_transaction_id).toEqual(stdThere.previous_transaction_id);
    const justLocal = (await v2(fork, 'getTransactionsStd', { address: bob, limit: local })).result as Std;
    expect(justLocal.previous_transaction_id.lt).toBe(all[local]!.transaction_id.lt);
  });

  describe("an account's v3 and GraphQL transactions across the fork point", () => {
    type V3Tx = { hash: string; lt: string; now: number; account: string };
    const bob = () => wallets[1]!.contract.address.toRawString();
    const v3 = async (g: Gateway, path: string) => {
      const res = await fetch(`${g.url}/api/v3${path}`);
      return { status: res.status, body: (await res.json()) as any };
    };
    const txs = async (g: Gateway, query: string) => {
      const { status, body } = await v3(g, `/transactions?account=${bob()}&${query}`);
      expect(status).toBe(200);
      return body as { transactions: V3Tx[]; address_book: Record<string, unknown> };
    };
    let all: V3Tx[];
    let local: number;
    beforeAll(async () => {
      all = (await txs(fork, 'limit=1000')).transactions;
      local = fork.chain!.store.accountTransactions(wallets[1]!.contract.address).length;
    });

    it('lists the local ones, then the network ones at or before the fork block, as the network answers them', async () => {
      const there = await txs(origin, 'limit=1000');
      expect(local).toBeGreaterThan(0);
      expect(there.transactions.length).toBeGreaterThan(0);
      expect(all.length).toBe(local + there.transactions.length);
      expect(all.slice(local)).toEqual(there.transactions);
      const forkEnd = origin.chain!.store.mcBlock(forkSeqno)!.endLt;
      expect(all.slice(0, local).every((t) => BigInt(t.lt) > forkEnd)).toBe(true);
      // the address book names the network's counterparties too
      const book = (await txs(fork, 'limit=1000')).address_book;
      for (const t of there.transactions) expect(book[t.account]).toBeDefined();
    });

    it('pages by limit and offset across the join, in both sorts', async () => {
      for (const sort of ['desc', 'asc'] as const) {
        const want = sort === 'desc' ? all : [...all].reverse();
        const paged: V3Tx[] = [];
        for (let offset = 0; offset < all.length + 2; offset += 2) paged.push(...(await txs(fork, `limit=2&offset=${offset}&sort=${sort}`)).transactions);
        expect(paged.map((t) => t.hash)).toEqual(want.map((t) => t.hash));
      }
      // an offset past the network's part, asked oldest first, lands in the local part
      const network = all.length - local;
      const tail = (await txs(fork, `limit=3&offset=${network + 1}&sort=asc`)).transactions;
      expect(tail.map((t) => t.hash)).toEqual([...all].reverse().slice(network + 1, network + 4).map((t) => t.hash));
    });

    it('applies lt and utime windows to the joined list', async () => {
      const lts = all.map((t) => BigInt(t.lt));
      // a window from the network's newest transaction to the second newest local one
      const startLt = lts[local + 1] ?? lts[local]!;
      const endLt = lts[Math.min(1, local - 1)]!;
      const want = all.filter((t) => BigInt(t.lt) >= startLt && BigInt(t.lt) <= endLt).map((t) => t.hash);
      for (const sort of ['desc', 'asc'] as const) {
        const got = (await txs(fork, `start_lt=${startLt}&end_lt=${endLt}&sort=${sort}&limit=100`)).transactions.map((t) => t.hash);
        expect(got).toEqual(sort === 'desc' ? want : [...want].reverse());
      }
      // a window wholly after the fork block asks the network for nothing
      const before = proxy.calls.length;
      const onlyLocal = (await txs(fork, `start_lt=${lts[local - 1]}&limit=100`)).transactions;
      expect(onlyLocal.map((t) => t.hash)).toEqual(all.slice(0, local).map((t) => t.hash));
      expect(proxy.calls.length).toBe(before);
      // utime windows: the network's part is older than any local transaction
      const now = all[local]!.now;
      const byTime = (await txs(fork, `end_utime=${now}&limit=100`)).transactions;
      expect(byTime.map((t) => t.hash)).toEqual(all.filter((t) => BigInt(t.lt) <= lts[local]!).map((t) => t.hash));
    });

    it("finds a transaction of the network's history by hash, in v3 and GraphQL", async () => {
      const network = all[local]!;
      const q = (g: Gateway, hashes: string[]) => v3(g, `/transactions?${hashes.map((h) => `hash=${encodeURIComponent(h)}`).join('&')}`);
      const here = await q(fork, [network.hash]);
      expect(here.status).toBe(200);
      expect(here.body.transactions).toEqual((await q(origin, [network.hash])).body.transactions);
      // with a local one: both, ordered by hash as the reference orders a hash query
      const both = (await q(fork, [all[0]!.hash, network.hash])).body.transactions as V3Tx[];
      expect(both.map((t) => t.hash)).toEqual([all[0]!.hash, network.hash].sort().reverse());
      const res = await fetch(`${fork.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ transaction(hash: "${network.hash}") { hash lt } }` }),
      });
      expect(((await res.json()) as { data: any }).data.transaction).toEqual({ hash: network.hash, lt: network.lt });
    });

    it('GraphQL Account.transactions walks forwards and backwards across the fork point with exact page info', async () => {
      type Page = { edges: { cursor: string; node: { hash: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null } };
      const page = async (args: string): Promise<Page> => {
        const res = await fetch(`${fork.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: `{ account(address: "${bob()}") { transactions(${args}) { edges { cursor node { hash } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`,
          }),
        });
        const body = (await res.json()) as { data?: any; errors?: unknown[] };
        expect(body.errors).toBeUndefined();
        return body.data.account.transactions as Page;
      };
      // every page until the far end; the side a page came from always says there is more there
      const walk = async (backward: boolean, size: number): Promise<string[]> => {
        const [more, back, edge] = backward ? (['hasPreviousPage', 'hasNextPage', 'startCursor'] as const) : (['hasNextPage', 'hasPreviousPage', 'endCursor'] as const);
        const args = (cursor?: string | null) => `${backward ? 'last' : 'first'}: ${size}${cursor ? `, ${backward ? 'before' : 'after'}: "${cursor}"` : ''}`;
        const seen: string[] = [];
        let p = await page(args());
        expect(p.pageInfo[back]).toBe(false);
        for (;;) {
          const hashes = p.edges.map((e) => e.node.hash);
          if (backward) seen.unshift(...hashes);
          else seen.push(...hashes);
          if (!p.pageInfo[more]) return seen;
          p = await page(args(p.pageInfo[edge]));
          expect(p.pageInfo[back]).toBe(true);
        }
      };
      expect(await walk(false, 2)).toEqual(all.map((t) => t.hash));
      expect(await walk(true, 3)).toEqual(all.map((t) => t.hash));
    });
  });

  it('answers v3 masterchain blocks at or before the fork block, and their transactions, from the network', async () => {
    const same = async (path: string) => {
      const [here, there] = await Promise.all([fetch(`${fork.url}/api/v3${path}`), fetch(`${origin.url}/api/v3${path}`)]);
      expect(here.status).toBe(there.status);
      expect(await here.json()).toEqual(await there.json());
    };
    for (const seqno of [forkSeqno - 1, forkSeqno]) {
      await same(`/blocks?mc_seqno=${seqno}`);
      await same(`/blocks?workchain=-1&seqno=${seqno}`);
      await same(`/masterchainBlockShards?seqno=${seqno}`);
      await same(`/masterchainBlockShardState?seqno=${seqno}`);
      await same(`/transactionsByMasterchainBlock?seqno=${seqno}`);
      await same(`/transactions?mc_seqno=${seqno}`);
    }
    // a block after the fork point is the fork's own, and the fork's block list and masterchain info answer
    expect((await fetch(`${fork.url}/api/v3/masterchainInfo`)).status).toBe(200);
    expect((await fetch(`${fork.url}/api/v3/blocks?limit=5`)).status).toBe(200);
    const next = (await (await fetch(`${fork.url}/api/v3/blocks?workchain=-1&seqno=${forkSeqno + 1}`)).json()) as { blocks: { root_hash: string }[] };
    expect(next.blocks.map((b) => Buffer.from(b.root_hash, 'base64').toString('hex'))).toEqual([fork.chain!.store.mcBlock(forkSeqno + 1)!.rootHash.toString('hex')]);
  });

  it('the rest of the gateway works over the fork: faucet, emulation, streaming and the explorer', async () => {
    const [alice, bob] = wallets;
    // the faucet credits an address the network never saw
    const stranger = new Address(0, Buffer.alloc(32, 0x5a));
    const credited = await fetch(`${fork.url}/localnet/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: stranger.toRawString(), amount: toNano('3').toString() }),
    });
    expect(credited.status).toBe(200);
    expect(await balanceOf(fork, stranger)).toBe(toNano('3'));

    // a transfer from a forked wallet previewed, then sent while a streaming client watches the wallet
    const seqno = await walletSeqno(fork, alice!.contract.address);
    const boc = v4Transfer(alice!, bob!.contract.address, toNano('1'), seqno);
    const preview = await fetch(`${fork.url}/api/emulate/v1/emulateTrace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boc: boc.toString('base64'), with_actions: true }),
    });
    expect(preview.status).toBe(200);
    const emulated = (await preview.json()) as { transactions: Record<string, { account: string }>; actions: { type: string }[] };
    expect(Object.values(emulated.transactions).map((t) => Address.parseRaw(t.account).equals(alice!.contract.address))).toContain(true);
    expect(emulated.actions.map((a) => a.type)).toEqual(['ton_transfer']);
    expect(await walletSeqno(fork, alice!.contract.address)).toBe(seqno);

    const aliceRaw = alice!.contract.address.toRawString().toUpperCase();
    const sse = await SseClient.open(fork.url, { types: ['transactions'], addresses: [aliceRaw], min_finality: 'finalized' });
    try {
      expect(sse.status).toBe(200);
      await sse.next((f) => f.data?.status === 'subscribed');
      expect((await sendBoc(fork, boc)).ok).toBe(true);
      const event = await sse.next((f) => f.data?.type === 'transactions', 20_000);
      expect(event.data.finality).toBe('finalized');
      expect(event.data.transactions.map((t: { account: string }) => t.account)).toContain(aliceRaw);
    } finally {
      sse.close();
    }

    // the explorer's page and its GraphQL home document answer over the fork (the page built here, as `npm run build`
    // builds it: a fresh clone has none before)
    await buildExplorer();
    expect((await fetch(`${fork.url}/explorer`)).status).toBe(200);
    const home = await fetch(`${fork.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ masterchainInfo { last { seqno } } }' }),
    });
    const body = (await home.json()) as { data?: { masterchainInfo: { last: { seqno: number } } }; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    expect(body.data!.masterchainInfo.last.seqno).toBeGreaterThan(forkSeqno);
  }, 60_000);

  it('fetched each account from the upstream once', () => {
    const calls = proxy.named('/getAddressInformation');
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it('impersonation moves an NFT owned by an address whose key nobody has', async () => {
    const [, bob, , dave] = wallets;
    const item = Address.parse(origin.chain!.tokens().nft_collection.items[0]!.address);
    const ownerOf = async () => Address.parse((await v2(fork, 'getTokenData', { address: item.toRawString() })).result.owner_address as string).toRawString();
    expect(await ownerOf()).toBe(dave!.contract.address.toRawString());
    const keyless = new Address(0, Buffer.alloc(32, 0x5a));
    const move = (from: Address, to: Address) =>
      fetch(`${fork.url}/localnet/impersonate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          from: from.toRawString(),
          to: item.toRawString(),
          value: toNano('0.1').toString(),
          body: beginCell()
            .store(storeNftTransfer({ queryId: 1n, newOwner: to, responseDestination: from, customPayload: null, forwardAmount: 0n, forwardPayload: beginCell().storeUint(0, 32).endCell() }))
            .endCell()
            .toBoc()
            .toString('base64'),
        }),
      });
    const first = await move(dave!.contract.address, keyless);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { transactions: string[] }).transactions.length).toBeGreaterThan(0);
    expect(await ownerOf()).toBe(keyless.toRawString());
    expect((await move(keyless, bob!.contract.address)).status).toBe(200);
    expect(await ownerOf()).toBe(bob!.contract.address.toRawString());
    // the origin's item is still dave's
    const there = (await v2(origin, 'getTokenData', { address: item.toRawString() })).result.owner_address as string;
    expect(Address.parse(there).toRawString()).toBe(dave!.contract.address.toRawString());
  }, 60_000);

  it('refuses an impersonation it cannot read with 422', async () => {
    const res = await fetch(`${fork.url}/localnet/impersonate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: 'nope', to: 'x', value: '1' }) });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ code: 422, error: "invalid from: 'nope'" });
  });
});

describe('a fork with --data-dir', () => {
  it('restarts without fetching again what it fetched, and refuses another fork point', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fork-'));
    dirs.push(dir);
    const [alice, bob] = wallets;
    const first = await startFork({ dataDir: dir });
    const sent = await sendBoc(first, v4Transfer(alice!, bob!.contract.address, toNano('1'), await walletSeqno(first, alice!.contract.address)));
    expect(sent.ok).toBe(true);
    const seqno = await walletSeqno(first, alice!.contract.address);
    const tip = first.chain!.store.lastMc.seqno;
    await first.close();

    const mark = proxy.calls.length;
    const again = await startFork({ dataDir: dir });
    try {
      expect(again.chain!.store.lastMc.seqno).toBe(tip);
      expect(await walletSeqno(again, alice!.contract.address)).toBe(seqno);
      const resent = await sendBoc(again, v4Transfer(alice!, bob!.contract.address, toNano('1'), seqno));
      expect(resent.ok).toBe(true);
      // neither the fork point nor alice nor bob was asked for again
      expect(proxy.calls.slice(mark)).toEqual([]);
    } finally {
      await again.close();
    }
    await expect(startTestGateway({ fork: { url: proxy.url, seqno: forkSeqno - 1, apiKey: '', rps: 0 }, dataDir: dir } as never)).rejects.toThrow(
      `holds a fork of ${proxy.url} at block ${forkSeqno}, not of ${proxy.url} at block ${forkSeqno - 1}`,
    );
  }, 120_000);
});
