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

export interface Result<T> {
  data: T | null;
  /** field errors that came with (partial) data */
  errors: ExplorerError[];
}

/** Runs a query; throws when there is no data at all, returns partial data with its errors otherwise. */
export async function query<T>(document: string, variables: Record<string, unknown> = {}): Promise<Result<T>> {
  let res: Response;
  try {
    res = await fetch(ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: document, variables }),
    });
  } catch {
    throw new ExplorerError('The gateway cannot be reached: is it running?', 'NETWORK');
  }
  let body: { data?: T | null; errors?: GqlError[] };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    const code = res.status === 429 ? 'RATE_LIMITED' : `HTTP_${res.status}`;
    throw new ExplorerError(res.status === 429 ? EXPLAIN.RATE_LIMITED! : `The gateway answered HTTP ${res.status}`, code);
  }
  const errors = (body.errors ?? []).map(describeError);
  if (body.data == null) throw errors[0] ?? new ExplorerError(`The gateway answered HTTP ${res.status} with no data`, `HTTP_${res.status}`);
  return { data: body.data, errors };
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
