/** Calling the webhooks API of a gateway with a key, and sending transfers whose events the tests watch. */
import { Address, toNano } from '@ton/core';
import type { Config, WebhooksConfig } from '../../src/config.js';
import { WEBHOOK_DEFAULTS } from '../../src/live/webhooks/spec.js';
import type { Gateway } from '../../src/gateway.js';
import type { KeyedWallet } from '../../src/sources/localnet/index.js';
import { v4Transfer } from './transfer.js';

export const KEYS = ['webhook-key-one', 'webhook-key-two'];
export const API_KEYS: Config['apiKeys'] = KEYS.map((key) => ({ key, networks: ['testnet', 'mainnet'], rps: 0 }));

/** The webhook settings a test runs with: the defaults, private targets allowed, and what it changes. */
export const webhookConfig = (over: Partial<WebhooksConfig> = {}): WebhooksConfig => ({ ...WEBHOOK_DEFAULTS, keyless: false, allowPrivate: true, ...over });

export interface Answer {
  status: number;
  body: any;
}

/** A request to /api/webhooks/v1{path} with `key` (none when undefined). */
export async function api(url: string, key: string | undefined, method: string, path = '', body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}/api/webhooks/v1${path}`, {
    method,
    headers: { ...(key ? { 'x-api-key': key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export const fresh = (): Address => new Address(0, Buffer.from(Array.from({ length: 32 }, () => Math.floor(Math.random() * 256))));

/** Sends `n` transfers from `wallet`, the i-th to `to[i % to.length]`, through the chain's v2 (each sealed at once with block interval 0). */
export async function transfers(g: Gateway, wallet: KeyedWallet, to: Address[], n: number): Promise<void> {
  let seqno = (await g.chain!.v2.getWalletInformation({ address: wallet.contract.address })).seqno!;
  for (let i = 0; i < n; i++) await g.chain!.v2.sendBoc({ boc: v4Transfer(wallet, to[i % to.length]!, toNano('0.001'), seqno++) });
}
