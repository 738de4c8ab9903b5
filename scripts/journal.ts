/**
 * `npm run journal -- repair DIR`: the recovery for a local chain journal that start-up refuses as damaged.
 * Keeps the entries before the first bad one, sets the original aside as DIR/journal.damaged-<time>, and
 * prints what it did; the next start continues the chain from the kept entries. Refused while a server holds DIR.
 */
import { resolve } from 'node:path';
import { DataDirError, repairJournal } from '../src/sources/localnet/chain/journal.js';

const USAGE = 'usage: npm run journal -- repair DIR\n';
const [command, dir, ...rest] = process.argv.slice(2);
if (command !== 'repair' || !dir || rest.length > 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}
try {
  // npm runs scripts in the package's directory; a relative DIR means the caller's
  const r = repairJournal(resolve(process.env.INIT_CWD ?? process.cwd(), dir));
  process.stdout.write(
    r.backup
      ? `${r.path}: kept ${r.kept} entries, cut ${r.cut} bytes; the original is ${r.backup}\n`
      : `${r.path}: no damage found (${r.kept} entries), nothing changed\n`,
  );
} catch (e) {
  if (!(e instanceof DataDirError)) throw e;
  process.stderr.write(`journal: ${e.message}\n`);
  process.exit(2);
}
