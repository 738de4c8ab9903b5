/**
 * The start-up check of the patched packages (src/observe/patches.ts), run against the code as installed and
 * against the same files with their patch reversed: the original code, as `npm install --ignore-scripts` leaves
 * it, which the check must report, in the log and in /health.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';
import { PATCH_CHECKS, unappliedPatches, type PatchCheck } from '../../src/observe/patches.js';
import { buildServer } from '../../src/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const patchFiles = readdirSync(join(root, 'patches')).filter((f) => f.endsWith('.patch'));
const scratch = mkdtempSync(join(tmpdir(), 'unpatched-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A CommonJS file's exports from `text`, evaluated as if it were the file at `path` (its requires resolve from there). */
function evaluateAt(path: string, text: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const run = compileFunction(text, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: path });
  run(module.exports, createRequire(path), module, path, dirname(path));
  return module.exports;
}

/**
 * The exports of the CommonJS files a patch changes, evaluated from their installed text and from that text with
 * the patch reversed (git apply -R on copies); the ES-module twins of the same change are left out.
 */
function patchedFiles(patch: string): { installed: Record<string, unknown>; original: Record<string, unknown> } {
  const text = readFileSync(join(root, 'patches', patch), 'utf8');
  const paths = [...text.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]!);
  const dir = mkdtempSync(join(scratch, 'p-'));
  for (const p of paths) cpSync(join(root, p), join(dir, p));
  // no repository above the scratch copy: git apply works on the files as plain patch would
  execFileSync('git', ['apply', '-R', join(root, 'patches', patch)], { cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(dir) } });
  const installed: Record<string, unknown> = {};
  const original: Record<string, unknown> = {};
  for (const p of paths) {
    const now = readFileSync(join(root, p), 'utf8');
    if (/^export /m.test(now)) continue;
    Object.assign(installed, evaluateAt(join(root, p), now));
    Object.assign(original, evaluateAt(join(root, p), readFileSync(join(dir, p), 'utf8')));
  }
  return { installed, original };
}

const checksOf = (patch: string): PatchCheck<object>[] => PATCH_CHECKS.filter((c) => c.file === patch);

describe('the patch check', () => {
  it('checks every patch of patches/, and names only those', () => {
    expect(new Set(PATCH_CHECKS.map((c) => c.file))).toEqual(new Set(patchFiles));
  });

  it('finds every patch in effect in this install', () => {
    expect(unappliedPatches()).toEqual([]);
  });

  it.each(patchFiles)('reports %s reversed, the original code, and passes the same files as installed', (patch) => {
    const { installed, original } = patchedFiles(patch);
    for (const c of checksOf(patch)) {
      expect(c.applied(installed)).toBe(true);
      expect(c.applied(original)).toBe(false);
      expect(unappliedPatches([{ ...c, installed: original }])).toEqual([`patches/${patch} is not applied: ${c.unpatched}`]);
    }
  });
});

describe('what the check reports, in the log and /health', () => {
  it('logs the lines once at start and adds them to the body of a healthy /health', async () => {
    const unpatched = patchFiles.flatMap((patch) => {
      const { original } = patchedFiles(patch);
      return unappliedPatches(checksOf(patch).map((c) => ({ ...c, installed: original })));
    });
    expect(unpatched).toHaveLength(PATCH_CHECKS.length);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const deps = { config: loadConfig([], {}) as Config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true };
    const app = await buildServer({ ...deps, unpatched, log: { level: 'warn', stream } });
    const plain = await buildServer(deps);
    try {
      const health = await app.inject({ url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', unpatched });
      const warned = lines.map((l) => JSON.parse(l) as { level: number; unpatched?: string[] }).filter((e) => e.unpatched);
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatchObject({ level: 40, unpatched });
      // patched as installed: the body clients have always had
      expect((await plain.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await plain.close();
    }
  });
});
