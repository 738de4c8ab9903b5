/**
 * What a message would do, before it is signed or sent: Query.emulate (a message BoC) and
 * Query.emulateTonConnect (a TON Connect sendTransaction payload), the Emulate API of the data source
 * (api/emulate.ts) answered as the graph's own Trace: its transactions, messages, typed actions and accounts
 * (linked and loaded in batches like every other trace's), marked `emulated`, with the `fees` the sender paid
 * (its `balanceChanges` are in types/balance-changes.ts). Query fields, not mutations: nothing changes anywhere,
 * so they may be retried and asked beside other reads in one operation.
 */
import { GraphQLError } from 'graphql';
import { EmulateError, type EmulateApi, type EmulationResult } from '../../../api/emulate.js';
import { ApiError } from '../../../api/errors.js';
import { traceToV3 } from '../../../model/v3/trace.js';
import type { Trace } from '../wire.js';
import { builder, type GraphQLContext } from '../builder.js';
import { ErrorCode } from '../errors.js';
import { TraceRef } from './trace.js';

/** what the graph shows of an emulated trace beside the trace itself */
const emulations = new WeakMap<Trace, EmulationResult>();

function traceOf(r: EmulationResult): Trace {
  const txs = r.order.map((o) => r.response.transactions[o.hash]!);
  const parents = new Map(r.order.map((o) => [o.hash, o.parent]));
  const trace = traceToV3({
    traceId: null,
    txs,
    state: 'pending',
    classification: 'ok',
    pendingTxHashes: new Set(txs.map((t) => t.hash)),
    parentOf: (h) => parents.get(h),
    actions: r.response.actions,
  });
  trace.is_incomplete = r.response.is_incomplete;
  emulations.set(trace, r);
  return trace;
}

/**
 * A BoC that does not decode is the client's fault: REST answers it 500 as toncenter words it (emulate-v1.md §5),
 * but the graph codes it as bad input, as every other malformed argument.
 */
const UNREADABLE_BOC = /^Can't (decode base64|deserialize message) boc/;

/** The code of a source's refusal: the reference's 400s and unreadable BoCs are bad input, the gateway's bounds their own, the rest say what failed. */
function codeOf(e: EmulateError): ErrorCode {
  if (e.status === 400 || UNREADABLE_BOC.test(e.message)) return ErrorCode.BAD_USER_INPUT;
  if (e.status === 429) return ErrorCode.TOO_MANY_EMULATIONS;
  if (e.status === 413) return ErrorCode.EMULATION_TOO_LARGE;
  return ErrorCode.EMULATION_FAILED;
}

/** The source's refusals as coded field errors; a 429's Retry-After both in the error and, as yoga sends it, as a header. */
async function emulating(ctx: GraphQLContext, run: (api: EmulateApi, client: string | undefined) => Promise<EmulationResult>): Promise<Trace> {
  const api = ctx.capabilities.emulate?.();
  if (!ctx.capabilities.emulate) throw new ApiError(501, 'no data source of this gateway can emulate');
  if (!api) throw new ApiError(503, 'the data source is still starting');
  try {
    return traceOf(await run(api, ctx.client?.()));
  } catch (e) {
    if (!(e instanceof EmulateError)) throw e;
    const code = codeOf(e);
    const retry = e.retryAfterS === undefined ? {} : { retryAfter: e.retryAfterS, http: { headers: { 'retry-after': String(e.retryAfterS) } } };
    throw new GraphQLError(e.message, { extensions: { code, status: code === ErrorCode.BAD_USER_INPUT ? 400 : e.status, ...retry } });
  }
}

/** The emulation behind a trace the graph built from one (Query.emulate…), for the fields other types add. */
export const emulationOf = (trace: Trace): EmulationResult | undefined => emulations.get(trace);

builder.objectFields(TraceRef, (t) => ({
  emulated: t.boolean({ description: 'True for a trace that was emulated (Query.emulate…), never executed.', resolve: (tr) => emulations.has(tr) }),
  fees: t.field({
    type: 'BigInt',
    nullable: true,
    description: 'Emulated traces: what the account the trace starts at paid in fees, nanotons; null otherwise.',
    resolve: (tr) => emulations.get(tr)?.senderFees ?? null,
  }),
}));

const TonConnectMessageInput = builder.inputType('TonConnectMessage', {
  description: 'One message of a TON Connect sendTransaction payload.',
  fields: (t) => ({
    address: t.string({ required: true, description: 'Destination, friendly (its bounce flag is used) or raw (bounceable).' }),
    amount: t.field({ type: 'BigInt', required: true, description: 'Nanotons.' }),
    payload: t.field({ type: 'Boc' }),
    stateInit: t.field({ type: 'Boc' }),
  }),
});

const b64 = (b: Buffer | null | undefined): string | undefined => (b ? b.toString('base64') : undefined);

builder.queryField('emulate', (t) =>
  t.field({
    type: TraceRef,
    description: 'What a message (normally a signed external one) would do on the state of a masterchain block; nothing is sent.',
    args: {
      boc: t.arg({ type: 'Boc', required: true }),
      ignoreSignature: t.arg.boolean({ description: 'Run with signature checks off, for unsigned or dummy-signed messages.' }),
      atSeqno: t.arg.int({ description: 'Masterchain block whose state to start from; default the latest.' }),
    },
    resolve: (_root, args, ctx) =>
      emulating(ctx, (api, client) =>
        api.emulateTrace({
          boc: args.boc.toString('base64'),
          ignore_chksig: args.ignoreSignature ?? false,
          with_actions: true,
          actionsVersion: ['latest'],
          mc_block_seqno: args.atSeqno ?? null,
          ...(client ? { client } : {}),
        }),
      ),
  }),
);

builder.queryField('emulateTonConnect', (t) =>
  t.field({
    type: TraceRef,
    description: 'What a TON Connect sendTransaction payload would do, built into the `from` wallet’s message as the wallet would (v3, v4, v5r1).',
    args: {
      from: t.arg({ type: 'Address', required: true }),
      messages: t.arg({ type: [TonConnectMessageInput], required: true }),
      validUntil: t.arg.int({ description: 'Unix time (s, ms, µs or ns); default now + 300 s.' }),
      atSeqno: t.arg.int({ description: 'Masterchain block whose state to run on; default the latest. The wallet (its version and seqno) is read at the latest.' }),
    },
    resolve: (_root, args, ctx) =>
      emulating(ctx, (api, client) =>
        api.emulateTonConnect({
          ...(client ? { client } : {}),
          from: args.from.toRawString(),
          messages: args.messages.map((m) => ({ address: m.address, amount: m.amount.toString(), ...(m.payload ? { payload: b64(m.payload) } : {}), ...(m.stateInit ? { stateInit: b64(m.stateInit) } : {}) })),
          valid_until: args.validUntil ?? null,
          mc_block_seqno: args.atSeqno ?? null,
          with_actions: true,
          actionsVersion: ['latest'],
        }),
      ),
  }),
);
