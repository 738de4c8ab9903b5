/**
 * The error codes the GraphQL surface publishes in `extensions.code`, and the one place that turns a data
 * source's ApiError into a coded field error. Anything else that escapes a resolver is masked by yoga.
 */
import { GraphQLError } from 'graphql';
import { isApiError, type ApiError } from '../../api/errors.js';

export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_DEADLINE: 'UPSTREAM_DEADLINE',
  UPSTREAM_RATE_LIMITED: 'UPSTREAM_RATE_LIMITED',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  TOO_MANY_ALIASES: 'TOO_MANY_ALIASES',
  REQUEST_TOO_LARGE: 'REQUEST_TOO_LARGE',
  TOO_MANY_SUBSCRIPTIONS: 'TOO_MANY_SUBSCRIPTIONS',
  TOO_MANY_ACCOUNTS: 'TOO_MANY_ACCOUNTS',
  SUBSCRIPTION_BACKLOG: 'SUBSCRIPTION_BACKLOG',
  /** events a live subscription watches were lost upstream and could not be fetched again */
  EVENTS_MISSED: 'EVENTS_MISSED',
  TOO_MANY_OPERATIONS: 'TOO_MANY_OPERATIONS',
  /** a webhook that is not the caller's, or does not exist */
  NOT_FOUND: 'NOT_FOUND',
  /** no API key where one is required */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** what was asked for is not running yet (webhooks while the source starts) */
  UNAVAILABLE: 'UNAVAILABLE',
  /** the Emulate API could not emulate the message (not accepted, not a known wallet, past its time budget) */
  EMULATION_FAILED: 'EMULATION_FAILED',
  /** the emulation's answer would pass the gateway's bound even cut after its first transaction */
  EMULATION_TOO_LARGE: 'EMULATION_TOO_LARGE',
  /** no room in the emulation queue, or the client's share of it is taken; retry after `retryAfter` seconds */
  TOO_MANY_EMULATIONS: 'TOO_MANY_EMULATIONS',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const badInput = (message: string): GraphQLError =>
  new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT } });

/** toncenter answers a bad parameter with 400/422; anything else a source says is its own failure. */
function codeOf(e: ApiError): ErrorCode {
  // the client's own deadline (Prefer: wait=N) passed, not the upstream's timeout
  if (e.code === ErrorCode.UPSTREAM_DEADLINE) return ErrorCode.UPSTREAM_DEADLINE;
  if (e.status === 504) return ErrorCode.UPSTREAM_TIMEOUT;
  if (e.status === 429) return ErrorCode.UPSTREAM_RATE_LIMITED;
  if (e.status === 400 || e.status === 422) return ErrorCode.BAD_USER_INPUT;
  return ErrorCode.UPSTREAM_ERROR;
}

/**
 * yoga's maskError hook: a field error caused by an ApiError keeps its path and gets a code; everything that
 * is not already a GraphQLError becomes the generic masked error.
 */
export function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (isApiError(original)) {
    const g = error instanceof GraphQLError ? error : undefined;
    // a deadline's error names the field it left null
    const at = original.code === ErrorCode.UPSTREAM_DEADLINE && g?.path ? ` (at ${g.path.join('.')})` : '';
    return new GraphQLError(`data source: ${original.message}${at}`, {
      ...(g?.nodes ? { nodes: g.nodes } : {}),
      ...(!g?.nodes && g?.source && g.positions ? { source: g.source, positions: g.positions } : {}),
      ...(g?.path ? { path: g.path } : {}),
      extensions: {
        code: codeOf(original),
        status: original.status,
        // yoga turns `http.headers` into response headers and strips it from the body; retryAfter stays readable
        ...(original.retryAfterS !== undefined
          ? { retryAfter: original.retryAfterS, http: { headers: { 'retry-after': String(original.retryAfterS) } } }
          : {}),
      },
    });
  }
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) {
    return error;
  }
  const g = error instanceof GraphQLError ? error : undefined;
  return new GraphQLError(message, {
    ...(g?.nodes ? { nodes: g.nodes } : {}),
    // an error of compiled code has no nodes, but its source and positions (src/surfaces/graphql/compiled.ts)
    ...(!g?.nodes && g?.source && g.positions ? { source: g.source, positions: g.positions } : {}),
    ...(g?.path ? { path: g.path } : {}),
    extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
  });
}
