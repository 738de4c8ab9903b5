/**
 * The toncenter API v2 surface (v2.md §1–§4, C++ variant 2.1.x; service-spec.md wins where it speaks):
 * REST under /api/v2 and JSON-RPC at POST /api/v2/jsonRPC, both mounted from the endpoint descriptors
 * (api/v2/*.ts) so they parse and validate alike, as the openapi generator and the upstream client read them.
 *
 * Envelope: `{"ok":true,"result":…}` / `{"ok":false,"error":…,"code":N}` with HTTP status N; JSON-RPC answers add
 * `"jsonrpc":"2.0"` and echo the request's `id`. Bad input is always a 4xx, never a call into the data source.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isApiError } from '../../api/errors.js';
import { preSerialized } from '../../api/raw-answer.js';
import { V2_ENDPOINTS, type V2Api, type V2Endpoint } from '../../api/v2.js';
import { ParamError, parseFail, queryValues, readArgs, type Source } from '../../api/v2/params.js';
import { countsOf, LENIENT_HEADER, lenientRequested, membersOf, NO_NAMES, ONLY_API_KEY, paramProblem, queryNames } from '../../api/strict-params.js';
import { echoedExtra, withExtra } from './v2-extra.js';

export const V2_PREFIX = '/api/v2';

/** JSON-RPC method name → endpoint: every name and alias. */
const V2_RPC_METHODS: ReadonlyMap<string, V2Endpoint> = new Map(
  V2_ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])].map((n) => [n, e] as const)),
);

// ---- running an endpoint ----

/** A POST body or JSON-RPC params as an object; an empty body is `{}`. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  let json: unknown = body;
  if (typeof body === 'string') {
    if (body.trim() === '') return {};
    try {
      json = JSON.parse(body);
    } catch {
      throw parseFail('body is not valid JSON');
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw parseFail('body must be a JSON object');
  return json as Record<string, unknown>;
}

function wrap(e: V2Endpoint, err: ParamError, from: Source): ApiError {
  if (e.bareErrors) return new ApiError(err.status, err.message);
  const prefix = err.stage === 'validate' ? 'failed to validate request' : `failed to parse ${from === 'query' ? 'get' : 'post'} request`;
  return new ApiError(err.status, `${prefix}: ${err.message}`);
}

/** Parses, validates and calls one endpoint; parameter problems come out as ApiError with the endpoint's wording. */
const bareMissing = (n: string) => `failed to parse ${n}`;
const takesNoParams = new WeakSet<V2Endpoint>(V2_ENDPOINTS.filter((e) => Object.keys(e.params).length === 0));

/** A request's parameters: the query of a GET, the JSON object of a POST body or JSON-RPC params. */
function argsOf(e: V2Endpoint, input: Map<string, string[]> | unknown, from: Source): Map<string, string[]> | Record<string, unknown> {
  if (input instanceof Map) return input as Map<string, string[]>;
  try {
    return bodyObject(input);
  } catch (err) {
    if (err instanceof ParamError) throw wrap(e, err, from);
    throw err;
  }
}

async function runEndpoint(api: V2Api, e: V2Endpoint, src: Map<string, string[]> | Record<string, unknown>, from: Source): Promise<unknown> {
  try {
    const params = readArgs(e.params, src, e.bareErrors ? bareMissing : undefined);
    e.check?.(params);
    const method = api[e.api] as (p?: Record<string, unknown>) => Promise<unknown>;
    // a method without parameters takes no argument
    return withExtra(e.name, await (takesNoParams.has(e) ? method.call(api) : method.call(api, params)));
  } catch (err) {
    if (err instanceof ParamError) throw wrap(e, err, from);
    if (e.failureStatus !== undefined && isApiError(err)) throw new ApiError(e.failureStatus, err.message);
    throw err;
  }
}

// ---- strict parameters (api/strict-params.ts) ----

/** Each endpoint's parameter names, and those a query may repeat. */
const NAMES: ReadonlyMap<V2Endpoint, { known: ReadonlySet<string>; lists: ReadonlySet<string> }> = new Map(
  V2_ENDPOINTS.map((e) => {
    const params = Object.entries(e.params);
    return [e, { known: new Set(params.map(([n]) => n)), lists: new Set(params.filter(([, p]) => p.list).map(([n]) => n)) }];
  }),
);

/**
 * Why strict parameters refuse a call, or undefined: a query name the endpoint does not take (names are
 * case-sensitive, as the C++ server reads them) or a single-valued one repeated; a body member it does not take; a
 * name in the query of a POST, which reads its body only.
 */
function strictProblem(e: V2Endpoint, args: Map<string, string[]> | Record<string, unknown>, query: Map<string, string[]>): string | undefined {
  const { known, lists } = NAMES.get(e)!;
  if (args instanceof Map) return paramProblem(countsOf(args), known, { lists, ignored: ONLY_API_KEY });
  return paramProblem(membersOf(args), known) ?? paramProblem(countsOf(query), NO_NAMES, { ignored: ONLY_API_KEY, body: known });
}

const NO_QUERY = new Map<string, string[]>();

/** JSON-RPC's own members (v2.md §2) and the `@extra` it echoes: never parameters. */
const RPC_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params', '@extra']);

// ---- mounting ----

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: string;
  code?: number;
  jsonrpc?: '2.0';
  id?: unknown;
}

const fail = (status: number, error: string): Envelope => ({ ok: false, error, code: status });

const send = (reply: FastifyReply, status: number, payload: Envelope | string) =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send(payload);

/**
 * The success envelope as text when the result is an upstream answer still held as its JSON text
 * (remote/shared-json.ts): the very bytes serialising `{ ok, result, ...more }` would give, without doing it.
 */
function okText(result: unknown, more?: Record<string, unknown>): string | undefined {
  const text = preSerialized(result);
  const tail = more ? `,${JSON.stringify(more).slice(1, -1)}` : '';
  return text === undefined ? undefined : `{"ok":true,"result":${text}${tail}}`;
}

/** Any thrown value as status + envelope; unexpected errors are logged and hidden behind `internal error`. */
function errorEnvelope(req: FastifyRequest, reply: FastifyReply, err: unknown): [number, Envelope] {
  if (isApiError(err)) {
    // a shed request says when to come back, so clients back off instead of hammering a full queue
    if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
    return [err.status, fail(err.status, err.message)];
  }
  const status = (err as FastifyError | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return [status, fail(status, (err as Error).message)];
  }
  req.log.error({ err }, 'v2 request failed');
  return [500, fail(500, 'internal error')];
}

/**
 * Mounts every endpoint of V2_ENDPOINTS (and its aliases) under /api/v2, plus POST /api/v2/jsonRPC. Unknown and
 * repeated parameters are refused unless `lenientParams` or the request's X-Lenient-Params says otherwise.
 */
export function registerV2Routes(app: FastifyInstance, deps: { v2: V2Api; lenientParams?: boolean }): void {
  const strict = (req: FastifyRequest): boolean => !deps.lenientParams && !lenientRequested(req.headers[LENIENT_HEADER]);
  const known = new Set(['/jsonRPC', ...V2_ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])].map((n) => `/${n}`))]);

  app.register(
    async (v2) => {
      // bodies are kept as text whatever the content type, so malformed JSON gets a 422 in the envelope
      v2.removeAllContentTypeParsers();
      v2.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      v2.setErrorHandler((err, req, reply) => {
        const [status, body] = errorEnvelope(req, reply, err);
        return send(reply, status, body);
      });

      v2.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0]!.slice(V2_PREFIX.length);
        if (known.has(path)) return send(reply, 405, fail(405, `method ${req.method} is not supported`));
        return send(reply, 404, fail(404, 'Not Found'));
      });

      for (const e of V2_ENDPOINTS) {
        const handler = async (req: FastifyRequest, reply: FastifyReply) => {
          const from: Source = req.method === 'POST' ? 'body' : 'query';
          const query = queryValues(req.url);
          const args = argsOf(e, from === 'query' ? query : req.body, from);
          const problem = strict(req) ? strictProblem(e, args, query) : undefined;
          if (problem !== undefined) throw new ApiError(422, problem);
          const result = await runEndpoint(deps.v2, e, args, from);
          return send(reply, 200, okText(result) ?? { ok: true, result });
        };
        for (const n of [e.name, ...(e.aliases ?? [])]) v2.route({ method: [...e.methods], url: `/${n}`, handler });
      }

      v2.post('/jsonRPC', async (req, reply) => {
        let id: unknown;
        let echo: ReturnType<typeof echoedExtra> = {};
        // Object.assign rather than spreads: V8 (Node 20) builds this envelope ~15x faster that way
        const rpcFields = () => Object.assign({ jsonrpc: '2.0' as const }, id !== undefined ? { id } : undefined, echo);
        const answer = (status: number, env: Envelope) => send(reply, status, Object.assign({}, env, rpcFields()));
        try {
          let body: Record<string, unknown>;
          try {
            body = bodyObject(req.body);
          } catch (err) {
            throw new ApiError(422, `failed to parse post request: ${(err as Error).message}`);
          }
          id = body.id;
          echo = echoedExtra(body);
          // the envelope first: a misspelt `params` or `method` is the cause of whatever would follow
          const misnamed = strict(req)
            ? (paramProblem(queryNames(req.url), NO_NAMES, { ignored: ONLY_API_KEY }) ?? paramProblem(membersOf(body), RPC_MEMBERS))
            : undefined;
          if (misnamed !== undefined) throw new ApiError(422, misnamed);
          const { method, params } = body;
          if (typeof method !== 'string' || method === '') throw new ApiError(422, 'method required');
          if (Array.isArray(params) && params.length > 0) throw new ApiError(422, 'params must contain an object');
          const e = V2_RPC_METHODS.get(method);
          if (!e) throw new ApiError(422, 'Unknown method');
          const args = (typeof params === 'object' && params !== null && !Array.isArray(params) ? params : {}) as Record<string, unknown>;
          const problem = strict(req) ? strictProblem(e, args, NO_QUERY) : undefined;
          if (problem !== undefined) throw new ApiError(422, problem);
          const result = await runEndpoint(deps.v2, e, args, 'body');
          const text = okText(result, rpcFields());
          if (text !== undefined) return send(reply, 200, text);
          return answer(200, { ok: true, result });
        } catch (err) {
          const [status, env] = errorEnvelope(req, reply, err);
          return answer(status, env);
        }
      });
    },
    { prefix: V2_PREFIX },
  );
}
