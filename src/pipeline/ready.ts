/**
 * GET /ready: 200 when the data source can answer now, 503 otherwise (upstream unreachable, the local chain
 * still in genesis, its storage refusing writes or no emulator up), with the reason.
 *
 * buildServer seals its routes with app.ready(), so this answers on the Node server in front of Fastify.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { normalizeUrl } from './request-path.js';

export type ReadyCheck = () => Promise<string | null>;

export function mountReady(app: FastifyInstance, check: ReadyCheck): void {
  const server = app.server;
  const fastifyHandlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // spelled as Fastify's routes see it (/%72eady, //ready), so the two never disagree on which path this is
    const url = normalizeUrl(req.url ?? '/');
    const isReady = url.startsWith('/ready') && (url.length === 6 || url.charCodeAt(6) === 0x3f);
    if (!isReady || (req.method !== 'GET' && req.method !== 'HEAD')) {
      for (const h of fastifyHandlers) h.call(server, req, res);
      return;
    }
    check().then(
      (problem) => send(res, req.method === 'HEAD', problem === null ? 200 : 503, problem === null ? { status: 'ready' } : { status: 'unavailable', error: problem }),
      (e: Error) => send(res, req.method === 'HEAD', 503, { status: 'unavailable', error: e.message }),
    );
  });
}

function send(res: ServerResponse, head: boolean, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(head ? undefined : text);
}
