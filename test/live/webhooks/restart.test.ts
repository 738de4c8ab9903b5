/**
 * The real CLI with --data-dir, killed with SIGKILL in the middle of delivering to a slow receiver and started
 * again on the same directory: the webhook is still there, delivery goes on from its cursor (what was
 * acknowledged before the kill is not sent again, but for the last few whose cursor had not been written yet),
 * and every finalized event of its addresses reaches the receiver, in order, including those made after the
 * restart; the whole list is checked against a Streaming v2 replay of the chain's own event log.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SseClient } from '../../../scripts/lib/streaming-client.js';
import { ready, startCli, type Cli } from '../../helpers/cli.js';
import { waitFor } from '../../helpers/wait.js';
import { Receiver } from '../../helpers/webhook-receiver.js';
import { api, fresh } from '../../helpers/webhooks.js';

const KEY = 'restart-key';
const children: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'webhooks-restart-'));
let rx: Receiver | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function startGateway(): Cli {
  return startCli(['--block-interval', '0', '--data-dir', dir, '--api-keys', `${KEY}:testnet:0`], (proc) => children.push(proc));
}

async function credit(url: string, to: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${url}/localnet/faucet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: to, amount: String(10_000_000 + i) }) });
    expect(res.status).toBe(200);
  }
}

describe('a gateway killed mid-delivery', () => {
  it('resumes from the cursor after a restart, and nothing is lost', async () => {
    rx = await Receiver.start();
    // 20 ms per answer: the kill comes while most of the burst still waits
    rx.behaviour = () => ({ status: 200, delayMs: 20 });
    const to = [fresh(), fresh()].map((a) => a.toRawString().toUpperCase());
    const filter = { types: ['transactions', 'account_state_change'], addresses: to };

    const first = startGateway();
    let url = await ready(first);
    const made = await api(url, KEY, 'POST', '', { url: rx.url, ...filter });
    expect(made.status).toBe(201);
    rx.secret = made.body.secret;
    const id = made.body.id as string;
    await credit(url, to[0]!, 30);
    await credit(url, to[1]!, 10);
    await rx.until((got) => got.length >= 20);
    first.proc.kill('SIGKILL');
    await first.exited;
    const beforeKill = rx.got.length;
    const acknowledged = rx.got.slice(0, beforeKill).map((r) => r.headers['x-webhook-event-id'] as string);

    const second = startGateway();
    url = await ready(second);
    await credit(url, to[1]!, 5);
    // every finalized event of the addresses, from the chain's own log
    const all = await SseClient.open(url, filter, { 'last-event-id': '0' });
    expect(all.status).toBe(200);
    await waitFor(async () => (all.frames.filter((f) => f.data?.type === 'transactions').length >= 45 ? true : undefined), 30_000);
    const want = all.frames.filter((f) => f.id !== undefined);
    await rx.until(() => rx!.distinct().length >= want.length, 60_000);
    all.close();

    const got = rx.distinct();
    expect(got.map((r) => r.headers['x-webhook-event-id'])).toEqual(want.map((f) => f.id));
    expect(got.every((r) => r.signed)).toBe(true);
    for (const [i, r] of got.entries()) expect(r.event.type).toBe(want[i]!.data.type);
    // after the restart it went on from its cursor: what it sends again is the tail of what was acknowledged
    const after = rx.got.slice(beforeKill).map((r) => r.headers['x-webhook-event-id'] as string);
    const resent = after.filter((e) => acknowledged.includes(e));
    expect(resent.length).toBeLessThan(acknowledged.length);
    expect(resent).toEqual(acknowledged.slice(acknowledged.length - resent.length));
    const state = await api(url, KEY, 'GET', `/${id}`);
    expect(state.body).toMatchObject({ paused: false, last_delivered: want.at(-1)!.id });

    second.proc.kill('SIGTERM');
    await second.exited;
  }, 90_000);
});
