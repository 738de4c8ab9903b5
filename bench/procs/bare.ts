/**
 * The baselines: a bare node:http server and a bare Fastify route answering the same fixed bodies (by path),
 * and a graphql-jit compiled query in a bare node:http handler (the floor of a compiled GraphQL answer: parse
 * the JSON body, find the compiled document, execute it with the request's variables, stringify); keep-alive;
 * one process, loaded one at a time, so its CPU time over a run is that run's server's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { buildSchema, parse } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
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

// the compiled baseline: a one-type schema answering the gateway's balance query with the balance it printed
const jitSchema = buildSchema('type Account { balance: String } type Query { account(address: String!): Account }');
let jitBalance = '0';
// graphql-jit's default resolver reads properties (it does not call functions as graphql-js does): a getter
const jitRoot = {
  get account() {
    return { balance: jitBalance };
  },
};
const compiled = new Map<string, CompiledQuery>();
const jitServer = createServer((req: IncomingMessage, res: ServerResponse) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => {
    const { query, variables } = JSON.parse(text) as { query: string; variables?: Record<string, unknown> };
    let c = compiled.get(query);
    if (!c) {
      const made = compileQuery(jitSchema, parse(query.replace('Address!', 'String!')));
      if (!isCompiledQuery(made)) throw new Error('baseline query does not compile');
      compiled.set(query, (c = made));
    }
    const body = JSON.stringify(c.query(jitRoot, {}, variables ?? {}));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
jitServer.keepAliveTimeout = 5_000;
await new Promise<void>((r) => jitServer.listen(0, '127.0.0.1', r));
const jitAddr = jitServer.address();
const jitUrl = `http://127.0.0.1:${typeof jitAddr === 'object' && jitAddr ? jitAddr.port : 0}`;

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
    /** the balance the compiled baseline answers with, so its body equals the gateway's */
    setJitBalance: (a: { balance: string }) => void (jitBalance = a.balance),
    cpu: () => process.cpuUsage(),
  },
  async () => {
    await fastify.close();
    await new Promise<void>((r) => server.close(() => r()));
    await new Promise<void>((r) => jitServer.close(() => r()));
  },
);
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}`, fastifyUrl, jitUrl, pid: process.pid });
