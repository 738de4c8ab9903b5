/**
 * A connection storm against a server whose open connections keep it busy: reads on the open connections are
 * held while the accept queue drains, every connection (held or new) is answered afterwards, none is reset.
 */
import { createServer, type IncomingMessage } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { drainAcceptQueueFirst } from '../../src/pipeline/accept-burst.js';

/** answers a turn later, so answers finish (and Node asks to read again) while a storm is being accepted */
const server = createServer((_req, res) => setImmediate(() => res.end('ok')));
const stats = drainAcceptQueueFirst(server);
const clients: Socket[] = [];
afterAll(async () => {
  for (const s of clients) s.destroy();
  await new Promise((r) => server.close(r));
});

const REQUEST = 'GET / HTTP/1.1\r\nHost: test\r\n\r\n';

/** A keep-alive client sending its next request on every answer; counts answers and errors. */
function client(port: number) {
  const c = { answers: 0, errors: 0, socket: net.connect(port, '127.0.0.1') };
  clients.push(c.socket);
  c.socket.on('error', () => c.errors++);
  c.socket.on('data', (d) => {
    c.answers += d.toString().split('HTTP/1.1 200').length - 1;
    c.socket.write(REQUEST);
  });
  c.socket.write(REQUEST);
  return c;
}

it('holds reads on open connections while a storm of new ones is accepted, then serves them all', async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const busy = Array.from({ length: 100 }, () => client(port));
  await expect.poll(() => busy.every((c) => c.answers > 5)).toBe(true);
  // the server-side ends of the busy connections, by the client's port
  const busySockets = new Set(busy.map((c) => c.socket.localPort!));

  let servedWhileHolding = 0;
  server.on('request', (req: IncomingMessage) => {
    if (stats.holding && busySockets.has(req.socket.remotePort!)) servedWhileHolding++;
  });
  const holdsBefore = stats.holds;
  const storm = Array.from({ length: 150 }, () => client(port));
  await expect.poll(() => storm.every((c) => c.answers > 0), { timeout: 10_000 }).toBe(true);
  const afterStorm = busy.map((c) => c.answers);
  await expect.poll(() => busy.every((c, i) => c.answers > afterStorm[i]!)).toBe(true);

  expect(stats.holds).toBeGreaterThan(holdsBefore);
  expect(stats.holding).toBe(false);
  expect(servedWhileHolding).toBe(0);
  expect([...busy, ...storm].reduce((n, c) => n + c.errors, 0)).toBe(0);
});
