/** Mutation sendMessage: hands an external message to the network (v3 POST /message). */
import { builder } from '../builder.js';

const SentMessageRef = builder.objectRef<{ message_hash: string; message_hash_norm?: string }>('SentMessage').implement({
  fields: (t) => ({
    hash: t.field({ type: 'Hash', resolve: (r) => r.message_hash }),
    hashNorm: t.field({
      type: 'Hash',
      nullable: true,
      description: 'TEP-467 normalised hash, the one to look the message up by once it lands.',
      resolve: (r) => r.message_hash_norm ?? null,
    }),
  }),
});

builder.mutationField('sendMessage', (t) =>
  t.field({
    type: SentMessageRef,
    nullable: true,
    args: { boc: t.arg({ type: 'Boc', required: true, description: 'The external-in message, base64 BoC.' }) },
    resolve: (_root, args, ctx) => ctx.v3.message({ boc: args.boc }),
  }),
);
