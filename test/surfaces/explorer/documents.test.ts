/**
 * Every GraphQL document the explorer sends, validated against the schema the gateway builds now (not the
 * committed file), so a renamed or removed field fails here by name rather than as a message in the page.
 */
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../../src/surfaces/graphql/schema.js';
import * as documents from '../../../src/surfaces/explorer/app/documents.js';

describe("the explorer's GraphQL documents", () => {
  it('are all there', () => {
    expect(Object.keys(documents).length).toBeGreaterThanOrEqual(10);
  });

  it.each(Object.entries(documents))('%s is valid against the schema', (_name, document) => {
    expect(document).toMatch(/^(query|subscription) /);
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });
});
