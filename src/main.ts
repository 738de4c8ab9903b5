#!/usr/bin/env node
/** CLI: read the config, start the server, then bring up its data source (the local chain, or an upstream toncenter). */
// first: graphql-js reads NODE_ENV when it loads
import './production-mode.js';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { SourceRefusal } from './api/source.js';
import { ConfigError, USAGE, loadConfig, type Config } from './config.js';
import { preflight, startGateway } from './gateway.js';
import { LOG_LEVELS, isLogLevel, type LogLevel } from './pipeline/logging.js';

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
/**
 * The log destination, ours rather than pino's default so the shutdown can control it: asynchronous (a slow
 * reader does not stall requests), bounded (lines past LOG_BUFFER_MAX waiting for a reader that does not read
 * are dropped, not kept), and at exit flushed only as long as the reader takes the lines (see `stopLogs`).
 */
const LOG_BUFFER_MAX = 16 * 1024 * 1024;
const logStream = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_MAX });
/** A configuration or data directory that cannot be used: one line, exit 2. */
function refuse(e: unknown): never {
  if (e instanceof SourceRefusal || e instanceof ConfigError) {
    process.stderr.write(`ton-graphql-gateway: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
// what a source refuses to start from (a data dir held by another server, a damaged database, another seed's
// chain) is refused before anything listens
await preflight(config).catch(refuse);
const gw = await startGateway(config, {
  log: { level: readLogLevel(), stream: logStream },
  onListening: (url) => process.stdout.write(`Listening on ${url} (GraphQL /graphql, REST /api/v2, health /health)\n`),
}).catch(refuse);
if (!config.quiet) process.stdout.write(gw.banner());

/** After the shutdown deadline, how long the watchdog thread waits for the main thread's own exit before it kills the process. */
const KILL_GRACE_MS = 2000;
/** How long the lines of the shutdown itself may take to reach a reader before they are given up. */
const LOG_FLUSH_MS = 1000;

/**
 * Lets the process exit whatever became of stdout. pino flushes its destination synchronously on exit and
 * retries a full pipe (EAGAIN) until it drains: with a reader that is alive but no longer reads (a supervisor
 * whose npm child was killed) that is forever, which is how a gateway once stopped listening yet never exited.
 * So the lines are flushed while the event loop still runs, for at most `ms`; what the reader has not taken by
 * then is dropped, as pino itself drops everything once the pipe is broken (EPIPE).
 */
async function stopLogs(ms: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    logStream.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  logStream.flushSync = () => {};
}

/**
 * The shutdown's hard deadline, twice over: a timer on the main thread exits with 1 once `ms` have passed (a
 * close that never settles, a handle that stays open), and a worker thread, which nothing on the main thread
 * can hold up (a blocking write to a full pipe, a busy loop), kills the process KILL_GRACE_MS later. Both are
 * unref'd: a shutdown that finishes sooner is not held up by them.
 */
function armShutdownDeadline(ms: number): void {
  setTimeout(() => {
    logStream.flushSync = () => {};
    process.exit(1);
  }, ms).unref();
  const watchdog = new Worker(
    `const { workerData } = require('node:worker_threads');
     setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.ms);`,
    { eval: true, workerData: { pid: process.pid, ms: ms + KILL_GRACE_MS } },
  );
  watchdog.unref();
}

// a log reader that went away (EPIPE) must not end the server, nor turn a shutdown into a crash
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    armShutdownDeadline(config.shutdownTimeoutMs);
    // fastify's close stops accepting, answers requests already in flight, then the chain's producer stops
    // and (with --data-dir) its journal is synced and closed
    gw.app.log.info({ signal: sig, deadlineMs: config.shutdownTimeoutMs }, 'shutting down');
    gw.close().then(
      () => stopLogs(LOG_FLUSH_MS).then(() => process.exit(0)),
      (err: unknown) => {
        gw.app.log.error({ err }, 'shutdown failed');
        void stopLogs(LOG_FLUSH_MS).then(() => process.exit(1));
      },
    );
  });
}
