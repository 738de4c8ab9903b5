/** The real CLI (`node --import tsx src/main.ts`) as a child process on a free loopback port, and waiting for it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Cli {
  proc: ChildProcess;
  /** its address, once it printed that it listens */
  url: Promise<string>;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Starts the CLI with `args` (after `--port 0 --quiet`), logging nothing; `started` is told of its process. */
export function startCli(args: string[], started?: (proc: ChildProcess) => void): Cli {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--quiet', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started?.(proc);
  let out = '';
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const url = new Promise<string>((resolve, reject) => {
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /^Listening on (http:\/\/\S+)/m.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', () => reject(new Error(`the CLI exited before listening: ${err}`)));
  });
  url.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, url, exited, stdout: () => out, stderr: () => err };
}

/** Its address once /health answers 200 (while genesis runs the event loop is busy; a refused probe is retried). */
export async function ready(cli: Cli): Promise<string> {
  const url = await cli.url;
  const healthy = () => fetch(`${url}/health`).then((r) => (r.status === 200 ? true : undefined), () => undefined);
  await waitFor(healthy, 90_000, 200);
  return url;
}
