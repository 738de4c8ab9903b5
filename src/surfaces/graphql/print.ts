/** The schema as SDL, exactly as schema.graphql holds it. */
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.js';

export const printSchemaSDL = (): string => `${printSchema(lexicographicSortSchema(schema))}\n`;
