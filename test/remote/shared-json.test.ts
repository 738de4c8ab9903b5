/**
 * Upstream answers shared without copies (src/remote/shared-json.ts): a view behaves as the caller's own deep
 * copy, and what B sends is byte for byte what serialising a copy sends: on a miss, on a cache hit, to
 * single-flight waiters, and when the upstream's JSON is not written the way JSON.stringify writes it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { RequestAnswers } from '../../src/remote/answers.js';
import { ResponseCache } from '../../src/remote/cache.js';
import type { UpstreamClient } from '../../src/remote/client.js';
import { preSerialized } from '../../src/api/raw-answer.js';
import { cachedAs, SharedJson } from '../../src/remote/shared-json.js';
import { startTestGateway } from '../helpers/gateway.js';
import { startUpstreamGateway } from '../sources/upstream/helpers.js';

const DATA = {
  transactions: [{ hash: 'qZLd6MJU+/==', lt: '100', finality: 'finalized', out_msgs: [], n: -1.5e-7, ok: true, none: null }],
  address_book: { '0:AB': { user_friendly: 'EQ…', domain: null } },
  '7': 'an integer-like key, listed first by JS',
  text: 'quote " backslash \\ newline \n tab \t control \u0001 emoji 😀',
};

describe('SharedJson views', () => {
  const fromValue = () => SharedJson.ofValue(JSON.parse(JSON.stringify(DATA)));
  const fromText = () => SharedJson.ofText(JSON.stringify(DATA), { retain: false });

  for (const [name, make] of [
    ['decoded value', fromValue],
    ['cached text', fromText],
  ] as const) {
    describe(name, () => {
      it('serialises like a copy and offers that text until looked into', () => {
        const v = make().view();
        expect(preSerialized(v)).toBe(JSON.stringify(DATA));
        expect(JSON.stringify(v)).toBe(JSON.stringify(DATA));
        expect(JSON.stringify({ ok: true, result: v })).toBe(JSON.stringify({ ok: true, result: DATA }));
        // reading symbols and names the data does not have (what Fastify and await do) is not looking inside
        expect(Object.prototype.toString.call(v)).toBe('[object Object]');
        expect((v as { pipe?: unknown }).pipe).toBeUndefined();
        expect((v as { then?: unknown }).then).toBeUndefined();
        expect(preSerialized(v)).toBe(JSON.stringify(DATA));
      });

      it('survives await without being copied', async () => {
        const v = await Promise.resolve(make().view());
        expect(preSerialized(v)).toBe(JSON.stringify(DATA));
      });

      it('reads as a deep copy, and a changed view keeps its change to itself', () => {
        const s = make();
        const a = s.view() as typeof DATA;
        const b = s.view() as typeof DATA;
        expect(a).toEqual(DATA);
        expect(Object.keys(a)).toEqual(Object.keys(JSON.parse(JSON.stringify(DATA))));
        a.transactions[0]!.lt = 'changed';
        (a as Record<string, unknown>).extra = 1;
        expect(preSerialized(a)).toBeUndefined();
        expect(JSON.parse(JSON.stringify(a)).transactions[0].lt).toBe('changed');
        expect(b.transactions[0]!.lt).toBe('100');
        expect(preSerialized(s.view())).toBe(JSON.stringify(DATA));
        expect(JSON.stringify(s.view())).toBe(JSON.stringify(DATA));
      });

      it('is frozen, spread and checked like an object', () => {
        const v = make().view() as Record<string, unknown>;
        expect('text' in v).toBe(true);
        expect({ ...v }).toEqual(DATA);
        Object.freeze(v);
        expect(Object.isFrozen(v)).toBe(true);
        expect(v.text).toBe(DATA.text);
      });
    });
  }

  it('gives arrays as arrays', () => {
    for (const s of [SharedJson.ofValue([{ a: 1 }, 2, 'x']), SharedJson.ofText('[{"a":1},2,"x"]', { retain: false })]) {
      const v = s.view() as unknown[];
      expect(Array.isArray(v)).toBe(true);
      expect(preSerialized(v)).toBe('[{"a":1},2,"x"]');
      expect(JSON.stringify({ result: v })).toBe('{"result":[{"a":1},2,"x"]}');
      expect(v.length).toBe(3);
      expect([...v]).toEqual([{ a: 1 }, 2, 'x']);
      expect(v.map((x) => typeof x)).toEqual(['object', 'number', 'string']);
      v.push('y');
      expect(preSerialized(v)).toBeUndefined();
      expect(JSON.stringify(s.view())).toBe('[{"a":1},2,"x"]');
    }
  });

  it('gives primitives as they are', () => {
    expect(SharedJson.ofValue('1000').view()).toBe('1000');
    expect(SharedJson.ofText('"1000"').view()).toBe('1000');
    expect(SharedJson.ofText('null').view()).toBeNull();
    expect(preSerialized('1000')).toBeUndefined();
  });

  it('treats then, toJSON and __proto__ in the data as data', async () => {
    const text = '{"then":"later","toJSON":"no","__proto__":{"x":1}}';
    for (const s of [SharedJson.ofValue(JSON.parse(text)), SharedJson.ofText(text)]) {
      // awaiting it must not call the data's `then` (it is not a function) nor lose the key
      const v = (await Promise.resolve(s.view())) as Record<string, unknown>;
      expect(JSON.stringify(v)).toBe(text);
      expect(v.then).toBe('later');
      expect(v.toJSON).toBe('no');
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
      expect(Object.keys(v)).toEqual(['then', 'toJSON', '__proto__']);
    }
  });

  it('keeps no decoded copy in a cache entry', () => {
    const cache = new ResponseCache(1_000_000);
    cache.set('k', '{"a":[1]}');
    const entry = cache.get('k')!;
    expect(entry.shared).not.toBe(entry.shared);
    expect(preSerialized(entry.view())).toBe('{"a":[1]}');
  });
});

describe('request aliases of cache entries', () => {
  it('find their entry while it is stored, and go with it', () => {
    let now = 0;
    const cache = new ResponseCache(2_000, () => now);
    cache.set('k1', '{"a":1}');
    cache.alias('GET /x?h=1', 'k1');
    cache.alias('GET /x?h=01', 'k1');
    cache.alias('GET /nothing', 'k-unknown');
    expect(cache.getByAlias('GET /x?h=1')?.json).toBe('{"a":1}');
    expect(cache.getByAlias('GET /x?h=01')?.json).toBe('{"a":1}');
    expect(cache.getByAlias('GET /nothing')).toBeUndefined();
    expect(cachedAs(cache.get('k1')!.view())).toBe('k1');
    // replaced under its key: the old aliases do not follow
    cache.set('k1', '{"a":2}');
    expect(cache.getByAlias('GET /x?h=1')).toBeUndefined();
    // expired with its entry
    cache.set('k2', '{"b":1}', 100);
    cache.alias('GET /y', 'k2');
    expect(cache.getByAlias('GET /y')?.json).toBe('{"b":1}');
    now = 200;
    expect(cache.getByAlias('GET /y')).toBeUndefined();
  });

  it('count toward the size bound and are evicted with their entry', () => {
    const cache = new ResponseCache(1_000);
    cache.set('a', 'x'.repeat(100));
    const before = cache.size;
    cache.alias('alias-of-a', 'a');
    expect(cache.size).toBe(before + 'alias-of-a'.length * 2 + 64);
    cache.set('b', 'y'.repeat(300)); // over the bound: a (the least recently used) goes, with its alias
    expect(cache.size).toBeLessThanOrEqual(1_000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.getByAlias('alias-of-a')).toBeUndefined();
    cache.set('c', 'z'.repeat(10));
    cache.alias(`GET /c?junk=${'j'.repeat(2_000)}`, 'c');
    expect(cache.getByAlias(`GET /c?junk=${'j'.repeat(2_000)}`)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('are made only for one untouched, cached answer of a run that read no header', () => {
    const made: [string, string][] = [];
    const client = { alias: (a: string, k: string) => made.push([a, k]) } as unknown as UpstreamClient;
    const answers = new RequestAnswers(client, 'v3');
    const cached = () => SharedJson.ofText('{"a":1}', { cacheKey: 'key' }).view();
    answers.remember('r1', cached(), 1, false);
    answers.remember('r2', cached(), 2, false);
    answers.remember('r3', cached(), 1, true);
    const touched = cached() as { a: number };
    void touched.a;
    answers.remember('r4', touched, 1, false);
    answers.remember('r5', SharedJson.ofValue({ a: 1 }).view(), 1, false);
    answers.remember('r6', { a: 1 }, 1, false);
    expect(made).toEqual([['r1', 'key']]);
    const alias = answers.aliasOf('/api/v3/x?a=1&api_key=secret', { 'x-no-metadata': '1', other: 'y' });
    expect(alias).not.toContain('secret');
    expect(answers.aliasOf('/api/v3/x?a=1&api_key=secret', { 'x-no-metadata': '1', other: 'z' })).toBe(alias);
    expect(answers.aliasOf('/api/v3/x?a=1&api_key=secret', { 'x-no-metadata': 'true' })).not.toBe(alias);
    expect(answers.aliasOf('/api/v3/x?a=1&api_key=secret', {})).not.toBe(alias);
    expect(answers.aliasOf('/api/v3/x?a=2&api_key=secret', { 'x-no-metadata': '1' })).not.toBe(alias);
    expect(new RequestAnswers(client, 'v2').aliasOf('/api/v3/x?a=1&api_key=secret', { 'x-no-metadata': '1' })).not.toBe(alias);
    for (const url of ['/x?API_KEY=secret', '/x?a=1&api%5Fkey=secret', '/x?%61pi_key=secret&b=2']) {
      expect(answers.aliasOf(url, {})).not.toContain('secret');
    }
    // without a key the request itself is the alias (a digest would cost more than the lookup saves)
    expect(answers.aliasOf('/x?hash=a%2Bb%3D', { 'x-no-address-book': '1' })).toBe('v3 /x?hash=a%2Bb%3D\nx-no-address-book: 1');
    const counted = answers.track({ f: () => 1, g: () => 2, n: 3 });
    counted.source.f();
    counted.source.g();
    expect(counted.source.n).toBe(3);
    expect(counted.calls()).toBe(2);
  });
});

/** Status, content type and body text, as sent. */
async function raw(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const sent = await res.text();
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(sent)));
  // toncenter's @extra tag differs on every request (surfaces/rest/v2-extra.ts): compared for presence, not value
  const text = sent.replace(/"@extra":"[^"]*"/g, '"@extra":"tag"');
  return { status: res.status, type: res.headers.get('content-type'), length: String(Buffer.byteLength(text)), text };
}

describe('B against the local chain, byte for byte', () => {
  let A: Gateway;
  let B: Gateway;
  const paths: { path: string; headers?: Record<string, string>; body?: unknown }[] = [];

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });
    const get = async (path: string) => JSON.parse((await raw(`${A.url}${path}`)).text);
    const bob = A.chain!.keyedWallets()[1]!.contract.address.toString();
    const enc = encodeURIComponent;
    const txs = (await get(`/api/v2/getTransactions?address=${enc(bob)}&limit=5`)).result;
    const t = txs[txs.length - 1].transaction_id;
    const v3 = (await get('/api/v3/transactions?limit=5&sort=asc')).transactions;
    const mc = (await get('/api/v2/getMasterchainInfo')).result.last;
    paths.push(
      { path: `/api/v2/getTransactions?address=${enc(bob)}&limit=5` },
      { path: `/api/v2/getTransactions?address=${enc(bob)}&limit=2&lt=${t.lt}&hash=${enc(t.hash)}` },
      { path: `/api/v2/getTransactionsStd?address=${enc(bob)}&limit=2&lt=${t.lt}&hash=${enc(t.hash)}` },
      { path: `/api/v2/getAddressBalance?address=${enc(bob)}` },
      { path: `/api/v2/getAddressBalance?address=${enc(bob)}&seqno=${mc.seqno}` },
      { path: `/api/v2/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=${mc.seqno}` },
      { path: `/api/v2/getMasterchainInfo` },
      { path: `/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=${mc.seqno + 1000}` },
      { path: '/api/v2/jsonRPC', body: { jsonrpc: '2.0', id: 7, method: 'getTransactions', params: { address: bob, limit: 2 } } },
      { path: `/api/v3/transactions?hash=${enc(v3[0].hash)}&hash=${enc(v3[1].hash)}` },
      { path: `/api/v3/transactions?hash=${enc(v3[0].hash)}`, headers: { 'X-No-Address-Book': '1' } },
      { path: `/api/v3/transactions?account=${enc(bob)}&limit=3` },
      { path: `/api/v3/messages?msg_hash=${enc(v3[1].in_msg.hash)}` },
      { path: `/api/v3/blocks?workchain=-1&shard=8000000000000000&seqno=${mc.seqno}` },
      { path: `/api/v3/topAccountsByBalance?limit=2` },
      { path: `/api/v3/addressBook?address=${enc(bob)}&address=garbage` },
      { path: `/api/v3/masterchainBlockShards?seqno=${mc.seqno + 1000}` },
      { path: '/api/v3/runGetMethod', body: { address: bob, method: 'seqno', stack: [] } },
    );
  }, 60_000);

  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  it('sends what A sends, on a miss and on a hit', async () => {
    for (const round of ['miss', 'hit']) {
      for (const p of paths) {
        const a = await raw(`${A.url}${p.path}`, p);
        const b = await raw(`${B.url}${p.path}`, p);
        expect(b, `${round} ${p.path}`).toEqual(a);
      }
    }
    expect(B.upstream!.client.stats.cacheHits).toBeGreaterThan(5);
  });

  it('answers a repeated v3 request through its alias, in any accepted form of the hash', async () => {
    const tx = JSON.parse((await raw(`${A.url}/api/v3/transactions?limit=1&sort=asc`)).text).transactions[0];
    const b64 = encodeURIComponent(tx.hash);
    const hex = Buffer.from(tx.hash, 'base64').toString('hex');
    const forms = [`hash=${b64}`, `hash=${hex}`, `hash=${b64}&limit=100`];
    const sentBefore = B.upstream!.client.stats.sent;
    const client = B.upstream!.client;
    const byAlias = client.cachedByAlias.bind(client);
    let aliasHits = 0;
    client.cachedByAlias = (api, alias) => {
      const found = byAlias(api, alias);
      if (found) aliasHits++;
      return found;
    };
    for (let round = 0; round < 3; round++) {
      for (const f of forms) {
        for (const headers of [{}, { 'X-No-Metadata': 'true' }] as Record<string, string>[]) {
          const a = await raw(`${A.url}/api/v3/transactions?${f}`, { headers });
          expect(await raw(`${B.url}/api/v3/transactions?${f}`, { headers }), f).toEqual(a);
        }
      }
    }
    // one upstream call per distinct upstream request: the three forms are one request, the header makes two
    expect(B.upstream!.client.stats.sent - sentBefore).toBe(2);
    // from the second round on, every request was answered by its alias, before its query was parsed
    expect(aliasHits).toBe(2 * forms.length * 2);
  });

  it('sends every single-flight waiter the same bytes', async () => {
    for (const p of paths.filter((x) => !x.body)) {
      const a = await raw(`${A.url}${p.path}`, p);
      const bs = await Promise.all(Array.from({ length: 6 }, () => raw(`${B.url}${p.path}`, p)));
      for (const b of bs) expect(b, p.path).toEqual(a);
    }
  });
});

describe('an upstream that writes JSON its own way', () => {
  let up: Server;
  let B: Gateway;
  // spaces, escapes JSON.stringify would not write, a number in another form: B re-encodes, as it always did
  const V3_BODY = '{ "transactions" : [ { "hash" : "\\u0041\\/b", "lt" : "100", "finality" : "finalized", "fee" : 1.50 } ], "address_book" : { } }';
  const V2_BODY = '{"ok": true, "result": [ {"@type": "ext.transaction", "utime": 1E3, "data": "\\u00e9t\\u00e9"} ]}';

  beforeAll(async () => {
    up = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url!.startsWith('/api/v3') ? V3_BODY : V2_BODY);
    });
    await new Promise<void>((r) => up.listen(0, '127.0.0.1', r));
    B = await startUpstreamGateway(`http://127.0.0.1:${(up.address() as AddressInfo).port}`, { UPSTREAM_RPS: '0' });
  });
  afterAll(async () => {
    await B?.close();
    await new Promise((r) => up?.close(r));
  });

  it('answers JSON.stringify of what it parsed, on a miss and on a hit', async () => {
    const hash = encodeURIComponent(Buffer.alloc(32, 3).toString('base64'));
    for (let i = 0; i < 2; i++) {
      const v3 = await raw(`${B.url}/api/v3/transactions?hash=${hash}`);
      expect(v3.text).toBe(JSON.stringify(JSON.parse(V3_BODY)));
      expect(v3.type).toBe('application/json; charset=utf-8');
      const v2 = await raw(`${B.url}/api/v2/getTransactions?address=0:${'11'.repeat(32)}&limit=1`);
      expect(v2.text).toBe(JSON.stringify({ ok: true, result: JSON.parse(V2_BODY).result }));
    }
    expect(B.upstream!.client.stats.cacheHits).toBe(1);
  });
});
