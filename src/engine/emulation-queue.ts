/**
 * Emulations take turns, so that however many clients emulate, the rest of the server keeps its share: at most
 * `running` emulations run at once, the others wait in one queue of at most `queued`, and each client (an API
 * key, else an IP, as the pipeline names clients) holds at most `perClient` places, running or waiting. A freed
 * turn goes to the waiting client whose turn is oldest (round robin over clients, first come first served
 * within one), so one client's backlog never goes before another client's first emulation. A request that
 * finds no room is refused at once (429, with the seconds after which a place is likely free); one whose
 * deadline passes while it waits gets the reference's timeout, as toncenter's enqueueing counts against its 3 s.
 */
import { EmulateError, type EmulateBounds } from '../api/emulate.js';
import type { EmulationAdmission } from '../model/emulate/service.js';
import { timedOut } from '../model/emulate/slices.js';
import { emulations, emulationsRefused } from '../observe/metrics.js';

export type EmulationQueueOptions = Pick<EmulateBounds, 'running' | 'queued' | 'perClient'>;

interface Waiter {
  client: string;
  resolve(release: () => void): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** how much a finished turn's length moves the running estimate a Retry-After is made from */
const SMOOTHING = 0.2;

export class EmulationQueue implements EmulationAdmission {
  private active = 0;
  /** the waiting, by client, in the order their clients take turns */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingCount = 0;
  /** places (running or waiting) per client */
  private readonly held = new Map<string, number>();
  /** a turn's usual length, ms */
  private turnMs = 1000;

  constructor(private readonly opts: EmulationQueueOptions) {}

  admit(client: string, deadline: number): Promise<() => void> {
    const held = this.held.get(client) ?? 0;
    if (held >= this.opts.perClient) {
      emulationsRefused.inc({ reason: 'client_share' });
      return Promise.reject(new EmulateError(429, `too many emulations at once from this client: at most ${this.opts.perClient} running or waiting`, this.retryAfterS()));
    }
    if (this.active < this.opts.running && this.waitingCount === 0) {
      this.held.set(client, held + 1);
      return Promise.resolve(this.start(client));
    }
    if (this.waitingCount >= this.opts.queued) {
      emulationsRefused.inc({ reason: 'queue_full' });
      return Promise.reject(new EmulateError(429, `too many emulations waiting: ${this.waitingCount} queued behind ${this.active} running`, this.retryAfterS()));
    }
    if (Date.now() >= deadline) {
      emulationsRefused.inc({ reason: 'deadline' });
      return Promise.reject(timedOut());
    }
    this.held.set(client, held + 1);
    return new Promise((resolve, reject) => {
      const w: Waiter = { client, resolve, reject, timer: setTimeout(() => this.expire(w), deadline - Date.now()) };
      const line = this.waiting.get(client);
      if (line) line.push(w);
      else this.waiting.set(client, [w]);
      this.waitingCount++;
      this.report();
    });
  }

  /** running and waiting now */
  get size(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waitingCount };
  }

  private start(client: string): () => void {
    this.active++;
    this.report();
    const began = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.turnMs += (performance.now() - began - this.turnMs) * SMOOTHING;
      this.active--;
      this.drop(client);
      this.next();
      this.report();
    };
  }

  private next(): void {
    while (this.active < this.opts.running && this.waitingCount > 0) {
      const [client, line] = this.waiting.entries().next().value!;
      const w = line.shift()!;
      this.waiting.delete(client);
      // the client goes to the back of the round, with the rest of its line
      if (line.length > 0) this.waiting.set(client, line);
      this.waitingCount--;
      clearTimeout(w.timer);
      w.resolve(this.start(client));
    }
  }

  private expire(w: Waiter): void {
    const line = this.waiting.get(w.client);
    const at = line?.indexOf(w) ?? -1;
    if (at < 0) return;
    line!.splice(at, 1);
    if (line!.length === 0) this.waiting.delete(w.client);
    this.waitingCount--;
    this.drop(w.client);
    emulationsRefused.inc({ reason: 'deadline' });
    this.report();
    w.reject(timedOut());
  }

  private report(): void {
    emulations.set({ state: 'running' }, this.active);
    emulations.set({ state: 'waiting' }, this.waitingCount);
  }

  private drop(client: string): void {
    const n = (this.held.get(client) ?? 1) - 1;
    if (n > 0) this.held.set(client, n);
    else this.held.delete(client);
  }

  /** when a place is likely free: the turns ahead, at the usual turn's length, over the turns run at once */
  private retryAfterS(): number {
    return Math.max(1, Math.ceil((((this.waitingCount + 1) / this.opts.running) * this.turnMs) / 1000));
  }
}
