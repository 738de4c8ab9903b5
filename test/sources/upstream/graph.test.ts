/**
 * The GraphQL graph suite (test/surfaces/graphql/graph.test.ts) through upstream mode: the server under test has no chain
 * of its own, only the HTTP V2Api/V3Api in front of a server on the local chain, and must answer the same data
 * within the same batching bound.
 */
process.env.GRAPH_BACKEND = 'upstream';
await import('../../surfaces/graphql/graph.test.js');
