/**
 * A GraphQL query on the local chain holds a read of it (LocalnetControl.read) while it executes, so every field
 * of one answer sees the chain on the same side of a rewind. Mutations hold none (one may be the rewind), nor
 * do subscriptions (they live on; their events say what was undone).
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './builder.js';
import type { ServerContext } from './fast-path.js';

export function useChainReads(): Plugin {
  return {
    async onExecute({ args }) {
      const ctx = args.contextValue as unknown as GraphQLContext & Partial<ServerContext>;
      const control = ctx.capabilities.control?.();
      if (!control || getOperationAST(args.document, args.operationName)?.operation !== 'query') return undefined;
      const release = await control.read();
      // an execution that throws never reaches onExecuteDone: the response's end releases it then
      ctx.reply?.raw.once('close', release);
      return { onExecuteDone: () => release() };
    },
  };
}
