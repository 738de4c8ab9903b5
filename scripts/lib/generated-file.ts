/**
 * A committed generated file: written, or with `--check` (in argv) only compared, exiting 1 with `npm run <script>`
 * as the remedy when it is stale or missing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export function writeOrCheck(target: string, text: string, script: string): void {
  const name = relative(process.cwd(), target);
  if (!process.argv.includes('--check')) {
    writeFileSync(target, text);
    process.stdout.write(`wrote ${name}\n`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== text) {
    process.stderr.write(`${name} is stale: run \`npm run ${script}\` and commit the result\n`);
    process.exit(1);
  }
}
