/**
 * The README's webhook example works as written: its curl body makes a webhook, and its receiver, run as the
 * README gives it (on another port), accepts the gateway's signed deliveries and refuses a forged one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { rawUpper } from '../../src/model/address.js';
import { startTestGateway, waitFor } from '../helpers/gateway.js';
import { freePort } from '../sources/upstream/helpers.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const section = README.slice(README.indexOf('**Webhooks** (`/api/webhooks/v1`'));
const dir = mkdtempSync(join(tmpdir(), 'readme-webhooks-'));
let g: Gateway | undefined;
let receiver: ChildProcess | undefined;

afterAll(async () => {
  receiver?.kill();
  await g?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's webhook", () => {
  it('is made by its curl and received, signature checked, by its receiver', async () => {
    const key = /-H 'x-api-key: (\w+)'/.exec(section)![1]!;
    const body = /-d '(\{.*?\})'\n/.exec(section)![1]!;
    const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    expect(code).toContain('.listen(3000)');
    g = await startTestGateway({ blockInterval: 0, apiKeys: [{ key, networks: ['testnet', 'mainnet'], rps: 0 }] });
    const wallet = g.chain!.keyedWallets()[0]!.contract.address;
    const port = await freePort();
    const made = await fetch(`${g.url}/api/webhooks/v1`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body.replace('<a genesis wallet>', rawUpper(wallet)).replace('127.0.0.1:3000', `127.0.0.1:${port}`),
    });
    expect(made.status).toBe(201);
    const { secret } = (await made.json()) as { secret: string };

    const file = join(dir, 'receiver.mjs');
    writeFileSync(file, code.replace('.listen(3000)', `.listen(${port})`));
    receiver = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    receiver.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    await waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status, () => undefined));

    const forged = await fetch(`http://127.0.0.1:${port}/ton`, { method: 'POST', headers: { 'x-webhook-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, body: '{}' });
    expect(forged.status).toBe(401);
    await g.chain!.faucet(wallet, 1_000_000n);
    const lines = await waitFor(async () => {
      const l = out.split('\n').filter(Boolean);
      return l.some((x) => x.endsWith(' transactions')) && l.some((x) => x.endsWith(' account_state_change')) ? l : undefined;
    });
    expect(lines.every((l) => /^\d+ (transactions|account_state_change)$/.test(l))).toBe(true);
  }, 60_000);
});
