/**
 * Scenario 7: signed wallet transfers through POST /api/v2/sendBoc until sealed in a block, against the same
 * BoCs executed directly on @ton/sandbox in one process. Both sides get identical pre-signed messages.
 */
import { takeChild, type Child, type SpawnOptions } from '../lib/child.js';
import { load, median } from '../lib/load.js';
import { benchWallets, transferBatch } from '../lib/wallets.js';
import type { Row, RunOptions } from './types.js';

const WALLETS = 16;
const CONNECTIONS = 4;
const BLOCK_INTERVAL_MS = 100;

export const SENDBOC_GATEWAY = (o: RunOptions): [string, SpawnOptions] => ['gateway', { args: ['--block-interval', String(BLOCK_INTERVAL_MS)], cpuProfDir: o.profDir }];

async function waitSealed(gw: Child): Promise<void> {
  for (;;) {
    const p = await gw.call<{ pending: number }>('pending');
    if (p.pending === 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function sendBocScenario(o: RunOptions): Promise<Row> {
  const perWallet = o.quick ? 5 : 30;
  const wallets = benchWallets(WALLETS);
  const validUntil = Math.floor(Date.now() / 1000) + 6 * 3600;
  const deploy = transferBatch(wallets, 0, 1, validUntil);
  const reps = Array.from({ length: o.reps }, (_, i) => transferBatch(wallets, 1 + i * perWallet, perWallet, validUntil));
  const addresses = wallets.map((w) => w.address);
  const funding = '100000000000';

  const gw = await takeChild('sendboc-gw', ...SENDBOC_GATEWAY(o));
  const sb = await takeChild('sandbox', 'sandbox');
  try {
    const url = gw.info.url as string;
    await gw.call('faucetMany', { addresses, amount: funding });
    await sb.call('fund', { addresses, amount: funding });
    for (const boc of deploy) {
      const res = await fetch(`${url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc }) });
      if (!res.ok) throw new Error(`deploy: HTTP ${res.status} ${await res.text()}`);
    }
    await waitSealed(gw);
    await sb.call('run', { bocs: deploy });

    const gwRate: number[] = [];
    const sbRate: number[] = [];
    const p50: number[] = [];
    const p99: number[] = [];
    let rejected = 0;
    for (const bocs of reps) {
      let next = 0;
      let answered = 0;
      let sealedAt: Promise<number> | undefined;
      const t0 = performance.now();
      // autocannon notices `amount` is reached only on its 1 s tick, so the clock stops at the last answer's seal
      const r = await load({
        url,
        amount: bocs.length,
        connections: CONNECTIONS,
        requests: [
          {
            method: 'POST',
            path: '/api/v2/sendBoc',
            headers: { 'content-type': 'application/json' },
            // each request takes the next message of the shared list, whichever connection sends it
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ boc: bocs[Math.min(next++, bocs.length - 1)] }) }),
            onResponse: () => {
              if (++answered === bocs.length) sealedAt = waitSealed(gw).then(() => performance.now());
            },
          },
        ],
      });
      const ms = (sealedAt ? await sealedAt : (await waitSealed(gw), performance.now())) - t0;
      const accepted = r.requests - r.non2xx - r.errors;
      rejected += r.non2xx + r.errors;
      gwRate.push((accepted / ms) * 1000);
      p50.push(r.p50);
      p99.push(r.p99);
      const s = await sb.call<{ ms: number; accepted: number }>('run', { bocs });
      sbRate.push((s.accepted / s.ms) * 1000);
      o.log(`  sendBoc: gateway ${gwRate.at(-1)!.toFixed(1)} msg/s (${accepted}/${bocs.length} accepted), sandbox ${sbRate.at(-1)!.toFixed(1)} msg/s`);
    }
    const subject = { rps: median(gwRate), p50: median(p50), p99: median(p99), rejected };
    const baseline = { rps: median(sbRate) };
    return {
      id: 7,
      scenario: 'local chain: signed transfers sendBoc → sealed vs direct @ton/sandbox',
      metric: 'messages/s',
      subject,
      baseline,
      ratio: subject.rps / baseline.rps,
      target: 0.8,
      note: `${reps[0]!.length} messages per run (2 transactions each), ${WALLETS} wallets, ${CONNECTIONS} connections, block interval ${BLOCK_INTERVAL_MS} ms`,
    };
  } finally {
    await Promise.all([gw.stop(), sb.stop()]);
  }
}
