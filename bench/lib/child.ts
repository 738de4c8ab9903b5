/** Spawns a bench process (gateway, bare server, sandbox runner) with an IPC channel and a tiny RPC over it. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child {
  proc: ChildProcess;
  /** what the child sent with its `ready` message (e.g. its url) */
  info: Record<string, unknown>;
  call<T = unknown>(cmd: string, args?: unknown): Promise<T>;
  /** asks the child to shut down cleanly (so --cpu-prof files get written), then waits for its exit */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  args?: string[];
  env?: Record<string, string>;
  /** directory for node --cpu-prof output; absent = no profile */
  cpuProfDir?: string;
  exposeGc?: boolean;
}

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export async function spawnChild(script: string, opts: SpawnOptions = {}): Promise<Child> {
  const execArgv = ['--import', 'tsx'];
  if (opts.exposeGc) execArgv.push('--expose-gc');
  if (opts.cpuProfDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`);
  const proc = fork(here(`../procs/${script}.ts`), opts.args ?? [], {
    execArgv,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const info = await new Promise<Record<string, unknown>>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${script}: exited with ${code} before it was ready`)));
    proc.on('message', (m: { type?: string; id?: number; result?: unknown; error?: string }) => {
      if (m.type === 'ready') resolve(m as Record<string, unknown>);
      else if (m.id !== undefined) {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.error !== undefined) w?.reject(new Error(`${script}: ${m.error}`));
        else w?.resolve(m.result);
      }
    });
  });
  // a crash mid-run must fail the pending calls rather than hang the run
  proc.once('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`${script}: exited with ${code}`));
    waiting.clear();
  });
  return {
    proc,
    info,
    call<T>(cmd: string, args?: unknown): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        proc.send({ id, cmd, args });
      });
    },
    async stop() {
      if (proc.exitCode !== null) return;
      proc.send({ id: -1, cmd: 'exit' });
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Child side: answers RPC calls with `handlers`; `exit` runs `onExit` then exits with 0. */
export function serveRpc(handlers: Record<string, (args: any) => unknown>, onExit: () => Promise<void>): void {
  process.on('message', async (m: { id: number; cmd: string; args?: unknown }) => {
    if (m.cmd === 'exit') {
      await onExit().catch((e: unknown) => console.error(e));
      process.exit(0);
    }
    try {
      const h = handlers[m.cmd];
      if (!h) throw new Error(`unknown command ${m.cmd}`);
      process.send!({ id: m.id, result: await h(m.args) });
    } catch (e) {
      process.send!({ id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
  // the parent dying must not leave a server behind
  process.on('disconnect', () => void onExit().finally(() => process.exit(0)));
}

const prestarted = new Map<string, Promise<Child>>();

/**
 * Starts the named children all at once, before anything is measured: each gateway runs its genesis on start-up
 * (several seconds of CPU), and one after another they were most of a `--quick` run. Resolves when all are up.
 */
export async function prestart(specs: [key: string, script: string, opts?: SpawnOptions][]): Promise<void> {
  for (const [key, script, opts] of specs) {
    const child = spawnChild(script, opts);
    // a failed start is reported by the scenario that takes it
    child.catch(() => undefined);
    prestarted.set(key, child);
  }
  await Promise.allSettled(prestarted.values());
}

/** The child a scenario needs: the one prestarted under `key`, else a new one. */
export function takeChild(key: string, script: string, opts: SpawnOptions = {}): Promise<Child> {
  const child = prestarted.get(key);
  if (child) {
    prestarted.delete(key);
    return child;
  }
  return spawnChild(script, opts);
}

/** Stops prestarted children no scenario took (a run with --only). */
export async function stopUntaken(): Promise<void> {
  const left = [...prestarted.values()];
  prestarted.clear();
  await Promise.all(left.map((c) => c.then((x) => x.stop(), () => undefined)));
}
