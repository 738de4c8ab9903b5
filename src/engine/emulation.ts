/**
 * What every source's Emulate API shares of the engine: one emulation's budget, the bounds on all of them, and a
 * worker's failure in the reference's words.
 */
import { EmulateError, type EmulateBounds } from '../api/emulate.js';
import { ExecutorFailure } from './executor-pool.js';

/** toncenter's budget for one emulation */
export const DEFAULT_EMULATE_TIMEOUT_MS = 3000;

/**
 * Far above any answer the reference was recorded giving (the largest: 7 transactions, 12 KB of messages), and
 * small enough that the server's part of an emulation stays a fraction of its 3 s budget.
 */
export const EMULATION_BOUNDS: EmulateBounds = {
  maxAnswerBytes: 4 * 1024 * 1024,
  maxAnswerCells: 65_536,
  running: 2,
  queued: 16,
  perClient: 2,
};

/** The niceness of the emulator threads that run emulations: any client may keep them busy, so the rest of the server goes first. */
export const EMULATION_NICE = 10;

/** An emulator worker's failure (past its time bound, crashed, none up) in the reference's words; undefined for anything else. */
export function executorFailureError(e: unknown): EmulateError | undefined {
  if (!(e instanceof ExecutorFailure)) return undefined;
  if (e.reason === 'timeout') return new EmulateError(500, 'failed to receive result from emulator channel: context deadline exceeded');
  if (e.reason === 'unavailable') return new EmulateError(503, `emulator not ready: ${e.message}`);
  return new EmulateError(500, `failed to emulate: ${e.message}`);
}
