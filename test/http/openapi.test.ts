/**
 * /api/v2/openapi.json and /api/v3/openapi.json: structurally valid OpenAPI 3.0 (schema objects included),
 * covering every route of the tables; every v3 200 answer has a real schema, and real answers of the local
 * chain validate against the schema the served document publishes for their route.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server.js';
import { loadConfig, type Config } from '../../src/config.js';
import { V2_ENDPOINTS } from '../../src/api/v2.js';
import { servedRoutes } from '../../src/api/v3/branch.js';
import { V3_DESCRIPTORS } from '../../src/api/v3/index.js';
import type { FastifyInstance } from 'fastify';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';
import type { Gateway } from '../../src/gateway.js';
import { startTestGateway } from '../helpers/gateway.js';

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
        schemas: { type: 'object', propertyNames: { pattern: '^[a-zA-Z0-9._-]+$' }, additionalProperties: { $ref: '#/$defs/schema' } },
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
    content: { type: 'object', additionalProperties: { type: 'object', required: ['schema'], properties: { schema: { $ref: '#/$defs/schema' } } } },
    // an OpenAPI 3.0 Schema Object: one type name (no JSON Schema type lists), a $ref alone, known keywords only
    schema: {
      anyOf: [
        { type: 'object', required: ['$ref'], maxProperties: 1, properties: { $ref: { type: 'string', pattern: '^#/components/schemas/' } } },
        {
          type: 'object',
          not: { required: ['$ref'] },
          propertyNames: {
            enum: [
              'type', 'format', 'title', 'description', 'default', 'example', 'enum', 'nullable', 'pattern', 'required',
              'properties', 'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', 'minimum', 'maximum',
              'minLength', 'maxLength', 'minItems', 'maxItems', 'readOnly', 'writeOnly', 'deprecated',
            ],
          },
          properties: {
            type: { enum: ['array', 'boolean', 'integer', 'number', 'object', 'string'] },
            nullable: { type: 'boolean' },
            required: { type: 'array', items: { type: 'string' } },
            properties: { type: 'object', additionalProperties: { $ref: '#/$defs/schema' } },
            additionalProperties: { anyOf: [{ type: 'boolean' }, { $ref: '#/$defs/schema' }] },
            items: { $ref: '#/$defs/schema' },
            allOf: { type: 'array', items: { $ref: '#/$defs/schema' } },
            anyOf: { type: 'array', items: { $ref: '#/$defs/schema' } },
            oneOf: { type: 'array', items: { $ref: '#/$defs/schema' } },
          },
        },
      ],
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(OAS30);

let app: FastifyInstance;
beforeAll(async () => {
  const config = loadConfig([], {}) as Config;
  app = await buildServer({ config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true });
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

  it('v3 lists every route and alias of V3_DESCRIPTORS with query parameters, bodies and the error shape', async () => {
    const d = await doc('/api/v3/openapi.json');
    checkRefs(d);
    // the routes and params of no branch-only feature (V3_BRANCH_FEATURES is empty by default)
    for (const r of servedRoutes(V3_DESCRIPTORS, [])) {
      const [method] = r.methods;
      const named = (place: string) => Object.keys(r.params).filter((n) => r.params[n]!.in === place).sort();
      for (const p of [r.path, ...(r.aliases ?? [])]) {
        const op = d.paths[`/api/v3${p}`]?.[method.toLowerCase()];
        expect(op, `${method} ${p}`).toBeDefined();
        const query = (op.parameters as Json[]).filter((x) => x.in === 'query');
        expect(query.map((x) => x.name).sort()).toEqual(named('query'));
        for (const x of query) {
          expect(x.schema.type).toMatch(/^(integer|string|boolean|array)$/);
          expect(x.schema.type === 'array').toBe(r.params[x.name]!.list);
        }
        if (method === 'POST') {
          const schema = op.requestBody.content['application/json'].schema;
          expect(Object.keys(schema.properties).sort()).toEqual(named('body'));
        } else {
          expect(op.requestBody).toBeUndefined();
        }
        const ok = op.responses['200'].content['application/json'].schema;
        if (r.response.endsWith('[]')) expect(ok).toEqual({ type: 'array', items: { $ref: `#/components/schemas/${r.response.slice(0, -2)}` } });
        else expect(ok.$ref).toBe(`#/components/schemas/${r.response}`);
        expect(op.responses.default.content['application/json'].schema.$ref).toBe('#/components/schemas/V3Error');
      }
    }
  });

  it('v3 with every branch-only feature on: their routes and params, still a valid document', async () => {
    const config = loadConfig([], { V3_BRANCH_FEATURES: 'acton,actions-cursor' }) as Config;
    const on = await buildServer({ config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true });
    try {
      const res = await on.inject({ method: 'GET', url: '/api/v3/openapi.json' });
      const d = res.json() as Json;
      expect(validate(d), JSON.stringify(validate.errors, null, 1)).toBe(true);
      checkRefs(d);
      expect(Object.keys(d.paths).filter((p) => p.startsWith('/api/v3/acton/')).sort()).toEqual(['/api/v3/acton/contracts', '/api/v3/acton/decode', '/api/v3/acton/runGetMethod']);
      expect(Object.keys(d.paths['/api/v3/acton/runGetMethod'].post.requestBody.content['application/json'].schema.properties)).toEqual(['address', 'method', 'args', 'seqno']);
      expect(d.paths['/api/v3/actions'].get.parameters.map((p: Json) => p.name)).toContain('cursor');
    } finally {
      await on.close();
    }
    const off = await doc('/api/v3/openapi.json');
    expect(Object.keys(off.paths).filter((p) => p.startsWith('/api/v3/acton/'))).toEqual([]);
  });

  it('v3 declares the X-Actions-Version header on the routes whose supported_action_types it replaces, and only there', async () => {
    const d = await doc('/api/v3/openapi.json');
    const withHeader = Object.entries(d.paths as Record<string, Json>)
      .filter(([, item]) => (item.get?.parameters as Json[] | undefined)?.some((p) => p.in === 'header' && p.name === 'X-Actions-Version'))
      .map(([path]) => path)
      .sort();
    expect(withHeader).toEqual(['/api/v3/actions', '/api/v3/events', '/api/v3/pendingActions', '/api/v3/pendingTraces', '/api/v3/traces']);
  });

  it('v3 gives every route a non-empty 200 schema generated from the wire types, with the v3.md corrections', async () => {
    const d = await doc('/api/v3/openapi.json');
    const schemas = d.components.schemas as Record<string, Json>;
    for (const r of V3_DESCRIPTORS) {
      const name = r.response.replace(/\[\]$/, '');
      const s = schemas[name]!;
      expect(s.type ?? s.$ref, `${r.path}: ${name}`).toBeDefined();
      expect(Object.keys(s.properties ?? s.items ?? s.additionalProperties ?? {}).length, `${r.path}: ${name}`).toBeGreaterThan(0);
    }
    expect(schemas.TransactionsResponse.properties.transactions).toEqual({ type: 'array', nullable: true, items: { nullable: true, allOf: [{ $ref: '#/components/schemas/Transaction' }] } });
    expect(schemas.Message.properties.opcode).toMatchObject({ type: 'string', pattern: '^0x[0-9a-f]{8}$', nullable: true });
    expect(schemas.Transaction.properties.finality.enum).toEqual(['pending', 'confirmed', 'finalized']);
    expect(schemas.AddressBookRow.properties.interfaces.type).toBe('array');
    expect(Object.keys(schemas.V2RunGetMethodResult.properties).sort()).toEqual(['exit_code', 'gas_used', 'stack']);
    // nothing is left as a bare name without a body
    for (const [n, s] of Object.entries(schemas)) expect(Object.keys(s).length > 1 || s.$ref !== undefined || s.type !== undefined, n).toBe(true);
  });

  it('the structural schema rejects a document missing required members, and schema objects OpenAPI 3.0 does not allow', () => {
    expect(validate({ openapi: '3.0.3', paths: {} })).toBe(false);
    expect(validate({ openapi: '2.0', info: { title: 't', version: '1' }, paths: {} })).toBe(false);
    expect(validate({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/x': { get: {} } } })).toBe(false);
    const withSchema = (s: unknown) => ({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { S: s } } });
    expect(validate(withSchema({ type: 'object', properties: { a: { type: 'string', nullable: true } } }))).toBe(true);
    expect(validate(withSchema({ type: ['string', 'null'] }))).toBe(false);
    expect(validate(withSchema({ $ref: '#/definitions/X' }))).toBe(false);
    expect(validate(withSchema({ $ref: '#/components/schemas/X', nullable: true }))).toBe(false);
    expect(validate(withSchema({ type: 'object', properties: { a: { type: 'string', example: 1, x_unknown: 1 } } }))).toBe(false);
  });
});

/** The served OpenAPI 3.0 schemas in JSON Schema's spelling for ajv: `nullable` adds null; objects closed to unknown keys. */
function jsonSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(jsonSchema);
  if (typeof s !== 'object' || s === null) return s;
  const { nullable, ...rest } = s as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(rest)) {
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, x]) => [p, jsonSchema(x)])) : jsonSchema(v);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (!nullable) return out;
  if (typeof out.type === 'string' && !out.enum) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

describe('real v3 answers against the served document', () => {
  let gw: Gateway;
  let served: Json;
  const ajv = new Ajv({ strict: false, allErrors: true });

  beforeAll(async () => {
    gw = await startTestGateway({ seed: 'openapi-served-schemas' });
    served = (await (await fetch(`${gw.url}/api/v3/openapi.json`)).json()) as Json;
    ajv.addSchema({ $id: 'served', components: { schemas: jsonSchema(served.components.schemas) } });
  }, 120_000);
  afterAll(async () => {
    await gw?.close();
  });

  /** Calls the route on the local chain and validates the answer against the 200 schema the document gives it. */
  async function check(method: 'get' | 'post', path: string, query = '', body?: unknown): Promise<Json> {
    const res = await fetch(`${gw.url}/api/v3${path}${query}`, {
      method: method.toUpperCase(),
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${path}${query}`).toBe(200);
    const answer = (await res.json()) as Json;
    const published = served.paths[`/api/v3${path}`][method].responses['200'].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(jsonSchema(published)).replaceAll('"#/components/', '"served#/components/')));
    expect(validate(answer), `${path}: ${JSON.stringify(validate.errors?.slice(0, 5))}`).toBe(true);
    return answer;
  }

  it('blocks, transactions, messages, accounts and the legacy routes validate', async () => {
    const wallets = (await (await fetch(`${gw.url}/localnet/wallets`)).json()) as { address: string }[];
    const addr = wallets[0]!.address;
    await check('get', '/masterchainInfo');
    await check('get', '/blocks', '?limit=3');
    await check('get', '/masterchainBlockShards', '?seqno=2');
    const txs = await check('get', '/transactions', '?limit=10');
    expect((txs.transactions as unknown[]).length).toBeGreaterThan(0);
    const msgs = await check('get', '/messages', '?limit=10');
    expect((msgs.messages as unknown[]).length).toBeGreaterThan(0);
    await check('get', '/accountStates', `?address=${encodeURIComponent(addr)}`);
    await check('get', '/walletStates', `?address=${encodeURIComponent(addr)}`);
    await check('get', '/addressBook', `?address=${encodeURIComponent(addr)}`);
    const top = await check('get', '/topAccountsByBalance', '?limit=3');
    expect(Array.isArray(top)).toBe(true);
    await check('get', '/addressInformation', `?address=${encodeURIComponent(addr)}`);
    await check('get', '/walletInformation', `?address=${encodeURIComponent(addr)}`);
    await check('post', '/runGetMethod', '', { address: addr, method: 'seqno', stack: [] });
  });

  it('a wrong answer does not validate: the check can fail', async () => {
    const published = served.paths['/api/v3/transactions'].get.responses['200'].content['application/json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(jsonSchema(published)).replaceAll('"#/components/', '"served#/components/')));
    expect(validate({ transactions: [{ hash: 1 }], address_book: {} })).toBe(false);
    expect(validate({ transactions: [{ hash: 'x', misspelt_field: 1 }], address_book: {} })).toBe(false);
  });
});
