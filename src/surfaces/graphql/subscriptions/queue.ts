/**
 * The async iterator one subscription hands to graphql-js: events pushed by the chain feed wait here until the
 * SSE stream pulls them. It ends on end() (the subscription is complete, or the server is closing) or on
 * return() (the client went away); either way `onFinish` runs once, at once. A subscriber that falls
 * `maxBacklog` events behind gets a final error instead of unbounded memory.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors.js';

export class EventQueue<T> implements AsyncIterableIterator<T | GraphQLError> {
  private readonly buffer: (T | GraphQLError)[] = [];
  private waiting?: (r: IteratorResult<T | GraphQLError>) => void;
  private ended = false;

  constructor(
    private readonly onFinish: () => void,
    private readonly maxBacklog = 1000,
  ) {}

  get done(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value, done: false });
      return;
    }
    if (this.buffer.length >= this.maxBacklog) {
      this.buffer.length = 0;
      this.fail(
        new GraphQLError(`Subscription dropped: the client fell ${this.maxBacklog} events behind`, {
          extensions: { code: ErrorCode.SUBSCRIPTION_BACKLOG, limit: this.maxBacklog },
        }),
      );
      return;
    }
    this.buffer.push(value);
  }

  /** Ends after the events already queued; the resolver throws `error` as the last event. */
  fail(error: GraphQLError): void {
    if (this.ended) return;
    this.buffer.push(error);
    this.end();
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: this.buffer.shift()!, done: false });
    }
  }

  /** No more events; those already queued are still delivered. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onFinish();
    if (this.waiting && this.buffer.length === 0) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T | GraphQLError>> {
    if (this.buffer.length > 0) return Promise.resolve({ value: this.buffer.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T | GraphQLError>> {
    this.buffer.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<T | GraphQLError>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
