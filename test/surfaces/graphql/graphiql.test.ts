/**
 * GraphiQL in headless Chromium (Debian's package) with every request off the gateway refused: the bundled
 * page loads without a CDN and runs its default query, from the masterchain down to account balances, under the
 * page's security headers (its inline script allowed by hash, nothing else inline) with no CSP violation reported.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChain } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { registerSecurityHeaders } from '../../../src/pipeline/security-headers.js';
import { cspViolations, expectPageHeaders } from '../../helpers/page-security.js';
import { startServer, type TestServer } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`GraphiQL test skipped: ${CHROMIUM} not found (install Debian's chromium package: apt-get install -y chromium)`);
}

describe.skipIf(!haveChromium)('GraphiQL offline in headless Chromium', () => {
  let chain: LocalChain;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'graphql-graphiql-test', blockInterval: 0 });
    server = await startServer({ v2: chain.v2, v3: localV3Api(chain) }, registerSecurityHeaders);
    // the last block then holds a transfer, so the default query reaches account balances
    await chain.faucet(chain.keyedWallets()[0]!.contract.address, 1_000_000_000n);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await chain?.close();
  });

  it('loads with no network and runs the default query', async () => {
    const context = await browser.newContext();
    const refused: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url)) return route.continue();
      refused.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const violations = cspViolations(page);

    expectPageHeaders((await page.goto(`${server.url}/graphql`, { waitUntil: 'load' }))!.headers());
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ state: 'visible', timeout: 30_000 });
    // the editor holds the default query once the schema has been introspected
    await page.locator('.graphiql-query-editor').getByText('masterchainInfo').first().waitFor({ timeout: 30_000 });
    // the panel renders only the lines in view, so the answer itself is read off the wire
    const answer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/graphql`) && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('Explore'));
    await run.click();
    const body = (await (await answer).json()) as {
      errors?: unknown;
      data: { transactions: { nodes: { account: { balance: string }; inMessage: { source: { balance: string } | null } | null }[] } };
    };
    expect(body.errors).toBeUndefined();
    expect(body.data.transactions.nodes.length).toBeGreaterThan(0);
    for (const n of body.data.transactions.nodes) expect(BigInt(n.account.balance)).toBeGreaterThanOrEqual(0n);
    const response = page.locator('.graphiql-response');
    await expect.poll(async () => response.innerText(), { timeout: 30_000 }).toContain('"transactions"');

    const text = await response.innerText();
    expect(text).toContain('"masterchainInfo"');
    expect(text).not.toContain('"errors"');
    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);
});
