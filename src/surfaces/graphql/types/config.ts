/** Blockchain configuration parameters (v2.md §4.8 getConfigParam). Root field: configParam. */
import { isApiError } from '../../../api/errors.js';
import { builder } from '../builder.js';

const ConfigParamRef = builder.objectRef<{ id: number; boc: string }>('ConfigParam').implement({
  description: 'One ConfigParam as a cell.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    boc: t.field({ type: 'Boc', resolve: (p) => p.boc }),
  }),
});

builder.queryField('configParam', (t) =>
  t.field({
    type: ConfigParamRef,
    nullable: true,
    args: { id: t.arg.int({ required: true }), mcSeqno: t.arg.int({ description: 'As of this masterchain block; default the last.' }) },
    resolve: async (_root, args, ctx) => {
      try {
        const info = await ctx.v2.getConfigParam({ configId: args.id, ...(args.mcSeqno != null ? { seqno: args.mcSeqno } : {}) });
        return { id: args.id, boc: info.config.bytes };
      } catch (e) {
        // an absent parameter is a null, not an error
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
  }),
);
