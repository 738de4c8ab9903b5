/**
 * GET /docs in headless Chromium (Debian's package) with every request off the gateway refused: Swagger UI,
 * served from swagger-ui-dist, loads without a CDN and lists the routes of both generated documents. Every HTML
 * page (the docs, GraphiQL, any page added later) carries its security headers; the docs still work under their
 * Content-Security-Policy with no violation reported (GraphiQL's run is test/surfaces/graphql/graphiql.test.ts),
 * and neither page can be framed.
 */
import { existsSync } from 'node:fs';
import Fastify from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { buildServer } from '../../src/server.js';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';
import { V2_ENDPOINTS } from '../../src/api/v2.js';
import { V3_DESCRIPTORS } from '../../src/api/v3/index.js';
import { servedRoutes } from '../../src/api/v3/branch.js';
import { inlineHash, registerSecurityHeaders } from '../../src/pipeline/security-headers.js';
import { cspViolations, expectPageHeaders } from '../helpers/page-security.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`API docs browser test skipped: ${CHROMIUM} not found (install Debian's chromium package: apt-get install -y chromium)`);
}

describe('GET /docs over HTTP', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // the page and the documents need no data source
    app = await buildServer({ config: loadConfig([], {}) as Config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true });
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

  it('the docs and GraphiQL carry the security headers, each with the policy its own scripts need', async () => {
    const docs = await app.inject({ method: 'GET', url: '/docs' });
    const policy = expectPageHeaders(docs.headers);
    // Swagger UI's one inline style (its logo's) by hash, nothing inline otherwise
    expect(policy.get('style-src')).toMatch(/^'self' 'sha256-[\w+/=]+'$/);
    for (const file of ['/docs/static/swagger-ui-bundle.js', '/docs/static/init.js', '/docs/static/swagger-ui.css']) {
      expect((await app.inject({ method: 'GET', url: file })).headers['x-content-type-options'], file).toBe('nosniff');
    }
    const graphiql = await app.inject({ method: 'GET', url: '/graphql', headers: { accept: 'text/html' } });
    expect(graphiql.statusCode).toBe(200);
    expect(graphiql.headers['content-type']).toMatch(/^text\/html/);
    // the page's inline script runs by its hash; no other inline script would
    const inline = [...graphiql.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => inlineHash(m[1]!));
    expect(inline.length).toBeGreaterThan(0);
    expect(expectPageHeaders(graphiql.headers).get('script-src')).toBe(`'self' ${inline.join(' ')}`);
    // answers that are not pages are left as they were
    const json = await app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
    expect(json.headers['content-security-policy']).toBeUndefined();
    expect(json.headers['x-frame-options']).toBeUndefined();
  });

  it('a page added later gets the headers from the shared stage, and no route can allow framing', async () => {
    const bare = Fastify({ logger: false });
    registerSecurityHeaders(bare);
    bare.get('/new', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><p>a new page</p>'));
    bare.get('/framed', async (_req, reply) =>
      reply.type('text/html').header('content-security-policy', "default-src 'self'; frame-ancestors *").send('<p>framed</p>'),
    );
    bare.get('/data', async () => ({ ok: true }));
    try {
      const page = await bare.inject({ method: 'GET', url: '/new' });
      expect(expectPageHeaders(page.headers).get('default-src')).toBe("'self'");
      const framed = await bare.inject({ method: 'GET', url: '/framed' });
      expect(framed.headers['content-security-policy']).toBe("default-src 'self'; frame-ancestors 'none'");
      expect(framed.headers['x-frame-options']).toBe('DENY');
      const data = await bare.inject({ method: 'GET', url: '/data' });
      expect(data.json()).toEqual({ ok: true });
      expect(data.headers['content-security-policy']).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});

describe.skipIf(!haveChromium)('GET /docs in headless Chromium, offline', () => {
  let app: FastifyInstance;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    app = await buildServer({ config: loadConfig([], {}) as Config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true });
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

  /**
   * Opens a page of the gateway in a fresh context with every request off the gateway refused, checks its security
   * headers, and gives a check for the end: nothing refused, no script error, no CSP violation.
   */
  async function openOffline(path: string): Promise<{ page: Page; clean: () => Promise<void> }> {
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
    const violations = cspViolations(page);
    expectPageHeaders((await page.goto(`${url}${path}`))!.headers());
    const clean = async () => {
      expect(refused).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(violations).toEqual([]);
      await context.close();
    };
    return { page, clean };
  }

  it('renders the v2 route list, switches to v3, and asks nothing of any other host', async () => {
    const { page, clean } = await openOffline('/docs');
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
    // every route of toncenter's main line (branch-only routes are served with V3_BRANCH_FEATURES only)
    for (const r of servedRoutes(V3_DESCRIPTORS, [])) expect(v3Paths.has(`/api/v3${r.path}`), r.path).toBe(true);

    // an operation opens with an example answer built from its response schema in the components
    await page.locator('.opblock-summary-path[data-path="/api/v3/transactions"]').first().click();
    const example = page.locator('.opblock.is-open .responses-table .example').first();
    await example.waitFor({ timeout: 30_000 });
    expect(await example.textContent()).toMatch(/"transactions"[\s\S]*"finality"/);

    await clean();
  });

  it('neither page can be framed by another page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations = cspViolations(page);
    await page.setContent(`<iframe src="${url}/docs"></iframe><iframe src="${url}/graphql"></iframe>`);
    await expect.poll(() => violations.filter((v) => v.includes('frame-ancestors')).length, { timeout: 30_000 }).toBe(2);
    for (const frame of page.frames().slice(1)) expect(await frame.locator('#swagger-ui, #root').count()).toBe(0);
    await context.close();
  });
});
