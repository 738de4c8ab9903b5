/**
 * The page's only data path: POST /graphql for queries, graphql-sse (distinct connections, i.e. yoga's own SSE
 * transport) for subscriptions. Every failure becomes an ExplorerError with a sentence a person can act on.
 */
import { createClient, type Client } from 'graphql-sse';

const ENDPOINT = '/graphql';

export interface GqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; retryAfter?: number };
}

export class ExplorerError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const EXPLAIN: Record<string, string> = {
  BAD_USER_INPUT: 'The gateway refused the input',
  RATE_LIMITED: 'Rate limited by the gateway: wait a moment and retry',
  UPSTREAM_RATE_LIMITED: 'The upstream API is rate limiting the gateway: wait a moment and retry',
  UPSTREAM_TIMEOUT: 'The upstream API did not answer in time',
  UPSTREAM_ERROR: 'The upstream API failed',
  UNAUTHENTICATED: 'The gateway wants an API key',
};

export function describeError(e: GqlError): ExplorerError {
  const code = e.extensions?.code ?? 'ERROR';
  const lead = EXPLAIN[code];
  const retry = e.extensions?.retryAfter ? ` (retry after ${e.extensions.retryAfter} s)` : '';
  return new ExplorerError(lead ? `${lead}${retry}: ${e.message}` : e.message, code);
}

/** What an answer cost the gateway's upstream (the gateway's `X-Upstream-Report`); budget null on a local chain. */
export interface UpstreamCost {
  calls: number;
  cacheHits: number;
  waitedMs: number;
  byRoute: Record<string, number>;
  budget: { rps: number; remaining: number | null } | null;
}

export interface Result<T> {
  data: T | null;
  /** field errors that came with (partial) data */
  errors: ExplorerError[];
  /** some fields were left null at the deadline: asking again fills them */
  late: boolean;
  cost: UpstreamCost | null;
}

/** Both answers' costs, as one. */
export function addCosts(a: UpstreamCost | null, b: UpstreamCost | null): UpstreamCost | null {
  if (!a || !b) return a ?? b;
  const byRoute = { ...a.byRoute };
  for (const [route, n] of Object.entries(b.byRoute)) byRoute[route] = (byRoute[route] ?? 0) + n;
  return { calls: a.calls + b.calls, cacheHits: a.cacheHits + b.cacheHits, waitedMs: a.waitedMs + b.waitedMs, byRoute, budget: b.budget };
}

/**
 * Runs a query, asking for its upstream cost and, with `waitS`, for an answer within that many seconds (fields
 * not there by then come back null and `late`). Throws when there is no data at all and nothing is late;
 * returns partial data with its errors otherwise.
 */
export async function query<T>(document: string, variables: Record<string, unknown> = {}, opts: { waitS?: number } = {}): Promise<Result<T>> {
  let res: Response;
  try {
    res = await fetch(ENDPOINT, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        'x-upstream-report': '1',
        ...(opts.waitS ? { prefer: `wait=${opts.waitS}` } : {}),
      },
      body: JSON.stringify({ query: document, variables }),
    });
  } catch {
    throw new ExplorerError('The gateway cannot be reached: is it running?', 'NETWORK');
  }
  let body: { data?: T | null; errors?: GqlError[]; extensions?: { upstream?: UpstreamCost } };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    const code = res.status === 429 ? 'RATE_LIMITED' : `HTTP_${res.status}`;
    throw new ExplorerError(res.status === 429 ? EXPLAIN.RATE_LIMITED! : `The gateway answered HTTP ${res.status}`, code);
  }
  const late = (body.errors ?? []).some((e) => e.extensions?.code === 'UPSTREAM_DEADLINE');
  const errors = (body.errors ?? []).filter((e) => e.extensions?.code !== 'UPSTREAM_DEADLINE').map(describeError);
  const cost = body.extensions?.upstream ?? null;
  if (body.data == null && !late) throw errors[0] ?? new ExplorerError(`The gateway answered HTTP ${res.status} with no data`, `HTTP_${res.status}`);
  return { data: body.data ?? null, errors, late, cost };
}

let client: Client | undefined;

/** Subscribes over SSE; returns the function that ends the subscription. */
export function subscribe<T>(document: string, variables: Record<string, unknown>, onData: (data: T) => void, onError: (e: ExplorerError) => void): () => void {
  client ??= createClient({ url: ENDPOINT, retryAttempts: 5 });
  return client.subscribe<T>(
    { query: document, variables },
    {
      next: (r) => {
        if (r.errors?.length) onError(describeError(r.errors[0] as GqlError));
        if (r.data) onData(r.data as T);
      },
      error: (e) => onError(Array.isArray(e) ? describeError(e[0] as GqlError) : new ExplorerError(`Live updates stopped: ${e instanceof Error ? e.message : String(e)}`, 'SUBSCRIPTION')),
      complete: () => undefined,
    },
  );
}
