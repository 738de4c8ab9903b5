/**
 * The toncenter Indexer API v3 surface (../shared/reference/v3.md): every route of V3_DESCRIPTORS mounted
 * under /api/v3, its query and body read and checked from its descriptor, its seam method called with the
 * params object that gives. No envelope, no `@type`; errors are `{"code":N,"error":"…"}` with HTTP status N.
 * Bad input is always a 4xx, also where the reference answers 500.
 */
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catalogRevisionOf } from '../../api/v3/acton.js';
import { pathsOf } from '../../api/descriptor.js';
import { ApiError, isApiError } from '../../api/errors.js';
import { answersOf, preSerialized } from '../../api/raw-answer.js';
import { jsonObject } from '../../api/v3/body.js';
import { servedRoutes, type V3BranchFeature } from '../../api/v3/branch.js';
import { V3_DESCRIPTORS, V3_PREFIX } from '../../api/v3/index.js';
import { parseGoBool, type V3Descriptor } from '../../api/v3/params.js';
import type { V3Options } from '../../api/v3/common.js';
import type { V3Api } from '../../api/v3/index.js';
import { LENIENT_HEADER, lenientRequested } from '../../api/strict-params.js';
import { rawQuery, seamParams, strictProblem, type V3Request } from './v3-params.js';

/** Runs one route: the seam params from the request, the seam call, the answer as the route sends it. */
async function runRoute(d: V3Descriptor, api: V3Api, req: V3Request): Promise<unknown> {
  const params = seamParams(d, req);
  const method = api[d.api] as (p?: unknown) => Promise<unknown>;
  const noParams = Object.keys(d.params).length === 0 && Object.keys(params).length === 0;
  const result = await method.call(api, ...(noParams ? [] : [params]));
  return d.answer ? d.answer(result) : result;
}

// ---- request settings (v3.md §1.1) ----

/** Header first, then the query param; unreadable values are ignored, as the reference ignores them. */
function settingFlag(req: FastifyRequest, query: Map<string, string[]>, header: string, param: string): boolean | undefined {
  const h = req.headers[header];
  const raw = (Array.isArray(h) ? h[0] : h) ?? query.get(param)?.[0];
  if (raw === undefined) return undefined;
  return parseGoBool(raw);
}

function optionsOf(req: FastifyRequest, query: Map<string, string[]>): V3Options {
  const o: V3Options = {};
  if (settingFlag(req, query, 'x-no-address-book', 'x_no_address_book')) o.noAddressBook = true;
  if (settingFlag(req, query, 'x-no-metadata', 'x_no_metadata')) o.noMetadata = true;
  return o;
}

// ---- mounting ----

const CATALOG_REVISION = 'X-Acton-Catalog-Revision';

/** A GET answer with a strong ETag over its bytes; the client's matching If-None-Match gets a 304 without them. */
function withEtag(req: FastifyRequest, reply: FastifyReply, text: string) {
  const etag = `"${createHash('sha256').update(text).digest('hex')}"`;
  reply.header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  reply.header('content-type', 'application/json; charset=utf-8');
  return text;
}

const sendError = (reply: FastifyReply, status: number, message: string) =>
  reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ code: status, error: message });

/**
 * Mounts V3_DESCRIPTORS under /api/v3 with the v3 error shape, a v3 404/405 and lenient JSON bodies; branch-only
 * routes and params only for the features named (none by default). Unknown and repeated parameters are refused
 * unless `lenientParams` or the request's X-Lenient-Params says otherwise.
 */
export function registerV3Routes(
  app: FastifyInstance,
  deps: { v3: V3Api; features?: readonly V3BranchFeature[]; lenientParams?: boolean },
): void {
  const routes = servedRoutes(V3_DESCRIPTORS, deps.features ?? []);
  // upstream mode: a repeated request answered from the upstream cache without being run again
  const answers = answersOf(deps.v3);
  app.register(
    async (v3) => {
      // bodies are read as text whatever the content type, so a bad body gets a v3-shaped 422
      v3.removeAllContentTypeParsers();
      v3.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      v3.setErrorHandler((err: FastifyError | ApiError, _req, reply) => {
        const revision = catalogRevisionOf(err);
        if (revision !== undefined) reply.header(CATALOG_REVISION, revision);
        if (isApiError(err)) {
          // a shed request says when to come back, so clients back off instead of hammering a full queue
          if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
          return sendError(reply, err.status, err.message);
        }
        const status = (err as FastifyError).statusCode;
        if (status && status >= 400 && status < 500) return sendError(reply, status, err.message);
        return sendError(reply, 500, `internal server error: ${err.message}`);
      });

      v3.setNotFoundHandler((req, reply) => {
        const path = req.url.split('?')[0]!;
        const known = routes.some((d) => pathsOf(d).some((p) => V3_PREFIX + p === path));
        if (known) return sendError(reply, 405, 'Method Not Allowed');
        return sendError(reply, 404, `Cannot ${req.method} ${path}`);
      });

      for (const d of routes) {
        const [method] = d.methods;
        const handler = async (req: FastifyRequest, reply: FastifyReply) => {
          const alias = answers && method === 'GET' && !d.etag ? answers.aliasOf(req.url, req.headers) : undefined;
          const known = alias !== undefined ? answers!.lookup(alias) : undefined;
          if (known !== undefined) {
            reply.header('content-type', 'application/json; charset=utf-8');
            return known;
          }
          const query = rawQuery(req.url);
          const body = method === 'POST' ? jsonObject(req.body, d.bodyStruct ?? 'Request') : {};
          // a lenient server never looks; a lenient request is looked at, so its answer is not remembered for strict ones
          const problem = deps.lenientParams ? undefined : strictProblem(d, query, body);
          if (problem !== undefined && !lenientRequested(req.headers[LENIENT_HEADER])) throw new ApiError(422, problem);
          if (d.strictBody) {
            const unknown = Object.keys(body).find((k) => !Object.hasOwn(d.params, k));
            if (unknown !== undefined) throw new ApiError(422, `invalid JSON: json: unknown field ${JSON.stringify(unknown)}`);
          }
          let readHeaders = false;
          const header = (name: string): string | undefined => {
            readHeaders = true;
            const h = req.headers[name];
            return Array.isArray(h) ? h[0] : h;
          };
          const tracked = alias !== undefined ? answers!.track(deps.v3) : undefined;
          const result = await runRoute(d, tracked?.source ?? deps.v3, { query, body, header, options: optionsOf(req, query) });
          const revision = catalogRevisionOf(result);
          if (revision !== undefined) reply.header(CATALOG_REVISION, revision);
          if (d.etag) return withEtag(req, reply, preSerialized(result) ?? JSON.stringify(result));
          // upstream mode: an answer passed on untouched comes with its JSON text, the very bytes serialising it gives
          const text = preSerialized(result);
          if (text === undefined) return result;
          if (tracked && problem === undefined) answers!.remember(alias!, result, tracked.calls(), readHeaders);
          reply.header('content-type', 'application/json; charset=utf-8');
          return text;
        };
        for (const p of pathsOf(d)) v3.route({ method, url: p, handler });
      }
    },
    { prefix: V3_PREFIX },
  );
}
