/**
 * Property-based bad input against every /api/v2 route (GET query, POST body, JSON-RPC) and every /api/v3 route,
 * on one real gateway over loopback HTTP. Property: every answer is 2xx (input that happens to be valid) or 4xx,
 * in the surface's documented envelope; no 5xx except the listed toncenter data-source answers; /health stays 200.
 * FUZZ_SEED replays a seed, FUZZ_RUNS multiplies the case counts.
 */
import fc from 'fast-check';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { V3_DESCRIPTORS } from '../../src/api/v3/index.js';
import { fetchWallets, startTestGateway } from '../helpers/gateway.js';
import { normalizeUrl } from '../../src/pipeline/request-path.js';
import { BATCH, HEALTH_EVERY, RUNS, SEED, Tally, describeCase, expectHealthy, makeAgent, printable, sendBatch, type Answer, type Case } from './harness.js';
import { addressText, anyText, bocText, hashText, intText, jsonFragment, junkText, type Known } from './values.js';

// ---- the v2 surface, written out from v2.md §4 so the suite does not depend on how the routes are built ----

type V2Kind = 'address' | 'hash' | 'int' | 'bool' | 'boc' | 'method' | 'stack' | 'hashes';

const V2_PARAM_KINDS: Record<string, V2Kind> = {
  address: 'address', source: 'address', destination: 'address',
  root_hash: 'hash', file_hash: 'hash', hash: 'hash', after_hash: 'hash', libraries: 'hashes',
  workchain: 'int', shard: 'int', seqno: 'int', from_seqno: 'int', lt: 'int', unixtime: 'int', after_lt: 'int',
  count: 'int', limit: 'int', to_lt: 'int', created_lt: 'int', config_id: 'int', param: 'int',
  archival: 'bool', ignore_chksig: 'bool',
  boc: 'boc', body: 'boc', init_code: 'boc', init_data: 'boc',
  method: 'method', stack: 'stack',
};

interface V2Route {
  name: string;
  write: boolean;
  params: string[];
}

const ACCOUNT = ['address', 'seqno'];
const BLOCK_TX = ['workchain', 'shard', 'seqno', 'root_hash', 'file_hash', 'after_lt', 'after_hash', 'count'];
const TXS = ['address', 'limit', 'lt', 'hash', 'to_lt', 'archival'];
const LOCATE = ['source', 'destination', 'created_lt'];
const r = (name: string, params: string[], write = false): V2Route => ({ name, params, write });

const V2_ROUTES: V2Route[] = [
  ...['getAddressInformation', 'getExtendedAddressInformation', 'getWalletInformation', 'getAddressBalance', 'getAddressState', 'getTokenData'].map(
    (n) => r(n, ACCOUNT),
  ),
  r('getMasterchainInfo', []),
  r('getMasterchainBlockSignatures', ['seqno']),
  r('getShardBlockProof', ['workchain', 'shard', 'seqno', 'from_seqno']),
  r('getConsensusBlock', []),
  r('lookupBlock', ['workchain', 'shard', 'seqno', 'lt', 'unixtime']),
  r('getShards', ['seqno']),
  r('shards', ['seqno']),
  r('getBlockHeader', ['workchain', 'shard', 'seqno', 'root_hash', 'file_hash']),
  r('getOutMsgQueueSize', []),
  r('getOutMsgQueueSizes', []),
  r('getBlockTransactions', BLOCK_TX),
  r('getBlockTransactionsExt', BLOCK_TX),
  r('getTransactions', TXS),
  r('getTransactionsStd', TXS),
  r('tryLocateTx', LOCATE),
  r('tryLocateResultTx', LOCATE),
  r('tryLocateSourceTx', LOCATE),
  r('sendBoc', ['boc'], true),
  r('sendBocReturnHash', ['boc'], true),
  r('sendBocReturnHashNoError', ['boc'], true),
  r('estimateFee', ['address', 'body', 'init_code', 'init_data', 'ignore_chksig'], true),
  r('runGetMethod', ['address', 'method', 'stack', 'seqno'], true),
  r('runGetMethodStd', ['address', 'method', 'stack', 'seqno'], true),
  r('detectAddress', ['address']),
  r('detectHash', ['hash']),
  r('packAddress', ['address']),
  r('unpackAddress', ['address']),
  r('getConfigParam', ['config_id', 'param', 'seqno']),
  r('getConfigAll', ['seqno']),
  r('getLibraries', ['libraries']),
];

/** 5xx answers toncenter itself gives for well-formed input the chain refuses (v2.md §3.2, v3 passes them on); tested elsewhere. */
const REFERENCE_5XX: [number, RegExp][] = [
  [500, /^LITE_SERVER_/],
  [542, /^Unsupported stack entry type: /],
];

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/octet-stream', 'application/json; charset=utf-16', '', '*/*', 'ü/ü',
];

const WRONG_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const ONE_MIB = 1024 * 1024;

/** encodeURIComponent throws on lone surrogates; such a value is sent as its raw UTF-8 bytes percent-encoded. */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
}

/** Each declared param omitted, given once, or repeated; then some junk keys and broken percent-encodings. */
function queryOf(names: string[], value: (name: string) => fc.Arbitrary<string>, keyVariants = false): fc.Arbitrary<string> {
  const one = (n: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as [string, string][]) },
      { weight: 5, arbitrary: value(n).map((v) => [[n, v]] as [string, string][]) },
      { weight: 1, arbitrary: fc.array(value(n), { minLength: 2, maxLength: 4 }).map((vs) => vs.map((v) => [n, v] as [string, string])) },
    );
  const key = (n: string) =>
    keyVariants ? fc.constantFrom(n, n, n, n.toUpperCase(), `${n}[]`) : fc.constant(n);
  return fc
    .tuple(
      fc.tuple(...names.map((n) => fc.tuple(one(n), key(n)))),
      fc.array(fc.tuple(junkText, junkText), { maxLength: 2 }),
      fc.constantFrom('', '', '', '', '&', '&&=&', '&x=%zz', '&%', '&a=%E0%A4%A', '&=', '#frag'),
    )
    .map(([declared, extra, tail]) => {
      const pairs = declared.flatMap(([kv, k]) => kv.map(([, v]) => `${enc(k)}=${enc(v)}`));
      for (const [k, v] of extra) pairs.push(`${enc(k)}=${enc(v)}`);
      return pairs.join('&') + tail;
    });
}

/** A JSON object as text, built from raw fragments so huge numbers, duplicate keys and deep nesting survive. */
function bodyOf(names: string[], fragment: (name: string) => fc.Arbitrary<string>): fc.Arbitrary<string> {
  const one = (n: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant([] as string[]) },
      { weight: 5, arbitrary: fragment(n).map((f) => [`${JSON.stringify(n)}:${f}`]) },
      { weight: 1, arbitrary: fc.array(fragment(n), { minLength: 2, maxLength: 3 }).map((fs) => fs.map((f) => `${JSON.stringify(n)}:${f}`)) },
    );
  return fc
    .tuple(fc.tuple(...names.map(one)), fc.array(fc.tuple(junkText, jsonFragment(junkText)), { maxLength: 2 }))
    .map(([declared, extra]) => `{${[...declared.flat(), ...extra.map(([k, f]) => `${JSON.stringify(k)}:${f}`)].join(',')}}`);
}

/** Whole bodies that are not a JSON object at all. */
const junkBody: fc.Arbitrary<string> = fc.oneof(
  junkText,
  fc.constantFrom('', '{', '}', '[]', '[{}]', 'null', '0', '"x"', 'true', '{"a":}', '{"a":1,}', "{'a':1}", '\u0000', '\ufeff{}'),
  fc.integer({ min: 1000, max: 20000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 1000, max: 20000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
);

describe('bad input on every REST route', () => {
  let gw: Gateway;
  let agent: Agent;
  let known: Known;
  const tally = new Tally();
  const referenceFiveXx = new Map<string, number>();
  const routesHit = new Set<string>();

  beforeAll(async () => {
    gw = await startTestGateway({ keylessRps: 0 });
    agent = makeAgent();
    const wallets = await fetchWallets(gw.url);
    const txs = (await (await fetch(`${gw.url}/api/v3/transactions?limit=5`)).json()) as {
      transactions: { hash: string; lt: string; mc_block_seqno: number }[];
    };
    known = {
      addresses: wallets.map((w) => w.address),
      seqnos: [1, 2, ...txs.transactions.map((t) => t.mc_block_seqno)],
      txHashes: txs.transactions.map((t) => t.hash),
      lts: txs.transactions.map((t) => t.lt),
    };
  });
  afterAll(async () => {
    await agent?.close();
    await gw?.close();
    console.log(`fuzz rest: seed ${SEED}, ${tally.summary()}; reference 5xx: ${JSON.stringify(Object.fromEntries(referenceFiveXx))}`);
  });

  // ---- value generators by parameter kind (a third of the time any kind at all) ----

  /** Arbitraries are built once per key: building them per case costs more than the requests. */
  const memo = <A extends unknown[]>(f: (...a: A) => fc.Arbitrary<string>) => {
    const cache = new Map<string, fc.Arbitrary<string>>();
    return (...a: A) => {
      const k = a.join('\u0000');
      let v = cache.get(k);
      if (!v) cache.set(k, (v = f(...a)));
      return v;
    };
  };

  const v2Value = memo((name: string): fc.Arbitrary<string> => {
    const kind = V2_PARAM_KINDS[name]!;
    const typed: Record<V2Kind, () => fc.Arbitrary<string>> = {
      address: () => addressText(known),
      hash: () => hashText(known),
      hashes: () => hashText(known),
      int: () => fc.oneof(intText, fc.constantFrom(...known.seqnos.map(String), ...known.lts, '-1', '0', '-9223372036854775808', '8000000000000000')),
      bool: () => fc.constantFrom('true', 'false', '1', '0', 'TRUE', 'yes', '2', ''),
      boc: () => bocText,
      method: () => fc.constantFrom('seqno', 'get_public_key', 'get_wallet_data', '85143', '-1', '0', '', 'x'.repeat(300)),
      stack: () => stackText,
    };
    return fc.oneof({ weight: 2, arbitrary: typed[kind]() }, { weight: 1, arbitrary: anyText(known) });
  });

  /** Stacks of both v2 encodings, broken ones and nesting far deeper than any get-method takes. */
  const stackText: fc.Arbitrary<string> = fc.oneof(
    fc.constantFrom(
      '[]', '[["num","1"]]', '[["num",1.5]]', '[["num","0x' + 'f'.repeat(70) + '"]]', '[["cell","x"]]', '[["tvm.Cell",""]]',
      '[["tvm.Slice","te6cckEBAQEAAgAAAEysuc0="]]', '[["foo",1]]', '[["num"]]', '[1,2]', '{"a":1}', '"x"', 'null',
      '[{"@type":"tvm.stackEntryNumber","number":{"number":"1"}}]', '[{"@type":"tvm.stackEntryCell","cell":{"bytes":"!!"}}]',
      '[{"@type":"tvm.stackEntryTuple","tuple":{"elements":null}}]', '[{"@type":"nope"}]', '[["tuple",{"elements":[["num","1"]]}]]',
    ),
    fc.integer({ min: 1, max: 20000 }).map((n) => `[${'["tuple",{"elements":['.repeat(n)}${']}]'.repeat(n)}]`),
    fc.integer({ min: 1, max: 20000 }).map(
      (n) => `[${'{"@type":"tvm.stackEntryTuple","tuple":{"elements":['.repeat(n)}${']}}'.repeat(n)}]`,
    ),
    fc.integer({ min: 1, max: 20000 }).map((n) => `[${'["list",{"elements":['.repeat(n)}${']}]'.repeat(n)}]`),
    fc.array(fc.tuple(fc.constantFrom('num', 'cell', 'slice', 'tvm.Cell', 'tvm.Slice', 'list', 'tuple', 'x'), bocText), { maxLength: 5 }).map(
      (a) => JSON.stringify(a),
    ),
  );

  /** A body fragment: the stack as JSON, not as a string; other params as typed or junk JSON. */
  const v2Fragment = memo((name: string): fc.Arbitrary<string> =>
    name === 'stack' ? fc.oneof(stackText, jsonFragment(junkText)) : fc.oneof({ weight: 3, arbitrary: v2Value(name).map((v) => JSON.stringify(v)) }, jsonFragment(v2Value(name))));

  const v2Case = (): fc.Arbitrary<Case> =>
    fc.oneof(...V2_ROUTES.map((route) => {
      const path = `/api/v2/${route.name}`;
      const get = queryOf(route.params, v2Value).map((q): Case => ({ label: `v2 GET ${route.name}`, method: 'GET', path: `${path}?${q}` }));
      const post = fc
        .tuple(fc.oneof({ weight: 6, arbitrary: bodyOf(route.params, v2Fragment) }, { weight: 1, arbitrary: junkBody }), fc.constantFrom(...CONTENT_TYPES))
        .map(([body, ct]): Case => ({ label: `v2 POST ${route.name}`, method: 'POST', path, body, headers: ct ? { 'content-type': ct } : {} }));
      const rpc = fc
        .tuple(
          fc.oneof({ weight: 8, arbitrary: fc.constant(JSON.stringify(route.name)) }, { weight: 1, arbitrary: jsonFragment(junkText) }),
          fc.oneof({ weight: 8, arbitrary: bodyOf(route.params, v2Fragment) }, { weight: 1, arbitrary: jsonFragment(junkText) }),
          fc.oneof(fc.constantFrom('1', '"a"', 'null', '{"x":[1]}', '1e400'), fc.constant(undefined)),
          fc.boolean(),
        )
        .map(([method, params, id, dropJsonrpc]): Case => {
          const frame = [dropJsonrpc ? '' : '"jsonrpc":"2.0"', id === undefined ? '' : `"id":${id}`, `"method":${method}`, `"params":${params}`];
          return {
            label: `v2 RPC ${route.name}`,
            method: 'POST',
            path: '/api/v2/jsonRPC',
            body: `{${frame.filter(Boolean).join(',')}}`,
            headers: { 'content-type': 'application/json' },
          };
        });
      const wrong = fc
        .tuple(fc.constantFrom(...WRONG_METHODS, ...(route.write ? ['GET'] : [])), queryOf(route.params, v2Value))
        .map(([m, q]): Case => ({ label: `v2 ${m} ${route.name}`, method: m, path: `${path}?${q}` }));
      const arms = [
        { weight: route.write ? 0 : 4, arbitrary: get },
        { weight: 4, arbitrary: post },
        { weight: 3, arbitrary: rpc },
        { weight: 1, arbitrary: wrong },
      ].filter((a) => a.weight > 0);
      return fc.oneof(...arms).map((c) => ({ ...c, route: `v2 ${route.name}` }));
    }));

  const v3Value = memo((kind: string, name: string): fc.Arbitrary<string> => {
    const typed: Record<string, () => fc.Arbitrary<string>> = {
      int32: () => fc.oneof(intText, fc.constantFrom(...known.seqnos.map(String))),
      uint64: () => fc.oneof(intText, fc.constantFrom(...known.lts)),
      bool: () => fc.constantFrom('true', 'false', '1', '0', 't', 'F', 'TRUE', 'yes', '2'),
      string: () =>
        name === 'sort' || name === 'direction' ? fc.constantFrom('asc', 'desc', 'a', 'D', 'in', 'out', 'IN', 'sideways') : fc.oneof(addressText(known), junkText),
      ShardId: () => fc.oneof(intText, fc.constantFrom('8000000000000000', '0x8000000000000000', 'ffffffffffffffff', '1ffffffffffffffff', '0x', 'zz')),
      HashType: () => hashText(known),
      AccountAddress: () => addressText(known),
      AccountAddressNullable: () => fc.oneof(addressText(known), fc.constant('null')),
      OpcodeType: () => fc.oneof(intText, fc.constantFrom('0x0f8a7ea5', '0xffffffff', '0x100000000', 'ffffffff', '0X1', '0x-1', '0xg')),
      UtimeType: () => fc.oneof(intText, fc.constantFrom('1.5', '.5', '5.', '1e9', '1e400', '-1.0', '1e-400', '00001', 'inf')),
    };
    const t = typed[kind];
    if (!t) throw new Error(`no generator for v3 kind ${kind}`);
    return fc.oneof({ weight: 2, arbitrary: t() }, { weight: 1, arbitrary: anyText(known) });
  });

  const v3Fragment = memo((type: string, name: string): fc.Arbitrary<string> => {
    const typed =
      type === 'boolean'
        ? fc.constantFrom('true', 'false', '"true"', '1', 'null')
        : type === 'array'
          ? fc.oneof(
              fc.constantFrom('[]', 'null', '[{"type":"num","value":"1"}]', '[{"type":"num","value":1e400}]', '[{"type":"cell","value":"x"}]', '[1]', '[{"type":"tuple"}]'),
              fc.array(fc.tuple(fc.constantFrom('num', 'cell', 'slice', 'tuple', ''), fc.oneof(intText, bocText)), { maxLength: 4 }).map((a) =>
                JSON.stringify(a.map(([t, v]) => ({ type: t, value: v }))),
              ),
            )
          : (name === 'address' ? addressText(known) : name === 'method' ? fc.constantFrom('seqno', 'get_public_key', '', 'x') : bocText).map((s) =>
              JSON.stringify(s),
            );
    return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: jsonFragment(anyText(known)) });
  });

  const v3Case = (): fc.Arbitrary<Case> =>
    fc.oneof(...V3_DESCRIPTORS.map((route) => {
      const paths = [route.path, ...(route.aliases ?? [])].map((p) => `/api/v3${p}`);
      const [method] = route.methods;
      const names = Object.keys(route.params).filter((n) => route.params[n]!.in === 'query');
      const query = queryOf(names, (n) => v3Value(route.params[n]!.kind, n), true);
      const fields = Object.keys(route.params).filter((n) => route.params[n]!.in === 'body');
      // a body member's JSON type: lists and the stack are arrays
      const jsonType = (n: string) => {
        const f = route.params[n]!;
        return f.list || f.kind === 'stack' ? 'array' : f.kind === 'bool' ? 'boolean' : 'string';
      };
      const headers = fc.constantFrom<Record<string, string>>({}, {}, { 'x-no-address-book': 'true' }, { 'x-no-metadata': '1' }, { 'x-no-metadata': 'ü' });
      const main =
        method === 'GET'
          ? fc.tuple(fc.constantFrom(...paths), query, headers).map(([p, q, h]): Case => ({ label: `v3 GET ${p}`, method: 'GET', path: `${p}?${q}`, headers: h }))
          : fc
              .tuple(
                fc.constantFrom(...paths),
                fc.oneof(
                  { weight: 6, arbitrary: bodyOf(fields, (n) => v3Fragment(jsonType(n), n)) },
                  { weight: 1, arbitrary: junkBody },
                ),
                fc.constantFrom(...CONTENT_TYPES),
              )
              .map(([p, body, ct]): Case => ({ label: `v3 POST ${p}`, method: 'POST', path: p, body, headers: ct ? { 'content-type': ct } : {} }));
      const wrong = fc
        .tuple(fc.constantFrom(...paths), fc.constantFrom(...WRONG_METHODS, method === 'GET' ? 'POST' : 'GET'))
        .map(([p, m]): Case => ({ label: `v3 ${m} ${p}`, method: m, path: p, ...(m === 'POST' ? { body: '{}' } : {}) }));
      return fc.oneof({ weight: 8, arbitrary: main }, { weight: 1, arbitrary: wrong }).map((c) => ({ ...c, route: `v3 ${route.path}` }));
    }));

  /** Requests no route expects: unknown paths, broken encodings, URLs over 8 KiB, bodies over 1 MiB. */
  const edgeCase = (): fc.Arbitrary<Case> => {
    const prefix = fc.constantFrom('/api/v2', '/api/v3');
    const anyRoute = fc.constantFrom(...V2_ROUTES.map((x) => `/api/v2/${x.name}`), '/api/v2/jsonRPC', ...V3_DESCRIPTORS.map((x) => `/api/v3${x.path}`));
    return fc.oneof(
      fc.tuple(prefix, junkText).map(([p, j]): Case => ({ label: 'unknown path', method: 'GET', path: `${p}/${enc(j)}` })),
      fc
        .tuple(prefix, fc.constantFrom('%zz', '%', '%E0%A4%A', '%00', '..%2F..%2F', '%C0%AF', 'getAddressInformation%', 'blocks%ff'))
        .map(([p, s]): Case => ({ label: 'bad encoding', method: 'GET', path: `${p}/${s}` })),
      fc
        .tuple(anyRoute, fc.integer({ min: 8 * 1024 + 1, max: 15 * 1024 }), fc.constantFrom('GET', 'POST'))
        .map(([p, n, m]): Case => ({ label: 'long url', method: m, path: `${p}?address=${'A'.repeat(n)}`, expect: 414 }) as Case),
      fc
        .tuple(anyRoute, fc.integer({ min: 17 * 1024, max: 64 * 1024 }))
        .map(([p, n]): Case => ({ label: 'url over the header limit', method: 'GET', path: `${p}?q=${'B'.repeat(n)}`, expect: "any-4xx" }) as Case),
      fc
        .tuple(anyRoute, fc.integer({ min: 1, max: 64 * 1024 }), fc.constantFrom('application/json', 'text/plain', ''))
        .map(([p, extra, ct]): Case => ({
          label: 'body over 1 MiB',
          method: 'POST',
          path: p,
          headers: ct ? { 'content-type': ct } : {},
          body: `{"boc":"${'A'.repeat(ONE_MIB + extra)}"}`,
          expect: 413,
        }) as Case),
    );
  };

  // ---- the property ----

  function checkAnswer(c: Case & { expect?: number | 'any-4xx' }, a: Answer): void {
    const where = `${describeCase(c)}\n→ ${a.status} ${a.text.slice(0, 400)}`;
    // the surface is that of the path as the server reads it: `/api/v2/..%2F..%2F` is `/`, outside v2
    const v2 = normalizeUrl(c.path).startsWith('/api/v2');
    if (c.expect === 'any-4xx') {
      expect(a.status >= 400 && a.status < 500, where).toBe(true);
      return;
    }
    if (typeof c.expect === 'number') expect(a.status, where).toBe(c.expect);
    expect(a.contentType, where).toMatch(/^application\/json/);
    const body = a.json as Record<string, unknown> | undefined;
    expect(typeof body === 'object' && body !== null, `not a JSON object: ${where}`).toBe(true);
    if (a.status >= 200 && a.status < 300) {
      if (v2) {
        expect(body!.ok, where).toBe(true);
        expect('result' in body!, where).toBe(true);
      }
      return;
    }
    if (a.status >= 500) {
      const allowed = REFERENCE_5XX.some(([s, re]) => s === a.status && re.test(String(body!.error)));
      expect(allowed, `5xx: ${where}`).toBe(true);
      const key = `${a.status} ${String(body!.error).split(':').slice(0, 2).join(':').slice(0, 60)}`;
      referenceFiveXx.set(key, (referenceFiveXx.get(key) ?? 0) + 1);
    } else {
      expect(a.status >= 400 && a.status < 500, where).toBe(true);
    }
    if (v2) {
      expect(body, where).toMatchObject({ ok: false, code: a.status });
    } else {
      expect(body!.code, where).toBe(a.status);
    }
    expect(body!.error, where).toBeTypeOf('string');
  }

  async function runCases(arb: fc.Arbitrary<Case>, count: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(fc.array(arb.map(printable), { minLength: BATCH, maxLength: BATCH }), async (cases) => {
        const answers = await sendBatch(agent, gw.url, cases, tally);
        for (const [c, a] of answers) {
          checkAnswer(c, a);
          tally.add(a.status);
          routesHit.add((c as Case & { route?: string }).route ?? c.label);
          if (tally.cases % HEALTH_EVERY === 0) await expectHealthy(agent, gw.url);
        }
      }),
      { seed: SEED, numRuns: Math.ceil((count * RUNS) / BATCH), endOnFailure: false },
    );
    await expectHealthy(agent, gw.url);
  }

  it('v2: GET query, POST body and JSON-RPC on every endpoint', async () => {
    await runCases(v2Case(), 2800);
    for (const route of V2_ROUTES) expect(routesHit.has(`v2 ${route.name}`), `v2 ${route.name} never tried`).toBe(true);
  });

  it('v3: query and body on every route', async () => {
    await runCases(v3Case(), 2000);
    for (const route of V3_DESCRIPTORS) expect(routesHit.has(`v3 ${route.path}`), `v3 ${route.path} never tried`).toBe(true);
  });

  it('unknown paths, broken encodings, URLs over 8 KiB, bodies over 1 MiB', async () => {
    await runCases(edgeCase(), 400);
  });

  it('ran at least 5,000 cases and the server still answers /health', async () => {
    expect(tally.cases).toBeGreaterThanOrEqual(5000);
    await expectHealthy(agent, gw.url);
  });
});
