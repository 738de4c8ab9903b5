/**
 * The common request — a JSON POST of one query answered as application/json — run through yoga's own
 * operation pipeline (`getResultForParams`: params hooks, parse and validation caches, limits, context,
 * execution, error masking) and yoga's own result serialiser (`processRegularResult`), but without yoga's
 * HTTP adapter. Fastify has already read and parsed the body; the adapter would build a Fetch Request around
 * the Node request, read the body again through it, and stream the answer back through a Fetch Response,
 * which profiled at more than the whole execution of a small query. It is a transport shortcut only: every hook
 * of yoga's enveloped pipeline runs as in the full handler (the compiled execution of a repeated query among
 * them, src/surfaces/graphql/compiled.ts); what it skips is yoga's request and response adapter and the
 * result-processing hooks of an answer without errors, which no plugin here uses.
 *
 * Everything else (GET, other content types or Accept values, batches, unknown body fields, a CORS Origin,
 * subscriptions, persisted-query hashes, operations for a graphql-sse stream) is not eligible and goes through yoga's full handler, so yoga stays
 * the one place that decides those answers. The test in test/surfaces/graphql/fast-path.test.ts sends the same requests through both
 * and compares status, content type and body.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExecutionResult } from 'graphql';
import { processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { GraphQLContext } from './builder.js';
import { LIMITS } from './limits.js';

/** What yoga is handed per request: the Fastify request, its reply (absent on a WebSocket), the client when known otherwise. */
export type ServerContext = { req: FastifyRequest; reply?: FastifyReply; client?: string; key?: string };
type Yoga = YogaServerInstance<ServerContext, GraphQLContext>;

export interface FastAnswer {
  status: number;
  /** content-type, and whatever an error asked for (`retry-after` of a rate-limited data source) */
  headers: readonly (readonly [string, string])[];
  body: string;
}

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);
/** Accept values for which yoga picks its regular processor with application/json (see its result-processor plugin) */
const JSON_ACCEPTS = new Set(['', '*/*', 'application/json', 'application/json;charset=utf-8']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parameters of an eligible request, or undefined when yoga's full handler must answer it. */
export function eligibleParams(req: FastifyRequest): (Record<string, unknown> & { query: string }) | undefined {
  if (req.method !== 'POST' || req.headers.origin !== undefined) return undefined;
  const contentType = req.headers['content-type'];
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType)) return undefined;
  const accept = (req.headers.accept ?? '').replace(/\s/g, '').toLowerCase();
  if (!JSON_ACCEPTS.has(accept)) return undefined;
  const body = req.body;
  if (!isPlainObject(body)) return undefined;
  for (const key of Object.keys(body)) if (!PARAM_NAMES.has(key)) return undefined;
  const { query, variables, operationName, extensions } = body;
  if (typeof query !== 'string') return undefined;
  // a document over the size limit is refused (413) by the limits plugin, which yoga answers
  if (query.length * 3 > LIMITS.maxQueryBytes && Buffer.byteLength(query) > LIMITS.maxQueryBytes) return undefined;
  // a subscription needs yoga's streaming processors; any document that might hold one goes there
  if (/subscription/i.test(query)) return undefined;
  if (variables != null && !isPlainObject(variables)) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (extensions != null && !isPlainObject(extensions)) return undefined;
  // a persisted-query request is checked (and may be refused) before yoga's pipeline can answer for it
  if (extensions != null && 'persistedQuery' in extensions) return undefined;
  // an operation for a graphql-sse stream (its token in the header or in `?token=`) is answered into that stream
  if (req.headers['x-graphql-event-stream-token'] !== undefined || /[?&]token=/.test(req.url)) return undefined;
  return body as Record<string, unknown> & { query: string };
}

/** the headers of a plain answer, one list for all of them */
const JSON_HEADERS = [['content-type', 'application/json; charset=utf-8']] as const;

/** A stand-in URL: nothing on this path reads it, but a Request must have one. */
const REQUEST_URL = 'http://localhost/graphql';

/** yoga's serialiser, skipped when there are no errors and no extensions (it would answer 200 with the plain JSON text) */
async function serialise(yoga: Yoga, result: ExecutionResult): Promise<FastAnswer> {
  if (!result.errors && !result.extensions) return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(result) };
  const response = await processRegularResult(result, yoga.fetchAPI, 'application/json');
  const headers: [string, string][] = [];
  response.headers.forEach((value, key) => {
    if (key !== 'content-length') headers.push([key, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

export function createFastPath(yoga: Yoga) {
  /** The answer to an eligible request, or undefined (before anything has run) when the caller must hand it to yoga. */
  return async function fastAnswer(req: FastifyRequest, reply: FastifyReply): Promise<FastAnswer | undefined> {
    const params = eligibleParams(req);
    if (!params) return undefined;
    // yoga's hooks read the method (no mutations over GET) and key per-request state on this object
    const request = new yoga.fetchAPI.Request(REQUEST_URL, { method: 'POST' });
    const result = await yoga.getResultForParams({ params, request }, { req, reply });
    // the operation has run (a mutation too): handing the request to yoga now would run it twice
    if (!result) throw new Error('graphql fast path: the operation gave no result');
    if (Symbol.asyncIterator in result) {
      // unreachable while the keyword check above holds; were it to fail, the stream is closed, not leaked
      await result[Symbol.asyncIterator]().return?.();
      throw new Error('graphql fast path: a streamed result reached the JSON path');
    }
    return serialise(yoga, result);
  };
}
