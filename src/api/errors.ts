/**
 * The one error type that crosses the seam. A source (local chain, upstream) throws it with the
 * HTTP status and message toncenter would answer; each surface renders it in its own envelope.
 */
export class ApiError extends Error {
  readonly status: number;
  /** seconds a client should wait before retrying (a shed 503); surfaces send it as Retry-After */
  readonly retryAfterS: number | undefined;
  /** a finer cause than the status, for surfaces with error codes (GraphQL's UPSTREAM_DEADLINE) */
  readonly code: string | undefined;

  constructor(status: number, message: string, opts: { retryAfterS?: number; code?: string } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterS = opts.retryAfterS;
    this.code = opts.code;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
