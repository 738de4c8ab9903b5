/**
 * A gateway on a loopback port for the GraphQL tests: Fastify with /graphql, /metrics and the v3 REST routes
 * over one data source (the local chain, or a stub for error cases).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { V2Api } from '../../../src/api/v2.js';
import type { V3Api } from '../../../src/api/v3/index.js';
import { registerGraphQL, type GraphQLDeps } from '../../../src/surfaces/graphql/index.js';
import { registerMetricsRoute } from '../../../src/observe/metrics.js';
import { registerV3Routes } from '../../../src/surfaces/rest/v3.js';

export type StubImpl = Partial<Record<keyof V3Api, (...args: unknown[]) => unknown>>;

/**
 * Data sources for error cases: each v3 method is whatever `impl()` holds when it is called, and a method not
 * set (or any v2 call) fails loudly, so a query that should not have reached the source shows up.
 */
export function stubSources(impl: () => StubImpl): { v2: V2Api; v3: V3Api } {
  const v3 = new Proxy({} as V3Api, {
    get: (_t, prop: string) => (...args: unknown[]) => {
      const fn = impl()[prop as keyof V3Api];
      if (!fn) throw new Error(`stub: ${prop} was not expected`);
      return fn(...args);
    },
  });
  const v2 = new Proxy({} as V2Api, { get: () => () => Promise.reject(new Error('stub: v2 was not expected')) });
  return { v2, v3 };
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(
  deps: { v2: V2Api; v3: V3Api } & Pick<GraphQLDeps, 'fastPath' | 'sockets' | 'plugins'>,
  extra?: (app: FastifyInstance) => void,
): Promise<TestServer> {
  const app = Fastify({ logger: false });
  extra?.(app);
  const { v2, v3, ...rest } = deps;
  registerGraphQL(app, { capabilities: { v2, v3 }, ...rest });
  registerMetricsRoute(app);
  registerV3Routes(app, { v3: deps.v3 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

export interface GraphQLResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string; [k: string]: unknown } }[];
}

export async function gql<T = any>(url: string, query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as Omit<GraphQLResponse<T>, 'status'>;
  return { status: res.status, ...body };
}

/** Every `ton_graphql_source_calls_total` series, read from GET /metrics. */
export async function sourceCalls(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^ton_graphql_source_calls_total\{api="(\w+)",method="(\w+)"\} (\d+)/.exec(line);
    if (m) calls.set(`${m[1]}.${m[2]}`, Number(m[3]));
  }
  return calls;
}

/** The calls made between two readings, by api.method; zero entries left out. */
export function callsBetween(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (d > 0) out[k] = d;
  }
  return out;
}

/** Runs a query that must succeed and returns its data with the source calls it made (read from /metrics). */
export async function measuredQuery<T = any>(url: string, query: string, variables?: Record<string, unknown>): Promise<{ data: T; calls: Record<string, number> }> {
  const before = await sourceCalls(url);
  const res = await gql<T>(url, query, variables);
  const after = await sourceCalls(url);
  if (res.errors) throw new Error(`query failed: ${JSON.stringify(res.errors)}`);
  return { data: res.data as T, calls: callsBetween(before, after) };
}

export const total = (calls: Record<string, number>): number => Object.values(calls).reduce((a, b) => a + b, 0);

export async function rest<T = any>(url: string, path: string): Promise<T> {
  const res = await fetch(`${url}/api/v3${path}`);
  if (res.status !== 200) throw new Error(`GET /api/v3${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export { waitFor } from '../../helpers/wait.js';
