/**
 * A webhook receiver for the tests: a real HTTP server on loopback that records every POST it gets (headers,
 * body, when) and checks each one's signature the way docs/webhooks.md tells a receiver to, with node:crypto
 * alone. What it answers is set per test: 200 by default, any status, a delay, or no answer at all; it can be
 * stopped and started again on the same port.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  /** performance.now() when the body was read */
  at: number;
  headers: IncomingMessage['headers'];
  body: string;
  event: Record<string, any>;
  /** the signature checked against `secret` */
  signed: boolean;
  status: number;
}

export type Behaviour = (r: Omit<Received, 'status'>) => { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang';

/** Checks `X-Webhook-Signature: t=<seconds>,v1=<hex>` over `<t>.<body>`, as a receiver would. */
export function signatureValid(secret: string, header: string | undefined, body: string, toleranceS = 300): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  const given = Buffer.from(m[2]!, 'hex');
  return timingSafeEqual(expected, given) && Math.abs(Date.now() / 1000 - Number(m[1])) <= toleranceS;
}

export class Receiver {
  readonly got: Received[] = [];
  behaviour: Behaviour = () => ({ status: 200 });
  secret = '';
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private listeners: (() => void)[] = [];
  port = 0;

  static async start(port = 0): Promise<Receiver> {
    const r = new Receiver();
    await r.listen(port);
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async listen(port = this.port): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Stops listening and cuts every connection, as a receiver that went down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }

  /** The distinct events in the order first received (a repeat, by event id, is left out). */
  distinct(): Received[] {
    const seen = new Set<string>();
    return this.got.filter((r) => {
      const id = String(r.headers['x-webhook-event-id']);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  }

  /** Resolves once `check` holds of what was received. */
  async until(check: (got: Received[]) => boolean, ms = 30_000): Promise<void> {
    if (check(this.got)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== listener);
        reject(new Error(`receiver: timed out with ${this.got.length} received`));
      }, ms);
      const listener = () => {
        if (!check(this.got)) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve();
      };
      this.listeners.push(listener);
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: Record<string, any> = {};
      try {
        event = JSON.parse(body) as Record<string, any>;
      } catch {
        // recorded as it came: the test looks at it
      }
      const head = { at: performance.now(), headers: req.headers, body, event, signed: signatureValid(this.secret, req.headers['x-webhook-signature'] as string | undefined, body) };
      const answer = this.behaviour(head);
      if (answer === 'hang') {
        this.got.push({ ...head, status: 0 });
        this.notify();
        return;
      }
      const reply = () => {
        this.got.push({ ...head, status: answer.status });
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end('ok');
        this.notify();
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  }

  private notify(): void {
    for (const l of [...this.listeners]) l();
  }
}
