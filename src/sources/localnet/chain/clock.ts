/**
 * The local chain's virtual time, as acton's localnet keeps it (../shared/reference/acton-localnet.md §6): the
 * wall clock plus a signed offset in seconds, and a one-shot timestamp for the next block. Nothing here seals a
 * block; the chain asks `nextBlockUtime` when it opens one. Errors are acton's texts (ApiError 500, as acton
 * answers an untyped handler error).
 */
import { ApiError } from '../../../api/errors.js';

const U32_MAX = 2 ** 32 - 1;

/** What every time method answers (acton's NodeClockInfo). */
export interface ClockInfo {
  current_unix_time: number;
  time_offset_seconds: number;
  next_block_timestamp: number | null;
}

/** The part of the clock a checkpoint keeps and a restart continues from. */
export interface ClockState {
  offset: number;
  next: number | null;
}

const failure = (message: string): ApiError => new ApiError(500, message);

export class VirtualClock {
  private offset = 0;
  private next: number | null = null;

  constructor(private readonly wall: () => number = () => Math.floor(Date.now() / 1000)) {}

  now(): number {
    return this.wall() + this.offset;
  }

  info(): ClockInfo {
    return { current_unix_time: this.now(), time_offset_seconds: this.offset, next_block_timestamp: this.next };
  }

  get state(): ClockState {
    return { offset: this.offset, next: this.next };
  }

  set state(s: ClockState) {
    this.offset = s.offset;
    this.next = s.next;
  }

  increase(seconds: number): ClockInfo {
    if (seconds <= 0) throw failure('seconds must be greater than 0');
    if (this.now() + seconds > U32_MAX) throw failure(`localnet time cannot exceed ${U32_MAX}`);
    this.offset += seconds;
    return this.info();
  }

  /** Sets the offset so that now is `timestamp`; it may go back, but not before the newest block. */
  set(timestamp: number, latestBlock: number): ClockInfo {
    notBefore(timestamp, latestBlock);
    this.offset = timestamp - this.wall();
    return this.info();
  }

  setNextBlock(timestamp: number, latestBlock: number): ClockInfo {
    notBefore(timestamp, latestBlock);
    this.next = timestamp;
    return this.info();
  }

  /**
   * The gen_utime of the block being opened: the one-shot timestamp (used once; the clock is then moved up to it
   * if it was behind) when it is still not before the newest block, else now; never before the newest block.
   */
  nextBlockUtime(latestBlock: number): number {
    const next = this.next;
    this.next = null;
    if (next !== null && next >= latestBlock) {
      if (this.now() < next) this.offset = next - this.wall();
      return next;
    }
    return Math.max(latestBlock, this.now());
  }
}

function notBefore(timestamp: number, latestBlock: number): void {
  if (timestamp < latestBlock) throw failure(`timestamp ${timestamp} is before latest block timestamp ${latestBlock}`);
}
