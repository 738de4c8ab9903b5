/**
 * The local chain's sources mirror the seam file by file: every seam file declaring routes (src/api/v3/<resource>.ts,
 * src/api/v2/<group>.ts) has its twin of the same name under src/sources/localnet/v3/ or v2/, whose one exported
 * factory answers exactly the routes that file declares (read at run time: the descriptors' `api` names against the
 * keys of the object the twin builds), and every other file there is a shared helper (v3-*.ts, v2-*.ts) or the
 * composition (index.ts), which answers every route of the seam exactly once.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Descriptor } from '../../../src/api/descriptor.js';
import { V2_ENDPOINTS } from '../../../src/api/v2.js';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { Chain } from '../../../src/sources/localnet/chain/chain.js';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { LocalV3Context } from '../../../src/sources/localnet/v3/v3-context.js';
import { localV2Api } from '../../../src/sources/localnet/v2/index.js';
import { LocalV2Context } from '../../../src/sources/localnet/v2/v2-context.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';

const SRC = new URL('../../../src/', import.meta.url);

const isDescriptor = (x: unknown): x is Descriptor<never> =>
  typeof x === 'object' && x !== null && typeof (x as { api?: unknown }).api === 'string' && typeof (x as { path?: unknown }).path === 'string';

/** The seam methods a module's exported descriptor lists name (empty for a file without routes). */
function routesOf(mod: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const v of Object.values(mod)) if (Array.isArray(v) && v.length > 0 && v.every(isDescriptor)) out.push(...v.map((d) => d.api));
  return [...new Set(out)].sort();
}

const tsFiles = (dir: string): string[] => readdirSync(fileURLToPath(new URL(dir, SRC))).filter((f) => f.endsWith('.ts')).sort();

/** Checks one seam folder against its twin folder; `build` runs a twin's factory. */
function mirrors(seamDir: string, twinDir: string, sharedPrefix: string, build: (factory: (arg: unknown) => object) => object): void {
  const seamFiles = tsFiles(seamDir);

  it(`every ${seamDir} file with routes has its twin in ${twinDir}, answering exactly those routes`, async () => {
    let withRoutes = 0;
    for (const file of seamFiles) {
      const routes = routesOf(await import(new URL(seamDir + file, SRC).href));
      if (routes.length === 0) continue;
      withRoutes++;
      expect(tsFiles(twinDir), `${twinDir}${file} missing`).toContain(file);
      const twin = (await import(new URL(twinDir + file, SRC).href)) as Record<string, unknown>;
      const factories = Object.values(twin).filter((v): v is (arg: unknown) => object => typeof v === 'function');
      expect(factories, `${twinDir}${file} exports one factory`).toHaveLength(1);
      expect(Object.keys(build(factories[0]!)).sort(), `${twinDir}${file} answers ${seamDir}${file}'s routes`).toEqual(routes);
    }
    expect(withRoutes).toBeGreaterThan(0);
  });

  it(`every other file in ${twinDir} is a shared helper (${sharedPrefix}*.ts) or the composition`, () => {
    const seamed = new Set(seamFiles);
    const others = tsFiles(twinDir).filter((f) => !seamed.has(f) && f !== 'index.ts');
    expect(others.filter((f) => !f.startsWith(sharedPrefix))).toEqual([]);
  });
}

let chain: LocalChain;

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'mirror-test', blockInterval: 0 });
});

afterAll(async () => {
  await chain?.close();
});

describe('v3: src/sources/localnet/v3 mirrors src/api/v3', () => {
  mirrors('api/v3/', 'sources/localnet/v3/', 'v3-', (factory) => factory(new LocalV3Context(chain)));

  it('the composed object answers every v3 route, each from one resource', () => {
    const api = localV3Api(chain);
    const routes = [...new Set(V3_DESCRIPTORS.map((d) => d.api))].sort();
    expect(Object.keys(api).sort()).toEqual(routes);
    for (const name of routes) expect(typeof (api as unknown as Record<string, unknown>)[name]).toBe('function');
  });
});

describe('v2: src/sources/localnet/v2 mirrors src/api/v2', () => {
  let v2chain: Chain;
  beforeAll(async () => {
    v2chain = await Chain.create('mirror-test-v2', 0);
  });
  afterAll(async () => {
    await v2chain?.close();
  });

  mirrors('api/v2/', 'sources/localnet/v2/', 'v2-', (factory) => factory(new LocalV2Context(v2chain)));

  it('the composed object answers every v2 endpoint, each from one group', () => {
    const api = localV2Api(v2chain);
    const routes = [...new Set(V2_ENDPOINTS.map((d) => d.api))].sort();
    expect(Object.keys(api).sort()).toEqual(routes);
    for (const name of routes) expect(typeof (api as unknown as Record<string, unknown>)[name]).toBe('function');
  });
});
