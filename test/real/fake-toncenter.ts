/**
 * A toncenter on loopback that knows only recorded real answers. A request that asks for exactly what an answer
 * was recorded for (its endpoint and query, or the one trace a recorded /traces answer holds) gets that answer's
 * bytes as recorded. A lookup by other keys (a transaction hash, a message hash, a block id, an address) gets the
 * recorded objects it names, each with its recorded bytes, in the response shape toncenter uses; a lookup no
 * recording covers gets what toncenter answers for a miss (an empty list, or 404 where v3.md says so) and is
 * remembered as a miss. A parameter that does not parse gets toncenter's 422.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { addrKey, blockId, hashKey, tryAddrKey, type CorpusIndex, type JsonObject, type Recording } from './corpus.js';

type Params = Record<string, string | string[]>;

export interface Served {
  path: string;
  query: string;
  /** verbatim: a recording's bytes; assembled: recorded objects in a response; miss: nothing recorded */
  kind: 'verbatim' | 'assembled' | 'miss';
}

function addParam(out: Record<string, string | string[]>, k: string, v: string): void {
  const prev = out[k];
  out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
}

const list = (p: Params, k: string): string[] => {
  const v = p[k];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};

/** Parameters holding hashes, compared in one encoding (a manifest may give them in hex). */
const HASH_PARAMS = new Set(['hash', 'trace_id', 'tx_hash', 'msg_hash', 'action_id', 'body_hash']);

const sameParams = (a: Params, b: Params): boolean => {
  const norm = (p: Params) =>
    JSON.stringify(
      Object.keys(p)
        .sort()
        .map((k) => [k, list(p, k).map((v) => (HASH_PARAMS.has(k) ? hashKey(v) : v)).sort()]),
    );
  return norm(a) === norm(b);
};

/** Only the parameters that select data; limits, offsets and sorting are the gateway's own choice. */
const SELECTING = (p: Params): Params => Object.fromEntries(Object.entries(p).filter(([k]) => !['limit', 'offset', 'sort'].includes(k)));

export class FakeToncenter {
  readonly served: Served[] = [];
  private server: Server | null = null;

  constructor(private readonly index: CorpusIndex) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  misses(): Served[] {
    return this.served.filter((s) => s.kind === 'miss');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const params: Params = {};
    for (const [k, v] of url.searchParams) addParam(params, k.replace(/\[\]$/, ''), v);
    const send = (status: number, body: Buffer | string, kind: Served['kind']) => {
      this.served.push({ path: url.pathname, query: url.search, kind });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    let recorded: Recording | undefined;
    let answer: ReturnType<FakeToncenter['assemble']>;
    try {
      recorded = this.recordedFor(url.pathname, params);
      answer = this.assemble(url.pathname, params);
    } catch (e) {
      return send(422, JSON.stringify({ error: `failed to decode: ${(e as Error).message}` }), 'miss');
    }
    if (recorded) return send(200, recorded.bytes, 'verbatim');
    if (answer.status !== 200) return send(answer.status, JSON.stringify({ error: answer.error }), 'miss');
    send(200, this.index.serialise(answer.body), answer.found ? 'assembled' : 'miss');
  }

  private recordedFor(path: string, params: Params): Recording | undefined {
    const wanted = SELECTING(params);
    for (const r of this.index.recordings) {
      if (r.envelope === 'full' && r.endpoint === path && r.request && sameParams(SELECTING(r.request), wanted)) return r;
    }
    if (path === '/api/v3/traces') {
      const ids = list(params, 'trace_id');
      if (ids.length === 1 && Object.keys(wanted).every((k) => ['trace_id', 'include_actions'].includes(k))) {
        return this.index.traceFile.get(hashKey(ids[0]!));
      }
    }
    return undefined;
  }

  private assemble(path: string, p: Params): { status: number; body?: JsonObject; found?: boolean; error?: string } {
    const ix = this.index;
    const byHash = <T>(m: Map<string, T>, keys: string[]) => dedupe(keys.map((k) => m.get(hashKey(k))));
    const byAddr = <T>(m: Map<string, T>, keys: string[]) => dedupe(keys.map((k) => m.get(addrKey(k))));
    const extras = (): JsonObject => ({ address_book: {}, metadata: {} });
    const ok = (body: JsonObject, items: unknown[]) => ({ status: 200, body, found: items.length > 0 });
    switch (path.replace(/^\/api\/v3/, '')) {
      case '/traces': {
        const found = dedupe([
          ...byHash(ix.traces, list(p, 'trace_id')),
          ...[...ix.traces.values()].filter((t) => {
            const txs = t.transactions as Record<string, JsonObject>;
            return (
              list(p, 'tx_hash').some((h) => hashKey(h) in txs) ||
              list(p, 'msg_hash').some((h) => Object.values(txs).some((tx) => messagesOf(tx).some((m) => matchesMessage(m, h))))
            );
          }),
        ]);
        return ok({ traces: found, ...extras() }, found);
      }
      case '/actions': {
        const traceIds = new Set(list(p, 'trace_id').map(hashKey));
        const txs = new Set(list(p, 'tx_hash').map(hashKey));
        const found = dedupe([
          ...byHash(ix.actions, list(p, 'action_id')),
          ...[...ix.actions.values()].filter(
            (a) => traceIds.has(hashKey(a.trace_id as string)) || ((a.transactions as string[]) ?? []).some((h) => txs.has(hashKey(h))),
          ),
        ]);
        return ok({ actions: found, ...extras() }, found);
      }
      case '/transactions': {
        const found = byHash(ix.transactions, list(p, 'hash'));
        return ok({ transactions: found, address_book: {} }, found);
      }
      case '/messages': {
        const found = byHash(ix.messages, list(p, 'msg_hash'));
        return ok({ messages: found, ...extras() }, found);
      }
      case '/blocks': {
        const [wc, shard, seqno] = [p.workchain, p.shard, p.seqno].map((v) => (Array.isArray(v) ? v[0] : v));
        const b = wc !== undefined && shard !== undefined && seqno !== undefined ? ix.blocks.get(blockId(Number(wc), shard, Number(seqno))) : undefined;
        return ok({ blocks: b ? [b] : [] }, b ? [b] : []);
      }
      case '/masterchainBlockShards':
      case '/masterchainBlockShardState':
        return { status: 404, error: 'blocks not found' };
      case '/accountStates': {
        const found = byAddr(ix.accountStates, list(p, 'address'));
        return ok({ accounts: found, ...extras() }, found);
      }
      case '/walletStates': {
        const found = byAddr(ix.walletStates, list(p, 'address'));
        return ok({ wallets: found, ...extras() }, found);
      }
      case '/jetton/masters': {
        const found = byAddr(ix.jettonMasters, list(p, 'address'));
        return ok({ jetton_masters: found, ...extras() }, found);
      }
      case '/jetton/wallets': {
        const found = byAddr(ix.jettonWallets, list(p, 'address'));
        return ok({ jetton_wallets: found, ...extras() }, found);
      }
      case '/nft/items': {
        const found = byAddr(ix.nftItems, list(p, 'address'));
        return ok({ nft_items: found, ...extras() }, found);
      }
      case '/nft/collections': {
        const found = byAddr(ix.nftCollections, list(p, 'collection_address'));
        return ok({ nft_collections: found, ...extras() }, found);
      }
      case '/jetton/transfers':
        return ok({ jetton_transfers: [], ...extras() }, []);
      case '/jetton/burns':
        return ok({ jetton_burns: [], ...extras() }, []);
      case '/nft/transfers':
        return ok({ nft_transfers: [], ...extras() }, []);
      case '/addressBook': {
        const body: JsonObject = {};
        for (const a of list(p, 'address')) {
          const k = tryAddrKey(a);
          const row = k ? ix.addressBook.get(k) : undefined;
          if (row !== undefined) body[a] = row;
        }
        return ok(body, Object.keys(body));
      }
      case '/metadata': {
        const body: JsonObject = {};
        for (const a of list(p, 'address')) {
          const k = tryAddrKey(a);
          const row = k ? ix.metadata.get(k) : undefined;
          if (row !== undefined) body[k!] = row;
        }
        return ok(body, Object.keys(body));
      }
      default:
        return { status: 404, error: `no recording for ${path}` };
    }
  }
}

function dedupe<T>(items: (T | undefined)[]): T[] {
  return [...new Set(items.filter((x): x is T => x !== undefined))];
}

const messagesOf = (tx: JsonObject): JsonObject[] =>
  [tx.in_msg, ...((tx.out_msgs as JsonObject[]) ?? [])].filter((m): m is JsonObject => !!m && typeof m === 'object');

const matchesMessage = (m: JsonObject, h: string): boolean => {
  const k = hashKey(h);
  return hashKey(m.hash as string) === k || (typeof m.hash_norm === 'string' && hashKey(m.hash_norm) === k);
};
