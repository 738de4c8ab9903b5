/** Prometheus metrics shared by every surface, served on GET /metrics. */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

/** One label set of a counter counted as a plain number, added to the counter when it is scraped. */
export interface Tally {
  pending: number;
}

/**
 * Counts for a hot counter kept per label set without prom-client hashing the labels on every event;
 * `flush` (from the counter's collect) moves them into the counter at scrape time.
 */
function tallies<L extends string>() {
  const all = new Map<string, Tally & { labels: Record<L, string> }>();
  return {
    get(key: string, labels: () => Record<L, string>): Tally {
      let t = all.get(key);
      if (!t) all.set(key, (t = { labels: labels(), pending: 0 }));
      return t;
    },
    flush(counter: Counter<L>): void {
      for (const t of all.values()) {
        if (t.pending > 0) counter.inc(t.labels, t.pending);
        t.pending = 0;
      }
    },
  };
}

const sourceCalls = tallies<'api' | 'method'>();

/** Every call the GraphQL layer makes into a data source; the batching bound is read from it. */
export const graphqlSourceCalls = new Counter({
  name: 'ton_graphql_source_calls_total',
  help: 'Calls made by the GraphQL layer into the V2Api/V3Api data sources',
  labelNames: ['api', 'method'] as const,
  registers: [metricsRegistry],
  collect() {
    sourceCalls.flush(this);
  },
});

/** The tally of one api's method in graphqlSourceCalls: add 1 to `pending` per call. */
export const sourceCallTally = (api: string, method: string): Tally => sourceCalls.get(`${api} ${method}`, () => ({ api, method }));

const httpCounts = tallies<'route' | 'method' | 'status'>();

export const httpRequests = new Counter({
  name: 'ton_gateway_http_requests_total',
  help: 'HTTP requests answered, by route pattern, method and status code',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
  collect() {
    httpCounts.flush(this);
  },
});

export const httpDuration = new Histogram({
  name: 'ton_gateway_http_request_duration_seconds',
  help: 'Time from receiving a request to finishing its response, by route pattern, method and status code',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/** Requests put on the wire to the upstream toncenter (retries included), by outcome. */
export const upstreamRequests = new Counter({
  name: 'ton_gateway_upstream_requests_total',
  help: 'Requests sent to the upstream toncenter, by api (v2/v3), endpoint path and outcome',
  labelNames: ['api', 'method', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const upstreamCache = new Counter({
  name: 'ton_gateway_upstream_cache_total',
  help: 'Lookups of cacheable upstream calls in the response cache, by api and result (hit/miss)',
  labelNames: ['api', 'result'] as const,
  registers: [metricsRegistry],
});

/** Emulator workers of the local chain ended and replaced, by why (src/engine/executor-pool.ts). */
export const executorRestarts = new Counter({
  name: 'ton_gateway_localnet_executor_restarts_total',
  help: 'Emulator workers of the local chain ended and replaced, by reason (trap, crash, oom, timeout)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
// every reason is exported from the start, at 0, so a rate over it is defined before the first restart
for (const reason of ['trap', 'crash', 'oom', 'timeout']) executorRestarts.inc({ reason }, 0);

/** The Emulate API's turns (engine/emulation-queue.ts): emulations running and waiting. */
export const emulations = new Gauge({
  name: 'ton_gateway_emulations',
  help: 'Emulate API emulations running (state="running") and waiting for their turn (state="waiting")',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});
for (const state of ['running', 'waiting']) emulations.set({ state }, 0);

/** Emulations refused before they ran: no room to wait, the client's share taken, the deadline passed while waiting. */
export const emulationsRefused = new Counter({
  name: 'ton_gateway_emulations_refused_total',
  help: 'Emulate API emulations refused before running, by reason (queue_full, client_share, deadline)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
for (const reason of ['queue_full', 'client_share', 'deadline']) emulationsRefused.inc({ reason }, 0);

// gauges read their value at scrape time from whatever the running gateway registered
/** Subscriptions set up (each sees every masterchain block sealed after that), over the process's life. */
export const subscriptionsStarted = new Counter({
  name: 'ton_graphql_subscriptions_started_total',
  help: 'GraphQL subscriptions set up on the chain feed (counted once each receives every later block)',
  registers: [metricsRegistry],
});

/** graphql-jit at work inside yoga's pipeline (src/surfaces/graphql/compiled.ts): documents compiled, executions by compiled code. */
export const graphqlCompiled = new Counter({
  name: 'ton_graphql_compiled_total',
  help: 'GraphQL query documents compiled by graphql-jit (event="compiled") and operations executed by compiled code (event="executed")',
  labelNames: ['event'],
  registers: [metricsRegistry],
});
for (const event of ['compiled', 'executed']) graphqlCompiled.inc({ event }, 0);

/** Subscriptions set up and not yet ended. */
export const subscriptionsOpen = new Gauge({
  name: 'ton_graphql_subscriptions_open',
  help: 'GraphQL subscriptions currently receiving chain events',
  registers: [metricsRegistry],
});

const chainHeightSources = new Set<() => number>();
const queueDepthSources = new Set<() => number>();

const lastOf = <T>(s: Set<T>): T | undefined => [...s].at(-1);

export const chainHeight = new Gauge({
  name: 'ton_gateway_localnet_masterchain_seqno',
  help: 'Seqno of the last masterchain block of the embedded local chain',
  registers: [metricsRegistry],
  collect() {
    const src = lastOf(chainHeightSources);
    if (src) this.set(src());
  },
});

export const upstreamQueueDepth = new Gauge({
  name: 'ton_gateway_upstream_queue_depth',
  help: 'Upstream calls waiting for a pacing slot',
  registers: [metricsRegistry],
  collect() {
    const src = lastOf(queueDepthSources);
    if (src) this.set(src());
  },
});

/** Makes the chain-height gauge read `height`; the returned function detaches it. */
export function trackChainHeight(height: () => number): () => void {
  chainHeightSources.add(height);
  return () => void chainHeightSources.delete(height);
}

/** Makes the upstream queue-depth gauge read `depth`; the returned function detaches it. */
export function trackQueueDepth(depth: () => number): () => void {
  queueDepthSources.add(depth);
  return () => void queueDepthSources.delete(depth);
}

/** Counts and times every response in one onResponse hook, labelled by the matched route pattern. */
export function registerHttpMetrics(app: FastifyInstance): void {
  // each label set's tally and histogram child, found by one string key rather than hashed from labels per request
  const series = new Map<string, { count: Tally; time: { observe(v: number): void } }>();
  app.addHook('onResponse', (req, reply, done) => {
    // unmatched paths share one label so scanners cannot blow up the label set
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${reply.statusCode} ${req.method} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { route, method: req.method, status: String(reply.statusCode) };
      series.set(key, (s = { count: httpCounts.get(key, () => labels), time: httpDuration.labels(labels) }));
    }
    s.count.pending++;
    s.time.observe(reply.elapsedTime / 1000);
    done();
  });
}

export function registerMetricsRoute(app: FastifyInstance): void {
  app.get('/metrics', async (_req, reply) => {
    const body = await metricsRegistry.metrics();
    return reply.header('content-type', metricsRegistry.contentType).send(body);
  });
}

/** One webhook's figures as /metrics shows them (live/webhooks): those that have done or hold anything. */
export interface WebhookSeries {
  id: string;
  delivered: number;
  failed: number;
  queued: number;
  failedAttempts: number;
  paused: boolean;
  behind: boolean;
  lagSeconds?: number;
}

/** What the running webhooks hold together. */
export interface WebhookTotals {
  /** bytes of events waiting in memory over every webhook (bounded by --webhooks-queue-mb) */
  queuedBytes: number;
  /** POSTs in flight */
  inFlight: number;
}

const webhookSources = new Set<() => Iterable<WebhookSeries>>();
const webhookTotals = new Set<() => WebhookTotals>();

const eachWebhook = (fn: (w: WebhookSeries) => void): void => {
  for (const src of webhookSources) for (const w of src()) fn(w);
};

/** Per-webhook series are read from the running webhooks at scrape time; a deleted webhook's go with it. */
export const webhookDeliveries = new Counter({
  name: 'ton_gateway_webhook_deliveries_total',
  help: 'Attempts to deliver an event to a webhook, by webhook and outcome (delivered: the receiver answered 2xx; failed: anything else)',
  labelNames: ['webhook', 'outcome'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    eachWebhook((w) => {
      this.inc({ webhook: w.id, outcome: 'delivered' }, w.delivered);
      this.inc({ webhook: w.id, outcome: 'failed' }, w.failed);
    });
  },
});

export const webhookQueued = new Gauge({
  name: 'ton_gateway_webhook_queued_events',
  help: 'Events waiting in memory for a webhook (one behind reads more from the event log as it drains)',
  labelNames: ['webhook'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    eachWebhook((w) => this.set({ webhook: w.id }, w.queued));
  },
});

export const webhookRetrying = new Gauge({
  name: 'ton_gateway_webhook_failed_attempts',
  help: 'Failed attempts at the event a webhook is retrying now (0 when it is not retrying)',
  labelNames: ['webhook'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    eachWebhook((w) => this.set({ webhook: w.id }, w.failedAttempts));
  },
});

export const webhookState = new Gauge({
  name: 'ton_gateway_webhook_state',
  help: 'Whether a webhook is paused (state="paused") or fed from the event log because its queue filled (state="behind"): 1 or 0',
  labelNames: ['webhook', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    eachWebhook((w) => {
      this.set({ webhook: w.id, state: 'paused' }, w.paused ? 1 : 0);
      this.set({ webhook: w.id, state: 'behind' }, w.behind ? 1 : 0);
    });
  },
});

export const webhookLag = new Gauge({
  name: 'ton_gateway_webhook_lag_seconds',
  help: "A webhook's last delivered event: seconds from when the gateway had it (finality, for a finalized event sent live) to the receiver's 2xx",
  labelNames: ['webhook'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    eachWebhook((w) => {
      if (w.lagSeconds !== undefined) this.set({ webhook: w.id }, w.lagSeconds);
    });
  },
});

export const webhookLagHistogram = new Histogram({
  name: 'ton_gateway_webhook_delivery_lag_seconds',
  help: 'Every delivered webhook event: seconds from when the gateway had it to the receiver\'s 2xx',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [metricsRegistry],
});

export const observeWebhookLag = (seconds: number): void => webhookLagHistogram.observe(seconds);

/** Reads of the event log for webhooks behind (one read serves every webhook behind at its start). */
export const webhookLogReads = new Counter({
  name: 'ton_gateway_webhook_log_reads_total',
  help: 'Reads of the live feed\'s event log for webhooks that fell behind (a restart, a full queue, a resume or a rewind)',
  registers: [metricsRegistry],
});

export const webhookQueuedBytes = new Gauge({
  name: 'ton_gateway_webhook_queued_bytes',
  help: 'Bytes of events waiting in memory for every webhook together',
  registers: [metricsRegistry],
  collect() {
    const src = lastOf(webhookTotals);
    if (src) this.set(src().queuedBytes);
  },
});

export const webhookInFlight = new Gauge({
  name: 'ton_gateway_webhook_posts_in_flight',
  help: 'Webhook POSTs waiting for their receiver',
  registers: [metricsRegistry],
  collect() {
    const src = lastOf(webhookTotals);
    if (src) this.set(src().inFlight);
  },
});

/** Makes the webhook series and totals read the running webhooks; the returned function detaches them. */
export function trackWebhooks(source: () => Iterable<WebhookSeries>, totals: () => WebhookTotals): () => void {
  webhookSources.add(source);
  webhookTotals.add(totals);
  return () => {
    webhookSources.delete(source);
    webhookTotals.delete(totals);
  };
}
