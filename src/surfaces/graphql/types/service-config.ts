/** serviceConfig: the limits this endpoint enforces, readable by clients (as Sui publishes its own). */
import { builder } from '../builder.js';
import { LIMITS } from '../limits.js';
import type { SubscriptionRegistry } from '../subscriptions/registry.js';

interface ServiceConfigShape {
  limits: typeof LIMITS;
  /** this server's expansion limit (configurable, so not LIMITS') */
  maxFields: number;
  /** absent where the server has no chain event source */
  registry?: SubscriptionRegistry;
}

const ServiceConfigRef = builder.objectRef<ServiceConfigShape>('ServiceConfig').implement({
  fields: (t) => ({
    maxQueryDepth: t.int({ resolve: ({ limits }) => limits.maxDepth }),
    maxQueryCost: t.int({
      description: 'Each field costs 1; a connection multiplies its selection by its page size, other lists by a fixed estimate.',
      resolve: ({ limits }) => limits.maxCost,
    }),
    maxAliases: t.int({ resolve: ({ limits }) => limits.maxAliases }),
    maxQueryFields: t.int({
      description: 'Fields an operation selects once its fragments are expanded: every spread of a fragment counts its fields again, whatever the page sizes.',
      resolve: ({ maxFields }) => maxFields,
    }),
    maxQueryBytes: t.int({ description: 'Size of the GraphQL document.', resolve: ({ limits }) => limits.maxQueryBytes }),
    maxRequestBytes: t.int({ description: 'Size of the whole HTTP request body.', resolve: ({ limits }) => limits.maxRequestBytes }),
    defaultPageSize: t.int({ resolve: ({ limits }) => limits.defaultPageSize }),
    maxPageSize: t.int({ resolve: ({ limits }) => limits.maxPageSize }),
    maxListArgument: t.int({
      description: 'Items in a list argument (accounts.addresses, nodes.ids).',
      resolve: ({ limits }) => limits.maxListArgument,
    }),
    maxSubscriptionsPerClient: t.int({
      nullable: true,
      description: 'Open subscriptions per client (API key, else IP address); null where subscriptions are not served.',
      resolve: ({ registry }) => registry?.limits.maxPerClient ?? null,
    }),
    maxAccountsPerSubscription: t.int({
      nullable: true,
      description: 'Accounts one `transactions` subscription may watch; null where subscriptions are not served.',
      resolve: ({ registry }) => registry?.limits.maxAccounts ?? null,
    }),
    pollIntervalMs: t.int({
      nullable: true,
      description: 'Upstream mode: ms between the masterchainInfo polls that drive subscriptions; null on the local chain.',
      resolve: ({ registry }) => registry?.pollMs ?? null,
    }),
  }),
});

builder.queryField('serviceConfig', (t) =>
  t.field({ type: ServiceConfigRef, resolve: (_root, _args, ctx) => ({ limits: LIMITS, maxFields: ctx.maxFields ?? LIMITS.maxFields, registry: ctx.subscriptions?.registry }) }),
);
