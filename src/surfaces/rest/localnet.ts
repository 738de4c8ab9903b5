/** GET /localnet/wallets, GET /localnet/tokens and POST /localnet/faucet: local-chain-only control routes. */
import type { FastifyInstance } from 'fastify';
import { isApiError } from '../../api/errors.js';
import type { LocalnetControl } from '../../api/localnet.js';
import { parseAddressAny } from '../../model/address.js';

const AMOUNT = /^[1-9]\d{0,29}$/;

export function registerLocalnetRoutes(app: FastifyInstance, control: () => LocalnetControl | undefined): void {
  const notReady = { code: 503, error: 'local chain is starting' };

  app.get('/localnet/wallets', async (_req, reply) => {
    const c = control();
    if (!c) return reply.code(503).send(notReady);
    return c.wallets();
  });

  app.get('/localnet/tokens', async (_req, reply) => {
    const c = control();
    if (!c) return reply.code(503).send(notReady);
    return c.tokens();
  });

  app.post('/localnet/faucet', async (req, reply) => {
    const c = control();
    if (!c) return reply.code(503).send(notReady);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(422).send({ code: 422, error: 'body must be a JSON object {"address","amount"}' });
    }
    const address = typeof body.address === 'string' ? parseAddressAny(body.address) : null;
    if (!address) return reply.code(422).send({ code: 422, error: `invalid address: '${String(body.address ?? '')}'` });
    const amount = typeof body.amount === 'number' && Number.isSafeInteger(body.amount) ? String(body.amount) : body.amount;
    if (typeof amount !== 'string' || !AMOUNT.test(amount)) {
      return reply.code(422).send({ code: 422, error: 'amount must be a positive whole number of nanotons, as a string' });
    }
    try {
      const { hash } = await c.faucet(address.address, BigInt(amount));
      return { address: address.address.toRawString(), amount, hash };
    } catch (e) {
      if (isApiError(e)) return reply.code(e.status).send({ code: e.status, error: e.message });
      throw e;
    }
  });
}
