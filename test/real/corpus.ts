/**
 * The recorded real toncenter answers the replay suite serves: the mainnet /api/v3/traces answers in
 * ../shared/fixtures/real (origin in its README), every file ../shared/fixtures/real/index.json lists, and the older
 * recorded v3 answers in ../shared/fixtures. Each answer is kept as its bytes and as its parsed value; the objects
 * inside it are indexed by the keys the gateway asks toncenter for (trace id, transaction hash, message hash,
 * block id, address).
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAddressAny, rawUpper } from '../../src/model/address.js';
import { parseHash } from '../../src/model/hash.js';
import { fixturePath } from '../helpers/shared.js';
import { parseRecorded, serialiseRecorded, type Json } from './recorded-json.js';

const FIXTURES = fixturePath('');
const REAL = fixturePath('real');

export type JsonObject = { [k: string]: Json };

export interface Recording {
  /** path under ../shared/fixtures */
  file: string;
  api: 'v2' | 'v3';
  /** e.g. /api/v3/traces or /api/v2/getConfigParam */
  endpoint: string;
  /** the query the answer was recorded for, when known */
  request?: Record<string, string | string[]>;
  /** full: the whole HTTP answer; otherwise a part of one (a v2 `result`, one item of it) */
  envelope: string;
  bytes: Buffer;
  body: JsonObject;
  /** the recorded text of every object and array in `body` */
  textOf: WeakMap<object, string>;
}

/** The trace answers recorded by the wallet's test data (origin: ../shared/fixtures/real/README.md). */
const TRACE_FILE = /^mytonwallet-org\.mytonwallet\..*TraceResponse\.json$/;
/** Older recorded v3 answers in ../shared/fixtures (origin: its README.md). */
const OLDER_V3 = ['axelar-relayer-ton.v3_transactions.json'];

/** An entry of ../shared/fixtures/real/index.json (the corpus manifest): the file, its API, and what was asked. */
interface ManifestEntry {
  file: string;
  api: 'v2' | 'v3';
  /** a v3 path (`/api/v3/traces`) or a v2 method (`getConfigParam`) */
  endpoint: string;
  /** the query parameters, when the origin shows them */
  request: Record<string, unknown> | null;
  envelope: string;
}

function manifestEntries(): ManifestEntry[] {
  const path = join(REAL, 'index.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ManifestEntry[]) : [];
}

/** Query parameters as strings, the way a request carries them. */
function requestOf(e: ManifestEntry): Record<string, string | string[]> | undefined {
  if (!e.request) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(e.request)) {
    if (Array.isArray(v)) out[k] = v.map(String);
    else if (v != null && typeof v !== 'object') out[k] = String(v);
  }
  return out;
}

const endpointPath = (e: ManifestEntry): string =>
  e.endpoint.startsWith('/api/') ? e.endpoint : `/api/${e.api}${e.endpoint.startsWith('/') ? '' : '/'}${e.endpoint}`;

/** A JSON number outside the safe range would change when an object is re-serialised; none may be in the corpus. */
export function unsafeNumbers(text: string): string[] {
  const found: string[] = [];
  // numbers outside strings: strip strings first
  const bare = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const m of bare.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n) && /^-?\d+$/.test(m[0])) found.push(m[0]);
  }
  return found;
}

export function loadCorpus(): Recording[] {
  const out: Recording[] = [];
  const seen = new Set<string>();
  const add = (file: string, api: 'v2' | 'v3', endpoint: string, request?: Record<string, string | string[]>, envelope = 'full') => {
    if (seen.has(file)) return;
    seen.add(file);
    const bytes = readFileSync(join(FIXTURES, file));
    const { value, textOf } = parseRecorded(bytes.toString('utf8'));
    const body = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { '': value };
    out.push({ file, api, endpoint, request, envelope, bytes, body, textOf });
  };
  for (const name of readdirSync(REAL).sort()) {
    if (TRACE_FILE.test(name)) add(`real/${name}`, 'v3', '/api/v3/traces');
  }
  for (const e of manifestEntries()) add(`real/${e.file}`, e.api, endpointPath(e), requestOf(e), e.envelope);
  for (const name of OLDER_V3) add(name, 'v3', '/api/v3/transactions');
  return out;
}

/** Keys as the gateway sends them and as v3 prints them. */
export const hashKey = (s: string): string => {
  const h = parseHash(s);
  if (!h) throw new Error(`not a hash: ${s}`);
  return h.toString('base64');
};
export const addrKey = (s: string): string => {
  const a = parseAddressAny(s);
  if (!a) throw new Error(`not an address: ${s}`);
  return rawUpper(a.address);
};
export const tryAddrKey = (s: unknown): string | null => (typeof s === 'string' && parseAddressAny(s) ? addrKey(s) : null);

const asObjects = (v: Json | undefined): JsonObject[] =>
  Array.isArray(v) ? v.filter((x): x is JsonObject => typeof x === 'object' && x !== null && !Array.isArray(x)) : [];

/** Every v3 object of the corpus, by the keys a toncenter lookup uses. */
export class CorpusIndex {
  readonly traces = new Map<string, JsonObject>();
  /** trace id → the recording whose answer is exactly that one trace */
  readonly traceFile = new Map<string, Recording>();
  readonly transactions = new Map<string, JsonObject>();
  readonly messages = new Map<string, JsonObject>();
  readonly actions = new Map<string, JsonObject>();
  readonly blocks = new Map<string, JsonObject>();
  readonly accountStates = new Map<string, JsonObject>();
  readonly walletStates = new Map<string, JsonObject>();
  readonly jettonMasters = new Map<string, JsonObject>();
  readonly jettonWallets = new Map<string, JsonObject>();
  readonly nftItems = new Map<string, JsonObject>();
  readonly nftCollections = new Map<string, JsonObject>();
  readonly addressBook = new Map<string, Json>();
  readonly metadata = new Map<string, Json>();

  /** the recorded text of every indexed object */
  readonly textOf = new WeakMap<object, string>();

  constructor(readonly recordings: Recording[]) {
    for (const r of recordings) if (r.api === 'v3') this.add(r);
  }

  /** A JSON answer made of recorded objects: each object keeps its recorded bytes. */
  serialise(answer: unknown): string {
    return serialiseRecorded(answer, this.textOf);
  }

  private addTransaction(tx: JsonObject): void {
    this.transactions.set(hashKey(tx.hash as string), tx);
    for (const m of [tx.in_msg, ...((tx.out_msgs as Json[]) ?? [])]) {
      if (m && typeof m === 'object' && !Array.isArray(m)) this.addMessage(m);
    }
  }

  private addMessage(m: JsonObject): void {
    this.messages.set(hashKey(m.hash as string), m);
    if (typeof m.hash_norm === 'string') this.messages.set(hashKey(m.hash_norm), m);
  }

  private add(r: Recording): void {
    const b = r.body;
    const keep = (o: object) => {
      const text = r.textOf.get(o);
      if (text !== undefined) this.textOf.set(o, text);
    };
    const walk = (v: Json) => {
      if (v === null || typeof v !== 'object') return;
      keep(v);
      for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x);
    };
    walk(b);
    for (const tr of asObjects(b.traces)) {
      const id = hashKey(tr.trace_id as string);
      this.traces.set(id, tr);
      if (asObjects(b.traces).length === 1) this.traceFile.set(id, r);
      const txs = tr.transactions;
      if (txs && typeof txs === 'object' && !Array.isArray(txs)) for (const tx of Object.values(txs)) this.addTransaction(tx as JsonObject);
      for (const a of asObjects(tr.actions)) this.actions.set(hashKey(a.action_id as string), a);
    }
    for (const tx of asObjects(b.transactions)) this.addTransaction(tx);
    for (const m of asObjects(b.messages)) this.addMessage(m);
    for (const a of asObjects(b.actions)) this.actions.set(hashKey(a.action_id as string), a);
    for (const bl of asObjects(b.blocks)) this.blocks.set(blockId(bl.workchain as number, String(bl.shard), bl.seqno as number), bl);
    for (const a of asObjects(b.accounts)) this.accountStates.set(addrKey(a.address as string), a);
    for (const w of asObjects(b.wallets)) this.walletStates.set(addrKey(w.address as string), w);
    for (const j of asObjects(b.jetton_masters)) this.jettonMasters.set(addrKey(j.address as string), j);
    for (const j of asObjects(b.jetton_wallets)) this.jettonWallets.set(addrKey(j.address as string), j);
    for (const n of asObjects(b.nft_items)) this.nftItems.set(addrKey(n.address as string), n);
    for (const n of asObjects(b.nft_collections)) this.nftCollections.set(addrKey(n.address as string), n);
    for (const [k, v] of Object.entries(asRecord(b.address_book))) if (tryAddrKey(k)) this.addressBook.set(addrKey(k), v);
    for (const [k, v] of Object.entries(asRecord(b.metadata))) if (tryAddrKey(k)) this.metadata.set(addrKey(k), v);
  }
}

const asRecord = (v: Json | undefined): Record<string, Json> => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});

/** v3 prints shards as upper-case hex of the uint64; requests may carry signed decimal. */
export function blockId(workchain: number, shard: string, seqno: number): string {
  const s = /^-?\d+$/.test(shard) ? BigInt.asUintN(64, BigInt(shard)) : BigInt('0x' + shard);
  return `${workchain}:${s.toString(16).toUpperCase().padStart(16, '0')}:${seqno}`;
}
