/**
 * Response validators compiled from toncenter's v3 openapi (../shared/reference/v3-openapi.json, Swagger 2.0,
 * version 1.2.4-rc) with ajv. `responseValidator('/api/v3/transactions', 'get', 200)` checks a body against the
 * route's response schema.
 *
 * The routes' response schemas are taken from the reference's paths, its definitions with the corrections below
 * (where v3.md, read from the server's code, and the recorded real responses disagree with the openapi), in JSON
 * Schema's spelling: every property may be null (`type: [X, "null"]`; Go pointer fields, which swag cannot mark).
 * Definition corrections (`correctedReferenceDefinitions`):
 * - Message.opcode is the string "0x%08x", not an integer (v3.md §1.3);
 * - AddressBookRow has `interfaces`, Transaction has `finality` (v3.md §3.0, §3.1);
 * - Action has `finality` too (v3.md §4.2, `models/actions.go`);
 * - AccountStateFull, WalletState, V2AddressInformation and V2WalletInformation have `suspended` (added in 1.2.6,
 *   v3-more-routes.md §6);
 * - V2RunGetMethodResult, `{gas_used, exit_code, stack}`, is what /runGetMethod answers (v3.md §9; the openapi
 *   reuses the request schema there);
 * - DeprecatedEventsResponse, what /events answers: TracesResponse with the list under `events` (v3.md §1.1);
 * - decoded_custom_payload / decoded_forward_payload are objects and OrderAction.body_raw a base64 string (the
 *   openapi prints Go's json.RawMessage and []byte as integer arrays);
 * - Trace.trace refers to `TraceNode`, which the openapi defines as `index.TraceNode` (a dangling $ref there).
 * Path corrections (v3.md §2.1, §9):
 * - /masterchainBlockShards and /masterchainBlockShardState answer BlocksResponse, not TransactionsResponse;
 * - /runGetMethod answers V2RunGetMethodResult, not the request schema.
 * With `{ closed: true }` objects also reject unknown keys, which catches misspelt field names.
 *
 * In a clone without ../shared the answers are checked against the project's own schemas instead (those served
 * in /api/v3/openapi.json, generated from src/api/v3; test/http/v3-schemas-reference.test.ts holds them to the
 * reference where it is present), and one printed line says so.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { V3_DESCRIPTORS, V3_PREFIX } from '../../src/api/v3/index.js';
import { responseShape, v3Definitions } from '../../src/surfaces/rest/v3-schemas.js';
import { hasShared, readSharedJson } from './shared.js';

type Json = Record<string, unknown>;

interface Swagger {
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: Json }> }>>;
  definitions: Record<string, Json>;
}

let spec: Swagger | undefined;
/** The reference document, read once. */
export function referenceSpec(): Swagger {
  spec ??= readSharedJson<Swagger>('reference/v3-openapi.json');
  return spec;
}

/** The reference's definitions with the corrections above except nullability; refs are `#/definitions/X`. */
export function correctedReferenceDefinitions(): Record<string, Json> {
  const defs = structuredClone(referenceSpec().definitions);
  const props = (name: string) => (defs[name]!.properties ??= {}) as Record<string, Json>;
  props('Message').opcode = { type: 'string', pattern: '^0x[0-9a-f]{8}$', example: '0x0f8a7ea5' };
  props('AddressBookRow').interfaces = { type: 'array', items: { type: 'string' } };
  props('Transaction').finality = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
  props('Action').finality = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
  // in the current openapi (1.2.6, v3-more-routes.md §6)
  for (const name of ['AccountStateFull', 'WalletState', 'V2AddressInformation', 'V2WalletInformation']) props(name).suspended = { type: 'boolean' };
  (props('Trace').trace as Json).$ref = '#/definitions/index.TraceNode';
  const { traces, ...rest } = defs.TracesResponse!.properties as Record<string, Json>;
  defs.DeprecatedEventsResponse = { type: 'object', properties: { events: traces!, ...rest } };
  // json.RawMessage fields (`swaggertype:"object"` in models/jetton.go, nft.go) and []byte (base64 in JSON) that swag printed as integer arrays
  for (const name of ['JettonTransfer', 'JettonBurn', 'NFTTransfer']) {
    for (const key of ['decoded_custom_payload', 'decoded_forward_payload']) if (props(name)[key]) props(name)[key] = { type: 'object' };
  }
  props('index.OrderAction').body_raw = { type: 'string', description: 'base64 BoC' };
  defs.V2RunGetMethodResult = {
    type: 'object',
    properties: {
      gas_used: { type: 'integer' },
      exit_code: { type: 'integer' },
      stack: { type: 'array', items: { $ref: '#/definitions/V2StackEntity' } },
    },
  };
  return defs;
}

/** `type: X` → `type: [X, "null"]`, `$ref` → `anyOf [$ref, null]`, recursively through properties, items and unions. */
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
  // the project's own schemas have unions (the reference has none)
  for (const k of ['anyOf', 'allOf']) if (Array.isArray(out[k])) out[k] = (out[k] as Json[]).map(nullable);
  return out;
}

function patchedDefinitions(defs: Record<string, Json>, closed: boolean): Record<string, Json> {
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

let ownSaid = false;
/** Without the reference: the route's 200 schema as this project serves it, and the v3 error body. */
function ownResponse(path: string, method: string, status: number): Json | undefined {
  if (!ownSaid) console.log("openapi checks: ../shared is not beside this clone, so answers are checked against the project's own v3 schemas, not the reference");
  ownSaid = true;
  if (status !== 200) return { type: 'object', properties: { code: { type: 'integer' }, error: { type: 'string' } } };
  const r = V3_DESCRIPTORS.find((d) => d.methods[0].toLowerCase() === method && [d.path, ...(d.aliases ?? [])].some((p) => `${V3_PREFIX}${p}` === path));
  if (!r) return undefined;
  const { name, array } = responseShape(r.response);
  return array ? { type: 'array', items: { $ref: `#/definitions/${name}` } } : { $ref: `#/definitions/${name}` };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const cache = new Map<string, ValidateFunction>();
const instances = new Map<boolean, Ajv>();

/**
 * One ajv per mode (open, closed) holding every definition once under `v3#/definitions/X`: routes that answer the
 * same types share their compiled validators (refs are compiled once each rather than inlined).
 */
function definitionsAjv(closed: boolean): Ajv {
  let ajv = instances.get(closed);
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, inlineRefs: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'v3', definitions: patchedDefinitions(hasShared ? correctedReferenceDefinitions() : v3Definitions(), closed) });
    instances.set(closed, ajv);
  }
  return ajv;
}

/** The validator for one route's response; throws if the openapi has no such route or status. */
export function responseValidator(path: string, method: 'get' | 'post', status: number, opts: { closed?: boolean } = {}): ValidateFunction {
  const key = `${method} ${path} ${status} ${opts.closed ? 'closed' : 'open'}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const schema = hasShared
    ? (RESPONSE_OVERRIDES[`${method} ${path} ${status}`] ?? referenceSpec().paths[path]?.[method]?.responses?.[String(status)]?.schema)
    : ownResponse(path, method, status);
  if (!schema) throw new Error(`openapi has no ${method.toUpperCase()} ${path} ${status} schema`);
  const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions/', '"v3#/definitions/')) as Json;
  const validate = definitionsAjv(opts.closed ?? false).compile(rooted);
  cache.set(key, validate);
  return validate;
}

// Without ../shared the project's Action (a union of some sixty shapes) takes seconds to compile: done here, at
// import, rather than in a test while a gateway in this process is serving (a long pause there breaks kept-alive
// connections)
if (!hasShared) for (const name of ['TracesResponse', 'ActionsResponse']) definitionsAjv(true).compile({ $ref: `v3#/definitions/${name}` });

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
