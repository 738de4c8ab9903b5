/**
 * The local chain's own control routes: GET /localnet/wallets and /localnet/tokens, POST /localnet/faucet and
 * /localnet/impersonate, and the drills: POST /localnet/rollback, /localnet/reorg, /localnet/reset and
 * GET|POST /localnet/finality. Answers and errors in the `{code,error}` envelope; in upstream mode every route
 * answers 404 saying it needs the local chain.
 */
import { loadStateInit, type Cell, type StateInit } from '@ton/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isApiError } from '../../api/errors.js';
import type { LocalnetControl, LocalnetWorkbench } from '../../api/localnet.js';
import { parseAddressAny } from '../../model/address.js';
import { checkBoc, MESSAGE_LIMITS } from '../../model/limits.js';

const AMOUNT = /^[1-9]\d{0,29}$/;

/** Drills' messages at most in one reorg. */
const MAX_REORG_MESSAGES = 256;

export function registerLocalnetRoutes(app: FastifyInstance, capability: (() => LocalnetControl | undefined) | undefined): void {
  const notReady = { code: 503, error: 'local chain is starting' };
  if (!capability) {
    app.all('/localnet/*', async (req, reply) =>
      reply.code(404).send({ code: 404, error: `${req.url.split('?')[0]} needs the local chain: this gateway serves upstream mode (BACKEND=localnet serves a local chain or a fork)` }),
    );
    return;
  }
  const control = capability;

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

  app.get('/localnet/finality', async (_req, reply) => {
    const c = control();
    if (!c) return reply.code(503).send(notReady);
    return c.workbench.finality();
  });

  for (const d of DRILLS) {
    app.post(`/localnet/${d.name}`, async (req, reply) => {
      const c = control();
      if (!c) return reply.code(503).send(notReady);
      const body = req.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) return reply.code(422).send({ code: 422, error: `body must be a JSON object ${d.shape}` });
      const call = d.read(body as Record<string, unknown>);
      if (typeof call === 'string') return reply.code(422).send({ code: 422, error: call });
      return answer(reply, () => call(c.workbench));
    });
  }
}

/** A drill: its body's shape, its reading of the body (a call of the workbench, or why the body is refused). */
interface Drill {
  name: string;
  shape: string;
  read(body: Record<string, unknown>): string | ((w: LocalnetWorkbench) => Promise<unknown>);
}

const whole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

const DRILLS: readonly Drill[] = [
  // undoes the unfinalized blocks after to_seqno (and what is pending); refused for a finalized block
  {
    name: 'rollback',
    shape: '{"to_seqno"}',
    read: ({ to_seqno }) => (whole(to_seqno, 0) ? (w) => w.rollback(to_seqno) : 'to_seqno must be a masterchain seqno (a whole number)'),
  },
  // replaces the newest `depth` unfinalized blocks: with `replay`, holding the same messages again; `messages` are added
  {
    name: 'reorg',
    shape: '{"depth","replay"?,"messages"?}',
    read: ({ depth, replay, messages = [] }) => {
      if (!whole(depth, 1)) return 'depth must be a whole number of blocks, at least 1';
      if (replay !== undefined && typeof replay !== 'boolean') return 'replay must be true or false';
      if (!Array.isArray(messages) || messages.length > MAX_REORG_MESSAGES || !messages.every((m) => typeof m === 'string')) {
        return `messages must be a list of at most ${MAX_REORG_MESSAGES} message BoCs in base64`;
      }
      return (w) => w.reorg(depth, replay !== false, messages as string[]);
    },
  },
  // back to the chain genesis (or the fork block) left, without a restart
  {
    name: 'reset',
    shape: '{"fork_block"?}',
    read: ({ fork_block }) => (fork_block === undefined || whole(fork_block, 1) ? (w) => w.reset(fork_block) : 'fork_block must be a masterchain seqno (a whole number)'),
  },
  // how long a sealed block stays confirmed before it is final
  {
    name: 'finality',
    shape: '{"finality_delay_ms"}',
    read: ({ finality_delay_ms }) => (whole(finality_delay_ms, 0) ? (w) => w.setFinalityDelay(finality_delay_ms) : 'finality_delay_ms must be a whole number of ms'),
  },
];

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
