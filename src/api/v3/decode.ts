/** v3 /decode (v3.md §2.7): names of opcodes and decoded message bodies, by query or JSON body (`GetDecode`, `PostDecode`). */
import { parseOpcodeString } from '../../model/v3/decode.js';
import { NO_CACHE } from '../descriptor.js';
import { ApiError } from '../errors.js';
import { bodyStrings } from './body.js';
import { list, text, v3Route } from './params.js';

/** `/decode`: names for opcodes (or "unknown"), objects for bodies (or `{"error":"unknown…"}`). */
export interface DecodeResponse {
  opcodes: string[];
  bodies: Record<string, unknown>[];
}

export interface DecodeParams {
  /** hex (optional 0x), decimal or signed decimal; at most 1000 */
  opcodes: string[];
  /** base64 ("te6…") or hex BoC; at most 1000 */
  bodies: string[];
}

/** What a source answers for these routes. */
export interface DecodeApi {
  decode(p: DecodeParams): Promise<DecodeResponse>;
}

const MAX_DECODE_ITEMS = 1000;

/** /decode's limits and opcode format, checked before the source is asked (`GetDecode`, `processDecode`). */
function checkDecode({ opcodes, bodies }: DecodeParams): void {
  if (opcodes.length > MAX_DECODE_ITEMS) throw new ApiError(422, `opcodes list exceeds maximum length of ${MAX_DECODE_ITEMS}`);
  if (bodies.length > MAX_DECODE_ITEMS) throw new ApiError(422, `bodies list exceeds maximum length of ${MAX_DECODE_ITEMS}`);
  opcodes.forEach((raw, i) => {
    if (parseOpcodeString(raw) === undefined) {
      throw new ApiError(422, `invalid opcode format at index ${i}: ${raw.startsWith('0x') ? raw.slice(2) : raw}`);
    }
  });
}

const OPCODES = 'opcodes: hex (optional 0x), decimal or signed decimal';
const BODIES = 'message bodies: base64 or hex BoC';

export const DECODE_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/decode',
    summary: 'Names of opcodes and decoded message bodies',
    params: { opcodes: list(text({ default: [], description: OPCODES })), bodies: list(text({ default: [], description: BODIES })) },
    response: 'DecodeResponse',
    cache: NO_CACHE,
    api: 'decode',
    check: checkDecode,
    // an upstream is asked by POST: it carries any number of items without URL limits, and answers the same
    upstream: false,
  }),

  v3Route({
    methods: ['POST'],
    path: '/decode',
    summary: 'Names of opcodes and decoded message bodies (lists in a JSON body)',
    bodyStruct: 'DecodeRequest',
    params: { opcodes: bodyStrings({ default: [], description: OPCODES }), bodies: bodyStrings({ default: [], description: BODIES }) },
    response: 'DecodeResponse',
    cache: NO_CACHE,
    api: 'decode',
    check: checkDecode,
  }),
];
