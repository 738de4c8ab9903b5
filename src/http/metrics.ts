/** Prometheus metrics shared by every surface, served on GET /metrics. */
import type { FastifyInstance } from 'fastify';
import { Counter, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

/** Every call the GraphQL layer makes into a data source; the batching bound is read from it. */
export const graphqlSourceCalls = new Counter({
  name: 'ton_graphql_source_calls_total',
  help: 'Calls made by the GraphQL layer into the V2Api/V3Api data sources',
  labelNames: ['api', 'method'] as const,
  registers: [metricsRegistry],
});

export function registerMetricsRoute(app: FastifyInstance): void {
  app.get('/metrics', async (_req, reply) => {
    const body = await metricsRegistry.metrics();
    return reply.header('content-type', metricsRegistry.contentType).send(body);
  });
}
