/** What every source's Emulate API shares of the engine: one emulation's budget, and a worker's failure in the reference's words. */
import { EmulateError } from '../api/emulate.js';
import { ExecutorFailure } from './executor-pool.js';

/** toncenter's budget for one emulation */
export const DEFAULT_EMULATE_TIMEOUT_MS = 3000;

/** An emulator worker's failure (past its time bound, crashed, none up) in the reference's words; undefined for anything else. */
export function executorFailureError(e: unknown): EmulateError | undefined {
  if (!(e instanceof ExecutorFailure)) return undefined;
  if (e.reason === 'timeout') return new EmulateError(500, 'failed to receive result from emulator channel: context deadline exceeded');
  if (e.reason === 'unavailable') return new EmulateError(503, `emulator not ready: ${e.message}`);
  return new EmulateError(500, `failed to emulate: ${e.message}`);
}
