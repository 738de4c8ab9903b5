/**
 * The v3 response schemas: generated from this project's wire types in src/api/v3 by
 * scripts/v3-response-schemas.ts (`npm run v3-schemas`; a test fails when the committed file is stale), in
 * swagger's spelling (`#/definitions/X` refs); openapi.ts turns them into OpenAPI 3.0 components. A route's
 * response definition is named by its descriptor's `response`; nested types keep their TypeScript names.
 * test/http/v3-schemas-reference.test.ts holds them to toncenter's published schemas
 * (../shared/reference/v3-openapi.json) with the documented differences.
 */
import generated from './v3-response-schemas.json' with { type: 'json' };

type Json = Record<string, unknown>;

/** The generated definitions, a fresh copy per call; refs are `#/definitions/X`. */
export function v3Definitions(): Record<string, Json> {
  return structuredClone(generated.definitions) as Record<string, Json>;
}

/** A route's `response` name: a definition, or `Name[]` for a JSON array of them. */
export function responseShape(response: string): { name: string; array: boolean } {
  return response.endsWith('[]') ? { name: response.slice(0, -2), array: true } : { name: response, array: false };
}
