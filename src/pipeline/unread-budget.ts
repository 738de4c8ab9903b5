/**
 * The bytes every long-lived client (Streaming API v2 over SSE and WebSocket, graphql-ws) has left unread,
 * bounded over the whole server: each client is bounded by its own surface, and this bounds their sum, so that
 * ten thousand clients each just under their own bound cannot hold the server's memory between them. Past the
 * budget the clients with the most unread (the slowest) are dropped first, until the sum is within it again.
 *
 * Each member reports its unread bytes when it changes them (on a write, on a drain); between reports the sum
 * may be higher than the truth (a socket drained without saying), never lower than what was reported, so before
 * anyone is dropped every member is asked again (at most every RECOUNT_MS).
 */

/** A client as the budget sees it. */
export interface UnreadHolder {
  /** bytes it has been sent and not yet read, now */
  unread(): number;
  /** Drops it (the surface's close for a slow consumer); it leaves the budget by itself. */
  drop(reason: string): void;
}

export interface UnreadMember {
  /** Its unread bytes changed to `bytes`. */
  report(bytes: number): void;
  leave(): void;
}

/** Asking every member again costs a walk over all of them: at most this often. */
const RECOUNT_MS = 100;

export class UnreadBudget {
  private readonly members = new Map<UnreadHolder, number>();
  private total = 0;
  private lastRecount = 0;
  private enforcing = false;

  constructor(
    readonly maxBytes: number,
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  /** bytes left unread over every member, as last reported */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.members.size;
  }

  join(holder: UnreadHolder): UnreadMember {
    this.members.set(holder, 0);
    return {
      report: (bytes) => {
        const last = this.members.get(holder);
        if (last === undefined) return;
        this.members.set(holder, bytes);
        this.total += bytes - last;
        if (this.total > this.maxBytes) this.enforce();
      },
      leave: () => {
        const last = this.members.get(holder);
        if (last === undefined) return;
        this.members.delete(holder);
        this.total -= last;
      },
    };
  }

  private enforce(): void {
    const now = performance.now();
    if (this.enforcing || now - this.lastRecount < RECOUNT_MS) return;
    this.enforcing = true;
    this.lastRecount = now;
    try {
      this.total = 0;
      for (const h of this.members.keys()) {
        const n = h.unread();
        this.members.set(h, n);
        this.total += n;
      }
      if (this.total <= this.maxBytes) return;
      const slowest = [...this.members].sort((a, b) => b[1] - a[1]);
      for (const [h, n] of slowest) {
        if (this.total <= this.maxBytes) break;
        this.log?.warn({ unread: n, total: this.total, limit: this.maxBytes }, 'dropping the slowest client: the server-wide budget of unread bytes is spent');
        this.members.delete(h);
        this.total -= n;
        h.drop(`the server holds more than ${this.maxBytes} bytes unread by its clients, and this client has the most`);
      }
    } finally {
      this.enforcing = false;
    }
  }
}
