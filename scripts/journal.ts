/**
 * `npm run journal -- repair DIR`: the recovery for a local chain data dir that start-up refuses as damaged.
 * For a database (DIR/chain.db) it keeps the transactions and blocks before the first damage (db.ts
 * `repairDb`); for a directory still in the old journal format, the journal's entries before the first bad
 * one. The original is set aside beside it as `<file>.damaged-<time>`, and what was done is printed; the next
 * start continues the chain from what was kept. Refused while a server holds DIR.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataDirError } from '../src/sources/localnet/chain/data-dir.js';
import { DB_FILE, repairDb } from '../src/sources/localnet/chain/db.js';
import { repairJournal } from '../src/sources/localnet/chain/journal.js';

const USAGE = 'usage: npm run journal -- repair DIR\n';
const [command, arg, ...rest] = process.argv.slice(2);
if (command !== 'repair' || !arg || rest.length > 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}
// npm runs scripts in the package's directory; a relative DIR means the caller's
const dir = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
try {
  if (existsSync(join(dir, DB_FILE)) || !existsSync(join(dir, 'journal'))) {
    const r = repairDb(dir);
    process.stdout.write(
      r.backup
        ? `${r.path}: kept ${r.blocks} blocks and ${r.transactions} transactions; the original is ${r.backup}\n`
        : `${r.path}: no damage found (${r.blocks} blocks, ${r.transactions} transactions), nothing changed\n`,
    );
  } else {
    const r = repairJournal(dir);
    process.stdout.write(
      r.backup
        ? `${r.path}: kept ${r.kept} entries, cut ${r.cut} bytes; the original is ${r.backup}\n`
        : `${r.path}: no damage found (${r.kept} entries), nothing changed\n`,
    );
  }
} catch (e) {
  if (!(e instanceof DataDirError)) throw e;
  process.stderr.write(`journal: ${e.message}\n`);
  process.exit(2);
}
