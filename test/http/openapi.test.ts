/** /api/v2/openapi.json and /api/v3/openapi.json: structurally valid OpenAPI 3.0, covering every route of the tables. */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server.js';
import { loadConfig, type Config } from '../../src/config.js';
import { V2_ENDPOINTS } from '../../src/rest/v2.js';
import { V3_ROUTES } from '../../src/rest/v3.js';
import type { FastifyInstance } from 'fastify';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3.js';

type Json = Record<string, any>;

/** The members OpenAPI 3.0.x requires of a document, its operations, parameters and responses. */
const OAS30 = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.0\\.\\d+$' },
    info: { type: 'object', required: ['title', 'version'], properties: { title: { type: 'string' }, version: { type: 'string' } } },
    servers: { type: 'array', items: { type: 'object', required: ['url'] } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'summary', 'description', 'parameters', 'servers'] },
        additionalProperties: { $ref: '#/$defs/operation' },
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', additionalProperties: { type: 'object' } },
        securitySchemes: {
          type: 'object',
          additionalProperties: { type: 'object', required: ['type'], properties: { type: { enum: ['apiKey', 'http', 'oauth2', 'openIdConnect'] } } },
        },
      },
    },
    security: { type: 'array', items: { type: 'object', additionalProperties: { type: 'array' } } },
  },
  $defs: {
    operation: {
      type: 'object',
      required: ['responses'],
      properties: {
        operationId: { type: 'string' },
        parameters: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'in', 'schema'],
            properties: { name: { type: 'string' }, in: { enum: ['query', 'header', 'path', 'cookie'] }, required: { type: 'boolean' } },
          },
        },
        requestBody: { type: 'object', required: ['content'], properties: { content: { $ref: '#/$defs/content' } } },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5][0-9X]{2}|default)$' },
          additionalProperties: { type: 'object', required: ['description'], properties: { content: { $ref: '#/$defs/content' } } },
        },
      },
    },
    content: { type: 'object', additionalProperties: { type: 'object', required: ['schema'], properties: { schema: { type: 'object' } } } },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(OAS30);

let app: FastifyInstance;
beforeAll(async () => {
  const config = loadConfig([], {}) as Config;
  app = await buildServer({ config, v2: {} as V2Api, v3: {} as V3Api, isReady: () => true });
});
afterAll(async () => {
  await app?.close();
});

async function doc(path: string): Promise<Json> {
  const res = await app.inject({ method: 'GET', url: path });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const d = res.json() as Json;
  expect(validate(d), JSON.stringify(validate.errors, null, 1)).toBe(true);
  return d;
}

/** Every $ref in the document points at a component it defines. */
function checkRefs(d: Json): void {
  const refs = JSON.stringify(d).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const r of refs) {
    const name = /#\/components\/schemas\/(.+)"$/.exec(r)?.[1];
    expect(name, r).toBeDefined();
    expect(d.components.schemas[name!], r).toBeDefined();
  }
}

describe('OpenAPI documents', () => {
  it('v2 lists every endpoint, alias and method of V2_ENDPOINTS with its parameters, and the envelope', async () => {
    const d = await doc('/api/v2/openapi.json');
    checkRefs(d);
    for (const e of V2_ENDPOINTS) {
      for (const name of [e.name, ...(e.aliases ?? [])]) {
        const item = d.paths[`/api/v2/${name}`];
        expect(item, name).toBeDefined();
        expect(Object.keys(item).sort()).toEqual(e.methods.map((m) => m.toLowerCase()).sort());
        if (item.get) {
          const params = item.get.parameters as Json[];
          expect(params.map((p) => p.name).sort()).toEqual(Object.keys(e.params).sort());
          for (const p of params) expect(p.required).toBe(e.params[p.name]!.required);
        }
        if (item.post) {
          const schema = item.post.requestBody.content['application/json'].schema;
          expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(e.params).sort());
        }
        const ok = (item.get ?? item.post).responses['200'].content['application/json'].schema;
        expect(ok.$ref).toBe('#/components/schemas/V2Ok');
      }
    }
    expect(d.paths['/api/v2/jsonRPC'].post).toBeDefined();
    expect(d.components.schemas.V2Error.required).toEqual(['ok', 'error', 'code']);
    expect(Object.keys(d.paths)).toHaveLength(V2_ENDPOINTS.reduce((n, e) => n + 1 + (e.aliases?.length ?? 0), 1));
  });

  it('v3 lists every route and alias of V3_ROUTES with query parameters, bodies and the error shape', async () => {
    const d = await doc('/api/v3/openapi.json');
    checkRefs(d);
    for (const r of V3_ROUTES) {
      for (const p of [r.path, ...(r.aliases ?? [])]) {
        const op = d.paths[`/api/v3${p}`]?.[r.method.toLowerCase()];
        expect(op, `${r.method} ${p}`).toBeDefined();
        const query = (op.parameters as Json[]).filter((x) => x.in === 'query');
        expect(query.map((x) => x.name).sort()).toEqual(Object.keys(r.query).sort());
        for (const x of query) {
          expect(x.schema.type).toMatch(/^(integer|string|boolean|array)$/);
          expect(x.schema.type === 'array').toBe(r.query[x.name]!.list);
        }
        if (r.body) {
          const schema = op.requestBody.content['application/json'].schema;
          expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(r.body.fields).sort());
        } else {
          expect(op.requestBody).toBeUndefined();
        }
        expect(op.responses['200'].content['application/json'].schema.$ref).toBe(`#/components/schemas/${r.response}`);
        expect(op.responses.default.content['application/json'].schema.$ref).toBe('#/components/schemas/V3Error');
      }
    }
  });

  it('the structural schema rejects a document missing required members', () => {
    expect(validate({ openapi: '3.0.3', paths: {} })).toBe(false);
    expect(validate({ openapi: '2.0', info: { title: 't', version: '1' }, paths: {} })).toBe(false);
    expect(validate({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/x': { get: {} } } })).toBe(false);
  });
});
