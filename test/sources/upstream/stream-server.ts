/**
 * A stand-in for toncenter's Streaming API v2 on loopback (`../shared/reference/streaming-v2.md`): SSE
 * (`POST /api/streaming/v2/sse`) and WebSocket (`GET /api/streaming/v2/ws`), each switchable off (404), the
 * subscription validated in the reference's order with its messages, WS `subscribe` replacing the snapshot,
 * `ping` answered, `: keepalive` comments, events sent to the clients whose snapshot matches. For the polling
 * fallback it also answers v3 masterchainInfo, blocks and transactionsByMasterchainBlock from blocks the test
 * seals, and /transactions by account and time window from a history the test writes (what a gap fill asks).
 * Limits as the reference's proxy headers set them (§3-§4): addresses per connection and connections at once,
 * refused in its words. Every connection, subscription and refusal is counted for the tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

type Finality = 'pending' | 'confirmed' | 'finalized';
const RANK: Record<Finality, number> = { pending: 0, confirmed: 1, finalized: 2 };
const TYPES = new Set(['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change']);
const RAW = /^(-1|0):[0-9a-fA-F]{64}$/;

export interface Snapshot {
  types: string[];
  addresses: string[];
  traces: string[];
  minFinality: Finality;
}

interface Client {
  transport: 'ws' | 'sse';
  snapshot?: Snapshot;
  send(event: object): void;
  sendRaw(text: string): void;
  close(): void;
  /** the SSE answer being written */
  res?: ServerResponse;
}

/** The reference's validation (§2), in its order: the error text, or the normalized snapshot. */
export function validate(body: Record<string, unknown>, transport: 'ws' | 'sse', previous?: Snapshot): { error: string } | Snapshot {
  const types = body.types;
  if (!Array.isArray(types) || types.length === 0) return { error: transport === 'sse' ? 'types are required for subscription' : 'types are required' };
  for (const t of types) if (!TYPES.has(t as string)) return { error: `invalid event type: ${String(t)}` };
  const addresses = (body.addresses ?? []) as unknown[];
  for (const a of addresses) if (typeof a !== 'string' || !RAW.test(a)) return { error: `invalid address: ${String(a)}` };
  const traces = ((body.trace_external_hash_norms ?? []) as unknown[]).map((h) => String(h).trim());
  if (traces.some((h) => h === '')) return { error: 'trace_external_hash_norms contains empty value' };
  if (traces.length && !types.includes('trace')) return { error: 'trace_external_hash_norms requires type "trace"' };
  if (types.includes('trace') && !traces.length) return { error: 'trace_external_hash_norms are required for trace subscription' };
  if (types.some((t) => t !== 'trace') && !addresses.length) return { error: transport === 'sse' ? 'addresses are required for subscription' : 'addresses are required' };
  const f = body.min_finality as string | undefined;
  if (f !== undefined && !(f in RANK)) return { error: `invalid subscription request: unknown finality state: ${f}` };
  return {
    types: types as string[],
    addresses: [...new Set((addresses as string[]).map((a) => a.toUpperCase()))],
    traces,
    minFinality: (f as Finality | undefined) ?? previous?.minFinality ?? 'finalized',
  };
}

/** Whether a client with this snapshot receives the event (§5's routing, by type, finality and address or hash). */
function matches(s: Snapshot, e: Record<string, any>): boolean {
  if (e.type === 'trace_invalidated') return true;
  if (!s.types.includes(e.type)) return false;
  if (e.finality && RANK[e.finality as Finality] < RANK[s.minFinality]) return false;
  const watched = (a: unknown) => typeof a === 'string' && s.addresses.includes(a.toUpperCase());
  switch (e.type) {
    case 'transactions':
      return (e.transactions as { account: string }[]).some((t) => watched(t.account));
    case 'actions':
      return (e.actions as { accounts?: string[] }[]).some((a) => (a.accounts ?? []).some(watched));
    case 'trace':
      return s.traces.includes(e.trace_external_hash_norm);
    case 'account_state_change':
      return watched(e.account);
    case 'jettons_change':
      return watched(e.jetton.address) || watched(e.jetton.owner);
  }
  return false;
}

export interface StreamServer {
  url: string;
  /** whether each endpoint exists (false: 404, as an upstream without streaming answers) */
  endpoints: { ws: boolean; sse: boolean };
  /** statuses for the next connection attempts, one each (e.g. 429 while a dropped slot lingers) */
  refuse: number[];
  /** every connection accepted, and every attempt (accepted or refused) with its time */
  accepted: { transport: 'ws' | 'sse'; t: number }[];
  attempts: { transport: 'ws' | 'sse'; status: number; t: number }[];
  /** every valid subscription (SSE bodies and WS subscribe frames), in order */
  subscribes: { transport: 'ws' | 'sse'; snapshot: Snapshot }[];
  /** error texts answered, in order */
  errors: string[];
  /** connections open now */
  open(): number;
  /** the subscription each open connection holds now */
  held(): Snapshot[];
  emit(event: object): void;
  /** a raw frame or line to every open client */
  sendRaw(text: string): void;
  /** drops every connection as a restarting upstream would */
  drop(): void;
  /** writes one line with no end to every SSE client until it hangs up or `bytes` are out; resolves with the bytes written */
  endlessLine(bytes: number): Promise<number>;
  /** v3 for the polling fallback: seals a masterchain block holding these transactions */
  seal(transactions: object[]): void;
  /** v3 requests answered, by path */
  v3Calls: string[];
  /** the upstream's limits, 0 = none: addresses one connection may watch, connections open at once */
  limits: { addresses: number; connections: number };
  /** finalized transactions /api/v3/transactions answers from, by account and `now` */
  history: (Record<string, any> & { account: string; now: number; lt: string })[];
  close(): Promise<void>;
}

export async function startStreamServer(opts: { keepaliveMs?: number } = {}): Promise<StreamServer> {
  const clients = new Set<Client>();
  const sockets = new Set<Socket>();
  const blocks: { block: Record<string, unknown>; transactions: object[] }[] = [];
  const block = (seqno: number) => ({ workchain: -1, shard: '8000000000000000', seqno, root_hash: `r${seqno}`, file_hash: `f${seqno}`, gen_utime: '1760000000', start_lt: '1', end_lt: '2' });
  let tip = 100;

  const refusal = (transport: 'ws' | 'sse'): number => {
    const status = !server.endpoints[transport] ? 404 : (server.refuse.shift() ?? 200);
    server.attempts.push({ transport, status, t: performance.now() });
    return status;
  };

  const full = () => server.limits.connections > 0 && clients.size >= server.limits.connections;

  const sse = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const status = full() ? 429 : refusal('sse');
    if (status !== 200) {
      res.writeHead(status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: status === 429 ? `connection limit reached: ${full() ? clients.size : 2} active connections` : 'Not Found' }));
    }
    let body: Record<string, unknown>;
    try {
      if (!/^application\/json/.test(req.headers['content-type'] ?? '')) throw new Error('unsupported content type');
      body = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      server.errors.push(`invalid subscription request: ${(e as Error).message}`);
      return res.writeHead(400).end(JSON.stringify({ error: server.errors.at(-1) }));
    }
    const v = validate(body, 'sse');
    if (!('error' in v) && server.limits.addresses > 0 && v.addresses.length > server.limits.addresses) {
      server.errors.push(`too many addresses: ${v.addresses.length} > max ${server.limits.addresses}`);
      return res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: server.errors.at(-1) }));
    }
    if ('error' in v) {
      server.errors.push(v.error);
      return res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: v.error }));
    }
    server.accepted.push({ transport: 'sse', t: performance.now() });
    server.subscribes.push({ transport: 'sse', snapshot: v });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(`event: connected\ndata: ${JSON.stringify({ status: 'subscribed' })}\n\n`);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), opts.keepaliveMs ?? 15_000);
    const client: Client = {
      transport: 'sse',
      snapshot: v,
      send: (event) => res.write(`event: event\ndata: ${JSON.stringify(event)}\n\n`),
      sendRaw: (t) => res.write(t),
      close: () => res.destroy(),
      res,
    };
    clients.add(client);
    res.on('close', () => {
      clearInterval(keepalive);
      clients.delete(client);
    });
  };

  const v3 = (url: URL, res: ServerResponse) => {
    server.v3Calls.push(url.pathname);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const seqno = Number(url.searchParams.get('seqno'));
    if (url.pathname === '/api/v3/masterchainInfo') return json(200, { last: block(tip), first: block(1) });
    if (url.pathname === '/api/v3/transactions') {
      const accounts = url.searchParams.getAll('account').map((a) => a.toUpperCase());
      const from = Number(url.searchParams.get('start_utime') ?? 0);
      const to = Number(url.searchParams.get('end_utime') ?? Infinity);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const rows = server.history.filter((t) => accounts.includes(t.account.toUpperCase()) && t.now >= from && t.now <= to).sort((a, b) => a.now - b.now);
      return json(200, { transactions: rows.slice(offset, offset + limit), address_book: {} });
    }
    if (url.pathname === '/api/v3/blocks') return json(200, { blocks: seqno <= tip ? [block(seqno)] : [] });
    if (url.pathname === '/api/v3/transactionsByMasterchainBlock') {
      const found = blocks.find((b) => b.block.seqno === seqno);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return json(200, { transactions: offset ? [] : (found?.transactions ?? []), address_book: {} });
    }
    json(404, { code: 404, error: 'Not Found' });
  };

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/api/v3/')) return v3(url, res);
    if (url.pathname === '/api/streaming/v2/sse' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => sse(req, res, Buffer.concat(chunks).toString()));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not Found' }));
  });
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/api/streaming/v2/ws') return socket.destroy();
    if (full()) {
      // the reference accepts the upgrade, says why in an error frame and closes
      const active = clients.size;
      return wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
        server.errors.push(`connection limit reached: ${active} active connections`);
        ws.send(JSON.stringify({ error: server.errors.at(-1) }));
        ws.close();
      });
    }
    const status = refusal('ws');
    if (status !== 200) {
      socket.end(`HTTP/1.1 ${status} Refused\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      server.accepted.push({ transport: 'ws', t: performance.now() });
      const client: Client = {
        transport: 'ws',
        send: (event) => ws.send(JSON.stringify(event)),
        sendRaw: (t) => ws.send(t),
        close: () => ws.terminate(),
      };
      clients.add(client);
      ws.on('close', () => clients.delete(client));
      ws.on('message', (data) => {
        let frame: Record<string, unknown>;
        try {
          frame = JSON.parse(data.toString()) as Record<string, unknown>;
        } catch (e) {
          return ws.send(JSON.stringify({ error: `invalid request envelope: ${(e as Error).message}` }));
        }
        const id = typeof frame.id === 'string' ? { id: frame.id } : {};
        if (frame.operation === 'ping') return ws.send(JSON.stringify({ ...id, status: 'pong' }));
        if (frame.operation === 'unsubscribe' && client.snapshot) {
          const gone = new Set(((frame.addresses ?? []) as string[]).map((a) => a.toUpperCase()));
          const goneHashes = new Set((frame.trace_external_hash_norms ?? []) as string[]);
          client.snapshot = { ...client.snapshot, addresses: client.snapshot.addresses.filter((a) => !gone.has(a)), traces: client.snapshot.traces.filter((h) => !goneHashes.has(h)) };
          return ws.send(JSON.stringify({ ...id, status: 'unsubscribed' }));
        }
        if (frame.operation !== 'subscribe') return ws.send(JSON.stringify({ ...id, error: `unknown operation: ${String(frame.operation)}` }));
        const v = validate(frame, 'ws', client.snapshot);
        if ('error' in v) {
          server.errors.push(v.error);
          return ws.send(JSON.stringify({ ...id, error: v.error }));
        }
        const current = client.snapshot?.addresses ?? [];
        const added = v.addresses.filter((a) => !current.includes(a)).length;
        if (server.limits.addresses > 0 && current.length + added > server.limits.addresses) {
          server.errors.push(`address limit exceeded: current ${current.length} + new ${added} > max ${server.limits.addresses}`);
          return ws.send(JSON.stringify({ ...id, error: server.errors.at(-1) }));
        }
        client.snapshot = v;
        server.subscribes.push({ transport: 'ws', snapshot: v });
        ws.send(JSON.stringify({ ...id, status: 'subscribed' }));
      });
    });
  });

  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const server: StreamServer = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    endpoints: { ws: true, sse: true },
    refuse: [],
    accepted: [],
    attempts: [],
    subscribes: [],
    errors: [],
    v3Calls: [],
    limits: { addresses: 0, connections: 0 },
    history: [],
    open: () => clients.size,
    held: () => [...clients].flatMap((c) => (c.snapshot ? [c.snapshot] : [])),
    emit(event) {
      for (const c of clients) if (c.snapshot && matches(c.snapshot, event as Record<string, unknown>)) c.send(event);
    },
    sendRaw(text) {
      for (const c of clients) c.sendRaw(text);
    },
    drop() {
      for (const c of clients) c.close();
    },
    async endlessLine(bytes) {
      const res = [...clients].find((c) => c.res)?.res;
      if (!res) return 0;
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // written as the reader takes it, so nothing piles up on this side either
      while (written < bytes && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          await new Promise<void>((r) => {
            const done = () => (res.off('drain', done).off('close', done), r());
            res.once('drain', done).once('close', done);
          });
        }
      }
      return written;
    },
    seal(transactions) {
      tip++;
      blocks.push({ block: block(tip), transactions });
    },
    async close() {
      for (const c of clients) c.close();
      for (const s of sockets) s.destroy();
      wss.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
  return server;
}
