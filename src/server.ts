/** One HTTP server: /health, /metrics, /graphql, the v2 REST + JSON-RPC and v3 routes, and the local chain's control routes. */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { V2Api } from './api/v2.js';
import type { V3Api } from './api/v3.js';
import type { LocalnetControl } from './api/localnet.js';
import { registerAuth } from './http/auth.js';
import { registerV2Routes } from './rest/v2/index.js';
import { registerV3Routes } from './rest/v3.js';
import { registerLocalnetRoutes } from './rest/localnet.js';
import { registerGraphQL } from './graphql/index.js';
import { registerMetricsRoute } from './http/metrics.js';

export interface ServerDeps {
  config: Config;
  v2: V2Api;
  v3: V3Api;
  /** true once the data source can answer (the local chain's genesis is sealed) */
  isReady: () => boolean;
  /** present only on the local chain */
  localnet?: () => LocalnetControl | undefined;
}

export const BODY_LIMIT = 1024 * 1024;
export const URL_LIMIT = 8192;

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: URL_LIMIT },
    requestTimeout: 60_000,
    keepAliveTimeout: 5_000,
    connectionTimeout: 0,
    http: { headersTimeout: 10_000, maxHeaderSize: 16 * 1024 },
  });

  app.get('/health', async (_req, reply) => {
    if (!deps.isReady()) return reply.code(503).send({ status: 'starting' });
    return { status: 'ok' };
  });

  registerAuth(app, {
    apiKeys: deps.config.apiKeys,
    network: deps.config.network,
    keylessRps: deps.config.keylessRps,
    prefixes: ['/api/v2', '/api/v3', '/graphql'],
  });
  registerV2Routes(app, { v2: deps.v2 });
  registerV3Routes(app, { v3: deps.v3 });
  registerGraphQL(app, { v2: deps.v2, v3: deps.v3 });
  registerMetricsRoute(app);
  if (deps.localnet) registerLocalnetRoutes(app, deps.localnet);

  await app.ready();
  return app;
}
