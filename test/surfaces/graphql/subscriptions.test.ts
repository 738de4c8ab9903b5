/**
 * GraphQL subscriptions over SSE with plain fetch: new blocks and an account's transactions on the local chain
 * and through an upstream-mode instance in front of it (one masterchainInfo poll for every subscriber), a trace
 * followed until it completes, the per-client and per-subscription limits, and shutdown completing open streams.
 */
import { mnemonicToPrivateKey } from '@ton/crypto';
import { Address, SendMode, beginCell, external, internal, storeMessage, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawUpper } from '../../../src/model/address.js';
import type { Gateway } from '../../../src/gateway.js';
import { ApiError } from '../../../src/api/errors.js';
import type { V3Api } from '../../../src/api/v3/index.js';
import { BlockFeed, MAX_CATCH_UP, pollTip } from '../../../src/live/blocks.js';
import { EventQueue } from '../../../src/surfaces/graphql/subscriptions/queue.js';
import { SseParser } from '../../../src/sources/upstream/sse-frames.js';
import { fetchWallets, startTestGateway, waitFor } from '../../helpers/gateway.js';
import { startUpstreamGateway } from '../../sources/upstream/helpers.js';
import { gql } from './helpers.js';

interface SseMessage {
  event: 'next' | 'complete';
  data?: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** One SSE subscription read with fetch: POST JSON, `Accept: text/event-stream`. */
class Subscription {
  private readonly queue: (SseMessage | null)[] = [];
  private waiting?: (m: SseMessage | null) => void;
  ended = false;

  private constructor(
    readonly status: number,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const abort = new AbortController();
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query, variables }),
      signal: abort.signal,
    });
    const sub = new Subscription(res.status, abort);
    void sub.read(res);
    return sub;
  }

  private deliver(m: SseMessage | null): void {
    if (m === null) this.ended = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w(m);
    } else this.queue.push(m);
  }

  private async read(res: Response): Promise<void> {
    const parser = new SseParser(64 * 1024 * 1024);
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (const f of parser.push(Buffer.from(chunk))) {
          if (f.event === 'next') this.deliver({ event: 'next', data: JSON.parse(f.data) });
          else if (f.event === 'complete') this.deliver({ event: 'complete' });
        }
      }
    } catch {
      // aborted by close()
    }
    this.deliver(null);
  }

  /** The next message, or null once the stream has ended. */
  next(timeoutMs = 30_000): Promise<SseMessage | null> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no SSE message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  }

  /** The payload of the next `next` event. */
  async data(timeoutMs?: number): Promise<any> {
    const m = await this.next(timeoutMs);
    if (m?.event !== 'next') throw new Error(`expected a next event, got ${JSON.stringify(m)}`);
    if (m.data?.errors) throw new Error(`errors: ${JSON.stringify(m.data.errors)}`);
    return m.data!.data;
  }

  close(): void {
    this.abort.abort();
  }
}

const fresh = (n: number): Address => new Address(0, Buffer.alloc(32, n));

async function faucet(url: string, address: Address, amount: bigint): Promise<string> {
  const res = await fetch(`${url}/localnet/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: address.toRawString(), amount: String(amount) }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { hash: string }).hash;
}

const BLOCKS = 'subscription { blocks { workchain seqno txCount } }';
const TXS = `subscription($accounts: [Address!]!) {
  transactions(accounts: $accounts) { hash account { address balance } inMessage { value source { address } } }
}`;
const TRACE = 'subscription($h: Hash!) { traceTransactions(externalHash: $h) { hash account { address } inMessage { hash } } }';

const lastSeqno = async (url: string): Promise<number> => (await gql(url, '{ masterchainInfo { last { seqno } } }')).data.masterchainInfo.last.seqno;

describe('subscriptions on the local chain', () => {
  let gw: Gateway;
  const open: Subscription[] = [];
  const sub = async (...args: Parameters<typeof Subscription.open>) => {
    const s = await Subscription.open(...args);
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    gw = await startTestGateway({
      subscriptions: { pollMs: 1000, maxPerClient: 4, maxAccounts: 2 },
      apiKeys: [
        { key: 'limit-key', networks: ['testnet'], rps: 0 },
        { key: 'other-key', networks: ['testnet'], rps: 0 },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    for (const s of open) s.close();
    await gw?.close();
  });

  it('delivers each new masterchain block', async () => {
    const s = await sub(gw.url, BLOCKS);
    expect(s.status).toBe(200);
    const before = await lastSeqno(gw.url);
    await faucet(gw.url, fresh(1), 1_000_000_000n);
    const { blocks } = await s.data();
    expect(blocks.workchain).toBe(-1);
    expect(blocks.seqno).toBe(before + 1);
    expect(await lastSeqno(gw.url)).toBe(blocks.seqno);
    s.close();
  }, 60_000);

  it("delivers exactly the watched account's transactions, with fresh balances per event", async () => {
    const watched = fresh(2);
    const other = fresh(3);
    const s = await sub(gw.url, TXS, { accounts: [watched.toString()] });
    await faucet(gw.url, other, 5_000_000_000n);
    const first = await faucet(gw.url, watched, 2_000_000_000n);
    const a = (await s.data()).transactions;
    await faucet(gw.url, other, 5_000_000_000n);
    const second = await faucet(gw.url, watched, 3_000_000_000n);
    const b = (await s.data()).transactions;

    expect([a.hash, b.hash]).toEqual([first, second]);
    for (const tx of [a, b]) {
      expect(tx.account.address).toBe(rawUpper(watched));
      expect(tx.inMessage.source.address).not.toBe(rawUpper(watched));
    }
    expect(a.inMessage.value).toBe('2000000000');
    expect(b.inMessage.value).toBe('3000000000');
    // each event reads the account anew (a loader kept across events would repeat the first balance)
    expect(BigInt(a.account.balance)).toBeLessThanOrEqual(2_000_000_000n);
    expect(BigInt(b.account.balance)).toBeGreaterThan(4_000_000_000n);
    const now = await gql(gw.url, `{ account(address: "${watched.toRawString()}") { balance } }`);
    expect(b.account.balance).toBe(now.data.account.balance);
    s.close();
  }, 60_000);

  it('follows a trace until it completes, live and from what is already sealed', async () => {
    const alice = (await fetchWallets(gw.url)).find((w) => w.version === 'v4r2')!;
    const key = await mnemonicToPrivateKey(alice.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    const client = new TonClient({ endpoint: `${gw.url}/api/v2/jsonRPC` });
    const seqno = await client.open(wallet).getSeqno();
    const to = fresh(4);
    const body = wallet.createTransfer({
      seqno,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to, value: toNano('0.5'), bounce: false })],
    });
    const ext = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
    const extHash = ext.hash().toString('base64');

    const live = await sub(gw.url, TRACE, { h: ext.hash().toString('hex') });
    const sent = await fetch(`${gw.url}/api/v2/sendBoc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ boc: ext.toBoc().toString('base64') }),
    });
    expect(sent.status).toBe(200);
    const root = (await live.data()).traceTransactions;
    const credit = (await live.data()).traceTransactions;
    expect(root.account.address).toBe(rawUpper(wallet.address));
    expect(root.inMessage.hash).toBe(extHash);
    expect(credit.account.address).toBe(rawUpper(to));
    expect(await live.next()).toEqual({ event: 'complete' });
    expect(await live.next()).toBeNull();

    const later = await sub(gw.url, TRACE, { h: extHash });
    expect((await later.data()).traceTransactions.hash).toBe(root.hash);
    expect((await later.data()).traceTransactions.hash).toBe(credit.hash);
    expect(await later.next()).toEqual({ event: 'complete' });
  }, 60_000);

  it('publishes the limits in serviceConfig', async () => {
    const res = await gql(gw.url, '{ serviceConfig { maxSubscriptionsPerClient maxAccountsPerSubscription pollIntervalMs } }');
    expect(res.data.serviceConfig).toEqual({ maxSubscriptionsPerClient: 4, maxAccountsPerSubscription: 2, pollIntervalMs: null });
  });

  it('refuses too many accounts, an empty list and a too deep selection with a coded error and no stream', async () => {
    const tooMany = await sub(gw.url, TXS, { accounts: [fresh(5), fresh(6), fresh(7)].map((a) => a.toRawString()) });
    const m = await tooMany.next();
    expect(m?.data?.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_MANY_ACCOUNTS', actual: 3, limit: 2 });
    expect(await tooMany.next()).toEqual({ event: 'complete' });
    expect(await tooMany.next()).toBeNull();

    const empty = await sub(gw.url, TXS, { accounts: [] });
    expect((await empty.next())?.data?.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    // the query limits apply to subscriptions too, before anything opens
    const deep = `subscription { blocks { ${'masterchainBlock { '.repeat(16)}seqno${' }'.repeat(16)} } }`;
    const tooDeep = await sub(gw.url, deep);
    expect((await tooDeep.next())?.data?.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_DEEP', limit: 16 });
  });

  it('refuses the subscription past the per-client limit; an API key is a client of its own', async () => {
    // a key no other test uses, so no stream closed earlier is still being released
    const key = { 'x-api-key': 'limit-key' };
    const held = await Promise.all(Array.from({ length: 4 }, () => sub(gw.url, BLOCKS, {}, key)));
    const refused = await sub(gw.url, BLOCKS, {}, key);
    const m = await refused.next();
    expect(m?.data?.errors?.[0]).toMatchObject({ extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', limit: 4 } });
    expect(await refused.next()).toEqual({ event: 'complete' });

    const other = await sub(gw.url, BLOCKS, {}, { 'x-api-key': 'other-key' });
    await faucet(gw.url, fresh(8), 1_000_000_000n);
    expect((await other.data()).blocks.workchain).toBe(-1);
    for (const s of held) expect((await s.data()).blocks.workchain).toBe(-1);

    // a client that goes away frees its slot
    held[0]!.close();
    const again = await waitFor(
      async () => {
        const s = await sub(gw.url, BLOCKS, {}, key);
        // accepted: nothing to say until the next block; refused: an error at once
        const first = await s.next(300).catch(() => null);
        return first === null ? s : undefined;
      },
      10_000,
      100,
    );
    await faucet(gw.url, fresh(9), 1_000_000_000n);
    expect((await again.data()).blocks.workchain).toBe(-1);
  }, 60_000);
});

describe('subscriptions in upstream mode', () => {
  const POLL_MS = 100;
  let local: Gateway;
  let gw: Gateway;
  const open: Subscription[] = [];

  beforeAll(async () => {
    local = await startTestGateway();
    gw = await startUpstreamGateway(local.url, { POLL_INTERVAL_MS: String(POLL_MS), ACCOUNT_TTL_MS: '0', UPSTREAM_RPS: '0' });
  }, 120_000);
  afterAll(async () => {
    for (const s of open) s.close();
    await gw?.close();
    await local?.close();
  });

  /** masterchainInfo requests the upstream instance has answered. */
  const upstreamPolls = async (): Promise<number> => {
    const text = await (await fetch(`${local.url}/metrics`)).text();
    let n = 0;
    for (const line of text.split('\n')) {
      const m = /^ton_gateway_http_requests_total\{route="\/api\/v3\/masterchainInfo"[^}]*\} (\d+)/.exec(line);
      if (m) n += Number(m[1]);
    }
    return n;
  };

  it('publishes the poll interval', async () => {
    const res = await gql(gw.url, '{ serviceConfig { maxSubscriptionsPerClient maxAccountsPerSubscription pollIntervalMs } }');
    expect(res.data.serviceConfig).toEqual({ maxSubscriptionsPerClient: 16, maxAccountsPerSubscription: 100, pollIntervalMs: POLL_MS });
  });

  it('delivers blocks and an account transaction to every subscriber from one shared poll', async () => {
    const idle = await upstreamPolls();
    const watched = fresh(20);
    const blocks = await Subscription.open(gw.url, BLOCKS);
    const txsA = await Subscription.open(gw.url, TXS, { accounts: [watched.toRawString()] });
    const txsB = await Subscription.open(gw.url, TXS, { accounts: [watched.toString(), fresh(21).toRawString()] });
    open.push(blocks, txsA, txsB);
    const started = performance.now();
    const polledAtStart = await upstreamPolls();
    // transactions come by the upstream stream: the credit is sent once the upstream has the account subscribed
    // (interest changes are paced; a credit sealed before would never be streamed)
    await waitFor(async () => (local.liveHub!.interest().addresses.has(rawUpper(watched)) ? true : undefined), 20_000, 20);

    await faucet(local.url, fresh(22), 1_000_000_000n);
    const hash = await faucet(local.url, watched, 2_000_000_000n);
    const sealed = await lastSeqno(local.url);

    for (const s of [txsA, txsB]) {
      const tx = (await s.data()).transactions;
      expect(tx.hash).toBe(hash);
      expect(tx.account.address).toBe(rawUpper(watched));
      expect(tx.inMessage.value).toBe('2000000000');
      expect(tx.account.balance).toBe('2000000000');
    }
    const seen: number[] = [];
    while (!seen.includes(sealed)) seen.push((await blocks.data()).blocks.seqno);
    // consecutive seqnos: a block sealed between two polls is fetched too
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => seen[0]! + i));

    // three subscribers, one poller: at most one poll per interval (plus the one in flight at each end)
    await new Promise((r) => setTimeout(r, 10 * POLL_MS));
    const polls = (await upstreamPolls()) - polledAtStart;
    const elapsed = performance.now() - started;
    expect(polledAtStart - idle).toBeGreaterThanOrEqual(1);
    expect(polls).toBeGreaterThan(0);
    expect(polls).toBeLessThanOrEqual(Math.ceil(elapsed / POLL_MS) + 2);

    for (const s of [blocks, txsA, txsB]) s.close();
    // nobody listens: the poll stops
    const stopped = await waitFor(
      async () => {
        const a = await upstreamPolls();
        await new Promise((r) => setTimeout(r, 5 * POLL_MS));
        return (await upstreamPolls()) === a ? true : undefined;
      },
      10_000,
      0,
    );
    expect(stopped).toBe(true);
  }, 60_000);
});

describe('shutdown', () => {
  it('completes open subscriptions so closing the gateway does not hang', async () => {
    const gw = await startTestGateway({ subscriptions: { pollMs: 1000, maxPerClient: 2, maxAccounts: 100 } });
    // a client that does not accept SSE is refused, and the refusal holds no slot
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${gw.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: BLOCKS }),
      });
      expect(res.status).toBe(406);
      expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).toMatch(/text\/event-stream/);
    }
    const blocks = await Subscription.open(gw.url, BLOCKS);
    const txs = await Subscription.open(gw.url, TXS, { accounts: [fresh(30).toRawString()] });
    // without a key the client is its address: the third stream from here is one too many
    const refused = await Subscription.open(gw.url, BLOCKS);
    expect((await refused.next())?.data?.errors?.[0]?.extensions?.code).toBe('TOO_MANY_SUBSCRIPTIONS');
    await faucet(gw.url, fresh(31), 1_000_000_000n);
    expect((await blocks.data()).blocks.workchain).toBe(-1);

    let closed = false;
    const closing = gw.close().then(() => (closed = true));
    expect(await blocks.next()).toEqual({ event: 'complete' });
    expect(await blocks.next()).toBeNull();
    expect(await txs.next()).toEqual({ event: 'complete' });
    expect(await txs.next()).toBeNull();
    await closing;
    expect(closed).toBe(true);
  }, 60_000);
});

describe('BlockFeed over a polled upstream', () => {
  it('survives failures, fetches skipped seqnos in order within a bound, and polls only while listened to', async () => {
    let tip = 3;
    let failPolls = 0;
    let failTxs = new Set<number>();
    let polls = 0;
    const fake = {
      async masterchainInfo() {
        polls++;
        if (failPolls > 0) {
          failPolls--;
          throw new ApiError(502, 'upstream unreachable');
        }
        return { first: { seqno: 0 }, last: { seqno: tip } };
      },
      async blocks(p: { seqno: number }) {
        return { blocks: [{ seqno: p.seqno }] };
      },
      async transactionsByMasterchainBlock(p: { seqno: number; offset: number }) {
        if (failTxs.delete(p.seqno)) throw new ApiError(504, 'timeout');
        return { transactions: p.offset === 0 ? [{ hash: `tx${p.seqno}` }] : [] };
      },
    } as unknown as V3Api;
    const warnings: string[] = [];
    const feed = new BlockFeed(pollTip(fake, 100, { warn: (_o, msg) => warnings.push(msg) }), fake, { warn: (_o, msg) => warnings.push(msg) }, 10);
    expect(feed.pollMs).toBe(100);
    const got: number[] = [];
    const unsubscribe = await feed.subscribe((e) => {
      expect(e.transactions.map((t) => t.hash)).toEqual([`tx${e.block.seqno}`]);
      got.push(e.block.seqno);
    });

    failTxs = new Set([5]);
    tip = 6;
    await waitFor(async () => (got.length >= 3 ? true : undefined), 10_000, 20);
    expect(got).toEqual([4, 5, 6]);

    failPolls = 2;
    tip = 7;
    await waitFor(async () => (got.length >= 4 ? true : undefined), 10_000, 20);
    expect(got.at(-1)).toBe(7);

    tip = 7 + MAX_CATCH_UP + 10;
    await waitFor(async () => (got.at(-1) === tip ? true : undefined), 10_000, 20);
    expect(got.slice(4)).toEqual(Array.from({ length: MAX_CATCH_UP }, (_, i) => tip - MAX_CATCH_UP + 1 + i));
    expect(warnings).toEqual(expect.arrayContaining([
      'subscriptions: fetching a new masterchain block failed, retrying',
      'subscriptions: polling masterchainInfo failed',
      'subscriptions: masterchain blocks skipped after a gap',
    ]));

    unsubscribe();
    const after = polls;
    await new Promise((r) => setTimeout(r, 400));
    expect(polls).toBe(after);
    feed.close();
  }, 30_000);
});

describe('EventQueue', () => {
  it('ends a subscriber that falls too far behind with a coded error in place of its backlog', async () => {
    let finished = 0;
    const q = new EventQueue<number>(() => finished++, 3);
    for (let i = 0; i < 5; i++) q.push(i);
    expect(finished).toBe(1);
    const first = await q.next();
    expect(first.done).toBe(false);
    expect((first.value as { extensions: Record<string, unknown> }).extensions).toEqual({ code: 'SUBSCRIPTION_BACKLOG', limit: 3 });
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('delivers queued events after end(), and nothing after return()', async () => {
    let finished = 0;
    const q = new EventQueue<number>(() => finished++);
    q.push(1);
    q.push(2);
    q.end();
    expect(finished).toBe(1);
    expect((await q.next()).value).toBe(1);
    await q.return();
    expect(finished).toBe(1);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });
});
