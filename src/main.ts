#!/usr/bin/env node
/** CLI: read the config, start the server, then bring up its data source (the local chain, or an upstream toncenter). */
import { ConfigError, USAGE, loadConfig, type Config } from './config.js';
import { startGateway } from './gateway.js';

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

const config = readConfig();
const gw = await startGateway(config, {
  onListening: (url) => process.stdout.write(`Listening on ${url} (GraphQL /graphql, REST /api/v2, health /health)\n`),
});
if (!config.quiet) process.stdout.write(gw.banner());

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    gw.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
