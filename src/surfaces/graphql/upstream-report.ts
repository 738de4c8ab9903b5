/** Yoga plugin: a request that asked for its upstream cost (`X-Upstream-Report: 1`) gets it in `extensions.upstream`. */
import type { FastifyRequest } from 'fastify';
import type { Plugin } from 'graphql-yoga';
import { reportedLedger } from '../../pipeline/upstream-report.js';

export function useUpstreamReport(): Plugin {
  return {
    onExecute({ args }) {
      const req = (args.contextValue as { req?: FastifyRequest }).req;
      const ledger = req && reportedLedger(req);
      if (!ledger) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, upstream: ledger.report() } });
        },
      };
    },
  };
}
