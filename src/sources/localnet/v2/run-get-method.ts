/** v2 get-method endpoints over the local chain (v2.md §3.6): run on a stored state in the emulator, the live chain untouched. */
import type * as v2 from '../../../api/v2.js';
import { stackArgsToTuple, tupleToLegacy, tupleToStd } from '../../../model/stack.js';
import { blockIdExt } from '../chain/blocks.js';
import type { LocalV2Context } from './v2-context.js';

export function localRunGetMethod(ctx: LocalV2Context): v2.RunGetMethodApi {
  return {
    async runGetMethod(p: v2.RunGetMethodParams & { stack: v2.StackArg[] }): Promise<v2.RunResult> {
      const r = await ctx.runGet(p.address, p.method, stackArgsToTuple(p.stack), p.seqno);
      return {
        '@type': 'smc.runResult',
        gas_used: r.gasUsed,
        stack: tupleToLegacy(r.stack),
        exit_code: r.exitCode,
        block_id: blockIdExt(r.view.mc),
        last_transaction_id: r.view.lastTx,
      };
    },

    async runGetMethodStd(p: v2.RunGetMethodParams & { stack: v2.StackArg[] }): Promise<v2.RunResultStd> {
      const r = await ctx.runGet(p.address, p.method, stackArgsToTuple(p.stack), p.seqno);
      return { '@type': 'smc.runResult', gas_used: r.gasUsed, stack: tupleToStd(r.stack), exit_code: r.exitCode };
    },
  };
}
