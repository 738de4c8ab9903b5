/**
 * GET /docs in headless Chromium (Debian's package) with every request off the gateway refused: Swagger UI,
 * served from swagger-ui-dist, loads without a CDN and lists the routes of both generated documents.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { buildServer } from '../../src/server.js';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';
import { V2_ENDPOINTS } from '../../src/api/v2.js';
import { V3_DESCRIPTORS } from '../../src/api/v3/index.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`API docs browser test skipped: ${CHROMIUM} not found (install Debian's chromium package: apt-get install -y chromium)`);
}

describe('GET /docs over HTTP', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // the page and the documents need no data source
    app = await buildServer({ config: loadConfig([], {}) as Config, v2: {} as V2Api, v3: {} as V3Api, isReady: () => true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the page and the swagger-ui-dist files it names, and nothing else of the package', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(4);
    for (const ref of refs) {
      expect(ref.startsWith('/docs/static/'), ref).toBe(true);
      const res = await app.inject({ method: 'GET', url: ref });
      expect(res.statusCode, ref).toBe(200);
      expect(res.rawPayload.length, ref).toBeGreaterThan(100);
    }
    const init = (await app.inject({ method: 'GET', url: '/docs/static/init.js' })).body;
    expect(init).toContain('/api/v2/openapi.json');
    expect(init).toContain('/api/v3/openapi.json');
    for (const bad of ['/docs/static/package.json', '/docs/static/..%2fpackage.json', '/docs/static/index.js']) {
      const res = await app.inject({ method: 'GET', url: bad });
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ code: 404, error: 'Not Found' });
    }
  });
});

describe.skipIf(!haveChromium)('GET /docs in headless Chromium, offline', () => {
  let app: FastifyInstance;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    app = await buildServer({ config: loadConfig([], {}) as Config, v2: {} as V2Api, v3: {} as V3Api, isReady: () => true });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the v2 route list, switches to v3, and asks nothing of any other host', async () => {
    const context = await browser.newContext();
    const refused: string[] = [];
    await context.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith(url)) return route.continue();
      refused.push(target);
      return route.abort();
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    await page.goto(`${url}/docs`);
    // the first document of the list is v2: one operation block per path and method
    await page.locator('.opblock-summary-path', { hasText: '/api/v2/getAddressInformation' }).first().waitFor({ timeout: 60_000 });
    const v2Paths = new Set(await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))));
    for (const e of V2_ENDPOINTS) expect(v2Paths.has(`/api/v2/${e.name}`), e.name).toBe(true);
    expect(v2Paths.has('/api/v2/jsonRPC')).toBe(true);
    await expect(page.locator('.info .title').first().textContent()).resolves.toContain('toncenter API v2');

    // the top bar's definition selector loads the v3 document
    await page.locator('.topbar select').selectOption({ label: 'toncenter Indexer API v3' });
    await page.locator('.opblock-summary-path', { hasText: '/api/v3/transactions' }).first().waitFor({ timeout: 60_000 });
    const v3Paths = new Set(await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))));
    for (const r of V3_DESCRIPTORS) expect(v3Paths.has(`/api/v3${r.path}`), r.path).toBe(true);

    // an operation opens with an example answer built from its response schema in the components
    await page.locator('.opblock-summary-path[data-path="/api/v3/transactions"]').first().click();
    const example = page.locator('.opblock.is-open .responses-table .example').first();
    await example.waitFor({ timeout: 30_000 });
    expect(await example.textContent()).toMatch(/"transactions"[\s\S]*"finality"/);

    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
