/**
 * The explorer at /explorer in headless Chromium (Debian's package), over the whole gateway on a local chain,
 * with every request that does not go to the gateway on loopback refused and recorded: live blocks on the home
 * page, a genesis wallet's page and its live transactions, a genesis jetton transfer's trace, a block, bad
 * searches, a jetton that passes itself off as Toncoin with hidden characters in its name, a 30,000-character
 * comment, (in upstream mode) an upstream that is down or rate limiting, and recorded mainnet traces. The page
 * carries its security headers and reports no CSP violation. With
 * EXPLORER_SCREENSHOTS=1 (`npm run screenshots`) the four pages are written to docs/screenshots/.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, SendMode, contractAddress, internal, toNano, type MessageRelaxed } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { TonClient, WalletContractV4 } from '@ton/ton';
import Fastify from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenesisWallet } from '../../../src/api/localnet.js';
import { buildExplorer, type ExplorerBuild } from '../../../src/surfaces/explorer/build.js';
import { registerExplorerRoutes } from '../../../src/surfaces/explorer/routes.js';
import { codePoint, imitatesToncoin, visible } from '../../../src/surfaces/explorer/app/onchain-text.js';
import { jettonMinterInit, mintBody, onchainContent } from '../../../src/sources/localnet/chain/contracts/index.js';
import { registerSecurityHeaders } from '../../../src/pipeline/security-headers.js';
import type { Gateway } from '../../../src/gateway.js';
import { fetchWallets, startTestGateway, waitFor } from '../../helpers/gateway.js';
import { cspViolations, expectPageHeaders } from '../../helpers/page-security.js';
import { CorpusIndex, loadCorpus } from '../../real/corpus.js';
import { withoutShared } from '../../helpers/shared.js';
import { FakeToncenter } from '../../real/fake-toncenter.js';
import { freePort, startUpstreamGateway } from '../../sources/upstream/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`Explorer browser test skipped: ${CHROMIUM} not found (install Debian's chromium package: apt-get install -y chromium)`);
}
const noShared = withoutShared('the explorer over recorded mainnet traces');
const SCREENSHOTS = process.env.EXPLORER_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url)) : null;

let built: ExplorerBuild;

beforeAll(async () => {
  // the test builds the assets itself, with the function `npm run build` runs: no build step before `npm test`
  built = await buildExplorer();
}, 60_000);

describe('on-chain text rules', () => {
  it('writes bidirectional, zero-width and control characters as their code points, and nothing else', () => {
    expect(visible('abc\u202Edef')).toBe('abc⟨U+202E⟩def');
    const hidden = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u0000', '\u001B'];
    for (const c of hidden) expect(visible(`a${c}b`), codePoint(c)).toBe(`a⟨${codePoint(c)}⟩b`);
    // letters of any script (a right-to-left one included), emoji, tab and newline are text
    for (const text of ['Ёлка 🎄', 'تون کوین', 'a\tb\nc', 'Local Gateway Coin']) expect(visible(text)).toBe(text);
  });

  it('marks jettons whose symbol reads as TON, TONCOIN or GRAM, or whose name contains Toncoin', () => {
    const fakes = ['TON', 'ton', 'T O N', '$TON', 'T.O.N', '\u0422\u041EN', 'T\u200BON', '\uFF34\uFF2F\uFF2E', 'T\u00D3N', 't0n', '\u{1D413}\u{1D40E}\u{1D40D}', 'Toncoin', 'GRAM', 'gr\u0430m', 'TONCO1N'];
    for (const symbol of fakes) expect(imitatesToncoin({ symbol, name: 'x' }), symbol).toBe(true);
    for (const name of ['Toncoin', 'Wrapped Toncoin', 'T o n c o i n', 'Free \u0422oncoin airdrop']) expect(imitatesToncoin({ symbol: 'X', name }), name).toBe(true);
    for (const symbol of ['LGC', 'USDT', 'STON', 'wTON', 'pTON', 'TONY', 'GRAMS', 'NOT']) expect(imitatesToncoin({ symbol, name: 'Some coin' }), symbol).toBe(false);
    expect(imitatesToncoin({ symbol: null, name: null })).toBe(false);
    expect(imitatesToncoin(null)).toBe(false);
  });
});

describe('GET /explorer over HTTP', () => {
  it('serves the page and its hashed bundles with a same-origin-only policy, and nothing else', async () => {
    const app = Fastify({ logger: false });
    registerSecurityHeaders(app);
    registerExplorerRoutes(app);
    try {
      const page = await app.inject({ method: 'GET', url: '/explorer' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const policy = expectPageHeaders(page.headers);
      expect(policy.get('default-src')).toBe("'self'");
      expect(policy.get('style-src')).toBe("'self'");
      const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(refs).toHaveLength(2);
      for (const ref of refs) {
        expect(ref).toMatch(/^\/explorer\/static\/app-[A-Z0-9]+\.(js|css)$/);
        const res = await app.inject({ method: 'GET', url: ref });
        expect(res.statusCode, ref).toBe(200);
        expect(res.headers['cache-control']).toContain('immutable');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.rawPayload.length).toBe(built.files.find((f) => ref.endsWith(f.name))!.bytes);
      }
      for (const bad of ['/explorer/static/index.html', '/explorer/static/..%2f..%2fpackage.json', '/explorer/static/.js', '/explorer/static/app-NOPE.js']) {
        const res = await app.inject({ method: 'GET', url: bad });
        expect(res.statusCode, bad).toBe(404);
        expect(res.json()).toEqual({ code: 404, error: 'Not Found' });
      }
    } finally {
      await app.close();
    }
  });

  it('says the page is not built instead of failing when the assets are missing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'explorer-'));
    const app = Fastify({ logger: false });
    registerExplorerRoutes(app, empty);
    try {
      const res = await app.inject({ method: 'GET', url: '/explorer' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toContain('npm run build');
    } finally {
      await app.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!haveChromium)('the explorer in headless Chromium, offline', () => {
  let gateway: Gateway;
  let browser: Browser;
  let context: BrowserContext;
  let wallets: GenesisWallet[];
  const refused: string[] = [];
  const seen: string[] = [];
  const pageErrors: string[] = [];
  const violations: string[][] = [];

  beforeAll(async () => {
    gateway = await startTestGateway();
    expect(new URL(gateway.url).hostname).toBe('127.0.0.1');
    wallets = await fetchWallets(gateway.url);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      seen.push(url);
      if (url.startsWith(`${gateway.url}/`)) return route.continue();
      refused.push(url);
      return route.abort();
    });
    if (SCREENSHOTS) await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  async function open(hash = ''): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    violations.push(cspViolations(page));
    expectPageHeaders((await page.goto(`${gateway.url}/explorer${hash}`, { waitUntil: 'load' }))!.headers());
    return page;
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const png = await page.screenshot({ fullPage: true, ...(SCREENSHOTS ? { path: join(SCREENSHOTS, `${name}.png`) } : {}) });
    expect(png.length).toBeGreaterThan(10_000);
  }

  async function search(page: Page, text: string): Promise<void> {
    await page.getByRole('searchbox').or(page.getByLabel('Search')).first().fill(text);
    await page.getByRole('button', { name: 'Search' }).click();
  }

  const wallet = (name: string) => wallets.find((w) => w.name === name)!;

  it('home: the latest masterchain blocks, with new ones arriving through the subscription', async () => {
    const page = await open();
    const rows = page.locator('table.blocks tbody tr');
    await rows.first().waitFor({ timeout: 30_000 });
    const before = Math.max(...(await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-seqno'))))));
    // blocks are sealed per transfer here; keep sending until the subscription has delivered one
    const arrived = page.locator('table.blocks tbody tr.arrived');
    // to an account of no genesis wallet, so their pages stay as genesis left them
    const faucetTo = Address.parse(`0:${'77'.repeat(32)}`);
    for (let i = 0; i < 40 && (await arrived.count()) === 0; i++) {
      await gateway.chain!.faucet(faucetTo, 1_000_000n);
      await page.waitForTimeout(250);
    }
    await arrived.first().waitFor({ timeout: 10_000 });
    const newest = Number(await arrived.first().getAttribute('data-seqno'));
    expect(newest).toBeGreaterThan(before);
    // a block that holds the faucet's transfer commits a basechain block with its transactions
    await expect.poll(() => page.locator('table.blocks').innerText()).toMatch(/0:8000…:\d+ \(\d+ tx\)/);
    await expect.poll(() => page.locator('.live').first().innerText()).toBe('live');
    await screenshot(page, 'home');
    await page.close();
  });

  it('search for a genesis wallet opens its page with its LGC balance and NFT', async () => {
    const page = await open();
    // the user-friendly non-bounceable form, as a wallet app shows it
    await search(page, Address.parse(wallet('carol').address).toString({ bounceable: false }));
    await page.waitForURL(/#\/account\//, { timeout: 30_000 });
    const main = page.locator('main');
    // genesis: alice sends carol 1,500 LGC, and carol puts her NFT item 2 of "Local Gateway Art" up for auction
    await expect.poll(() => main.innerText(), { timeout: 30_000 }).toContain('1,500 LGC');
    await expect(main.locator('.nft').first().innerText()).resolves.toContain('Local Gateway Art');
    expect(await main.locator('.nft').count()).toBe(1);
    expect(await main.locator('.nft').first().innerText()).toMatch(/on sale\s+yes/);
    expect(await main.innerText()).toMatch(/wallet\s+wallet v5 r1/);
    const lgc = main.locator('.jettons .amount', { hasText: 'LGC' }).first();
    expect(await lgc.getAttribute('title')).toMatch(/^1500000000000 /);
    await expect.poll(() => main.locator('table.list tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // her actions: the transfer she received, in words
    await expect.poll(() => main.locator('ul.actions').innerText(), { timeout: 30_000 }).toMatch(/sent 1,500 LGC to/);
    await screenshot(page, 'account');
    await page.close();
  });

  it("a genesis jetton transfer's trace page draws the tree and names the action", async () => {
    const carol = wallet('carol');
    const res = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query($o: Address!) { jettonTransfers(owner: $o, direction: in, first: 5) { nodes { amount traceId } } }`, variables: { o: carol.address } }),
    });
    const body = (await res.json()) as { data: { jettonTransfers: { nodes: { amount: string; traceId: string }[] } } };
    const transfer = body.data.jettonTransfers.nodes.find((n) => n.amount === '1500000000000')!;
    expect(transfer?.traceId).toBeTruthy();
    const page = await open();
    // the trace id as hex: the search takes either form
    await search(page, Buffer.from(transfer.traceId, 'base64').toString('hex'));
    await page.waitForURL(/#\/tx\//, { timeout: 30_000 });
    const tree = page.locator('svg.trace-tree');
    await tree.waitFor({ timeout: 30_000 });
    // alice's wallet -> her jetton wallet -> carol's jetton wallet -> carol (notification) and alice (excess)
    expect(await tree.locator('a.node').count()).toBeGreaterThanOrEqual(4);
    const edges = await tree.locator('.edge text').allTextContents();
    expect(edges.join('\n')).toMatch(/jetton_transfer|0x0f8a7ea5/);
    expect(edges.join('\n')).toMatch(/internal_transfer|0x178d4519/);
    const actions = page.locator('ul.actions');
    await expect.poll(() => actions.innerText(), { timeout: 30_000 }).toMatch(/jetton_transfer[\s\S]*sent 1,500 LGC to/);
    await screenshot(page, 'trace');
    // an out-message's hash (base64) opens the transaction that received it: the next one down the tree
    const url = page.url();
    const outMessage = await page.locator('.message').nth(1).locator('.hash span').first().getAttribute('title');
    await search(page, outMessage!);
    await expect.poll(() => page.url(), { timeout: 30_000 }).not.toBe(url);
    await expect.poll(() => page.locator('.message').first().locator('.hash span').first().getAttribute('title'), { timeout: 30_000 }).toBe(outMessage);
    expect(await page.locator('.error').count()).toBe(0);
    await page.close();
  });

  it('block: header, shard blocks and transactions', async () => {
    const page = await open();
    // the shard as a signed decimal, as some tools print it
    await search(page, '-1:-9223372036854775808:1');
    await page.waitForURL(/#\/block\/-1:8000000000000000:1$/, { timeout: 30_000 });
    const main = page.locator('main');
    await expect.poll(() => main.innerText(), { timeout: 30_000 }).toContain('Block -1:8000000000000000:1');
    await expect.poll(() => main.innerText()).toContain('Shard blocks');
    await page.locator('main a', { hasText: /^0:8000000000000000:\d+$/ }).first().click();
    await expect.poll(() => main.innerText(), { timeout: 30_000 }).toMatch(/Block 0:8000000000000000:\d+/);
    await expect.poll(() => main.locator('table.list tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await screenshot(page, 'block');
    await page.close();
  });

  it("an account's actions page by cursor, older and back", async () => {
    // genesis gives alice 17 actions (3 of them from the DNS auction she opens and is outbid in): a page of 10, then 7
    const page = await open(`#/account/${encodeURIComponent(wallet('alice').address)}`);
    const items = page.locator('ul.actions > li');
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(10);
    const newest = await items.first().innerText();
    const pager = page.getByRole('group', { name: 'action pages', exact: true });
    expect(await pager.getByRole('button', { name: /newer/ }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: /older/ }).click();
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(7);
    expect(await items.first().innerText()).not.toBe(newest);
    expect(await pager.getByRole('button', { name: /older/ }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: /newer/ }).click();
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(10);
    expect(await items.first().innerText()).toBe(newest);
    await page.close();
  });

  it("an account's page takes its new transactions from the subscription", async () => {
    const dave = wallet('dave');
    const page = await open(`#/account/${encodeURIComponent(dave.address)}`);
    const main = page.locator('main');
    const rows = main.locator('table.list').last().locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.live').first().innerText()).toBe('live');
    const before = await rows.count();
    const balanceBefore = await main.locator('.fields .amount').first().getAttribute('title');
    // until the subscription is open a transfer is only seen by a reload, so send until one arrives live
    for (let i = 0; i < 40 && (await rows.count()) === before; i++) {
      await gateway.chain!.faucet(Address.parse(dave.address), 3_000_000_000n);
      await page.waitForTimeout(250);
    }
    expect(await rows.count()).toBeGreaterThan(before);
    expect(await rows.first().innerText()).toContain('3 TON');
    await expect.poll(() => main.locator('.fields .amount').first().getAttribute('title')).not.toBe(balanceBefore);
    await page.close();
  });

  it('bad searches and unknown pages show a message, never a blank page', async () => {
    const page = await open();
    const error = page.locator('.error').first();
    await search(page, 'hello');
    await expect.poll(() => error.innerText()).toContain('is not an address');
    // the shape of a user-friendly address with a broken checksum: the gateway refuses it and says so
    const good = Address.parse(wallet('alice').address).toString();
    const broken = good.slice(0, -4) + (good.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await search(page, broken);
    await expect.poll(() => error.innerText()).toContain('refused');
    await search(page, 'ab'.repeat(32));
    await expect.poll(() => error.innerText()).toContain('No transaction, message or trace');
    const go = (hash: string) => page.evaluate((h) => void (location.hash = h), hash);
    await go(`#/tx/${'cd'.repeat(32)}`);
    await expect.poll(() => page.locator('.error').first().innerText()).toContain('No transaction with hash');
    await go('#/nowhere');
    await expect.poll(() => page.locator('.error').first().innerText()).toContain('There is no page');
    await page.close();
  });

  /** Signs and sends one transfer from bob's genesis wallet (v4) through JSON-RPC, and waits until it is taken. */
  async function sendFromBob(messages: MessageRelaxed[]): Promise<void> {
    const key = await mnemonicToPrivateKey(wallet('bob').mnemonic);
    const client = new TonClient({ endpoint: `${gateway.url}/api/v2/jsonRPC` });
    const bob = client.open(WalletContractV4.create({ workchain: 0, publicKey: key.publicKey }));
    const seqno = await bob.getSeqno();
    // fees paid on top of the value: a 30,000-byte comment costs more to forward than the 0.01 TON it carries
    await bob.sendTransfer({ seqno, secretKey: key.secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
    await waitFor(async () => ((await bob.getSeqno()) > seqno ? true : undefined), 20_000, 100);
  }

  /** How wide the page's content is against its window: equal unless something overflows sideways. */
  const widths = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));

  it('a jetton dressed as Toncoin is marked with its master, and the hidden characters of its name are shown', async () => {
    const owner = Address.parse(wallet('bob').address);
    // a Cyrillic Т and О with a zero-width space between: reads "TON"; the name turns itself around with U+202E
    const symbol = '\u0422\u200B\u041EN';
    const name = 'Toncoin \u202Eniocnot\u202C official';
    const init = jettonMinterInit({ admin: owner, content: onchainContent({ name, symbol, decimals: '9', description: 'not what it says' }) });
    const master = contractAddress(0, init);
    await sendFromBob([
      internal({
        to: master,
        value: toNano('0.25'),
        bounce: false,
        init,
        body: mintBody({ to: owner, tonAmount: toNano('0.1'), jettonAmount: 5n * 10n ** 9n, responseAddress: owner }),
      }),
    ]);
    const page = await open(`#/account/${encodeURIComponent(wallet('bob').address)}`);
    const row = page.locator('table.jettons tbody tr', { hasText: 'not Toncoin' });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    const text = await row.innerText();
    // the controls are written out, never applied: the text reads in the order it was stored
    expect(text).toContain('Toncoin ⟨U+202E⟩niocnot⟨U+202C⟩ official');
    expect(text).toContain('5 Т⟨U+200B⟩ОN');
    expect(text).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/);
    // the master's address is in the row, linking to its page
    const hrefs = await row.locator('a').evaluateAll((as) => as.map((a) => decodeURIComponent(a.getAttribute('href') ?? '').toLowerCase()));
    expect(hrefs).toContain(`#/account/${master.toRawString()}`);
    // the mint in bob's actions carries the mark too, beside the symbol it shows
    await expect.poll(() => page.locator('ul.actions > li', { hasText: 'jetton_mint' }).first().innerText(), { timeout: 30_000 }).toMatch(/5 Т⟨U\+200B⟩ОN\s*not Toncoin\s*jetton/);
    // genesis's own jetton is not marked
    expect(await page.locator('table.jettons tbody tr', { hasText: 'LGC' }).innerText()).not.toContain('not Toncoin');
    await page.close();
  });

  it('a 30,000-character comment keeps the page within the window, and its whole text is a click away', async () => {
    const comment = `${'w'.repeat(29_991)}[the end]`;
    expect(comment).toHaveLength(30_000);
    await sendFromBob([internal({ to: Address.parse(wallet('carol').address), value: toNano('0.01'), bounce: false, body: comment })]);
    const page = await open(`#/account/${encodeURIComponent(wallet('bob').address)}`);
    const sentence = page.locator('ul.actions > li', { hasText: 'with comment' }).first();
    await sentence.waitFor({ timeout: 30_000 });
    const shown = sentence.locator('.onchain').last();
    expect((await shown.innerText()).length).toBeLessThan(400);
    let w = await widths(page);
    expect(w.scroll).toBeLessThanOrEqual(w.view);
    await shown.getByRole('button', { name: /show all 30,000 characters/ }).click();
    await expect.poll(() => shown.innerText()).toContain(comment);
    w = await widths(page);
    expect(w.scroll).toBeLessThanOrEqual(w.view);

    // the transaction: its message's comment field, and the decoded body, stay within the window too
    await page.locator('table.list').last().locator('tbody tr').first().locator('a').first().click();
    await page.waitForURL(/#\/tx\//, { timeout: 30_000 });
    const field = page.locator('.message .fields td .onchain').first();
    await field.waitFor({ timeout: 30_000 });
    w = await widths(page);
    expect(w.scroll).toBeLessThanOrEqual(w.view);
    await field.getByRole('button', { name: /show all 30,000 characters/ }).click();
    await expect.poll(() => field.innerText()).toContain(comment);
    w = await widths(page);
    expect(w.scroll).toBeLessThanOrEqual(w.view);
    await page.close();
  });

  it('made no request off the gateway and threw no script error', () => {
    expect(seen.length).toBeGreaterThan(10);
    expect(refused).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(violations.flat()).toEqual([]);
  });
});

describe.skipIf(!haveChromium)('the explorer when the data source fails, in headless Chromium', () => {
  let browser: Browser;
  let tooMany: Server;
  let tooManyUrl: string;
  const gateways: Gateway[] = [];
  const refused: string[] = [];

  beforeAll(async () => {
    // a loopback upstream that refuses every request as rate limited
    tooMany = createServer((_req, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '30' }).end('{"ok":false,"error":"Ratelimit exceed","code":429}'));
    await new Promise<void>((r) => tooMany.listen(0, '127.0.0.1', r));
    tooManyUrl = `http://127.0.0.1:${(tooMany.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const g of gateways) await g.close();
    await new Promise((r) => tooMany?.close(r));
  });

  async function pageOn(gateway: Gateway, hash = ''): Promise<Page> {
    gateways.push(gateway);
    const context = await browser.newContext();
    context.setDefaultTimeout(20_000);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${gateway.url}/`)) return route.continue();
      refused.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/explorer${hash}`, { waitUntil: 'load' });
    return page;
  }

  it('upstream down: the home page and a search say so', async () => {
    // nothing listens on the upstream's port
    const page = await pageOn(await startUpstreamGateway(`http://127.0.0.1:${await freePort()}`));
    // the gateway's client retries a lost connection with backoff before it answers UPSTREAM_ERROR
    await expect.poll(() => page.locator('.error').first().innerText(), { timeout: 60_000 }).toContain('upstream API');
    await expect.poll(() => page.locator('main').innerText()).toContain('Latest masterchain blocks');
    await page.getByLabel('Search').fill('0:' + '11'.repeat(32));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('.error').first().innerText(), { timeout: 60_000 }).toMatch(/upstream API (failed|did not answer)/);
    await page.context().close();
  }, 150_000);

  it('upstream rate limiting is shown as such', async () => {
    const page = await pageOn(await startUpstreamGateway(tooManyUrl), `#/account/${encodeURIComponent('0:' + '22'.repeat(32))}`);
    await expect.poll(() => page.locator('.error').first().innerText(), { timeout: 60_000 }).toContain('upstream API is rate limiting');
    await page.context().close();
  }, 90_000);

  it('made no request off the gateways', () => {
    expect(refused).toEqual([]);
  });
});

describe.skipIf(!haveChromium || noShared)('the explorer in upstream mode over recorded mainnet traces, in headless Chromium', () => {
  // recorded real answers (origin: ../shared/fixtures/real/README.md) served by a loopback toncenter
  const index = new CorpusIndex(noShared ? [] : loadCorpus());
  let fake: FakeToncenter;
  let gateway: Gateway;
  let browser: Browser;
  const refused: string[] = [];

  beforeAll(async () => {
    fake = new FakeToncenter(index);
    gateway = await startUpstreamGateway(await fake.start(), { UPSTREAM_RPS: '0' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await fake?.stop();
  });

  /** The first recorded trace with an action of this type. */
  function traceWith(type: string): { id: string; transactions: number } {
    for (const t of index.traces.values()) {
      const trace = t as { trace_id: string; transactions: Record<string, unknown>; actions?: { type: string }[] };
      if (trace.actions?.some((a) => a.type === type)) return { id: trace.trace_id, transactions: Object.keys(trace.transactions).length };
    }
    throw new Error(`no recorded trace has a ${type} action`);
  }

  async function tracePage(id: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${gateway.url}/`)) return route.continue();
      refused.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/explorer#/tx/${encodeURIComponent(id)}`, { waitUntil: 'load' });
    await page.locator('svg.trace-tree').waitFor({ timeout: 30_000 });
    return page;
  }

  it('an NFT transfer: the whole tree, and the action in words', async () => {
    const trace = traceWith('nft_transfer');
    const page = await tracePage(trace.id);
    expect(await page.locator('svg.trace-tree a.node').count()).toBe(trace.transactions);
    await expect.poll(() => page.locator('ul.actions').innerText(), { timeout: 30_000 }).toMatch(/nft_transfer[\s\S]* gave .+ to /);
    await page.context().close();
  });

  it('an action type without a sentence (a swap) shows its type and detailsJson', async () => {
    const trace = traceWith('jetton_swap');
    const page = await tracePage(trace.id);
    expect(await page.locator('svg.trace-tree a.node').count()).toBe(trace.transactions);
    const swap = page.locator('ul.actions > li', { hasText: 'jetton_swap' }).first();
    await expect.poll(() => swap.innerText(), { timeout: 30_000 }).toContain('no summary for this action type');
    const json = await swap.locator('pre').textContent();
    expect(Object.keys(JSON.parse(json!)).length).toBeGreaterThan(0);
    await page.context().close();
  });

  it('made no request off the gateway', () => {
    expect(refused).toEqual([]);
  });
});
