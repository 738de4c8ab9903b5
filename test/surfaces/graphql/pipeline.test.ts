/**
 * One GraphQL pipeline (issue 28, items 3 and 9): a repeated query is executed by graphql-jit's compiled code, and
 * that execution is a step inside yoga's pipeline, so the limits, error masking and any plugin added to the
 * pipeline run for it as for the first send. The compiled executions are counted by
 * `ton_graphql_compiled_total`; with the compiled execution switched off the counts stay at 0 and these tests fail.
 */
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphqlCompiled } from '../../../src/observe/metrics.js';
import { startServer, stubSources, type StubImpl, type TestServer } from './helpers.js';

let impl: StubImpl = {};
const stubs = stubSources(() => impl);

/** What the test's own plugin saw: operations entering execution, and results leaving it (each marked in its extensions). */
const seen = { executions: 0, results: 0 };
const observer: Plugin = {
  onExecute() {
    seen.executions++;
    return {
      onExecuteDone({ result, setResult }) {
        if (Symbol.asyncIterator in result) return;
        seen.results++;
        setResult({ ...(result as ExecutionResult), extensions: { observed: seen.results } });
      },
    };
  },
};

let fast: TestServer;
let full: TestServer;
beforeAll(async () => {
  fast = await startServer({ ...stubs, plugins: [observer] });
  full = await startServer({ ...stubs, fastPath: false, plugins: [observer] });
});
afterAll(async () => {
  await fast?.close();
  await full?.close();
});
beforeEach(() => {
  impl = {};
  seen.executions = 0;
  seen.results = 0;
});

async function counts(): Promise<{ compiled: number; executed: number }> {
  const { values } = await graphqlCompiled.get();
  const of = (event: string) => values.find((v) => v.labels.event === event)?.value ?? 0;
  return { compiled: of('compiled'), executed: of('executed') };
}

/** The compilations and compiled executions `send` caused. */
async function counted(send: () => Promise<void>): Promise<{ compiled: number; executed: number }> {
  const before = await counts();
  await send();
  const after = await counts();
  return { compiled: after.compiled - before.compiled, executed: after.executed - before.executed };
}

const ADDRESS = `0:${'ab'.repeat(32)}`;
let unique = 0;
/** A query no earlier test sent (the compiled table is the server's), reading the service's configuration. */
const fresh = (fields = 'maxPageSize') => `query Q${++unique} { serviceConfig { ${fields} } }`;

async function post(server: TestServer, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: { message: string; locations?: unknown; extensions?: { code?: string } }[]; extensions?: Record<string, unknown> } };
}

async function get(server: TestServer, query: string) {
  const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as { data?: unknown; extensions?: Record<string, unknown> } };
}

describe('a repeated query', () => {
  it('is compiled once and then executed by compiled code, over the JSON shortcut, POST and GET through yoga\'s handler', async () => {
    for (const [name, send] of [
      ['fast path', (q: string) => post(fast, { query: q })],
      ['full handler, POST', (q: string) => post(full, { query: q })],
      ['full handler, GET', (q: string) => get(full, q)],
    ] as const) {
      const query = fresh();
      const answers: unknown[] = [];
      const delta = await counted(async () => {
        for (let i = 0; i < 4; i++) answers.push((await send(query)).body.data);
      });
      // first sight interpreted, the second compiles, the second to fourth run compiled
      expect({ name, ...delta }).toEqual({ name, compiled: 1, executed: 3 });
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(answers[0]).toMatchObject({ serviceConfig: { maxPageSize: expect.any(Number) } });
    }
  });

  it('runs a plugin added to the pipeline: its execute hooks see the compiled execution and may change its result', async () => {
    const query = fresh('maxPageSize defaultPageSize');
    const answers: { extensions?: Record<string, unknown> }[] = [];
    const delta = await counted(async () => {
      for (let i = 0; i < 3; i++) answers.push((await post(fast, { query })).body);
    });
    expect(delta.executed).toBe(2);
    expect(seen).toEqual({ executions: 3, results: 3 });
    expect(answers.map((a) => a.extensions)).toEqual([{ observed: 1 }, { observed: 2 }, { observed: 3 }]);
  });

  it('is still refused by the cost limit when its variables make it too costly', async () => {
    const query = `query Cost${++unique}($n: Int) { account(address: "${ADDRESS}") { transactions(first: $n) { nodes { outMessages { destination { transactions(first: $n) { nodes { hash lt now } } } } } } } }`;
    impl.transactions = async () => ({ transactions: [], address_book: {} });
    const within = await counted(async () => {
      for (let i = 0; i < 3; i++) expect((await post(fast, { query, variables: { n: 2 } })).body.errors).toBeUndefined();
    });
    expect(within).toEqual({ compiled: 1, executed: 2 });
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    const over = await counted(async () => {
      refused = await post(fast, { query, variables: { n: 100 } });
    });
    expect(over.executed).toBe(0);
    expect(refused!.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  it('has its internal errors masked, coded and located as on first sight', async () => {
    const query = `query Masked${++unique} { masterchainInfo { last { seqno } } serviceConfig { maxPageSize } }`;
    impl.masterchainInfo = async () => {
      throw new Error('secret');
    };
    const answers: Awaited<ReturnType<typeof post>>[] = [];
    const delta = await counted(async () => {
      for (let i = 0; i < 3; i++) answers.push(await post(fast, { query }));
    });
    expect(delta).toEqual({ compiled: 1, executed: 2 });
    const [first, ...later] = answers.map((a) => ({ ...a, body: { ...a.body, extensions: undefined } }));
    expect(first!.body.errors).toEqual([
      { message: 'Unexpected error.', locations: [{ line: 1, column: expect.any(Number) }], path: ['masterchainInfo'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    expect(JSON.stringify(first)).not.toContain('secret');
    for (const answer of later) expect(answer).toEqual(first);
  });

  it('answers variables that do not coerce in graphql-js\'s words, nothing executed by compiled code', async () => {
    const query = `query Coerce${++unique}($a: Address!) { account(address: $a) { address } }`;
    await post(fast, { query, variables: { a: ADDRESS } });
    const good = await counted(async () => {
      expect((await post(fast, { query, variables: { a: ADDRESS } })).body.data).toEqual({ account: { address: expect.any(String) } });
    });
    expect(good).toEqual({ compiled: 1, executed: 1 });
    let bad: Awaited<ReturnType<typeof post>> | undefined;
    const refused = await counted(async () => {
      bad = await post(fast, { query, variables: { a: 'nope' } });
    });
    expect(refused.executed).toBe(0);
    expect(bad!.body.errors?.[0]?.message).toMatch(/^Variable "\$a" got invalid value "nope"/);
  });
});
