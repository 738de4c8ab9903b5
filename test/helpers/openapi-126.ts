/**
 * Response validators compiled with ajv from toncenter's current v3 OpenAPI (../shared/reference/v3-openapi-1.2.6.yaml,
 * OpenAPI 3.0, version 1.2.6), for the routes the older 1.2.4 document (openapi.ts) does not have. Every property
 * may be null (Go pointers), and with `closed` objects refuse unknown keys. Corrections, after
 * ../shared/reference/v3-more-routes.md:
 * - `finality` of Transaction and Action is the string pending|confirmed|finalized, not the int enum FinalityState;
 * - Message.opcode is the string "0x%08x", not an integer (v3.md §1.3);
 * - ValidatorEvent.type also takes recover_requested and recover_failed (the worker stores them);
 * - NFTSale.details is `{}` in the document: any object.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { sharedPath } from './shared.js';

type Json = Record<string, unknown>;

interface OpenApi30 {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Json }> }> }>>;
  components: { schemas: Record<string, Json> };
}

let doc: OpenApi30 | undefined;
export function openApi126(): OpenApi30 {
  doc ??= parse(readFileSync(sharedPath('reference/v3-openapi-1.2.6.yaml'), 'utf8')) as OpenApi30;
  return doc;
}

function corrected(): Record<string, Json> {
  const defs = structuredClone(openApi126().components.schemas);
  const finality = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
  for (const name of ['Transaction', 'Action']) {
    const props = defs[name]?.properties as Record<string, Json> | undefined;
    if (props?.finality) props.finality = finality;
  }
  // v3.md §1.3, as in the 1.2.4 checks: the opcode is printed "0x%08x"
  (defs.Message!.properties as Record<string, Json>).opcode = { type: 'string', pattern: '^0x[0-9a-f]{8}$' };
  const eventType = (defs.ValidatorEvent!.properties as Record<string, Json>).type as { enum: string[] };
  eventType.enum = [...eventType.enum, 'recover_requested', 'recover_failed'];
  return defs;
}

function nullable(schema: Json, closed: boolean): Json {
  if (typeof schema.$ref === 'string') return { anyOf: [{ $ref: schema.$ref }, { type: 'null' }] };
  const out: Json = { ...schema };
  delete out.nullable;
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Json>).map(([k, v]) => [k, nullable(v, closed)]));
    if (closed && out.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (out.items && typeof out.items === 'object') out.items = nullable(out.items as Json, closed);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') out.additionalProperties = nullable(out.additionalProperties as Json, closed);
  for (const k of ['anyOf', 'allOf', 'oneOf']) if (Array.isArray(out[k])) out[k] = (out[k] as Json[]).map((s) => nullable(s, closed));
  return out;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajvs = new Map<boolean, Ajv>();
const cache = new Map<string, ValidateFunction>();

function ajvFor(closed: boolean): Ajv {
  let ajv = ajvs.get(closed);
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true, inlineRefs: false });
    addFormats(ajv);
    const defs = Object.fromEntries(Object.entries(corrected()).map(([n, d]) => [n, nullable(d, closed)]));
    // the one member typed `{}` (any value): objects with shape-dependent keys
    ((defs.NFTSale!.properties as Record<string, Json>).details as Json) = { type: ['object', 'null'] };
    ajv.addSchema({ $id: 'v126', components: { schemas: defs } });
    ajvs.set(closed, ajv);
  }
  return ajv;
}

/**
 * Throws with ajv's messages unless `body` is the route's documented 200 answer. A first call compiles the
 * route's validator (seconds for the larger ones): pass no body to compile ahead, before gateways serve.
 */
export function assert126(path: string, body?: unknown, opts: { closed?: boolean } = {}): void {
  const key = `${path} ${opts.closed ? 'closed' : 'open'}`;
  let validate = cache.get(key);
  if (!validate) {
    const schema = openApi126().paths[path]?.get?.responses['200']?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`1.2.6 has no GET ${path} 200 schema`);
    const rooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"v126#/components/schemas/')) as Json;
    validate = ajvFor(opts.closed ?? false).compile(rooted);
    cache.set(key, validate);
  }
  if (body === undefined) return;
  if (!validate(JSON.parse(JSON.stringify(body)))) {
    const errs = (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`GET ${path} does not match the 1.2.6 openapi:\n${errs.join('\n')}`);
  }
}
