/**
 * A streamed answer (SSE, graphql-sse's single-connection stream, multipart) whose client does not read must not
 * queue without end: the body is taken from its producer as soon as each chunk is made, so everything the client
 * has not read sits in Node's buffers where it can be counted, and past the bound the stream is cancelled (its
 * operations and subscriptions end) and the response cut.
 */
import type { ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

export function boundedStream(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  maxBytes: number,
  onOverflow: (queuedBytes: number) => void,
): Readable {
  const out = new PassThrough();
  const reader = body.getReader();
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    reader.cancel().catch(() => undefined);
  };
  // Fastify destroys the piped stream when the response closes, whoever closed it
  out.once('close', stop);
  const pump = async (): Promise<void> => {
    while (!stopped) {
      const { value, done } = await reader.read();
      if (done) return void (stopped || out.end());
      out.write(value);
      // unread bytes: waiting in the stream piped to the response, in the response, and in its socket
      const queued = out.writableLength + out.readableLength + res.writableLength;
      if (queued > maxBytes) {
        onOverflow(queued);
        stop();
        res.destroy();
        out.destroy();
      }
    }
  };
  pump().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  return out;
}
