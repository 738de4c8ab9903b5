/**
 * The one error type that crosses the seam. A source (local chain, upstream) throws it with the
 * HTTP status and message toncenter would answer; each surface renders it in its own envelope.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
