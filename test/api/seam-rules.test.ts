/**
 * Rules of the seam that live in types and imports, not in comments: answers a source hands out are read-only
 * to everyone downstream, and a source depends on the seam and the model, never on the request pipeline or a
 * surface.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file, resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => relative(root, resolve(dirname(file), s)));
}

describe('seam rules', () => {
  it('no source imports from the pipeline or a surface', () => {
    const offending = tsFiles(join(root, 'src/sources')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/pipeline/') || target.startsWith('src/surfaces/'))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('the seam itself imports neither', () => {
    const offending = tsFiles(join(root, 'src/api')).flatMap((file) =>
      importsOf(file)
        .filter((target) => /^src\/(pipeline|surfaces|sources)\//.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
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
