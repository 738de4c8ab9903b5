/** /api/v3/decode over the local chain (v3.md §2.7): opcodes named and message bodies decoded, no chain read. */
import { ApiError } from '../../../api/errors.js';
import type { DecodeApi, DecodeParams, DecodeResponse } from '../../../api/v3/decode.js';
import { decodeBodyString, opcodeName, parseOpcodeString } from '../../../model/v3/decode.js';

export function localDecode(): DecodeApi {
  return {
    async decode(p: DecodeParams): Promise<DecodeResponse> {
      const opcodes = p.opcodes.map((raw, i) => {
        const op = parseOpcodeString(raw);
        if (op === undefined) throw new ApiError(422, `invalid opcode format at index ${i}: ${raw.startsWith('0x') ? raw.slice(2) : raw}`);
        return opcodeName(op);
      });
      return { opcodes, bodies: p.bodies.map(decodeBodyString) };
    },
  };
}
