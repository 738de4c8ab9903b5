/**
 * Imported first by the CLI: unless NODE_ENV says otherwise, the gateway runs as production. graphql-js reads
 * NODE_ENV once, when it loads, and outside production checks every type test against copies of graphql from
 * other realms, which profiled at ~5 % of a small query's execution.
 */
process.env.NODE_ENV ??= 'production';
