import { readFileSync } from 'node:fs';

/**
 * CPU time (utime + stime) in ms of a process or thread, from its /proc stat file (`/proc/PID/stat`,
 * `/proc/thread-self/stat`; clock ticks of 10 ms); undefined when the file cannot be read (no /proc, or gone).
 */
export function statCpuMs(path: string): number | undefined {
  try {
    const s = readFileSync(path, 'utf8');
    // the fields after the command name, which is in parentheses and may itself hold spaces or parentheses
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}
