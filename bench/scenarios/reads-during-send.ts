/**
 * Scenario 8: latency of reads (v2 getAddressBalance, GraphQL `account { balance }`) while a burst of signed
 * transfers goes through sendBoc on the same gateway, against the same reads on the idle gateway. Each read
 * load runs with 2 connections for `durationS`; the burst (4 connections) is sized to outlast it.
 */
import { takeChild, type Child, type SpawnOptions } from '../lib/child.js';
import { load, medianResult, type LoadResult } from '../lib/load.js';
import { benchWallets, transferBatch } from '../lib/wallets.js';
import type { Row, RunOptions } from './types.js';

const WALLETS = 16;
const SEND_CONNECTIONS = 4;
const READ_CONNECTIONS = 2;
const BLOCK_INTERVAL_MS = 100;
const GQL_QUERY = 'query Balance($a: Address!) { account(address: $a) { balance } }';

export const READS_GATEWAY = (o: RunOptions): [string, SpawnOptions] => ['gateway', { args: ['--block-interval', String(BLOCK_INTERVAL_MS)], cpuProfDir: o.profDir }];

async function waitSealed(gw: Child): Promise<void> {
  for (;;) {
    const p = await gw.call<{ pending: number }>('pending');
    if (p.pending === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function readsDuringSendScenario(o: RunOptions): Promise<Row[]> {
  // at ~80 messages/s a burst of 16 x perWallet messages outlasts the read load
  const perWallet = Math.ceil((o.durationS * 150) / WALLETS) + 2;
  const wallets = benchWallets(WALLETS, 'bench-reads');
  const validUntil = Math.floor(Date.now() / 1000) + 6 * 3600;
  const deploy = transferBatch(wallets, 0, 1, validUntil);
  const bursts = Array.from({ length: o.reps }, (_, i) => transferBatch(wallets, 1 + i * perWallet, perWallet, validUntil));

  const gw = await takeChild('reads-gw', ...READS_GATEWAY(o));
  try {
    const url = gw.info.url as string;
    const json = { 'content-type': 'application/json' };
    await gw.call('faucetMany', { addresses: wallets.map((w) => w.address), amount: '100000000000' });
    for (const boc of deploy) {
      const res = await fetch(`${url}/api/v2/sendBoc`, { method: 'POST', headers: json, body: JSON.stringify({ boc }) });
      if (!res.ok) throw new Error(`deploy: HTTP ${res.status} ${await res.text()}`);
    }
    await waitSealed(gw);

    const address = wallets[0]!.address;
    const restPath = `/api/v2/getAddressBalance?address=${encodeURIComponent(address)}`;
    const gqlBody = JSON.stringify({ query: GQL_QUERY, variables: { a: address } });
    const rest = () => load({ url, durationS: o.durationS, connections: READ_CONNECTIONS, requests: [{ method: 'GET', path: restPath }] });
    const gql = () =>
      load({ url, durationS: o.durationS, connections: READ_CONNECTIONS, requests: [{ method: 'POST', path: '/graphql', headers: json, body: gqlBody }] });
    const burst = (bocs: string[]) => {
      let next = 0;
      return load({
        url,
        amount: bocs.length,
        connections: SEND_CONNECTIONS,
        requests: [
          {
            method: 'POST',
            path: '/api/v2/sendBoc',
            headers: json,
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ boc: bocs[Math.min(next++, bocs.length - 1)] }) }),
          },
        ],
      });
    };

    await rest();
    await gql();
    const runs: Record<'restIdle' | 'gqlIdle' | 'restBusy' | 'gqlBusy', LoadResult[]> = { restIdle: [], gqlIdle: [], restBusy: [], gqlBusy: [] };
    let sent = 0;
    let rejected = 0;
    for (let i = 0; i < o.reps; i++) {
      runs.restIdle.push(await rest());
      runs.gqlIdle.push(await gql());
      // the burst starts first so the reads meet the chain already executing
      const sending = burst(bursts[i]!);
      await new Promise((r) => setTimeout(r, 200));
      const [r, g, s] = await Promise.all([rest(), gql(), sending]);
      runs.restBusy.push(r);
      runs.gqlBusy.push(g);
      sent += s.requests;
      rejected += s.non2xx + s.errors;
      await waitSealed(gw);
      o.log(`  reads rep ${i + 1}: REST p99 ${runs.restIdle.at(-1)!.p99} -> ${r.p99} ms, GraphQL p99 ${runs.gqlIdle.at(-1)!.p99} -> ${g.p99} ms during ${s.requests} sendBoc (${s.non2xx + s.errors} refused)`);
    }
    const m = {
      restIdle: medianResult(runs.restIdle),
      gqlIdle: medianResult(runs.gqlIdle),
      restBusy: medianResult(runs.restBusy),
      gqlBusy: medianResult(runs.gqlBusy),
    };
    const note = `${READ_CONNECTIONS} read connections beside ${SEND_CONNECTIONS} sendBoc connections (${sent} transfers, ${rejected} refused), block interval ${BLOCK_INTERVAL_MS} ms; baseline: the same reads with no sends`;
    return [
      {
        id: 8,
        scenario: 'v2 getAddressBalance during a sendBoc burst vs idle: (p99 idle + 1 ms) / (p99 during + 1 ms)',
        metric: 'p99 ratio (1 = the burst adds nothing)',
        subject: m.restBusy,
        baseline: m.restIdle,
        ratio: (m.restIdle.p99 + 1) / (m.restBusy.p99 + 1),
        target: 0.25,
        note,
      },
      {
        id: 9,
        scenario: 'GraphQL account { balance } during a sendBoc burst vs idle: (p99 idle + 1 ms) / (p99 during + 1 ms)',
        metric: 'p99 ratio (1 = the burst adds nothing)',
        subject: m.gqlBusy,
        baseline: m.gqlIdle,
        ratio: (m.gqlIdle.p99 + 1) / (m.gqlBusy.p99 + 1),
        target: 0.25,
      },
    ];
  } finally {
    await gw.stop();
  }
}
