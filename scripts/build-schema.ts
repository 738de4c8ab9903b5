/** Prints the GraphQL schema to schema.graphql (committed; CI fails when it is stale). `--check` only compares. */
import { fileURLToPath } from 'node:url';
import { printSchemaSDL } from '../src/surfaces/graphql/print.js';
import { writeOrCheck } from './lib/generated-file.js';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
const sdl = printSchemaSDL();

writeOrCheck(target, sdl, 'schema');
