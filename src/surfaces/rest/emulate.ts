/**
 * toncenter's Emulate API v1 (../shared/reference/emulate-v1.md): POST /api/emulate/v1/emulateTrace and
 * /emulateTonConnect, JSON bodies read as the reference reads them (a JSON content type, snake_case fields, TON
 * Connect's camelCase `stateInit`), X-Actions-Version, errors as `{"error": text}` with the reference's status, and a
 * `Server-Timing: app;dur=…` header on every answer; the gateway's own refusals in the same envelope (429 with
 * Retry-After when the emulation queue or the client's share of it is full, 413 an answer past its size).
 * Passed through untouched when the source forwards to an upstream's own Emulate API.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmulateError, type EmulateApi, type EmulateOptions, type EmulationResult } from '../../api/emulate.js';
import { isApiError } from '../../api/errors.js';
import { clientOf } from '../../pipeline/auth.js';
import { LENIENT_HEADER, lenientRequested, membersOf, NO_NAMES, ONLY_API_KEY, paramProblem, queryNames } from '../../api/strict-params.js';
import { stampServerTiming } from '../../pipeline/v3-headers.js';

export const EMULATE_PREFIX = '/api/emulate/v1';
type Route = 'emulateTrace' | 'emulateTonConnect';

const bad = (msg: string): EmulateError => new EmulateError(400, `invalid request: ${msg}`);

/**
 * Whether toncenter reads the body as JSON: its Fiber BodyParser (v2.52) decodes JSON when the content type,
 * lower-cased and cut at its first ';', ends in "json" (application/json, application/vnd.x+json, text/json). For
 * a type it has no decoder for (text/plain, none at all) Fiber answers 422 Unprocessable Entity, which the route
 * turns into a 400 `invalid request: Unprocessable Entity`. Form, multipart and XML bodies, which Fiber hands to
 * decoders of their own, are refused the same way here: a client of this JSON API never means them.
 */
function isJsonType(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().split(';')[0]!.endsWith('json');
}

/** A JSON object body, or the reference's 400. */
function jsonBody(text: unknown): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(typeof text === 'string' ? text : '');
  } catch (e) {
    throw bad((e as Error).message);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('json: cannot unmarshal into an object');
  return v as Record<string, unknown>;
}

function typed(body: Record<string, unknown>, field: string, type: 'boolean' | 'string' | 'number' | 'array'): void {
  const v = body[field];
  if (v === undefined || v === null) return;
  const ok = type === 'array' ? Array.isArray(v) : type === 'number' ? typeof v === 'number' && Number.isInteger(v) && v >= 0 : typeof v === type;
  if (!ok) throw bad(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into field ${field} of type ${type === 'number' ? 'uint' : type}`);
}

function options(body: Record<string, unknown>, req: FastifyRequest): EmulateOptions {
  for (const f of ['with_actions', 'include_code_data', 'include_address_book', 'include_metadata']) typed(body, f, 'boolean');
  typed(body, 'mc_block_seqno', 'number');
  if (typeof body.mc_block_seqno === 'number' && body.mc_block_seqno > 0xffffffff) throw bad('json: mc_block_seqno overflows uint32');
  // one name (a version or shortcut), as toncenter reads it: `v1,jettons` is one unknown type, not two names
  const header = req.headers['x-actions-version'];
  const version = Array.isArray(header) ? header[0] : header;
  return {
    with_actions: body.with_actions === true,
    include_code_data: body.include_code_data === true,
    include_address_book: body.include_address_book === true,
    include_metadata: body.include_metadata === true,
    mc_block_seqno: typeof body.mc_block_seqno === 'number' ? body.mc_block_seqno : null,
    ...(version ? { actionsVersion: [version] } : {}),
    client: clientOf(req),
  };
}

async function answer(api: EmulateApi, route: Route, body: Record<string, unknown>, req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (api.passthrough) {
    const h = req.headers['x-actions-version'];
    const out = await api.passthrough(route, body, Array.isArray(h) ? h[0] : h);
    return reply.code(out.status).header('content-type', 'application/json; charset=utf-8').send(out.body);
  }
  const opts = options(body, req);
  if (route === 'emulateTrace') {
    typed(body, 'boc', 'string');
    typed(body, 'ignore_chksig', 'boolean');
    const r = await api.emulateTrace({ ...opts, boc: (body.boc as string | undefined) ?? '', ignore_chksig: body.ignore_chksig === true });
    return sendAnswer(reply, r);
  }
  typed(body, 'from', 'string');
  typed(body, 'messages', 'array');
  typed(body, 'valid_until', 'number');
  const r = await api.emulateTonConnect({
    ...opts,
    from: (body.from as string | undefined) ?? '',
    messages: (body.messages as never[] | undefined) ?? [],
    valid_until: (body.valid_until as number | undefined) ?? null,
  });
  return sendAnswer(reply, r);
}

/** The answer's text, written within the emulation's deadline (EmulationResult.json). */
async function sendAnswer(reply: FastifyReply, r: EmulationResult): Promise<FastifyReply> {
  const text = await r.json();
  return reply.header('content-type', 'application/json; charset=utf-8').send(text);
}

const COMMON_FIELDS = ['with_actions', 'include_code_data', 'include_address_book', 'include_metadata', 'mc_block_seqno'];

/**
 * The members each route reads (emulate-v1.md §2, §3). emulateTonConnect also takes, and ignores as toncenter
 * does, `network`: a TON Connect `sendTransaction` payload carries it beside `from`, `valid_until` and `messages`.
 */
const FIELDS: Record<Route, ReadonlySet<string>> = {
  emulateTrace: new Set(['boc', 'ignore_chksig', ...COMMON_FIELDS]),
  emulateTonConnect: new Set(['from', 'messages', 'valid_until', 'network', ...COMMON_FIELDS]),
};

const NO_EMULATION = 'no data source of this gateway can emulate';

/**
 * Mounts the two routes. Unknown body members and query names are refused (api/strict-params.ts) unless
 * `lenientParams` or the request's X-Lenient-Params says otherwise.
 */
export function registerEmulateRoutes(
  app: FastifyInstance,
  emulate: (() => EmulateApi | undefined) | undefined,
  opts: { lenientParams?: boolean } = {},
): void {
  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      scope.addHook('onRequest', async (req) => {
        (req as { emulateStart?: bigint }).emulateStart = process.hrtime.bigint();
      });
      scope.addHook('onSend', async (req, reply, payload) => {
        const start = (req as { emulateStart?: bigint }).emulateStart;
        return start === undefined ? payload : stampServerTiming(reply, start, payload);
      });
      const sendError = (reply: FastifyReply, status: number, text: string) =>
        reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ error: text });
      scope.setErrorHandler((err: FastifyError | Error, _req, reply) => {
        if (err instanceof EmulateError) {
          if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
          return sendError(reply, err.status, err.message);
        }
        // the gateway's own refusals (a source that cannot emulate, a shed request) keep the v3 envelope
        if (isApiError(err)) return reply.code(err.status).header('content-type', 'application/json; charset=utf-8').send({ code: err.status, error: err.message });
        const status = (err as FastifyError).statusCode;
        if (status && status >= 400 && status < 500) return sendError(reply, status, `invalid request: ${err.message}`);
        return sendError(reply, 500, `internal server error: ${err.message}`);
      });
      scope.setNotFoundHandler((req, reply) => sendError(reply, 404, `Cannot ${req.method} ${req.url.split('?')[0]}`));
      for (const route of ['emulateTrace', 'emulateTonConnect'] as const) {
        scope.post(`/${route}`, async (req, reply) => {
          if (!emulate) return reply.code(501).send({ code: 501, error: NO_EMULATION });
          const api = emulate();
          if (!api) return sendError(reply, 503, 'the data source is still starting');
          if (!isJsonType(req.headers['content-type'])) throw bad('Unprocessable Entity');
          const body = jsonBody(req.body);
          if (!opts.lenientParams && !lenientRequested(req.headers[LENIENT_HEADER])) {
            const problem =
              paramProblem(membersOf(body), FIELDS[route]) ??
              paramProblem(queryNames(req.url), NO_NAMES, { ignored: ONLY_API_KEY, body: FIELDS[route] });
            if (problem !== undefined) return sendError(reply, 422, problem);
          }
          return answer(api, route, body, req, reply);
        });
      }
    },
    { prefix: EMULATE_PREFIX },
  );
}
