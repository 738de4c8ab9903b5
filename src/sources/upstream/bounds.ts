/**
 * Bounds on one upstream answer, applied before anything is decoded: its size (the declared length, then the
 * bytes as they arrive) and how deeply its JSON nests. An upstream is trusted for its data, not for its
 * manners: a misbehaving or hostile one must not be able to exhaust the gateway's memory or stack.
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
 * The body as text, or undefined as soon as it passes `maxBytes` (the stream is then destroyed, which
 * closes the connection and stops the upstream's sending). Read in flowing mode, chunks kept as they come
 * and joined once: an async iterator's read() would copy the buffered chunks into one at every step, and
 * copying into one growing buffer costs a fresh large allocation (and its page faults) at every doubling.
 */
export function readCapped(body: Readable, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= maxBytes) return void chunks.push(chunk);
      body.off('data', onData).off('end', onEnd).off('error', reject);
      chunks.length = 0;
      discard(body);
      resolve(undefined);
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks, total).toString('utf8');
      // a byte order mark is not JSON; undici's text() dropped it too
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    body.on('data', onData).once('end', onEnd).once('error', reject);
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
