/**
 * The v3 response schemas: the definitions of the published openapi (v3-openapi-definitions.json, copied from
 * ../shared/reference/v3-openapi.json, swagger 2.0 by swag from ton-index-go, 1.2.4-rc), corrected where this
 * gateway follows v3.md (read from the server's code) and the recorded responses instead:
 * - every property may be null (Go pointer fields; swag cannot say so; recorded responses have nulls);
 * - Message.opcode is the string "0x%08x", not an integer (v3.md §1.3);
 * - AddressBookRow has `interfaces`, Transaction has `finality` (v3.md §3.0, §3.1);
 * - Action has `finality` too (v3.md §4.2, `models/actions.go`);
 * - V2RunGetMethodResult, `{gas_used, exit_code, stack}`, is what /runGetMethod answers (v3.md §9; the openapi
 *   reuses the request schema there);
 * - DeprecatedEventsResponse, what /events answers: TracesResponse with the list under `events` (v3.md §1.1);
 * - decoded_custom_payload / decoded_forward_payload are objects and OrderAction.body_raw a base64 string (the
 *   openapi prints Go's json.RawMessage and []byte as integer arrays);
 * - Trace.trace refers to `TraceNode`, which the openapi defines as `index.TraceNode` (a dangling $ref there).
 * /masterchainBlockShards and /masterchainBlockShardState answering BlocksResponse is said by their routes.
 * The openapi generator and the tests' response validators both read this, so they cannot disagree.
 */
import reference from './v3-openapi-definitions.json' with { type: 'json' };

type Json = Record<string, unknown>;

/** The reference's definitions with the corrections above except nullability (which each dialect spells its own way); refs are `#/definitions/X`. */
export function correctedV3Definitions(): Record<string, Json> {
  const defs = structuredClone(reference.definitions) as Record<string, Json>;
  const props = (name: string) => (defs[name]!.properties ??= {}) as Record<string, Json>;
  props('Message').opcode = { type: 'string', pattern: '^0x[0-9a-f]{8}$', example: '0x0f8a7ea5' };
  props('AddressBookRow').interfaces = { type: 'array', items: { type: 'string' } };
  props('Transaction').finality = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
  props('Action').finality = { type: 'string', enum: ['pending', 'confirmed', 'finalized'] };
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

/** A route's `response` name: a definition, or `Name[]` for a JSON array of them. */
export function responseShape(response: string): { name: string; array: boolean } {
  return response.endsWith('[]') ? { name: response.slice(0, -2), array: true } : { name: response, array: false };
}
