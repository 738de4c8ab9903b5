/**
 * Scenarios 1-3: one account's balance through REST v2 and through GraphQL, each against a bare node:http
 * server answering a byte-identical body, and GraphQL against REST. Runs are interleaved so noise hits both.
 * Scenarios 10-11: the server's CPU time per request (process.cpuUsage over a run), gateway against a bare
 * Fastify route with the same body: steadier than req/s on a shared machine. Scenario 12: the GraphQL query
 * against graphql-jit running the same document in a bare node:http handler (a figure beside row 2, no goal).
 */
import { takeChild, type SpawnOptions } from '../lib/child.js';
import { load, medianResult, withCpu, type LoadResult } from '../lib/load.js';
import type { Row, RunOptions } from './types.js';

export const HTTP_GATEWAY = (o: RunOptions): [string, SpawnOptions] => ['gateway', { cpuProfDir: o.profDir }];

const GQL_QUERY = 'query Balance($a: Address!) { account(address: $a) { balance } }';

/** The gateway's CPU time per request against a bare Fastify route's (ratio: Fastify ÷ gateway, higher is better). */
const cpuRow = (id: number, what: string, gw: LoadResult, fastify: LoadResult, bare: LoadResult, target: number): Row => ({
  id,
  scenario: `${what} CPU per request vs a bare Fastify route`,
  metric: 'CPU/req (Fastify ÷ gateway)',
  subject: gw,
  baseline: fastify,
  ratio: fastify.cpuUs! / gw.cpuUs!,
  target,
  note: `bare node:http ${bare.cpuUs!.toFixed(0)} µs CPU/req`,
});

export const HTTP_KINDS = ['bareRest', 'fastifyRest', 'gwRest', 'bareGql', 'fastifyGql', 'jitGql', 'gwGql'] as const;
export type HttpKind = (typeof HTTP_KINDS)[number];

export interface HttpRuns {
  /** every repetition of each kind asked for, in the order run */
  runs: Partial<Record<HttpKind, LoadResult[]>>;
  restBody: string;
  gqlAnswer: string;
}

/**
 * The balance read through each kind of server asked for (the gateway's REST and GraphQL, the bare node:http and
 * Fastify baselines, the compiled GraphQL baseline), `o.reps` interleaved repetitions after an unmeasured pass,
 * each run with its server's CPU time per request.
 */
export async function measureHttp(o: RunOptions, kinds: readonly HttpKind[] = HTTP_KINDS, connections = 10): Promise<HttpRuns> {
  const gw = await takeChild('http-gw', ...HTTP_GATEWAY(o));
  const bare = await takeChild('bare', 'bare');
  try {
    const gwUrl = gw.info.url as string;
    const bareUrl = bare.info.url as string;
    const fastifyUrl = bare.info.fastifyUrl as string;
    const jitUrl = bare.info.jitUrl as string;
    const wallets = (await (await fetch(`${gwUrl}/localnet/wallets`)).json()) as { address: string }[];
    const address = wallets[0]!.address;
    const restPath = `/api/v2/getAddressBalance?address=${encodeURIComponent(address)}`;
    const gqlBody = JSON.stringify({ query: GQL_QUERY, variables: { a: address } });
    const json = { 'content-type': 'application/json' };

    // the baseline answers exactly the bytes the gateway answers
    const restBody = await (await fetch(gwUrl + restPath)).text();
    const gqlAnswer = await (await fetch(`${gwUrl}/graphql`, { method: 'POST', headers: json, body: gqlBody })).text();
    if (!restBody.includes('"ok":true') || !gqlAnswer.includes('"balance"')) {
      throw new Error(`unexpected answers: ${restBody} / ${gqlAnswer}`);
    }
    await bare.call('setBody', { path: '/api/v2/getAddressBalance', body: restBody });
    await bare.call('setBody', { path: '/graphql', body: gqlAnswer });
    if (kinds.includes('jitGql')) {
      // the compiled baseline executes the same document and must print the same bytes
      await bare.call('setJitBalance', { balance: (JSON.parse(gqlAnswer) as { data: { account: { balance: string } } }).data.account.balance });
      const jitAnswer = await (await fetch(`${jitUrl}/graphql`, { method: 'POST', headers: json, body: gqlBody })).text();
      if (jitAnswer !== gqlAnswer) throw new Error(`compiled baseline answered ${jitAnswer}, the gateway ${gqlAnswer}`);
    }

    const rest = (url: string) => load({ url, connections, durationS: o.durationS, requests: [{ method: 'GET', path: restPath }] });
    const gql = (url: string) =>
      load({ url, connections, durationS: o.durationS, requests: [{ method: 'POST', path: '/graphql', headers: json, body: gqlBody }] });

    // one short unmeasured pass each, so JIT and connection set-up are not in the first measured run
    await load({ url: gwUrl, connections, durationS: 0.5, requests: [{ method: 'GET', path: restPath }] });
    await load({ url: gwUrl, connections, durationS: 0.5, requests: [{ method: 'POST', path: '/graphql', headers: json, body: gqlBody }] });

    const runOf: Record<HttpKind, () => Promise<LoadResult>> = {
      bareRest: () => withCpu(bare, () => rest(bareUrl)),
      fastifyRest: () => withCpu(bare, () => rest(fastifyUrl)),
      gwRest: () => withCpu(gw, () => rest(gwUrl)),
      bareGql: () => withCpu(bare, () => gql(bareUrl)),
      fastifyGql: () => withCpu(bare, () => gql(fastifyUrl)),
      jitGql: () => withCpu(bare, () => gql(jitUrl)),
      gwGql: () => withCpu(gw, () => gql(gwUrl)),
    };
    const runs: Partial<Record<HttpKind, LoadResult[]>> = Object.fromEntries(kinds.map((k) => [k, []]));
    for (let i = 0; i < o.reps; i++) {
      // alternate the order so a noisy neighbour does not always hit the same side
      for (const k of i % 2 === 0 ? kinds : [...kinds].reverse()) {
        const r = await runOf[k]();
        runs[k]!.push(r);
        o.log(`  http ${k} rep ${i + 1}: ${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms, ${r.cpuUs!.toFixed(0)} µs CPU/req`);
      }
    }
    return { runs, restBody, gqlAnswer };
  } finally {
    await Promise.all([gw.stop(), bare.stop()]);
  }
}

export async function httpScenarios(o: RunOptions): Promise<Row[]> {
  const { runs, restBody, gqlAnswer } = await measureHttp(o);
  const m = Object.fromEntries(HTTP_KINDS.map((k) => [k, medianResult(runs[k]!)])) as Record<HttpKind, LoadResult>;
  const note = `body ${Buffer.byteLength(restBody)} B (REST), ${Buffer.byteLength(gqlAnswer)} B (GraphQL); 10 connections`;
  return [
    { id: 1, scenario: 'v2 getAddressBalance (local chain) vs bare node:http', metric: 'req/s', subject: m.gwRest, baseline: m.bareRest, ratio: m.gwRest.rps / m.bareRest.rps, target: 0.5, note },
    { id: 2, scenario: 'GraphQL account { balance } vs bare node:http', metric: 'req/s', subject: m.gwGql, baseline: m.bareGql, ratio: m.gwGql.rps / m.bareGql.rps, target: 0.35, note },
    { id: 3, scenario: 'GraphQL account { balance } vs REST getAddressBalance', metric: 'req/s', subject: m.gwGql, baseline: m.gwRest, ratio: m.gwGql.rps / m.gwRest.rps, target: 0.6 },
    cpuRow(10, 'v2 getAddressBalance', m.gwRest, m.fastifyRest, m.bareRest, 0.5),
    cpuRow(11, 'GraphQL account { balance }', m.gwGql, m.fastifyGql, m.bareGql, 0.25),
    {
      id: 12,
      scenario: 'GraphQL account { balance } vs a graphql-jit compiled query in a bare node:http handler (same document and answer)',
      metric: 'req/s',
      subject: m.gwGql,
      baseline: m.jitGql,
      ratio: m.gwGql.rps / m.jitGql.rps,
      note: `compiled baseline at ${(m.jitGql.rps / m.bareGql.rps).toFixed(2)} of bare node:http, ${m.jitGql.cpuUs!.toFixed(0)} µs CPU/req`,
    },
  ];
}
