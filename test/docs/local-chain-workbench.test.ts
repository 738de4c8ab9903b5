/**
 * docs/local-chain.md's worked test suite runs as written: its `node --test` file, against a gateway started as the
 * section says (blocks only when mined), passes every test it holds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { startTestGateway } from '../helpers/gateway.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const DOC = readFileSync(join(root, 'docs/local-chain.md'), 'utf8');
const section = DOC.slice(DOC.indexOf('### A test suite against the running chain'));
// a project of its own whose node_modules is the repository's, so the suite's imports resolve as in a dapp's
const dir = mkdtempSync(join(tmpdir(), 'workbench-doc-'));
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
let g: Gateway | undefined;

afterAll(async () => {
  await g?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("local-chain.md's worked test suite", () => {
  it('passes against a chain that mines only when asked', async () => {
    const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
    expect(section).toContain('--no-mining');
    g = await startTestGateway({ noMining: true });
    const file = join(dir, 'workbench.test.mjs');
    writeFileSync(file, code);
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', file], { env: { ...process.env, GATEWAY: g.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c));
    const exit = await new Promise<number | null>((r) => child.on('close', r));
    expect(out, out).toMatch(/# pass 3\n/);
    expect(out).toMatch(/# fail 0\n/);
    expect(exit).toBe(0);
  }, 60_000);
});
