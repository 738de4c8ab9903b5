/**
 * /api/v2: REST (GET query or POST body) and JSON-RPC over one endpoint table, in toncenter's envelope:
 * `{ok:true,result}` or `{ok:false,error,code}` with the HTTP status equal to `code` (v2.md §1, §2, §3).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, isApiError } from '../../api/errors.js';
import type { V2Api } from '../../api/v2.js';
import { ENDPOINT_BY_NAME } from './endpoints.js';
import { bodySource, querySource } from './params.js';

export const V2_PREFIX = '/api/v2';

type Envelope = Record<string, unknown>;

export const errorEnvelope = (status: number, message: string): Envelope => ({ ok: false, error: message, code: status });

/** Renders anything thrown by parsing or by the data source; only ApiErrors and client errors keep their text. */
export function errorOf(e: unknown, log: FastifyInstance['log']): { status: number; message: string } {
  if (isApiError(e)) return { status: e.status, message: e.message };
  const status = (e as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return { status, message: (e as Error).message };
  log.error({ err: e }, 'v2: internal error');
  return { status: 500, message: 'internal error' };
}

function readBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      throw new ApiError(422, 'failed to parse post request: body is not valid JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(422, 'failed to parse post request: body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** JSON-RPC 2.0 framing of the same endpoints: `id` is echoed as given and `jsonrpc` set on every answer. */
async function jsonRpc(v2: V2Api, req: FastifyRequest, reply: FastifyReply, log: FastifyInstance['log']) {
  let frame: Envelope = { jsonrpc: '2.0' };
  try {
    const body = readBody(req.body);
    if (body.id !== undefined) frame = { jsonrpc: '2.0', id: body.id };
    if (typeof body.method !== 'string' || body.method === '') {
      throw new ApiError(422, 'failed to parse post request: missing required parameter \'method\'');
    }
    const params = body.params ?? {};
    if (Array.isArray(params)) {
      if (params.length > 0) throw new ApiError(422, 'params must contain an object');
    } else if (typeof params !== 'object' || params === null) {
      throw new ApiError(422, 'params must contain an object');
    }
    const endpoint = ENDPOINT_BY_NAME.get(body.method);
    if (!endpoint) throw new ApiError(422, 'Unknown method');
    const result = await endpoint.call(v2, bodySource(Array.isArray(params) ? {} : (params as Record<string, unknown>)));
    return reply.code(200).send({ ok: true, result, ...frame });
  } catch (e) {
    const { status, message } = errorOf(e, log);
    return reply.code(status).send({ ...errorEnvelope(status, message), ...frame });
  }
}

export function registerV2Routes(app: FastifyInstance, deps: { v2: V2Api }): void {
  app.register(
    async (v2app) => {
      // any content type is read as text and parsed here, so a bad body gets a v2 envelope, not fastify's own
      v2app.removeAllContentTypeParsers();
      v2app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

      v2app.setErrorHandler((err, _req, reply) => {
        const { status, message } = errorOf(err, v2app.log);
        return reply.code(status).send(errorEnvelope(status, message));
      });

      v2app.setNotFoundHandler((req, reply) => {
        const name = req.url.split('?')[0]!.slice(V2_PREFIX.length + 1);
        const known = ENDPOINT_BY_NAME.has(name) || name === 'jsonRPC';
        if (known) return reply.code(405).send(errorEnvelope(405, `method ${req.method} is not supported`));
        return reply.code(404).send(errorEnvelope(404, 'Not Found'));
      });

      v2app.post('/jsonRPC', (req, reply) => jsonRpc(deps.v2, req, reply, v2app.log));

      for (const [name, endpoint] of ENDPOINT_BY_NAME) {
        for (const method of endpoint.methods) {
          v2app.route({
            method,
            url: `/${name}`,
            handler: async (req) => {
              const src = method === 'GET' ? querySource(req.url) : bodySource(readBody(req.body));
              return { ok: true, result: await endpoint.call(deps.v2, src) };
            },
          });
        }
      }
    },
    { prefix: V2_PREFIX },
  );
}
