/**
 * Wires a running gateway: the v2 source and the v3 source (one instance when both name the same source with the
 * same settings), then the server (so /health can say 503 while the local chain runs its genesis), then each
 * source is started. Used by the CLI and by the end-to-end tests, so both start exactly the same thing.
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError, type Config } from './config.js';
import { BlockFeed, type ChainEvents } from './live/blocks.js';
import { CAPABILITY_FROM, type ApiName, type Capabilities, type Served, type Source, type SourceKind } from './api/source.js';
import type { LogOptions } from './pipeline/logging.js';
import { mountReady } from './pipeline/ready.js';
import { sharedStateFor, type SharedState } from './shared-state/redis.js';
import { buildServer } from './server.js';
import { SOURCES, type SourceHandles, type SourceHooks } from './sources/index.js';
import { LiveHub } from './live/hub.js';
import { startWebhooks } from './live/webhooks/index.js';
import type { Webhooks } from './live/webhooks/webhooks.js';

/**
 * What the embedding code reaches of the sources (src/sources/index.ts: SourceHandles): `chain`, the local
 * chain when a source is the local chain; `upstream`, the upstream clients when a source is an upstream (the v3
 * one, if both are).
 */
export interface Gateway extends SourceHandles {
  app: FastifyInstance;
  /** http://host:port */
  url: string;
  /** the Streaming API v2 hub, when the v3 source has live events */
  liveHub?: LiveHub;
  /** webhooks over that hub */
  webhooks?: Webhooks;
  /** the source answering each interface (the same object when one instance serves both) */
  sources: Record<ApiName, Source<SourceHandles>>;
  banner(): string;
  close(): Promise<void>;
}

export interface GatewayHooks extends SourceHooks {
  /** webhooks' tuning for tests: how long a replica's leases last */
  webhooks?: { leaseTtlMs?: number };
  onListening?: (url: string) => void;
  /** pino level and destination for the server's logs; silent when absent */
  log?: LogOptions;
}

const APIS: ApiName[] = ['v2', 'v3'];

interface Plan {
  kind: SourceKind<unknown, SourceHooks, object, SourceHandles>;
  settings: unknown;
  apis: ApiName[];
}

/** One instance per distinct source and settings, each told which interfaces it serves. */
function planSources(config: Config): { planned: Map<string, Plan>; keyOf: Record<ApiName, string> } {
  const planned = new Map<string, Plan>();
  const keyOf = {} as Record<ApiName, string>;
  for (const api of APIS) {
    const kind = SOURCES[config.sources[api]];
    const settings = kind.settings(config, api);
    const key = `${config.sources[api]} ${JSON.stringify(settings)}`;
    const plan = planned.get(key);
    if (plan) plan.apis.push(api);
    else planned.set(key, { kind, settings, apis: [api] });
    keyOf[api] = key;
  }
  return { planned, keyOf };
}

/**
 * The sources' checks before anything listens (the CLI runs them first: a data directory another server holds
 * is refused before the port is taken); throws what stops start-up.
 */
export async function preflight(config: Config): Promise<void> {
  for (const { kind, settings } of planSources(config).planned.values()) await kind.preflight?.(settings);
}

function createSources(config: Config, hooks: GatewayHooks, shared: SharedState | undefined): Record<ApiName, Source<SourceHandles>> {
  const { planned, keyOf } = planSources(config);
  const made = new Map([...planned].map(([key, p]) => [key, p.kind.create(p.settings, { apis: p.apis, shared, hooks })]));
  const chosen = { v2: made.get(keyOf.v2)!, v3: made.get(keyOf.v3)! };
  for (const api of APIS) {
    if (!chosen[api].capabilities[api]) throw new ConfigError(`${api.toUpperCase()}_SOURCE: source ${config.sources[api]} has no ${api} API`);
  }
  return chosen;
}

/** Each capability from the first source CAPABILITY_FROM names for it that has it. */
function capabilitiesOf(sources: Record<ApiName, Source<SourceHandles>>): Capabilities {
  const picked: Record<string, unknown> = {};
  for (const [name, from] of Object.entries(CAPABILITY_FROM)) {
    const member = from.map((api) => sources[api].capabilities[name as keyof Capabilities]).find((m) => m !== undefined);
    if (member !== undefined) picked[name] = member;
  }
  return picked as Capabilities;
}

export async function startGateway(config: Config, hooks: GatewayHooks = {}): Promise<Gateway> {
  const shared = sharedStateFor(config.redisUrl);
  const sources = createSources(config, hooks, shared);
  const all = [...new Set([sources.v2, sources.v3])];
  const { v2, v3, blocks, live, ...rest } = capabilitiesOf(sources);
  let events: ChainEvents | undefined;
  let liveHub: LiveHub | undefined;
  let webhooks: Webhooks | undefined;
  const capabilities: Served = { ...rest, v2: v2!, v3: v3!, blocks: () => events, live: () => liveHub, webhooks: () => webhooks };
  const app = await buildServer({
    config,
    shared,
    capabilities,
    isReady: () => all.every((s) => s.ready),
    healthProblem: () => all.map((s) => s.healthProblem()).find((p) => p !== null) ?? null,
    log: hooks.log,
  });
  mountReady(app, async () => {
    const problems = (await Promise.all(all.map((s) => s.check()))).filter((p): p is string => p !== null);
    return problems.length ? problems.join('; ') : null;
  });
  const closeSources = async () => {
    await webhooks?.close();
    await liveHub?.feed.stop();
    await Promise.all(all.map((s) => s.close()));
  };
  await shared?.connect();
  let url: string;
  try {
    url = await listen(app, config);
    hooks.onListening?.(url);
    await Promise.all(all.map((s) => s.start()));
  } catch (e) {
    await app.close();
    await closeSources();
    await shared?.close();
    throw e;
  }
  // new blocks come from the v3 source: its tip, read through its v3 (so seqnos and blocks agree)
  if (blocks) events = new BlockFeed(blocks(app.log), v3!, app.log);
  // live events come from the v3 source too, through the one hub every streaming client is served from
  const feed = live?.(app.log);
  if (feed) {
    const { maxQueuedBytes, maxReplays, replayBytesPerSecond, replayClientBytesPerSecond } = config.streaming;
    liveHub = new LiveHub(feed, { maxQueuedBytes, maxReplays, replayBytesPerSecond, replayClientBytesPerSecond, log: app.log });
    liveHub.start();
    const { keyless, allowPrivate, ...limits } = config.webhooks;
    try {
      webhooks = await startWebhooks({ hub: liveHub, limits, keyless, allowPrivate, redisUrl: config.redisUrl, dataDir: config.dataDir, log: app.log, ...hooks.webhooks });
    } catch (e) {
      // a webhook store that cannot be opened (an unwritable data directory) stops start-up as a source's failure does
      await app.close();
      await closeSources();
      await shared?.close();
      throw e;
    }
  }

  // what a later source exposes wins: the v3 source's upstream over the v2 one's
  const handles: SourceHandles = Object.assign({}, ...[sources.v2, sources.v3].map((s) => s.handles));
  return {
    ...handles,
    app,
    url,
    sources,
    liveHub,
    webhooks,
    banner: () => all.map((s) => s.banner(url)).join(''),
    async close() {
      // in-flight requests drain first, then the sources stop (the block producer, the upstream pools)
      await app.close();
      await closeSources();
      await shared?.close();
    },
  };
}

async function listen(app: FastifyInstance, config: Config): Promise<string> {
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
