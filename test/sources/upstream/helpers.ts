/** Starting gateways in upstream mode for the loopback tests, and a JSON-or-text HTTP helper. */
import { createServer } from 'node:net';
import { beginCell, toNano, type Address } from '@ton/core';
import { expect } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.js';
import { startGateway, type Gateway } from '../../../src/gateway.js';
import type { KeyedWallet } from '../../../src/sources/localnet/index.js';
import type { Frame } from '../../../scripts/lib/streaming-client.js';
import { v4Transfer } from '../../helpers/transfer.js';

/** A transfer of 0.01 TON from a wallet of the local chain to `to`, sent through its v2 and sealed in a block of its own. */
export async function transferSealed(local: Gateway, wallet: KeyedWallet, to: Address): Promise<void> {
  const seqno = (await local.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
  const boc = v4Transfer(wallet, to, toNano('0.01'), seqno);
  const res = await fetch(`${local.url}/api/v2/sendBoc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ boc: boc.toString('base64') }) });
  expect(res.status).toBe(200);
  await local.chain!.sealBlock();
}

/** The hashes of `raw`'s transactions in the finalized `transactions` events a streaming client was sent, in order. */
export const finalizedOf = (frames: Frame[], raw: string): string[] =>
  frames
    .filter((f) => f.data?.type === 'transactions' && f.data.finality === 'finalized')
    .flatMap((f) => (f.data.transactions as { account: string; hash: string }[]).filter((t) => t.account === raw).map((t) => t.hash));

/** A gateway with backend toncenter pointed at `upstreamUrl` (both APIs), on a free loopback port. */
export async function startUpstreamGateway(upstreamUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Gateway> {
  const base = loadConfig([], { BACKEND: 'toncenter', V2_URL: upstreamUrl, V3_URL: upstreamUrl, KEYLESS_RPS: '0', ...env }) as Config;
  return startGateway({ ...base, port: 0, quiet: true });
}

export interface Answer {
  status: number;
  body: unknown;
}

export async function http(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  // toncenter's @extra tag differs on every request (surfaces/rest/v2-extra.ts): compared for presence, not value
  const result = (body as { result?: unknown } | null)?.result;
  if (typeof result === 'object' && result !== null && '@extra' in result) (result as Record<string, unknown>)['@extra'] = 'tag';
  return { status: res.status, body };
}

/** An account and a BoC the fault tests ask about: the fault server answers whatever it is told to. */
export const ADDR = '0:' + '11'.repeat(32);
export const BALANCE = `/api/v2/getAddressBalance?address=${ADDR}`;
export const BOC = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString('base64');

/** A loopback port nothing listens on (bound, read, released). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * A caller asking the same path of a gateway and of an upstream-mode gateway in front of it, expecting the same
 * status and body from both; the gateways are read at call time (they start in beforeAll).
 */
export function onBoth(a: () => Gateway, b: () => Gateway, prefix = '/api/v3') {
  return async (path: string, headers?: Record<string, string>): Promise<{ status: number; body: any }> => {
    const x = await http(`${a().url}${prefix}${path}`, headers ? { headers } : {});
    const y = await http(`${b().url}${prefix}${path}`, headers ? { headers } : {});
    expect(y, `upstream mode: ${path}`).toEqual(x);
    return x as { status: number; body: any };
  };
}
