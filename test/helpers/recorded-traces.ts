/**
 * A toncenter on loopback that knows only the 14 recorded mainnet `/api/v3/traces` answers in
 * ../shared/fixtures/real (origin: its README.md). `/traces?trace_id=X` for one recorded trace gets
 * that answer's bytes as recorded; every other request gets what toncenter answers when it has nothing (an
 * empty list). It counts every request, so a test can hold the gateway to a number of upstream calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fixturePath } from './shared.js';

const DIR = fixturePath('real');

export interface RecordedTrace {
  file: string;
  /** the recorded bytes */
  bytes: Buffer;
  /** the recorded answer, parsed */
  answer: {
    traces: Array<{
      trace_id: string;
      transactions: Record<string, { hash: string; block_ref: { workchain: number; shard: string; seqno: number } }>;
      transactions_order: string[];
      actions: Array<{ action_id: string; type: string; transactions: string[]; details: Record<string, unknown> }>;
    }>;
  };
}

export function loadRecordedTraces(): RecordedTrace[] {
  return readdirSync(DIR)
    .filter((f) => /^mytonwallet-org\.mytonwallet\..*TraceResponse\.json$/.test(f))
    .sort()
    .map((file) => {
      const bytes = readFileSync(join(DIR, file));
      return { file, bytes, answer: JSON.parse(bytes.toString('utf8')) as RecordedTrace['answer'] };
    });
}

/** Any accepted spelling of a hash (base64, base64url, hex), compared as bytes. */
const hashBytes = (s: string): string =>
  /^[0-9a-fA-F]{64}$/.test(s) ? s.toLowerCase() : Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('hex');

const EMPTY: Record<string, string> = {
  '/api/v3/blocks': '{"blocks":[]}',
  '/api/v3/transactions': '{"transactions":[],"address_book":{}}',
  '/api/v3/messages': '{"messages":[],"address_book":{},"metadata":{}}',
  '/api/v3/actions': '{"actions":[],"address_book":{},"metadata":{}}',
  '/api/v3/traces': '{"traces":[],"address_book":{},"metadata":{}}',
  '/api/v3/jetton/masters': '{"jetton_masters":[],"address_book":{},"metadata":{}}',
  '/api/v3/jetton/wallets': '{"jetton_wallets":[],"address_book":{},"metadata":{}}',
  '/api/v3/nft/items': '{"nft_items":[],"address_book":{},"metadata":{}}',
  '/api/v3/nft/collections': '{"nft_collections":[],"address_book":{},"metadata":{}}',
};

export class RecordedTracesServer {
  /** every request, as path?query */
  readonly requests: string[] = [];
  private server: Server | null = null;
  private readonly byTraceId = new Map<string, Buffer>();

  constructor(recorded: readonly RecordedTrace[]) {
    for (const r of recorded) for (const t of r.answer.traces) this.byTraceId.set(hashBytes(t.trace_id), r.bytes);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      this.requests.push(`${url.pathname}${url.search}`);
      const ids = url.searchParams.getAll('trace_id');
      const recorded = url.pathname === '/api/v3/traces' && ids.length === 1 ? this.byTraceId.get(hashBytes(ids[0]!)) : undefined;
      const body = recorded ?? EMPTY[url.pathname];
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not recorded"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  /** Requests made from now on, by `fn`. */
  async during<T>(fn: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
    const from = this.requests.length;
    const result = await fn();
    return { result, requests: this.requests.slice(from) };
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

export async function graphql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: Array<{ message: string; path?: unknown[] }> };
}
