/**
 * Scenarios 1-3: one account's balance through REST v2 and through GraphQL, each against a bare node:http
 * server answering a byte-identical body, and GraphQL against REST. Runs are interleaved so noise hits both.
 */
import { takeChild, type SpawnOptions } from '../lib/child.js';
import { load, medianResult, type LoadResult } from '../lib/load.js';
import type { Row, RunOptions } from './types.js';

export const HTTP_GATEWAY = (o: RunOptions): [string, SpawnOptions] => ['gateway', { cpuProfDir: o.profDir }];

const GQL_QUERY = 'query Balance($a: Address!) { account(address: $a) { balance } }';

export async function httpScenarios(o: RunOptions): Promise<Row[]> {
  const gw = await takeChild('http-gw', ...HTTP_GATEWAY(o));
  const bare = await takeChild('bare', 'bare');
  try {
    const gwUrl = gw.info.url as string;
    const bareUrl = bare.info.url as string;
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

    const rest = (url: string) => load({ url, durationS: o.durationS, requests: [{ method: 'GET', path: restPath }] });
    const gql = (url: string) =>
      load({ url, durationS: o.durationS, requests: [{ method: 'POST', path: '/graphql', headers: json, body: gqlBody }] });

    // one short unmeasured pass each, so JIT and connection set-up are not in the first measured run
    await load({ url: gwUrl, durationS: 0.5, requests: [{ method: 'GET', path: restPath }] });
    await load({ url: gwUrl, durationS: 0.5, requests: [{ method: 'POST', path: '/graphql', headers: json, body: gqlBody }] });

    const runs: Record<'bareRest' | 'gwRest' | 'bareGql' | 'gwGql', LoadResult[]> = { bareRest: [], gwRest: [], bareGql: [], gwGql: [] };
    for (let i = 0; i < o.reps; i++) {
      // alternate the order so a noisy neighbour does not always hit the same side
      const order = i % 2 === 0 ? (['bareRest', 'gwRest', 'bareGql', 'gwGql'] as const) : (['gwGql', 'bareGql', 'gwRest', 'bareRest'] as const);
      for (const k of order) {
        const r = k === 'bareRest' ? await rest(bareUrl) : k === 'gwRest' ? await rest(gwUrl) : k === 'bareGql' ? await gql(bareUrl) : await gql(gwUrl);
        runs[k].push(r);
        o.log(`  http ${k} rep ${i + 1}: ${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms`);
      }
    }
    const m = {
      bareRest: medianResult(runs.bareRest),
      gwRest: medianResult(runs.gwRest),
      bareGql: medianResult(runs.bareGql),
      gwGql: medianResult(runs.gwGql),
    };
    const note = `body ${Buffer.byteLength(restBody)} B (REST), ${Buffer.byteLength(gqlAnswer)} B (GraphQL); 10 connections`;
    return [
      { id: 1, scenario: 'v2 getAddressBalance (local chain) vs bare node:http', metric: 'req/s', subject: m.gwRest, baseline: m.bareRest, ratio: m.gwRest.rps / m.bareRest.rps, target: 0.5, note },
      { id: 2, scenario: 'GraphQL account { balance } vs bare node:http', metric: 'req/s', subject: m.gwGql, baseline: m.bareGql, ratio: m.gwGql.rps / m.bareGql.rps, target: 0.3, note },
      { id: 3, scenario: 'GraphQL account { balance } vs REST getAddressBalance', metric: 'req/s', subject: m.gwGql, baseline: m.gwRest, ratio: m.gwGql.rps / m.gwRest.rps, target: 0.6 },
    ];
  } finally {
    await Promise.all([gw.stop(), bare.stop()]);
  }
}
