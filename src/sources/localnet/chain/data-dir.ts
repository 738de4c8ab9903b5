/**
 * A local chain's data directory: the one-line error for a directory that cannot be used, and `DIR/lock`,
 * which holds the owning process's pid so two servers never write one chain (a lock whose process is gone is
 * taken over). Shared by the database (db.ts) and the old journal format it imports (journal.ts).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SourceRefusal } from '../../../api/source.js';

/** A data directory that cannot be used (made with another seed, in use, not a journal); one line, for the CLI. */
export class DataDirError extends SourceRefusal {
  override readonly name = 'DataDirError';
}

/** dirs this process holds, so a lock with our own pid left by a previous life (pid 1 in a container) is stale */
const held = new Set<string>();

/** Creates `dir` and takes its lock; anything but a lock held by another process is reported as unusable. */
export function lockDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    lock(dir);
  } catch (e) {
    if (e instanceof DataDirError) throw e;
    throw new DataDirError(`cannot use ${dir} as the data dir: ${(e as Error).message}`);
  }
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a newly created file's directory entry durable. */
export function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Takes `dir/lock` (created exclusively, holding our pid); a lock whose process is gone is taken over. */
function lock(dir: string): void {
  const path = join(dir, 'lock');
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      held.add(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isSafeInteger(owner) && owner > 0 && (owner === process.pid ? held.has(dir) : alive(owner))) {
      throw new DataDirError(`${dir} is in use by process ${owner}`);
    }
    rmSync(path, { force: true });
  }
}

export function unlock(dir: string): void {
  held.delete(dir);
  rmSync(join(dir, 'lock'), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a data dir holding `held` (a fork point, or none for a plain local chain) cannot serve `asked`; undefined when it can. */
export function forkMismatch(dir: string, held: { url: string; seqno: number } | undefined, asked: { url: string; seqno?: number } | undefined): string | undefined {
  if (!held && !asked) return undefined;
  if (!held) return `${dir} holds a local chain, not a fork; start it without --fork or use another --data-dir`;
  if (!asked) return `${dir} holds a fork of ${held.url} at block ${held.seqno}; start it with --fork ${held.url} or use another --data-dir`;
  if (held.url === asked.url && (asked.seqno === undefined || asked.seqno === held.seqno)) return undefined;
  const at = asked.seqno === undefined ? '' : ` at block ${asked.seqno}`;
  return `${dir} holds a fork of ${held.url} at block ${held.seqno}, not of ${asked.url}${at}; use another --data-dir`;
}
