/**
 * Real-data replay: the gateway in upstream mode in front of a loopback toncenter that serves recorded mainnet
 * and testnet answers (test/real/fake-toncenter.ts), queried with documents generated from the served schema
 * (test/real/documents.ts) so that every field of every type reachable from the recorded objects is selected.
 * No answer may carry a GraphQL error, and every recorded value the graph exposes must arrive equal.
 */
import { getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { http, startUpstreamGateway } from '../sources/upstream/helpers.js';
import { Comparison } from './compare.js';
import { CorpusIndex, hashKey, loadCorpus, unsafeNumbers, type JsonObject, type Recording } from './corpus.js';
import { documentsFrom, schemaFrom } from './documents.js';
import { FakeToncenter } from './fake-toncenter.js';
import { withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('the replay of recorded real answers through the graph');
const corpus: Recording[] = noShared ? [] : loadCorpus();
const index = new CorpusIndex(corpus);

let fake: FakeToncenter;
let gateway: Gateway;
let schema: GraphQLSchema;
/** the gateway's own document size limit, from serviceConfig */
let maxQueryBytes: number;

async function graphql(query: string): Promise<{ status: number; data?: Record<string, unknown>; errors?: unknown[] }> {
  const res = await http(`${gateway.url}/graphql`, { body: { query } });
  const body = res.body as { data?: Record<string, unknown>; errors?: unknown[] };
  return { status: res.status, ...body };
}

/** Runs `tasks` a few at a time (the machine is shared). */
async function pooled<T>(tasks: (() => Promise<T>)[], width = 4): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

interface Root {
  /** Query field */
  field: string;
  args: string;
  /** the recorded object the root field answers with */
  json: JsonObject;
  label: string;
  /** only the root object's own document (the types below it are covered from the traces) */
  own?: boolean;
}

function roots(): Root[] {
  const out: Root[] = [];
  for (const [id, tr] of index.traces) out.push({ field: 'trace', args: `id: "${id}"`, json: tr, label: `trace ${id}` });
  const inTraces = new Set([...index.traces.values()].flatMap((t) => Object.keys(t.transactions as object).map(hashKey)));
  for (const [hash, tx] of index.transactions) {
    if (!inTraces.has(hash)) out.push({ field: 'transaction', args: `hash: "${hash}"`, json: tx, label: `transaction ${hash}` });
  }
  // external messages found by their normalised hash, as toncenter's msg_hash does
  for (const m of new Set(index.messages.values())) {
    if (typeof m.hash_norm === 'string') {
      out.push({ field: 'message', args: `hash: "${m.hash_norm}"`, json: m, label: `message by hash_norm ${m.hash_norm}`, own: true });
    }
  }
  for (const b of index.blocks.values()) {
    const id = `workchain: ${b.workchain}, shard: "${b.shard}", seqno: ${b.seqno}`;
    out.push({ field: 'block', args: id, json: b, label: `block ${id}` });
  }
  const byAddress: [string, Map<string, JsonObject>][] = [
    ['jettonMaster', index.jettonMasters],
    ['jettonWallet', index.jettonWallets],
    ['nftItem', index.nftItems],
    ['nftCollection', index.nftCollections],
  ];
  for (const [field, map] of byAddress) {
    for (const [address, json] of map) out.push({ field, args: `address: "${address}"`, json, label: `${field} ${address}` });
  }
  // v2 answers the graph reads: configuration parameters recorded with their config_id
  for (const r of corpus) {
    const id = r.request?.config_id;
    if (r.endpoint === '/api/v2/getConfigParam' && r.envelope === 'full' && typeof id === 'string') {
      out.push({ field: 'configParam', args: `id: ${Number(id)}`, json: r.body.result as JsonObject, label: `configParam ${id} (${r.file})` });
    }
  }
  return out;
}

const comparison = { current: null as Comparison | null };

beforeAll(async () => {
  if (noShared) return;
  fake = new FakeToncenter(index);
  const url = await fake.start();
  gateway = await startUpstreamGateway(url, { UPSTREAM_RPS: '0' });
  const res = await graphql(getIntrospectionQuery());
  schema = schemaFrom(res.data as unknown as IntrospectionQuery);
  comparison.current = new Comparison(schema);
  maxQueryBytes = ((await graphql('{ serviceConfig { maxQueryBytes } }')).data!.serviceConfig as { maxQueryBytes: number }).maxQueryBytes;
});

afterAll(async () => {
  await gateway?.close();
  await fake?.stop();
});

describe.skipIf(noShared)('recorded real answers through the graph', () => {
  it('the corpus holds the 14 shared mainnet traces; every answer parses as JSON.parse reads it, with exact numbers', () => {
    expect(corpus.filter((r) => r.file.endsWith('TraceResponse.json'))).toHaveLength(14);
    expect(index.traces.size).toBeGreaterThanOrEqual(14);
    for (const r of corpus) {
      const text = r.bytes.toString('utf8');
      const parsed = JSON.parse(text) as unknown;
      expect(r.body, r.file).toEqual(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : { '': parsed });
      expect(r.textOf.get(r.body) ?? text, r.file).toBe(text.trim());
      // the comparison reads numbers as JS numbers
      expect(unsafeNumbers(text), r.file).toEqual([]);
    }
  });

  it("issue 15's query: every recorded transaction of every trace reads, finalized when the indexer printed no finality", async () => {
    for (const [id, trace] of index.traces) {
      const res = await graphql(`{ trace(id: "${id}") { transactions { hash finality emulated } } }`);
      expect(res.errors, id).toBeUndefined();
      const got = (res.data!.trace as { transactions: { hash: string; finality: string; emulated: boolean }[] }).transactions;
      const recorded = Object.values(trace.transactions as Record<string, JsonObject>);
      expect(got.map((t) => t.hash).sort()).toEqual(recorded.map((t) => hashKey(t.hash as string)).sort());
      for (const tx of recorded) {
        const g = got.find((t) => t.hash === hashKey(tx.hash as string))!;
        // v3.md: transactions read from the index (not emulated) are finalized
        expect(g.finality).toBe(tx.finality ?? (tx.emulated === true ? 'pending' : 'finalized'));
        expect(g.emulated).toBe(tx.emulated ?? false);
      }
    }
  });

  it('every generated document answers without errors, and recorded values arrive equal', async () => {
    const cmp = comparison.current!;
    const jobs = roots().flatMap((root) =>
      documentsFrom(schema, root.field, root.args, maxQueryBytes)
        .filter((doc) => !root.own || doc.path.length === 1)
        .map((doc) => async () => {
        const res = await graphql(doc.query);
        const value = res.data?.[root.field];
        if (value && typeof value === 'object') {
          const rootType = (schema.getQueryType()!.getFields()[root.field]!.type.toString()).replace(/[[\]!]/g, '');
          cmp.walk(rootType, value as Record<string, unknown>, root.json, `${root.label} (${doc.type})`);
        }
        return { root, doc, status: res.status, errors: res.errors ?? [], found: value != null };
      }),
    );
    const results = await pooled(jobs);
    // one line per distinct error and field (list indexes dropped), with how often and one root it came from
    const failures = new Map<string, { count: number; example: string }>();
    for (const r of results) {
      const errors = r.status === 200 ? r.errors : [{ message: `HTTP ${r.status}` }];
      for (const e of errors as { message: string; path?: (string | number)[] }[]) {
        const where = (e.path ?? []).filter((p) => typeof p === 'string').join('.');
        const key = `${e.message} @ ${where || r.doc.type}`;
        const seen = failures.get(key) ?? { count: 0, example: r.root.label };
        seen.count++;
        failures.set(key, seen);
      }
    }
    const absent = results.filter((r) => !r.found).map((r) => `${r.root.label} → ${r.doc.type}`);
    const alwaysNull = [...cmp.nulls].filter(([, [n, v]]) => n > 0 && v === 0).map(([k]) => k).sort();
    const misses = [...new Set(fake.misses().map((m) => m.path))].sort();
    const count = (kind: string) => fake.served.filter((s) => s.kind === kind).length;
    console.info(
      [
        `replay: ${corpus.length} recorded answers, ${roots().length} roots, ${results.length} documents, ${fake.served.length} upstream calls`,
        `  served verbatim ${count('verbatim')}, assembled ${count('assembled')}, misses ${count('miss')} on ${misses.join(' ')}`,
        `  fields compared with the recording: ${cmp.compared.size}`,
        `  mismatched fields: ${[...cmp.mismatchedFields].map(([k, n]) => `${k} ${n}x`).join(' ')}`,
        `  recorded members the graph does not read: ${cmp.unread().join(' ')}`,
        `  fields null in every answer: ${alwaysNull.join(' ')}`,
        `    null or absent in the recorded objects: ${alwaysNull.filter((k) => cmp.recordedNull.has(k)).join(' ')}`,
        `    null for lack of a recording: ${alwaysNull.filter((k) => !cmp.recordedNull.has(k)).join(' ')}`,
      ].join('\n'),
    );
    expect([...failures].map(([k, v]) => `${k} (${v.count}x, e.g. ${v.example})`)).toEqual([]);
    expect(absent).toEqual([]);
    expect(cmp.mismatches).toEqual([]);
    // the comparison reached the recorded values it exists for
    const mustCompare = [
      ...['Trace.traceId', 'Transaction.hash', 'Transaction.lt', 'Transaction.totalFees'],
      ...['Message.hash', 'Message.value', 'Message.decodedBody', 'Action.detailsJson', 'ConfigParam.boc'],
    ];
    expect(mustCompare.filter((f) => !cmp.compared.has(f))).toEqual([]);
    // every recorded member of the chain objects is reachable (traces and action details are listed above)
    const traceTypes = /^(Trace|TraceTreeNode|Action)$|Details$/;
    expect(cmp.unread().filter((m) => !traceTypes.test(m.split('.')[0]!))).toEqual([]);
  }, 300_000);
});
