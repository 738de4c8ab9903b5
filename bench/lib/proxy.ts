/** A delaying HTTP proxy: every request waits `delayMs` before it is forwarded, and is counted. */
import { createServer, request, Agent, type Server } from 'node:http';

export interface DelayProxy {
  url: string;
  /** requests forwarded since the last reset */
  count(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const t = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    setTimeout(() => {
      const up = request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent },
        (ur) => {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
        },
      );
      up.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      req.pipe(up);
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => n,
    reset: () => {
      n = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
