/**
 * A GraphQL query on the local chain holds a read of it (LocalnetControl.read) while it executes, so every field
 * of one answer sees the chain on the same side of a rewind. Mutations hold none (one may be the rewind), nor
 * do subscriptions (they live on; their events say what was undone).
 */
import { getOperationAST, Kind, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './builder.js';
import type { ServerContext } from './fast-path.js';

/** Whether the operation run is a query; a document of one operation (the common case) is read without a search. */
function isQuery(document: DocumentNode, operationName: string | null | undefined): boolean {
  const [only, ...rest] = document.definitions;
  if (only?.kind === Kind.OPERATION_DEFINITION && rest.length === 0) return only.operation === 'query';
  return getOperationAST(document, operationName)?.operation === 'query';
}

export function useChainReads(): Plugin {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as unknown as GraphQLContext & Partial<ServerContext>;
      const control = ctx.capabilities.control?.();
      if (!control || !isQuery(args.document, args.operationName)) return undefined;
      const hold = (release: () => void) => {
        // an execution that throws never reaches onExecuteDone: the response's end releases it then
        ctx.reply?.raw.once('close', release);
        return { onExecuteDone: () => release() };
      };
      const held = control.read();
      return typeof held === 'function' ? hold(held) : held.then(hold);
    },
  };
}
