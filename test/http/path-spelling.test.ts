/**
 * Issue 27 item 3: API keys and rate limits hold however the path is spelled. Every route the gateway registers
 * (read from the app itself) is asked under escaped letters, `%2F` separators, `//`, `/./`, `/x/../`, escaped
 * dots, a fragment and the absolute form, over real loopback HTTP to the gateway on its local chain: with an
 * unknown key (401), a key of the other network (403), a key past its rps and, on v2, keyless past KEYLESS_RPS
 * (429), each spelling gets exactly the refusal the plain path gets (status, envelope, Retry-After), and with a
 * good key it reaches the same route as the plain path. The same holds for WebSocket upgrades on /graphql and for
 * the routes no key guards; another client is answered within 1 s throughout.
 */
import { request, Agent } from 'node:http';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../src/gateway.js';
import { buildServer } from '../../src/server.js';
import { loadConfig, type ApiKeySpec, type Config } from '../../src/config.js';
import type { V2Api } from '../../src/api/v2.js';
import type { V3Api } from '../../src/api/v3/index.js';
import { startTestGateway } from '../helpers/gateway.js';

const GUARDED = ['/api/v2', '/api/v3', '/graphql'];
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
const prefixOf = (path: string) => GUARDED.find((p) => under(path, p));

interface Route {
  path: string;
  methods: string[];
}

/** Every route of an app, from its router's own listing (one line per path segment, indented by depth). */
function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // `├── seg (GET, HEAD)`, `│   └── seg`: the branch sign sits at 4 × depth; a segment without methods is no route
    const m = /^(.*?)── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = ([...m[1]!].length - 1) / 4;
    stack.push(m[2]!);
    if (m[3]) routes.push({ path: stack.join(''), methods: m[3].split(', ') });
  }
  return routes;
}

/** The routes under a guarded prefix, from a server built with the gateway's own route table. */
async function guardedRoutes(): Promise<Route[]> {
  const app = await buildServer({ config: loadConfig([], {}) as Config, capabilities: { v2: {} as V2Api, v3: {} as V3Api }, isReady: () => true });
  try {
    return routesOf(app).filter((r) => prefixOf(r.path) !== undefined);
  } finally {
    await app.close();
  }
}

/** Other spellings of a path outside the guarded prefixes: its first letter escaped, `//`, `/x/../`, `%2F`. */
const openSpellings = (path: string): string[] => [
  `/${hex(path[1]!, false)}${path.slice(2)}`,
  path.replaceAll('/', '//'),
  path.replaceAll('/', '/x/../'),
  `/${path.slice(1).replaceAll('/', '%2F')}`,
];

const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h}`;
};

/** Other spellings of one guarded path: each must be the same route under the same checks. */
function spellings(path: string): string[] {
  const prefix = prefixOf(path)!;
  const out = new Set<string>();
  // each letter of the guarded prefix escaped alone, in lower and upper hex, and the first letter after it
  const letters = path.length > prefix.length ? prefix.length + 1 : prefix.length - 1;
  for (let i = 1; i <= letters; i++) {
    if (path[i] === '/') continue;
    for (const upper of [false, true]) out.add(path.slice(0, i) + hex(path[i]!, upper) + path.slice(i + 1));
  }
  out.add([...path].map((c) => (c === '/' ? c : hex(c, true))).join(''));
  out.add(`/${path.slice(1).replaceAll('/', '%2F')}`);
  out.add(`/${path.slice(1).replaceAll('/', '%2f')}`);
  out.add(path.replaceAll('/', '//'));
  out.add(path.replaceAll('/', '/./'));
  out.add(path.replaceAll('/', '/x/../'));
  out.add(path.replaceAll('/', '/%2E/'));
  out.add(`/x/%2e%2E${path}`);
  out.add(`/..${path}`);
  out.add(`${path}#top`);
  out.add(`http://gateway.example${path}`);
  out.delete(path);
  return [...out];
}

interface Answer {
  status: number;
  body: string;
  retryAfter: string | undefined;
}

interface Ask {
  key?: string;
  /** a loopback source address, so keyless limits (per client IP) start fresh */
  from?: string;
  /** a connection of its own, not one waiting in the shared pool */
  fresh?: boolean;
  headers?: Record<string, string>;
}

let gw: Gateway;
let port: number;
let routes: Route[];
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** One request with its target sent byte for byte (fetch would resolve dot segments and escapes first). */
function ask(route: Route, target: string, o: Ask = {}): Promise<Answer> {
  const graphql = route.path === '/graphql';
  const method = graphql || !route.methods.includes('GET') ? 'POST' : 'GET';
  const body = graphql ? '{"query":"{ __typename }"}' : method === 'POST' ? '{}' : undefined;
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== undefined) headers['x-api-key'] = o.key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: target, method, headers, ...(o.from ? { localAddress: o.from } : {}), agent: o.from || o.fresh ? false : agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, retryAfter: res.headers['retry-after'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // an upgrade the server accepts would never end as a response
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error(`${target}: upgraded to a WebSocket`));
    });
    req.end(body);
  });
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

const refusal = (a: Answer) => ({ status: a.status, body: JSON.parse(a.body) as unknown, retryAfter: a.retryAfter !== undefined });

/** Asks the plain path and every spelling; each spelling's answer must be the plain path's, which must be `status`. */
async function walk(status: number, o: (route: Route, i: number) => Ask): Promise<number> {
  let asked = 0;
  await pool(
    routes.map((r, i) => [r, i] as const),
    8,
    async ([route, i]) => {
      const plain = refusal(await ask(route, route.path, o(route, i)));
      expect(plain.status, route.path).toBe(status);
      for (const target of spellings(route.path)) {
        expect(refusal(await ask(route, target, o(route, i))), `${target} (${route.path})`).toEqual(plain);
        asked++;
      }
    },
  );
  return asked;
}

/**
 * A limit (1 rps) is spent by one request; the plain path and every spelling, asked at once on connections
 * of their own well within the second the limit takes to refill, then get the same 429. One route at a time.
 */
async function walkSpent(list: Route[], o: (route: Route, i: number) => Ask): Promise<void> {
  await pool(
    list.map((r, i) => [r, i] as const),
    1,
    async ([route, i]) => {
      // spent on a path of the same surface that no route answers, so no handler's time eats into the second
      const spend = await ask({ path: `${prefixOf(route.path)}/-`, methods: ['GET'] }, `${prefixOf(route.path)}/-`, o(route, i));
      expect(spend.status, `${route.path}: the spending request`).toBe(404);
      const targets = [route.path, ...spellings(route.path)];
      const answers = await Promise.all(targets.map((t) => ask(route, t, { ...o(route, i), fresh: true })));
      for (const [j, a] of answers.entries()) {
        expect(refusal(a), `${targets[j]} (${route.path})`).toEqual(refusal(answers[0]!));
      }
      expect(answers[0]!.status, route.path).toBe(429);
      expect(Number(answers[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    },
  );
}

beforeAll(async () => {
  routes = await guardedRoutes();
  const slow: ApiKeySpec[] = routes.map((_r, i) => ({ key: `slow-${i}`, networks: ['testnet'], rps: 1 }));
  gw = await startTestGateway({
    network: 'testnet',
    keylessRps: 1,
    apiKeys: [{ key: 'good', networks: ['testnet'], rps: 0 }, { key: 'main-only', networks: ['mainnet'], rps: 0 }, ...slow],
  });
  port = Number(new URL(gw.url).port);
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await gw?.close();
});

describe('every guarded route under every spelling of its path', () => {
  it('the gateway guards the routes the walk covers: v2 (REST and JSON-RPC), v3 and /graphql', () => {
    const gatewayRoutes = routesOf(gw.app).filter((r) => prefixOf(r.path) !== undefined);
    expect(gatewayRoutes.map((r) => r.path).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const p of ['/api/v2/getMasterchainInfo', '/api/v2/jsonRPC', '/api/v3/masterchainInfo', '/graphql']) {
      expect(routes.map((r) => r.path)).toContain(p);
    }
  });

  it('an unknown key is 401 in the surface envelope; a client with a good key is answered within 1 s meanwhile', { timeout: 60_000 }, async () => {
    const getInfo = routes.find((r) => r.path === '/api/v2/getMasterchainInfo')!;
    // its first answer warms the route up, which is no wait the walk causes
    expect((await ask(getInfo, getInfo.path, { key: 'good' })).status).toBe(200);
    let walking = true;
    const waits: number[] = [];
    const bystander = (async () => {
      while (walking) {
        const t = performance.now();
        expect((await ask(getInfo, getInfo.path, { key: 'good', fresh: true })).status).toBe(200);
        waits.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const asked = await walk(401, () => ({ key: 'wrong' })).finally(() => (walking = false));
    await bystander;
    expect(asked).toBeGreaterThan(routes.length * 10);
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThan(1000);
  });

  it('a key of the other network is 403', { timeout: 60_000 }, async () => {
    await walk(403, () => ({ key: 'main-only' }));
  });

  it('a key past its rps is 429 with Retry-After', { timeout: 60_000 }, async () => {
    await walkSpent(routes, (_r, i) => ({ key: `slow-${i}` }));
  });

  it('a keyless client past KEYLESS_RPS is 429 on v2', { timeout: 60_000 }, async () => {
    const v2 = routes.filter((r) => under(r.path, '/api/v2'));
    // one loopback address per route: the keyless limit is per client IP
    await walkSpent(v2, (_r, i) => ({ from: `127.0.${1 + (i >> 8)}.${1 + (i & 0xff)}` }));
  });

  it('with a good key each spelling reaches the route the plain path reaches', { timeout: 60_000 }, async () => {
    // the handlers run here, so each route is asked under three spellings, taken in turn so every kind is used
    await pool(
      routes.map((r, i) => [r, i] as const),
      8,
      async ([route, i]) => {
        const plain = await ask(route, route.path, { key: 'good' });
        expect(plain.status, route.path).not.toBe(404);
        expect(plain.body, route.path).not.toMatch(/API key|Network not allowed|Ratelimit/);
        const all = spellings(route.path);
        for (const target of [0, 1, 2].map((k) => all[(3 * i + k) % all.length]!)) {
          const a = await ask(route, target, { key: 'good' });
          // the same handler: the same status, and the same text when it refuses (answers with data may move on)
          if (plain.status < 300) expect(a.status, `${target} (${route.path})`).toBe(plain.status);
          else expect({ status: a.status, body: a.body }, `${target} (${route.path})`).toEqual({ status: plain.status, body: plain.body });
        }
      },
    );
  });

  it('a WebSocket upgrade under another spelling of /graphql is refused as on the plain path', async () => {
    const graphql = routes.find((r) => r.path === '/graphql')!;
    const upgrade = {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-protocol': 'graphql-transport-ws',
    };
    const get = { ...graphql, methods: ['GET'] };
    for (const [key, status] of [['wrong', 401], ['main-only', 403]] as const) {
      const plain = refusal(await ask(get, '/graphql', { key, headers: upgrade, fresh: true }));
      expect(plain.status).toBe(status);
      for (const target of spellings('/graphql')) {
        expect(refusal(await ask(get, target, { key, headers: upgrade, fresh: true })), target).toEqual(plain);
      }
    }
  });
});

describe('a good key under another spelling', () => {
  it('opens a graphql-ws socket on /graphql spelled otherwise, which answers connection_init', async () => {
    for (const target of ['/%67raphql', '//graphql', '/x/../graphql']) {
      const socket = new WebSocket(`ws://127.0.0.1:${port}${target}`, 'graphql-transport-ws', { headers: { 'x-api-key': 'good' } });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
          socket.once('message', (data) => (JSON.parse(String(data)).type === 'connection_ack' ? resolve() : reject(new Error(String(data)))));
          socket.once('unexpected-response', (_req, res) => reject(new Error(`${target}: HTTP ${res.statusCode}`)));
          socket.once('error', reject);
        });
      } finally {
        socket.terminate();
      }
    }
  });
});

describe('the URL limit', () => {
  it('is on the target as sent: 9,000 slashes that normalise away still get 414 in the surface envelope', async () => {
    const route = routes.find((r) => r.path === '/api/v2/getMasterchainInfo')!;
    const a = await ask(route, `/api${'/'.repeat(9000)}v2/getMasterchainInfo`, { key: 'good' });
    expect(refusal(a)).toEqual({ status: 414, body: { ok: false, error: 'URL exceeds 8192 bytes', code: 414 }, retryAfter: false });
  });
});

describe('routes outside the guarded prefixes', () => {
  it('answer under another spelling as on the plain path: /health, /ready, /metrics, /docs, /explorer, /localnet', { timeout: 30_000 }, async () => {
    const open = routesOf(gw.app).filter((r) => prefixOf(r.path) === undefined && r.methods.includes('GET') && !/[:*]/.test(r.path));
    for (const p of ['/health', '/metrics', '/docs', '/explorer', '/localnet/wallets']) expect(open.map((r) => r.path)).toContain(p);
    // /ready answers in front of Fastify's router, and reads the same spelling
    for (const route of [...open, { path: '/ready', methods: ['GET'] }]) {
      const plain = await ask(route, route.path);
      expect(plain.status, route.path).not.toBe(404);
      for (const target of openSpellings(route.path)) {
        expect((await ask(route, target)).status, `${target} (${route.path})`).toBe(plain.status);
      }
    }
  });
});
