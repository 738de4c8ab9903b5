/**
 * Two request headers about the upstream (upstream mode; harmless elsewhere):
 *
 * - `X-Upstream-Report: 1`: the answer says what it cost, as the JSON object of src/remote/ledger.ts
 *   in an `X-Upstream-Report` response header (GraphQL also puts it in `extensions.upstream`); such an answer is
 *   `no-store`, since its report is its own.
 * - `Prefer: wait=N` (RFC 7240; N in whole seconds, at most MAX_WAIT_S): the answer comes within N seconds of the
 *   request's arrival; an upstream call not answered by then fails for this request (504 on REST, a null field
 *   coded UPSTREAM_DEADLINE in GraphQL) and goes on into the cache. The answer carries `Preference-Applied: wait=N`.
 *
 * Without either header a request has no ledger, and its answer is what it was before these existed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Ledger, preferredWait, withLedger } from '../remote/ledger.js';

interface Entry {
  ledger: Ledger;
  report: boolean;
}

const entries = new WeakMap<FastifyRequest, Entry>();

/** The ledger of a request that asked for a report, if it did. */
export const reportedLedger = (req: FastifyRequest): Ledger | undefined => {
  const e = entries.get(req);
  return e?.report ? e.ledger : undefined;
};

export function registerUpstreamReport(app: FastifyInstance): void {
  app.addHook('onRequest', (req, _reply, done) => {
    const report = req.headers['x-upstream-report'] === '1';
    const wait = preferredWait(req.headers.prefer);
    // the deadline counts from the request's arrival
    if (report || wait !== undefined) entries.set(req, { ledger: new Ledger(wait === undefined ? undefined : performance.now() + wait * 1000, wait), report });
    done();
  });
  // entered after the body is read: stream events would not carry the context from an earlier hook
  app.addHook('preHandler', (req, _reply, done) => {
    const e = entries.get(req);
    if (!e) return done();
    withLedger(e.ledger, done);
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    const e = entries.get(req);
    if (e) {
      if (e.ledger.waitS !== undefined) reply.header('preference-applied', `wait=${e.ledger.waitS}`);
      if (e.report) {
        reply.header('x-upstream-report', JSON.stringify(e.ledger.report()));
        reply.header('cache-control', 'no-store');
        reply.removeHeader('etag');
      }
    }
    done(null, payload);
  });
}
