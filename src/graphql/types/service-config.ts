/** serviceConfig: the limits this endpoint enforces, readable by clients (as Sui publishes its own). */
import { builder } from '../builder.js';
import { LIMITS } from '../limits.js';

const ServiceConfigRef = builder.objectRef<typeof LIMITS>('ServiceConfig').implement({
  fields: (t) => ({
    maxQueryDepth: t.int({ resolve: (l) => l.maxDepth }),
    maxQueryCost: t.int({
      description: 'Each field costs 1; a connection multiplies its selection by its page size, other lists by a fixed estimate.',
      resolve: (l) => l.maxCost,
    }),
    maxAliases: t.int({ resolve: (l) => l.maxAliases }),
    maxQueryBytes: t.int({ description: 'Size of the GraphQL document.', resolve: (l) => l.maxQueryBytes }),
    maxRequestBytes: t.int({ description: 'Size of the whole HTTP request body.', resolve: (l) => l.maxRequestBytes }),
    defaultPageSize: t.int({ resolve: (l) => l.defaultPageSize }),
    maxPageSize: t.int({ resolve: (l) => l.maxPageSize }),
    maxListArgument: t.int({ description: 'Items in a list argument (accounts.addresses, nodes.ids).', resolve: (l) => l.maxListArgument }),
  }),
});

builder.queryField('serviceConfig', (t) => t.field({ type: ServiceConfigRef, resolve: () => LIMITS }));
