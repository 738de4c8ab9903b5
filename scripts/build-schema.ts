/** Prints the GraphQL schema to schema.graphql (committed; CI fails when it is stale). `--check` only compares. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchemaSDL } from '../src/surfaces/graphql/print.js';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
const sdl = printSchemaSDL();

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== sdl) {
    process.stderr.write('schema.graphql is stale: run `npm run schema` and commit the result\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, sdl);
  process.stdout.write(`wrote ${target}\n`);
}
