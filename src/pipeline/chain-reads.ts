/**
 * Two request stages for the local chain's workbench (api/localnet.ts), on every REST read of the chain:
 * - each request under /api/v2, /api/v3 and /api/emulate holds a read of the chain until its answer is sent, so
 *   it sees the chain on one side of a rewind (a restored checkpoint, a rollback, a reorg, a reset), never a mix;
 * - acton_setNetworkConditions' response delay is added to those answers once built, as acton adds it (the
 *   streaming routes and acton's own control routes are never delayed).
 * GraphQL holds its reads per query operation (surfaces/graphql), so that a mutation that rewinds is not
 * waiting for itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LocalnetControl } from '../api/localnet.js';

const READS = ['/api/v2', '/api/v3', '/api/emulate'];

const isRead = (req: FastifyRequest): boolean => READS.some((p) => req.url === p || req.url.startsWith(`${p}/`) || req.url.startsWith(`${p}?`));

export function registerChainReads(app: FastifyInstance, control: (() => LocalnetControl | undefined) | undefined): void {
  if (!control) return;
  // callback hooks: a read of the chain held at once, with no delay to add, costs a request no promise
  app.addHook('onRequest', (req, reply, done) => {
    const c = isRead(req) ? control() : undefined;
    if (!c) return done();
    // sent, failed or cut off: the read ends with the response
    const held = c.read();
    if (typeof held === 'function') {
      reply.raw.once('close', held);
      return done();
    }
    held.then((release) => {
      reply.raw.once('close', release);
      done();
    }, done);
  });
  app.addHook('onSend', (req, _reply, payload, done) => {
    const delay = isRead(req) ? (control()?.workbench.responseDelayMs ?? 0) : 0;
    if (delay > 0) setTimeout(() => done(null, payload), delay);
    else done(null, payload);
  });
}
