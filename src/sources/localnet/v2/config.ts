/** v2 configuration endpoints over the local chain (v2.md §3.8): config params and libraries as of a masterchain block. */
import { Dictionary } from '@ton/core';
import type * as v2 from '../../../api/v2.js';
import { hashB64 } from '../../../model/hash.js';
import { bocB64 } from '../../../model/message.js';
import type { LocalV2Context } from './v2-context.js';

export function localConfig(ctx: LocalV2Context): v2.ConfigApi {
  return {
    async getConfigParam(p: v2.AtSeqno & { configId: number }): Promise<v2.ConfigInfo> {
      ctx.mcAt(p.seqno);
      const cell = ctx.chain.configParam(p.configId);
      return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: cell ? bocB64(cell) : '' } };
    },

    async getConfigAll(p: v2.AtSeqno): Promise<v2.ConfigInfo> {
      ctx.mcAt(p.seqno);
      return { '@type': 'configInfo', config: { '@type': 'tvm.cell', bytes: bocB64(ctx.chain.config) } };
    },

    async getLibraries(p: { libraries: Buffer[] }): Promise<v2.LibraryResult> {
      const libs = ctx.chain.bc.libs;
      const dict = libs ? Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), libs) : undefined;
      const result: v2.LibraryResult['result'] = [];
      for (const hash of p.libraries) {
        const lib = dict?.get(hash);
        if (lib) result.push({ '@type': 'smc.libraryEntry', hash: hashB64(hash), data: bocB64(lib) });
      }
      return { '@type': 'smc.libraryResult', result };
    },
  };
}
