/**
 * The webhooks API (docs/webhooks.md): `POST/GET /api/webhooks/v1`, `GET/PATCH/DELETE /api/webhooks/v1/{id}`
 * and `GET /api/webhooks/v1/{id}/deliveries`, over the live hub's webhooks. A webhook belongs to the API key that
 * made it (X-API-Key or api_key, checked by the pipeline's key stage first); another key gets 404 for it, as for
 * one that does not exist. Errors are `{code, error}`, as v3's.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiKeyOf } from '../../pipeline/auth.js';
import { bodyLimit, WebhookInputError, type WebhookLimits } from '../../live/webhooks/spec.js';
import { WebhookForbidden, WebhookNotFound, WebhookUnavailable, type Webhooks } from '../../live/webhooks/webhooks.js';

export const WEBHOOKS_PATH = '/api/webhooks/v1';

export interface WebhookRouteDeps {
  /** the webhooks, once the source's live feed is up */
  webhooks: () => Webhooks | undefined;
  limits: Pick<WebhookLimits, 'maxAddresses' | 'deliveryLog'>;
}

const fail = (reply: FastifyReply, code: number, error: string) => reply.code(code).send({ code, error });

/** The status an operation's error answers with. */
function refusal(e: unknown): { code: number; error: string } | undefined {
  if (e instanceof WebhookInputError) return { code: 400, error: e.message };
  if (e instanceof WebhookNotFound) return { code: 404, error: e.message };
  if (e instanceof WebhookForbidden) return { code: 401, error: e.message };
  if (e instanceof WebhookUnavailable) return { code: 503, error: e.message };
  return undefined;
}

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  void app.register(async (scope) => {
    scope.setErrorHandler((err: FastifyError, _req, reply) => {
      const known = refusal(err);
      if (known) return fail(reply, known.code, known.error);
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(reply, 413, `request body too large: at most ${bodyLimit(deps.limits)} bytes`);
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return fail(reply, err.statusCode, err.message);
      app.log.error({ err }, 'webhooks: a request failed');
      return fail(reply, 500, 'internal error');
    });

    /** The webhooks and who the request acts as; answered 503 / 401 when there is neither. */
    const caller = (req: FastifyRequest, reply: FastifyReply): { webhooks: Webhooks; owner: string } | undefined => {
      const webhooks = deps.webhooks();
      if (!webhooks) return void fail(reply, 503, 'webhooks are not available yet: the source is starting, or it has no live events');
      try {
        return { webhooks, owner: webhooks.ownerOf(apiKeyOf(req)) };
      } catch (e) {
        const known = refusal(e);
        if (!known) throw e;
        return void fail(reply, known.code, known.error);
      }
    };

    const limit = bodyLimit(deps.limits);
    scope.post(WEBHOOKS_PATH, { bodyLimit: limit }, async (req, reply) => {
      const c = caller(req, reply);
      if (c) return reply.code(201).send(await c.webhooks.create(c.owner, req.body));
    });
    scope.get(WEBHOOKS_PATH, async (req, reply) => {
      const c = caller(req, reply);
      if (c) return reply.send({ webhooks: await c.webhooks.list(c.owner) });
    });
    scope.get<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id`, async (req, reply) => {
      const c = caller(req, reply);
      if (c) return reply.send(await c.webhooks.get(c.owner, req.params.id));
    });
    scope.patch<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id`, { bodyLimit: limit }, async (req, reply) => {
      const c = caller(req, reply);
      if (c) return reply.send(await c.webhooks.change(c.owner, req.params.id, req.body));
    });
    scope.delete<{ Params: { id: string } }>(`${WEBHOOKS_PATH}/:id`, async (req, reply) => {
      const c = caller(req, reply);
      if (!c) return;
      await c.webhooks.remove(c.owner, req.params.id);
      return reply.code(204).send();
    });
    scope.get<{ Params: { id: string }; Querystring: { limit?: string } }>(`${WEBHOOKS_PATH}/:id/deliveries`, async (req, reply) => {
      const c = caller(req, reply);
      if (!c) return;
      const given = req.query.limit;
      const n = given === undefined ? deps.limits.deliveryLog : Number(given);
      if (!Number.isInteger(n) || n < 1 || n > deps.limits.deliveryLog) return fail(reply, 400, `limit must be a whole number from 1 to ${deps.limits.deliveryLog}`);
      return reply.send({ deliveries: await c.webhooks.deliveries(c.owner, req.params.id, n) });
    });
  });
}
