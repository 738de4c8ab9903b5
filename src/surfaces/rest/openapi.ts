/**
 * OpenAPI 3.0 documents for /api/v2 and /api/v3, generated from V2_ENDPOINTS and V3_DESCRIPTORS: the same tables
 * that mount and validate the routes, so the documents cannot drift from what the gateway serves. v3 response
 * bodies are generated from the wire types of src/api/v3 (v3-schemas.ts). GET /docs shows both in Swagger UI,
 * served from the swagger-ui-dist package (no CDN).
 */
import { emulateOpenApi } from './emulate-openapi.js';
import { EMULATE_PREFIX } from './emulate.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { V2_ENDPOINTS } from '../../api/v2.js';
import type { ResultShape } from '../../api/v2/endpoint.js';
import type { ParamKind, V2Param } from '../../api/v2/params.js';
import { V2_PREFIX } from './v2.js';
import { pathsOf, type ParamSpec } from '../../api/descriptor.js';
import { servedRoutes, type V3BranchFeature } from '../../api/v3/branch.js';
import { V3_DESCRIPTORS, V3_PREFIX } from '../../api/v3/index.js';
import type { V3ParamSpec } from '../../api/v3/params.js';
import { responseShape, v3Definitions } from './v3-schemas.js';
import { inlineHash, pagePolicy } from '../../pipeline/security-headers.js';

type Json = Record<string, unknown>;

const VERSION = '0.1.0';

/** Query names cannot be closed in OpenAPI 3.0 the way bodies are (additionalProperties: false), so it is said. */
const STRICT_NOTE =
  'Parameters are strict: a query name or body member a route does not list, or a single-valued one given twice, is refused with 422 naming the one meant, unless the server runs with --lenient-params or the request sends X-Lenient-Params: 1 (toncenter ignores them).';

const SECURITY_SCHEMES = {
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
};
// a key is optional (keyless clients are served within the keyless limit), hence the empty alternative
const SECURITY = [{}, { apiKeyHeader: [] }, { apiKeyQuery: [] }];

const V2_KIND: Record<ParamKind, Json> = {
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  bool: { type: 'boolean' },
  address: { type: 'string', description: 'TON address, raw (0:hex) or user-friendly' },
  hash: { type: 'string', description: '32-byte hash, hex or base64' },
  account_id: { type: 'string', description: 'account id: address or 32-byte hex' },
  boc: { type: 'string', format: 'byte', description: 'base64 BoC' },
  method: { type: 'string', description: 'get-method name or numeric id' },
  stack_legacy: { type: 'array', items: { type: 'array', items: {} }, description: 'TVM stack entries as [type, value] pairs' },
  stack_std: { type: 'array', items: { type: 'object' }, description: 'TVM stack entries as tvm.stackEntry* objects' },
  string: { type: 'string' },
};

const V3_KIND: Record<string, Json> = {
  int32: { type: 'integer', format: 'int32' },
  uint64: { type: 'string', pattern: '^[0-9]+$', description: 'unsigned 64-bit integer' },
  bool: { type: 'boolean' },
  string: { type: 'string' },
  ShardId: { type: 'string', description: 'shard id, signed decimal or hex' },
  HashType: { type: 'string', description: '32-byte hash, hex or base64' },
  AccountAddress: { type: 'string', description: 'TON address, raw (0:hex) or user-friendly' },
  AccountAddressNullable: { type: 'string', description: 'TON address, or `null` for none' },
  OpcodeType: { type: 'string', description: 'message opcode, decimal or 0x-hex' },
  UtimeType: { type: 'integer', format: 'int64', description: 'unix time, seconds' },
};

const withDescription = (schema: Json, description: string | undefined): Json =>
  description ? { ...schema, description } : schema;

/** One value of a param: its kind's schema with the param's description and bounds. */
const valueSchema = (kinds: Record<string, Json>, p: ParamSpec): Json => ({
  ...withDescription(kinds[p.kind] ?? { type: 'string' }, p.description),
  ...(p.min !== undefined ? { minimum: p.min } : {}),
  ...(p.max !== undefined ? { maximum: p.max } : {}),
});

function v2Schema(p: V2Param): Json {
  const base = valueSchema(V2_KIND, p);
  // an int64 default is a bigint on the seam and a plain number in JSON
  const dflt: unknown = typeof p.default === 'bigint' ? Number(p.default) : p.default;
  const one = dflt !== undefined ? { ...base, default: dflt } : base;
  return p.list ? { type: 'array', items: one } : one;
}

/** A v3 param's schema: its kind, bounds and default as declared (a list's default is the list's). */
function v3Schema(p: V3ParamSpec): Json {
  const one = valueSchema(V3_KIND, p);
  const dflt = p.default === undefined ? {} : { default: p.default };
  return p.list ? { type: 'array', items: one, ...dflt } : { ...one, ...dflt };
}

/** A JSON body member: BoCs and the stack travel as a string and an array of `{type, value}`. */
function v3BodySchema(f: V3ParamSpec): Json {
  const one =
    f.kind === 'bool'
      ? { type: 'boolean' }
      : f.kind === 'stack'
        ? { type: 'array', items: {} }
        : f.kind === 'object'
          ? { type: 'object', additionalProperties: true }
          : f.kind === 'int32'
            ? { type: 'integer', format: 'int32' }
            : { type: 'string' };
  return withDescription(f.list ? { type: 'array', items: one } : one, f.description);
}

const json = (schema: Json) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * A swagger-style definition as an OpenAPI 3.0 schema: refs moved to components, and every property, item and
 * map value `nullable`, as the reference has them (a $ref cannot carry siblings in 3.0, hence `allOf`).
 */
function oas30(schema: Json, nullable: boolean): Json {
  if (typeof schema.$ref === 'string') {
    const r = ref(schema.$ref.replace('#/definitions/', ''));
    return nullable ? { nullable: true, allOf: [r] } : r;
  }
  const out: Json = { ...schema };
  if (nullable && (out.type !== undefined || out.allOf !== undefined || out.anyOf !== undefined)) out.nullable = true;
  for (const k of ['allOf', 'anyOf'] as const) if (Array.isArray(out[k])) out[k] = (out[k] as Json[]).map((x) => oas30(x, false));
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Json>).map(([k, v]) => [k, oas30(v, true)]));
  }
  if (out.items && typeof out.items === 'object') out.items = oas30(out.items as Json, true);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = oas30(out.additionalProperties as Json, true);
  }
  return out;
}

const resultText = (r: ResultShape): string =>
  r.kind === 'object' ? (r.type ? `a ${r.type} object` : 'an object') : r.kind === 'array' ? 'an array' : 'a string';

export function v2OpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const e of V2_ENDPOINTS) {
    const entries = Object.entries(e.params);
    const operation = (method: 'GET' | 'POST', name: string): Json => ({
      tags: [e.category],
      summary: e.summary,
      operationId: `${method.toLowerCase()}_${name}`,
      ...(method === 'GET'
        ? {
            parameters: entries.map(([n, p]) => ({
              name: n,
              in: 'query',
              required: p.required,
              ...(p.list ? { style: 'form', explode: true } : {}),
              schema: v2Schema(p),
            })),
          }
        : {
            requestBody: {
              required: entries.some(([, p]) => p.required),
              content: json({
                type: 'object',
                properties: Object.fromEntries(entries.map(([n, p]) => [n, v2Schema(p)])),
                required: entries.filter(([, p]) => p.required).map(([n]) => n),
                additionalProperties: false,
              }),
            },
          }),
      responses: {
        '200': { description: `the result in the v2 envelope: ${resultText(e.result)}`, content: json(ref(e.response)) },
        default: { description: 'an error in the v2 envelope; the HTTP status equals `code`', content: json(ref('V2Error')) },
      },
    });
    for (const name of [e.name, ...(e.aliases ?? [])]) {
      const item: Json = {};
      for (const m of e.methods) item[m.toLowerCase()] = operation(m, name);
      paths[`${V2_PREFIX}/${name}`] = item;
    }
  }
  paths[`${V2_PREFIX}/jsonRPC`] = {
    post: {
      tags: ['JSON-RPC'],
      summary: 'Any endpoint above by name, its parameters as the params object',
      operationId: 'post_jsonRPC',
      requestBody: { required: true, content: json(ref('JsonRpcRequest')) },
      responses: {
        '200': { description: 'the result in the v2 envelope with jsonrpc and id', content: json(ref('JsonRpcOk')) },
        default: { description: 'an error in the v2 envelope with jsonrpc and id', content: json(ref('JsonRpcError')) },
      },
    },
  };
  const rpcExtra = { jsonrpc: { type: 'string', enum: ['2.0'] }, id: {}, '@extra': { description: "the request's own @extra, when it had one" } };
  return {
    openapi: '3.0.3',
    info: { title: 'TON gateway: toncenter API v2', version: VERSION, description: `REST and JSON-RPC, as served by this gateway. ${STRICT_NOTE}` },
    servers: [{ url: '/' }],
    security: SECURITY,
    tags: [...new Set(V2_ENDPOINTS.map((e) => e.category)), 'JSON-RPC'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        V2Ok: { type: 'object', required: ['ok', 'result'], properties: { ok: { type: 'boolean', enum: [true] }, result: {} } },
        V2Error: {
          type: 'object',
          required: ['ok', 'error', 'code'],
          properties: { ok: { type: 'boolean', enum: [false] }, error: { type: 'string' }, code: { type: 'integer' } },
        },
        JsonRpcRequest: {
          type: 'object',
          required: ['method'],
          additionalProperties: false,
          properties: {
            id: {},
            jsonrpc: { type: 'string', enum: ['2.0'] },
            method: { type: 'string', enum: V2_ENDPOINTS.flatMap((e) => [e.name, ...(e.aliases ?? [])]) },
            params: { type: 'object', additionalProperties: true },
            '@extra': { description: 'any value; the answer echoes it' },
          },
        },
        JsonRpcOk: { allOf: [ref('V2Ok'), { type: 'object', properties: rpcExtra }] },
        JsonRpcError: { allOf: [ref('V2Error'), { type: 'object', properties: rpcExtra }] },
      },
    },
  };
}

/** A header's conventional spelling (x-actions-version -> X-Actions-Version). */
const headerName = (lower: string): string => lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

const V3_OPTION_HEADERS = [
  { name: 'X-No-Address-Book', in: 'header', required: false, schema: { type: 'boolean' }, description: 'omit address_book' },
  { name: 'X-No-Metadata', in: 'header', required: false, schema: { type: 'boolean' }, description: 'omit metadata' },
];

/** The v3 document of the routes served with these branch-only features on (none by default). */
export function v3OpenApi(features: readonly V3BranchFeature[] = []): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = Object.fromEntries(Object.entries(v3Definitions()).map(([n, d]) => [n, oas30(d, false)]));
  for (const r of servedRoutes(V3_DESCRIPTORS, features)) {
    const [method] = r.methods;
    const { name, array } = responseShape(r.response);
    const params = Object.entries(r.params);
    const fields = params.filter(([, f]) => f.in === 'body');
    for (const p of pathsOf(r)) {
      const op: Json = {
        summary: r.summary,
        ...(p !== r.path ? { description: `Same as ${V3_PREFIX}${r.path}` } : {}),
        operationId: `${method.toLowerCase()}_${p.slice(1).replace(/\W/g, '_')}`,
        parameters: [
          ...params.filter(([, q]) => q.in === 'query').map(([n, q]) => ({
            name: n,
            in: 'query',
            required: q.required,
            ...(q.list ? { style: 'form', explode: true } : {}),
            schema: v3Schema(q),
          })),
          ...params
            .filter(([, q]) => q.header !== undefined)
            .map(([n, q]) => ({
              name: headerName(q.header!),
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: `one value; replaces ${n} when sent`,
            })),
          ...V3_OPTION_HEADERS,
        ],
        ...(method === 'POST'
          ? {
              requestBody: {
                required: true,
                content: json({
                  type: 'object',
                  title: r.bodyStruct,
                  properties: Object.fromEntries(fields.map(([n, f]) => [n, v3BodySchema(f)])),
                  required: fields.filter(([, f]) => f.required).map(([n]) => n),
                  additionalProperties: false,
                }),
              },
            }
          : {}),
        responses: {
          '200': { description: r.response, content: json(array ? { type: 'array', items: ref(name) } : ref(name)) },
          default: { description: 'an error; the HTTP status equals `code`', content: json(ref('V3Error')) },
        },
      };
      paths[`${V3_PREFIX}${p}`] = { ...(paths[`${V3_PREFIX}${p}`] as Json | undefined), [method.toLowerCase()]: op };
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'TON gateway: toncenter Indexer API v3', version: VERSION, description: `The v3 routes as served by this gateway. ${STRICT_NOTE}` },
    servers: [{ url: '/' }],
    security: SECURITY,
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        V3Error: { type: 'object', required: ['code', 'error'], properties: { code: { type: 'integer' }, error: { type: 'string' } } },
        ...schemas,
      },
    },
  };
}

export const DOCS_PATH = '/docs';

/** The files of swagger-ui-dist the page loads, with their content types; nothing else is served from the package. */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>TON gateway: API v2 and v3</title>
<link rel="stylesheet" href="${DOCS_PATH}/static/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/static/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/static/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/static/swagger-ui-standalone-preset.js"></script>
<script src="${DOCS_PATH}/static/init.js"></script>
</body>
</html>
`;

// the one inline style Swagger UI writes: the <style> of its logo (swagger-ui-standalone-preset.js)
const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
// the page's own files only; no inline script
const DOCS_POLICY = pagePolicy({ 'style-src': `'self' ${inlineHash(SWAGGER_LOGO_STYLE)}` });

// validatorUrl null: the default sends the document to validator.swagger.io
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify([
    { url: `${V2_PREFIX}/openapi.json`, name: 'toncenter API v2' },
    { url: `${V3_PREFIX}/openapi.json`, name: 'toncenter Indexer API v3' },
    { url: `${EMULATE_PREFIX}/openapi.json`, name: 'toncenter Emulate API v1' },
  ])},
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  deepLinking: true,
  queryConfigEnabled: false,
});
`;

const swaggerUiDir = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Serves the documents (built once, since the tables are constant) and the docs page over them. */
export function registerOpenApiRoutes(app: FastifyInstance, opts: { v3Features?: readonly V3BranchFeature[] } = {}): void {
  const v2 = JSON.stringify(v2OpenApi());
  const v3 = JSON.stringify(v3OpenApi(opts.v3Features));
  const serve = (body: string) => async (_req: unknown, reply: FastifyReply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(body);
  app.get(`${V2_PREFIX}/openapi.json`, serve(v2));
  app.get(`${V3_PREFIX}/openapi.json`, serve(v3));
  app.get(`${EMULATE_PREFIX}/openapi.json`, serve(JSON.stringify(emulateOpenApi(VERSION))));

  app.get(DOCS_PATH, async (_req, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_POLICY).send(DOCS_PAGE),
  );
  app.get(`${DOCS_PATH}/static/init.js`, async (_req, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').send(DOCS_INIT),
  );
  // read on first use and kept: the bundle is 1.7 MB and most gateways never show the page
  const files = new Map<string, Promise<Buffer>>();
  for (const [name, type] of Object.entries(SWAGGER_UI_FILES)) {
    app.get(`${DOCS_PATH}/static/${name}`, async (_req, reply) => {
      let body = files.get(name);
      if (!body) {
        body = readFile(join(swaggerUiDir(), name));
        files.set(name, body);
      }
      return reply.header('content-type', type).header('cache-control', 'public, max-age=86400').send(await body);
    });
  }
}
