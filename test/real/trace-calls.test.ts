/**
 * What a trace costs upstream: a trace with its actions, their transactions, every message link between the
 * trace's transactions and all those transactions' blocks is at most 2 source calls (the /traces answer
 * embeds actions and transactions; the blocks of a level are one /blocks call).
 * - upstream mode, in front of a loopback toncenter serving the 14 recorded mainnet /traces answers verbatim
 *   (../shared/fixtures/real, origin in its README): counted by that server and by ton_graphql_source_calls_total.
 *   Nothing recorded holds these transactions' blocks, so the server answers /blocks with an empty list and
 *   `block` is null; the local chain below has the blocks.
 * - the local chain: the same document over a genesis trace, blocks read and checked against the
 *   transactions' block refs, counted by ton_graphql_source_calls_total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { startTestGateway } from '../helpers/gateway.js';
import { graphql, loadRecordedTraces, RecordedTracesServer, type RecordedTrace } from '../helpers/recorded-traces.js';
import { withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('upstream mode over the recorded mainnet traces');
import { startUpstreamGateway } from '../sources/upstream/helpers.js';

const DOCUMENT = `query($id: Hash!) { trace(id: $id) {
  actions { type transactions { hash block { workchain shard seqno } } }
  transactions { hash block { workchain shard seqno }
    inMessage { hash sourceTransaction { hash } }
    outMessages { hash destination { address } destinationTransaction { hash } } } } }`;

async function sourceCalls(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('ton_graphql_source_calls_total{'))
    .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

interface TraceAnswer {
  actions: Array<{ type: string; transactions: Array<{ hash: string; block: { workchain: number; shard: string; seqno: number } | null }> }>;
  transactions: Array<{
    hash: string;
    block: { workchain: number; shard: string; seqno: number } | null;
    inMessage: { hash: string; sourceTransaction: { hash: string } | null } | null;
    outMessages: Array<{ hash: string; destination: { address: string } | null; destinationTransaction: { hash: string } | null }>;
  }>;
}

/** Every message between two transactions of the trace links both ways. */
function checkLinks(trace: TraceAnswer): void {
  const hashes = new Set(trace.transactions.map((t) => t.hash));
  const receiverOf = new Map(trace.transactions.filter((t) => t.inMessage).map((t) => [t.inMessage!.hash, t.hash]));
  for (const tx of trace.transactions) {
    for (const m of tx.outMessages) {
      if (receiverOf.has(m.hash)) expect(m.destinationTransaction?.hash).toBe(receiverOf.get(m.hash));
    }
    if (tx.inMessage?.sourceTransaction) expect(hashes.has(tx.inMessage.sourceTransaction.hash)).toBe(true);
  }
}

describe.skipIf(noShared)('upstream mode, recorded mainnet traces', () => {
  let recorded: RecordedTrace[];
  let upstream: RecordedTracesServer;
  let gateway: Gateway;

  beforeAll(async () => {
    recorded = loadRecordedTraces();
    upstream = new RecordedTracesServer(recorded);
    gateway = await startUpstreamGateway(await upstream.start(), { UPSTREAM_RPS: '0' });
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await upstream?.stop();
  });

  it('each of the 14 traces with actions, transactions, message links and blocks costs at most 2 calls', async () => {
    expect(recorded).toHaveLength(14);
    const figures: string[] = [];
    for (const r of recorded) {
      const want = r.answer.traces[0]!;
      const before = await sourceCalls(gateway.url);
      const { result: res, requests } = await upstream.during(() => graphql(gateway.url, DOCUMENT, { id: want.trace_id }));
      const counted = (await sourceCalls(gateway.url)) - before;
      expect(res.errors, r.file).toBeUndefined();
      const trace = res.data!.trace as TraceAnswer;

      expect(trace.transactions.map((t) => t.hash)).toEqual(want.transactions_order);
      expect(trace.actions.map((a) => a.type)).toEqual(want.actions.map((a) => a.type));
      expect(trace.actions.map((a) => a.transactions.map((t) => t.hash))).toEqual(want.actions.map((a) => a.transactions));
      checkLinks(trace);

      const paths = requests.map((q) => q.slice(0, q.indexOf('?') < 0 ? undefined : q.indexOf('?')));
      expect(paths.filter((p) => p === '/api/v3/traces'), r.file).toHaveLength(1);
      expect(paths.filter((p) => p !== '/api/v3/traces' && p !== '/api/v3/blocks'), r.file).toEqual([]);
      expect(requests.length, r.file).toBeLessThanOrEqual(2);
      expect(counted, r.file).toBe(requests.length);
      figures.push(`${r.file.replace(/^mytonwallet-org\.mytonwallet\.|TraceResponse\.json$/g, '')}: ${requests.length}`);
    }
    console.log(`upstream calls per trace: ${figures.join(', ')}`);
  }, 60_000);

  it('the blocks of a level are asked for as one window of the transactions\' times and lts', async () => {
    const blocksOf = (x: RecordedTrace) => new Set(Object.values(x.answer.traces[0]!.transactions).map((t) => JSON.stringify(t.block_ref))).size;
    const r = recorded.reduce((a, b) => (blocksOf(b) > blocksOf(a) ? b : a));
    expect(blocksOf(r)).toBeGreaterThan(1);
    const want = r.answer.traces[0]!;
    const { requests } = await upstream.during(() =>
      // rootHash: a selection the block's key (workchain, shard, seqno) cannot answer, so the blocks are fetched
      graphql(gateway.url, `query($id: Hash!) { trace(id: $id) { transactions { block { seqno rootHash } } } }`, { id: want.trace_id }),
    );
    const blocks = requests.filter((q) => q.startsWith('/api/v3/blocks?'));
    expect(blocks).toHaveLength(1);
    const q = new URL(blocks[0]!, 'http://x').searchParams;
    const txs = Object.values(want.transactions) as unknown as Array<{ now: number; lt: string }>;
    expect(Number(q.get('start_utime'))).toBe(Math.min(...txs.map((t) => t.now)));
    expect(Number(q.get('end_utime'))).toBe(Math.max(...txs.map((t) => t.now)));
    expect(BigInt(q.get('end_lt')!)).toBe(txs.map((t) => BigInt(t.lt)).reduce((a, b) => (a > b ? a : b)));
  });
});

describe('the local chain', () => {
  let gateway: Gateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('a trace of several transactions with its actions, links and blocks costs at most 2 calls, blocks included', async () => {
    const { traces } = (await (await fetch(`${gateway.url}/api/v3/traces?limit=50&sort=desc&include_actions=true`)).json()) as {
      traces: Array<{ trace_id: string; transactions_order: string[]; actions: unknown[]; transactions: Record<string, { block_ref: { workchain: number; shard: string; seqno: number } }> }>;
    };
    const want = traces.find((t) => t.transactions_order.length > 1 && t.actions.length > 0)!;
    expect(want).toBeDefined();
    const before = await sourceCalls(gateway.url);
    const res = await graphql(gateway.url, DOCUMENT, { id: want.trace_id });
    const counted = (await sourceCalls(gateway.url)) - before;
    expect(res.errors).toBeUndefined();
    const trace = res.data!.trace as TraceAnswer;
    expect(trace.transactions.map((t) => t.hash)).toEqual(want.transactions_order);
    for (const tx of trace.transactions) expect(tx.block).toEqual(want.transactions[tx.hash]!.block_ref);
    for (const a of trace.actions) for (const tx of a.transactions) expect(tx.block).toEqual(want.transactions[tx.hash]!.block_ref);
    checkLinks(trace);
    expect(counted).toBeLessThanOrEqual(2);
    console.log(`local chain: a trace of ${trace.transactions.length} transactions and ${trace.actions.length} actions: ${counted} source calls`);
  }, 60_000);

  it('Action.accounts, which /traces leaves out, is one /actions call for the level, only when asked', async () => {
    const { traces } = (await (await fetch(`${gateway.url}/api/v3/traces?limit=50&sort=desc`)).json()) as { traces: Array<{ trace_id: string }> };
    const { actions } = (await (await fetch(`${gateway.url}/api/v3/actions?trace_id=${encodeURIComponent(traces[0]!.trace_id)}&include_accounts=true`)).json()) as {
      actions: Array<{ action_id: string; accounts: string[] }>;
    };
    const before = await sourceCalls(gateway.url);
    const res = await graphql(gateway.url, `query($id: Hash!) { trace(id: $id) { actions { actionId accounts { address } } } }`, { id: traces[0]!.trace_id });
    expect(res.errors).toBeUndefined();
    expect((await sourceCalls(gateway.url)) - before).toBe(2);
    const got = res.data!.trace.actions as Array<{ actionId: string; accounts: Array<{ address: string }> }>;
    expect(got.length).toBeGreaterThan(0);
    for (const a of got) expect(a.accounts.map((x) => x.address).sort()).toEqual([...actions.find((x) => x.action_id === a.actionId)!.accounts].sort());
  }, 60_000);
});
