/**
 * Issue 27, items 1 and 2, against the CLI running the local chain in its own process (so its RSS is the
 * server's alone): fragment bombs that expand to 3^10 and 3^11 subtrees behind `first: 0`, each sent twice (the
 * second send used to be compiled whole by graphql-jit) over every path (the JSON fast path, yoga's handler over
 * GET, a persisted-query registration, SSE and graphql-ws), and 1,000 distinct 20 KB invalid documents (which
 * yoga's parse and validation cache used to keep). Throughout, the server stays up, its RSS grows by less than
 * 512 MB, and another client's ordinary query is answered within a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'graphql';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createYoga } from 'graphql-yoga';
import { loadConfig, type Config } from '../../../src/config.js';
import { documentBytes, useDocumentCache } from '../../../src/surfaces/graphql/document-cache.js';
import { expandedFieldCount } from '../../../src/surfaces/graphql/expansion.js';
import { LIMITS, useLimits } from '../../../src/surfaces/graphql/limits.js';
import { schema } from '../../../src/surfaces/graphql/schema.js';
import { waitFor } from '../../helpers/gateway.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RSS_GROWTH_MB = 512;
const ORDINARY = '{ masterchainInfo { last { seqno } } }';

/** The attack's document: `Bk` selects seqno and spreads `Bk-1` under three fields, so `...Bk` is ~3^k fields. */
function bomb(k: number, root = 'query { masterchainInfo { last { transactions(first: 0) { nodes { block { ...B%k } } } } } }'): string {
  let text = `${root.replace('%k', String(k))}\nfragment B0 on Block { seqno }\n`;
  for (let i = 1; i <= k; i++) {
    text += `fragment B${i} on Block { seqno shards { ...B${i - 1} } prevBlocks { ...B${i - 1} } masterchainBlock { ...B${i - 1} } }\n`;
  }
  return text;
}

describe('the expanded size of a document', () => {
  it('counts every spread of a fragment again, in time linear in the document', () => {
    expect(expandedFieldCount(parse('{ a b { c d } ... on Query { e } }'))).toBe(5);
    expect(expandedFieldCount(parse('{ a { ...F ...F } } fragment F on T { b c { d } }'))).toBe(7);
    // B10 is 3^10 subtrees, B11 three times that
    expect(expandedFieldCount(parse(bomb(10)))).toBe(177_150);
    expect(expandedFieldCount(parse(bomb(11)))).toBe(531_444);
    const start = performance.now();
    expect(expandedFieldCount(parse(bomb(40)), LIMITS.maxFields)).toBeGreaterThan(LIMITS.maxFields);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('counts a cycle (which validation refuses) and an unknown fragment as nothing, without recursing for ever', () => {
    expect(expandedFieldCount(parse('{ a { ...F } } fragment F on T { b ...G } fragment G on T { c ...F }'))).toBe(3);
    expect(expandedFieldCount(parse('{ a { ...Missing } }'))).toBe(1);
  });

  it('the default limit is far above the largest legitimate document, and is configurable', async () => {
    const explorer = await import('../../../src/surfaces/explorer/app/documents.js');
    const sizes = (Object.values(explorer) as unknown[])
      .filter((v): v is string => typeof v === 'string')
      .map((d) => expandedFieldCount(parse(d)));
    expect(Math.max(...sizes)).toBeLessThan(LIMITS.maxFields / 10);
    expect((loadConfig([], {}) as Config).maxQueryFields).toBe(LIMITS.maxFields);
    expect((loadConfig(['--max-query-fields', '800'], {}) as Config).maxQueryFields).toBe(800);
    expect((loadConfig([], { MAX_QUERY_FIELDS: '900' }) as Config).maxQueryFields).toBe(900);
    expect(() => loadConfig([], { MAX_QUERY_FIELDS: '0' })).toThrow(/MAX_QUERY_FIELDS must be at least 1/);
  });
});

describe('the document cache', () => {
  it('keeps valid documents within its byte budget, and never an invalid or over-limit one', async () => {
    const cache = useDocumentCache({ maxBytes: 1024 * 1024, maxEntries: 100 });
    const yoga = createYoga({ schema, parserAndValidationCache: false, plugins: [cache, useLimits({ maxFields: 50 })], logging: false });
    const send = async (query: string) => {
      const res = await yoga.fetch('http://localhost/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
      return (await res.json()) as { data?: unknown; errors?: { extensions: { code: string } }[] };
    };
    // 2 KB each, charged ~257 KB: four fit in 1 MB, never more
    const valid = (i: number) => `query Q${i} { __typename }\n#${'x'.repeat(2000)}`;
    for (let i = 0; i < 20; i++) {
      expect(await send(valid(i))).toEqual({ data: { __typename: 'Query' } });
      expect(cache.size().bytes).toBeLessThanOrEqual(1024 * 1024);
    }
    expect(cache.size().entries).toBe(Math.floor((1024 * 1024) / documentBytes(valid(0))));
    const before = cache.size();
    // a repeated document is answered from the cache: nothing is added
    expect(await send(valid(19))).toEqual({ data: { __typename: 'Query' } });
    expect(cache.size()).toEqual(before);
    for (let i = 0; i < 20; i++) {
      expect((await send(`query Bad${i} { nope${i} }`)).errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect((await send(bomb(3 + (i % 3)))).errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
      expect((await send(`query Broken${i} {`)).errors?.[0]?.extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    }
    expect(cache.size()).toEqual(before);
  });
});

describe('GraphQL hardening against the CLI on the local chain', () => {
  let proc: ChildProcess;
  let url: string;
  let baselineMb: number;

  beforeAll(async () => {
    proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', '--block-interval', '1000'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    url = await waitFor(async () => /Listening on (http:\/\/\S+)/.exec(out)?.[1], 60_000);
    await waitFor(async () => ((await fetch(`${url}/health`)).status === 200 ? true : undefined), 90_000, 200);
    // warm: the ordinary query's path compiled, the schema's lazy parts built
    for (let i = 0; i < 5; i++) await ask(ORDINARY);
    baselineMb = rssMb();
  }, 150_000);
  afterAll(() => {
    if (proc && proc.exitCode === null) proc.kill('SIGKILL');
  });

  /** the gateway's resident set; 0 once it has gone (the test then fails on its answers, not here) */
  const rssMb = (): number => {
    if (proc.exitCode !== null || proc.signalCode !== null) return 0;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };

  async function ask(query: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, ...extra }),
    });
    return { status: res.status, text: await res.text() };
  }

  /**
   * The other client, in a process of its own (so neither the attacker's work nor this test runner's pauses are
   * counted against the gateway): it sends the ordinary query every 50 ms until told to stop, and prints each
   * answer's latency, or the answer itself when it is not the ordinary data.
   */
  const PROBE = `
    const [url, query] = process.argv.slice(1);
    let stop = false;
    process.stdin.on('data', () => (stop = true)).resume();
    (async () => {
      while (!stop) {
        const start = performance.now();
        const res = await fetch(url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const text = await res.text();
        const ms = performance.now() - start;
        const seqno = res.status === 200 ? JSON.parse(text).data?.masterchainInfo?.last?.seqno : undefined;
        console.log(JSON.stringify(typeof seqno === 'number' && seqno > 0 ? { ms } : { ms, status: res.status, text }));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
  `;

  /**
   * Runs `attack` while the other client asks the ordinary query; returns the slowest of its answers and the
   * highest RSS seen. Every ordinary answer must carry data.
   */
  async function underAttack(attack: () => Promise<void>): Promise<{ slowestMs: number; peakMb: number; probes: string }> {
    let peakMb = rssMb();
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 50);
    const probe = spawn(process.execPath, ['-e', PROBE, url, ORDINARY], { stdio: ['pipe', 'pipe', 'inherit'] });
    let lines = '';
    probe.stdout.setEncoding('utf8').on('data', (c: string) => (lines += c));
    const exited = new Promise((resolve) => probe.once('exit', resolve));
    // the first answer: the other client is running before the attack starts
    await waitFor(async () => (lines.includes('\n') ? true : undefined), 30_000, 20);
    try {
      await attack();
      // at least one answer asked for while the attack ran
      const asked = lines.split('\n').length;
      await waitFor(async () => (lines.split('\n').length > asked ? true : undefined), 30_000, 20);
    } finally {
      probe.stdin.end('stop\n');
      await exited;
      clearInterval(sampler);
    }
    peakMb = Math.max(peakMb, rssMb());
    const answers = lines
      .trim()
      .split('\n')
      // the first answer came before the attack, in a process still loading its HTTP client
      .slice(1)
      .map((l) => JSON.parse(l) as { ms: number; status?: number; text?: string });
    expect(answers.filter((a) => a.status !== undefined)).toEqual([]);
    const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!.toFixed(0);
    const probes = `${latencies.length} answers, median ${at(0.5)} ms, p99 ${at(0.99)} ms`;
    return { slowestMs: latencies.at(-1)!, peakMb, probes };
  }

  /** The refusal every path must give: the cost code, the limit, and words a person can act on. */
  function expectRefused(error: { message: string; extensions?: Record<string, unknown> }) {
    expect(error.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: LIMITS.maxFields });
    expect(error.message).toMatch(/more than 5000 fields once its fragments are expanded/);
  }

  it('fragment bombs of 3^10 and 3^11 subtrees, each sent twice, are refused at once on every path', async () => {
    const timings: number[] = [];
    const refusedOverHttp = async (send: () => Promise<Response>) => {
      const start = performance.now();
      const res = await send();
      const text = await res.text();
      timings.push(performance.now() - start);
      expect(res.status, text).toBe(400);
      const body = JSON.parse(text) as { errors: { message: string; extensions?: Record<string, unknown> }[]; data?: unknown };
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expectRefused(body.errors[0]!);
    };
    const post = (body: unknown, headers: Record<string, string> = {}) => () =>
      fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    const { slowestMs, peakMb, probes } = await underAttack(async () => {
      for (const k of [10, 11]) {
        const query = bomb(k);
        // twice each: the second send of a document is the one the compiled path takes
        for (let i = 0; i < 2; i++) {
          await refusedOverHttp(post({ query }));
          // yoga's own handler (GET is never the fast path)
          await refusedOverHttp(() => fetch(`${url}/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json' } }));
          // a persisted-query registration: refused, and the hash is never kept
          const sha256Hash = createHash('sha256').update(query).digest('hex');
          await refusedOverHttp(post({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } }));
          const byHash = await ask('', { extensions: { persistedQuery: { version: 1, sha256Hash } } });
          expect(JSON.parse(byHash.text).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
        }
      }
    });
    console.log(
      `fragment bombs: ${timings.length} refusals, slowest ${Math.max(...timings).toFixed(0)} ms; other client: ${probes}, ` +
        `slowest ${slowestMs.toFixed(0)} ms; RSS ${baselineMb.toFixed(0)} -> ${peakMb.toFixed(0)} MB at most`,
    );
    expect(Math.max(...timings)).toBeLessThan(1_000);
    expect(slowestMs).toBeLessThan(1_000);
    expect(peakMb - baselineMb).toBeLessThan(RSS_GROWTH_MB);
  }, 60_000);

  it('a subscription bomb is refused over SSE and over graphql-ws, and a query bomb over graphql-ws', async () => {
    const subscription = bomb(11, 'subscription { blocks { ...B%k } }');
    const { slowestMs, peakMb } = await underAttack(async () => {
      for (let i = 0; i < 2; i++) {
        const sse = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ query: subscription }),
        });
        const text = await sse.text();
        // yoga answers an operation refused before it starts as a single SSE event, or as JSON when it can
        const json = text.startsWith('{') ? text : /data: (.*)/.exec(text)![1]!;
        expectRefused((JSON.parse(json) as { errors: { message: string; extensions?: Record<string, unknown> }[] }).errors[0]!);
      }
      const client = createWsClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
      try {
        for (const query of [subscription, bomb(11), subscription, bomb(11)]) {
          const errors = await new Promise<unknown>((resolve, reject) => {
            client.subscribe({ query }, { next: (v) => resolve(v.errors), error: resolve, complete: () => reject(new Error('completed without an error')) });
          });
          expect(Array.isArray(errors)).toBe(true);
          expectRefused((errors as { message: string; extensions?: Record<string, unknown> }[])[0]!);
        }
        // the socket is still usable
        const ok = await new Promise<{ data?: any }>((resolve, reject) => {
          client.subscribe<any>({ query: ORDINARY }, { next: resolve, error: reject, complete: () => undefined });
        });
        expect(ok.data.masterchainInfo.last.seqno).toBeGreaterThan(0);
      } finally {
        await client.dispose();
      }
    });
    expect(slowestMs).toBeLessThan(1_000);
    expect(peakMb - baselineMb).toBeLessThan(RSS_GROWTH_MB);
  }, 60_000);

  it('a document within the limit but too large to compile is still answered, every time', async () => {
    // B6 expands to 2,190 fields: allowed, but graphql-jit would hold the event loop ~1 s compiling it
    const query = bomb(6);
    const { slowestMs } = await underAttack(async () => {
      for (let i = 0; i < 4; i++) {
        const res = await ask(query);
        expect(res.status, res.text).toBe(200);
        expect(JSON.parse(res.text)).toEqual({ data: { masterchainInfo: { last: { transactions: { nodes: [] } } } } });
      }
    });
    expect(slowestMs).toBeLessThan(1_000);
    const config = await ask('{ serviceConfig { maxQueryFields } }');
    expect(JSON.parse(config.text).data.serviceConfig.maxQueryFields).toBe(LIMITS.maxFields);
  }, 60_000);

  it('1,000 distinct 20 KB invalid documents from a keyless client leave nothing behind', async () => {
    const COUNT = 1_000;
    // one after another, as a single keyless client sends them: the memory they used to hold grows per distinct document
    const CONCURRENCY = 1;
    // Even: ~3,000 distinct unknown fields, which parse and fail validation. Odd: the attack's own shape, ~6,600
    // `aa`s, now past the expansion limit. Every other pair asks for application/graphql-response+json, which yoga's
    // full handler answers (400 for a validation failure too); the rest take the JSON fast path (200, as the
    // GraphQL-over-HTTP spec has validation failures answered there).
    const document = (n: number) => {
      let text = `query D${n} { `;
      if (n % 2 === 1) return `${text}${'aa '.repeat(Math.floor((20_000 - text.length - 2) / 3))} }`;
      for (let i = 0; text.length < 19_990; i++) text += `f${i} `;
      return `${text}}`;
    };
    expect(document(0).length).toBeGreaterThan(19_900);
    expect(document(1).length).toBeGreaterThan(19_900);
    let sent = 0;
    const answers = new Map<string, number>();
    const { slowestMs, peakMb, probes } = await underAttack(async () => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (sent < COUNT) {
            const n = sent++;
            const strict = n % 4 >= 2;
            const res = await ask(document(n), {}, strict ? { accept: 'application/graphql-response+json' } : {});
            const body = JSON.parse(res.text) as { data?: unknown; errors: { message: string; extensions: { code: string } }[] };
            expect(body.data ?? null).toBeNull();
            const code = body.errors[0]!.extensions.code;
            if (n % 2 === 0) {
              expect([res.status, code]).toEqual([strict ? 400 : 200, 'GRAPHQL_VALIDATION_FAILED']);
              expect(body.errors.map((e) => e.message)).toContainEqual(expect.stringMatching(/Cannot query field "f0" on type "Query"/));
            } else {
              expect([res.status, code]).toEqual([400, 'QUERY_TOO_COMPLEX']);
            }
            const key = `${res.status} ${code}`;
            answers.set(key, (answers.get(key) ?? 0) + 1);
          }
        }),
      );
    });
    console.log(
      `${COUNT} invalid 20 KB documents: ${[...answers].map(([k, n]) => `${n} x ${k}`).join(', ')}; other client: ${probes}, ` +
        `slowest ${slowestMs.toFixed(0)} ms; RSS ${baselineMb.toFixed(0)} -> ${peakMb.toFixed(0)} MB at most`,
    );
    expect([...answers.values()].reduce((a, b) => a + b)).toBe(COUNT);
    expect(slowestMs).toBeLessThan(1_000);
    expect(peakMb - baselineMb).toBeLessThan(RSS_GROWTH_MB);
    expect(proc.exitCode).toBeNull();
    // about 15 s on an idle 2-core machine; the bound leaves room for a loaded one
  }, 400_000);
});
