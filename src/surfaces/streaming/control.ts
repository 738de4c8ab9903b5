/**
 * What the WebSocket messages of every streaming socket may cost the server together: `bytesPerSecond` of them
 * are worked on (read, checked, applied to subscriptions), shared fairly. A message that does not fit waits its
 * turn while its socket is not read (the client's own writes wait in TCP): clients (API key, else IP) take turns,
 * and a client's sockets take turns within its own, so a hundred sockets of one client wait for one another and
 * not for everybody else. A message that has waited `waitMs` is refused instead of run.
 */
import { Pace } from '../../live/pace.js';

export interface ControlTicket {
  /** Takes it out of the queue (its socket closed). */
  cancel(): void;
}

interface Waiter {
  client: string;
  bytes: number;
  run: () => void;
  expired: () => void;
  timer?: NodeJS.Timeout;
}

export class ControlQueue {
  private readonly pace: Pace;
  /** clients with messages waiting, in the order they take turns; each client's waiting messages in order */
  private readonly turns = new Map<string, Waiter[]>();
  private timer?: NodeJS.Timeout;

  constructor(
    readonly bytesPerSecond: number,
    private readonly waitMs: number,
  ) {
    this.pace = new Pace(bytesPerSecond);
  }

  /** messages waiting now */
  get waiting(): number {
    let n = 0;
    for (const q of this.turns.values()) n += q.length;
    return n;
  }

  /**
   * Runs `run` at once if the rate allows it and nobody waits; otherwise when its turn comes, or calls `expired`
   * after `waitMs`. Answers whether it ran already, and how to cancel it if not.
   */
  admit(client: string, bytes: number, run: () => void, expired: () => void): ControlTicket | undefined {
    if (this.turns.size === 0 && this.pace.tryTake(bytes)) {
      run();
      return undefined;
    }
    const w: Waiter = { client, bytes, run, expired };
    const queue = this.turns.get(client);
    if (queue) queue.push(w);
    else this.turns.set(client, [w]);
    w.timer = setTimeout(() => {
      if (this.remove(w)) expired();
    }, this.waitMs);
    this.schedule();
    return { cancel: () => void this.remove(w) };
  }

  private remove(w: Waiter): boolean {
    const queue = this.turns.get(w.client);
    const i = queue?.indexOf(w) ?? -1;
    if (i < 0) return false;
    clearTimeout(w.timer);
    queue!.splice(i, 1);
    if (queue!.length === 0) this.turns.delete(w.client);
    return true;
  }

  private schedule(): void {
    if (this.timer || this.turns.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.max(1, this.pace.wait()));
  }

  private pump(): void {
    for (;;) {
      const first = this.turns.entries().next();
      if (first.done) return;
      const [client, queue] = first.value;
      if (!this.pace.tryTake(queue[0]!.bytes)) break;
      const w = queue.shift()!;
      clearTimeout(w.timer);
      this.turns.delete(client);
      // to the back of the rotation
      if (queue.length > 0) this.turns.set(client, queue);
      w.run();
    }
    this.schedule();
  }
}
