/**
 * Response validators compiled from the v3 openapi (test/fixtures/v3-openapi.json, Swagger 2.0, version
 * 1.2.4-rc) with ajv. `responseValidator('/api/v3/transactions', 'get', 200)` checks a body against the
 * route's response schema.
 *
 * The routes' response schemas are taken from the fixture's paths; the definitions, with their corrections
 * (where v3.md and the recorded real responses disagree with the openapi), from src/surfaces/rest/v3-schemas.ts, the
 * same source the served /api/v3/openapi.json is generated from. Here in JSON Schema's spelling: every property
 * may be null (`type: [X, "null"]`). Path-level corrections (v3.md §2.1, §9):
 * - /masterchainBlockShards and /masterchainBlockShardState answer BlocksResponse, not TransactionsResponse;
 * - /runGetMethod answers V2RunGetMethodResult {gas_used, exit_code, stack}, not the request schema.
 * With `{ closed: true }` objects also reject unknown keys, which catches misspelt field names.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { correctedV3Definitions } from '../../src/surfaces/rest/v3-schemas.js';

type Json = Record<string, unknown>;

const SPEC_PATH = fileURLToPath(new URL('../fixtures/v3-openapi.json', import.meta.url));

function loadSpec(): { paths: Record<string, Record<string, Json>> } {
  return JSON.parse(readFileSync(SPEC_PATH, 'utf8'));
}

/** `type: X` → `type: [X, "null"]`, `$ref` → `anyOf [$ref, null]`, recursively through properties and items. */
function nullable(schema: Json): Json {
  if (typeof schema.$ref === 'string') return { anyOf: [{ $ref: schema.$ref }, { type: 'null' }] };
  const out: Json = { ...schema };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Json>).map(([k, v]) => [k, nullable(v)]));
  }
  if (out.items && typeof out.items === 'object') out.items = nullable(out.items as Json);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = nullable(out.additionalProperties as Json);
  }
  return out;
}

function patchedDefinitions(closed: boolean): Record<string, Json> {
  const defs = correctedV3Definitions();
  const out: Record<string, Json> = {};
  for (const [name, def] of Object.entries(defs)) {
    const d = nullable(def);
    if (closed && d.properties && d.additionalProperties === undefined) d.additionalProperties = false;
    out[name] = d;
  }
  return out;
}

const RESPONSE_OVERRIDES: Record<string, Json> = {
  'get /api/v3/masterchainBlockShards 200': { $ref: '#/definitions/BlocksResponse' },
  'get /api/v3/masterchainBlockShardState 200': { $ref: '#/definitions/BlocksResponse' },
  'post /api/v3/runGetMethod 200': { $ref: '#/definitions/V2RunGetMethodResult' },
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const cache = new Map<string, ValidateFunction>();

/** The validator for one route's response; throws if the openapi has no such route or status. */
export function responseValidator(path: string, method: 'get' | 'post', status: number, opts: { closed?: boolean } = {}): ValidateFunction {
  const key = `${method} ${path} ${status} ${opts.closed ? 'closed' : 'open'}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const op = loadSpec().paths[path]?.[method] as { responses?: Record<string, { schema?: Json }> } | undefined;
  const response = op?.responses?.[String(status)];
  if (!response?.schema) throw new Error(`openapi has no ${method.toUpperCase()} ${path} ${status} schema`);
  const schema = RESPONSE_OVERRIDES[`${method} ${path} ${status}`] ?? response.schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile({ ...schema, definitions: patchedDefinitions(opts.closed ?? false) });
  cache.set(key, validate);
  return validate;
}

/** Throws with ajv's messages when `body` does not validate; returns it otherwise. */
export function assertResponse<T>(path: string, method: 'get' | 'post', status: number, body: T, opts: { closed?: boolean } = {}): T {
  const validate = responseValidator(path, method, status, opts);
  // JSON round trip: what a client receives (no bigint, no undefined)
  const wire = JSON.parse(JSON.stringify(body)) as unknown;
  if (!validate(wire)) {
    const errs = (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${method.toUpperCase()} ${path} ${status} does not match the openapi:\n${errs.join('\n')}`);
  }
  return body;
}
