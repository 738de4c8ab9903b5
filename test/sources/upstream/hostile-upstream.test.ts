/**
 * Upstream mode in front of a hostile upstream (hostile-server.ts, in a child process): answers of 200 MB
 * (declared and chunked, made on the fly), a body dripping one byte every 100 ms, answers that stall half-sent,
 * JSON nested 100,000 levels deep, and a redirect. Each ends in 502 (bad answer) or 504 (timeout) in every
 * surface's envelope, naming the bound; the gateway stays up, its memory stays bounded, another client is
 * answered within a second throughout, and no such answer is cached.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UPSTREAM_MAX_BYTES } from '../../../src/remote/options.js';
import type { Gateway } from '../../../src/gateway.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../src/remote/bounds.js';
import { ADDR, http, startUpstreamGateway, type Answer } from './helpers.js';

type Mode = 'huge-declared' | 'huge-chunked' | 'drip' | 'stall' | 'deep' | 'redirect' | 'large-ok';

const MB = 1024 * 1024;
const SMALL_MAX_BYTES = MB;
const DRIP_TIMEOUT_MS = 1_500;

interface Hostile {
  url: string;
  setMode(mode: Mode): Promise<void>;
  /** requests seen per path (without query) */
  count(path: string): Promise<number>;
  close(): void;
}

/** hostile-server.ts in a child process: its 200 MB streams cost neither this process's memory nor its event loop. */
async function startHostile(): Promise<Hostile> {
  const script = fileURLToPath(new URL('./hostile-server.ts', import.meta.url));
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    proc.once('exit', (code) => reject(new Error(`hostile server exited (${code})`)));
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async setMode(mode) {
      expect(await (await fetch(`${url}/control/mode?to=${mode}`, { method: 'PUT' })).text()).toBe('ok');
    },
    count: async (path) => Number(await (await fetch(`${url}/control/count?path=${encodeURIComponent(path)}`)).text()),
    close: () => {
      proc.stdin!.end();
      proc.kill();
    },
  };
}

/** Another client, asking for /health and a cached route in a loop while `during` runs; its slowest answer in ms. */
async function bystander<T>(gw: Gateway, during: () => Promise<T>): Promise<{ result: T; slowestMs: number; asked: number }> {
  let done = false;
  let slowestMs = 0;
  let asked = 0;
  const loop = (async () => {
    while (!done) {
      for (const path of ['/health', '/api/v3/masterchainInfo']) {
        const t0 = performance.now();
        const r = await http(`${gw.url}${path}`);
        slowestMs = Math.max(slowestMs, performance.now() - t0);
        asked++;
        expect(r.status).toBe(200);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    const result = await during();
    return { result, slowestMs, asked };
  } finally {
    done = true;
    await loop;
  }
}

/** The three surfaces asking for an account, each reaching the upstream. */
const surfaces = {
  v2: { path: '/api/v2/getAddressBalance', ask: (gw: Gateway, addr = ADDR) => http(`${gw.url}/api/v2/getAddressBalance?address=${addr}`) },
  v3: { path: '/api/v3/addressInformation', ask: (gw: Gateway, addr = ADDR) => http(`${gw.url}/api/v3/addressInformation?address=${addr}`) },
  graphql: {
    path: '/api/v3/accountStates',
    ask: (gw: Gateway, addr = ADDR) => http(`${gw.url}/graphql`, { body: { query: `{ account(address: "${addr}") { balance } }` } }),
  },
} as const;
type Surface = keyof typeof surfaces;

/** Asserts the surface's envelope: v2 {ok:false,error,code}, v3 {code,error}, GraphQL errors[] with a code and status. */
function expectFailure(surface: Surface, a: Answer, status: 502 | 504, text: RegExp): void {
  if (surface === 'graphql') {
    expect(a.status).toBe(200);
    const [error] = (a.body as { errors: { message: string; extensions: { code: string; status: number } }[] }).errors;
    expect(error!.extensions).toMatchObject({ code: status === 504 ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', status });
    expect(error!.message).toMatch(text);
    return;
  }
  expect(a.status).toBe(status);
  const body = a.body as { ok?: boolean; code: number; error: string };
  if (surface === 'v2') expect(body.ok).toBe(false);
  expect(body.code).toBe(status);
  expect(body.error).toMatch(text);
}

describe('upstream answers are bounded', () => {
  let up: Hostile;
  /** the default size cap and timeout */
  let gw: Gateway;
  /** a 1 MiB cap and a short timeout, for the slow drip and the repeated asks */
  let small: Gateway;

  beforeAll(async () => {
    up = await startHostile();
    // account states reused for a minute: a failure the cache kept would show as no second upstream request
    gw = await startUpstreamGateway(up.url, { UPSTREAM_RPS: '0', ACCOUNT_TTL_MS: '60000' });
    small = await startUpstreamGateway(up.url, {
      UPSTREAM_RPS: '0',
      ACCOUNT_TTL_MS: '60000',
      UPSTREAM_TIMEOUT_MS: String(DRIP_TIMEOUT_MS),
      UPSTREAM_MAX_BYTES: String(SMALL_MAX_BYTES),
    });
    // every route once before anything is timed: a first request pays for loading and compiling (GraphQL's most)
    await up.setMode('redirect');
    for (const g of [gw, small]) await bystander(g, () => Promise.all(Object.values(surfaces).map((s) => s.ask(g))));
  });
  afterAll(async () => {
    await gw?.close();
    await small?.close();
    up?.close();
  });

  /** Each surface twice in a row: both fail, and the second one reached the upstream again (nothing cached). */
  async function eachSurfaceTwice(on: Gateway, status: 502 | 504, text: Record<Surface, RegExp>): Promise<void> {
    for (const surface of Object.keys(surfaces) as Surface[]) {
      const { path, ask } = surfaces[surface];
      const before = await up.count(path);
      expectFailure(surface, await ask(on), status, text[surface]);
      const first = await up.count(path);
      expect(first).toBeGreaterThan(before);
      expectFailure(surface, await ask(on), status, text[surface]);
      expect(await up.count(path)).toBeGreaterThan(first);
    }
  }

  /** The same text for each surface; GraphQL asks v3. */
  const perSurface = (text: (api: string) => RegExp): Record<Surface, RegExp> => ({ v2: text('v2'), v3: text('v3'), graphql: text('v3') });
  const sizeText = (limit: number) =>
    perSurface((api) => new RegExp(`^(data source: )?${api} upstream answer too large: .*the limit of ${limit} bytes \\(UPSTREAM_MAX_BYTES\\)$`));

  const budgetText = (limit: number) =>
    perSurface((api) => new RegExp(`^(data source: )?${api} upstream answers being read at once passed the limit of ${limit} bytes \\(twice UPSTREAM_MAX_BYTES\\)$`));

  it.each(['huge-declared', 'huge-chunked'] as const)('refuses four %s 200 MB answers at once under the default cap; memory bounded, another client served', async (mode) => {
    await up.setMode(mode);
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const order: Surface[] = ['v2', 'v3', 'graphql', 'v3'];
    const started = performance.now();
    try {
      // distinct requests (identical ones would share one upstream call)
      const asks = order.map((s, i) => () => surfaces[s].ask(gw, `0:${i.toString(16).repeat(64)}`));
      const { result, slowestMs, asked } = await bystander(gw, () => Promise.all(asks.map((ask) => ask())));
      const bySize = sizeText(DEFAULT_UPSTREAM_MAX_BYTES);
      const byBudget = budgetText(2 * DEFAULT_UPSTREAM_MAX_BYTES);
      let overBudget = 0;
      order.forEach((s, i) => {
        const text = JSON.stringify(result[i]!.body);
        const budget = text.includes('being read at once');
        overBudget += budget ? 1 : 0;
        // a machine too busy to read 64 MiB within the 15 s timeout gives the other bounded outcome
        if (text.includes('timeout')) expectFailure(s, result[i]!, 504, /timeout/);
        else expectFailure(s, result[i]!, 502, budget ? byBudget[s] : bySize[s]);
      });
      console.log(
        `${mode}: 4 x 200 MB in ${Math.round(performance.now() - started)} ms (${overBudget} refused by the shared budget), RSS +${Math.round((peak - rss0) / MB)} MB, other client's slowest answer ${Math.round(slowestMs)} ms (${asked} asked)`,
      );
      expect(slowestMs).toBeLessThan(1_000);
      expect(asked).toBeGreaterThan(0);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - rss0).toBeLessThan(512 * MB);
    expect((await http(`${gw.url}/health`)).status).toBe(200);
  });

  it.each(['huge-declared', 'huge-chunked'] as const)('refuses a %s answer past a configured cap every time; nothing cached', async (mode) => {
    await up.setMode(mode);
    await eachSurfaceTwice(small, 502, sizeText(SMALL_MAX_BYTES));
  });

  it('bounds the answers being read together at twice the cap: the answer that crosses it is refused', async () => {
    // six answers send 700 KiB each and stall: the first two fit the 2 MiB shared budget, the third crosses it
    await up.setMode('stall');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => surfaces.v3.ask(small, `0:${i.toString(16).repeat(64)}`)));
    const overBudget = answers.filter((a) => a.status === 502);
    expect(overBudget.length).toBeGreaterThanOrEqual(1);
    for (const a of overBudget) expectFailure('v3', a, 502, budgetText(2 * SMALL_MAX_BYTES).v3);
    // the rest waited for the rest of their answers until the timeout
    for (const a of answers.filter((x) => x.status !== 502)) expect(a.status).toBe(504);
    // every byte given back: a whole answer is read again (and refused for its depth, which needs all of it)
    await up.setMode('deep');
    expectFailure('v3', await surfaces.v3.ask(small), 502, /nested deeper than the limit/);
  });

  it('passes a proper 5 MiB answer whole under the default cap, and refuses it under a 1 MiB cap', async () => {
    await up.setMode('large-ok');
    const ok = await surfaces.v2.ask(gw, `0:${'ab'.repeat(32)}`);
    expect(ok.status).toBe(200);
    expect((ok.body as { result: string }).result).toBe('1'.repeat(80 * 64 * 1024));
    expectFailure('v2', await surfaces.v2.ask(small, `0:${'ab'.repeat(32)}`), 502, sizeText(SMALL_MAX_BYTES).v2);
  });

  it('refuses JSON nested 100,000 levels deep with 502 before parsing it', async () => {
    await up.setMode('deep');
    const deepText = perSurface((api) => new RegExp(`^(data source: )?${api} upstream answer nested deeper than the limit of ${MAX_JSON_DEPTH} levels$`));
    const { slowestMs } = await bystander(gw, () => eachSurfaceTwice(gw, 502, deepText));
    expect(slowestMs).toBeLessThan(1_000);
  });

  it('refuses a redirect with 502, never following it nor passing it on', async () => {
    await up.setMode('redirect');
    const redirectText = perSurface(
      (api) => new RegExp(`^(data source: )?${api} upstream answered HTTP 307, a redirect to http://127\\.0\\.0\\.1:1/.*; redirects are not followed$`),
    );
    await eachSurfaceTwice(gw, 502, redirectText);
  });

  it('times out a body dripping one byte every 100 ms with 504: the timeout covers the whole answer', async () => {
    await up.setMode('drip');
    const v3Text = new RegExp(`^(data source: )?upstream timeout: no answer within ${DRIP_TIMEOUT_MS} ms$`);
    const started = performance.now();
    const { slowestMs } = await bystander(small, async () => {
      const answers = await Promise.all((Object.keys(surfaces) as Surface[]).map((s) => surfaces[s].ask(small)));
      expectFailure('v2', answers[0]!, 504, /^LITE_SERVER_NETWORK timeout$/);
      expectFailure('v3', answers[1]!, 504, v3Text);
      expectFailure('graphql', answers[2]!, 504, v3Text);
    });
    expect(slowestMs).toBeLessThan(1_000);
    // one attempt each, not repeated: the timeout plus a little
    expect(performance.now() - started).toBeLessThan(DRIP_TIMEOUT_MS + 1_500);
    // and nothing kept: the next ask goes upstream again
    const before = await up.count(surfaces.v3.path);
    expectFailure('v3', await surfaces.v3.ask(small), 504, v3Text);
    expect(await up.count(surfaces.v3.path)).toBe(before + 1);
  });
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings only, escapes included', () => {
    expect(nestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(nestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[]}}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[{}]}}', 3)).toBe(true);
    // brackets inside strings, with escaped quotes and backslashes around them
    expect(nestsDeeperThan(JSON.stringify({ s: '[[[[{{{{', t: 'a"[[[["b', u: '\\', v: '[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify(['\\"', [['x']]]), 2)).toBe(true);
    // siblings do not add up
    expect(nestsDeeperThan(JSON.stringify([[1], [2], [3], [[4]]]), 3)).toBe(false);
  });
});
