/**
 * Recorded data from other repositories is not part of this project: it lives in `../shared` beside the clone
 * (`fixtures/` holds recorded answers, `reference/` the published API descriptions; origins in
 * ../shared/fixtures/README.md). CI always has it. In a clone without it, a suite that reads it is skipped and
 * says so in one printed line:
 *
 *   const skip = withoutShared('actions of the recorded mainnet traces');
 *   describe.skipIf(skip)('...', () => { ... });
 *
 * Reads go through `sharedPath` / `readSharedJson`, so no test builds a path to the data on its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's sibling `shared` directory. */
const ROOT = new URL('../../../shared/', import.meta.url);

/**
 * True when both halves of ../shared are beside the clone. `TEST_WITHOUT_SHARED=1` runs as a clone without it
 * would (to see that the suite still passes there).
 */
export const hasShared =
  process.env.TEST_WITHOUT_SHARED !== '1' && existsSync(new URL('fixtures/', ROOT)) && existsSync(new URL('reference/', ROOT));

/** A path under ../shared, e.g. `fixtures/real/index.json` or `reference/v3-openapi.json`. */
export function sharedPath(rel: string): string {
  return fileURLToPath(new URL(rel, ROOT));
}

/** A recorded answer under ../shared/fixtures, e.g. `real/v2/x.json`. */
export function fixturePath(rel: string): string {
  return sharedPath(`fixtures/${rel}`);
}

/** A JSON file under ../shared (`fixtures/...` or `reference/...`), parsed. */
export function readSharedJson<T = any>(rel: string): T {
  return JSON.parse(readFileSync(sharedPath(rel), 'utf8')) as T;
}

/**
 * Whether a suite needing ../shared must be skipped; when it must, prints the one line saying what is skipped and
 * why. Call once per test file, at module level, and pass the result to `describe.skipIf`.
 */
export function withoutShared(what: string): boolean {
  if (!hasShared) console.log(`skipped: ${what}: it reads recorded data from ../shared, which is not beside this clone`);
  return !hasShared;
}
