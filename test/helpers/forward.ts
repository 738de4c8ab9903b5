import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers a request with what `target` answers to it (a 502 when `target` cannot be reached): a proxy's forwarding. */
export function forward(target: string, req: IncomingMessage, body: Buffer<ArrayBuffer> | undefined, res: ServerResponse): void {
  fetch(target + req.url, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json' }, body })
    .then(async (r) => {
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await r.arrayBuffer()));
    })
    .catch(() => {
      res.writeHead(502);
      res.end();
    });
}
