/**
 * A stand-in toncenter for the fault tests: answers a few v2/v3 routes with canned bodies, and misbehaves on
 * demand (slow, reset, 429 with or without Retry-After, 500, truncated or non-JSON bodies, a chunked answer cut
 * mid-body). Every request is
 * logged with its arrival time, so a test can measure the rate the gateway really sends at.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'ok'
  | 'slow'
  | 'reset'
  | '429'
  | '429-retry-after'
  | '500'
  | '500-api'
  | '403'
  | 'truncated'
  | 'not-json'
  | 'cut';

export interface LoggedRequest {
  /** performance.now() at arrival */
  t: number;
  method: string;
  path: string;
  fault: Fault;
}

export interface FaultServer {
  url: string;
  log: LoggedRequest[];
  /** faults for the next requests, one each, in order; then `fallback` */
  queue: Fault[];
  fallback: Fault;
  /** ms a 'slow' answer waits */
  slowMs: number;
  /** what getAddressBalance and addressInformation report */
  balance: bigint;
  /** requests seen for a path (without query) */
  count(path: string): number;
  close(): Promise<void>;
}

const TX_HASH = Buffer.alloc(32, 1).toString('base64');

const BLOCK_ID = { '@type': 'ton.blockIdExt', workchain: -1, shard: '-9223372036854775808', seqno: 7, root_hash: TX_HASH, file_hash: TX_HASH };

function canned(path: string, balance: bigint): { status: number; body: unknown } {
  switch (path) {
    case '/api/v2/getAddressBalance':
      return { status: 200, body: { ok: true, result: balance.toString() } };
    case '/api/v2/getMasterchainInfo':
      // a field the gateway does not know must pass through untouched
      return { status: 200, body: { ok: true, result: { '@type': 'blocks.masterchainInfo', last: BLOCK_ID, state_root_hash: TX_HASH, init: BLOCK_ID, future_field: 42 } } };
    case '/api/v2/getTransactions':
      return {
        status: 200,
        body: { ok: true, result: [{ '@type': 'ext.transaction', transaction_id: { '@type': 'internal.transactionId', lt: '100', hash: TX_HASH }, utime: 1, out_msgs: [] }] },
      };
    case '/api/v2/sendBoc':
      return { status: 200, body: { ok: true, result: { '@type': 'ok' } } };
    case '/api/v3/masterchainInfo':
      return { status: 200, body: { last: { workchain: -1, seqno: 7 }, first: { workchain: -1, seqno: 1 } } };
    case '/api/v3/transactions':
      return { status: 200, body: { transactions: [{ hash: TX_HASH, lt: '100', finality: 'finalized' }], address_book: {} } };
    case '/api/v3/addressInformation':
      return { status: 200, body: { balance: balance.toString(), status: 'active', code: null, data: null, last_transaction_lt: null, last_transaction_hash: null, frozen_hash: null } };
    case '/api/v3/accountStates':
      // no account known: GraphQL reads that as a nonexistent account with balance 0
      return { status: 200, body: { accounts: [], address_book: {} } };
    case '/api/v3/message':
      return { status: 200, body: { message_hash: TX_HASH } };
    default:
      return { status: 404, body: path.startsWith('/api/v3') ? { error: 'not found' } : { ok: false, error: 'Not Found', code: 404 } };
  }
}

/** `port` reuses a known port, so a test can bring a vanished upstream back at the same address. */
export async function startFaultServer(opts: { port?: number } = {}): Promise<FaultServer> {
  const state = {
    log: [] as LoggedRequest[],
    queue: [] as Fault[],
    fallback: 'ok' as Fault,
    slowMs: 2_000,
    balance: 1_000n,
  };
  const timers = new Set<NodeJS.Timeout>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    const fault = state.queue.shift() ?? state.fallback;
    state.log.push({ t: performance.now(), method: req.method ?? '', path, fault });
    const v3 = path.startsWith('/api/v3');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    // read the request body first so a reset is a reset, not a half-written request
    req.resume();
    req.on('end', () => {
      switch (fault) {
        case 'ok': {
          const { status, body } = canned(path, state.balance);
          return json(status, body);
        }
        case 'slow': {
          const t = setTimeout(() => {
            timers.delete(t);
            const { status, body } = canned(path, state.balance);
            if (!res.destroyed) json(status, body);
          }, state.slowMs);
          timers.add(t);
          return;
        }
        case 'reset':
          return req.socket.destroy();
        case '429':
          return json(429, v3 ? { error: 'Ratelimit exceeded' } : { ok: false, error: 'Ratelimit exceeded', code: 429 });
        case '429-retry-after':
          return json(429, v3 ? { error: 'Ratelimit exceeded' } : { ok: false, error: 'Ratelimit exceeded', code: 429 }, { 'retry-after': '1' });
        case '500':
          res.writeHead(500, { 'content-type': 'text/html' });
          return res.end('<html><body>Internal Server Error</body></html>');
        case '500-api':
          return json(500, v3 ? { error: 'timeout: context deadline exceeded' } : { ok: false, error: 'LITE_SERVER_UNKNOWN: boom', code: 500 });
        case '403':
          return json(403, v3 ? { error: 'Network not allowed' } : { ok: false, error: 'Network not allowed', code: 403 });
        case 'truncated':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
          res.write('{"ok":true,"result":"12');
          return setImmediate(() => req.socket.destroy());
        case 'not-json':
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>maintenance</html>');
        case 'cut': {
          // chunked, so the client cannot tell from a length that the body is short: only the lost socket says so
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          res.write('{"ok":true,"result":');
          const t = setTimeout(() => {
            timers.delete(t);
            req.socket.destroy();
          }, 50);
          timers.add(t);
          return;
        }
      }
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    count: (path: string) => state.log.filter((r) => r.path === path).length,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The most requests that arrived within any `windowMs` (half-open window starting at an arrival). */
export function maxInWindow(times: number[], windowMs: number): number {
  const ts = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < ts.length; i++) {
    while (j < ts.length && ts[j]! < ts[i]! + windowMs) j++;
    best = Math.max(best, j - i);
  }
  return best;
}
