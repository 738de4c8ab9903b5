/**
 * What src reads of other packages beyond their public exports (a path under `<package>/dist/`), each held to the
 * version it was read at and to the shape the gateway relies on: an upgrade fails here first, naming what to
 * re-read, rather than somewhere in an emulation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beginCell, Cell } from '@ton/core';
import { parseBoc } from '@ton/core/dist/boc/cell/serialization.js';
import { describe, expect, it } from 'vitest';
import { emulatorWasm, executorOn } from '../src/engine/emulator-wasm.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** Each package whose internals src reads: the version they were read at, and the paths read. */
const READ_AT: Record<string, { version: string; paths: string[] }> = {
  '@ton/core': { version: '0.63.1', paths: ['@ton/core/dist/boc/cell/serialization.js'] },
  '@ton/sandbox': {
    version: '0.41.0',
    paths: ['@ton/sandbox/dist/executor/emulator-emscripten.wasm.js', '@ton/sandbox/dist/executor/emulator-emscripten.js'],
  },
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

describe("other packages' internals read by src", () => {
  it('are all listed here', () => {
    const read = new Set(
      sourceFiles(join(root, 'src')).flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/['"]((?:@[\w.-]+\/)?[\w][\w.-]*\/dist\/[^'"]+)['"]/g)].map((m) => m[1]!)),
    );
    expect(read).toEqual(new Set(Object.values(READ_AT).flatMap((p) => p.paths)));
  });

  it.each(Object.entries(READ_AT))('%s is installed at the version its internals were read at', (name, { version }) => {
    const installed = (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    expect(installed, `${name} changed: re-read what src takes from ${READ_AT[name]!.paths.join(', ')}, then update this version`).toBe(version);
  });

  it("@ton/core's parseBoc answers the header fields and cell bytes raw-boc.ts reads, in each serialisation", () => {
    const leaf = beginCell().storeUint(0xabc, 12).endCell();
    const cell = beginCell().storeUint(7, 8).storeRef(leaf).storeRef(beginCell().storeRef(leaf).endCell()).endCell();
    for (const idx of [false, true]) {
      for (const crc32 of [false, true]) {
        const boc = parseBoc(cell.toBoc({ idx, crc32 }));
        expect(Object.keys(boc).sort()).toEqual(['absent', 'cellData', 'cells', 'index', 'offBytes', 'root', 'roots', 'size', 'totalCellSize']);
        expect(boc).toMatchObject({ size: 1, cells: 3, roots: 1, root: [0] });
        expect(Buffer.isBuffer(boc.cellData) && boc.cellData.length === boc.totalCellSize).toBe(true);
        // the root's descriptor bytes first: two references, 8 data bits
        expect([...boc.cellData.subarray(0, 3)]).toEqual([2, 2, 7]);
      }
    }
    expect(Cell.fromBoc(cell.toBoc())[0]!.equals(cell)).toBe(true);
  });

  it("@ton/sandbox's emulator module text and emscripten glue make an executor (emulator-wasm.ts)", async () => {
    const [text, glue] = READ_AT['@ton/sandbox']!.paths;
    expect(typeof (require(text!) as { EmulatorEmscriptenWasm: unknown }).EmulatorEmscriptenWasm).toBe('string');
    expect(typeof require(glue!)).toBe('function');
    const executor = await executorOn(await emulatorWasm());
    expect(executor.getVersion()).toMatchObject({ commitHash: expect.any(String), commitDate: expect.any(String) });
  });
});
