/**
 * New masterchain blocks as a stream, whatever the source: a TipSource says which seqno is the newest (each
 * source supplies its own: the local chain's seal event, a poll of any V3Api), and one BlockFeed turns each new
 * seqno into one event with the block and every transaction it committed, fetched once through the v3 seam and
 * handed to every listener. The source runs only while someone listens.
 *
 * It lives in the seam because both sides meet here: sources supply a TipSource, surfaces read ChainEvents.
 */
import type { Shared } from '../api/shared-answers.js';
import type { Block as WireBlock } from '../api/v3/blocks.js';
import { V3_MAX_LIMIT } from '../api/v3/common.js';
import type { V3Api } from '../api/v3/index.js';
import type { Transaction as WireTransaction } from '../api/v3/transactions.js';

/** Blocks and transactions as events carry them: shared answers, read-only. */
type Block = Shared<WireBlock>;
type Transaction = Shared<WireTransaction>;

export interface McBlockEvent {
  block: Block;
  /** the transactions this masterchain block committed (its own and its shard blocks'), in lt order */
  transactions: Transaction[];
}

export type BlockListener = (event: McBlockEvent) => void;

/** What the surfaces see. */
export interface ChainEvents {
  /** ms between masterchainInfo polls; null where the chain itself signals new blocks */
  readonly pollMs: number | null;
  /**
   * Adds a listener. Resolves once the current tip is known: every masterchain block sealed after that reaches
   * the listener, in seqno order. Resolves with the function that removes it. A listener that reads only the
   * block (`transactions: false`) may be handed an event without its transactions: they are not fetched for
   * a block no listener reads them from.
   */
  subscribe(fn: BlockListener, opts?: { transactions?: boolean }): Promise<() => void>;
  /** Stops the source and drops every listener. */
  close(): void;
}

/** Where the newest masterchain seqno comes from. */
export interface TipSource {
  readonly pollMs: number | null;
  /**
   * Starts watching and calls `onTip` with the newest seqno (and its block when the source has it) each time
   * it may have moved; `rewound` when the chain itself went back to that seqno (a local chain's rollback), so the
   * blocks after it are made again. Resolves with the tip at start (undefined when it could not be read) and a
   * stop function.
   */
  start(onTip: (seqno: number, block?: Block, rewound?: boolean) => void): Promise<{ tip: number | undefined; stop: () => void }>;
}

/** Minimal pino-compatible logger. */
export interface EventLog {
  warn(obj: object, msg: string): void;
}

/** Seqnos fetched at most behind the tip after a gap (a stalled upstream); older ones are skipped and logged. */
export const MAX_CATCH_UP = 32;
/** Transactions fetched at most for one masterchain block. */
const MAX_BLOCK_TXS = 10 * V3_MAX_LIMIT;
const MAX_BACKOFF_MS = 30_000;

export const backoffMs = (baseMs: number, failures: number): number => Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(failures, 16));

interface Run {
  started: Promise<void>;
  stopTip: () => void;
  stopped: boolean;
  /** next seqno to deliver; undefined until the tip is first known */
  next?: number;
  target: number;
  latest?: Block;
  draining: boolean;
}

export class BlockFeed implements ChainEvents {
  /** each listener, and whether it reads the transactions */
  private readonly listeners = new Map<BlockListener, boolean>();
  private run?: Run;
  private closed = false;

  constructor(
    private readonly tip: TipSource,
    private readonly v3: V3Api,
    private readonly log?: EventLog,
    /** ms before the first retry of a failed block fetch */
    private readonly retryMs = 500,
  ) {}

  get pollMs(): number | null {
    return this.tip.pollMs;
  }

  async subscribe(fn: BlockListener, opts?: { transactions?: boolean }): Promise<() => void> {
    if (this.closed) throw new Error('the chain event feed is closed');
    this.listeners.set(fn, opts?.transactions ?? true);
    const run = (this.run ??= this.startRun());
    try {
      await run.started;
    } catch (e) {
      this.remove(fn);
      throw e;
    }
    let removed = false;
    return () => {
      if (!removed) this.remove(fn);
      removed = true;
    };
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stopRun();
  }

  private remove(fn: BlockListener): void {
    this.listeners.delete(fn);
    if (this.listeners.size === 0) this.stopRun();
  }

  private stopRun(): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    run.stopped = true;
    run.stopTip();
  }

  private startRun(): Run {
    const run: Run = { started: Promise.resolve(), stopTip: () => {}, stopped: false, target: -1, draining: false };
    run.started = this.tip.start((seqno, block, rewound) => this.onTip(run, seqno, block, rewound)).then(
      ({ tip, stop }) => {
        run.stopTip = stop;
        if (run.stopped) stop();
        else if (tip !== undefined && run.next === undefined) run.next = tip + 1;
      },
      (e: unknown) => {
        if (this.run === run) this.run = undefined;
        throw e;
      },
    );
    return run;
  }

  private onTip(run: Run, seqno: number, block?: Block, rewound = false): void {
    if (run.stopped) return;
    // the tip could not be read at start: the first one seen is where the stream begins
    if (run.next === undefined) {
      run.next = seqno + 1;
      return;
    }
    // the chain went back: the blocks after it are made again, and delivered again
    if (rewound && seqno < run.next - 1) {
      run.next = seqno + 1;
      run.target = seqno;
      run.latest = undefined;
    }
    if (seqno > run.target) {
      run.target = seqno;
      run.latest = block?.seqno === seqno ? block : undefined;
    }
    if (!run.draining) void this.drain(run);
  }

  /** Delivers run.next … run.target one by one; a failed fetch is retried with backoff, never thrown. */
  private async drain(run: Run): Promise<void> {
    run.draining = true;
    let failures = 0;
    try {
      while (!run.stopped && run.next! <= run.target) {
        const behind = run.target - run.next! + 1;
        if (behind > MAX_CATCH_UP) {
          this.log?.warn({ from: run.next, to: run.target - MAX_CATCH_UP }, 'subscriptions: masterchain blocks skipped after a gap');
          run.next = run.target - MAX_CATCH_UP + 1;
        }
        const seqno = run.next!;
        let event: McBlockEvent;
        try {
          event = await this.fetchBlock(seqno, run.latest?.seqno === seqno ? run.latest : undefined);
        } catch (err) {
          failures++;
          this.log?.warn({ err, seqno, failures }, 'subscriptions: fetching a new masterchain block failed, retrying');
          await sleep(backoffMs(this.retryMs, failures - 1));
          continue;
        }
        failures = 0;
        if (run.stopped) return;
        run.next = seqno + 1;
        for (const fn of [...this.listeners.keys()]) fn(event);
      }
    } finally {
      run.draining = false;
    }
  }

  private async fetchBlock(seqno: number, known: Block | undefined): Promise<McBlockEvent> {
    const block = known ?? (await this.v3.blocks({ workchain: -1, seqno, limit: 1, offset: 0 })).blocks[0];
    if (!block) throw new Error(`masterchain block ${seqno} is not there yet`);
    const transactions: Transaction[] = [];
    if (![...this.listeners.values()].includes(true)) return { block, transactions };
    for (let offset = 0; offset < MAX_BLOCK_TXS; offset += V3_MAX_LIMIT) {
      const page = await this.v3.transactionsByMasterchainBlock({ seqno, sort: 'asc', limit: V3_MAX_LIMIT, offset, noAddressBook: true });
      transactions.push(...page.transactions);
      if (page.transactions.length < V3_MAX_LIMIT) break;
    }
    return { block, transactions };
  }
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });

/** A tip read by polling masterchainInfo of any V3Api: one poll shared by every subscriber, backing off while it fails. */
export function pollTip(v3: V3Api, pollMs: number, log?: EventLog): TipSource {
  return {
    pollMs,
    async start(onTip) {
      let stopped = false;
      let failures = 0;
      let timer: NodeJS.Timeout | undefined;
      const poll = async (): Promise<Block | undefined> => {
        try {
          const { last } = await v3.masterchainInfo();
          failures = 0;
          return last;
        } catch (err) {
          failures++;
          log?.warn({ err, failures }, 'subscriptions: polling masterchainInfo failed');
          return undefined;
        }
      };
      // polls never overlap: the next one is scheduled when the previous has answered
      const schedule = (): void => {
        if (stopped) return;
        timer = setTimeout(async () => {
          const last = await poll();
          if (last && !stopped) onTip(last.seqno, last);
          schedule();
        }, failures ? backoffMs(pollMs, failures) : pollMs);
        timer.unref();
      };
      const first = await poll();
      schedule();
      return {
        tip: first?.seqno,
        stop: () => {
          stopped = true;
          clearTimeout(timer);
        },
      };
    },
  };
}
