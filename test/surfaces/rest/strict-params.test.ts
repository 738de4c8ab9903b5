/**
 * Strict parameters (issue 46): on /api/v3, /api/v2 (REST and JSON-RPC), the Emulate and the Streaming APIs an
 * unknown parameter answers 422 in the surface's envelope naming it and the name meant, a single-valued one given
 * twice is refused, and list parameters still repeat; `--lenient-params` and `X-Lenient-Params: 1` restore
 * toncenter's ignoring (a misspelt filter then answers the unfiltered list, as toncenter's does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearestName, unknownParamMessage } from '../../../src/api/strict-params.js';
import type { Gateway } from '../../../src/gateway.js';
import { WsClient } from '../../../scripts/lib/streaming-client.js';
import { fetchWallets, startTestGateway } from '../../helpers/gateway.js';

let g: Gateway;
let lenient: Gateway;
let alice: string;

beforeAll(async () => {
  [g, lenient] = await Promise.all([startTestGateway(), startTestGateway({ lenientParams: true })]);
  alice = (await fetchWallets(g.url))[0]!.address;
}, 60_000);

afterAll(async () => {
  await Promise.all([g?.close(), lenient?.close()]);
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers });
  return { status: r.status, body: (await r.json()) as any };
};
const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};

describe('names meant', () => {
  it('are the nearest by edit distance, else the nearest sharing the first word, else the route lists its names', () => {
    expect(nearestName('owner_adress', ['owner_address', 'jetton_address', 'limit'])).toBe('owner_address');
    expect(nearestName('owner_id', ['owner_address', 'jetton_address', 'limit'])).toBe('owner_address');
    expect(nearestName('zzzzzz', ['owner_address', 'limit'])).toBeUndefined();
    expect(unknownParamMessage('zzzzzz', ['owner_address', 'limit'])).toBe('unknown parameter `zzzzzz`; this route takes `owner_address`, `limit`');
  });
});

describe('/api/v3', () => {
  it('refuses an unknown parameter with 422 in its envelope, naming the one meant', async () => {
    const r = await get(`${g.url}/api/v3/jetton/wallets?owner_adress=${alice}`);
    expect(r).toEqual({ status: 422, body: { code: 422, error: 'unknown parameter `owner_adress`; did you mean `owner_address`?' } });
  });

  it('refuses a single-valued parameter given twice, and takes a list parameter repeated', async () => {
    const twice = await get(`${g.url}/api/v3/transactions?account=${alice}&limit=1&limit=2`);
    expect(twice).toEqual({ status: 422, body: { code: 422, error: 'parameter `limit` is given more than once; this route takes one value' } });
    const list = await get(`${g.url}/api/v3/accountStates?address=${alice}&address=${alice}`);
    expect(list.status).toBe(200);
    expect(list.body.accounts.length).toBeGreaterThan(0);
  });

  it('takes the request settings on every route', async () => {
    const r = await get(`${g.url}/api/v3/accountStates?address=${alice}&x_timeout=5000&x_no_address_book=true`);
    expect(r.status).toBe(200);
  });

  it('ignores the misspelt filter when the request or the server asks for leniency, answering the unfiltered list', async () => {
    const filtered = await get(`${g.url}/api/v3/jetton/wallets?owner_address=${alice}&limit=50`);
    const byHeader = await get(`${g.url}/api/v3/jetton/wallets?owner_adress=${alice}&limit=50`, { 'x-lenient-params': '1' });
    const byServer = await get(`${lenient.url}/api/v3/jetton/wallets?owner_adress=${alice}&limit=50`);
    expect(byHeader.status).toBe(200);
    expect(byServer.status).toBe(200);
    // what cost vultisig's users: a stranger's wallets in the answer
    const owners = (b: any) => new Set((b.jetton_wallets as { owner: string }[]).map((w) => w.owner));
    expect(owners(filtered.body).size).toBe(1);
    expect(owners(byHeader.body).size).toBeGreaterThan(1);
    expect(owners(byServer.body).size).toBeGreaterThan(1);
  });
});

describe('/api/v2', () => {
  it('refuses an unknown query name or body member in its envelope', async () => {
    expect(await get(`${g.url}/api/v2/getAddressBalance?address=${alice}&adress=1`)).toEqual({
      status: 422,
      body: { ok: false, error: 'unknown parameter `adress`; did you mean `address`?', code: 422 },
    });
    expect(await post(`${g.url}/api/v2/getAddressBalance`, { address: alice, seqnoo: 1 })).toEqual({
      status: 422,
      body: { ok: false, error: 'unknown parameter `seqnoo`; did you mean `seqno`?', code: 422 },
    });
  });

  it('refuses a repeated single-valued query name, and answers the same read with the header', async () => {
    const twice = await get(`${g.url}/api/v2/getAddressBalance?address=${alice}&address=${alice}`);
    expect(twice.body).toEqual({ ok: false, error: 'parameter `address` is given more than once; this route takes one value', code: 422 });
    const ok = await get(`${g.url}/api/v2/getAddressBalance?address=${alice}&adress=1`, { 'X-Lenient-Params': 'true' });
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('JSON-RPC: an unknown member of params or of the call itself, in the JSON-RPC envelope with its id', async () => {
    expect(await post(`${g.url}/api/v2/jsonRPC`, { id: 7, jsonrpc: '2.0', method: 'getAddressBalance', params: { adress: alice } })).toEqual({
      status: 422,
      body: { ok: false, error: 'unknown parameter `adress`; did you mean `address`?', code: 422, jsonrpc: '2.0', id: 7 },
    });
    const top = await post(`${g.url}/api/v2/jsonRPC`, { id: 'x', jsonrpc: '2.0', method: 'getAddressBalance', parms: { address: alice } });
    expect(top.body).toMatchObject({ ok: false, error: 'unknown parameter `parms`; did you mean `params`?', id: 'x' });
    const lenientCall = await post(`${lenient.url}/api/v2/jsonRPC`, { id: 1, jsonrpc: '2.0', method: 'getAddressBalance', params: { address: alice, adress: 1 } });
    expect(lenientCall.body).toMatchObject({ ok: true, id: 1 });
  });
});

describe('Emulate and Streaming', () => {
  it('emulateTrace refuses an unknown member in its {error} envelope', async () => {
    expect(await post(`${g.url}/api/emulate/v1/emulateTrace`, { boc: 'te6', with_action: true })).toEqual({
      status: 422,
      body: { error: 'unknown parameter `with_action`; did you mean `with_actions`?' },
    });
  });

  it('SSE refuses an unknown subscription field; every field toncenter reads is known', async () => {
    expect(await post(`${g.url}/api/streaming/v2/sse`, { addresses: [alice], types: ['transactions'], min_finalty: 'pending' })).toEqual({
      status: 422,
      body: { error: 'unknown parameter `min_finalty`; did you mean `min_finality`?' },
    });
    const all = {
      addresses: [alice],
      types: ['transactions'],
      min_finality: 'finalized',
      include_address_book: false,
      include_metadata: false,
      action_types: [],
      supported_action_types: ['latest'],
      trace_external_hash_norms: [],
      replay_existing: false,
    };
    const ctrl = new AbortController();
    const r = await fetch(`${g.url}/api/streaming/v2/sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(all), signal: ctrl.signal });
    expect(r.status).toBe(200);
    ctrl.abort();
  });

  it('WebSocket answers an unknown field of an operation with an error frame carrying its id', async () => {
    const ws = await WsClient.open(g.url);
    try {
      expect(await ws.request({ id: 's1', operation: 'subscribe', addresses: [alice], types: ['transactions'], adresses: [] })).toEqual({
        id: 's1',
        error: 'unknown parameter `adresses`; did you mean `addresses`?',
      });
      expect(await ws.request({ id: 'p', operation: 'ping' })).toEqual({ id: 'p', status: 'pong' });
    } finally {
      ws.close();
    }
  });
});
