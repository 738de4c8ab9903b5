/** An HTTP proxy counting the requests per path, standing in for an upstream provider's own books. */
import { createServer, type Server } from 'node:http';

export interface CountingProxy {
  url: string;
  /** requests seen, per path (query left off) */
  readonly counts: Map<string, number>;
  count(path: string): number;
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

/** An HTTP proxy to `target` counting the requests per path. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const counts = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const path = req.url!.split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    for (const h of ['x-no-address-book', 'x-no-metadata']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    count: (path) => counts.get(path) ?? 0,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    reset: () => counts.clear(),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
