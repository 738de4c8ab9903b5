#!/usr/bin/env node
/** CLI: read the config, start the server, then bring up its data source (the local chain, or an upstream toncenter). */
// first: graphql-js reads NODE_ENV when it loads
import './production-mode.js';
import { ConfigError, USAGE, loadConfig, type Config } from './config.js';
import { startGateway } from './gateway.js';
import { LOG_LEVELS, isLogLevel, type LogLevel } from './http/logging.js';
import { DataDirError } from './localnet/index.js';

function readConfig(): Config {
  try {
    const cfg = loadConfig(process.argv.slice(2), process.env);
    if (cfg === 'help') {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    return cfg;
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`ton-graphql-gateway: ${e.message}\nRun with --help for the options.\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** LOG_LEVEL from the environment, default info; the library default (silent) is for embedding and tests. */
function readLogLevel(): LogLevel {
  const v = process.env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (isLogLevel(v)) return v;
  process.stderr.write(`ton-graphql-gateway: LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}\n`);
  process.exit(2);
}

const config = readConfig();
const gw = await startGateway(config, {
  log: { level: readLogLevel() },
  onListening: (url) => process.stdout.write(`Listening on ${url} (GraphQL /graphql, REST /api/v2, health /health)\n`),
}).catch((e: unknown) => {
  if (e instanceof DataDirError) {
    process.stderr.write(`ton-graphql-gateway: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
});
if (!config.quiet) process.stdout.write(gw.banner());

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    // fastify's close stops accepting, answers requests already in flight, then the chain's producer stops
    // and (with --data-dir) its journal is synced and closed
    gw.app.log.info({ signal: sig }, 'shutting down');
    gw.close().then(
      () => process.exit(0),
      (err: unknown) => {
        gw.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
