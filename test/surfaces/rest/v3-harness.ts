/** Test plumbing for the /api/v3 surface: a real loopback server around registerV3Routes and V3Api doubles. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { V3Api } from '../../../src/api/v3/index.js';
import { registerV3Routes } from '../../../src/surfaces/rest/v3.js';

export interface V3Server {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Starts Fastify on 127.0.0.1:0 with only the v3 routes mounted. */
export async function startV3Server(api: V3Api): Promise<V3Server> {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  registerV3Routes(app, { v3: api });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: address, app, close: () => app.close() };
}

export interface Call {
  method: string;
  params: unknown;
}

/** A V3Api whose every method records the call and then throws: validation must stop before the source. */
export function throwingApi(calls: Call[] = []): V3Api {
  return new Proxy({} as V3Api, {
    get(_t, method) {
      if (typeof method !== 'string' || method === 'then') return undefined;
      return async (params: unknown) => {
        calls.push({ method, params });
        throw new Error(`data source must not be called (${method})`);
      };
    },
  });
}

/** A V3Api that records each call and answers `answer(method, params)` (default `{}`). */
export function recordingApi(calls: Call[], answer: (method: string, params: unknown) => unknown = () => ({})): V3Api {
  return new Proxy({} as V3Api, {
    get(_t, method) {
      if (typeof method !== 'string' || method === 'then') return undefined;
      return async (params: unknown) => {
        calls.push({ method, params });
        return answer(method, params);
      };
    },
  });
}

export interface Reply {
  status: number;
  body: unknown;
  contentType: string | null;
}

/** GET (or POST with a raw body) over real HTTP; the body is JSON-decoded. */
export async function request(
  base: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(base + path, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: init.body !== undefined ? { 'content-type': 'application/json', ...init.headers } : init.headers,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // left as text: the assertion that follows shows it
  }
  return { status: res.status, body, contentType: res.headers.get('content-type') };
}

export { waitFor } from '../../helpers/wait.js';
