/** GET /localnet/wallets, GET /localnet/tokens, POST /localnet/faucet and /localnet/impersonate: local-chain-only control routes. */
import { loadStateInit, type Cell, type StateInit } from '@ton/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isApiError } from '../../api/errors.js';
import type { LocalnetControl } from '../../api/localnet.js';
import { parseAddressAny } from '../../model/address.js';
import { checkBoc, MESSAGE_LIMITS } from '../../model/limits.js';

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
    return answer(reply, async () => {
      const { hash } = await c.faucet(address.address, BigInt(amount));
      return { address: address.address.toRawString(), amount, hash };
    });
  });

  app.post('/localnet/impersonate', async (req, reply) => {
    const c = control();
    if (!c) return reply.code(503).send(notReady);
    const body = req.body as Record<string, unknown> | null;
    const bad = (error: string) => reply.code(422).send({ code: 422, error });
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return bad('body must be a JSON object {"from","to","value","body"?,"stateInit"?,"bounce"?} or {"boc"}');
    }
    // {boc}: an external message to a wallet, run without that wallet's signature check
    if (body.boc !== undefined) {
      let message: Cell;
      try {
        message = oneCell(body.boc, 'boc');
      } catch (e) {
        return bad((e as Error).message);
      }
      return answer(reply, () => c.impersonateExternal(message));
    }
    const from = typeof body.from === 'string' ? parseAddressAny(body.from) : null;
    if (!from) return bad(`invalid from: '${String(body.from ?? '')}'`);
    const to = typeof body.to === 'string' ? parseAddressAny(body.to) : null;
    if (!to) return bad(`invalid to: '${String(body.to ?? '')}'`);
    const value = typeof body.value === 'number' && Number.isSafeInteger(body.value) ? String(body.value) : body.value;
    if (typeof value !== 'string' || !/^(0|[1-9]\d{0,29})$/.test(value)) return bad('value must be a whole number of nanotons, as a string');
    if (body.bounce !== undefined && typeof body.bounce !== 'boolean') return bad('bounce must be true or false');
    let cell: Cell | undefined;
    let stateInit: StateInit | undefined;
    try {
      cell = body.body === undefined ? undefined : oneCell(body.body, 'body');
      stateInit = body.stateInit === undefined ? undefined : loadStateInit(oneCell(body.stateInit, 'stateInit').beginParse());
    } catch (e) {
      return bad((e as Error).message);
    }
    const bounce = body.bounce !== false;
    return answer(reply, () => c.impersonate({ from: from.address, to: to.address, value: BigInt(value), bounce, body: cell, stateInit }));
  });
}

/** The call's answer, or its ApiError in the {code,error} envelope. */
async function answer<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await call();
  } catch (e) {
    if (isApiError(e)) return reply.code(e.status).send({ code: e.status, error: e.message });
    throw e;
  }
}

/** A one-root BoC in base64, within the external message limits. */
function oneCell(v: unknown, what: string): Cell {
  if (typeof v !== 'string') throw new Error(`${what} must be a BoC in base64`);
  const { roots } = checkBoc(Buffer.from(v, 'base64'), what, MESSAGE_LIMITS);
  if (roots.length !== 1) throw new Error(`${what} must hold one root cell, not ${roots.length}`);
  return roots[0]!;
}
