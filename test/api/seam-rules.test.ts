/**
 * The layering of src/ as rules over its import graph (every relative import, `import type` and re-exports
 * included), and the seam's read-only answers, so that a wrong arrow or a new circle across rooms fails here
 * rather than in a reader's head. Data flows surface -> seam -> source -> engine/remote/live -> model.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(path) ? [relative(root, path)] : [];
  });
}

const SPECIFIER = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

/** A relative specifier as the repository path it names (`./x.js` is `x.ts` or `x.tsx` beside the importer). */
function target(file: string, spec: string): string {
  const path = relative(root, resolve(root, dirname(file), spec));
  const base = path.replace(/\.js$/, '');
  return ['.ts', '.tsx'].map((ext) => base + ext).find((p) => existsSync(join(root, p))) ?? path;
}

interface Imports {
  /** repository paths of the files it imports */
  files: string[];
  /** package specifiers (`node:fs`, `undici`) */
  packages: string[];
}

const graph = new Map<string, Imports>(
  sourceFiles(join(root, 'src')).map((file) => {
    const specs = [...readFileSync(join(root, file), 'utf8').matchAll(SPECIFIER)].map((m) => m[1]!);
    return [file, { files: specs.filter((s) => s.startsWith('.')).map((s) => target(file, s)), packages: specs.filter((s) => !s.startsWith('.')) }];
  }),
);

/** Every import from a file `from` accepts to a file `to` refuses, as `importer -> imported`. */
function arrows(from: (file: string) => boolean, to: (target: string, file: string) => boolean): string[] {
  return [...graph].filter(([file]) => from(file)).flatMap(([file, { files }]) => files.filter((t) => to(t, file)).map((t) => `${file} -> ${t}`));
}

const under = (...dirs: string[]) => (path: string) => dirs.some((d) => path.startsWith(`src/${d}/`));
/** The files that wire the gateway together: the CLI, the Config, the gateway and the server. */
const WIRING = ['src/main.ts', 'src/config.ts', 'src/gateway.ts', 'src/server.ts'];
const wiring = (path: string) => WIRING.includes(path);
/** `sources/localnet` of `src/sources/localnet/v3/x.ts`; src/sources/index.ts, the list of sources, is none. */
const sourceOf = (path: string) => /^src\/sources\/([^/]+)\//.exec(path)?.[1];
const surfaceOf = (path: string) => /^src\/surfaces\/([^/]+)\//.exec(path)?.[1];

/** Modules that reach outside the process: what the model must not import. */
const IO = /^(node:)?(fs|fs\/promises|net|http|https|http2|tls|dgram|dns|child_process|worker_threads|cluster)$|^(undici|ws|better-sqlite3|ioredis|fastify|@fastify\/.*|graphql-yoga)$/;

describe('import rules', () => {
  it('no source imports another source (the local chain never upstream mode, nor the reverse)', () => {
    expect(arrows((f) => sourceOf(f) !== undefined, (t, f) => t.startsWith('src/sources/') && sourceOf(t) !== sourceOf(f))).toEqual([]);
  });

  it('no source imports a surface, the pipeline or the wiring', () => {
    expect(arrows(under('sources'), (t) => under('surfaces', 'pipeline')(t) || wiring(t))).toEqual([]);
  });

  it('the pipeline imports no source', () => {
    expect(arrows(under('pipeline'), under('sources'))).toEqual([]);
  });

  it('no surface imports another surface (the GraphQL subscriptions never the streaming routes)', () => {
    expect(arrows((f) => surfaceOf(f) !== undefined, (t, f) => surfaceOf(t) !== undefined && surfaceOf(t) !== surfaceOf(f))).toEqual([]);
  });

  it('the seam imports neither the Config nor the pipeline, a surface or a source', () => {
    expect(arrows(under('api'), (t) => under('pipeline', 'surfaces', 'sources')(t) || wiring(t))).toEqual([]);
  });

  it('engine, remote and live import no source, surface, pipeline or wiring', () => {
    expect(arrows(under('engine', 'remote', 'live'), (t) => under('sources', 'surfaces', 'pipeline')(t) || wiring(t))).toEqual([]);
  });

  it('the model imports only the model and the seam, and nothing that does I/O', () => {
    expect(arrows(under('model'), (t) => !under('model', 'api')(t))).toEqual([]);
    const io = [...graph].filter(([file]) => under('model')(file)).flatMap(([file, { packages }]) => packages.filter((p) => IO.test(p)).map((p) => `${file} -> ${p}`));
    expect(io).toEqual([]);
  });

  it('no import circle reaches across rooms', () => {
    // the seam and the model count as one room: model/stack.ts, message.ts and transaction.ts print the v2 wire
    // types api/v2.ts declares, whose parameters parse with the model
    const roomOf = (path: string) =>
      /^src\/(api|model)\//.test(path) ? 'api+model' : (/^src\/((?:sources|surfaces)\/[^/]+|[^/]+)\//.exec(path)?.[1] ?? path);
    const crossing = circles()
      .filter((files) => new Set(files.map(roomOf)).size > 1)
      .map((files) => files.join(' '));
    expect(crossing).toEqual([]);
  });

  it('answers are read-only to their readers (checked by npm run typecheck)', async () => {
    // The bodies below never run; they are here for the compiler. Each @ts-expect-error fails the typecheck
    // the day an answer becomes writable again.
    const mutateV3 = async (v3: V3Api) => {
      const page = await v3.transactions({ limit: 1, sort: 'desc' } as Parameters<V3Api['transactions']>[0]);
      // @ts-expect-error a shared answer's list cannot grow
      page.transactions.push(page.transactions[0]!);
      // @ts-expect-error nor can a member of a nested object change
      page.transactions[0]!.description.aborted = true;
    };
    const mutateV2 = async (v2: V2Api) => {
      const state = await v2.getAddressInformation({} as Parameters<V2Api['getAddressInformation']>[0]);
      // @ts-expect-error a v2 answer is shared too
      state.balance = '0';
    };
    expect(typeof mutateV3).toBe('function');
    expect(typeof mutateV2).toBe('function');
  });
});

/** The import circles of src/: its strongly connected sets of two or more files (Tarjan). */
function circles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)?.files ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1) found.push(members.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}
