/**
 * Bounds on upstream answers, applied before anything is decoded: each one's size (the declared length, then
 * the bytes as they arrive), the bytes of all of them being read at once, and how deeply one's JSON nests. An
 * upstream is trusted for its data, not for its manners: a misbehaving or hostile one must not be able to
 * exhaust the gateway's memory or stack, nor hold its event loop.
 */
import type { Readable } from 'node:stream';

/**
 * Deepest JSON nesting accepted. toncenter's deepest legitimate answers are traces (two levels per message
 * hop) and get-method stacks (three per nested tuple; lisp-style lists come flattened, as tvm.list), far below
 * this. JSON.stringify and the surfaces' recursive walks overflow the stack a few thousand levels down (about
 * 4,500 for JSON.stringify from an empty stack), so this keeps a wide margin.
 */
export const MAX_JSON_DEPTH = 1_000;

/**
 * Bytes of upstream answers being read at once, over all of them: each answer is bounded by the size cap, and
 * this bounds them together, so memory does not grow with the number of answers in flight.
 */
export class ReadBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  take(n: number): boolean {
    if (this.used + n > this.limit) return false;
    this.used += n;
    return true;
  }

  give(n: number): void {
    this.used -= n;
  }
}

/** Bytes of one answer read between turns of the event loop given to other work. */
const YIELD_BYTES = 1024 * 1024;

/** A body read whole, or why it was not: past the answer's own cap, or past the budget of all answers. */
export type Read = { text: string } | { refused: 'size' | 'budget' };

/**
 * Reads a body while it stays within `maxBytes` and the shared budget; past either, the stream is destroyed
 * (which closes the connection and stops the upstream's sending). Read in flowing mode, chunks kept as they
 * come and joined once: an async iterator's read() would copy the buffered chunks into one at every step, and
 * copying into one growing buffer costs a fresh large allocation (and its page faults) at every doubling.
 */
export function readCapped(body: Readable, maxBytes: number, budget: ReadBudget): Promise<Read> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let unyielded = 0;
    const done = () => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      budget.give(total);
    };
    const onData = (chunk: Buffer) => {
      const refused = total + chunk.length > maxBytes ? 'size' : !budget.take(chunk.length) ? 'budget' : undefined;
      if (refused === undefined) {
        total += chunk.length;
        chunks.push(chunk);
        // a fast large answer must not crowd out everyone else's work: a turn of the event loop in between
        if ((unyielded += chunk.length) >= YIELD_BYTES) {
          unyielded = 0;
          body.pause();
          setImmediate(() => body.resume());
        }
        return;
      }
      done();
      chunks.length = 0;
      discard(body);
      resolve({ refused });
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, total).toString('utf8');
      done();
      // a byte order mark is not JSON; undici's text() dropped it too
      resolve({ text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    // destroyed without an error: no 'end' and no 'error' would ever come
    const onClose = () => onError(Object.assign(new Error('answer closed before its end'), { code: 'UND_ERR_CLOSED' }));
    body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** Stops reading a body and closes its connection; the stream's abort error is expected, not reported. */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/**
 * Whether JSON text nests deeper than `max` brackets: one linear pass counting `{`/`[` against `}`/`]`,
 * skipping strings whole (a quote ends one unless an odd run of backslashes precedes it). Text that is not
 * JSON gives some answer; JSON.parse reports it afterwards.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return false;
        let b = i - 1;
        while (text.charCodeAt(b) === 0x5c) b--;
        if ((i - 1 - b) % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
