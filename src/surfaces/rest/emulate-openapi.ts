/**
 * The OpenAPI 3.0 document of the Emulate API v1 (surfaces/rest/emulate.ts), from emulate-v1.md: both requests
 * with every field, the answer's members, and the `{"error"}` errors. toncenter's own swagger leaves the answers
 * empty; this one names them.
 */
import { EMULATE_LIMITS } from '../../api/emulate.js';
import { EMULATE_PREFIX } from './emulate.js';

type Json = Record<string, unknown>;

const bool = (description: string): Json => ({ type: 'boolean', default: false, description });
const b64 = (description: string): Json => ({ type: 'string', format: 'byte', description });

const COMMON: Record<string, Json> = {
  with_actions: bool('Classify the trace and fill `actions`.'),
  include_code_data: bool('Accepted; `code_cells` and `data_cells` are always present, as on toncenter.'),
  include_address_book: bool('Add `address_book`.'),
  include_metadata: bool('Add `metadata`.'),
  mc_block_seqno: { type: 'integer', format: 'int64', minimum: 0, maximum: 4294967295, nullable: true, description: 'Emulate on the state of this masterchain block; default the latest.' },
};

const RESPONSE: Json = {
  type: 'object',
  required: ['mc_block_seqno', 'trace', 'transactions', 'actions', 'code_cells', 'data_cells', 'rand_seed', 'is_incomplete'],
  properties: {
    mc_block_seqno: { type: 'integer', description: 'The masterchain block whose state was the base.' },
    trace: { type: 'object', description: '`{tx_hash, in_msg_hash, children}`, as v3 /traces builds it.' },
    transactions: { type: 'object', additionalProperties: { type: 'object' }, description: 'v3 transactions by base64 hash, each `emulated: true`, `finality: "pending"`.' },
    actions: { type: 'array', items: { type: 'object' }, description: 'v3 actions; `[]` unless `with_actions`.' },
    code_cells: { type: 'object', additionalProperties: { type: 'string' }, description: 'Code BoC by code hash, of every state the emulation produced.' },
    data_cells: { type: 'object', additionalProperties: { type: 'string' }, description: 'Data BoC by data hash, likewise.' },
    address_book: { type: 'object', description: 'With `include_address_book`.' },
    metadata: { type: 'object', description: 'With `include_metadata`.' },
    rand_seed: b64('The random seed of this emulation (32 bytes, fresh each time).'),
    is_incomplete: { type: 'boolean', description: `True when the ${EMULATE_LIMITS.maxTransactions}-transaction limit stopped it; the depth limit (${EMULATE_LIMITS.maxDepth}) cuts silently.` },
  },
};

const ERROR = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } };

function operation(summary: string, request: Json): Json {
  return {
    summary,
    parameters: [{ name: 'X-Actions-Version', in: 'header', required: false, schema: { type: 'string' }, description: 'One action-type version or shortcut (v1…v5, latest, jettons, …); default latest (emulateTonConnect: v1).' }],
    requestBody: { required: true, content: { 'application/json': { schema: request } } },
    responses: {
      200: { description: 'The emulated trace.', content: { 'application/json': { schema: RESPONSE } } },
      400: { description: '`invalid request: …`', content: { 'application/json': { schema: ERROR } } },
      500: { description: 'The emulation failed (`EmulationExternalNotAccepted: <exit code>`, `mc block seqno is too new`, a TON Connect wallet that is not known, past the time budget).', content: { 'application/json': { schema: ERROR } } },
    },
  };
}

export function emulateOpenApi(version: string): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'toncenter Emulate API v1', version },
    servers: [{ url: EMULATE_PREFIX }],
    paths: {
      '/emulateTrace': {
        post: operation('Emulate the trace of one message BoC', {
          type: 'object',
          required: ['boc'],
          // strict parameters (issue 46): a member not listed is refused with 422 unless X-Lenient-Params: 1
          additionalProperties: false,
          properties: { boc: b64('The message (normally external-in), standard base64.'), ignore_chksig: bool('Signature checks always succeed.'), ...COMMON },
        }),
      },
      '/emulateTonConnect': {
        post: operation("Build the wallet's message from a TON Connect sendTransaction payload, then emulate it", {
          type: 'object',
          required: ['from', 'messages'],
          additionalProperties: false,
          properties: {
            from: { type: 'string', description: 'The wallet (v3r1, v3r2, v4r1, v4r2, v5r1), raw or user-friendly.' },
            messages: {
              type: 'array',
              minItems: 1,
              maxItems: EMULATE_LIMITS.maxTonConnectMessages,
              items: {
                type: 'object',
                required: ['address', 'amount'],
                properties: { address: { type: 'string' }, amount: { type: 'string', pattern: '^[0-9]+$' }, payload: b64('Body BoC.'), stateInit: b64('StateInit BoC.') },
              },
            },
            valid_until: { type: 'integer', format: 'int64', nullable: true, description: 'v4 and v5 wallets: s, ms, µs or ns; default now + 300 s.' },
            network: { type: 'string', description: "The payload's network id, as TON Connect sends it; read and ignored." },
            ...COMMON,
          },
        }),
      },
    },
  };
}
