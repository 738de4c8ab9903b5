/**
 * The baselines: a bare node:http server and a bare Fastify route answering the same fixed bodies (by path),
 * keep-alive; one process, loaded one at a time, so its CPU time over a run is that run's server's.
 */
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { serveRpc } from '../lib/child.js';

const bodies = new Map<string, Buffer>();
const server = createServer((req, res) => {
  // drain the request like any server must before answering
  req.resume();
  req.on('end', () => {
    const body = bodies.get((req.url ?? '/').split('?')[0]!) ?? Buffer.from('{}');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 5_000;
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const addr = server.address();
const port = typeof addr === 'object' && addr ? addr.port : 0;

const fastify = Fastify({ logger: false });
const answer = (path: string) => bodies.get(path) ?? Buffer.from('{}');
fastify.get('/api/v2/getAddressBalance', (_req, reply) => reply.type('application/json; charset=utf-8').send(answer('/api/v2/getAddressBalance')));
fastify.post('/graphql', (_req, reply) => reply.type('application/json; charset=utf-8').send(answer('/graphql')));
const fastifyUrl = await fastify.listen({ host: '127.0.0.1', port: 0 });

serveRpc(
  {
    setBody: (a: { path: string; body: string }) => {
      bodies.set(a.path, Buffer.from(a.body));
      return bodies.get(a.path)!.length;
    },
    cpu: () => process.cpuUsage(),
  },
  async () => {
    await fastify.close();
    await new Promise<void>((r) => server.close(() => r()));
  },
);
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}`, fastifyUrl, pid: process.pid });
